/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-queue-pair.h"

#include "feroce-simulator-impl.h"
#include "roce-nic.h"

#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RoceQueuePair);

namespace
{

/*
 * RNR NAK timer codes in units of 10 us (InfiniBand Architecture Specification
 * vol. 1, "Encoding for RNR NAK Timer Field"; the same table as min_rnr_timer
 * in ibv_modify_qp(3)).  Code 0 is the longest, 655.36 ms.
 */
const uint32_t kRnrTimer10us[32] = {65536, 1,    2,    3,     4,     6,     8,     12,
                                    16,    24,   32,   48,    64,    96,    128,   192,
                                    256,   384,  512,  768,   1024,  1536,  2048,  3072,
                                    4096,  6144, 8192, 12288, 16384, 24576, 32768, 49152};

} // namespace

const char*
RoceCompletionStatusName(RoceCompletionStatus s)
{
    switch (s)
    {
    case ROCE_WC_SUCCESS:
        return "success";
    case ROCE_WC_RETRY_EXCEEDED:
        return "retry exceeded";
    case ROCE_WC_RNR_RETRY_EXCEEDED:
        return "RNR retry exceeded";
    case ROCE_WC_REMOTE_ERROR:
        return "remote error";
    case ROCE_WC_FLUSHED:
        return "flushed";
    }
    return "unknown";
}

