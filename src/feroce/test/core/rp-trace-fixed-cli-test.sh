#!/bin/sh
# feroce-rp-trace --fixed from the outside: the double model's column is the
# plain trace's Rc, the registers mean the rates beside them (in decimal and
# in hex), the largest deviation is reported, and a bad format is refused by
# name before any row.
#   rp-trace-fixed-cli-test.sh TOOL DATA_DIR
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# fixed-point known answers: "#! " gives the options, "#> " the rows
for v in "$data"/fixed-rp-*.txt; do
    sed -n 's/^#> //p' "$v" > "$tmp/expected"
    # shellcheck disable=SC2046
    if "$tool" $(sed -n 's/^#! //p' "$v") "$v" > "$tmp/got" 2>/dev/null && cmp -s "$tmp/expected" "$tmp/got"; then ok
    else bad "$(basename "$v") differs:"; diff "$tmp/expected" "$tmp/got" >&2; fi
done

header='t_ns,event,cycle,rc_bps,rt_bps,alpha,ts,bs,rc_reg,rt_reg,alpha_reg,float_rc_bps,rc_rel_dev'
for v in "$data"/rp-connectx.txt "$data"/rp-hpcc.txt "$data"/rp-paper.txt; do
    name=$(basename "$v")
    "$tool" "$v" > "$tmp/float" || bad "$name: plain run"
    if ! "$tool" --fixed "$v" > "$tmp/fixed" 2> "$tmp/err"; then bad "$name: --fixed exit status"; continue; fi
    [ "$(head -1 "$tmp/fixed")" = "$header" ] && ok || bad "$name: header $(head -1 "$tmp/fixed")"
    # one row per event, the double model's Rc unchanged
    cut -d, -f3 "$tmp/float" | tail -n +2 > "$tmp/a"
    cut -d, -f12 "$tmp/fixed" | tail -n +2 > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" && ok || bad "$name: float_rc_bps differs from the plain trace"
    # stage counts agree (timers of whole cycles keep them here)
    cut -d, -f6,7 "$tmp/float" | tail -n +2 > "$tmp/a"
    cut -d, -f7,8 "$tmp/fixed" | tail -n +2 > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" && ok || bad "$name: ts,bs differ"
    grep -q "largest relative deviation of fixed Rc from double Rc: [0-9.e+-]* at t_ns = [0-9]*" "$tmp/err" &&
        ok || bad "$name: deviation line: $(cat "$tmp/err")"
    # the deviation column is what it says
    awk -F, 'NR > 1 { d = ($4 - $12) / $12; if (d - $13 > 1e-3 * (d < 0 ? -d : d) + 1e-12 ||
             $13 - d > 1e-3 * (d < 0 ? -d : d) + 1e-12) bad++ } END { exit bad }' "$tmp/fixed" &&
        ok || bad "$name: rc_rel_dev column"
done

# the paper preset at 10 Gb/s on the default format (32-bit rates, Q16): within 1e-6
"$tool" --fixed "$data/rp-paper.txt" 2> "$tmp/err" > /dev/null
awk '{ for (i = 1; i <= NF; i++) if ($i == "Rc:") { d = $(i + 1) + 0; exit !(d < 1e-6) } exit 1 }' "$tmp/err" &&
    ok || bad "paper deviation: $(cat "$tmp/err")"

# registers mean the rates: SURF counts bytes/s (8 b/s per LSB) and Q0.10 alpha
"$tool" --fixed --format surf "$data/rp-connectx.txt" > "$tmp/surf" 2>/dev/null
awk -F, 'function abs(x) { return x < 0 ? -x : x }
         NR > 1 && ($9 * 8 != $4 || $10 * 8 != $5 || abs($11 / 1024 - $6) > 1e-9) { bad++ } END { exit bad }' \
    "$tmp/surf" &&
    ok || bad "surf registers do not mean their rates"
