#!/bin/sh
# CMakeLists.txt and wscript list the module's sources, headers, tests and
# examples twice (two build systems); CI builds only the CMake side, so this
# checks that every file either names is listed by the other.
#   build-lists-test.sh REPO_ROOT
set -eu
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files() { grep -oE '[A-Za-z0-9_./-]+\.(c|cc|h)\b' "$@" | sort -u; }
# the top-level lists name paths from the repository root, the examples' lists from examples/
{ files "$root/wscript"; files "$root/examples/wscript" | sed 's|^|examples/|'; } | sort -u > "$tmp/waf"
{ files "$root/CMakeLists.txt"; files "$root/examples/CMakeLists.txt" | sed 's|^|examples/|'; } | sort -u > "$tmp/cmake"
if diff "$tmp/cmake" "$tmp/waf" > "$tmp/diff"; then
    echo "1 passed, 0 failed"
else
    echo "CMakeLists.txt (<) and wscript (>) list different files:" >&2
    cat "$tmp/diff" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
