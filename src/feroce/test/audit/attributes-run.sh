#!/bin/sh
# One run of attributes-test.sh: PROGRAM|ATTRIBUTE=VALUE|ARGS, with bin, audit and work in the
# environment; prints "ok: ..." or "FAIL: ...".
set -u
line=$1
prog=${line%%|*}
rest=${line#*|}
a=${rest%%|*}
args=${rest#*|}
name=${a%%=*}
err=$work/err.$$
# shellcheck disable=SC2086 # the words of the arguments
LD_PRELOAD=$audit timeout 60 "$bin/$prog" --$a $args >/dev/null 2>"$err"
status=$?
text=$(cat "$err")
case $status in
0)
    if grep -q 'audit' "$err"; then
        echo "FAIL: $prog --$a: $text"
    else
        echo "ok: $prog --$a honoured"
    fi
    ;;
2)
    if [ "$(wc -l <"$err")" = 1 ] && grep -q -e "${name##*::}" "$err"; then
        echo "ok: $prog --$a refused: $text"
    else
        echo "FAIL: $prog --$a: exit 2 without one line naming ${name##*::}: $text"
    fi
    ;;
*) echo "FAIL: $prog --$a: exit status $status: $text" ;;
esac
rm -f "$err"
