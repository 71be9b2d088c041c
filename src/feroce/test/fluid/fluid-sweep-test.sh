#!/bin/sh
# feroce-sweep runs the fluid scenario like a study program: one row per point in the sweep's
# database with the fluid metrics, the stable points found by a query, a rerun runs nothing.
#   fluid-sweep-test.sh FEROCE_SWEEP FEROCE_FLUID_STUDY WORK_DIR [BUILD_DIR FLUID_THEN_PACKET_SH]
. "$(dirname "$0")/../lib.sh"
sweep=$1
study=$2
work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
cat > screen.sweep <<EOT
name screen
program $study
flags --line-rate=40Gbps --rhai=0 --duration=5ms --window=100us
param flows list 2 10
param delay list 0us 100us
metrics phase_margin_deg stable queue_mean_bytes
EOT
"$sweep" run screen.sweep -j 2 --dir s > run.out 2> run.err || bad "sweep exit: $(cat run.err)"
grep -q 'screen: 4 points .*4 done, 0 failed' run.out || bad "summary: $(cat run.out)"
q() { sqlite3 s/sweep.db "$1"; }
[ "$(q "select count(*) from runs where scenario = 'feroce-fluid-study'")" = 4 ] || bad "rows: $(q 'select count(*) from runs')"
# the margin's sign by point: 2 and 10 flows stable without delay, unstable at 100 us (spec/fluid.md)
stable=$(q "select group_concat(json_extract(params,'\$.flows') || '@' || json_extract(params,'\$.delay'), ' ')
            from (select * from runs where json_extract(metrics,'\$.stable') = 1 order by 1)")
unstable=$(q "select count(*) from runs where json_extract(metrics,'\$.phase_margin_deg') < 0")
[ "$unstable" = 2 ] || bad "unstable points: $unstable (stable: $stable)"
echo "$stable" | grep -q '2@0us' && echo "$stable" | grep -q '10@0us' || bad "stable points: $stable"
"$sweep" run screen.sweep --dir s > rerun.out 2>&1
grep -q 'nothing to run' rerun.out || bad "rerun: $(cat rerun.out)"
# then the packet model on the stable points only: one advcam-incast row per stable point
if [ -n "${4:-}" ]; then
    sh "$5" s/sweep.db "$4" packet --duration=2ms --ns3::FeroceNetDevice::DataRate=40Gbps > packet.out 2>&1 ||
        bad "fluid-then-packet: $(cat packet.out)"
    [ "$(sqlite3 packet/packet.db "select count(*) from runs where scenario = 'advcam-incast'")" = 2 ] ||
        bad "packet rows: $(cat packet.out)"
    [ "$(sqlite3 packet/packet.db "select group_concat(json_extract(params, '\$.boards'), ' ') from
        (select params from runs order by json_extract(params, '\$.boards'))")" = "2 10" ] || bad "packet boards"
    grep -q '^| [0-9]* | 10 | 0us |' packet.out || bad "fluid-then-packet table: $(cat packet.out)"
fi
[ $fail -eq 0 ] && echo "fluid-sweep: all passed"
exit $fail
