/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-nic.h"

#include "feroce-attributes.h"
#include "pfc-header.h"

#include "ns3/boolean.h"
#include "ns3/feroce-check.h"
#include "ns3/log.h"
#include "ns3/object-vector.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");
NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
const uint32_t kFirstQpn = 0x100; ///< QPNs below are special in InfiniBand (QP0, QP1)

std::string
CheckMessage(const feroce_check& why)
{
    return AttributeCheckMessage(why);
}
} // namespace

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<FeroceNetDevice>()
            .SetGroupName("Feroce")
            .AddConstructor<RoceNic>()
            .AddAttribute("Ipv4Address",
                          "The NIC's IPv4 address (RoCEv2 source address)",
                          Ipv4AddressValue(Ipv4Address("10.0.0.1")),
                          MakeIpv4AddressAccessor(&RoceNic::m_ipv4),
                          MakeIpv4AddressChecker())
            .AddAttribute("DcqcnEnabled",
                          "Run DCQCN: rate limiters per QP and CNPs for CE marks",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_dcqcnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("DcqcnPreset",
                          "paper, connectx or hpcc (scaled to DataRate): replaces the "
                          "ReactionPoint's parameters (and, for paper and hpcc, CnpInterval), "
                          "but for the defaults the user changed (--ns3::..., SetDefault); "
                          "empty: use ReactionPoint",
                          StringValue(""),
                          MakeStringAccessor(&RoceNic::m_dcqcnPreset),
                          MakeStringChecker())
            .AddAttribute("FixedPointFormat",
                          "Empty: the QPs' reaction points compute in double precision.  "
                          "Otherwise they run a firmware's integer arithmetic in this register "
                          "format: a preset (default or surf), then comma-separated field=value "
                          "settings (clock_hz, rate_bits, rate_lsb_bps, alpha_bits, rounding, "
                          "rate_rounding, alpha_rounding), e.g. \"surf\" or "
                          "\"default,rate_bits=24,alpha_bits=12\" (doc/dcqcn.md)",
                          StringValue(""),
                          MakeStringAccessor(&RoceNic::m_fixedPointFormat),
                          MakeStringChecker())
            .AddAttribute("ReactionPoint",
                          "DCQCN reaction-point parameters for every QP (ns3::DcqcnReactionPoint "
                          "attributes; its LineRate is taken from DataRate)",
                          PointerValue(),
                          MakePointerAccessor(&RoceNic::m_rpConfig),
                          MakePointerChecker<DcqcnReactionPoint>())
            .AddAttribute("CnpInterval",
                          "Notification point N: at most one CNP per interval (0: one per CE mark)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RoceNic::m_cnpInterval),
                          MakeTimeChecker())
            .AddAttribute("CnpScope",
                          "per_qp or per_port: what the CNP interval is counted for",
                          StringValue("per_qp"),
                          MakeStringAccessor(&RoceNic::m_cnpScope),
                          MakeStringChecker())
            .AddAttribute("CnpPriority",
                          "Priority (0..7) of CNP frames",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceNic::m_cnpPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("CnpDscp",
                          "IPv4 DSCP of CNP frames",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("PfcHonour",
                          "Obey PFC PAUSE frames; false models a MAC without PFC",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_pfcHonour),
                          MakeBooleanChecker())
            .AddAttribute("RxProcessingRate",
                          "Most bits per second the receiver processes (CPU-bound software "
                          "RoCE); 0: line rate",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RoceNic::m_rxRate),
                          MakeDataRateChecker())
            .AddAttribute("RxBufferSize",
                          "Bytes of received frames waiting for RxProcessingRate; beyond, dropped",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&RoceNic::m_rxBufferSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("QueuePairs",
                          "The queue pairs of this NIC, in order of creation",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&RoceNic::m_qps),
                          MakeObjectVectorChecker<RoceQueuePair>())
            .AddTraceSource(
                "RxDrop",
                "A received frame dropped (receive buffer full, unknown QP, not RoCEv2)",
                MakeTraceSourceAccessor(&RoceNic::m_rxDropTrace),
                "ns3::Packet::TracedCallback");
    return tid;
}

