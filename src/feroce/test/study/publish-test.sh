#!/bin/sh
# How a study's files and row appear (src/feroce/doc/studies.md, "Outputs"): a killed run's
# files stay in OUTDIR/incomplete-run and the next run into OUTDIR neither publishes nor touches
# them (it warns, once, and works in incomplete-run-2); a former run's captures are replaced as
# a set; a publish that fails half-way (a folder in the way of a file the program writes) leaves
# no row and every file where it was; SIGINT and SIGTERM end a run with its files marked and no
# row; warnings are one line each on stderr and in params.txt and the row; a schedule past the
# run's end and other odd settings are warnings.
#   publish-test.sh EXAMPLES_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
db=$work/feroce.db
rows() { sqlite3 "$db" 'SELECT count(*) FROM runs'; }

# 1. a killed run's leftovers are not the next run's
out=$work/k
"$bin/advcam-incast" --boards=12 --duration=1000s --pcap=1 --force --outdir="$out" --db="$db" >/dev/null 2>&1 &
pid=$!
sleep 2
kill -9 $pid 2>/dev/null || bad "the long run ended before it was killed"
wait $pid 2>/dev/null || true
leftovers=$(ls "$out/incomplete-run" | wc -l)
check "the killed run left its files marked" test "$leftovers" -gt 12
"$bin/advcam-incast" --boards=1 --duration=2ms --outdir="$out" --db="$db" >"$work/next.out" 2>"$work/next.err"
check "the next run published" test -s "$out/metrics.txt"
check "none of the killed run's pcaps published" test "$(ls "$out" | grep -c pcap || true)" = 0
check "the killed run's files stay where they were" test "$(ls "$out/incomplete-run" | wc -l)" = "$leftovers"
check "the next run left no folder of its own" test ! -e "$out/incomplete-run-2"
check "a warning names the leftovers" grep -q "^advcam-incast: warning: .*incomplete-run holds the files of a run that did not finish" "$work/next.err"
check "the warning is in params.txt" grep -q '^warnings=.*incomplete-run holds' "$out/params.txt"
# (with the warm-up made 0 and the steady state too short to judge)
check "and in the row" test "$(sqlite3 "$db" "SELECT json_array_length(warnings) FROM runs ORDER BY id DESC LIMIT 1")" = 3
check "one row" test "$(rows)" = 1

# 1b. a former run's captures do not stand beside a later run's results (a user's file stays)
out=$work/c
"$bin/advcam-incast" --boards=3 --duration=2ms --pcap=1 --outdir="$out" --db=none >/dev/null 2>&1
echo mine >"$out/notes.txt"
"$bin/advcam-incast" --boards=1 --duration=2ms --pcap=1 --outdir="$out" --db=none >/dev/null 2>&1
check "a 1-board run's captures only (4 devices)" test "$(ls "$out" | grep -c '\.pcap$')" = 4
"$bin/advcam-incast" --boards=1 --duration=2ms --outdir="$out" --db=none >/dev/null 2>&1
check "no capture beside a run without --pcap" test "$(ls "$out" | grep -c '\.pcap$' || true)" = 0
check "the user's file stays" test "$(cat "$out/notes.txt")" = mine

# 2. a publish that fails half-way: no row, nothing moved
out=$work/p
mkdir -p "$out/recovery.csv"
echo old >"$out/goodput.csv"
status=0
"$bin/advcam-incast" --duration=2ms --outdir="$out" --db="$db" >"$work/p.out" 2>"$work/p.err" || status=$?
check "a folder in the way fails the publish (exit $status)" test "$status" = 1
check "one line names it" sh -c "test \$(grep -vc ': warning: ' '$work/p.err') = 1 && grep -q 'recovery.csv is in the way' '$work/p.err'"
check "no row" test "$(rows)" = 1
check "the former goodput.csv is back" test "$(cat "$out/goodput.csv")" = old
check "no file of the run published" test ! -e "$out/metrics.txt" -a ! -e "$out/params.txt"
check "no folder of the run left" test ! -e "$out/incomplete-run"
check "stdout does not say it wrote" sh -c "! grep -q ': wrote ' '$work/p.out'"
# a study file in the way is refused before the run (exit 2)
mkdir -p "$work/q/metrics.txt"
status=0
"$bin/advcam-incast" --duration=2ms --outdir="$work/q" --db="$db" >/dev/null 2>"$work/q.err" || status=$?
check "a folder in the way of metrics.txt refused before the run (exit $status)" test "$status" = 2
check "named" grep -q 'metrics.txt is in the way' "$work/q.err"

# 3. SIGINT and SIGTERM: files marked, no row, the signal's exit status
for sig in INT TERM; do
    out=$work/s$sig
    "$bin/advcam-incast" --boards=12 --duration=10s --outdir="$out" --db="$db" >"$work/s.out" 2>"$work/s$sig.err" &
    pid=$!
    sleep 2
    kill -$sig $pid 2>/dev/null || bad "the run ended before SIG$sig"
    status=0
    wait $pid || status=$?
    check "SIG$sig: exit status 128 + signal ($status)" test "$status" -gt 128
    check "SIG$sig: one line says so" grep -q "^advcam-incast: interrupted: the run's files stay in $out/incomplete-run, no row" "$work/s$sig.err"
    check "SIG$sig: the files stay marked" test -s "$out/incomplete-run/params.txt"
    check "SIG$sig: nothing published" test ! -e "$out/params.txt"
    check "SIG$sig: no row" test "$(rows)" = 1
done

# 4. odd settings: warned, once each, recorded; the run goes on
out=$work/w
"$bin/advcam-incast" --duration=4ms --schedule=0ms:4ms,5ms:6ms --boards=2 --outdir="$out" --db="$db" \
    >"$work/w.out" 2>"$work/w.err"
check "the run went on" test -s "$out/metrics.txt"
check "a board starting after the end is warned" grep -q '^advcam-incast: warning: board 1 starts at or after --duration' "$work/w.err"
check "each warning once" test "$(grep -c 'board 1 starts' "$work/w.err")" = 1
check "recorded in params.txt" grep -q '^warnings=.*board 1 starts' "$out/params.txt"
check "recorded in the row" test "$(sqlite3 "$db" "SELECT json_extract(warnings, '\$[1]') FROM runs ORDER BY id DESC LIMIT 1")" = "board 1 starts at or after --duration: it sends nothing"
# (one board, long enough for its steady state to be judged)
"$bin/advcam-incast" --boards=1 --duration=6ms --window=100us --warmup=1ms --outdir="$work/nw" --db="$db" >/dev/null 2>"$work/nw.err"
check "no warning: nothing on stderr" test ! -s "$work/nw.err"
check "no warning: no warnings line" sh -c "! grep -q '^warnings=' '$work/nw/params.txt'"
check "no warning: the column is null" test "$(sqlite3 "$db" "SELECT warnings IS NULL FROM runs ORDER BY id DESC LIMIT 1")" = 1
finish
