#!/bin/sh
# feroce-rp-trace from the outside: every known-answer script reproduces its
# "#> " rows byte for byte, and bad scripts fail with a message that names the line.
#   rp-trace-cli-test.sh TOOL DATA_DIR
. "$(dirname "$0")/../lib.sh"
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for v in "$data"/rp-*.txt; do
    sed -n 's/^#> //p' "$v" > "$tmp/expected"
    if "$tool" "$v" > "$tmp/got" && cmp -s "$tmp/expected" "$tmp/got"; then ok; else
        bad "$(basename "$v") differs:"; diff "$tmp/expected" "$tmp/got" >&2; fi
    # the same script on stdin
    if "$tool" < "$v" | cmp -s "$tmp/expected" -; then ok; else bad "$(basename "$v") from stdin"; fi
done

# --sample adds rows between events (1207 multiples of 1 us below 1208 us, less 6 event instants)
# and changes none of the event rows
v="$data/rp-hpcc.txt"
sed -n 's/^#> //p' "$v" > "$tmp/expected"
"$tool" --sample 1000 "$v" > "$tmp/sampled"
if grep -v ',sample,' "$tmp/sampled" | cmp -s "$tmp/expected" - && [ "$(grep -c ',sample,' "$tmp/sampled")" -eq 1201 ]
then ok; else bad "--sample rows"; fi
if "$tool" --sample 0 "$v" > /dev/null 2> "$tmp/err"; then bad "--sample 0 accepted"
elif grep -q -- '--sample = "0" is not allowed' "$tmp/err"; then ok; else bad "--sample message: $(cat "$tmp/err")"; fi

# expect_error NAME LINE PATTERN SCRIPT: exit status non-zero, stderr names the line and matches PATTERN
expect_error() {
    printf '%b' "$4" > "$tmp/$1.txt"
    if "$tool" "$tmp/$1.txt" > "$tmp/out" 2> "$tmp/err"; then
        bad "$1: exit status 0"
    elif ! grep -q ":$2: " "$tmp/err" || ! grep -q -- "$3" "$tmp/err"; then
        bad "$1: message: $(cat "$tmp/err") (wanted line $2 and '$3')"
    else
        ok
    fi
}
expect_error unknown-event 3 'event "jump"' 'preset paper\n0 cnp\n10 jump\n'
expect_error backwards 3 'before the previous event' '0 cnp\n100 query\n50 query\n'
expect_error bad-time 1 't_ns = "ten"' 'ten cnp\n'
expect_error negative-time 1 't_ns = "-5"' '-5 cnp\n'
expect_error bad-bytes 2 'tx <bytes>' '0 cnp\n10 tx many\n'
expect_error missing-bytes 2 'tx <bytes>' '0 cnp\n10 tx\n'
expect_error unknown-param 2 'param = "gain"' 'preset paper\nparam gain 0.5\n0 cnp\n'
expect_error bad-number 2 'g = "0.5x"' 'preset paper\nparam g 0.5x\n0 cnp\n'
expect_error out-of-range 3 'g = 2 is not allowed: expected (0, 1]' 'preset paper\nparam F 3\nparam g 2\n0 cnp\n'
expect_error min-above-line 2 'min_rate_bps = 20000000000' 'param line_rate_bps 10e9\nparam min_rate_bps 20e9\n0 cnp\n'
expect_error unknown-preset 1 'preset = "fast"' 'preset fast\n'
expect_error late-param 3 'after the first event' '0 cnp\n5 query\nparam g 0.5\n'
expect_error second-preset 2 'second preset' 'preset paper\npreset hpcc\n'
expect_error too-many-fields 1 'too many fields' '0 tx 1 2 3\n'
expect_error no-event 1 'expected an event' '100\n'
expect_error extra-token 1 '"extra" after cnp' '0 cnp extra\n'
# garbage bytes come out escaped, on one line
expect_error garbage 1 'event ".x01.xff"' '0 \001\377\n'
if [ "$(wc -l < "$tmp/err")" -eq 1 ] && ! LC_ALL=C grep -q "$(printf '\001')" "$tmp/err"; then ok
else bad "garbage not escaped: $(od -c "$tmp/err" | head -3)"; fi
if "$tool" --sample 2> "$tmp/err"; then bad "--sample without a value accepted"
elif grep -q -- '--sample needs a value' "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok
else bad "--sample without a value: $(cat "$tmp/err")"; fi
if "$tool" --bogus 2> "$tmp/err"; then bad "--bogus accepted"
elif [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'see --help' "$tmp/err"; then ok
else bad "--bogus: $(cat "$tmp/err")"; fi

# times near the 64-bit limit: refused by name, or (up to FEROCE_TIME_MAX) answered, in bounded time
expect_error near-int64-max 2 't_ns = 9223372036854720000 is not allowed: expected a time in \[0, 4611686018427387903\] ns' \
    '0 cnp\n9223372036854720000 query\n'
printf '0 cnp\n4611686018427387903 query\n' > "$tmp/time-max.txt"
if timeout 20 "$tool" "$tmp/time-max.txt" > "$tmp/out" 2> "$tmp/err" && grep -q '^4611686018427387903,query,' "$tmp/out"
then ok; else bad "a query at FEROCE_TIME_MAX: status $?, $(cat "$tmp/err")"; fi
if timeout 20 "$tool" --fixed --clock-hz 10000000000 "$tmp/time-max.txt" > /dev/null 2> "$tmp/err"
then bad "--fixed: a cycle beyond 2^62 accepted"
elif grep -q ':2: t_ns = 4611686018427387903 is not allowed: expected a time whose cycle at clock_hz = 10000000000' "$tmp/err"
then ok; else bad "--fixed at FEROCE_TIME_MAX: $(cat "$tmp/err")"; fi
if timeout 20 "$tool" --sample 9223372036854775807 "$tmp/time-max.txt" > /dev/null 2> "$tmp/err"; then bad "--sample INT64_MAX accepted"
elif grep -q -- '--sample = "9223372036854775807" is not allowed: expected an integer in \[1, 4611686018427387903\]' "$tmp/err"
then ok; else bad "--sample INT64_MAX: $(cat "$tmp/err")"; fi

# rows written before a bad line stay written
printf '0 cnp\n10 query\n20 oops\n' > "$tmp/partial.txt"
"$tool" "$tmp/partial.txt" > "$tmp/out" 2>/dev/null
if [ "$(wc -l < "$tmp/out")" -eq 3 ]; then ok; else bad "partial output: $(cat "$tmp/out")"; fi

if "$tool" "$tmp/does-not-exist.txt" 2> "$tmp/err"; then bad "missing file accepted"
elif grep -q 'cannot open' "$tmp/err"; then ok; else bad "missing file message: $(cat "$tmp/err")"; fi

finish
