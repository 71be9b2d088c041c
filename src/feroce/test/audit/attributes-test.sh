#!/bin/sh
# Every attribute of every feroce type (and the globals), given on the command line of every
# study program with the attribute audit preloaded: each run either honours the value (exit 0:
# every object of the type the program created holds it, before and after the run) or refuses
# it by name before anything runs (exit 2, one line naming the attribute).  A value the program
# silently overwrote fails the audit (exit 3); anything else is a crash.
#   attributes-test.sh EXAMPLES_DIR AUDIT_LIBRARY WORK_DIR
set -eu
. "$(dirname "$0")/../lib.sh"
bin=$1
audit=$2
work=$3
rm -rf "$work"
mkdir -p "$work"

# a value for each attribute that differs from its default and is valid on its own
attributes='
ns3::FeroceHeapScheduler::NearHorizon=200us
ns3::DcqcnReactionPoint::LineRate=100Mbps
ns3::DcqcnReactionPoint::MinRate=20Mbps
ns3::DcqcnReactionPoint::G=0.5
ns3::DcqcnReactionPoint::InitialAlpha=0.5
ns3::DcqcnReactionPoint::AlphaMode=periodic
ns3::DcqcnReactionPoint::AlphaPeriod=100us
ns3::DcqcnReactionPoint::DecreasePeriod=50us
ns3::DcqcnReactionPoint::IncreaseTimer=100us
ns3::DcqcnReactionPoint::ByteCounter=1000000
ns3::DcqcnReactionPoint::FastRecoveryStages=3
ns3::DcqcnReactionPoint::RateAi=20Mbps
ns3::DcqcnReactionPoint::RateHai=100Mbps
ns3::DcqcnReactionPoint::HaiMode=constant
ns3::DcqcnReactionPoint::Clamp=after_increase
ns3::DcqcnReactionPoint::FirstCnpRate=1Gbps
ns3::DcqcnReactionPoint::FixedPointFormat=surf
ns3::FeroceChannel::Delay=2us
ns3::FeroceNetDevice::DataRate=25Gbps
ns3::FeroceNetDevice::Mtu=9000
ns3::FeroceNetDevice::Mtu=1000
ns3::FeroceNetDevice::ReceiveErrorModel=0
ns3::RoceQueuePair::Pmtu=2048
ns3::RoceQueuePair::SendQueueDepth=128
ns3::RoceQueuePair::MaxUnackedBytes=1000000
ns3::RoceQueuePair::AckReqInterval=4
ns3::RoceQueuePair::AckInterval=2
ns3::RoceQueuePair::AckReqMessages=2
ns3::RoceQueuePair::CompletionLatency=1us
ns3::RoceQueuePair::AckTimeout=2ms
ns3::RoceQueuePair::AckTimeoutJitter=1us
ns3::RoceQueuePair::RetryCount=5
ns3::RoceQueuePair::RnrRetry=5
ns3::RoceQueuePair::RnrTimerCode=2
ns3::RoceQueuePair::Priority=4
ns3::RoceQueuePair::Dscp=30
ns3::RoceQueuePair::InitialPsn=100
ns3::RoceNic::Ipv4Address=10.1.0.1
ns3::RoceNic::DcqcnEnabled=false
ns3::RoceNic::DcqcnPreset=hpcc
ns3::RoceNic::FixedPointFormat=surf
ns3::RoceNic::ReactionPoint=0
ns3::RoceNic::CnpInterval=10us
ns3::RoceNic::CnpScope=per_port
ns3::RoceNic::CnpPriority=6
ns3::RoceNic::CnpDscp=40
ns3::RoceNic::PfcHonour=false
ns3::RoceNic::ReceiverModel=software
ns3::RoceNic::RxProcessingRate=5Gbps
ns3::RoceNic::RxPacketCost=1us
ns3::RoceNic::RxBufferSize=100000
ns3::RoceNic::RxPfc=true
ns3::RoceNic::RxXoffBytes=50000
ns3::RoceNic::RxXonBytes=20000
ns3::RoceNic::RxPauseQuanta=1000
ns3::RoceNic::QueuePairs=0
ns3::RoceNic::QpnReuseDelay=2ms
ns3::RoceNic::PauseHonour=802.3x
ns3::RoceNic::RxPauseFrames=802.3x
ns3::RoceFrontEndApp::Assignment=availability
ns3::RoceFrontEndApp::LostMarkers=true
ns3::RoceReceiverApp::EventTimeout=2ms
ns3::RoceReceiverApp::EventSlots=2
ns3::RoceReceiverApp::CreditBatch=2
ns3::RoceReceiverApp::CreditInterval=200us
ns3::FeroceSwitch::PauseFrames=802.3x
ns3::FeroceSwitch::WatchdogDetect=1ms
ns3::FeroceSwitch::WatchdogRestore=100ms
ns3::FeroceSwitch::WatchdogAction=forward
ns3::RoceFrontEndApp::MessageSize=65536
ns3::RoceFrontEndApp::Mode=trigger
ns3::RoceFrontEndApp::TriggerInterval=20us
ns3::RoceFrontEndApp::Poisson=true
ns3::RoceFrontEndApp::BufferSize=1000000
ns3::RoceFrontEndApp::MaxOutstanding=8
ns3::RoceFrontEndApp::Write=false
ns3::RoceFrontEndApp::WithImmediate=true
ns3::RoceReceiverApp::ReceiveBuffers=32
ns3::RoceReceiverApp::PostRate=100000
ns3::FeroceSwitch::BufferSize=6000000
ns3::FeroceSwitch::ReservePerQueue=1000
ns3::FeroceSwitch::Headroom=200000
ns3::FeroceSwitch::HeadroomCheck=false
ns3::FeroceSwitch::LosslessPriorities=3,4
ns3::FeroceSwitch::PfcEnabled=false
ns3::FeroceSwitch::PfcMode=static
ns3::FeroceSwitch::PfcAlpha=0.25
ns3::FeroceSwitch::XoffBytes=200000
ns3::FeroceSwitch::XonBytes=100000
ns3::FeroceSwitch::XonOffset=8192
ns3::FeroceSwitch::PauseQuanta=1000
ns3::FeroceSwitch::EcnEnabled=false
ns3::FeroceSwitch::Kmin=10000
ns3::FeroceSwitch::Kmax=100000
ns3::FeroceSwitch::Pmax=0.1
ns3::FeroceSwitch::MarkPoint=enqueue
ns3::FeroceSwitch::UsePcp=true
ns3::FeroceSwitch::DscpMap=26:3
ns3::FeroceSwitch::QueueWeights=2,1,1,1,1,1,1,1
ns3::FeroceSwitch::WrrQuantum=1500
ns3::FeroceSwitch::EcnPerQueue=3:20000:80000:0.1
ns3::FeroceSwitch::EcnByRate=10Gbps:10000:100000:0.1,25Gbps:10000:100000:0.1,100Gbps:40000:400000:0.1
ns3::FeroceSwitch::HeadroomPerPort=true
ns3::FeroceSwitch::HeadroomByRate=10Gbps:100000,25Gbps:100000,100Gbps:400000
ns3::FeroceSwitch::EcmpSeed=7
ns3::RateErrorModel::ErrorRate=0.1
ns3::TcpSocket::SegmentSize=1000
RngRun=2
RngSeed=7
SchedulerType=ns3::MapScheduler
SimulatorImplementationType=ns3::DefaultSimulatorImpl
ChecksumEnabled=true
'
short='--duration=1ms --window=500us --warmup=0 --db=none'
programs="
advcam-incast $short
advcam-camera --boards=8 --boardsPerLeaf=4 --receivers=2 $short
advcam-eventbuilding --boards=8 --boardsPerLeaf=4 --receivers=2 --assignment=availability $short
advcam-mtu --pmtus=1024,4096 $short
advcam-receiver --pmtus=4096 $short
advcam-sawtooth $short
advcam-window --depths=1,4 --messageSizes=4096 --delays=1us $short
fluid-vs-packet $short
dcqcn-rate-limiter --duration=1ms
feroce-fabric --topology=$work/fabric.topo --flows=$work/fabric.flows $short
"
# feroce-fabric's fabric: two hosts on a switch, a flow each way
printf 'feroce-topology 1\nnode h0 host\nnode h1 host\nnode s0 switch\nlink h0 s0 10Gbps 1us\nlink h1 s0 10Gbps 1us\n' \
    >"$work/fabric.topo"
printf 'feroce-flows 1\nh0 h1 100000 0ns\nh1 h0 5000 10us\n' >"$work/fabric.flows"
n=0
echo "$programs" | while read -r prog args; do
    [ -n "$prog" ] || continue
    echo "$attributes" | while read -r a; do
        [ -n "$a" ] || continue
        n=$((n + 1))
        echo "$prog|$a|$args --outdir=$work/$prog-$n"
    done
done >"$work/runs"

# two at a time (attributes-run.sh runs one line)
export bin audit work
xargs -P 2 -n 1 -d '\n' sh "$(dirname "$0")/attributes-run.sh" <"$work/runs" >"$work/log"
grep '^FAIL' "$work/log" || true
pass=$(grep -c '^ok: ' "$work/log" || true)
fail=$(grep -c '^FAIL: ' "$work/log" || true)
echo "$(grep -c 'honoured$' "$work/log" || true) honoured, $(grep -c ' refused: ' "$work/log" || true) refused"
finish
