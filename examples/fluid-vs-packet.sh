#!/bin/sh
# Packet versus fluid: the same DCQCN incast in feroce's packet model (fluid-vs-packet) and in its
# fluid model (feroce-fluid run), at 10 Gb/s (the AdvCam bench, 3 boards) and at 40 Gb/s (the
# paper: 2 and 10 flows at a 4 us loop; 64 flows at an 85 us loop with Kmax 2000 KB, Pmax 0.1), and
# the feroce extensions at 10 Gb/s: the hpcc preset (with its ECN ramp) and connectx.
# Writes OUTDIR/table.md (means over 50-200 ms of queue, Rc, Rt and alpha, with fluid/packet
# ratios) and OUTDIR/CASE.png (queue and board 0's rates over time, both models).
#   sh examples/fluid-vs-packet.sh BUILD_DIR [OUTDIR]
# The fluid runs twice per case: the paper's model as published (1000-B packets, CNP term a/tau)
# and with feroce's terms (the wire frame of a 1024-B PMTU packet, 1106 B, and the notification
# point's CNP renewal rate, --cnp-model=np).  src/feroce/doc/fluid.md discusses the table.
set -eu
build=$1
out=${2:-results/fluid-vs-packet}
here=$(cd "$(dirname "$0")" && pwd)
packet=$build/examples/fluid-vs-packet
fluid=$build/bin/feroce-fluid
mkdir -p "$out"

# name boards rate link_delay fluid_delay preset kmin kmax pmax
cases="10g-3 3 10Gbps 1us 4us paper 5000 200000 0.01
40g-2 2 40Gbps 1us 4us paper 5000 200000 0.01
40g-10 10 40Gbps 1us 4us paper 5000 200000 0.01
40g-64-85us 64 40Gbps 21us 85us paper 5000 2000000 0.1
10g-3-hpcc 3 10Gbps 1us 4us hpcc 40000 160000 0.2
10g-3-connectx 3 10Gbps 1us 4us connectx 5000 200000 0.01"

# mean of columns over 50 <= t < 200 ms: packet series (t_ns, queue, then rc rt alpha per board)
packet_means() {
    awk -F, 'NR > 1 && $1 >= 50e6 && $1 <= 200e6 {
        n++; q += $2; b = (NF - 2) / 3
        for (i = 0; i < b; i++) { rc += $(3 + 3 * i); rt += $(4 + 3 * i); al += $(5 + 3 * i) }
    } END { printf "%.6g %.6g %.6g %.6g\n", q / n, rc / n / b * 1e9, rt / n / b * 1e9, al / n / b }' "$1"
}
# fluid series: t_s, q_bytes, p, rc0, rt0, alpha0
fluid_means() {
    awk -F, 'NR > 1 && $1 >= 0.05 && $1 <= 0.2 { n++; q += $2; rc += $4; rt += $5; al += $6 }
        END { printf "%.6g %.6g %.6g %.6g\n", q / n, rc / n, rt / n, al / n }' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

{
    echo "| case | model | queue (KB) | Rc (Gb/s) | Rt (Gb/s) | alpha | queue fluid/packet | Rc f/p | alpha f/p |"
    echo "|---|---|---|---|---|---|---|---|---|"
} > "$out/table.md.tmp"
echo "$cases" | while read -r name boards rate link delay preset kmin kmax pmax; do
    "$packet" --boards="$boards" --lineRate="$rate" --linkDelay="$link" --preset="$preset" --kmin="$kmin" \
        --kmax="$kmax" --pmax="$pmax" \
        --duration=200ms --window=100us --db=none --outdir="$out/$name-packet" > "$out/$name-packet.log"
    "$fluid" run --line-rate="$rate" --flows="$boards" --delay="$delay" --preset="$preset" --kmin="$kmin" \
        --kmax="$kmax" --pmax="$pmax" --duration=200ms --window=100us --out="$out/$name-fluid-paper.csv"
    "$fluid" run --line-rate="$rate" --flows="$boards" --delay="$delay" --preset="$preset" --kmin="$kmin" \
        --kmax="$kmax" --pmax="$pmax" --packet-bytes=1106 --cnp-model=np --duration=200ms --window=100us --out="$out/$name-fluid-np.csv"
    set -- $(packet_means "$out/$name-packet/series.csv")
    pq=$1 prc=$2 prt=$3 pal=$4
    printf "| %s | packet | %.1f | %.3f | %.3f | %.3f | | | |\n" "$name" "$(ratio "$pq" 1000)" \
        "$(ratio "$prc" 1e9)" "$(ratio "$prt" 1e9)" "$pal" >> "$out/table.md.tmp"
    for model in paper np; do
        set -- $(fluid_means "$out/$name-fluid-$model.csv")
        printf "| %s | fluid %s | %.1f | %.3f | %.3f | %.3f | %s | %s | %s |\n" "$name" "$model" \
            "$(ratio "$1" 1000)" "$(ratio "$2" 1e9)" "$(ratio "$3" 1e9)" "$4" "$(ratio "$1" "$pq")" \
            "$(ratio "$2" "$prc")" "$(ratio "$4" "$pal")" >> "$out/table.md.tmp"
    done
    gnuplot -e "dir='$out'" -e "name='$name'" "$here/../plots/fluid-vs-packet.gp"
done
mv "$out/table.md.tmp" "$out/table.md"
cat "$out/table.md"
echo "wrote $out/table.md and $out/*.png"
