#!/bin/sh
# advcam-incast as a study: its sqlite row holds what it printed, a run killed
# mid-way leaves the database consistent and without a partial row, the same
# RngRun gives byte-identical outputs, and render.sh draws non-empty pictures.
# A killed run's files stay in OUTDIR/incomplete-run, none in OUTDIR itself.
#   study-test.sh ADVCAM_INCAST REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
prog=$1
root=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
db=$work/feroce.db

# 1. the row equals what the run printed
"$prog" --duration=6ms --outdir="$work/a" --db="$db" --RngRun=3 --kmin=20000 >"$work/a.log"
check "one row" test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 1
sed -n 's/^advcam-incast: \([a-z0-9_]*\)=\(.*\)$/\1 \2/p' "$work/a.log" >"$work/printed"
check "metrics printed" test "$(wc -l <"$work/printed")" -ge 20
while read -r name value; do
    stored=$(sqlite3 "$db" "SELECT json_extract(metrics, '\$.$name') FROM runs")
    # printed with 10 significant digits; the row holds that same number
    same=$(awk -v a="$value" -v b="$stored" 'BEGIN { print (a == "nan" && b == "") || (a + 0 == b + 0) }')
    check "metric $name: printed $value, stored '$stored'" test "$same" = 1
done <"$work/printed"
for col in goodput_gbps jain_min jain_mean drops pause_frames cnps ecn_marks retransmits; do
    a=$(sqlite3 "$db" "SELECT $col IS json_extract(metrics, '\$.$col') FROM runs")
    check "column $col equals metrics.$col" test "$a" = 1
done
check "seed is RngRun" test "$(sqlite3 "$db" 'SELECT seed FROM runs')" = 3
check "params hold the flags" test "$(sqlite3 "$db" "SELECT json_extract(params, '\$.kmin') || ' ' || json_extract(params, '\$.duration') || ' ' || json_extract(params, '\$.preset') FROM runs")" = "20000 0.006 paper"
check "version recorded" test -n "$(sqlite3 "$db" 'SELECT version FROM runs WHERE version <> ""')"
check "metrics.txt as printed" sh -c "sed 's/=/ /' '$work/a/metrics.txt' | cmp -s - '$work/printed'"

# 2. killed mid-way: no row, the database still consistent and writable
"$prog" --duration=1000s --outdir="$work/k" --db="$db" >/dev/null 2>&1 &
pid=$!
sleep 2
kill -9 $pid 2>/dev/null || bad "the long run ended before it was killed"
wait $pid 2>/dev/null || true
check "killed run left no row" test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 1
check "killed run left no params.txt in its outdir" test ! -e "$work/k/params.txt"
check "killed run's files marked incomplete" test -s "$work/k/incomplete-run/params.txt"
check "integrity after kill" test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok
"$prog" --duration=2ms --outdir="$work/b" --db="$db" >/dev/null
check "writable after kill" test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 2

# 3. same RngRun, same outputs; parallel writers share the database
"$prog" --duration=6ms --outdir="$work/a2" --db="$db" --RngRun=3 --kmin=20000 >/dev/null &
"$prog" --duration=6ms --outdir="$work/c" --db="$db" --RngRun=4 --kmin=20000 >/dev/null &
wait
for f in goodput.csv series.csv pause.csv metrics.txt flows.csv; do
    check "identical $f for the same RngRun" cmp -s "$work/a/$f" "$work/a2/$f"
done
grep -v ^outdir= "$work/a/params.txt" >"$work/params.a"
grep -v ^outdir= "$work/a2/params.txt" >"$work/params.a2"
check "identical params.txt but outdir" cmp -s "$work/params.a" "$work/params.a2"
check "another RngRun marks other packets" sh -c "! cmp -s '$work/a/series.csv' '$work/c/series.csv'"
check "four rows" test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 4
check "WAL" test "$(sqlite3 "$db" 'PRAGMA journal_mode')" = wal

# 4. pictures
sh "$root/plots/render.sh" "$work/a" "$work/pics/a" >/dev/null
for pic in throughput jain queue rate; do
    for ext in png svg; do
        check "$pic.$ext rendered" test -s "$work/pics/a-$pic.$ext"
    done
done
check "a PNG" sh -c "head -c 8 '$work/pics/a-throughput.png' | od -An -c | grep -q 'P   N   G'"

# a folder with a quote in its name; a folder that is not a finished run
q="$work/it's \"q\""
cp -r "$work/a" "$q"
sh "$root/plots/render.sh" "$q" "$work/pics/q'1" >/dev/null 2>"$work/q.err"
check "render.sh with quotes in names" test -s "$work/pics/q'1-throughput.png"
check "render.sh quiet" test ! -s "$work/q.err"
mkdir -p "$work/np" && cp "$work/a/goodput.csv" "$work/np/"
sh "$root/plots/render.sh" "$work/np" "$work/pics/np" >/dev/null 2>"$work/np.err" && bad "render.sh without params.txt succeeded"
check "render.sh names the missing params.txt" grep -q 'params.txt missing' "$work/np.err"

finish
