#!/bin/sh
# scratch/ edge cases, configured as a user's scratch folder would be: an empty
# folder, a folder of headers only, a.v1.cc beside a.v2.cc, a name with a blank;
# configure succeeds and each program gets its own target.
#   scratch-test.sh REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/lib.sh"
root=$1
work=$2
rm -rf "$work"
mkdir -p "$work/scratch/empty" "$work/scratch/headers" "$work/scratch/multi"
printf '#pragma once\n' >"$work/scratch/headers/h.h"
for f in a.v1.cc a.v2.cc "with blank.cc" multi/main.cc; do
    printf '#include "ns3/core-module.h"\nint main() { return 0; }\n' >"$work/scratch/$f"
done
if cmake -S "$root" -B "$work/build" -DFEROCE_SCRATCH_DIR="$work/scratch" >"$work/configure.log" 2>&1; then
    pass=$((pass + 1))
else
    echo "FAIL: configure with an empty scratch folder:" >&2
    tail -20 "$work/configure.log" >&2
    fail=$((fail + 1))
fi
for t in scratch-a.v1 scratch-a.v2 scratch-with_blank scratch-multi scratch; do
    if cmake --build "$work/build" --target help 2>/dev/null | grep -q "\.\.\. $t\$"; then
        pass=$((pass + 1))
    else
        echo "FAIL: no target $t" >&2
        fail=$((fail + 1))
    fi
done
if cmake --build "$work/build" --target help 2>/dev/null | grep -q 'scratch-empty\|scratch-headers'; then
    echo "FAIL: a target for a folder without a .cc" >&2
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
finish
