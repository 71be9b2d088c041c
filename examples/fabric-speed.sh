#!/bin/sh
# feroce against the HPCC simulator on the peer's own experiment (a benchmark, not a test): the
# files of examples/fabric/ (a k=4 fat-tree, 716 WebSearch flows at 50%, run.py's DCQCN), copied
# into the peer's mix/ folder and read by both; RUNS runs of each, alternated, whole-process CPU
# (user + system) and peak memory of each run, medians; then the slowdown per decade of flow
# size of both fct.txt (through feroce-topo fct-bins) and the picture plots/fabric-vs-hpcc.png.
#   sh examples/fabric-speed.sh BUILD_DIR HPCC_SIMULATION_DIR [RUNS]
# HPCC_SIMULATION_DIR: the peer's simulation/ folder, built (build/scratch/third), e.g. as
# src/feroce/doc/fabric.md says.  BUILD_DIR: a Release build (src/feroce/doc/build.md), as the
# peer is built with ns-3's optimized profile.
set -eu
build=$(cd "$1" && pwd)
sim=$(cd "$2" && pwd)
runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/fabric/fat_k4.txt" "$here/fabric/ws50.txt" "$sim/mix/"
cp "$here/fabric/k4-ws50-dcqcn.config" "$sim/mix/config_feroce_k4_ws50.txt"
# cpu_s peak_kb of one run of a command in $sim
timed() {
    out=$1
    shift
    (cd "$sim" && /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$@" > /dev/null 2>&1)
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$tmp/t" >> "$out"
}
i=0
while [ $i -lt "$runs" ]; do
    timed "$tmp/hpcc" env LD_LIBRARY_PATH="$sim/build" ./build/scratch/third mix/config_feroce_k4_ws50.txt
    timed "$tmp/feroce" "$build/examples/feroce-fabric" --config=mix/config_feroce_k4_ws50.txt \
        --outdir="$tmp/feroce-run" --db=none
    i=$((i + 1))
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
h=$(cut -d' ' -f1 "$tmp/hpcc" | median)
f=$(cut -d' ' -f1 "$tmp/feroce" | median)
hm=$(cut -d' ' -f2 "$tmp/hpcc" | median)
fm=$(cut -d' ' -f2 "$tmp/feroce" | median)
echo "feroce: $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=/CMAKE_BUILD_TYPE=/p' "$build/CMakeCache.txt" 2>/dev/null)"
echo "| simulator | CPU s (median of $runs) | peak MB |"
echo "|---|---|---|"
awk -v h="$h" -v f="$f" -v hm="$hm" -v fm="$fm" 'BEGIN {
    printf "| HPCC simulator | %.2f | %.1f |\n| feroce | %.2f | %.1f |\n\nferoce %.1fx faster\n\n", h, hm / 1024, f, fm / 1024, h / f }'
"$build/bin/feroce-topo" fct-bins "$sim/mix/fct_feroce_k4_ws50.txt" > "$tmp/hpcc-bins.csv"
"$build/bin/feroce-topo" fct-bins "$tmp/feroce-run/fct.txt" > "$tmp/feroce-bins.csv"
echo "| size from (B) | flows | HPCC p50 / p95 / p99 | feroce p50 / p95 / p99 |"
echo "|---|---|---|---|"
grep '^decade,background' "$tmp/hpcc-bins.csv" | cut -d, -f5,7-10 > "$tmp/h.dec"
grep '^decade,background' "$tmp/feroce-bins.csv" | cut -d, -f5,7-10 > "$tmp/f.dec"
paste -d, "$tmp/h.dec" "$tmp/f.dec" | awk -F, '{
    printf "| %s | %s | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f |\n", $1, $2, $3, $4, $5, $8, $9, $10 }'
gnuplot -e "in='$tmp/feroce-run/fct-bins.csv'; peer='$tmp/hpcc-bins.csv'; peername='HPCC simulator'" \
    -e "out='$here/../plots/fabric-vs-hpcc.png'" \
    -e "title='k=4 fat-tree, 25 Gb/s, WebSearch at 50%, DCQCN as run.py writes it: 716 flows'" \
    "$here/../plots/fabric-slowdown.gp"
echo "picture: plots/fabric-vs-hpcc.png"
