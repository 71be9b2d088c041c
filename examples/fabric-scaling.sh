#!/bin/sh
# Memory follows the flows in progress (a benchmark, not a test): 10^5 and 10^6 short flows
# (FbHdp sizes, Poisson at 30% load) on a 128-host three-tier fat-tree (k = 8) at 10 Gb/s, DCQCN
# with the hpcc preset; per run the flows completed, the events, whole-process CPU and peak
# memory, and CPU per event beside the 3:1 incast's (feroce-bench incast3, the median of nine
# runs made right after each fabric run: a shared host's load changes from minute to minute, so
# each ratio is of two figures of the same minutes).  The 10^6 run takes about half an hour of
# CPU.
#   sh examples/fabric-scaling.sh BUILD_DIR [FLOWS...]
# BUILD_DIR: a Release build for figures to quote (src/feroce/doc/build.md).
set -eu
build=$(cd "$1" && pwd)
shift
flows=${*:-100000 1000000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bin/feroce-topo" fat-tree --k=8 --host-rate=10Gbps -o "$tmp/k8.topo"
# 128 hosts at 30% of 10 Gb/s with flows of 120 420.75 B on average: 398 600 flows a second
echo "feroce: $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=/CMAKE_BUILD_TYPE=/p' "$build/CMakeCache.txt" 2>/dev/null)"
# incast3's CPU per event (ns), the median of nine runs (one is a few hundredths of a second)
incast3() {
    : > "$tmp/incast3"
    i=0
    while [ $i -lt 9 ]; do
        "$build/examples/feroce-bench" --scenario=incast3 | tr ' ' '\n' > "$tmp/bench"
        awk -F= '$1 == "cpu_s" { c = $2 } $1 == "delivered_pkts" { p = $2 } $1 == "events_per_pkt" { e = $2 }
            END { printf "%.1f\n", c / (p * e) * 1e9 }' "$tmp/bench" >> "$tmp/incast3"
        i=$((i + 1))
    done
    sort -n "$tmp/incast3" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo "| flows | simulated | completed | events | CPU s | CPU per event (ns) | incast3's, right after (ns) | ratio | peak MB | flows in progress at most |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $flows; do
    duration=$(awk -v n="$n" 'BEGIN { printf "%dms", (n / 398600 * 1.05 + 0.05) * 1000 }')
    /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$build/examples/feroce-fabric" --topology="$tmp/k8.topo" \
        --cdf="$here/cdf/FbHdp.txt" --load=0.3 --maxFlows="$n" --trafficStop=1000s --duration="$duration" \
        --preset=hpcc --outdir="$tmp/run" --db=none > "$tmp/out" 2>&1
    m() { sed -n "s/^$1=//p" "$tmp/run/metrics.txt"; }
    awk -v n="$n" -v d="$duration" -v c="$(m flows_completed)" -v e="$(m sim_events)" \
        -v a="$(m flows_active_max)" -v i3="$(incast3)" '{
        cpu = $1 + $2; pe = cpu / e * 1e9
        printf "| %d | %s | %d | %d | %.1f | %.0f | %.0f | %.2fx | %.0f | %d |\n", n, d, c, e, cpu, pe, i3, pe / i3, $3 / 1024, a }' "$tmp/t"
done
