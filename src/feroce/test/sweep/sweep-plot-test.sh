#!/bin/sh
# feroce-sweep plot on the fake scenario: heatmaps with holes (cells left out by
# `require`, cells not run yet) drawn as holes; values with units on numeric axes
# in a readable unit; log scales chosen from the values or by keyword, zeros on a
# log axis; short names for ns-3 attributes in file names, titles, legends and
# the report's table; the fixed flags in the title; a picture that fails leaves
# no file (the previous one stays) and does not stop the others.
#   sweep-plot-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR PLOTS_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
plots=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
command -v gnuplot > /dev/null || { echo "gnuplot not installed: pictures not tested"; exit 77; }

# events = 1 ms / interval, decades = 10^y (0 at y = 0), value = 10 x + seed
cat > p.sweep <<EOT
name p
program $fake
flags --x=1 --ns3::DcqcnReactionPoint::RpgTimeReset=300us
param interval list 10us 20us 40us 80us 160us 1ms
param y list 0 1 2 3 4
param ns3::DcqcnReactionPoint::AiRate list 5Mbps 40Mbps
require y <= 3
metrics events decades value
plot lines events interval y AiRate=5Mbps
plot lines decades y interval AiRate=5Mbps
plot heatmap decades interval y AiRate=5Mbps
plot heatmap decades interval y AiRate=40Mbps lincb
plot lines value y ns3::DcqcnReactionPoint::AiRate interval=10us
EOT
"$sweep" run p.sweep -j 2 --dir s > run.out 2>&1 && ok || bad "run: $(cat run.out)"
"$sweep" plot p.sweep --dir s --out pics > plot.out 2> plot.err; rc=$?
[ $rc -eq 0 ] && [ ! -s plot.err ] && ok || bad "plot: $rc $(cat plot.err)"
# every picture whole, nothing half-made left beside them
for f in p-lines-events-interval-y-AiRate=5Mbps p-lines-decades-y-interval-AiRate=5Mbps \
         p-heatmap-decades-interval-y-AiRate=5Mbps p-heatmap-decades-interval-y-AiRate=40Mbps-lincb \
         p-lines-value-y-AiRate-interval=10us; do
    [ -s "pics/$f.png" ] && [ -s "pics/$f.svg" ] && ok || bad "no picture $f: $(ls pics)"
done
[ -z "$(ls -A pics | grep -v '\.\(png\|svg\)$')" ] && ok || bad "stray files: $(ls -A pics)"
svg() { tr -d '\n' < "pics/$1.svg"; }

# the heatmap over interval x y at AiRate=5Mbps: y=4 was left out by require, so its six cells
# are holes (n/a, n = 0); y=0 (decades 0) is a 0 on the log colour scale that 10..1000 need
dat=s/plots/p-heatmap-decades-interval-y-AiRate=5Mbps.dat
[ "$(grep -c ' NaN 0 n/a ' "$dat")" -eq 6 ] && ok || bad "holes: $(cat "$dat")"
grep -q '^0 4 NaN 0 n/a ' "$dat" && grep -q '^5 2 100 1 100 ' "$dat" && ok || bad "cells: $(cat "$dat")"
grep -q '^2 0 NaN 1 0 0 zero$' "$dat" && ok || bad "a zero on a log scale: $(cat "$dat")"
svg p-heatmap-decades-interval-y-AiRate=5Mbps | grep -q 'decades (log scale; light grey: 0)' && ok || bad "log colour scale label"
svg p-heatmap-decades-interval-y-AiRate=40Mbps-lincb | grep -q 'decades (log scale' && bad "lincb ignored" || ok
# the holes are hatched boxes with "n/a" written in each, the zeros light grey (#d0d0d0) boxes
[ "$(svg p-heatmap-decades-interval-y-AiRate=5Mbps | grep -o '>n/a<' | wc -l)" -eq 6 ] && ok || bad "n/a labels"
[ "$(svg p-heatmap-decades-interval-y-AiRate=5Mbps | grep -o 'url(#gpPat[0-9]*)' | wc -l)" -eq 6 ] && ok || bad "hatched holes"
[ "$(svg p-heatmap-decades-interval-y-AiRate=5Mbps | grep -o 'rgb(208, 208, 208)' | wc -l)" -eq 6 ] && ok || bad "grey zeros"
[ "$(svg p-heatmap-decades-interval-y-AiRate=40Mbps-lincb | grep -o 'rgb(208, 208, 208)' | wc -l)" -eq 0 ] && ok || bad "grey zeros on a linear scale"

