#!/bin/sh
# A packet study's batches (feroce-sweep's "batch N"; FeroceBatch, the fork server): a sweep of
# advcam-incast run many points per process gives each point the files and the row a process of
# its own gives it (all but the timing columns), fails the same points with the same status and
# message, resumes; a point killed in a batch fails alone, with its signal; by hand, a point that
# fails its run (exit 1), one refused (exit 2) and one stopped by SIGTERM fail alone and write
# nothing while the others are written as their own runs write them; a bad batch is one line,
# exit status 2, and runs nothing.
#   batch-test.sh ADVCAM_INCAST FEROCE_SWEEP WORK_DIR
. "$(dirname "$0")/../lib.sh"
incast=$1
sweep=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
q() { sqlite3 "$1" "$2"; }
# the processes whose parent is $1
children() { awk -v pp="$1" '$4 == pp { print $1 }' /proc/[0-9]*/stat 2>/dev/null; }
# waits (up to 60 s) for a grandchild of $1 that runs 1.5 s or more (a long point), prints it
long_point() {
    seen=""
    for _ in $(seq 40); do
        now=$(for c in $(children "$1"); do children "$c"; done)
        for p in $now; do
            case " $seen " in *" $p "*) echo "$p" && return 0 ;; esac
        done
        seen=$now
        sleep 1.5
    done
    return 1
}

# 1. the same sweep, one process per point and in batches: 2 x 3 points, pmax = 2 refused
cat > grid.sweep <<EOT
name grid
program $incast
flags --boards=3 --duration=1ms --window=200us --warmup=0ms
param kmin list 5000 20000
param pmax list 0.01 0.1 2
metrics goodput_gbps queue_max_bytes
EOT
sed 's/^name grid$/name grid\nbatch 3/' grid.sweep > batched.sweep
rows() {
    q "$1" "select p.key, r.scenario, r.version, r.seed, r.sim_s, r.outdir, r.command, r.params, r.metrics,
              r.warnings, r.goodput_gbps, r.jain_min, r.jain_mean, r.drops, r.pause_frames, r.cnps, r.ecn_marks,
              r.retransmits
       from points p join runs r on r.id = p.run_id order by p.key"
}
failed() {
    q "$1" "select key, status, exit_status, signal, error, stderr_tail, command from points
            where status = 'failed' order by key"
}
"$sweep" run grid.sweep -j 2 --dir s > one.out 2> one.err
grep -q 'grid: 6 points .*4 done, 2 failed' one.out || bad "per point: $(cat one.out one.err)"
mv s one
"$sweep" run batched.sweep -j 2 --dir s > batch.out 2> batch.err
grep -q 'grid: 6 points .*4 done, 2 failed' batch.out || bad "batches: $(cat batch.out batch.err)"
check "two batches (3 points each)" test "$(ls -d s/batches/*/ | wc -l)" = 2
rows one/sweep.db > one.rows
rows s/sweep.db > batch.rows
check "4 rows" test "$(wc -l < one.rows)" = 4
cmp -s one.rows batch.rows && ok || bad "rows differ: $(diff one.rows batch.rows | head -5)"
failed one/sweep.db > one.failed
failed s/sweep.db > batch.failed
cmp -s one.failed batch.failed && ok || bad "failed points differ: $(diff one.failed batch.failed | head -5)"
grep -q '|failed|2||exit status 2|advcam-incast: Pmax = 2 is not allowed: expected \[0, 1\]' batch.failed && ok ||
    bad "failed point: $(head -1 batch.failed)"
# every file of every point as its own process wrote it (stdout.txt and stderr.txt are
# feroce-sweep's, beside a point run alone; a batch's are in batches/KEY/)
diff -r -x stdout.txt -x stderr.txt -x run.db one/points s/points > files.diff && ok ||
    bad "the points' files differ: $(head -5 files.diff)"
