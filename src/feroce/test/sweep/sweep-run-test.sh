#!/bin/sh
# feroce-sweep run as a user runs it, on the fake scenario: points run and
# recorded; a second run skips them; failures (exit status, crash, kill -9,
# timeout, no row) recorded with their stderr and retried on request; kill -9
# of the driver mid-sweep, three times, then a resume: every point done
# exactly once; one driver per sweep; progress only on a terminal.
#   sweep-run-test.sh FEROCE_SWEEP FAKE_SCENARIO WORK_DIR
. "$(dirname "$0")/../lib.sh"
sweep=$1
fake=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
q() { sqlite3 "$1/sweep.db" "$2"; }

# --- a small sweep: every point runs once, into its own directory, and is recorded
mkdir basic
cat > basic.sweep <<EOT
name basic
program $fake
flags --duration=2ms --log=$work/basic
param x list 1 2 3
param label list "a b"
replications 2
metrics goodput_gbps value
EOT
"$sweep" run basic.sweep -j 2 --dir b > run1.out 2> run1.err; rc=$?
[ $rc -eq 0 ] && ok || bad "basic run: exit status $rc: $(cat run1.err)"
grep -q 'basic: 6 points (3 combinations x 2 replications): 6 done, 0 failed, 0 not run' run1.out && ok || bad "basic summary: $(cat run1.out)"
grep -q 'this run: 6 points (6 done, 0 failed) in .* on 2 jobs; .*driver overhead' run1.out && ok || bad "basic timing: $(cat run1.out)"
[ ! -s run1.err ] && ok || bad "stderr not quiet off a terminal: $(cat run1.err)"
[ "$(q b "SELECT count(*) FROM points WHERE status = 'done'")" = 6 ] && ok || bad "basic: done points"
[ "$(q b "SELECT count(*) FROM runs")" = 6 ] && ok || bad "basic: runs"
[ "$(wc -l < basic/runs.log)" -eq 6 ] && ok || bad "basic: $(wc -l < basic/runs.log) executions"
# each points row names its run, whose seed and parameters are the point's
[ "$(q b "SELECT count(*) FROM points p JOIN runs r ON r.id = p.run_id WHERE r.seed = p.seed AND
          json_extract(r.params, '\$.x') = json_extract(p.combo, '\$.x') AND json_extract(r.params, '\$.label') = 'a b'
          AND r.outdir LIKE '%/' || p.key")" = 6 ] && ok || bad "basic: rows do not match their points"