# values with units: intervals placed at their value in us on a log axis (auto: they double)
dat=s/plots/p-lines-events-interval-y-AiRate=5Mbps.dat
[ "$(awk 'NF { print $1 }' "$dat" | sort -nu | tr '\n' ' ')" = "10 20 40 80 160 1000 " ] && ok || bad "x in us: $(cat "$dat")"
svg p-lines-events-interval-y-AiRate=5Mbps | grep -q 'interval (us, log scale)' && ok || bad "x label: unit and log scale"
svg p-lines-events-interval-y-AiRate=5Mbps | grep -q 'events (log scale)' && ok || bad "y: 1 to 100 events span two decades: log"
# decades against y: 0 at y = 0 is drawn at the bottom of the log axis
dat=s/plots/p-lines-decades-y-interval-AiRate=5Mbps.dat
grep -q '^0 NaN NaN NaN 1 5$' "$dat" && ok || bad "zero at the bottom (half of 10): $(head -3 "$dat")"
svg p-lines-decades-y-interval-AiRate=5Mbps | grep -q '0 (drawn at the bottom)' && ok || bad "zero's legend"
# short names: AiRate in the file name, the legend and the report; the fixed flags in the title
svg p-lines-value-y-AiRate-interval=10us | grep -q 'AiRate=40Mbps' && ok || bad "legend by short name"
svg p-lines-value-y-AiRate-interval=10us | grep -q 'with x=1, RpgTimeReset=300us' && ok || bad "fixed flags in the title"
"$sweep" report p.sweep --dir s > report.txt 2> /dev/null
head -1 report.txt | grep -q '^interval  y  AiRate  runs' && ok || bad "report header: $(head -1 report.txt)"
head -1 s/report.csv | grep -q '^interval,y,ns3::DcqcnReactionPoint::AiRate,runs' && ok || bad "CSV header: $(head -1 s/report.csv)"

# linx liny: the same picture on linear scales
"$sweep" plot p.sweep --dir s --out pics lines events interval y AiRate=5Mbps linx liny > /dev/null 2>&1 &&
    [ -s pics/p-lines-events-interval-y-AiRate=5Mbps-linx-liny.svg ] &&
    ! svg p-lines-events-interval-y-AiRate=5Mbps-linx-liny | grep -q 'log scale' && ok || bad "linx liny"

# every point failed: every cell a hole, the lines picture an empty frame that says so; exit 0
sed 's/^name p$/name q/; s/^flags --x=1 /flags --x=1 --fail=3 /' p.sweep > q.sweep
"$sweep" run q.sweep -j 2 --dir q > q-run.out 2>&1
"$sweep" plot q.sweep --dir q --out qpics > q.out 2> q.err; rc=$?
[ $rc -eq 0 ] && [ -s qpics/q-heatmap-decades-interval-y-AiRate=5Mbps.png ] && [ -s qpics/q-lines-events-interval-y-AiRate=5Mbps.png ] && ok || bad "nothing done: $rc $(cat q.err)"
[ "$(grep -c ' NaN 0 n/a ' q/plots/q-heatmap-decades-interval-y-AiRate=5Mbps.dat)" -eq 30 ] && ok || bad "all holes"
tr -d '\n' < qpics/q-lines-events-interval-y-AiRate=5Mbps.svg | grep -q 'no data yet' && ok || bad "no data yet"

# a picture that fails: its script breaks after the PNG.  The heatmaps are drawn, every lines
# picture fails alone (said on stderr, exit 1), leaves no file, and one drawn before stays
mkdir -p broken keep
cp "$plots/sweep-heatmap.gp" broken/ || exit 1
echo "set terminal pngcairo; set output out.'.png'; plot x; set output; plot undefined_in_this_test" > broken/sweep-lines.gp
echo old > keep/p-lines-decades-y-interval-AiRate=5Mbps.png
FEROCE_PLOTS_DIR=$PWD/broken "$sweep" plot p.sweep --dir s --out keep > broken.out 2> broken.err; rc=$?
[ $rc -eq 1 ] && ok || bad "a failed picture: exit $rc"
grep -q 'undefined_in_this_test' broken.err && grep -q '3 of 5 pictures failed (the others were drawn)' broken.err && ok || bad "failure messages: $(cat broken.err)"
[ -s keep/p-heatmap-decades-interval-y-AiRate=40Mbps-lincb.png ] && ok || bad "the heatmaps after a failed picture: $(ls keep)"
[ "$(cat keep/p-lines-decades-y-interval-AiRate=5Mbps.png)" = old ] && ok || bad "the previous picture replaced"
[ -z "$(ls -A keep | grep -v '^p-heatmap' | grep -v '^p-lines-decades-y-interval-AiRate=5Mbps.png$')" ] && ok || bad "files left by failed pictures: $(ls -A keep)"

finish
