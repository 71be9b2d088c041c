#!/bin/sh
# feroce-fluid and feroce-fluid-study as a user runs them: the outputs of each subcommand, a row in
# the results database, and bad flags named with exit status 2 before anything runs.
#   fluid-cli-test.sh FEROCE_FLUID FEROCE_FLUID_STUDY WORKDIR
set -u
fluid=$1
study=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fail=0
say() { echo "$*"; }
bad() { say "FAILED: $*"; fail=1; }

# fixedpoint: key=value lines, the published queue for 10 flows at 40 Gb/s (122.4 KB)
out=$("$fluid" fixedpoint --line-rate=40Gbps --flows=10 --rhai=0) || bad "fixedpoint exit"
for key in p q_bytes alpha rc_bps rt_bps; do
    echo "$out" | grep -q "^$key=" || bad "fixedpoint has no $key="
done
q=$(echo "$out" | sed -n 's/^q_bytes=//p')
awk -v q="$q" 'BEGIN { exit !(q > 121000 && q < 124000) }' || bad "fixedpoint q_bytes=$q, expected ~122.4e3"

# margin: one line; negative at 100 us for 10 flows, positive at 0
line=$("$fluid" margin --line-rate=40Gbps --flows=10 --delay=100us) || bad "margin exit"
echo "$line" | grep -Eq '^phase_margin_deg=-[0-9.]+ crossover_hz=[0-9.]+$' || bad "margin line: $line"
line=$("$fluid" margin --line-rate=40Gbps --flows=10 --delay=0us)
echo "$line" | grep -Eq '^phase_margin_deg=[0-9.]+ ' || bad "margin at 0 us: $line"

# boundary: the largest delay with a positive margin (62.5 us for 10 flows, doc/fluid.md)
line=$("$fluid" boundary --line-rate=40Gbps --flows=10 --rhai=0) || bad "boundary exit"
echo "$line" | grep -Eq '^max_delay_us=6[0-9]\.[0-9]+$' || bad "boundary line: $line"

# run: CSV with a header and one row per window
"$fluid" run --line-rate=40Gbps --flows=2 --duration=2ms --window=100us --out="$work/run.csv" || bad "run exit"
head -1 "$work/run.csv" | grep -q '^t_s,q_bytes,p,rc0_bps,rt0_bps,alpha0$' || bad "run header"
[ "$(wc -l < "$work/run.csv")" -eq 22 ] || bad "run rows: $(wc -l < "$work/run.csv")"
# classes and a schedule
"$fluid" run --schedule=0ms:1ms,0ms:2ms,0ms:3ms --duration=3ms --window=1ms | head -1 |
    grep -q 'rc2_bps,rt2_bps,alpha2$' || bad "schedule columns"
"$fluid" fixedpoint --class=2,preset=paper --class=1,preset=hpcc | grep -q '^rc1_bps=' || bad "class fixedpoint"

# map: CSV, script and picture
"$fluid" map --line-rate=40Gbps --x=flows:2:20:4 --y=delay:0us:100us:3 --out="$work/map" > "$work/map.log" ||
    bad "map exit"
[ "$(grep -c , "$work/map.csv")" -eq 13 ] || bad "map rows"
[ -s "$work/map.gp" ] || bad "map script"
command -v gnuplot > /dev/null && { [ -s "$work/map.png" ] || bad "map picture"; }

# the sweep scenario: files and one row
"$study" --line-rate=40Gbps --flows=2 --duration=5ms --outdir="$work/study" --db="$work/fluid.db" \
    --RngRun=1 > "$work/study.log" || bad "study exit"
