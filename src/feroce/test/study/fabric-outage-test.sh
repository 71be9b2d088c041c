#!/bin/sh
# Links that go down and up (feroce-fabric, src/feroce/doc/fabric.md "Links down and up"), on a
# k=4 fat-tree of 25 Gb/s where each effect is known by hand:
# - an aggregation uplink of the sources' edge switch down from the start: the switches route
#   around it, so flows whose hash took it before take the other aggregation switch and still
#   complete in their standalone time, no frame lost;
# - the destination's own link down for 280 us during a flow: the flow completes after the link
#   is back, frames were lost on it; down for good: the flow never completes;
# - the HPCC simulator's LINK_DOWN (its configuration, 2 s + T us, for good): the flows to the
#   host it cuts off do not complete, the others do.
# Then bad outages: exit status 2, one line naming the file and line, nothing written.
#   fabric-outage-test.sh BUILD_DIR DATA_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
build=$1
data=$2/fabric
work=$3
fabric=$build/examples/feroce-fabric
rm -rf "$work"
mkdir -p "$work"
metric() { sed -n "s/^$2=//p" "$1/metrics.txt"; }
run() {
    name=$1
    shift
    "$fabric" "$@" --outdir="$work/$name" --db=none > "$work/$name.out" 2> "$work/$name.err" ||
        bad "$name: $(cat "$work/$name.err")"
}
"$build/bin/feroce-topo" fat-tree --k=4 --host-rate=25Gbps -o "$work/k4.topo"

# eight flows h0 -> h15 one after the other (each alone): the k-th of a pair takes source port
# 0xc000 + k, so ECMP spreads them over both aggregation switches of pod 0
{
    echo "feroce-flows 1"
    for i in 0 1 2 3 4 5 6 7; do echo "h0 h15 100000 $((10 + 100 * i))us"; done
} > "$work/eight.flows"
run all-up --topology="$work/k4.topo" --flows="$work/eight.flows" --duration=1ms --paths=1
grep -q 'agg0' "$work/all-up/fct.csv" && grep -q 'agg1' "$work/all-up/fct.csv" && ok ||
    bad "all up: the flows do not take both aggregation switches: $(cat "$work/all-up/fct.csv")"
{
    cat "$work/k4.topo"
    echo "down edge0 agg0 0ns"
} > "$work/k4-agg0-down.topo"
run agg0-down --topology="$work/k4-agg0-down.topo" --flows="$work/eight.flows" --duration=1ms --paths=1
[ "$(metric "$work/agg0-down" flows_completed)" = 8 ] && ok ||
    bad "agg0 down: $(metric "$work/agg0-down" flows_completed) flows completed"
grep -q 'agg0' "$work/agg0-down/fct.csv" && bad "agg0 down: a flow crossed agg0" || ok
# every flow in its standalone time (each device rounds a frame's time to whole ns)
awk -F, 'NR > 1 { d = $9 - $10; if (d < -12 || d > 0 || $13 != "ok") exit 1 }' "$work/agg0-down/fct.csv" &&
    ok || bad "agg0 down: a flow slower than alone: $(cat "$work/agg0-down/fct.csv")"
[ "$(metric "$work/agg0-down" link_outages)" = 1 ] && [ "$(metric "$work/agg0-down" link_down_frames_lost)" = 0 ] &&
    ok || bad "agg0 down: outages $(metric "$work/agg0-down" link_outages), lost $(metric "$work/agg0-down" link_down_frames_lost)"

# the destination's link down from 20 us to 300 us during a flow from 10 us (alone: ~40 us)
printf 'feroce-flows 1\nh0 h15 100000 10us\n' > "$work/one.flows"
{
    cat "$work/k4.topo"
    echo "down h15 edge7 20us 300us"
} > "$work/k4-h15-out.topo"
run h15-out --topology="$work/k4-h15-out.topo" --flows="$work/one.flows" --duration=5ms
[ "$(metric "$work/h15-out" flows_completed)" = 1 ] && ok || bad "h15 out and back: not completed"
[ "$(wc -l < "$work/h15-out/fct.csv")" = 2 ] &&
    awk -F, 'NR == 2 { exit !($8 + $9 > 300000 && $13 == "ok") }' "$work/h15-out/fct.csv" && ok ||
    bad "h15 out and back: completed before its link was back: $(sed -n 2p "$work/h15-out/fct.csv")"
