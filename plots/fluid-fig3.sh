#!/bin/sh
# The paper's Fig. 3 (Zhu et al., CoNEXT 2016): phase margin of the linearised DCQCN loop against
# the number of flows N for loop delays tau* = 0, 50 and 100 us, at 40 Gb/s with the paper's
# parameters (R_AI 40 Mb/s, Kmin 5 KB, Kmax 200 KB, Pmax 1%, no hyper increase) and the ramp
# continued past Kmax as the paper's analysis does (--ramp=linear).
#   sh plots/fluid-fig3.sh FEROCE_FLUID [RESULTS_DIR] [PLOTS_DIR]
set -eu
fluid=$1
results=${2:-results}
plots=${3:-plots}
mkdir -p "$results" "$plots"
csv=$results/fluid-fig3.csv
echo "flows,margin_0us,margin_50us,margin_100us,crossover_hz_0us,crossover_hz_50us,crossover_hz_100us" > "$csv.tmp"
for n in 2 4 6 8 10 12 14 16 18 20 24 28 32 36 40 44 48 52 56 60; do
    row=$n
    hz=
    for d in 0us 50us 100us; do
        line=$("$fluid" margin --line-rate=40Gbps --rhai=0 --ramp=linear --flows=$n --delay=$d)
        pm=$(echo "$line" | sed 's/^phase_margin_deg=\([^ ]*\) .*/\1/')
        f=$(echo "$line" | sed 's/.*crossover_hz=//')
        row=$row,$pm
        hz=$hz,$f
    done
    echo "$row$hz" >> "$csv.tmp"
done
mv "$csv.tmp" "$csv"
gnuplot -e "in='$csv'" -e "out='$plots/fluid-fig3.png'" "$(dirname "$0")/fluid-fig3.gp"
echo "wrote $csv $plots/fluid-fig3.png"