RoceNic::RoceNic()
    : m_dcqcnEnabled(true),
      m_cnpPriority(7),
      m_cnpDscp(48),
      m_pfcHonour(true),
      m_rxBufferSize(256 * 1024),
      m_started(false),
      m_rpFixed(),
      m_fixedPoint(false),
      m_rrNext(0),
      m_rxQueued(0)
{
    NS_LOG_FUNCTION(this);
    m_rpConfig = CreateObject<DcqcnReactionPoint>();
    m_qpFactory.SetTypeId(RoceQueuePair::GetTypeId());
    TypeId::AttributeInformation pmtu;
    RoceQueuePair::GetTypeId().LookupAttributeByName("Pmtu", &pmtu);
    m_qpPmtu = static_cast<uint32_t>(DynamicCast<const UintegerValue>(pmtu.initialValue)->Get());
    feroce_np_init(&m_portNp);
}

RoceNic::~RoceNic()
{
    NS_LOG_FUNCTION(this);
}

void
RoceNic::DoInitialize()
{
    Start();
    FeroceNetDevice::DoInitialize();
}

void
RoceNic::DoDispose()
{
    for (auto& qp : m_qps)
    {
        qp->m_retransmitEvent.Cancel();
        qp->m_retireEvent.Cancel();
        qp->m_nic = nullptr;
    }
    m_qps.clear();
    m_control.clear();
    m_rpConfig = nullptr;
    FeroceNetDevice::DoDispose();
}

std::string
RoceNic::Validate()
{
    if (GetDataRate().GetBitRate() == 0)
    {
        return "DataRate = 0bps is not allowed: expected > 0";
    }
    std::string pmtuError = RoceQueuePair::CheckPmtu(m_qpPmtu);
    if (!pmtuError.empty())
    {
        return pmtuError;
    }
    feroce_check why{};
    if (!m_dcqcnPreset.empty())
    {
        // the preset, then the reaction-point defaults the user changed
        Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
        std::string error = rp->ApplyPreset(m_dcqcnPreset, GetDataRate());
        if (!error.empty())
        {
            return "DcqcnPreset: " + error;
        }
        error = rp->GetCoreParameters(&m_rp);
        if (!error.empty())
        {
            return error;
        }
    }
    else
    {
        m_rpConfig->SetAttribute("LineRate", DataRateValue(GetDataRate()));
        std::string error = m_rpConfig->GetCoreParameters(&m_rp);
        if (!error.empty())
        {
            return error;
        }
    }
    std::string format = m_fixedPointFormat;
    if (m_dcqcnPreset.empty())
    {
        // the ReactionPoint's own FixedPointFormat is honoured too, never silently dropped
        StringValue rpFormat;
        m_rpConfig->GetAttribute("FixedPointFormat", rpFormat);
        if (format.empty())
        {
            format = rpFormat.Get();
        }
        else if (!rpFormat.Get().empty() && rpFormat.Get() != format)
        {
            return "FixedPointFormat = " + m_fixedPointFormat +
                   " is not allowed: the ReactionPoint says FixedPointFormat = " + rpFormat.Get() +
                   "; expected one of them, or both the same";
        }
    }
    m_fixedPoint = !format.empty();
    if (m_fixedPoint)
    {
        feroce_rp_fixed_format fmt;
        if (feroce_rp_fixed_parse_format(&fmt, format.c_str(), &why) != FEROCE_OK ||
            feroce_rp_fixed_build(&m_rpFixed, &m_rp, &fmt, &why) != FEROCE_OK)
        {
            return "FixedPointFormat = " + format + ": " + CheckMessage(why);
        }
    }
    // paper and hpcc set the notification point too, but for the defaults the user changed
    bool preset = m_dcqcnPreset == "paper" || m_dcqcnPreset == "hpcc";
    if (preset)
    {
        feroce_np_preset(&m_np, m_dcqcnPreset.c_str(), &why);
    }
    if (!preset || IsAttributeDefaultChanged(GetTypeId(), "CnpInterval"))
    {
        m_np.interval_ns = m_cnpInterval.GetNanoSeconds();
    }
    if (!preset || IsAttributeDefaultChanged(GetTypeId(), "CnpScope"))
    {
        if (m_cnpScope == "per_qp")
        {
            m_np.scope = FEROCE_NP_PER_QP;
        }
        else if (m_cnpScope == "per_port")
        {
            m_np.scope = FEROCE_NP_PER_PORT;
        }
        else
        {
            return "CnpScope = " + m_cnpScope + " is not allowed: expected per_qp or per_port";
        }
    }
    if (feroce_np_validate(&m_np, &why) != FEROCE_OK)
    {
        return CheckMessage(why);
    }
    return "";
}

