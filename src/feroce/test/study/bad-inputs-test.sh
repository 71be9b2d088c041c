#!/bin/sh
# Every bad input of the study programs: exit status 2, one line on stderr that
# names the flag (and points to --help where it is a command-line error),
# nothing on stdout, no row added to --db and no file left behind; all before
# anything is simulated.  Then a sweep over an ns-3 attribute: the attribute is
# honoured (the results change) and recorded.
#   bad-inputs-test.sh EXAMPLES_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"

db=$work/feroce.db
"$bin/advcam-incast" --duration=2ms --outdir="$work/good" --db="$db" >/dev/null
rows() { sqlite3 "$1" 'SELECT count(*) FROM runs'; }
[ "$(rows "$db")" = 1 ] || bad "the good run wrote no row"
ls -R "$work" >"$work/../bad-inputs.before"

# a database that is not one, a damaged one, a read-only one; a file in the way of a folder
printf 'not a database\n' >"$work/text.db"
head -c 3000 "$db" >"$work/truncated.db"
cp "$db" "$work/readonly.db"
chmod 444 "$work/readonly.db"
mkdir "$work/dir.db"
printf 'x\n' >"$work/afile"
# a database of another program (its runs table another schema), one of a newer feroce, a
# dangling link, a name too long for the file system
sqlite3 "$work/other.db" 'CREATE TABLE runs (x INTEGER)'
cp "$db" "$work/newer.db"
sqlite3 "$work/newer.db" 'PRAGMA user_version = 99'
ln -s "$work/missing.db" "$work/dangling.db"
long=$(printf '%0300d' 0)
ls -R "$work" >"$work/../bad-inputs.before"

# sweep files: a good one, one named "", one whose program is a folder, one too large to hold
printf 'name x\nprogram %s\nparam kmin list 5000 6000\n' "$bin/advcam-incast" >"$work/x.sweep"
cp "$work/x.sweep" "$work/ok.sweep"
printf 'name ""\nprogram %s\nparam kmin list 5000\n' "$bin/advcam-incast" >"$work/empty-name.sweep"
printf 'name f\nprogram %s\nparam kmin list 5000\n' "$work/dir.db" >"$work/folder.sweep"
printf 'name h\nprogram %s\nparam a lin 1 100000 1000\nparam b lin 1 1000 1000\nreplications 100000\n' \
    "$bin/advcam-incast" >"$work/huge.sweep"
printf 'preset paper\n0 cnp\n' >"$work/rp.txt"
printf 'name t\nprogram %s\nparam kmin list 5000\ntimeout 0x1p4\n' "$bin/advcam-incast" >"$work/hex-timeout.sweep"
ls -R "$work" >"$work/../bad-inputs.before"

