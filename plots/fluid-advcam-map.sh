#!/bin/sh
# Stability map of the AdvCam bench (10 Gb/s boards, paper preset, Kmin 5 KB, ECN ramp to Pmax 1 at
# Kmax): the phase margin of the fluid model over Kmax x R_AI for 3, 10, 30 and 150 boards and loop
# delays of 2, 10, 30 and 100 us, and one picture with the zero-margin contour of every case.
#   sh plots/fluid-advcam-map.sh FEROCE_FLUID [RESULTS_DIR] [PLOTS_DIR]
set -eu
fluid=$1
results=${2:-results}/fluid-advcam-map
plots=${3:-plots}
mkdir -p "$results" "$plots"
for n in 3 10 30 150; do
    for d in 2 10 30 100; do
        "$fluid" map --line-rate=10Gbps --pmax=1 --flows=$n --delay=${d}us \
            --x=kmax:20KB:2MB:31:log --y=rai:1:100:31:log --out="$results/n$n-d$d" > /dev/null
    done
done
gnuplot -e "dir='$results'" -e "out='$plots/fluid-advcam-map.png'" "$(dirname "$0")/fluid-advcam-map.gp"
echo "wrote $results/*.csv and $plots/fluid-advcam-map.png"