[ "$(metric "$work/h15-out" link_down_frames_lost)" -gt 0 ] && ok || bad "h15 out and back: no frame lost"
# ... and for good
sed 's/^down h15 edge7 20us 300us$/down h15 edge7 20us/' "$work/k4-h15-out.topo" > "$work/k4-h15-gone.topo"
run h15-gone --topology="$work/k4-h15-gone.topo" --flows="$work/one.flows" --duration=2ms
[ "$(metric "$work/h15-gone" flows_completed)" = 0 ] &&
    [ $(($(metric "$work/h15-gone" flows_failed) + $(metric "$work/h15-gone" flows_in_flight))) = 1 ] && ok ||
    bad "h15 gone: $(cat "$work/h15-gone/metrics.txt")"

# the HPCC simulator's LINK_DOWN: host 15's link (to edge 23) at 2 s + 1 us, for good: its two
# flows (0 -> 15 and 13 -> 15) do not complete, the other two do
cp "$data/good/fat_k4.txt" "$data/good/k4.flows" "$work/"
sed 's/^LINK_DOWN 0 0 0$/LINK_DOWN 1 15 23/' "$data/good/k4-dcqcn.config" > "$work/k4-down.config"
run cfg-down --config="$work/k4-down.config"
[ "$(metric "$work/cfg-down" flows_completed)" = 2 ] && [ "$(metric "$work/cfg-down" flows_failed)" = 2 ] &&
    [ "$(metric "$work/cfg-down" link_outages)" = 1 ] && ok ||
    bad "LINK_DOWN: $(metric "$work/cfg-down" flows_completed) flows completed"
awk -F, 'NR > 1 && ($3 == 15) != ($13 != "ok") { exit 1 }' "$work/cfg-down/fct.csv" && ok ||
    bad "LINK_DOWN: $(cat "$work/cfg-down/fct.csv")"

# bad outages: EXPECTED-WORDS | ARGS
printf 'down h0 edge0 5ms\n' | cat "$work/k4.topo" - > "$work/late.topo"
printf 'down h0 edge0 1ms 0.5ms\n' | cat "$work/k4.topo" - > "$work/up-first.topo"
printf 'down h0 edge1 1ms\n' | cat "$work/k4.topo" - > "$work/no-link.topo"
sed 's/^LINK_DOWN 0 0 0$/LINK_DOWN 1 0 15/' "$data/good/k4-dcqcn.config" > "$work/k4-nolink.config"
sed 's/^LINK_DOWN 0 0 0$/LINK_DOWN 200000 15 23/' "$data/good/k4-dcqcn.config" > "$work/k4-late.config"
lines=$(wc -l < "$work/k4.topo")
cases="
late.topo:$((lines + 1)): down h0 edge0 at 5000000 ns is not allowed: the run ends at 1000000 ns|--topology=$work/late.topo --flows=$work/one.flows --duration=1ms
up-first.topo:$((lines + 1)): link h0 edge0 comes back up at 500us, not after it goes down at 1ms|--topology=$work/up-first.topo --flows=$work/one.flows
no-link.topo:$((lines + 1)): no link joins h0 and edge1|--topology=$work/no-link.topo --flows=$work/one.flows
k4-nolink.config:39: LINK_DOWN 1 0 15 is not allowed: expected two nodes of|--config=$work/k4-nolink.config
k4-late.config:39: LINK_DOWN at 2200000000 ns is not allowed: the run ends at 2100000000 ns|--config=$work/k4-late.config
"
ls -R "$work" > "$work/../outage.before"
refusals "$fabric" "$work" "$work/bad.db" "$cases"
[ ! -e "$work/bad.db" ] && ok || bad "bad input wrote $work/bad.db"
ls -R "$work" | grep -v 'bad\.\(out\|err\|failures\)$' | diff "$work/../outage.before" - | grep -v 'bad\.\(out\|err\|failures\)$' |
    grep -q '^[<>]' && bad "bad outages left files" || ok
finish
