#!/bin/sh
# The AdvCam stability map (plots/fluid-advcam-map.sh) checked by packet runs: points on both sides
# of the zero-margin line, 3 and 30 boards at 10 Gb/s, paper preset, ECN ramp to Pmax 1, PFC off, the loop
# delay made of four link delays.  For each point: the fluid margin, and the queue's spread
# (10th to 90th percentile of the per-100-us maximum, 50-150 ms) in the packet model and in the
# fluid model; a negative margin should come with a wide, periodic swing.  Also the fraction of
# packets the switch marked against the fluid's equilibrium marking probability p*.
#   sh examples/fluid-advcam-checks.sh BUILD_DIR [OUTDIR]
set -eu
build=$1
out=${2:-results/fluid-advcam-checks}
mkdir -p "$out"
# boards delay_us kmax_bytes rai_mbps
points="3 100 1500000 2
3 100 200000 40
30 100 2000000 10
30 100 300000 10
30 30 800000 3
30 30 100000 30"
spread() { # CSV column of queue bytes, time column in unit; prints p10 p50 p90 in KB
    awk -F, -v c="$2" -v s="$3" 'NR > 1 && $1 * s >= 0.05 && $1 * s <= 0.15 { print $c / 1e3 }' "$1" |
        sort -g | awk '{ v[NR] = $1 } END { printf "%.0f %.0f %.0f", v[int(NR * 0.1) + 1], v[int(NR * 0.5) + 1], v[int(NR * 0.9)] }'
}
{
    echo "| boards | loop (us) | Kmax (KB) | R_AI (Mb/s) | phase margin (deg) | packet queue p10/p50/p90 (KB) | fluid queue p10/p50/p90 (KB) | packets marked | fluid p* |"
    echo "|---|---|---|---|---|---|---|---|---|"
} > "$out/table.md.tmp"
echo "$points" | while read -r n d kmax rai; do
    name=n$n-d$d-k$kmax-r$rai
    link=$(awk -v d="$d" 'BEGIN { printf "%gns", d * 1000 / 4 }')
    margin=$("$build/bin/feroce-fluid" margin --flows=$n --pmax=1 --delay=${d}us --kmax=$kmax --rai=$rai |
        sed 's/phase_margin_deg=\([^ ]*\) .*/\1/')
    "$build/examples/advcam-incast" --boards=$n --leave=0 --pfc=0 --pmax=1 --pmtu=1024 --kmax=$kmax --rai=$rai \
        --linkDelay=$link --duration=150ms --window=100us --db=none --outdir="$out/$name" > "$out/$name.log"
    "$build/bin/feroce-fluid" run --flows=$n --pmax=1 --delay=${d}us --kmax=$kmax --rai=$rai \
        --duration=150ms --window=100us --out="$out/$name-fluid.csv"
    pstar=$("$build/bin/feroce-fluid" fixedpoint --flows=$n --pmax=1 --delay=${d}us --kmax=$kmax --rai=$rai |
        sed -n 's/^p=//p')
    marked=$(awk -F= '$1 == "ecn_marks" { m = $2 } $1 == "goodput_gbps" { g = $2 }
        END { printf "%.4f", m / (g * 1e9 * 0.15 / (1024 * 8)) }' "$out/$name/metrics.txt")
    # the fluid's queue as the packet study samples it: the maximum over each 100 us window
    echo "| $n | $d | $((kmax / 1000)) | $rai | $margin | $(spread "$out/$name/series.csv" 2 1e-9 | tr ' ' /) |" \
        "$(spread "$out/$name-fluid.csv" 2 1 | tr ' ' /) | $marked | $(printf %.4f "$pstar") |" >> "$out/table.md.tmp"
done
mv "$out/table.md.tmp" "$out/table.md"
cat "$out/table.md"