# EXPECTED-WORDS | PROGRAM ARGS... (the study's --outdir and --db are added unless given)
cases='
--duration=abc|advcam-incast --duration=abc
--duration=abc|advcam-camera --duration=abc
--duration=abc|advcam-mtu --duration=abc
--duration=abc|advcam-sawtooth --duration=abc
--duration=abc|dcqcn-rate-limiter --duration=abc
--linkDelay=-1us|advcam-incast --linkDelay=-1us
unknown flag --bogus|advcam-incast --bogus=1
unknown flag --bogus|dcqcn-rate-limiter --bogus=1
unknown flag --bogus|feroce-bench --bogus=1
--scenario=x|feroce-bench --scenario=x
--pmtu=abc|advcam-incast --pmtu=abc
--pmax=nan|advcam-incast --pmax=nan
--pcap=2|advcam-incast --pcap=2
--outdir=|advcam-incast --outdir=
--outdir=|dcqcn-rate-limiter --outdir=
--db=|advcam-incast --db=
--lineRate=-1Gbps|dcqcn-rate-limiter --lineRate=-1Gbps
--boards=3.5|advcam-incast --boards=3.5
--boards=-3|advcam-incast --boards=-3
--kmin=-1|advcam-incast --kmin=-1
--receivers=-1|advcam-camera --receivers=-1
--mtu=-1|dcqcn-rate-limiter --mtu=-1
--window=40ms|advcam-incast --duration=30ms --window=40ms
--warmup=40ms|advcam-incast --duration=30ms --warmup=40ms
--duration=5 |advcam-incast --duration=5
MB of CSV|advcam-incast --duration=1e9s
MB of CSV|dcqcn-rate-limiter --sample=1ns
--db=WORK/text.db is not allowed: not an sqlite database|advcam-incast --db=WORK/text.db
--db=WORK/truncated.db is not allowed|advcam-incast --db=WORK/truncated.db
--db=WORK/dir.db is not allowed: not a file|advcam-incast --db=WORK/dir.db
--db=WORK/afile/x.db is not allowed|advcam-incast --db=WORK/afile/x.db
--outdir=WORK/afile is not allowed|advcam-incast --outdir=WORK/afile
--outdir=WORK/afile/x is not allowed|advcam-incast --outdir=WORK/afile/x
--outdir=WORK/afile is not allowed|advcam-camera --outdir=WORK/afile
--outdir=WORK/afile is not allowed|dcqcn-rate-limiter --outdir=WORK/afile
MinRate|advcam-incast --ns3::DcqcnReactionPoint::MinRate=20Gbps
--ns3::DcqcnReactionPoint::RateAi is set by this program through --rai|advcam-incast --ns3::DcqcnReactionPoint::RateAi=1Gbps
--ns3::Nope::X|advcam-incast --ns3::Nope::X=1
--ns3::RoceQueuePair::AckTimeout=abc|advcam-incast --ns3::RoceQueuePair::AckTimeout=abc
--ackTimeout and --ns3::RoceQueuePair::AckTimeout|advcam-incast --ackTimeout=1ms --ns3::RoceQueuePair::AckTimeout=2ms
--ns3::RoceNic::DcqcnPreset=hpcc is not honoured|advcam-mtu --ns3::RoceNic::DcqcnPreset=hpcc
--RngRun=-1|advcam-incast --RngRun=-1
Pmtu|advcam-incast --pmtu=1500
Kmin|advcam-incast --kmin=300000 --kmax=200000
Pmax|advcam-camera --pmax=2
--g=2 |advcam-incast --g=2
--ackJitter=-1ms|advcam-incast --ackJitter=-1ms
--schedule=0ms:30ms|advcam-incast --schedule=0ms:30ms
unexpected argument|advcam-sawtooth extra
--duration=abc|advcam-receiver --duration=abc
--softPacketCost=-1us|advcam-receiver --softPacketCost=-1us
--boards=0|advcam-receiver --boards=0
--benchPmtu=1500|advcam-receiver --benchPmtu=1500
RxProcessingRate = 0bps is not allowed with ReceiverModel = software|advcam-receiver --ns3::RoceNic::ReceiverModel=software
ReceiverModel = cpu is not allowed|advcam-incast --ns3::RoceNic::ReceiverModel=cpu
RxBufferSize = 1000 is not allowed with ReceiverModel = hardware|advcam-incast --ns3::RoceNic::RxBufferSize=1000
RxXonBytes = 5 is not allowed without RxPfc|advcam-incast --ns3::RoceNic::RxXonBytes=5
advcam-receiver: Kmin = 300000 is not allowed: expected <= Kmax|advcam-receiver --kmin=300000
RxXoffBytes is set by this program through --softBuffer|advcam-receiver --ns3::RoceNic::RxXoffBytes=100000
--pmax=0x1p-4 is not allowed: expected a finite decimal number|advcam-incast --pmax=0x1p-4
--linkDelay=0x1p-20s is not allowed|advcam-incast --linkDelay=0x1p-20s
--ns3::FeroceSwitch::Pmax=0x1p-4 is not allowed|advcam-incast --ns3::FeroceSwitch::Pmax=0x1p-4
--RngSeed=0 is not allowed: expected a whole number 1..4294944442|advcam-incast --RngSeed=0
--RngSeed=4294967295 is not allowed|advcam-camera --RngSeed=4294967295
--RngRun=1.5 is not allowed|advcam-incast --RngRun=1.5
--PrintAttributes=ns3::Bogus is not allowed: expected the name of an ns-3 type|advcam-incast --PrintAttributes=ns3::Bogus
--PrintGroup=Bogus is not allowed|advcam-incast --PrintGroup=Bogus
--ns3::RoceNic::QueuePairs is not allowed: it holds an object|advcam-incast --ns3::RoceNic::QueuePairs=x
--ns3::RoceNic::ReactionPoint is not allowed: it holds an object|advcam-incast --ns3::RoceNic::ReactionPoint=0
--ns3::FeroceNetDevice::ReceiveErrorModel is not allowed: it holds an object|advcam-camera --ns3::FeroceNetDevice::ReceiveErrorModel=0
--ns3::FeroceNetDevice::ReceiveErrorModel is not allowed|advcam-window --ns3::FeroceNetDevice::ReceiveErrorModel=0
--ns3::RoceNic::Ipv4Address=10.9.9.9 is not honoured|advcam-incast --ns3::RoceNic::Ipv4Address=10.9.9.9
SchedulerType = ns3::HeapScheduler is not allowed with SimulatorImplementationType = ns3::FeroceSimulatorImpl|advcam-incast --SchedulerType=ns3::HeapScheduler
SchedulerType = ns3::RoceNic is not allowed|advcam-incast --SchedulerType=ns3::RoceNic
--outdir=/proc/feroce is not allowed|advcam-incast --outdir=/proc/feroce
--db=/proc/feroce.db is not allowed: cannot create it: /proc is not writable|advcam-incast --db=/proc/feroce.db
--db=/sys/feroce/x.db is not allowed: cannot create it|advcam-camera --db=/sys/feroce/x.db
db = /proc/feroce.db is not allowed: cannot create it|feroce-fluid-study --flows=3 --duration=1ms --window=100us --outdir=WORK/fluid --db=/proc/feroce.db
--outdir=WORK/dangling.db/x is not allowed|advcam-incast --outdir=WORK/dangling.db/x
--outdir=WORK/LONG is not allowed: a name in it is longer than 255 bytes|advcam-incast --outdir=WORK/LONG
--db=WORK/other.db is not allowed: its table runs has another schema|advcam-incast --db=WORK/other.db
--db=WORK/newer.db is not allowed: schema version 99 is newer|advcam-incast --db=WORK/newer.db
--db=WORK/dangling.db is not allowed: a symbolic link to a missing file|advcam-incast --db=WORK/dangling.db
--db=WORK/LONG.db is not allowed: a name in the path is longer than 255 bytes|advcam-incast --db=WORK/LONG.db
db = WORK/other.db is not allowed: its table runs has another schema|feroce-fluid-study --flows=3 --duration=1ms --window=100us --outdir=WORK/fluid --db=WORK/other.db
--ns3::DcqcnReactionPoint::LineRate=100Mbps is not allowed: it is the NIC|advcam-incast --ns3::DcqcnReactionPoint::LineRate=100Mbps
Mtu = 1000 is not allowed with Pmtu = 4096: expected >= 4160|advcam-incast --ns3::FeroceNetDevice::Mtu=1000
--boards=0 is not allowed: expected 1..1000|advcam-incast --duration=2ms --boards=0
--scripts=3x is not allowed: expected a whole number|fixed-point-widths --scripts=3x --outdir=WORK/fpw
--scripts=1.5 is not allowed: expected a whole number|fixed-point-widths --scripts=1.5 --outdir=WORK/fpw
--scripts=-1 is not allowed: expected a whole number|fixed-point-widths --scripts=-1 --outdir=WORK/fpw
--tolerance=0.5abc is not allowed: expected a finite decimal number|fixed-point-widths --tolerance=0.5abc --outdir=WORK/fpw
--clockHz=1.5e0 is not allowed|fixed-point-widths --clockHz=1.5e0 --outdir=WORK/fpw
--ns3::FeroceSwitch::Kmin=1 is not allowed: this program builds no ns3::FeroceSwitch|fixed-point-widths --ns3::FeroceSwitch::Kmin=1 --outdir=WORK/fpw
unknown flag --bogus|fixed-point-widths --bogus=1 --outdir=WORK/fpw
--rateBits=8:60 is not allowed: expected lo:hi within 2:48|fixed-point-widths --rateBits=8:60 --outdir=WORK/fpw
--rateBits=8,10 is not allowed: expected lo:hi within 2:48|fixed-point-widths --rateBits=8,10 --outdir=WORK/fpw
-j = "0" is not allowed: expected an integer in [1, 4096]|feroce-sweep run WORK/x.sweep -j 0
option "--bogus" is not allowed|feroce-sweep run WORK/x.sweep --bogus
--program WORK/dir.db is not allowed: a folder|feroce-sweep run WORK/ok.sweep --program WORK/dir.db --dir WORK/sw
name "" is not allowed|feroce-sweep run WORK/empty-name.sweep --dir WORK/sw
points: expected fewer values or replications|feroce-sweep list WORK/huge.sweep
is not an executable file (a folder)|feroce-sweep run WORK/folder.sweep --dir WORK/sw
timeout = "0x1p4" is not allowed|feroce-sweep list WORK/hex-timeout.sweep
--dir = "/proc/feroce" is not allowed: expected a folder that can be created|feroce-sweep run WORK/ok.sweep --dir /proc/feroce
--duration/--window give|advcam-incast --pcap=1 --duration=1s
MB of pcap|advcam-incast --pcap=1 --duration=1s --window=10ms
Kmin = 20000000 is not allowed: above BufferSize = 12000000|advcam-incast --kmin=20000000 --kmax=30000000
--g=0.5 is not allowed: DCQCN is off (--dcqcn=0)|advcam-incast --dcqcn=0 --g=0.5
--ns3::DcqcnReactionPoint::MinRate=1Gbps is not allowed: DCQCN is off|advcam-camera --dcqcn=0 --ns3::DcqcnReactionPoint::MinRate=1Gbps
--headroom=100000 is not allowed: PFC is off (--pfc=0)|advcam-incast --pfc=0 --headroom=100000
--ns3::FeroceSwitch::XoffBytes=50000 is not allowed: PfcMode is dynamic|advcam-incast --ns3::FeroceSwitch::XoffBytes=50000
--ns3::FeroceSwitch::PfcAlpha=0.5 is not allowed: PfcMode is static|advcam-camera --ns3::FeroceSwitch::PfcMode=static --ns3::FeroceSwitch::PfcAlpha=0.5
--kmin=10000 is not allowed: ECN marking is off (--ecn=0)|advcam-incast --ecn=0 --kmin=10000
--triggerInterval=1ms is not allowed: the boards saturate (--mode=saturate)|advcam-incast --triggerInterval=1ms
--ns3::RoceFrontEndApp::Poisson=true is not allowed: the boards saturate|advcam-mtu --ns3::RoceFrontEndApp::Poisson=true
--leave=0 is not allowed: expected no --leave with --schedule|advcam-incast --leave=0 --schedule=0ms:1ms,0ms:1ms,0ms:1ms
--ns3::FeroceSwitch::Kmin=1 is not allowed: without --viaSwitch this program builds no switch|advcam-window --ns3::FeroceSwitch::Kmin=1
--kmin=7000 is not allowed: without --viaSwitch this program builds no switch|advcam-window --kmin=7000
--pfcHonour=0 is not allowed: without --viaSwitch this program builds no switch|advcam-window --pfcHonour=0
Kmin = 7000 is not allowed: expected <= Kmax = 6000|advcam-window --viaSwitch --kmin=7000 --kmax=6000
--ns3::RateErrorModel::IsEnabled=false is not allowed: without --loss|advcam-incast --ns3::RateErrorModel::IsEnabled=false
--ns3::FeroceHeapScheduler::NearHorizon=1ms is not allowed: the scheduler is ns3::MapScheduler|advcam-incast --SchedulerType=ns3::MapScheduler --ns3::FeroceHeapScheduler::NearHorizon=1ms
--mtu=0 is not allowed: expected 1..9000|dcqcn-rate-limiter --mtu=0
--ns3::FeroceSwitch::Kmin=1 is not allowed: this program builds no ns3::FeroceSwitch|dcqcn-rate-limiter --ns3::FeroceSwitch::Kmin=1
--schedule=0ms:1ms,0ms:2ms,3ms:1ms is not allowed: expected start:stop|advcam-incast --schedule=0ms:1ms,0ms:2ms,3ms:1ms
--depths= is not allowed: expected at least one item|advcam-window --depths=
--boards=1e3x is not allowed|advcam-camera --boards=1e3x
--boards=0x7d1 is not allowed: expected 1..2000|advcam-camera --boards=0x7d1
rate_lsb_bps = "0x1p3" is not allowed: expected a finite number|feroce-rp-trace --fixed --rate-lsb-bps 0x1p3 WORK/rp.txt
--sample = "1.5" is not allowed: expected an integer in [1, 4611686018427387903] (ns)|feroce-rp-trace --sample 1.5 WORK/rp.txt
clock_hz = "1e9x" is not allowed|feroce-rp-trace --fixed --clock-hz 1e9x WORK/rp.txt
--sample = "6" is not allowed: --sample is given twice|feroce-rp-trace --sample 5 --sample 6 WORK/rp.txt
--clock-hz = "2000000" is not allowed: --clock-hz is given twice|feroce-rp-trace --fixed --clock-hz 1000000 --clock-hz 2000000 WORK/rp.txt
--kmin=2000 is not allowed: expected one value (--kmin=1000 is given too)|advcam-incast --kmin=1000 --kmin=2000
--ns3::FeroceSwitch::Kmin=2000 is not allowed: expected one value (--ns3::FeroceSwitch::Kmin=1000|advcam-camera --ns3::FeroceSwitch::Kmin=1000 --ns3::FeroceSwitch::Kmin=2000
--ns3::FeroceNetDevice::DataRate=2Gbps is not allowed: expected one value|advcam-mtu --ns3::RoceNic::DataRate=1Gbps --ns3::FeroceNetDevice::DataRate=2Gbps
--RngRun=2 is not allowed: expected one value|dcqcn-rate-limiter --RngRun=1 --RngRun=2
the Soft-RoCE receiver (--softPacketCost, --softByteRate, --softBuffer): RxBufferSize = 0|advcam-receiver --softBuffer=0
--ChecksumEnabled=1 is not allowed: |advcam-incast --ChecksumEnabled=1
--SchedulerType=ns3::MapScheduler is not allowed: this program runs no simulation|fixed-point-widths --SchedulerType=ns3::MapScheduler --outdir=WORK/fpw
--failAt=20ms is not allowed: expected a time in [0, duration = 10ms)|advcam-eventbuilding --boards=8 --failReceiver=1 --failAt=20ms
--returnAt=2ms is not allowed: expected a time after --failAt = 3000us|advcam-eventbuilding --boards=8 --failReceiver=1 --failAt=3ms --returnAt=2ms
--eventSlots=0 is not allowed: expected 1..1000000|advcam-eventbuilding --boards=8 --assignment=availability --eventSlots=0
--assignment=random is not allowed: expected static, availability or board-rule|advcam-eventbuilding --boards=8 --assignment=random
--failReceiver=4 is not allowed: expected -1 (none) or a receiver 0..3|advcam-eventbuilding --boards=8 --failReceiver=4
--slowReceiver=7 is not allowed|advcam-eventbuilding --boards=8 --slowReceiver=7
--pauseHonour=802.3x is not allowed with --pfcHonour=1: they contradict each other|advcam-eventbuilding --boards=8 --pauseHonour=802.3x --pfcHonour=1
PauseHonour = both is not allowed with PfcHonour = false|advcam-incast --pfcHonour=0 --ns3::RoceNic::PauseHonour=both
--pauseHonour=pause is not allowed: expected pfc, 802.3x, both or none|advcam-eventbuilding --boards=8 --pauseHonour=pause
--eventSlots is not allowed with --assignment=static|advcam-eventbuilding --boards=8 --eventSlots=8
--announceLead=0 is not allowed: expected 1..32767|advcam-eventbuilding --boards=8 --assignment=board-rule --announceLead=0
--announceLead is not allowed with --assignment=availability: expected --assignment=board-rule|advcam-eventbuilding --boards=8 --assignment=availability --announceLead=8
--creditExpiry is not allowed with --assignment=static: expected --assignment=board-rule|advcam-eventbuilding --boards=8 --creditExpiry=8
--receiverTimeout is not allowed with --assignment=board-rule: expected --assignment=availability|advcam-eventbuilding --boards=8 --assignment=board-rule --receiverTimeout=1ms
--block is not allowed with --assignment=board-rule: expected --assignment=availability|advcam-eventbuilding --boards=8 --assignment=board-rule --block=2
--eventSlots=40000 is not allowed with --assignment=board-rule: expected 1..32767|advcam-eventbuilding --boards=8 --assignment=board-rule --eventSlots=40000
--creditBatch=5 is not allowed: expected 1..eventSlots = 4|advcam-eventbuilding --boards=8 --assignment=board-rule --creditBatch=5
--mttr=0 is not allowed: expected a time > 0 with --mtbf|advcam-eventbuilding --boards=8 --mtbf=5ms
--mtbf is not allowed with --failReceiver|advcam-eventbuilding --boards=8 --mtbf=5ms --mttr=1ms --failReceiver=1 --failAt=1ms
--failAt and --returnAt are not allowed without --failReceiver|advcam-eventbuilding --boards=8 --failAt=1ms
--failMode=disk is not allowed: expected host or link|advcam-eventbuilding --boards=8 --failMode=disk
--creditBatch=9 is not allowed: expected 1..eventSlots = 4|advcam-eventbuilding --boards=8 --assignment=availability --creditBatch=9
--retryCount=8 is not allowed: expected 0..7|advcam-eventbuilding --boards=8 --retryCount=8
--slowBuffer is not allowed without --slowReceiver|advcam-eventbuilding --boards=8 --slowBuffer=1000
--pauseFrames=pause is not allowed: expected pfc, 802.3x or both|advcam-eventbuilding --boards=8 --pauseFrames=pause
PauseFrames = 802.3x is not allowed with PfcEnabled = false|advcam-eventbuilding --boards=8 --pauseFrames=802.3x --pfc=0
--watchdogAction=shout is not allowed: expected drop or forward|advcam-eventbuilding --boards=8 --watchdogAction=shout
--watchdogRestore=0 is not allowed: expected > 0|advcam-eventbuilding --boards=8 --watchdog=1ms --watchdogRestore=0
--ns3::RoceFrontEndApp::Assignment=availability is not allowed: it is how the program wires its boards|advcam-camera --boards=8 --ns3::RoceFrontEndApp::Assignment=availability
PauseFrames = both is not allowed|advcam-incast --ns3::FeroceSwitch::PauseFrames=both --pfc=0
'
if [ "$(id -u)" != 0 ]; then
    # root writes into a read-only file anyway
    cases="$cases
--db=WORK/readonly.db is not allowed|advcam-incast --db=WORK/readonly.db"
fi

n=0
echo "$cases" | while IFS='|' read -r want cmd; do
    [ -n "$cmd" ] || continue
    n=$((n + 1))
    want=$(echo "$want" | sed "s|WORK|$work|g; s|LONG|$long|g")
    cmd=$(echo "$cmd" | sed "s|WORK|$work|g; s|LONG|$long|g")
    prog=${cmd%% *}
    args=${cmd#"$prog"}
    extra=""
    case "$prog" in
    advcam-*)
        case "$args" in *--outdir=*) ;; *) extra="--outdir=$work/out$n" ;; esac
        case "$args" in *--db=*) ;; *) extra="$extra --db=$db" ;; esac
        ;;
    dcqcn-rate-limiter)
        case "$args" in *--outdir=*) ;; *) extra="--outdir=$work/out$n" ;; esac
        ;;
    esac
    # shellcheck disable=SC2086 # the words of the case
    exe=$bin/$prog
    [ -x "$exe" ] || exe=$bin/../bin/$prog
    set +e
    "$exe" $args $extra </dev/null >"$work/../bad-inputs.out" 2>"$work/../bad-inputs.err"
    status=$?
    set -e
    err=$(cat "$work/../bad-inputs.err")
    what="$cmd: "
    if [ "$status" != 2 ]; then
        echo "FAIL: ${what}exit status $status, expected 2 ($err)"
    elif [ "$(wc -l <"$work/../bad-inputs.err")" != 1 ] || [ -s "$work/../bad-inputs.out" ]; then
        echo "FAIL: ${what}expected one line on stderr and nothing on stdout, got:"
        cat "$work/../bad-inputs.err" "$work/../bad-inputs.out"
    elif ! grep -qF -- "$want" "$work/../bad-inputs.err"; then
        echo "FAIL: ${what}expected '$want' in: $err"
    elif ! grep -q "^$prog: " "$work/../bad-inputs.err"; then
        echo "FAIL: ${what}the line does not begin with the program's name: $err"
    elif [ "$(rows "$db")" != 1 ]; then
        echo "FAIL: ${what}a row was added"
    elif ! ls -R "$work" | cmp -s - "$work/../bad-inputs.before"; then
        echo "FAIL: ${what}files left behind:"
        ls -R "$work" | diff "$work/../bad-inputs.before" - || true
        rm -rf "$work"/out*
    else
        echo "ok: $err"
    fi
