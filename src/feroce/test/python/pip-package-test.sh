#!/bin/sh
# The package pip installed into the build's venv, as a user meets it: pip knows it at the
# project's version (PEP 440), it imports from the venv with the core it compiled (no ns-3, no
# LD_LIBRARY_PATH), and `python -m feroce trace` reproduces the public scripts' known answers.
#   pip-package-test.sh VENV_PYTHON DATA_DIR VERSION
. "$(dirname "$0")/../lib.sh"
python=$1
data=$2
version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH LD_LIBRARY_PATH FEROCE_CORE_LIB
if "$python" -m pip --disable-pip-version-check show feroce 2>/dev/null | grep -qx "Version: $version"; then ok
else bad "pip show feroce: not version $version"; fi
out=$("$python" -m feroce --version)
prefix=$("$python" -c 'import sys; print(sys.prefix)')
case "$out" in
"feroce $version (core: $prefix/lib/python"*"/site-packages/feroce/_core"*".so)") ok ;;
*) bad "python -m feroce --version: $out" ;;
esac
for v in "$data"/rp-*.txt; do
    sed -n 's/^#> //p' "$v" > "$tmp/expected"
    if "$python" -m feroce trace "$v" > "$tmp/got" && cmp -s "$tmp/expected" "$tmp/got"; then ok
    else bad "python -m feroce trace $(basename "$v") differs"; diff "$tmp/expected" "$tmp/got" | head -5 >&2; fi
done
printf '0 cnp\n9223372036854775000 query\n' > "$tmp/late.txt"
"$python" -m feroce trace "$tmp/late.txt" > /dev/null 2> "$tmp/err"
status=$?
if [ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
    grep -q 'line 2: advance: now = 9223372036854775000 is not allowed' "$tmp/err"; then ok
else bad "a time beyond 2^62 ns: status $status, $(cat "$tmp/err")"; fi
"$python" -m feroce bogus > /dev/null 2> "$tmp/err"
if [ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok; else bad "python -m feroce bogus: $(cat "$tmp/err")"; fi
finish