TypeId
RoceQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceQueuePair")
            .SetParent<Object>()
            .SetGroupName("Feroce")
            .AddConstructor<RoceQueuePair>()
            .AddAttribute("Pmtu",
                          "Path MTU: payload bytes per packet (256, 512, 1024, 2048 or 4096)",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RoceQueuePair::m_pmtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("SendQueueDepth",
                          "Most outstanding send work requests (max_qp_wr)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RoceQueuePair::m_sendQueueDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxUnackedBytes",
                          "Most payload bytes in flight (counted as packets x PMTU); 0: no limit",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceQueuePair::m_maxUnackedBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AckReqInterval",
                          "Set AckReq every this many packets of a message (and on its last); 0: "
                          "only on the last",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceQueuePair::m_ackReqInterval),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckInterval",
                          "Responder: acknowledge every this many packets (and on AckReq)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "AckReqMessages",
                "Set AckReq on the last packet of every this many messages (a firmware "
                "that signals one work request in N), and on the last message of a full "
                "send queue; 0: only there (one ACK per window); 1: every message.  Above "
                "1, a send queue left unsignaled and not full waits for AckTimeout",
                UintegerValue(1),
                MakeUintegerAccessor(&RoceQueuePair::m_ackReqMessages),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("CompletionLatency",
                          "From the ACK that covers a work request to its completion (the "
                          "engine's completion processing); the request holds its send-queue "
                          "slot until then",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RoceQueuePair::m_completionLatency),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("AckTimeout",
                          "Retransmit from the oldest unacknowledged PSN after this long without "
                          "progress",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RoceQueuePair::m_ackTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AckTimeoutJitter",
                          "A timeout fires AckTimeout plus a uniform draw in [0, this) after the "
                          "last progress (a NIC that checks its timers on a periodic tick); 0: "
                          "exactly at AckTimeout",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RoceQueuePair::m_ackTimeoutJitter),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RetryCount",
                          "Timeouts and sequence-error NAKs without progress before the QP fails "
                          "(retry_cnt, 0..7)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceQueuePair::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RnrRetry",
                          "RNR NAKs without progress before the QP fails; 7 = retry for ever "
                          "(rnr_retry)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceQueuePair::m_rnrRetry),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RnrTimerCode",
                          "Responder: RNR NAK timer code (min_rnr_timer, 0..31; 1 = 10 us, 14 = "
                          "1.28 ms, 0 = 655.36 ms)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceQueuePair::m_rnrTimerCode),
                          MakeUintegerChecker<uint8_t>(0, 31))
            .AddAttribute("Priority",
                          "Priority (802.1p class, 0..7) of data, ACKs and NAKs",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RoceQueuePair::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("Dscp",
                          "IPv4 DSCP of data, ACKs and NAKs",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RoceQueuePair::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("InitialPsn",
                          "First PSN the requester sends (24 bits)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceQueuePair::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, FEROCE_PSN_MASK))
            .AddTraceSource("Completion",
                            "A work request completed, with its latency from posting",
                            MakeTracesAccessor(&Traces::completion),
                            "ns3::RoceQueuePair::CompletionTracedCallback")
            .AddTraceSource("Rate",
                            "DCQCN current rate Rc (bit/s) when it changes",
                            MakeTracesAccessor(&Traces::rate),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("TargetRate",
                            "DCQCN target rate Rt (bit/s) when it changes",
                            MakeTracesAccessor(&Traces::targetRate),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("Alpha",
                            "DCQCN alpha when it changes",
                            MakeTracesAccessor(&Traces::alpha),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("Error",
                            "The QP entered the error state",
                            MakeTracesAccessor(&Traces::error),
                            "ns3::RoceQueuePair::ErrorTracedCallback")
            .AddTraceSource("Retransmit",
                            "A data packet was sent again (its PSN)",
                            MakeTracesAccessor(&Traces::retransmit),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Timeout",
                            "The retransmission timer expired (the oldest unacknowledged PSN)",
                            MakeTracesAccessor(&Traces::timeout),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Nak",
                            "A NAK or RNR NAK arrived (its PSN)",
                            MakeTracesAccessor(&Traces::nak),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CnpSent",
                            "The notification point sent a CNP",
                            MakeTracesAccessor(&Traces::cnpSent),
                            "ns3::TracedCallback::Void")
            .AddTraceSource("CnpReceived",
                            "A CNP for this QP arrived",
                            MakeTracesAccessor(&Traces::cnpReceived),
                            "ns3::TracedCallback::Void");
    return tid;
}

RoceQueuePair::RoceQueuePair()
    : m_priority(3),
      m_pmtu(1024),
      m_sendQueueDepth(256),
      m_ackReqInterval(0),
      m_ackReqMessages(1),
      m_maxUnackedBytes(0),
      m_completionLatency(Time(0)),
      m_rnrTimerCode(1),
      m_ackInterval(1),
      m_initialPsn(0),
      m_retryCount(7),
      m_rnrRetry(7),
      m_dscp(26)
{
    NS_LOG_FUNCTION(this);
    feroce_np_init(&m_npState);
    TakeAutomaticStream();
}

RoceQueuePair::RoceQueuePair(const RoceQueuePair& o, bool takeStream)
    : Object(o), // the TypeId; no aggregates
      m_priority(o.m_priority),
      m_pmtu(o.m_pmtu),
      m_sendQueueDepth(o.m_sendQueueDepth),
      m_ackReqInterval(o.m_ackReqInterval),
      m_ackReqMessages(o.m_ackReqMessages),
      m_maxUnackedBytes(o.m_maxUnackedBytes),
      m_ackTimeout(o.m_ackTimeout),
      m_completionLatency(o.m_completionLatency),
      m_rnrTimerCode(o.m_rnrTimerCode),
      m_ackInterval(o.m_ackInterval),
      m_initialPsn(o.m_initialPsn),
      m_retryCount(o.m_retryCount),
      m_rnrRetry(o.m_rnrRetry),
      m_dscp(o.m_dscp),
      m_ackTimeoutJitter(o.m_ackTimeoutJitter)
{
    NS_LOG_FUNCTION(this << &o << takeStream);
    feroce_np_init(&m_npState);
    if (takeStream)
    {
        TakeAutomaticStream();
    }
}

void*
RoceQueuePair::operator new(std::size_t size)
{
    return FeroceArena::Allocate(size);
}

void
RoceQueuePair::operator delete(void* p, std::size_t size)
{
    FeroceArena::Free(p, size);
}

RoceQueuePair::Traces&
RoceQueuePair::GetTraces()
{
    if (!m_traces)
    {
        m_traces.reset(new Traces);
        m_traced = true;
        // what the DCQCN traces report as the old value next: the state's values now (every
        // change of the state is followed by ReportRates, so these are the last it saw)
        m_traces->reportedRc = m_rl.Rc();
        m_traces->reportedRt = m_rl.Rt();
        m_traces->reportedAlpha = m_rl.Alpha();
    }
    return *m_traces;
}

template <typename SOURCE>
Ptr<const TraceSourceAccessor>
RoceQueuePair::MakeTracesAccessor(SOURCE Traces::*member)
{
    // MakeTraceSourceAccessor's accessor, through GetTraces()
    struct Accessor : public TraceSourceAccessor
    {
        bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            (qp->GetTraces().*m_member).ConnectWithoutContext(cb);
            return true;
        }

        bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            (qp->GetTraces().*m_member).Connect(cb, context);
            return true;
        }

        bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            if (qp->m_traces)
            {
                (qp->m_traces.get()->*m_member).DisconnectWithoutContext(cb);
            }
            return true;
        }

        bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            if (qp->m_traces)
            {
                (qp->m_traces.get()->*m_member).Disconnect(cb, context);
            }
            return true;
        }

        SOURCE Traces::*m_member;
    };

    Ptr<Accessor> accessor = Create<Accessor>();
    accessor->m_member = member;
    return accessor;
}

Ptr<RoceQueuePair>
RoceQueuePair::Clone(bool takeStream) const
{
    return Ptr<RoceQueuePair>(new RoceQueuePair(*this, takeStream), false);
}

void
RoceQueuePair::TakeAutomaticStream()
{
    // what UniformRandomVariable's SetStream(-1) does, without building the generator
    m_jitterStream = RngSeedManager::GetNextStreamIndex();
    m_jitterSeed = RngSeedManager::GetSeed();
    m_jitterRun = RngSeedManager::GetRun();
    m_jitterRng.reset();
}

double
RoceQueuePair::DrawJitterNs()
{
    if (!m_jitterRng)
    {
        m_jitterRng.reset(new RngStream(m_jitterSeed, m_jitterStream, m_jitterRun));
    }
    // UniformRandomVariable::GetValue(0, max), not antithetic
    double max = double(m_ackTimeoutJitter.GetNanoSeconds());
    return 0.0 + m_jitterRng->RandU01() * (max - 0.0);
}

RoceQueuePair::~RoceQueuePair()
{
    NS_LOG_FUNCTION(this);
}

std::string
RoceQueuePair::CheckPmtu(uint32_t pmtu)
{
    if (pmtu == 256 || pmtu == 512 || pmtu == 1024 || pmtu == 2048 || pmtu == 4096)
    {
        return "";
    }
    return "Pmtu = " + std::to_string(pmtu) +
           " is not allowed: expected 256, 512, 1024, 2048 or 4096";
}

int64_t
RoceQueuePair::AssignStreams(int64_t stream)
{
    // what UniformRandomVariable's SetStream(stream) does: -1 takes the next automatic stream,
    // the last 2^63 streams are the assigned ones; the generator starts afresh
    NS_ASSERT(stream >= -1);
    if (stream == -1)
    {
        TakeAutomaticStream();
        return 1;
    }
    m_jitterStream = (uint64_t(1) << 63) + uint64_t(stream);
    m_jitterSeed = RngSeedManager::GetSeed();
    m_jitterRun = RngSeedManager::GetRun();
    m_jitterRng.reset();
    return 1;
}

void
RoceQueuePair::Setup(RoceNic* nic,
                     uint32_t qpn,
                     const feroce_rp_params* rp,
                     const feroce_rp_fixed_params* rpFixed,
                     const feroce_np_params* np)
{
    m_nic = nic;
    m_qpn = qpn;
    m_np = np;
    nic->GetMacAddress().CopyTo(m_conn.srcMac);
    m_conn.srcIp = nic->GetIpv4Address().Get();
    m_conn.dscp = m_dscp;
    m_conn.pcp = m_priority;
    m_conn.sport = uint16_t(0xc000 | (qpn & 0x3fff)); // the flow's entropy, as Linux picks it
    m_nextPsn = m_sentEnd = m_unackedPsn = m_postPsn = m_initialPsn;
    m_rnrUntil = Time(0);
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    m_rl.Init(rp, rpFixed, now);
    m_nextSendNs = double(now);
    if (m_traces)
    {
        m_traces->reportedRc = m_rl.Rc();
        m_traces->reportedRt = m_rl.Rt();
        m_traces->reportedAlpha = m_rl.Alpha();
    }
}

namespace
{

/// RoceHeader(FEROCE_OP_SEND_ONLY)'s fields, with ECT(0): what every frame of a queue pair
/// starts from
feroce_roce
MakeHeaderDefaults()
{
    feroce_roce f = RoceHeader(FEROCE_OP_SEND_ONLY).Fields();
    f.ip.ecn = FEROCE_ECN_ECT0;
    return f;
}

const feroce_roce g_headerDefaults = MakeHeaderDefaults();

} // namespace

feroce_roce
RoceQueuePair::Header() const
{
    feroce_roce f = g_headerDefaults;
    std::memcpy(f.eth.src, m_conn.srcMac, sizeof f.eth.src);
    std::memcpy(f.eth.dst, m_conn.dstMac, sizeof f.eth.dst);
    f.eth.pcp = m_conn.pcp;
    f.ip.src = m_conn.srcIp;
    f.ip.dst = m_conn.dstIp;
    f.ip.dscp = m_conn.dscp;
    f.udp.sport = m_conn.sport;
    f.bth.destqp = m_conn.destQp;
    return f;
}

void
RoceQueuePair::Connect(Mac48Address remoteMac,
                       Ipv4Address remoteIp,
                       uint32_t remoteQpn,
                       uint32_t remoteInitialPsn)
{
    NS_LOG_FUNCTION(this << remoteMac << remoteIp << remoteQpn << remoteInitialPsn);
    remoteMac.CopyTo(m_conn.dstMac);
    m_conn.dstIp = remoteIp.Get();
    m_conn.destQp = remoteQpn & FEROCE_PSN_MASK;
    m_remoteQpn = remoteQpn;
    m_ePsn = remoteInitialPsn & FEROCE_PSN_MASK;
    m_state = RTS;
}

bool
RoceQueuePair::PostSend(const RoceWorkRequest& wr)
{
    if (m_state != RTS || m_sq.size() + m_retiring.size() >= m_sendQueueDepth ||
        wr.length > (1ULL << 31))
    {
        return false;
    }
    SendEntry e;
    e.wr = wr;
    e.posted = FeroceSim::Now();
    e.firstPsn = m_postPsn;
    e.npkts = wr.length == 0 ? 1 : uint32_t((wr.length + m_pmtu - 1) / m_pmtu);
    e.seq = m_postSeq++;
    m_postPsn = feroce_psn_add(m_postPsn, e.npkts);
    m_sq.push_back(e);
    m_nic->NotifySendable(m_qpn);
    if (!m_nic->m_holdTrySend)
    {
        m_nic->TrySend();
    }
    return true;
}

void
RoceQueuePair::PostReceive(uint64_t id)
{
    m_rq.push_back(id);
}

void
RoceQueuePair::SetCompletionCallback(CompletionCallback cb)
{
    m_completionCb = cb;
}

void
RoceQueuePair::SetReceiveCallback(ReceiveCallback cb)
{
    m_receiveCb = cb;
}

uint32_t
RoceQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RoceQueuePair::GetInitialPsn() const
{
    return m_initialPsn;
}

uint32_t
RoceQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

RoceQueuePair::State
RoceQueuePair::GetState() const
{
    return m_state;
}

uint8_t
RoceQueuePair::GetPriority() const
{
    return m_priority;
}

uint32_t
RoceQueuePair::GetPmtu() const
{
    return m_pmtu;
}

uint32_t
RoceQueuePair::GetSendQueueLength() const
{
    return uint32_t(m_sq.size() + m_retiring.size());
}

uint32_t
RoceQueuePair::GetReceiveQueueLength() const
{
    return uint32_t(m_rq.size());
}

const RoceQueuePair::Counters&
RoceQueuePair::GetCounters() const
{
    return m_counters;
}

double
RoceQueuePair::GetRateBps()
{
    if (!m_nic->IsDcqcnEnabled())
    {
        return double(m_nic->GetDataRate().GetBitRate());
    }
    m_rl.Advance(FeroceSim::Now().GetNanoSeconds());
    ReportRates();
    return m_rl.Rc();
}

double
RoceQueuePair::GetTargetRateBps()
{
    GetRateBps();
    return m_nic->IsDcqcnEnabled() ? m_rl.Rt() : double(m_nic->GetDataRate().GetBitRate());
}

double
RoceQueuePair::GetAlpha()
{
    GetRateBps();
    return m_rl.Alpha();
}

const feroce_rp_fixed_regs*
RoceQueuePair::GetFixedRegisters()
{
    GetRateBps();
    return m_rl.GetFixedRegisters();
}

void
RoceQueuePair::ReportRates()
{
    if (!m_traced)
    {
        return; // nobody connected: GetTraces() takes the values when someone does
    }
    Traces& t = *m_traces;
    double rc = m_rl.Rc();
    double rt = m_rl.Rt();
    double alpha = m_rl.Alpha();
    if (rc != t.reportedRc)
    {
        t.rate(t.reportedRc, rc);
        t.reportedRc = rc;
    }
    if (rt != t.reportedRt)
    {
        t.targetRate(t.reportedRt, rt);
        t.reportedRt = rt;
    }
    if (alpha != t.reportedAlpha)
    {
        t.alpha(t.reportedAlpha, alpha);
        t.reportedAlpha = alpha;
    }
}

Time
RoceQueuePair::NextSendTime(Time now) const
{
    if (m_state != RTS || m_sendIdx >= m_sq.size())
    {
        return Time::Max();
    }
    int32_t inFlight = feroce_psn_diff(m_nextPsn, m_unackedPsn);
    if (inFlight >= 0x7fffff ||
        (m_maxUnackedBytes && uint64_t(inFlight) * m_pmtu >= m_maxUnackedBytes))
    {
        return Time::Max(); // the window is full: an ACK reopens it
    }
    Time t = m_rnrUntil > now ? m_rnrUntil : now;
    // pacing, rounded down to the nanosecond grid of the wire
    Time paced = NanoSeconds(int64_t(std::floor(m_nextSendNs + 1e-6)));
    return paced > t ? paced : t;
}

Ptr<FeroceFrame>
RoceQueuePair::BuildDataPacket()
{
    NS_ASSERT(m_sendIdx < m_sq.size());
    const SendEntry& e = m_sq[m_sendIdx];
    uint64_t offset = uint64_t(m_sendPkt) * m_pmtu;
    uint32_t payload =
        uint32_t(std::min<uint64_t>(m_pmtu, e.wr.length - std::min(offset, e.wr.length)));
    bool first = m_sendPkt == 0;
    bool last = m_sendPkt + 1 == e.npkts;

    feroce_roce f = Header();
    f.bth.opcode = feroce_opcode_for(e.wr.write, first, last, e.wr.withImm);
    f.bth.psn = m_nextPsn;
    // AckReq: a message's last packet (every AckReqMessages-th message's, and the last one of a
    // full send queue's, so that a full window never waits for an ACK nobody asked for), and
    // every AckReqInterval packets
    bool full = m_sendIdx + 1 >= m_sq.size() && m_sq.size() + m_retiring.size() >= m_sendQueueDepth;
    bool signaled = m_ackReqMessages == 1 || full ||
                    (m_ackReqMessages > 1 && (e.seq + 1) % m_ackReqMessages == 0);
    f.bth.ackreq =
        (last && signaled) || (m_ackReqInterval && (m_sendPkt + 1) % m_ackReqInterval == 0);
    unsigned flags = feroce_opcode_flags(f.bth.opcode);
    if (flags & FEROCE_OPF_RETH)
    {
        f.reth.va = e.wr.remoteAddr;
        f.reth.rkey = e.wr.rkey;
        f.reth.dmalen = uint32_t(e.wr.length);
    }
    if (flags & FEROCE_OPF_IMMDT)
    {
        f.immdt = e.wr.imm;
    }
    f.payload_len = payload;
    Ptr<FeroceFrame> p = FeroceFrame::MakeRoce(f);

    bool hadUnacked = HasUnacked();
    m_counters.dataPacketsSent++;
    m_counters.payloadBytesSent += payload;
    if (feroce_psn_diff(m_nextPsn, m_sentEnd) < 0)
    {
        m_counters.retransmittedPackets++;
        if (m_traced)
        {
            m_traces->retransmit(m_nextPsn);
        }
    }
    m_nextPsn = feroce_psn_add(m_nextPsn, 1);
    if (feroce_psn_diff(m_nextPsn, m_sentEnd) > 0)
    {
        m_sentEnd = m_nextPsn;
    }
    if (++m_sendPkt == e.npkts)
    {
        m_sendIdx++;
        m_sendPkt = 0;
    }

    // rate limiter: the next packet may start one wire time at Rc later
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    m_lastStartNs = double(now);
    m_lastWireBits = FeroceNetDevice::WireBytes(p->GetSize()) * 8;
    if (m_nic->IsDcqcnEnabled())
    {
        m_rl.Tx(now, p->GetSize());
        m_nextSendNs = m_lastStartNs + m_lastWireBits * 1e9 / m_rl.Rc();
        ReportRates();
    }
    else
    {
        m_nextSendNs = m_lastStartNs;
    }
    if (!hadUnacked)
    {
        ArmRetransmitTimer();
    }
    return p;
}

bool
RoceQueuePair::HasUnacked() const
{
    return m_unackedPsn != m_sentEnd;
}

void
RoceQueuePair::ArmRetransmitTimer()
{
    // one event per QP; later progress only moves the deadline
    m_retransmitDeadline = FeroceSim::Now() + m_ackTimeout;
    m_jitterDrawn = false;
    // (what m_retransmitEvent.IsExpired() says, without touching the event)
    if (!m_retransmitPending)
    {
        m_retransmitEvent =
            Simulator::Schedule(m_ackTimeout, &RoceQueuePair::RetransmitTimeout, this);
        m_retransmitPending = true;
    }
}

void
RoceQueuePair::RetransmitTimeout()
{
    m_retransmitPending = false;
    if (m_state != RTS || !HasUnacked())
    {
        return;
    }
    Time now = FeroceSim::Now();
    if (now < m_retransmitDeadline)
    {
        m_retransmitEvent = Simulator::Schedule(m_retransmitDeadline - now,
                                                &RoceQueuePair::RetransmitTimeout,
                                                this);
        m_retransmitPending = true;
        return;
    }
    if (!m_jitterDrawn && m_ackTimeoutJitter.IsStrictlyPositive())
    {
        // one draw per expiry (none per ACK); progress before it fires starts over
        m_jitterDrawn = true;
        Time extra = NanoSeconds(int64_t(DrawJitterNs()));
        m_retransmitDeadline = now + extra;
        m_retransmitEvent = Simulator::Schedule(extra, &RoceQueuePair::RetransmitTimeout, this);
        m_retransmitPending = true;
        return;
    }
    NS_LOG_INFO("QP " << m_qpn << " timeout at PSN " << m_unackedPsn);
    m_counters.timeouts++;
    if (m_traced)
    {
        m_traces->timeout(m_unackedPsn);
    }
    if (++m_retries > m_retryCount)
    {
        EnterError(ROCE_WC_RETRY_EXCEEDED);
        return;
    }
    RewindTo(m_unackedPsn);
    ArmRetransmitTimer();
    m_nic->TrySend();
}

void
RoceQueuePair::RewindTo(uint32_t psn)
{
    m_nextPsn = psn;
    m_nic->NotifySendable(m_qpn);
    for (std::size_t i = 0; i < m_sq.size(); i++)
    {
        int32_t d = feroce_psn_diff(psn, m_sq[i].firstPsn);
        if (d >= 0 && uint32_t(d) < m_sq[i].npkts)
        {
            m_sendIdx = i;
            m_sendPkt = uint32_t(d);
            return;
        }
    }
    m_sendIdx = m_sq.size();
    m_sendPkt = 0;
}

void
RoceQueuePair::AcknowledgeUpTo(uint32_t psn)
{
    uint32_t acked = feroce_psn_add(psn, 1);
    if (feroce_psn_diff(acked, m_unackedPsn) <= 0 || feroce_psn_diff(acked, m_sentEnd) > 0)
    {
        return; // nothing new, or a PSN never sent
    }
    m_unackedPsn = acked;
    m_retries = 0;
    m_rnrRetries = 0;
    // completions go out once the state is consistent; the NIC's vector is reused (and a
    // completion callback that acknowledges more meanwhile finds it taken, and uses its own)
    std::vector<RoceCompletion> done;
    done.swap(m_nic->m_completedScratch);
    done.clear();
    bool delayed = m_completionLatency.IsStrictlyPositive();
    while (!m_sq.empty() &&
           feroce_psn_diff(m_unackedPsn,
                           feroce_psn_add(m_sq.front().firstPsn, m_sq.front().npkts)) >= 0)
    {
        if (delayed)
        {
            // the engine retires it later; its slot stays taken until then
            Retiring r;
            r.completion = MakeCompletion(m_sq.front(), ROCE_WC_SUCCESS);
            r.due = FeroceSim::Now() + m_completionLatency;
            m_retiring.push_back(r);
        }
        else
        {
            done.push_back(MakeCompletion(m_sq.front(), ROCE_WC_SUCCESS));
        }
        m_sq.pop_front();
        if (m_sendIdx > 0)
        {
            m_sendIdx--;
        }
        else
        {
            m_sendPkt = 0;
        }
    }
    if (feroce_psn_diff(m_nextPsn, m_unackedPsn) < 0)
    {
        RewindTo(m_unackedPsn); // acknowledged beyond a rewind: skip what arrived
    }
    if (HasUnacked())
    {
        ArmRetransmitTimer();
    }
    if (!m_retiring.empty() && FeroceSim::IsExpired(m_retireEvent))
    {
        m_retireEvent = Simulator::Schedule(m_retiring.front().due - FeroceSim::Now(),
                                            &RoceQueuePair::RetireDue,
                                            this);
    }
    for (const RoceCompletion& c : done)
    {
        Complete(c);
    }
    done.swap(m_nic->m_completedScratch);
}

void
RoceQueuePair::Complete(const RoceCompletion& c)
{
    m_counters.completions++;
    if (m_traced)
    {
        m_traces->completion(c, c.completed - c.posted);
    }
    if (!m_completionCb.IsNull())
    {
        m_completionCb(c);
    }
}

void
RoceQueuePair::RetireDue()
{
    Time now = FeroceSim::Now();
    // the requests the completions post go out in one TrySend, as after an ACK
    m_nic->m_holdTrySend = true;
    while (!m_retiring.empty() && m_retiring.front().due <= now)
    {
        RoceCompletion c = m_retiring.front().completion;
        c.completed = now;
        m_retiring.pop_front();
        Complete(c);
    }
    m_nic->m_holdTrySend = false;
    if (!m_retiring.empty())
    {
        m_retireEvent =
            Simulator::Schedule(m_retiring.front().due - now, &RoceQueuePair::RetireDue, this);
    }
    m_nic->TrySend();
}

RoceCompletion
RoceQueuePair::MakeCompletion(const SendEntry& e, RoceCompletionStatus status) const
{
    RoceCompletion c;
    c.id = e.wr.id;
    c.qpn = m_qpn;
    c.write = e.wr.write;
    c.length = e.wr.length;
    c.status = status;
    c.posted = e.posted;
    c.completed = FeroceSim::Now();
    return c;
}

void
RoceQueuePair::EnterError(RoceCompletionStatus why)
{
    NS_LOG_WARN("QP " << m_qpn << " enters the error state: " << RoceCompletionStatusName(why));
    m_state = ERROR;
    m_retransmitEvent.Cancel();
    m_retransmitPending = false;
    // the requests already acknowledged complete successfully, before the failed ones
    m_retireEvent.Cancel();
    FeroceRing<Retiring> retiring;
    retiring.swap(m_retiring);
    for (std::size_t i = 0; i < retiring.size(); i++)
    {
        Complete(retiring[i].completion);
    }
    FeroceRing<SendEntry> flushed;
    flushed.swap(m_sq);
    m_sendIdx = 0;
    m_sendPkt = 0;
    if (m_traced)
    {
        m_traces->error(m_qpn, why);
    }
    m_nic->NotifyQpError();
    bool firstEntry = true;
    for (std::size_t i = 0; i < flushed.size(); i++)
    {
        RoceCompletion c = MakeCompletion(flushed[i], firstEntry ? why : ROCE_WC_FLUSHED);
        firstEntry = false;
        if (!m_completionCb.IsNull())
        {
            m_completionCb(c);
        }
    }
}

void
RoceQueuePair::Receive(const feroce_roce& f)
{
    if (m_state != RTS)
    {
        return;
    }
    uint8_t op = f.bth.opcode;
    if (op == FEROCE_OP_ACK)
    {
        ReceiveAck(f);
    }
    else if (op == FEROCE_OP_CNP)
    {
        ReceiveCnp();
    }
    else
    {
        ReceiveData(f);
    }
}

void
RoceQueuePair::ReceiveAck(const feroce_roce& f)
{
    uint8_t syndrome = f.aeth.syndrome;
    uint32_t psn = f.bth.psn;
    switch (FEROCE_AETH_KIND(syndrome))
    {
    case 0:
        m_counters.acksReceived++;
        // requests the completions post go out in the one TrySend below (same instant, same
        // state): not one TrySend per post
        m_nic->m_holdTrySend = true;
        AcknowledgeUpTo(psn);
        m_nic->m_holdTrySend = false;
        break;
    case 1: {
        m_counters.rnrNaksReceived++;
        if (m_traced)
        {
            m_traces->nak(psn);
        }
        AcknowledgeUpTo(feroce_psn_add(psn, FEROCE_PSN_MASK));
        if (m_rnrRetry != 7 && ++m_rnrRetries > m_rnrRetry)
        {
            EnterError(ROCE_WC_RNR_RETRY_EXCEEDED);
            return;
        }
        Time wait = MicroSeconds(10) * int64_t(kRnrTimer10us[FEROCE_AETH_VALUE(syndrome)]);
        m_rnrUntil = FeroceSim::Now() + wait;
        RewindTo(psn); // TrySend below wakes the NIC at m_rnrUntil
        break;
    }
    case 3:
        m_counters.naksReceived++;
        if (m_traced)
        {
            m_traces->nak(psn);
        }
        if (FEROCE_AETH_VALUE(syndrome) != FEROCE_NAK_PSN_SEQ_ERR)
        {
            EnterError(ROCE_WC_REMOTE_ERROR);
            return;
        }
        AcknowledgeUpTo(feroce_psn_add(psn, FEROCE_PSN_MASK));
        if (feroce_psn_diff(psn, m_unackedPsn) == 0 && ++m_retries > m_retryCount)
        {
            EnterError(ROCE_WC_RETRY_EXCEEDED);
            return;
        }
        RewindTo(psn); // go-back-N
        break;
    default:
        return; // reserved syndrome: ignored
    }
    m_nic->TrySend();
}

void
RoceQueuePair::ReceiveCnp()
{
    m_counters.cnpsReceived++;
    if (m_traced)
    {
        m_traces->cnpReceived();
    }
    if (!m_nic->IsDcqcnEnabled())
    {
        return;
    }
    m_rl.Cnp(FeroceSim::Now().GetNanoSeconds());
    if (m_lastWireBits)
    {
        // a lower rate pushes the pending send later (never earlier than now)
        m_nextSendNs = m_lastStartNs + m_lastWireBits * 1e9 / m_rl.Rc();
    }
    ReportRates();
    m_nic->TrySend();
}

void
RoceQueuePair::ReceiveData(const feroce_roce& f)
{
    unsigned flags = feroce_opcode_flags(f.bth.opcode);
    uint32_t psn = f.bth.psn;
    m_counters.dataPacketsReceived++;

    if (f.ip.ecn == FEROCE_ECN_CE)
    {
        m_counters.ceMarksReceived++;
        if (m_nic->IsDcqcnEnabled() &&
            feroce_np_on_ce(m_np,
                            feroce_np_select(m_np, &m_npState, m_nic->GetPortNpState()),
                            FeroceSim::Now().GetNanoSeconds()))
        {
            SendCnp();
        }
    }

    int32_t d = feroce_psn_diff(psn, m_ePsn);
    if (d < 0)
    {
        m_counters.duplicatesReceived++;
        if (!m_dupAcked || f.bth.ackreq)
        {
            SendAck(feroce_psn_add(m_ePsn, FEROCE_PSN_MASK),
                    FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE));
            m_dupAcked = true;
        }
        return;
    }
    if (d > 0)
    {
        m_counters.outOfOrderReceived++;
        if (!m_nakSent)
        {
            SendAck(m_ePsn, FEROCE_AETH_NAK(FEROCE_NAK_PSN_SEQ_ERR));
            m_counters.naksSent++;
            m_nakSent = true;
        }
        return;
    }

    bool isSend = flags & FEROCE_OPF_SEND;
    if (isSend && (flags & FEROCE_OPF_FIRST) && !m_inSend)
    {
        if (m_rq.empty())
        {
            SendAck(psn, FEROCE_AETH_RNR_NAK(m_rnrTimerCode));
            m_counters.rnrNaksSent++;
            m_nakSent = true; // the rest of the message is dropped silently until the retry
            return;
        }
        m_sendRecvId = m_rq.front();
        m_rq.pop_front();
        m_inSend = true;
    }
    m_ePsn = feroce_psn_add(m_ePsn, 1);
    m_nakSent = false;
    m_dupAcked = false;
    bool last = flags & FEROCE_OPF_LAST;
    if (last)
    {
        m_msn = (m_msn + 1) & FEROCE_PSN_MASK;
        m_counters.messagesDelivered++;
    }
    m_counters.payloadBytesDelivered += f.payload_len;

    RoceReceive r;
    r.qpn = m_qpn;
    r.bytes = f.payload_len;
    r.write = !isSend;
    r.last = last;
    r.withImm = flags & FEROCE_OPF_IMMDT;
    r.imm = f.immdt;
    r.recvId = isSend ? m_sendRecvId : 0;
    if (isSend && last)
    {
        m_inSend = false;
    }
    if (!m_receiveCb.IsNull())
    {
        m_receiveCb(r);
    }

    if (f.bth.ackreq || ++m_unackedReceived >= m_ackInterval)
    {
        SendAck(psn, FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE));
        m_unackedReceived = 0;
    }
}

void
RoceQueuePair::SendAck(uint32_t psn, uint8_t syndrome)
{
    feroce_roce f = Header();
    f.bth.opcode = FEROCE_OP_ACK;
    f.bth.psn = psn;
    f.aeth.syndrome = syndrome;
    f.aeth.msn = m_msn;
    f.ip.ecn = FEROCE_ECN_NOT_ECT;
    f.payload_len = 0;
    if (FEROCE_AETH_KIND(syndrome) == 0)
    {
        m_counters.acksSent++;
    }
    m_nic->SendControl(FeroceFrame::MakeRoce(f), m_priority);
}

void
RoceQueuePair::SendCnp()
{
    feroce_roce f = Header();
    f.bth.opcode = FEROCE_OP_CNP;
    f.bth.becn = 1;
    f.bth.psn = 0;
    f.ip.dscp = m_nic->m_cnpDscp;
    f.eth.pcp = m_nic->m_cnpPriority;
    f.payload_len = 0;
    m_counters.cnpsSent++;
    if (m_traced)
    {
        m_traces->cnpSent();
    }
    m_nic->m_counters.cnpsSent++;
    m_nic->SendControl(FeroceFrame::MakeRoce(f), m_nic->m_cnpPriority);
}

} // namespace ns3