done >"$work/../bad-inputs.log"
cat "$work/../bad-inputs.log"
pass=$((pass + $(grep -c '^ok: ' "$work/../bad-inputs.log" || true)))
fail=$((fail + $(grep -c '^FAIL: ' "$work/../bad-inputs.log" || true)))

# a sweep-like pair of points over an ns-3 attribute: honoured and recorded
for t in 1ms 20ms; do
    "$bin/advcam-incast" --duration=20ms --loss=0.05 --ns3::RoceQueuePair::AckTimeout=$t \
        --outdir="$work/ack$t" --db="$db" >/dev/null
done
if [ "$(sqlite3 "$db" "SELECT count(DISTINCT json_extract(metrics, '\$.timeouts')) FROM runs WHERE json_extract(params, '\$.\"ns3::RoceQueuePair::AckTimeout\"') IS NOT NULL")" = 2 ]; then
    ok
else
    bad "AckTimeout 1ms and 20ms gave the same timeouts"
fi
if [ "$(sqlite3 "$db" "SELECT group_concat(json_extract(params, '\$.ackTimeout'), ' ') FROM runs WHERE json_extract(params, '\$.\"ns3::RoceQueuePair::AckTimeout\"') IS NOT NULL ORDER BY id")" = "0.001 0.02" ]; then
    ok
