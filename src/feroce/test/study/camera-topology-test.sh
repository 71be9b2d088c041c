#!/bin/sh
# advcam-camera on a topology file (src/feroce/doc/fabric.md, "The camera on a topology file"):
# the file feroce-topo camera writes gives byte for byte the outputs of the built-in shape; a
# fabric of two aggregation switches runs with every counter adding up; the flags the file owns,
# a host among the camera's nodes and a bad file are refused (exit status 2, one line).
#   camera-topology-test.sh BUILD_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
build=$1
work=$2
camera=$build/examples/advcam-camera
topo=$build/bin/feroce-topo
rm -rf "$work"
mkdir -p "$work"
metric() { sed -n "s/^$2=//p" "$1/metrics.txt"; }
size="--duration=3ms --fragmentSize=8192 --triggerInterval=10us"

# the built-in shape and its file: the same outputs (params.txt apart from the outdir and the file)
"$camera" --boards=30 --boardsPerLeaf=8 --receivers=3 $size --outdir="$work/built-in" --db=none \
    > "$work/built-in.out" 2>&1 || bad "built-in: $(cat "$work/built-in.out")"
"$topo" camera --boards=30 --boards-per-leaf=8 --receivers=3 -o "$work/camera.topo"
"$camera" --topology="$work/camera.topo" $size --outdir="$work/file" --db=none > "$work/file.out" 2>&1 ||
    bad "file: $(cat "$work/file.out")"
for f in "$work"/built-in/*; do
    name=$(basename "$f")
    if [ "$name" = params.txt ]; then
        grep -v '^outdir=\|^topology=' "$f" > "$work/a.params"
        grep -v '^outdir=\|^topology=' "$work/file/$name" > "$work/b.params"
        cmp -s "$work/a.params" "$work/b.params" && ok || bad "params.txt: $(diff "$work/a.params" "$work/b.params")"
    else
        cmp -s "$f" "$work/file/$name" && ok || bad "$name differs: $(diff "$f" "$work/file/$name" | head -5)"
    fi
done
[ "$(ls "$work/built-in" | wc -l)" = "$(ls "$work/file" | wc -l)" ] && ok || bad "other files: $(ls "$work/file")"
[ "$(metric "$work/file" fragments_delivered)" -gt 0 ] && ok || bad "file: nothing delivered"

# two aggregation switches (each leaf on both, receiver i on aggregation i mod 2): it runs, the
# counters add up, both leaves' uplinks are followed
"$topo" camera --boards=30 --boards-per-leaf=8 --receivers=4 --aggs=2 -o "$work/two-aggs.topo"
"$camera" --topology="$work/two-aggs.topo" $size --outdir="$work/two-aggs" --db=none > "$work/two-aggs.out" 2>&1 ||
    bad "two aggs: $(cat "$work/two-aggs.out")"
[ "$(metric "$work/two-aggs" identity_violations)" = 0 ] && [ "$(metric "$work/two-aggs" fragments_delivered)" -gt 0 ] &&
    ok || bad "two aggs: $(cat "$work/two-aggs/metrics.txt")"
head -1 "$work/two-aggs/series.csv" | grep -q 'agg1_to_rx3_queue_bytes.*leaf0_to_agg0_queue_bytes,leaf0_to_agg1_queue_bytes' &&
    ok || bad "two aggs: series $(head -1 "$work/two-aggs/series.csv")"

# refused: EXPECTED-WORDS | ARGS
printf 'feroce-topology 1\nnode b0 board\nnode h1 host\nnode s switch\nlink b0 s 10Gbps 1us\nlink h1 s 10Gbps 1us\n' > "$work/host.topo"
cases="
--boards=30 is not allowed: expected not given with --topology|--topology=$work/camera.topo --boards=30
--linkDelay=2us is not allowed|--topology=$work/camera.topo --linkDelay=2us
host.topo:3: host h1 is not allowed: the camera's nodes are boards, receivers and switches|--topology=$work/host.topo
missing.topo: cannot be read|--topology=$work/missing.topo
"
refusals "$camera" "$work" "$work/bad.db" "$cases"
[ ! -e "$work/bad.db" ] && ok || bad "bad input wrote $work/bad.db"
finish
