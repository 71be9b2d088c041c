#!/bin/sh
# The audit catches an overwritten attribute (exit 3, one line naming it), passes an honoured
# one, and is silent when it is not preloaded.
#   audit-selftest.sh SELFTEST AUDIT_LIBRARY
set -eu
. "$(dirname "$0")/../lib.sh"
prog=$1
audit=$2
out=$(mktemp)
status=0
LD_PRELOAD=$audit "$prog" --ns3::FeroceSwitch::Kmin=7000 >"$out" 2>&1 || status=$?
check "an overwritten attribute fails the audit (exit $status)" test "$status" = 3
check "the audit's line names it" grep -q '^feroce-audit-selftest: audit: --ns3::FeroceSwitch::Kmin=7000 is not honoured .*Kmin = 1234' "$out"
check "one line" test "$(wc -l <"$out")" = 1
status=0
LD_PRELOAD=$audit "$prog" --ns3::FeroceSwitch::Kmin=7000 --overwrite=0 >"$out" 2>&1 || status=$?
check "an honoured attribute passes (exit $status: $(cat "$out"))" test "$status" = 0
status=0
"$prog" --ns3::FeroceSwitch::Kmin=7000 >"$out" 2>&1 || status=$?
check "without the audit nothing is checked (exit $status)" test "$status" = 0
rm -f "$out"
finish
