#!/bin/sh
# feroce-sweep report and plot on the fake scenario, whose metrics have known
# formulas: per combination, mean, sd and 95% CI (Student t) against values
# computed by hand; failed replications left out and counted; undefined
# metrics left out; the CSV; the pictures (PNG and SVG).
#   sweep-stats-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

# value = 10 x + seed, square = y seed^2, jain_min = 1 / (1 + y); seeds 1..4; with
# fail-seed=2 the replication of seed 2 exits 3 (failed), with fail-seed=9 none does.
cat > stats.sweep <<EOT
name stats
program $fake
flags --fail=3
param x list 2 5
param y list 1 3
param fail-seed list 9 2
replications 4
metrics value square jain_min undefined
plot heatmap value x y fail-seed=9
plot lines square y x
EOT
"$sweep" run stats.sweep -j 2 --dir s > run.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '32 points (8 combinations x 4 replications): 28 done, 4 failed' run.out && ok || bad "run: $rc $(cat run.out)"
"$sweep" report stats.sweep --dir s > report.txt 2> report.err; rc=$?
[ $rc -eq 0 ] && grep -q 'wrote s/report.csv' report.err && ok || bad "report: $rc $(cat report.err)"

# hand-computed, with t(0.975, 3) = 3.182446305 and t(0.975, 2) = 4.302652730 (tables):
#  seeds 1 2 3 4: value = 10x + (1 2 3 4): mean 10x + 5/2, sd sqrt(5/3), ci95 3.182446305 sd / sqrt(4)
#                 square = y (1 4 9 16): mean 15/2 y, sd sqrt(43) y, ci95 3.182446305 sd / 2
#  seeds 1 3 4 (seed 2 failed): value: mean 10x + 8/3, sd sqrt(7/3), ci95 4.302652730 sd / sqrt(3)
#                 square = y (1 9 16): mean 26/3 y, sd sqrt(169/3) y
t3=3.182446305
t2=4.302652730
calc() { awk "BEGIN { printf \"%.12g\", $1 }"; }
# check X Y FS COLUMN EXPECTED: the CSV cell of combination (x, y, fail-seed) within 1e-8 (relative)
check() {
    got=$(awk -F, -v x="$1" -v y="$2" -v fs="$3" -v col="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == x && $2 == y && $3 == fs { print $(c[col]) }' s/report.csv)
    if awk -v g="$got" -v e="$5" 'BEGIN { d = g - e; if (d < 0) d = -d; s = e < 0 ? -e : e;
                                          exit !(g != "" && d <= 1e-8 * (s > 1 ? s : 1)) }'; then ok
    else bad "x=$1 y=$2 fail-seed=$3 $4: got '$got', wanted $5"; fi
}
for x in 2 5; do
    for y in 1 3; do
        check $x $y 9 runs 4
        check $x $y 9 failed 0
        check $x $y 9 value_n 4
        check $x $y 9 value_mean "$(calc "10 * $x + 5 / 2")"
        check $x $y 9 value_sd "$(calc "sqrt(5 / 3)")"
        check $x $y 9 value_ci95 "$(calc "$t3 * sqrt(5 / 3) / 2")"
        check $x $y 9 square_mean "$(calc "15 / 2 * $y")"
        check $x $y 9 square_sd "$(calc "sqrt(43) * $y")"
        check $x $y 9 square_ci95 "$(calc "$t3 * sqrt(43) * $y / 2")"
        check $x $y 9 jain_min_mean "$(calc "1 / (1 + $y)")"
        check $x $y 9 jain_min_sd 0
        check $x $y 9 jain_min_ci95 0
        check $x $y 9 undefined_n 0
        check $x $y 2 runs 3
        check $x $y 2 failed 1
        check $x $y 2 value_n 3
        check $x $y 2 value_mean "$(calc "10 * $x + 8 / 3")"
        check $x $y 2 value_sd "$(calc "sqrt(7 / 3)")"
        check $x $y 2 value_ci95 "$(calc "$t2 * sqrt(7 / 3) / sqrt(3)")"
        check $x $y 2 square_mean "$(calc "26 / 3 * $y")"
        check $x $y 2 square_sd "$(calc "sqrt(169 / 3) * $y")"
        check $x $y 2 square_ci95 "$(calc "$t2 * sqrt(169 / 3) * $y / sqrt(3)")"
    done