check "a refused point wrote nothing" test "$(find s/points -type d -empty | wc -l)" = 2
check "the batches' stdout names the points' files" test "$(cat s/batches/*/stdout.txt | grep -c ': wrote ')" = 4
# resume: nothing to run; --retry-failed runs the 2 failed points again
"$sweep" run batched.sweep --dir s > rerun.out 2>&1
grep -q 'nothing to run' rerun.out && ok || bad "rerun: $(cat rerun.out)"
"$sweep" run batched.sweep --dir s --retry-failed > retry.out 2>&1
grep -q 'this run: 2 points (0 done, 2 failed)' retry.out && ok || bad "retry: $(cat retry.out)"
check "attempts after a retry" test "$(q s/sweep.db "select group_concat(distinct attempts) from points where status = 'failed'")" = 2

# 2. a point killed in its batch fails alone, with its signal, as one killed alone would
cat > killed.sweep <<EOT
name killed
program $incast
flags --boards=3 --window=200us --warmup=0ms
param kmin list 5000 10000 20000
param duration list 1ms 200s 2ms
zip kmin duration
batch 3
EOT
"$sweep" run killed.sweep -j 1 --dir k > killed.out 2> killed.err &
driver=$!
if p=$(long_point "$driver"); then
    kill -KILL "$p"
else
    bad "no long point seen"
fi
wait $driver
grep -q 'killed: 3 points .*2 done, 1 failed' killed.out && ok || bad "killed: $(cat killed.out killed.err)"
check "the killed point: signal 9, no exit status" \
    test "$(q k/sweep.db "select combo, exit_status is null, signal, error from points where status = 'failed'")" = \
    '{"kmin":10000,"duration":"200s"}|1|9|killed by signal 9 (Killed)'
check "its points' rows" test "$(q k/sweep.db "select count(*) from runs")" = 2

# 3. by hand: each point written as its own process writes it; the failures write nothing
line() { printf '%s' "$incast"; for a in "$@"; do printf '\t%s' "$a"; done; printf '\n'; }
common="--boards=3 --duration=1ms --window=200us --warmup=0ms"
# shellcheck disable=SC2086 # the common flags are words
{
    line $common --outdir=h/ok1 --db=h/ok1.db
    line $common --outdir=h/fails --db=h/fails.db    # a folder in the way of its publish: exit 1
    line $common --pmax=2 --outdir=h/bad --db=h/bad.db
    line --boards=3 --duration=20s --outdir=h/term --db=h/term.db   # stopped by SIGTERM
    line $common --kmin=20000 --outdir=h/ok2 --db=h/ok2.db
} > points.txt
# each point alone first (the same outdir and db), kept aside
# shellcheck disable=SC2086
for p in ok1 ok2; do
    k=""
    [ $p = ok2 ] && k=--kmin=20000
    "$incast" $common $k --outdir=h/$p --db=h/$p.db > /dev/null 2>&1 || bad "alone $p"
done
mv h alone
mkdir -p h/fails/recovery.csv
# the running point's process, once its files exist (up to 20 s)
running() {
    for _ in $(seq 40); do
        c=$(children "$1")
        [ -n "$c" ] && [ -d "$2" ] && echo "$c" && return 0
        sleep 0.5
    done
    return 1
}
"$incast" --batch=points.txt --db=h/batch.db > hand.out 2> hand.err &
server=$!
if p=$(running $server h/term/incomplete-run); then
    sleep 0.5
    kill -TERM "$p"
else
    bad "the SIGTERM point never ran"
fi
wait $server
check "the server exits 0" test $? = 0
check "its summary" grep -q '^advcam-incast: batch of 5 points, 3 failed, rows in h/batch.db$' hand.out
check "the lines: status, signal, row" test "$(q h/batch.db "select group_concat(line || ':' || ifnull(exit_status, '-') || ':' || ifnull(signal, '-') || ':' || (run_id is not null), ' ') from (select * from batch order by line)")" = \
    "1:0:-:1 2:1:-:0 3:2:-:0 4:-:15:0 5:0:-:1"
