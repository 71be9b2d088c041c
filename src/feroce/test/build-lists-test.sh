#!/bin/sh
# sources.txt is the one list of the module's files that CMakeLists.txt and wscript both read:
# every file it names exists, and every source of the module, TestSuite and example is in it.
#   build-lists-test.sh REPO_ROOT
set -eu
. "$(dirname "$0")/lib.sh"
root=$1
cd "$root"
listed=$(grep -v '^#' sources.txt | awk 'NF == 2 && $1 != "example" { print $2 }')
for f in $listed; do
    if [ -f "$f" ]; then pass=$((pass + 1)); else echo "FAIL: sources.txt names $f, which does not exist" >&2; fail=$((fail + 1)); fi
done
for f in src/feroce/core/*.[ch] src/feroce/results/*.[ch] src/feroce/fabric/*.[ch] src/feroce/engine/*.cc src/feroce/engine/*.h src/feroce/model/*.cc src/feroce/model/*.h \
    src/feroce/helper/*.cc src/feroce/helper/*.h src/feroce/test/*-test-suite.cc; do
    if echo "$listed" | grep -qx "$f"; then pass=$((pass + 1)); else echo "FAIL: $f is not in sources.txt" >&2; fail=$((fail + 1)); fi
done
for f in examples/*.cc; do
    name=$(basename "$f" .cc)
    if grep -qx "example $name" sources.txt; then pass=$((pass + 1)); else echo "FAIL: $f is not an example of sources.txt" >&2; fail=$((fail + 1)); fi
done
# ns-3's test.py runs the examples of test/examples-to-run.py (in-tree builds)
for name in $(sed -n 's/^ *("\([a-z0-9-]*\) .*/\1/p' test/examples-to-run.py); do
    if grep -qx "example $name" sources.txt; then pass=$((pass + 1)); else echo "FAIL: test/examples-to-run.py runs $name, not an example" >&2; fail=$((fail + 1)); fi
done
# every C folder has the C style
for d in src/feroce/core src/feroce/results src/feroce/fluid src/feroce/fabric sweep tools src/feroce/test/core src/feroce/test/results src/feroce/test/fabric src/feroce/test/sweep src/feroce/test/fuzz; do
    if cmp -s "$d/.clang-format" src/feroce/core/.clang-format; then pass=$((pass + 1)); else echo "FAIL: $d has not the C .clang-format" >&2; fail=$((fail + 1)); fi
done
finish
