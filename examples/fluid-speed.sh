#!/bin/sh
# Speed of the fluid model against the packet model of the same scenario (a benchmark, not a test):
# 100 ms simulated, CPU seconds (user + system) of the whole program (the packet model's: a 5-run loop / 5, the
# fluid's: a 20-run loop / 20, as time counts in 10 ms steps), minimum of REPEATS runs with
# the two models alternating; the fluid with its default adaptive integrator (bs3) and with fixed-step
# RK4 at 500 ns (--method=rk4).  Then feroce-fluid-bench (in-process times, steps and the values
# reached by both integrators, and the margin per point).
#   sh examples/fluid-speed.sh BUILD_DIR [REPEATS]
set -eu
build=$1
repeats=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpun() { # N command... -> CPU seconds per run of N runs in a row (time counts in 10 ms steps)
    n=$1
    shift
    /usr/bin/time -f "%U %S" -o "$tmp/t" sh -c 'n=$1; shift; i=0; while [ $i -lt $n ]; do "$@" || exit 1; i=$((i + 1)); done' \
        sh "$n" "$@" > /dev/null 2>&1
    awk -v n="$n" '{ printf "%.5f", ($1 + $2) / n }' "$tmp/t"
}
cpu20() { # command... -> CPU seconds per run of 20 runs in a row (one run is below time's 10 ms resolution)
    cpun 20 "$@"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
echo "| scenario | packet model (s) | fluid, bs3 (s) | fluid, rk4 500 ns (s) | ratio (bs3) | ratio (rk4) |"
echo "|---|---|---|---|---|---|"
# name boards rate link_delay fluid_delay kmax pmax
echo "advcam 3:1, 10 Gb/s|3|10Gbps|1us|4us|200000|0.01
paper, 10 flows, 40 Gb/s|10|40Gbps|1us|4us|200000|0.01" | while IFS='|' read -r name n rate link delay kmax pmax; do
    p=
    f=
    g=
    r=0
    while [ $r -lt "$repeats" ]; do
        p=$(min "$(cpun 5 "$build/examples/fluid-vs-packet" --boards=$n --lineRate=$rate --linkDelay=$link \
            --kmax=$kmax --pmax=$pmax --duration=100ms --db=none --outdir="$tmp/p")" "$p")
        f=$(min "$(cpu20 "$build/bin/feroce-fluid" run --flows=$n --line-rate=$rate --delay=$delay --kmax=$kmax \
            --pmax=$pmax --duration=100ms --window=100us --out="$tmp/f.csv")" "$f")
        g=$(min "$(cpu20 "$build/bin/feroce-fluid" run --flows=$n --line-rate=$rate --delay=$delay --kmax=$kmax \
            --pmax=$pmax --method=rk4 --step=500ns --duration=100ms --window=100us --out="$tmp/g.csv")" "$g")
        r=$((r + 1))
    done
    awk -v n="$name" -v p="$p" -v f="$f" -v g="$g" 'BEGIN {
        printf "| %s | %.4f | %.5f | %.5f | %.0fx | %.0fx |\n", n, p, f, g, p / f, p / g }'
done
"$build/bin/feroce-fluid-bench" 5