# --hex: the same registers in hex, as wide as the register
"$tool" --fixed --format surf --hex "$data/rp-connectx.txt" > "$tmp/hex" 2>/dev/null
awk -F, 'NR > 1 && ($9 !~ /^0x[0-9a-f]+$/ || length($9) != 10 || $11 !~ /^0x[0-9a-f]+$/ || length($11) != 5) {
         bad++ } END { exit bad }' "$tmp/hex" &&
    ok || bad "hex widths: $(sed -n 2p "$tmp/hex")"
tail -n +2 "$tmp/surf" | cut -d, -f9 > "$tmp/a"
tail -n +2 "$tmp/hex" | cut -d, -f9 | while read -r h; do printf '%d\n' "$h"; done > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "hex and decimal registers differ"

# --sample with --fixed: sample rows carry the cycle they fall in
"$tool" --fixed --sample 1000 "$data/rp-hpcc.txt" > "$tmp/sampled" 2>/dev/null
grep -q '^1000,sample,156,' "$tmp/sampled" && ok || bad "--fixed --sample: $(sed -n 3p "$tmp/sampled")"

# expect_error NAME PATTERN SCRIPT ARGS...: status 2, one line naming the parameter, no row written
expect_error() {
    name=$1 pattern=$2 script=$3
    shift 3
    printf '%b' "$script" > "$tmp/$name.txt"
    "$tool" "$@" "$tmp/$name.txt" > "$tmp/out" 2> "$tmp/err"
    status=$?
    if [ "$status" -ne 2 ]; then bad "$name: exit status $status"
    elif ! grep -q -- "$pattern" "$tmp/err"; then bad "$name: message: $(cat "$tmp/err") (wanted '$pattern')"
    elif [ "$(wc -l < "$tmp/err")" -ne 1 ]; then bad "$name: more than one line: $(cat "$tmp/err")"
    elif [ -s "$tmp/out" ]; then bad "$name: rows written: $(cat "$tmp/out")"
    else ok; fi
}
expect_error g-bits ':1: g = 0.00390625 is not allowed: expected a multiple of 2^-6' \
    'preset paper\n0 cnp\n' --fixed --alpha-bits 6
expect_error g-value ':2: g = 0.003 is not allowed: expected a multiple of 2^-10 in (0, 1] (alpha_bits = 10); nearest: 3/1024' \
    'preset connectx\nparam g 0.003\n0 cnp\n' --fixed --alpha-bits 10
expect_error timer ':2: increase_timer_ns = 6 is not allowed: expected >= one cycle of clock_hz = 156250000 (6.4 ns)' \
    'preset paper\nparam increase_timer_ns 6\n0 cnp\n' --fixed
expect_error line-rate ':1: line_rate_bps = 40000000000 is not allowed: expected <= 34359738360 b/s' \
    'param line_rate_bps 40e9\n0 cnp\n' --fixed --format surf
expect_error rate-step ':2: rai_bps = 1 is not allowed: expected 0 or >= half an LSB' \
    'preset paper\nparam rai_bps 1\n0 cnp\n' --fixed --format surf
expect_error alpha-bits 'alpha_bits = 40 is not allowed: expected \[1, 31\]' '0 cnp\n' --fixed --alpha-bits 40
expect_error rate-bits 'rate_bits = 1 is not allowed: expected \[2, 48\]' '0 cnp\n' --fixed --rate-bits 1
expect_error clock 'clock_hz = 10 is not allowed' '0 cnp\n' --fixed --clock-hz 10
expect_error rounding '--rounding: rounding = "up" is not allowed: expected truncate or nearest' '0 cnp\n' \
    --fixed --rounding up
expect_error format '--format: format = "asic" is not allowed: expected default or surf' '0 cnp\n' \
    --fixed --format asic
expect_error hex-alone 'format options and --hex need --fixed' '0 cnp\n' --hex
expect_error bits-alone 'format options and --hex need --fixed' '0 cnp\n' --alpha-bits 10
expect_error unknown-option 'unexpected argument "--alpha-width"' '0 cnp\n' --fixed --alpha-width 10

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
