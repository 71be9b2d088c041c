#!/bin/sh
# feroce-fabric as a user runs it, on a k=4 fat-tree: one flow alone completes in its standalone
# FCT (slowdown 1, in fct.csv, fct.txt and the row); drawn flows (a CDF at a load, an incast
# overlay) are the same for the same RngRun and others for another; the HPCC simulator's
# configuration runs with its warnings; feroce-topo fct-bins reads the fct.txt; the picture is
# drawn.  Then every bad input: exit status 2, one line on stderr naming the file and line (or
# the flag), no row, no file left.
#   fabric-test.sh BUILD_DIR DATA_DIR SOURCE_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
build=$1
data=$2/fabric
src=$3
work=$4
fabric=$build/examples/feroce-fabric
topo=$build/bin/feroce-topo
rm -rf "$work"
mkdir -p "$work"
db=$work/runs.db
k4=$data/good/fat_k4.txt
rows() { sqlite3 "$db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0; }
metric() { sed -n "s/^$2=//p" "$1/metrics.txt"; }

# one flow alone, across pods (6 hops): its FCT is its standalone FCT
printf 'feroce-flows 1\n0 15 100000 1us\n' > "$work/one.flows"
printf 'feroce-flows 1\nh0 h1 1000 0ns\n' > "$work/two.flows"
"$fabric" --topology="$k4" --flows="$work/one.flows" --duration=1ms --outdir="$work/one" --db="$db" \
    > "$work/one.out" 2> "$work/one.err" || bad "one flow: $(cat "$work/one.err")"
[ "$(metric "$work/one" flows_completed)" = 1 ] && ok || bad "one flow: not completed"
[ "$(metric "$work/one" slowdown_p50)" = 1 ] && ok || bad "one flow: slowdown $(metric "$work/one" slowdown_p50)"
head -1 "$work/one/fct.csv" | grep -q '^id,src,dst,kind,op,prio,size_bytes,start_ns,fct_ns,standalone_ns,slowdown,sport,status$' &&
    ok || bad "one flow: fct.csv's header: $(head -1 "$work/one/fct.csv")"
[ "$(wc -l < "$work/one/fct.csv")" = 2 ] && awk -F, 'NR == 2 { d = $9 - $10; exit !(d >= -12 && d <= 0 && $11 == 1 && $13 == "ok") }' "$work/one/fct.csv" &&
    ok || bad "one flow: fct.csv $(sed -n 2p "$work/one/fct.csv")"
# fct.txt: the peers' columns and addresses (node 0 is 0b000001, node 15 is 0b000f01)
awk 'NR == 1 { exit !(NF == 8 && $1 == "0b000001" && $2 == "0b000f01" && $4 == 100 && $5 == 100000) }' \
    "$work/one/fct.txt" && ok || bad "one flow: fct.txt $(cat "$work/one/fct.txt")"
[ "$(rows)" = 1 ] && ok || bad "one flow: $(rows) rows"
# 100 000 B: the decade from 100 KB to 1 MB, size_1m
[ "$(sqlite3 "$db" "SELECT json_extract(metrics, '\$.size_1m_slowdown_p50') FROM runs")" = 1 ] && ok ||
    bad "one flow: the row's size_1m_slowdown_p50"
grep -q '^decade,background,,,100000,999999,1,1,1,1$' "$work/one/fct-bins.csv" && ok ||
    bad "one flow: fct-bins.csv $(cat "$work/one/fct-bins.csv")"

# drawn flows and incasts: the same seed draws the same flows, another seed others
draw() {
    "$fabric" --topology="$k4" --cdf="$src/examples/cdf/FbHdp.txt" --load=0.3 --incast=4 --incastSize=20000 \
        --incastPeriod=200us --duration=1ms --trafficStop=600us --saveFlows=hpcc --RngRun="$1" \
        --outdir="$work/$2" --db="$db" > "$work/$2.out" 2> "$work/$2.err" || bad "$2: $(cat "$work/$2.err")"
}
draw 1 a
draw 1 b
draw 2 c
cmp -s "$work/a/fct.csv" "$work/b/fct.csv" && ok || bad "RngRun 1 twice: different fct.csv"
cmp -s "$work/a/flows.txt" "$work/c/flows.txt" && bad "RngRun 1 and 2: the same flows" || ok
[ "$(metric "$work/a" flows_started)" -gt 100 ] && ok || bad "drawn: $(metric "$work/a" flows_started) flows"
grep -q ',incast,' "$work/a/fct.csv" && grep -q ',background,' "$work/a/fct.csv" && ok ||
    bad "drawn: no incast or no background flow"
[ -n "$(metric "$work/a" incast_slowdown_p50)" ] && ok || bad "drawn: no incast slowdown"
# the flows it saved are a flow file the HPCC simulator (and feroce) reads
"$topo" check "$k4" --flows="$work/a/flows.txt" > "$work/check.out" && ok || bad "saved flows: unreadable"
# the peers' fct.txt through feroce-topo fct-bins: the same bins as the run's
"$topo" fct-bins "$work/a/fct.txt" > "$work/bins.csv" && ok || bad "fct-bins failed"
grep '^decade,background' "$work/a/fct-bins.csv" | cut -d, -f5-7 > "$work/run.dec"
grep '^decade,background' "$work/bins.csv" | cut -d, -f5-7 > "$work/txt.dec"
cmp -s "$work/run.dec" "$work/txt.dec" && ok || bad "fct-bins: other counts than the run's"
if command -v gnuplot > /dev/null; then
    gnuplot -e "in='$work/a/fct-bins.csv'; peer='$work/bins.csv'; out='$work/slowdown.png'" \
        "$src/plots/fabric-slowdown.gp" 2> "$work/gnuplot.err" && [ -s "$work/slowdown.png" ] && ok ||
        bad "picture: $(cat "$work/gnuplot.err")"
fi

# the HPCC simulator's configuration: its files beside it, its warnings, a run
"$fabric" --config="$data/good/k4-dcqcn.config" --outdir="$work/cfg" --db="$db" > "$work/cfg.out" \
    2> "$work/cfg.err" || bad "config: $(cat "$work/cfg.err")"
[ "$(metric "$work/cfg" flows_completed)" = 4 ] && ok || bad "config: $(metric "$work/cfg" flows_completed) flows"
[ "$(grep -c 'warning: ' "$work/cfg.err")" = 5 ] && ok || bad "config: warnings $(cat "$work/cfg.err")"
# the command line above the configuration: its flags and --ns3:: values win over the file's keys,
# which win over the program's defaults (--kmin given: the file's KMIN_MAP is not used, warned)
"$fabric" --config="$data/good/k4-dcqcn.config" --duration=2.5s --preset=paper --kmin=20000 \
    --ns3::DcqcnReactionPoint::MinRate=500Mbps --outdir="$work/cfg2" --db=none > "$work/cfg2.out" 2> "$work/cfg2.err" ||
    bad "config under flags: $(cat "$work/cfg2.err")"
grep -q '^duration=2.5$' "$work/cfg2/params.txt" && grep -q '^preset=paper$' "$work/cfg2/params.txt" && ok ||
    bad "config under flags: $(grep '^duration\|^preset' "$work/cfg2/params.txt")"
grep -q 'KMIN_MAP, KMAX_MAP and PMAX_MAP are not used: --kmin' "$work/cfg2.err" && ok ||
    bad "config under --kmin: $(cat "$work/cfg2.err")"
[ "$(metric "$work/cfg2" flows_completed)" = 4 ] && ok || bad "config under flags: flows"

# the files a run reads, as feroce-sweep asks for a point's key: the input flags, and the
# configuration's topology and flows
[ "$("$fabric" --PrintInputFlags | tr '\n' ' ')" = "topology flows config cdf " ] && ok ||
    bad "--PrintInputFlags: $("$fabric" --PrintInputFlags)"
"$fabric" --config="$data/good/k4-dcqcn.config" --kmin=20000 --PrintInputs > "$work/inputs.txt" 2>&1 &&
    [ "$(cat "$work/inputs.txt")" = "$(printf '%s\n' "$data/good/fat_k4.txt" "$data/good/k4.flows" "$data/good/k4-dcqcn.config")" ] &&
    ok || bad "--PrintInputs: $(cat "$work/inputs.txt")"

# bad inputs: EXPECTED-WORDS | ARGS (--outdir and --db added)
before=$(rows)
ls -R "$work" > "$work/../fabric.before"
cases="
$data/bad/self-link.topo:5: link 1 1 joins a node to itself|--topology=$data/bad/self-link.topo --flows=$work/one.flows
$data/bad/disconnected.topo:2: host 3 is not connected|--topology=$data/bad/disconnected.topo --flows=$work/one.flows
$data/bad/size-zero.flows:3: size 0 is out of range|--topology=$k4 --flows=$data/bad/size-zero.flows
$data/bad/start-negative.flows:3: start -0.5 is before 0|--topology=$k4 --flows=$data/bad/start-negative.flows
$data/bad/unknown-node.flows:3: node 99 is unknown|--topology=$k4 --flows=$data/bad/unknown-node.flows
$data/bad/not-monotone.cdf:5: probability 0.3 is not above|--topology=$k4 --cdf=$data/bad/not-monotone.cdf --load=0.5
$data/bad/cc-mode.config:2: CC_MODE 3 is not allowed|--config=$data/bad/cc-mode.config
--pairs=x is not allowed: expected random or permutation|--topology=$k4 --cdf=$src/examples/cdf/FbHdp.txt --load=0.5 --pairs=x
--senders=switch is not allowed|--topology=$k4 --incast=2 --senders=switch
--fctStep=0 is not allowed|--topology=$k4 --flows=$work/one.flows --fctStep=0
--load=0.5 is not allowed: expected 0 without --cdf|--topology=$k4 --load=0.5
--incastReceiver=nobody is not allowed|--topology=$k4 --incast=2 --incastReceiver=nobody
EcmpSeed|--topology=$k4 --flows=$work/one.flows --ns3::FeroceSwitch::EcmpSeed=3
DataRate|--topology=$k4 --flows=$work/one.flows --ns3::FeroceNetDevice::DataRate=10Gbps
--load=1.5 is not allowed: expected 0..1|--topology=$k4 --cdf=$src/examples/cdf/FbHdp.txt --load=1.5
no flows: expected|--topology=$k4
incast senders = 16 is not allowed|--topology=$k4 --incast=16
missing.topo: cannot be read|--topology=$work/missing.topo --flows=$work/one.flows
$data/study/model-value.topo:3: Kmin=lots is not allowed: not a value of ns3::FeroceSwitch::Kmin|--topology=$data/study/model-value.topo --flows=$work/two.flows
$data/study/model-key.topo:3: Frobs=1 is not allowed: Frobs is not an attribute of ns3::FeroceSwitch|--topology=$data/study/model-key.topo --flows=$work/two.flows
"
refusals "$fabric" "$work" "$db" "$cases"
[ "$(rows)" = "$before" ] && ok || bad "bad inputs wrote rows"
ls -R "$work" | grep -v 'bad\.\(out\|err\|failures\)$' > "$work/../fabric.after"
grep -v 'bad\.\(out\|err\|failures\)$' "$work/../fabric.before" | diff - "$work/../fabric.after" > /dev/null && ok ||
    bad "bad inputs left files: $(grep -v 'bad\.\(out\|err\|failures\)$' "$work/../fabric.before" | diff - "$work/../fabric.after")"
finish