void
RoceNic::Start()
{
    if (m_started)
    {
        return;
    }
    std::string error = Validate();
    if (!error.empty())
    {
        NS_FATAL_ERROR("RoceNic: " << error);
    }
    m_started = true;
}

void
RoceNic::SetQueuePairAttribute(std::string name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
    if (name == "Pmtu")
    {
        m_qpPmtu = static_cast<uint32_t>(DynamicCast<const UintegerValue>(value.Copy())->Get());
    }
}

Ptr<RoceQueuePair>
RoceNic::CreateQueuePair()
{
    Start(); // the parameters are fixed from the first queue pair on
    Ptr<RoceQueuePair> qp = m_qpFactory.Create<RoceQueuePair>();
    qp->Setup(this,
              kFirstQpn + uint32_t(m_qps.size()),
              &m_rp,
              m_fixedPoint ? &m_rpFixed : nullptr,
              &m_np);
    m_qps.push_back(qp);
    m_sendable.resize((m_qps.size() + 63) / 64, 0);
    return qp;
}

void
RoceNic::NotifySendable(uint32_t qpn)
{
    uint32_t idx = qpn - kFirstQpn;
    m_sendable[idx / 64] |= uint64_t(1) << (idx % 64);
}

std::size_t
RoceNic::NextSendable(std::size_t from, std::size_t to) const
{
    while (from < to)
    {
        uint64_t bits = m_sendable[from / 64] >> (from % 64);
        if (bits)
        {
            std::size_t idx = from + std::size_t(__builtin_ctzll(bits));
            return idx < to ? idx : to;
        }
        from = (from / 64 + 1) * 64;
    }
    return to;
}

Ptr<RoceQueuePair>
RoceNic::GetQueuePair(uint32_t qpn) const
{
    uint32_t idx = qpn - kFirstQpn;
    return qpn >= kFirstQpn && idx < m_qps.size() ? m_qps[idx] : nullptr;
}

uint32_t
RoceNic::GetNQueuePairs() const
{
    return uint32_t(m_qps.size());
}

Ipv4Address
RoceNic::GetIpv4Address() const
{
    return m_ipv4;
}

void
RoceNic::SetIpv4Address(Ipv4Address address)
{
    m_ipv4 = address;
}

bool
RoceNic::IsDcqcnEnabled() const
{
    return m_dcqcnEnabled;
}

const RoceNic::Counters&
RoceNic::GetCounters() const
{
    return m_counters;
}

feroce_np_state*
RoceNic::GetPortNpState()
{
    return &m_portNp;
}

void
RoceNic::NotifyQpError()
{
    m_counters.qpErrors++;
}

void
RoceNic::SendControl(Ptr<FeroceFrame> frame, uint8_t priority)
{
    m_control.push_back({frame, priority});
    TrySend();
}

