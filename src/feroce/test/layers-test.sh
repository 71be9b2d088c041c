#!/bin/sh
# The layers hold (src/feroce/doc/README.md, "The layers"): each layer includes only what lies
# beneath it.
#   core (C)            its own headers and the C library: no ns-3, nothing above it
#   results, fluid, fabric (C)  no ns-3
#   engine (C++)        ns-3 and the core, no model or helper header
#   model (C++)         ns-3, the core and the engine, no helper header
# Then the same rules are run on a copy with one forbidden include planted in each layer, which
# they must catch (a check that cannot fail checks nothing).
#   layers-test.sh REPO_ROOT WORK_DIR
set -eu
. "$(dirname "$0")/lib.sh"
root=$1
work=$2

# The included names ("x.h" or <x.h>, without an ns3/ prefix) of the files given.
includes() {
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*["<]\(ns3\/\)\{0,1\}\([^">]*\)[">].*/\2/p' "$@" | sort -u
}

# The header names of a folder.
headers() {
    for h in "$1"/*.h; do basename "$h"; done
}

# forbidden NAMEFILE LAYER FILES...: prints each file's include named in NAMEFILE; fails if any.
forbidden() {
    names=$1
    layer=$2
    shift 2
    found=0
    for f in "$@"; do
        for i in $(includes "$f" | grep -Fx -f "$names"); do
            echo "$layer: $f includes $i" >&2
            found=1
        done
    done
    return $found
}

# layer_ok TREE: prints each include that breaks a rule; succeeds when there is none.
layer_ok() {
    src=$1/src/feroce
    broken=0
    # the core: its own headers and the C library's, nothing else
    ls "$src/core" > "$work/allowed"
    printf '%s\n' assert.h complex.h ctype.h errno.h float.h inttypes.h limits.h math.h stdarg.h \
        stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h time.h >> "$work/allowed"
    for i in $(includes "$src"/core/*.[ch] | grep -Fxv -f "$work/allowed"); do
        echo "core: includes $i ($(grep -l "include.*[\"</]$i[\">]" "$src"/core/*.[ch] | tr '\n' ' '))" >&2
        broken=1
    done
    # the C layers: no ns-3
    if grep -l '^[ \t]*#[ \t]*include[ \t]*["<]ns3/' "$src"/core/*.[ch] "$src"/results/*.[ch] "$src"/fluid/*.[ch] "$src"/fabric/*.[ch] >&2; then
        echo "C layers: the files above include ns-3" >&2
        broken=1
    fi
    headers "$src/model" > "$work/model"
    headers "$src/helper" > "$work/helper"
    cat "$work/model" "$work/helper" > "$work/above-engine"
    forbidden "$work/above-engine" engine "$src"/engine/* || broken=1
    forbidden "$work/helper" model "$src"/model/* || broken=1
    return $broken
}

rm -rf "$work"
mkdir -p "$work"
check "the layers of this tree hold" layer_ok "$root"

# each rule catches a planted include
for plant in "core/feroce-rp.c:ns3/simulator.h" "core/feroce-cp.h:feroce-db.h" \
    "results/feroce-stats.c:ns3/log.h" "fabric/feroce-topo.c:ns3/node.h" "engine/feroce-arena.cc:ns3/roce-nic.h" \
    "engine/feroce-sim.h:feroce-switch.h" "model/feroce-switch.cc:ns3/roce-helper.h"; do
    file=${plant%%:*}
    inc=${plant#*:}
    copy=$work/tree
    rm -rf "$copy"
    mkdir -p "$copy/src/feroce"
    for d in core results fluid fabric engine model helper; do cp -r "$root/src/feroce/$d" "$copy/src/feroce/$d"; done
    printf '#include "%s"\n' "$inc" >> "$copy/src/feroce/$file"
    if layer_ok "$copy" 2>/dev/null; then bad "a planted #include \"$inc\" in $file is not caught"; else ok; fi
done
rm -rf "$work"
finish
