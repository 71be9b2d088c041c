/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-queue-pair.h"

#include "roce-nic.h"

#include "ns3/feroce-sim.h"
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
                            MakeTracesAccessor(&Traces::completion, Traces::COMPLETION),
                            "ns3::RoceQueuePair::CompletionTracedCallback")
            .AddTraceSource("Rate",
                            "DCQCN current rate Rc (bit/s) when it changes",
                            MakeTracesAccessor(&Traces::rate, Traces::RATE),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("TargetRate",
                            "DCQCN target rate Rt (bit/s) when it changes",
                            MakeTracesAccessor(&Traces::targetRate, Traces::TARGET_RATE),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("Alpha",
                            "DCQCN alpha when it changes",
                            MakeTracesAccessor(&Traces::alpha, Traces::ALPHA),
                            "ns3::RoceQueuePair::RateTracedCallback")
            .AddTraceSource("Error",
                            "The QP entered the error state",
                            MakeTracesAccessor(&Traces::error, Traces::ERROR),
                            "ns3::RoceQueuePair::ErrorTracedCallback")
            .AddTraceSource("Retransmit",
                            "A data packet was sent again (its PSN)",
                            MakeTracesAccessor(&Traces::retransmit, Traces::RETRANSMIT),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Timeout",
                            "The retransmission timer expired (the oldest unacknowledged PSN)",
                            MakeTracesAccessor(&Traces::timeout, Traces::TIMEOUT),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Nak",
                            "A NAK or RNR NAK arrived (its PSN)",
                            MakeTracesAccessor(&Traces::nak, Traces::NAK),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CnpSent",
                            "The notification point sent a CNP",
                            MakeTracesAccessor(&Traces::cnpSent, Traces::CNP_SENT),
                            "ns3::TracedCallback::Void")
            .AddTraceSource("CnpReceived",
                            "A CNP for this QP arrived",
                            MakeTracesAccessor(&Traces::cnpReceived, Traces::CNP_RECEIVED),
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
    s_live++;
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
    s_live++;
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
        // what the DCQCN traces report as the old value next: the state's values now (every
        // change of the state is followed by ReportRates, so these are the last it saw)
        m_traces->reportedRc = m_rl.Rc();
        m_traces->reportedRt = m_rl.Rt();
        m_traces->reportedAlpha = m_rl.Alpha();
    }
    return *m_traces;
}

RoceQueuePair::Traces&
RoceQueuePair::Connecting(uint16_t bit)
{
    Traces& t = GetTraces();
    if ((bit & Traces::DCQCN) && !(m_traced & Traces::DCQCN))
    {
        // ReportRates skipped while no DCQCN trace was connected: the values it would have
        // reported last are the state's now (every change of the state is followed by it)
        t.reportedRc = m_rl.Rc();
        t.reportedRt = m_rl.Rt();
        t.reportedAlpha = m_rl.Alpha();
    }
    m_traced |= bit;
    return t;
}

template <typename SOURCE>
Ptr<const TraceSourceAccessor>
RoceQueuePair::MakeTracesAccessor(SOURCE Traces::*member, uint16_t bit)
{
    // MakeTraceSourceAccessor's accessor, through Connecting()
    struct Accessor : public TraceSourceAccessor
    {
        bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            (qp->Connecting(m_bit).*m_member).ConnectWithoutContext(cb);
            return true;
        }

        bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            auto qp = dynamic_cast<RoceQueuePair*>(obj);
            if (qp == nullptr)
            {
                return false;
            }
            (qp->Connecting(m_bit).*m_member).Connect(cb, context);
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
        uint16_t m_bit;
    };

    Ptr<Accessor> accessor = Create<Accessor>();
    accessor->m_member = member;
    accessor->m_bit = bit;
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
    ClearCompletionHandler();
    ClearReceiveHandler();
    s_live--;
}

uint64_t RoceQueuePair::s_live = 0;

uint64_t
RoceQueuePair::GetLiveCount()
{
    return s_live;
}

uint16_t
RoceQueuePair::GetUdpSourcePort() const
{
    return m_conn.sport;
}

