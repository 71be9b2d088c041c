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