for d in b/points/*; do [ -f "$d/out.csv" ] && [ -f "$d/stdout.txt" ] && [ -f "$d/stderr.txt" ] || bad "no outputs in $d"; done
[ "$(ls b/points | wc -l)" -eq 6 ] && ok || bad "basic: point directories: $(ls b/points)"

# a program that exits without closing its --db leaves its row in the write-ahead log: still read
cat > wal.sweep <<EOT
name wal
program $fake
flags --noclose=1
param x list 1 2
EOT
"$fake" --noclose=1 --outdir=walcheck --db=walcheck/run.db && [ -s walcheck/run.db-wal ] && ok || bad "--noclose leaves no WAL"
"$sweep" run wal.sweep --dir w > wal.out 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(q w 'SELECT count(*) FROM runs')" = 2 ] && ok || bad "row in the WAL: $rc $(cat wal.out)"

# --- the same sweep again: nothing runs; one more value: only its points run
"$sweep" run basic.sweep -j 2 --dir b > run2.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'nothing to run' run2.out && ok || bad "rerun: $rc $(cat run2.out)"
[ "$(wc -l < basic/runs.log)" -eq 6 ] && [ "$(q b "SELECT count(*) FROM runs")" = 6 ] && ok || bad "rerun ran points again"
sed -i 's/^param x list 1 2 3$/param x list 1 2 3 4/' basic.sweep
"$sweep" run basic.sweep --dir b > run3.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'this run: 2 points (2 done' run3.out && ok || bad "grown grid: $rc $(cat run3.out)"
[ "$(wc -l < basic/runs.log)" -eq 8 ] && [ "$(q b "SELECT count(*) FROM runs")" = 8 ] && ok || bad "grown grid: executions"

# --- failures: recorded with exit status / signal / timeout and stderr, reported, not dropped
cat > fail.sweep <<EOT
name fail
program $fake
flags --x=1
param mode list ok fail crash kill hang norow tworows
timeout 30
EOT
"$sweep" run fail.sweep -j 4 --timeout 1 --dir f > fail.out 2> fail.err; rc=$?
[ $rc -eq 1 ] && ok || bad "failing sweep: exit status $rc"
grep -q 'fail: 7 points (7 combinations x 1 replications): 1 done, 6 failed, 0 not run' fail.out && ok || bad "fail summary: $(cat fail.out)"
grep -q '6 failed points: "feroce-sweep status fail.sweep" lists them' fail.out && ok || bad "fail hint: $(cat fail.out)"
row() { q f "SELECT status, exit_status, signal, timed_out, attempts FROM points WHERE combo = '{\"mode\":\"$1\"}'"; }
[ "$(row ok)" = "done|0||0|1" ] && ok || bad "ok: $(row ok)"
[ "$(row fail)" = "failed|3||0|1" ] && ok || bad "fail: $(row fail)"
[ "$(row crash)" = "failed||6|0|1" ] && ok || bad "crash: $(row crash)"
[ "$(row kill)" = "failed||9|0|1" ] && ok || bad "kill -9 of a point: $(row kill)"
[ "$(row hang)" = "failed|||1|1" ] && ok || bad "timeout: $(row hang)"
[ "$(row norow)" = "failed|0||0|1" ] && ok || bad "no row: $(row norow)"
[ "$(row tworows)" = "failed|0||0|1" ] && ok || bad "two rows: $(row tworows)"
[ "$(q f "SELECT count(*) FROM runs")" = 1 ] && ok || bad "a failed point left a row in runs"
q f "SELECT stderr_tail FROM points WHERE combo = '{\"mode\":\"fail\"}'" | grep -q 'failing with status 3 as asked' && ok || bad "stderr tail"
q f "SELECT error FROM points WHERE combo = '{\"mode\":\"norow\"}'" | grep -q 'exited 0 but its --db holds 0 runs' && ok || bad "no row error"
q f "SELECT error FROM points WHERE combo = '{\"mode\":\"hang\"}'" | grep -q 'timed out after 1.0 s' && ok || bad "timeout error"
for m in fail crash kill hang norow tworows; do grep -q "(mode=$m, seed 1) failed: " fail.err || bad "failure of $m not reported: $(cat fail.err)"; done
grep -q 'failed: exit status 3: "fake-scenario: failing with status 3 as asked (RngRun 1)"' fail.err && ok || bad "report: $(cat fail.err)"
grep -q 'failed: killed by signal 6' fail.err && grep -q 'failed: timed out after' fail.err && ok || bad "report of signals"
"$sweep" status fail.sweep --dir f > status.out; rc=$?
[ $rc -eq 1 ] && grep -q 'fail: 7 points: 1 done, 6 failed, 0 not run' status.out && ok || bad "status: $rc $(cat status.out)"
grep -q '    fake-scenario: crashing as asked' status.out && grep -q 'command: .*fake-scenario --x=1 --mode=crash --RngRun=1 --outdir=' status.out &&
    ok || bad "status details: $(cat status.out)"
# run again: failed points are not retried unless asked, and are still reported
"$sweep" run fail.sweep --timeout 1 --dir f > fail2.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'nothing to run' fail2.out && grep -q '6 failed points' fail2.out && ok || bad "rerun of failures: $rc $(cat fail2.out)"
"$sweep" run fail.sweep -j 4 --timeout 1 --retry-failed --dir f > fail3.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'this run: 6 points (0 done, 6 failed)' fail3.out && ok || bad "retry of failures: $rc $(cat fail3.out)"
[ "$(row crash)" = "failed||6|0|2" ] && ok || bad "second attempt not counted: $(row crash)"

# --- a point that fails, then succeeds when retried
cat > retry.sweep <<EOT
name retry
program $fake
flags --fail-unless=$work/marker
param x list 1 2
EOT
"$sweep" run retry.sweep --dir r > retry1.out 2>&1; [ $? -eq 1 ] && ok || bad "retry: first run should fail"
mkdir marker
"$sweep" run retry.sweep --dir r --retry-failed > retry2.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '2 done, 0 failed' retry2.out && ok || bad "retry: $rc $(cat retry2.out)"
[ "$(q r "SELECT group_concat(status || attempts, ' ') FROM points")" = "done2 done2" ] && ok || bad "retry rows: $(q r 'SELECT * FROM points')"

# --- kill -9 of the driver mid-sweep, three times, then a resume
mkdir kill
cat > kill.sweep <<EOT
name kill
program $fake
flags --sleep=0.12 --log=$work/kill
param x lin 1 12 12
param y list 0 1
replications 2
EOT
total=48
for attempt in 1 2 3; do
    "$sweep" run kill.sweep -j 2 --dir k > "kill$attempt.out" 2>&1 &
    pid=$!
    # wait until a few more points are recorded, then kill -9 at some moment of a point's life
    want=$((attempt * 5))
    i=0
    while [ "$(sqlite3 k/sweep.db 'SELECT count(*) FROM points' 2> /dev/null || echo 0)" -lt $want ] && [ $i -lt 200 ]; do
        sleep 0.02
        i=$((i + 1))
    done
    sleep "0.0$((attempt * 3))"
    kill -9 $pid
    wait $pid 2> /dev/null
    # consistent at once: every done point has its run and every run its point
    [ "$(q k "SELECT count(*) FROM points WHERE status = 'done'")" = "$(q k 'SELECT count(*) FROM runs')" ] &&
        [ "$(q k 'SELECT count(*) FROM points p JOIN runs r ON r.id = p.run_id')" = "$(q k 'SELECT count(*) FROM runs')" ] &&
        ok || bad "kill $attempt: inconsistent: $(q k 'SELECT count(*) FROM points') points, $(q k 'SELECT count(*) FROM runs') runs"
done
done_before=$(q k "SELECT count(*) FROM points")
[ "$done_before" -gt 10 ] && [ "$done_before" -lt $total ] && ok || bad "kills came too early or too late: $done_before done"
# the points that were running died with the driver: nothing more is written
lines=$(wc -l < kill/runs.log)
sleep 0.4
[ "$(wc -l < kill/runs.log)" -eq "$lines" ] && ok || bad "points went on running after kill -9 of the driver"
"$sweep" run kill.sweep -j 2 --dir k > resume.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "kill: $total points .*: $total done, 0 failed, 0 not run" resume.out && ok || bad "resume: $rc $(cat resume.out)"
grep -q "this run: $((total - done_before)) points" resume.out && ok || bad "resume ran other than the missing points: $(cat resume.out)"
[ "$(q k "SELECT count(*), count(DISTINCT key), count(DISTINCT run_id) FROM points WHERE status = 'done'")" = "$total|$total|$total" ] &&
    [ "$(q k 'SELECT count(*) FROM runs')" = $total ] && ok || bad "not every point exactly once: $(q k 'SELECT count(*) FROM runs') runs"
[ "$(q k "SELECT count(DISTINCT json_extract(params, '\$.x') || '/' || json_extract(params, '\$.y') || '/' || seed) FROM runs")" = $total ] &&
    ok || bad "runs do not cover the grid"
# the database is sound
[ "$(q k 'PRAGMA integrity_check')" = ok ] && ok || bad "integrity_check"

# --- SIGTERM: the driver stops its points, keeps what finished, says so; a rerun completes
cat > term.sweep <<EOT
name term
program $fake
flags --sleep=0.3
param x lin 1 6 6
EOT
"$sweep" run term.sweep -j 2 --dir t > term.out 2> term.err &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid; rc=$?
[ $rc -eq 143 ] && grep -q 'interrupted (Terminated): .* points finished and recorded; 2 running points stopped' term.err && ok ||
    bad "SIGTERM: $rc $(cat term.err)"
"$sweep" run term.sweep -j 2 --dir t > term2.out 2>&1 && grep -q '6 done' term2.out && ok || bad "after SIGTERM: $(cat term2.out)"

# --- one driver per sweep
cat > lock.sweep <<EOT
name lock
program $fake
flags --sleep=1
param x list 1
EOT
"$sweep" run lock.sweep --dir l > lock1.out 2>&1 &
pid=$!
sleep 0.3
"$sweep" run lock.sweep --dir l > lock2.out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'another feroce-sweep is working on l' lock2.out && ok || bad "second driver: $rc $(cat lock2.out)"
wait $pid && ok || bad "first driver failed: $(cat lock1.out)"

# --- progress on a terminal (script gives the driver one), not elsewhere (above: empty stderr)
if command -v script > /dev/null; then
    script -qec "'$sweep' run term.sweep --dir tty --retry-failed -j 2" /dev/null > tty.out 2>&1
    grep -q 'feroce-sweep: term: 6 points (6 combinations x 1 replications), 0 done, 0 failed, 6 to run on 2 jobs' tty.out &&
        grep -q '6/6 done, 0 failed, 0 running, elapsed 0:0[0-9], ETA' tty.out && ok || bad "progress on a terminal: $(cat tty.out)"
fi

finish