grep -q '^row 1 in ' "$work/study.log" || bad "study row line"
[ -s "$work/study/series.csv" ] || bad "study series"
if command -v sqlite3 > /dev/null; then
    n=$(sqlite3 "$work/fluid.db" "select count(*) from runs where scenario='feroce-fluid-study' and
        json_extract(metrics,'\$.phase_margin_deg') > 0")
    [ "$n" = 1 ] || bad "study row in the database: $n"
fi

# bad flags: one line naming flag, value and the allowed values; exit 2; no file left behind
expect_bad() {
    pattern=$1
    shift
    msg=$("$@" 2>&1 > /dev/null)
    status=$?
    [ "$status" -eq 2 ] || bad "exit $status, not 2: $*"
    [ "$(echo "$msg" | wc -l)" -eq 1 ] || bad "more than one line: $msg"
    echo "$msg" | grep -q -- "$pattern" || bad "message '$msg' lacks '$pattern'"
}
expect_bad 'g = 2 is not allowed: expected (0, 1]' "$fluid" margin --g=2
expect_bad 'delay = 50 is not allowed: expected a whole number of ns with its unit' "$fluid" margin --delay=50
expect_bad 'delay_ns = -5000 is not allowed' "$fluid" margin --delay=-5us
expect_bad 'preset = "fast" is not allowed: expected paper, connectx or hpcc' "$fluid" run --preset=fast
expect_bad 'kmin_bytes = 300000 is not allowed: expected <= kmax_bytes = 200000' "$fluid" fixedpoint --kmin=300KB
expect_bad 'pmax = 1.5 is not allowed: expected \[0, 1\]' "$fluid" margin --pmax=1.5
expect_bad 'flows = 0 is not allowed: expected an integer' "$fluid" margin --flows=0
expect_bad 'rai = fast is not allowed: expected a rate' "$fluid" margin --rai=fast
expect_bad 'flag --nope is not allowed' "$fluid" run --nope=1
expect_bad 'step_ns = 1 is not allowed: expected >= delay_ns x (1 + classes)' "$fluid" run --method=rk4 --delay=100ms --step=1ns
expect_bad 'step = 1us is not allowed with --method=bs3: expected --max-step and --rtol' "$fluid" run --step=1us
expect_bad 'rtol = 0.001 is not allowed with --method=rk4: expected --step' "$fluid" run --method=rk4 --rtol=0.001
expect_bad 'method = euler is not allowed: expected bs3 (adaptive, the default) or rk4' "$fluid" run --method=euler
expect_bad 'rtol = 0.5 is not allowed: expected a number in \[1e-9, 0.1\]' "$fluid" run --rtol=0.5
expect_bad 'max-step = 2ms is not allowed: expected a time in \[1 ns, 1 ms\]' "$fluid" run --max-step=2ms
expect_bad 'command = "walk" is not allowed' "$fluid" walk
expect_bad 'x = kmax:1:2 is not allowed: expected NAME:FROM:TO:COUNT' "$fluid" map --x=kmax:1:2 --y=rai:10:40:3
expect_bad 'x: flag = foo is not allowed: expected a model flag' "$fluid" map --x=foo:1:2:3 --y=rai:10:40:3
expect_bad 'first_cnp_rate_bps = 1000000000 is not allowed: expected 0 in the fluid model' \
    "$fluid" run --first-cnp-rate=1Gbps
expect_bad 'window = 0.01 s is not allowed: expected <= duration' "$fluid" run --duration=1ms --window=10ms
expect_bad 'schedule = 0ms is not allowed' "$fluid" run --schedule=0ms
expect_bad 'flows = 3 is not allowed with --class' "$fluid" run --flows=3 --class=2
expect_bad 'RngRun = 0 is not allowed' "$study" --RngRun=0 --outdir="$work/bad" --db="$work/bad.db"
[ -e "$work/bad.db" ] && bad "a refused study created its database"
# numbers by the one grammar (src/feroce/doc/input-grammar.md): no hex float, no '+'; hex whole
expect_bad 'duration = 0x1p-4s is not allowed' "$fluid" run --duration=0x1p-4s
expect_bad 'kmin = +5 is not allowed' "$fluid" fixedpoint --kmin=+5
expect_bad 'x = g:0x1p-3:1:5 is not allowed' "$fluid" map --x=g:0x1p-3:1:5 --y=rai:10:40:3
"$fluid" fixedpoint --flows=0x10 | grep -q '^p=' || bad "--flows=0x10 (a whole number in hex) refused"
# each flag once; an output that cannot be written refused before the run
expect_bad 'duration = 2ms is not allowed: expected one value (duration = 1ms is given too)' \
    "$fluid" run --duration=1ms --duration=2ms
expect_bad 'out =  is not allowed: expected a file' "$fluid" run --duration=1ms --out=
expect_bad "out = $work is not allowed: expected a file" "$fluid" run --duration=1ms --out="$work"
expect_bad 'out =  is not allowed: expected a file prefix' "$fluid" map --x=g:0.1:1:3 --y=rai:10:40:3 --out=
ls -a "$work" | grep -q '^\.csv' && bad "an empty --out wrote .csv"

[ $fail -eq 0 ] && say "fluid-cli: all passed"
exit $fail