else
    bad "the AckTimeout used is not in the rows' params"
fi
grep -q '^ns3::RoceQueuePair::AckTimeout=20ms$' "$work/ack20ms/params.txt" && ok || bad "params.txt lacks the attribute"
# the same through feroce-sweep: the attribute swept, its points differ and record it; a
# point with a bad value fails with the program's one line shown by "status"
sweep=$bin/../bin/feroce-sweep
if [ -x "$sweep" ]; then
    cat >"$work/ack.sweep" <<SWEEP
name ack
program $bin/advcam-incast
flags --duration=20ms --loss=0.05
param ns3::RoceQueuePair::AckTimeout list 1ms 20ms abc
SWEEP
    "$sweep" run "$work/ack.sweep" --dir "$work/ack" >/dev/null 2>&1 || true
    sdb=$work/ack/sweep.db
    [ "$(sqlite3 "$sdb" "SELECT count(DISTINCT json_extract(metrics, '\$.timeouts')) FROM runs")" = 2 ] && ok || bad "the sweep's two AckTimeout points gave the same timeouts"
    [ "$(sqlite3 "$sdb" "SELECT group_concat(json_extract(params, '\$.\"ns3::RoceQueuePair::AckTimeout\"'), ' ') FROM (SELECT params FROM runs ORDER BY json_extract(params, '\$.ackTimeout'))")" = "1ms 20ms" ] && ok || bad "the sweep's rows lack the attribute"
    "$sweep" status "$work/ack.sweep" --dir "$work/ack" >"$work/ack.status" 2>&1 || true
    grep -q 'advcam-incast: --ns3::RoceQueuePair::AckTimeout=abc is not allowed' "$work/ack.status" && ok || bad "status does not show the failed point's cause: $(cat "$work/ack.status")"
fi
# the preset's G is replaced by the command line's
a=$("$bin/advcam-incast" --duration=5ms --db=none --outdir="$work/g0" | grep '^advcam-incast: cnps=')
b=$("$bin/advcam-incast" --duration=5ms --db=none --outdir="$work/g1" --ns3::DcqcnReactionPoint::G=0.5 | grep '^advcam-incast: cnps=')
c=$("$bin/advcam-incast" --duration=5ms --db=none --outdir="$work/g2" --g=0.5 | grep '^advcam-incast: cnps=')
[ "$a" != "$b" ] && [ "$b" = "$c" ] && ok || bad "--ns3::DcqcnReactionPoint::G=0.5 ($b) is not --g=0.5 ($c) or the default ($a)"

finish
