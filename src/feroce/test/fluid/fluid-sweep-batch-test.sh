#!/bin/sh
# feroce-sweep's batches (the sweep file's "batch N"): the fluid scenario run many points per process
# writes the same rows as one process per point (all but the timing columns), fails the same points
# with the same messages and no row, resumes (a rerun runs nothing, --retry-failed only the failed),
# and a batch whose process fails fails each of its points, with no row.
#   fluid-sweep-batch-test.sh FEROCE_SWEEP FEROCE_FLUID_STUDY WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
study=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# 2 x 2 x 3 points; g = 2 is refused by name (exit status 2, no row)
cat > grid.sweep <<EOT
name grid
program $study
flags --line-rate=10Gbps --duration=4ms --window=100us
param flows list 3 30
param delay list 4us 100us
param g list 0.00390625 0.0625 2
metrics phase_margin_deg queue_mean_bytes
EOT
sed 's/^name grid$/name grid\nbatch 5/' grid.sweep > batched.sweep
q() { sqlite3 "$1" "$2"; }
# the rows but their timing, by point (the same --dir, so outdir and command agree too)
rows() {
    q "$1" "select p.key, r.scenario, r.version, r.seed, r.sim_s, r.outdir, r.command, r.params, r.metrics,
              r.goodput_gbps, r.jain_min, r.jain_mean
       from points p join runs r on r.id = p.run_id order by p.key"
}
failed() { q "$1" "select key, status, exit_status, error, stderr_tail, command from points where status = 'failed' order by key"; }

"$sweep" run grid.sweep -j 2 --dir s > one.out 2> one.err
grep -q 'grid: 12 points .*8 done, 4 failed' one.out || bad "per point: $(cat one.out one.err)"
cp s/sweep.db one.db
rm -rf s
"$sweep" run batched.sweep -j 2 --dir s > batch.out 2> batch.err
grep -q 'grid: 12 points .*8 done, 4 failed' batch.out || bad "batches: $(cat batch.out batch.err)"
[ "$(ls s/batches | grep -c -v points)" = 3 ] || bad "expected 3 batches (5, 5 and 2 points): $(ls s/batches)"
rows one.db > one.rows
rows s/sweep.db > batch.rows
[ "$(wc -l < one.rows)" = 8 ] || bad "per-point rows: $(wc -l < one.rows)"
cmp -s one.rows batch.rows || bad "rows differ: $(diff one.rows batch.rows | head -5)"
failed one.db > one.failed
failed s/sweep.db > batch.failed
cmp -s one.failed batch.failed || bad "failed points differ: $(diff one.failed batch.failed | head -5)"
grep -q '|failed|2|exit status 2|feroce-fluid-study: g = 2 is not allowed: expected (0, 1]|' batch.failed ||
    bad "failed point: $(head -1 batch.failed)"
[ "$(q s/sweep.db "select count(*) from runs")" = 8 ] || bad "a failed point left a row"
grep -q 'g = 2 is not allowed' batch.err || bad "failures not reported: $(cat batch.err)"
ls s/batches/*.points > /dev/null 2>&1 && bad "points files left behind"
# resume: nothing to run; --retry-failed runs the 4 failed points again (in one batch per job)
"$sweep" run batched.sweep --dir s > rerun.out 2>&1
grep -q 'nothing to run' rerun.out || bad "rerun: $(cat rerun.out)"
"$sweep" run batched.sweep --dir s --retry-failed > retry.out 2>&1
grep -q 'this run: 4 points (0 done, 4 failed)' retry.out || bad "retry: $(cat retry.out)"
[ "$(q s/sweep.db "select group_concat(distinct attempts) from points where status = 'failed'")" = 2 ] ||
    bad "attempts after a retry"
# a batch process that fails (here: a program without --batch) fails each of its points, no row
printf '#!/bin/sh\necho "no --batch here" >&2\nexit 3\n' > fails.sh
chmod +x fails.sh
cat > nobatch.sweep <<EOT
name nobatch
program ./fails.sh
param x list 1 2 3
batch 10
EOT
"$sweep" run nobatch.sweep -j 1 --dir n > nb.out 2> nb.err
grep -q 'nobatch: 3 points .*0 done, 3 failed' nb.out || bad "failing batch: $(cat nb.out nb.err)"
[ "$(q n/sweep.db "select count(*) from runs")" = 0 ] || bad "a failing batch left rows"
[ "$(q n/sweep.db "select distinct error from points")" = "its batch process (3 points) failed: exit status 3" ] ||
    bad "failing batch reason: $(q n/sweep.db 'select error from points')"
[ "$(q n/sweep.db "select distinct stderr_tail from points")" = "no --batch here" ] || bad "failing batch's stderr"
# bad input: the directive is checked by name
printf 'program %s\nbatch 0\n' "$study" > bad.sweep
"$sweep" run bad.sweep --dir b > bad.out 2>&1
[ $? = 2 ] || bad "batch 0: exit status"
grep -q 'batch = "0" is not allowed: expected an integer in \[1, 100000\]' bad.out || bad "batch 0: $(cat bad.out)"
"$study" --batch=missing.txt --db=x.db > /dev/null 2> miss.err
[ $? = 2 ] && grep -q 'batch = missing.txt is not allowed' miss.err || bad "missing batch file: $(cat miss.err)"
"$study" --batch=grid.sweep --flows=3 --db=x.db > /dev/null 2> mix.err
[ $? = 2 ] && grep -q 'is not allowed with --batch' mix.err || bad "--batch with a model flag: $(cat mix.err)"
"$study" --help > help.out 2>&1 && grep -q -- '--batch=FILE --db=FILE' help.out || bad "--help: $(cat help.out)"
[ $fail -eq 0 ] && echo "fluid-sweep-batch: all passed"
exit $fail