done
# undefined metrics are empty cells, not zeros
[ "$(awk -F, 'NR == 2 { print $(NF - 2) "|" $(NF - 1) "|" $NF }' s/report.csv)" = "||" ] && ok || bad "undefined metric cells: $(sed -n 2p s/report.csv)"
head -1 s/report.csv | grep -q '^x,y,fail-seed,runs,failed,value_n,value_mean,value_sd,value_ci95,square_n,' && ok || bad "CSV header: $(head -1 s/report.csv)"
[ "$(wc -l < s/report.csv)" -eq 9 ] && ok || bad "CSV rows"
# the table: a header and one line per combination, mean ± ci95
head -1 report.txt | grep -q '^x  y  fail-seed  runs  failed  value (mean ± ci95)' && ok || bad "table header: $(head -1 report.txt)"
grep -q '^2  1  9  *4  *0  *22.5 ± 2.054  *7.5 ± 10.43  *0.5 ± 0  *-$' report.txt && ok || bad "table row: $(sed -n 2p report.txt)"
# --csv elsewhere
"$sweep" report stats.sweep --dir s --csv other.csv > /dev/null 2>&1 && cmp -s other.csv s/report.csv && ok || bad "--csv"
# a sweep not run yet: it says so, exits 2 and writes no (empty) report
sed 's/^name stats$/name fresh/' stats.sweep > fresh.sweep
"$sweep" report fresh.sweep --dir fresh > fresh.txt 2> fresh.err
[ $? -eq 2 ] && grep -q 'has not been run yet' fresh.err && [ ! -e fresh/report.csv ] && ok || bad "fresh report: $(cat fresh.err)"

# pictures: the file's plot lines, and one from the command line; PNG and SVG
if command -v gnuplot > /dev/null; then
    "$sweep" plot stats.sweep --dir s --out pics > plot.out 2>&1; rc=$?
    [ $rc -eq 0 ] && ok || bad "plot: $rc $(cat plot.out)"
    # the heatmap holds fail-seed fixed; the lines plot gives one picture per fail-seed value
    for f in stats-heatmap-value-x-y-fail-seed=9 stats-lines-square-y-x-fail-seed=9 stats-lines-square-y-x-fail-seed=2; do
        [ -s "pics/$f.png" ] && [ -s "pics/$f.svg" ] && ok || bad "no picture $f: $(ls pics)"
    done
    head -c 8 pics/stats-heatmap-value-x-y-fail-seed=9.png | od -c | grep -q 'P   N   G' && ok || bad "not a PNG"
    grep -q '<svg' pics/stats-lines-square-y-x-fail-seed=2.svg && ok || bad "not an SVG"
    # the heatmap's data are the report's means: x=5, y=3 -> 52.5
    grep -q '^1 1 52.5 4 52.5 ' s/plots/stats-heatmap-value-x-y-fail-seed=9.dat && ok || bad "heatmap data: $(cat s/plots/stats-heatmap-value-x-y-fail-seed=9.dat)"
    "$sweep" plot stats.sweep --dir s --out pics heatmap jain_min y x fail-seed=2 > plot2.out 2>&1 &&
        [ -s pics/stats-heatmap-jain_min-y-x-fail-seed=2.png ] && ok || bad "plot from the command line: $(cat plot2.out)"
    "$sweep" plot stats.sweep --dir s --out pics heatmap nosuch x y > plot3.out 2>&1; rc=$?
    [ $rc -eq 2 ] && grep -q 'metric "nosuch" is not allowed' plot3.out && ok || bad "bad plot: $rc $(cat plot3.out)"
else
    echo "gnuplot not installed: pictures not tested"
fi

finish
