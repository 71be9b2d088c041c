#!/bin/sh
# The camera sweep of the docs in small (examples/sweeps/advcam-camera-ci.sweep): every point
# runs, the report names the steady-state metrics, the pictures are drawn whole, and the sweep's
# answer holds: no event lost at the lowest trigger rate, events lost above the receiver's
# capacity, and more board buffer loses no more.
#   camera-sweep-test.sh FEROCE_SWEEP REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
sweep=$1
root=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
file=$root/examples/sweeps/advcam-camera-ci.sweep
"$sweep" run "$file" -j 2 --dir "$work/s" > "$work/run.out" 2>&1 || bad "run: $(tail -3 "$work/run.out")"
"$sweep" report "$file" --dir "$work/s" > "$work/report.out" 2>&1 || bad "report"
check "the report has the steady state" grep -q camera_events_lost_fraction_ss "$work/report.out"
q() { sqlite3 "$work/s/sweep.db" "$1"; }
lost() {
    q "SELECT json_extract(metrics, '\$.camera_events_lost_fraction_ss') FROM runs
       WHERE json_extract(params, '\$.triggerRate') = $1 AND json_extract(params, '\$.boardBuffer') = $2
         AND json_extract(params, '\$.kmax') = 400000"
}
check "every point a row" test "$(q 'SELECT count(*) FROM runs')" = 12
check "no loss at 60 kHz" test "$(lost 60000 65536)" = 0
check "loss above capacity" awk -v l="$(lost 100000 65536)" 'BEGIN { exit !(l > 0.05) }'
check "a larger buffer loses no more" awk -v a="$(lost 100000 65536)" -v b="$(lost 100000 262144)" \
    'BEGIN { exit !(b <= a) }'
if command -v gnuplot > /dev/null; then
    "$sweep" plot "$file" --dir "$work/s" --out "$work/pics" > "$work/plot.out" 2> "$work/plot.err" ||
        bad "plot: $(cat "$work/plot.err")"
    check "two pictures" test "$(ls "$work/pics"/*.png | wc -l)" = 2
    for f in "$work/pics"/*.png; do
        check "$f whole" test -s "$f"
    done
fi
finish
