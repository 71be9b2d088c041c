# lib.sh - the common opening of feroce's shell tests, sourced:
#   . "$(dirname "$0")/../lib.sh"
# ok and bad count a check, check DESCRIPTION COMMAND... runs one, and finish prints
# "N passed, N failed" (what ctest's log shows) and fails if any did.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*" >&2
}
check() {
    what=$1
    shift
    if "$@"; then ok; else bad "$what"; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
# refusals PROGRAM DIR DB CASES: every line "EXPECTED-WORDS|ARGS" of CASES, run as PROGRAM ARGS
# --outdir=DIR/bad --db=DB, must exit 2 with one line on stderr holding the words, nothing on
# stdout, and leave no DIR/bad (bad input: one line, exit status 2, nothing written); one check.
refusals() {
    r_program=$1
    r_dir=$2
    r_db=$3
    echo "$4" | while IFS='|' read -r want args; do
        [ -n "$want" ] || continue
        set +e
        # shellcheck disable=SC2086
        "$r_program" $args --outdir="$r_dir/bad" --db="$r_db" > "$r_dir/bad.out" 2> "$r_dir/bad.err"
        rc=$?
        set -e
        [ "$rc" = 2 ] || echo "FAIL: $args: exit status $rc" >&2
        [ "$(wc -l < "$r_dir/bad.err")" = 1 ] || echo "FAIL: $args: stderr: $(cat "$r_dir/bad.err")" >&2
        grep -qF -- "$want" "$r_dir/bad.err" || echo "FAIL: $args: expected \"$want\", got: $(cat "$r_dir/bad.err")" >&2
        [ ! -s "$r_dir/bad.out" ] || echo "FAIL: $args: stdout: $(cat "$r_dir/bad.out")" >&2
        [ ! -e "$r_dir/bad" ] || echo "FAIL: $args: left $r_dir/bad" >&2
    done 2> "$r_dir/bad.failures"
    if [ -s "$r_dir/bad.failures" ]; then bad "$(cat "$r_dir/bad.failures")"; else ok; fi
}