void
RoceNic::TrySend()
{
    Time now = Simulator::Now();
    bool free = CanTransmit();
    bool sent = false;
    auto unpaused = [this](const ControlFrame& c) { return !IsPaused(c.priority); };
    // ACK, NAK and CNP first, in order, those of a paused priority skipped
    auto ctl = std::find_if(m_control.begin(), m_control.end(), unpaused);
    if (ctl != m_control.end() && free)
    {
        Ptr<FeroceFrame> frame = ctl->frame;
        m_control.erase(ctl);
        TransmitStart(frame);
        sent = true;
        ctl = std::find_if(m_control.begin(), m_control.end(), unpaused);
    }
    // the earliest instant something not yet sent may go (the wire aside)
    Time earliest = ctl != m_control.end() ? now : Time::Max();
    // the queue pairs round robin from m_rrNext, those that may have something to send only
    std::size_t n = m_qps.size();
    std::size_t start = n ? m_rrNext % n : 0;
    for (int pass = 0; pass < 2 && earliest > now; pass++)
    {
        std::size_t to = pass == 0 ? n : start;
        for (std::size_t idx = NextSendable(pass == 0 ? start : 0, to); idx < to && earliest > now;
             idx = NextSendable(idx + 1, to))
        {
            RoceQueuePair* qp = PeekPointer(m_qps[idx]);
            if (qp->m_sendIdx >= qp->m_sq.size())
            {
                m_sendable[idx / 64] &= ~(uint64_t(1) << (idx % 64)); // until it posts or rewinds
                continue;
            }
            if (IsPaused(qp->m_priority))
            {
                continue; // the end of the pause wakes us
            }
            Time t = qp->NextSendTime(now);
            if (t <= now && free && !sent)
            {
                m_rrNext = idx + 1;
                TransmitStart(qp->BuildDataPacket());
                sent = true;
                t = qp->NextSendTime(now);
            }
            earliest = std::min(earliest, t);
        }
    }
    // one wake-up: when the wire is free and something may go
    WakeAt(earliest == Time::Max() ? earliest : std::max(earliest, GetTxFreeAt()));
}

void
RoceNic::HandleFrame(Ptr<FeroceFrame> frame)
{
    if (!frame->IsRoce())
    {
        HandlePfc(frame->GetPacket());
        return;
    }
    uint8_t op = frame->Fields().bth.opcode;
    bool data = op != FEROCE_OP_ACK && op != FEROCE_OP_CNP;
    if (data && m_rxRate.GetBitRate() > 0)
    {
        // a CPU-bound receiver: frames wait for the processor, in a bounded buffer
        if (m_rxQueued + frame->GetSize() > m_rxBufferSize)
        {
            m_counters.rxOverflowDrops++;
            if (!m_rxDropTrace.IsEmpty())
            {
                m_rxDropTrace(frame->GetPacket());
            }
            return;
        }
        m_rxQueued += frame->GetSize();
        Time now = Simulator::Now();
        Time start = std::max(now, m_rxBusyUntil);
        m_rxBusyUntil = start + m_rxRate.CalculateBytesTxTime(frame->GetSize());
        Simulator::Schedule(m_rxBusyUntil - now, &RoceNic::RxProcessed, this, frame);
        return;
    }
    Deliver(frame);
}

void
RoceNic::Deliver(Ptr<FeroceFrame> frame)
{
    const feroce_roce& f = frame->Fields();
    uint32_t idx = f.bth.destqp - kFirstQpn;
    if (f.bth.destqp < kFirstQpn || idx >= m_qps.size())
    {
        m_counters.unknownFrames++;
        if (!m_rxDropTrace.IsEmpty())
        {
            m_rxDropTrace(frame->GetPacket());
        }
        return;
    }
    if (f.bth.opcode == FEROCE_OP_CNP)
    {
        m_counters.cnpsReceived++;
    }
    m_qps[idx]->Receive(f);
}

void
RoceNic::RxProcessed(Ptr<FeroceFrame> frame)
{
    m_rxQueued -= frame->GetSize();
    Deliver(frame);
}

void
RoceNic::HandlePfc(Ptr<Packet> frame)
{
    PfcHeader pfc;
    frame->PeekHeader(pfc);
    if (pfc.GetError() != FEROCE_WIRE_OK)
    {
        m_counters.unknownFrames++;
        m_rxDropTrace(frame);
        return;
    }
    m_counters.pauseFramesReceived++;
    if (!m_pfcHonour)
    {
        m_counters.pauseFramesIgnored++;
        return;
    }
    ApplyPause(pfc);
    TrySend();
}

} // namespace ns3
