#!/bin/sh
# Renders the pictures of a study run (PNG and SVG):
#   plots/render.sh RUNDIR [PREFIX]
# writes PREFIX-throughput, -queue, -rate, -jain .png/.svg (the ones whose data
# the run has); PREFIX defaults to plots/<RUNDIR's name>. Run from the repository root.
set -eu
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: plots/render.sh RUNDIR [PREFIX]" >&2; exit 2; }
dir=$1
prefix=${2:-plots/$(basename "$dir")}
[ -f "$dir/goodput.csv" ] || { echo "render.sh: $dir/goodput.csv missing: not a study run" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
mkdir -p "$(dirname "$prefix")"
cd "$(dirname "$0")/.."
param() { sed -n "s/^$1=//p" "$dir/params.txt" 2>/dev/null; }
n=$(( $(head -1 "$dir/goodput.csv" | tr ',' '\n' | wc -l) - 2 ))
onoff() { [ "$(param "$1")" = 1 ] && echo "$2" || echo "$3"; }
title="$(basename "$dir"): $n boards, $(onoff dcqcn "DCQCN $(param preset)" 'no DCQCN'), $(onoff pfc PFC 'no PFC')$(onoff pfcHonour '' ' (boards ignore PAUSE)'), ECN Kmin $(param kmin) B Kmax $(param kmax) B Pmax $(param pmax), PMTU $(param pmtu)"
kmin=$(param kmin); kmax=$(param kmax)
made=
for term in png svg; do
    for pic in throughput jain; do
        gnuplot -e "dir='$dir'; out='$prefix-$pic'; term='$term'; n=$n; t='$title'" plots/study-$pic.gp
        made="$made $prefix-$pic.$term"
    done
    if [ -f "$dir/series.csv" ] && head -1 "$dir/series.csv" | grep -q queue_to_receiver_bytes; then
        gnuplot -e "dir='$dir'; out='$prefix-queue'; term='$term'; kmin=${kmin:-0}; kmax=${kmax:-0}; t='$title'" plots/study-queue.gp
        made="$made $prefix-queue.$term"
    fi
    if [ -f "$dir/series.csv" ] && head -1 "$dir/series.csv" | grep -q board0_rc_gbps; then
        gnuplot -e "dir='$dir'; out='$prefix-rate'; term='$term'; n=$n; t='$title'" plots/study-rate.gp
        made="$made $prefix-rate.$term"
    fi
done
echo "render.sh: wrote$made"