void
RoceQueuePair::SetUdpSourcePort(uint16_t port)
{
    m_conn.sport = port;
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
                     const QpRateLimiter::Model* rp,
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
    m_rl.Init(rp, now);
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

void
RoceQueuePair::SetPriority(uint8_t priority)
{
    NS_ASSERT_MSG(m_state == RESET, "RoceQueuePair::SetPriority: before Connect only");
    m_priority = priority & 7;
    m_dscp = uint8_t(m_priority * 8 + 2);
    m_conn.pcp = m_priority;
    m_conn.dscp = m_dscp;
}

feroce_message_frames
RoceQueuePair::GetMessageFrames(uint64_t length, bool write, bool withImm) const
{
    feroce_message_frames m{};
    m.packets = length ? (length + m_pmtu - 1) / m_pmtu : 1;
    auto wire = [this, write, withImm, &m](bool first, bool last, uint32_t payload) {
        feroce_roce f = Header();
        f.bth.opcode = feroce_opcode_for(write, first, last, withImm);
        f.payload_len = payload;
        return uint32_t(feroce_wire_bytes(feroce_roce_frame_len(&f)));
    };
    uint32_t tail = uint32_t(length - (m.packets - 1) * m_pmtu);
    if (m.packets == 1)
    {
        m.first = m.last = wire(true, true, tail);
    }
    else
    {
        m.first = wire(true, false, m_pmtu);
        m.middle = wire(false, false, m_pmtu);
        m.last = wire(false, true, tail);
    }
    feroce_roce ack = Header();
    ack.bth.opcode = FEROCE_OP_ACK;
    ack.payload_len = 0;
    m.ack = uint32_t(feroce_wire_bytes(feroce_roce_frame_len(&ack)));
    return m;
}

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
RoceQueuePair::SetError()
{
    if (m_state != ERROR)
    {
        EnterError(ROCE_WC_FLUSHED);
    }
}

void
RoceQueuePair::SetCompletionCallback(CompletionCallback cb)
{
    ClearCompletionHandler();
    if (!cb.IsNull())
    {
        SetCompletionHandler(&CallCompletionCallback, new CompletionCallback(cb), 0);
    }
}

void
RoceQueuePair::SetReceiveCallback(ReceiveCallback cb)
{
    ClearReceiveHandler();
    if (!cb.IsNull())
    {
        SetReceiveHandler(&CallReceiveCallback, new ReceiveCallback(cb), 0);
    }
}

void
RoceQueuePair::SetCompletionHandler(CompletionHandler fn, void* context, uint32_t index)
{
    ClearCompletionHandler();
    m_completionFn = fn;
    m_completionContext = context;
    m_completionIndex = index;
}

void
RoceQueuePair::SetReceiveHandler(ReceiveHandler fn, void* context, uint32_t index)
{
    ClearReceiveHandler();
    m_receiveFn = fn;
    m_receiveContext = context;
    m_receiveIndex = index;
}

void
RoceQueuePair::CallCompletionCallback(void* cb, uint32_t, const RoceCompletion& c)
{
    (*static_cast<CompletionCallback*>(cb))(c);
}

void
RoceQueuePair::CallReceiveCallback(void* cb, uint32_t, const RoceReceive& r)
{
    (*static_cast<ReceiveCallback*>(cb))(r);
}

void
RoceQueuePair::ClearCompletionHandler()
{
    if (m_completionFn == &CallCompletionCallback)
    {
        delete static_cast<CompletionCallback*>(m_completionContext);
    }
    m_completionFn = nullptr;
    m_completionContext = nullptr;
}

void
RoceQueuePair::ClearReceiveHandler()
{
    if (m_receiveFn == &CallReceiveCallback)
    {
        delete static_cast<ReceiveCallback*>(m_receiveContext);
    }
    m_receiveFn = nullptr;
    m_receiveContext = nullptr;
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

void
RoceQueuePair::Receive(const feroce_roce& f)
{
    if (m_state != RTS)
    {
        m_nic->m_counters.qpErrorDrops++;
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

} // namespace ns3