check "the failures' messages" test "$(q h/batch.db "select count(*) from batch where line = 2 and error like '%recovery.csv is in the way%' or line = 3 and error like 'advcam-incast: Pmax = 2 is not allowed%' or line = 4 and error like '%interrupted%'")" = 3
check "two rows" test "$(q h/batch.db "select count(*) from runs")" = 2
timeless() { q "$1" "select scenario, version, seed, sim_s, outdir, command, params, metrics, warnings from runs order by id"; }
for p in ok1 ok2; do
    diff -r alone/$p h/$p > $p.diff && ok || bad "$p's files: $(head -5 $p.diff)"
    [ "$(timeless alone/$p.db)" = "$(timeless h/$p.db)" ] && ok || bad "$p's row in its own --db"
done
[ "$(timeless alone/ok1.db; timeless alone/ok2.db)" = "$(timeless h/batch.db)" ] && ok || bad "the batch's rows"
check "the failed run published nothing" test "$(ls h/fails)" = recovery.csv
check "the refused point wrote nothing" test ! -e h/bad -a ! -e h/bad.db
check "the stopped point's files stay marked, no row" test -d h/term/incomplete-run -a ! -e h/term.db
check "the points' stderr, line by line" grep -q '^line 3: advcam-incast: Pmax = 2 is not allowed' hand.err

# 4. bad batches: one line, exit status 2, no point run
printf 'x\n' > afile
printf '%s\t--outdir=n/1\n\n' "$incast" > empty-line.txt
{ line --outdir=n/1; printf '/bin/true\t--outdir=n/2\n'; } > other.txt
{ line --outdir=n/1; line --batch=points.txt; } > nested.txt
{ line --outdir=n/1; line --db=n/batch.db; } > same-db.txt
printf '\t--outdir=n/1\n' > tab.txt
# EXPECTED-WORDS | ARGUMENTS
cat > cases.txt <<'EOT'
--batch=empty-line.txt is not allowed: line 2 is empty; expected a point of advcam-incast|--batch=empty-line.txt --db=n/batch.db
--batch=other.txt is not allowed: line 2 is a point of /bin/true|--batch=other.txt --db=n/batch.db
--batch=nested.txt is not allowed: line 2 has --batch=points.txt (a batch in a batch)|--batch=nested.txt --db=n/batch.db
--batch=same-db.txt is not allowed: line 2 has --db=n/batch.db, the batch's own database|--batch=same-db.txt --db=n/batch.db
--batch=tab.txt is not allowed: line 1 starts with a tab|--batch=tab.txt --db=n/batch.db
--batch=missing.txt is not allowed: expected a readable file of points, one a line (No such file|--batch=missing.txt --db=n/batch.db
--batch= is not allowed: expected a readable file of points|--batch= --db=n/batch.db
argument --boards=3 is not allowed with --batch: expected only --batch=FILE and --db=FILE|--batch=points.txt --boards=3 --db=n/batch.db
--db= is not allowed with --batch: expected the database file that takes the batch's rows|--batch=points.txt
--db=none is not allowed with --batch|--batch=points.txt --db=none
--db=afile/x.db is not allowed|--batch=points.txt --db=afile/x.db
--batch is given twice|--batch=points.txt --batch=other.txt --db=n/batch.db
EOT
while IFS='|' read -r want args; do
    # shellcheck disable=SC2086 # the case's words
    "$incast" $args > bad.out 2> bad.err
    status=$?
    if [ $status != 2 ]; then
        bad "$args: exit status $status, expected 2 ($(cat bad.err))"
    elif [ "$(wc -l < bad.err)" != 1 ] || [ -s bad.out ]; then
        bad "$args: expected one line on stderr and nothing on stdout: $(cat bad.err bad.out)"
    elif ! grep -qF -- "advcam-incast: $want" bad.err; then
        bad "$args: expected '$want' in: $(cat bad.err)"
    elif [ -e n ]; then
        bad "$args: a point ran or the batch wrote"
        rm -rf n
    else
        ok
    fi
done < cases.txt
finish
