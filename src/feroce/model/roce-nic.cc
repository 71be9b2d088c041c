/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-nic.h"

#include "feroce-attributes.h"
#include "link-pause-header.h"
#include "pfc-header.h"

#include "ns3/boolean.h"
#include "ns3/feroce-arena.h"
#include "ns3/feroce-check.h"
#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/object-vector.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");
NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
const uint32_t kFirstQpn = 0x100;              ///< QPNs below are special in InfiniBand (QP0, QP1)
const uint32_t kDefaultRxBuffer = 256 * 1024;  ///< RxBufferSize's default
const uint16_t kDefaultRxPauseQuanta = 0xffff; ///< RxPauseQuanta's default

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
            .AddAttribute("PauseHonour",
                          "Which pause frames the MAC obeys: pfc (802.1Qbb), 802.3x (link-level "
                          "PAUSE: the whole port stops, ACKs and CNPs included), both or none; "
                          "empty: pfc if PfcHonour, else none",
                          StringValue(""),
                          MakeStringAccessor(&RoceNic::m_pauseHonour),
                          MakeStringChecker())
            .AddAttribute("RxPauseFrames",
                          "RxPfc: the pause frames the receive buffer sends upstream: pfc (per "
                          "priority), 802.3x (link-level PAUSE, for the whole buffer) or both",
                          StringValue("pfc"),
                          MakeStringAccessor(&RoceNic::m_rxPauseFrames),
                          MakeStringChecker())
            .AddAttribute("ReceiverModel",
                          "hardware: data frames are processed at line rate (ConnectX); "
                          "software: each costs RxPacketCost + bytes x 8 / RxProcessingRate of "
                          "one CPU, waiting in a receive buffer of RxBufferSize bytes (Soft-RoCE)",
                          StringValue("hardware"),
                          MakeStringAccessor(&RoceNic::m_receiverModel),
                          MakeStringChecker())
            .AddAttribute("RxProcessingRate",
                          "Software receiver: the CPU's per-byte cost as a rate (bits of frame "
                          "per second); must be 0 for the hardware receiver",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RoceNic::m_rxRate),
                          MakeDataRateChecker())
            .AddAttribute("RxPacketCost",
                          "Software receiver: the CPU's cost per data frame, on top of its bytes; "
                          "must be 0 for the hardware receiver",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RoceNic::m_rxPacketCost),
                          MakeTimeChecker())
            .AddAttribute("RxBufferSize",
                          "Software receiver: bytes of received data frames waiting for the CPU; "
                          "beyond, dropped (at least one frame of the QPs' Pmtu)",
                          UintegerValue(kDefaultRxBuffer),
                          MakeUintegerAccessor(&RoceNic::m_rxBufferSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxPfc",
                          "Software receiver: send PFC PAUSE upstream for a priority whose "
                          "receive-buffer bytes exceed RxXoffBytes, XON at RxXonBytes",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_rxPfc),
                          MakeBooleanChecker())
            .AddAttribute("RxXoffBytes",
                          "RxPfc: XOFF above this many bytes of a priority; 0: RxBufferSize "
                          "minus the link's headroom (2 x delay x rate + 2 frames + a PFC frame)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceNic::m_rxXoff),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxXonBytes",
                          "RxPfc: XON at or below this many bytes; 0: half the XOFF threshold",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceNic::m_rxXon),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxPauseQuanta",
                          "RxPfc: pause time of each PAUSE in 512-bit quanta (refreshed at half "
                          "of it while XOFF lasts)",
                          UintegerValue(kDefaultRxPauseQuanta),
                          MakeUintegerAccessor(&RoceNic::m_rxPauseQuanta),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute(
                "QueuePairs",
                "The queue pairs of this NIC alive (created and not released), in "
                "order of number",
                ObjectVectorValue(),
                MakeObjectVectorAccessor(&RoceNic::GetNQueuePairs, &RoceNic::GetQueuePairByIndex),
                MakeObjectVectorChecker<RoceQueuePair>())
            .AddAttribute("QpnReuseDelay",
                          "A released queue pair's number is given to a new one only this long "
                          "after the release (frames of the old connection still in the fabric "
                          "then find no queue pair)",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RoceNic::m_qpnReuseDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource(
                "RxDrop",
                "A received frame dropped (receive buffer full, unknown QP, not RoCEv2)",
                MakeTraceSourceAccessor(&RoceNic::m_rxDropTrace),
                "ns3::Packet::TracedCallback")
            .AddTraceSource("PauseSent",
                            "A PAUSE (quanta > 0) or XON (0) this NIC sent upstream for its "
                            "receive buffer (RxPfc); priority 8: an 802.3x PAUSE",
                            MakeTraceSourceAccessor(&RoceNic::m_pauseSentTrace),
                            "ns3::RoceNic::PauseSentTracedCallback")
            .AddTraceSource("QueuePairError",
                            "A queue pair of this NIC entered the error state (its QPN)",
                            MakeTraceSourceAccessor(&RoceNic::m_qpErrorTrace),
                            "ns3::RoceNic::QpErrorTracedCallback")
            .AddTraceSource("RxBuffer",
                            "Bytes in the receive buffer, after each change (software receiver)",
                            MakeTraceSourceAccessor(&RoceNic::m_rxBufferTrace),
                            "ns3::RoceNic::RxBufferTracedCallback");
    return tid;
}

RoceNic::RoceNic()
    : m_rxPauseFrames("pfc"),
      m_receiverModel("hardware"),
      m_rxBufferSize(kDefaultRxBuffer),
      m_rxPfc(false),
      m_rxXoff(0),
      m_rxXon(0),
      m_rxPauseQuanta(kDefaultRxPauseQuanta),
      m_rpFixed(),
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

void*
RoceNic::operator new(std::size_t size)
{
    return FeroceArena::Allocate(size);
}

void
RoceNic::operator delete(void* p, std::size_t size)
{
    FeroceArena::Free(p, size);
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
        if (qp)
        {
            Detach(qp);
        }
    }
    m_qps.clear();
    m_freeQpns.clear();
    m_qpPrototype = nullptr;
    m_control.clear();
    m_pfcOut.clear();
    m_rxPause.Cancel();
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
    // the largest IPv4 packet a queue pair sends: IPv4, UDP, BTH, RETH, ImmDt, payload, ICRC
    uint32_t packet = m_qpPmtu + FEROCE_IPV4_LEN + FEROCE_UDP_LEN + FEROCE_BTH_LEN +
                      FEROCE_RETH_LEN + FEROCE_IMMDT_LEN + FEROCE_ICRC_LEN;
    if (GetMtu() < packet)
    {
        return "Mtu = " + std::to_string(GetMtu()) +
               " is not allowed with Pmtu = " + std::to_string(m_qpPmtu) +
               ": expected >= " + std::to_string(packet) +
               " (the largest IPv4 packet of a queue pair)";
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
    {
        // the reaction point's own FixedPointFormat (ReactionPoint's, or under a preset the
        // default the user changed) is honoured too, never silently dropped
        StringValue rpFormat;
        if (m_dcqcnPreset.empty())
        {
            m_rpConfig->GetAttribute("FixedPointFormat", rpFormat);
        }
        else
        {
            CreateObject<DcqcnReactionPoint>()->GetAttribute("FixedPointFormat", rpFormat);
        }
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
    std::string error = ValidatePause();
    return error.empty() ? ValidateReceiver() : error;
}

std::string
RoceNic::ValidatePause()
{
    if (m_pauseHonour.empty())
    {
        m_obeyPfc = m_pfcHonour;
        m_obeyLinkPause = false;
    }
    else if (m_pauseHonour == "pfc" || m_pauseHonour == "802.3x" || m_pauseHonour == "both" ||
             m_pauseHonour == "none")
    {
        m_obeyPfc = m_pauseHonour == "pfc" || m_pauseHonour == "both";
        m_obeyLinkPause = m_pauseHonour == "802.3x" || m_pauseHonour == "both";
        bool pfcDefaultChanged = IsAttributeDefaultChanged(GetTypeId(), "PfcHonour");
        if ((m_obeyPfc && !m_pfcHonour) || (!m_obeyPfc && m_pfcHonour && pfcDefaultChanged))
        {
            return "PauseHonour = " + m_pauseHonour +
                   " is not allowed with PfcHonour = " + (m_pfcHonour ? "true" : "false") +
                   ": they contradict each other; expected PauseHonour alone (or a PfcHonour "
                   "that agrees: true with pfc or both, false with 802.3x or none)";
        }
    }
    else
    {
        return "PauseHonour = " + m_pauseHonour +
               " is not allowed: expected pfc, 802.3x, both or none (or empty: PfcHonour)";
    }
    if (m_rxPauseFrames != "pfc" && m_rxPauseFrames != "802.3x" && m_rxPauseFrames != "both")
    {
        return "RxPauseFrames = " + m_rxPauseFrames +
               " is not allowed: expected pfc, 802.3x or both";
    }
    m_rxSendPfc = m_rxPauseFrames != "802.3x";
    m_rxSendLinkPause = m_rxPauseFrames != "pfc";
    return "";
}

std::string
RoceNic::CheckRxPfcUnused() const
{
    // thresholds given without RxPfc would be silently ignored: refuse them
    std::ostringstream err;
    if (m_rxXoff)
    {
        err << "RxXoffBytes = " << m_rxXoff;
    }
    else if (m_rxXon)
    {
        err << "RxXonBytes = " << m_rxXon;
    }
    else if (m_rxPauseQuanta != kDefaultRxPauseQuanta)
    {
        err << "RxPauseQuanta = " << m_rxPauseQuanta;
    }
    else if (m_rxPauseFrames != "pfc")
    {
        err << "RxPauseFrames = " << m_rxPauseFrames;
    }
    else
    {
        return "";
    }
    err << " is not allowed without RxPfc (ReceiverModel = software, RxPfc = true): expected "
           "its default";
    return err.str();
}

uint32_t
RoceNic::GetMaxDataFrame() const
{
    // a first packet of a WRITE with immediate carries the most headers
    return m_qpPmtu + FEROCE_ETH_LEN + FEROCE_VLAN_LEN + FEROCE_IPV4_LEN + FEROCE_UDP_LEN +
           FEROCE_BTH_LEN + FEROCE_RETH_LEN + FEROCE_IMMDT_LEN + FEROCE_ICRC_LEN;
}

std::string
RoceNic::ValidateReceiver()
{
    std::ostringstream err;
    if (m_receiverModel == "hardware")
    {
        m_software = false;
        if (m_rxRate.GetBitRate() != 0)
        {
            err << "RxProcessingRate = " << m_rxRate.GetBitRate()
                << "bps is not allowed with ReceiverModel = hardware (a line-rate receiver): "
                   "expected 0, or ReceiverModel = software";
        }
        else if (!m_rxPacketCost.IsZero())
        {
            err << "RxPacketCost = " << m_rxPacketCost.GetNanoSeconds()
                << "ns is not allowed with ReceiverModel = hardware (a line-rate receiver): "
                   "expected 0, or ReceiverModel = software";
        }
        else if (m_rxPfc)
        {
            err << "RxPfc = true is not allowed with ReceiverModel = hardware (its receive "
                   "buffer never fills): expected false, or ReceiverModel = software";
        }
        else if (m_rxBufferSize != kDefaultRxBuffer)
        {
            err << "RxBufferSize = " << m_rxBufferSize
                << " is not allowed with ReceiverModel = hardware (a line-rate receiver buffers "
                   "nothing): expected "
                << kDefaultRxBuffer << ", or ReceiverModel = software";
        }
        return err.str().empty() ? CheckRxPfcUnused() : err.str();
    }
    if (m_receiverModel != "software")
    {
        return "ReceiverModel = " + m_receiverModel +
               " is not allowed: expected hardware (line rate, ConnectX) or software (Soft-RoCE)";
    }
    m_software = true;
    uint32_t frame = GetMaxDataFrame();
    if (m_rxRate.GetBitRate() == 0)
    {
        return "RxProcessingRate = 0bps is not allowed with ReceiverModel = software: expected "
               "> 0 (the CPU's per-byte cost as bits per second)";
    }
    if (m_rxPacketCost.IsStrictlyNegative())
    {
        err << "RxPacketCost = " << m_rxPacketCost.GetNanoSeconds()
            << "ns is not allowed: expected >= 0";
        return err.str();
    }
    if (m_rxBufferSize < frame)
    {
        err << "RxBufferSize = " << m_rxBufferSize << " is not allowed: expected >= " << frame
            << " (one data frame at Pmtu " << m_qpPmtu << ")";
        return err.str();
    }
    if (!m_rxPfc)
    {
        return CheckRxPfcUnused();
    }
    uint64_t headroom = GetPfcHeadroom();
    uint64_t room = m_rxBufferSize > headroom ? m_rxBufferSize - headroom : 0;
    if (room < frame)
    {
        err << "RxBufferSize = " << m_rxBufferSize
            << " is not allowed with RxPfc: expected >= " << headroom + frame
            << " (the link's headroom " << headroom << " + one data frame " << frame << ")";
        return err.str();
    }
    uint64_t xoff = m_rxXoff ? m_rxXoff : room;
    if (xoff > room)
    {
        err << "RxXoffBytes = " << m_rxXoff << " is not allowed: expected <= RxBufferSize - "
            << "headroom = " << m_rxBufferSize << " - " << headroom << " = " << room
            << ", or 0 for that";
        return err.str();
    }
    uint64_t xon = m_rxXon ? m_rxXon : xoff / 2;
    if (xon >= xoff)
    {
        err << "RxXonBytes = " << m_rxXon << " is not allowed: expected < the XOFF threshold "
            << xoff << ", or 0 for half of it";
        return err.str();
    }
    if (m_rxPauseQuanta == 0)
    {
        return "RxPauseQuanta = 0 is not allowed: expected 1..65535";
    }
    m_rxPfcParams.mode = FEROCE_PFC_STATIC;
    m_rxPfcParams.xoff_bytes = xoff;
    m_rxPfcParams.xon_bytes = xon;
    feroce_check why{};
    if (feroce_pfc_validate(&m_rxPfcParams, &why) != FEROCE_OK)
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
    m_rlModel.rules = &m_rp;
    m_rlModel.fixed = m_fixedPoint ? &m_rpFixed : nullptr;
}

void
RoceNic::SetQueuePairAttribute(std::string name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
    m_qpPrototype = nullptr;
    if (name == "Pmtu")
    {
        m_qpPmtu = static_cast<uint32_t>(DynamicCast<const UintegerValue>(value.Copy())->Get());
    }
}

Ptr<RoceQueuePair>
RoceNic::CreateQueuePair()
{
    Start(); // the parameters are fixed from the first queue pair on
    Ptr<RoceQueuePair> qp;
    if (!m_qpPrototype)
    {
        qp = m_qpFactory.Create<RoceQueuePair>();
        m_qpPrototype = qp->Clone(false); // a copy of its attributes, before anyone changes them
    }
    else
    {
        // the same attribute values without the factory's per-attribute work
        qp = m_qpPrototype->Clone(true);
    }
    // a released number whose delay has passed, else a new one
    uint32_t idx = uint32_t(m_qps.size());
    if (!m_freeQpns.empty() && m_freeQpns.front().second <= FeroceSim::Now())
    {
        idx = m_freeQpns.front().first;
        m_freeQpns.pop_front();
    }
    qp->Setup(this, kFirstQpn + idx, &m_rlModel, &m_np);
    if (idx == m_qps.size())
    {
        m_qps.push_back(qp);
        m_sendable.resize((m_qps.size() + 63) / 64, 0);
    }
    else
    {
        m_qps[idx] = qp;
    }
    m_liveQps++;
    return qp;
}

void
RoceNic::Detach(const Ptr<RoceQueuePair>& qp)
{
    qp->m_retransmitEvent.Cancel();
    qp->m_retransmitPending = false;
    qp->m_retireEvent.Cancel();
    qp->m_nic = nullptr;
}

void
RoceNic::ReleaseQueuePair(Ptr<RoceQueuePair> qp)
{
    uint32_t idx = qp->GetQpn() - kFirstQpn;
    NS_ASSERT_MSG(qp->GetQpn() >= kFirstQpn && idx < m_qps.size() && m_qps[idx] == qp,
                  "RoceNic::ReleaseQueuePair: not a queue pair of this NIC");
    Detach(qp);
    m_sendable[idx / 64] &= ~(uint64_t(1) << (idx % 64));
    m_qps[idx] = nullptr;
    m_liveQps--;
    m_freeQpns.emplace_back(idx, FeroceSim::Now() + m_qpnReuseDelay);
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
    return m_liveQps;
}

Ptr<RoceQueuePair>
RoceNic::GetQueuePairByIndex(uint32_t i) const
{
    if (m_liveQps == m_qps.size())
    {
        return m_qps[i]; // none released
    }
    for (const auto& qp : m_qps)
    {
        if (qp && i-- == 0)
        {
            return qp;
        }
    }
    return nullptr;
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

bool
RoceNic::ObeysPfc() const
{
    return m_obeyPfc;
}

bool
RoceNic::ObeysLinkPause() const
{
    return m_obeyLinkPause;
}

const RoceNic::Counters&
RoceNic::GetCounters() const
{
    return m_counters;
}

uint32_t
RoceNic::GetRxBufferBytes() const
{
    return m_rxQueued;
}

Time
RoceNic::GetUpstreamPausedTime(uint8_t prio) const
{
    return m_rxPause.GetXoffTime(prio & 7);
}

feroce_np_state*
RoceNic::GetPortNpState()
{
    return &m_portNp;
}

void
RoceNic::NotifyQpError(uint32_t qpn)
{
    m_counters.qpErrors++;
    m_qpErrorTrace(qpn);
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
    int64_t now = FeroceSim::NowStep();
    bool free = CanTransmit();
    bool sent = false;
    // our own PAUSE and XON frames before anything (PFC is never paused)
    if (!m_pfcOut.empty() && free)
    {
        TransmitStart(m_pfcOut.front());
        m_pfcOut.pop_front();
        sent = true;
    }
    // then ACK, NAK and CNP, in order, those of a paused priority skipped
    auto ctl = FirstControl();
    if (ctl != m_control.end() && free && !sent)
    {
        Ptr<FeroceFrame> frame = ctl->frame;
        if (ctl == m_control.begin())
        {
            m_control.pop_front(); // the usual case, without erase's general shuffle
        }
        else
        {
            m_control.erase(ctl);
        }
        TransmitStart(frame);
        sent = true;
        ctl = FirstControl();
    }
    // the earliest instant (time step) something not yet sent may go (the wire aside)
    int64_t earliest = ctl != m_control.end() || !m_pfcOut.empty() ? now : kNever;
    // the queue pairs round robin from m_rrNext, those that may have something to send only
    std::size_t n = m_qps.size();
    // (m_rrNext is n after the last one sent, more if queue pairs were released since: the
    // remainder only then)
    std::size_t start = m_rrNext < n ? m_rrNext : n ? m_rrNext % n : 0;
    Time nowTime = TimeStep(uint64_t(now));
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
            int64_t t = qp->NextSendTime(nowTime).GetTimeStep();
            if (t <= now && free && !sent)
            {
                m_rrNext = idx + 1;
                TransmitStart(qp->BuildDataPacket());
                sent = true;
                t = qp->NextSendTime(nowTime).GetTimeStep();
            }
            earliest = std::min(earliest, t);
        }
    }
    // one wake-up: when the wire is free and something may go
    WakeAt(earliest == kNever ? earliest : std::max(earliest, TxFreeStep()));
}

void
RoceNic::HandleFrame(const Ptr<FeroceFrame>& frame)
{
    if (!frame->IsRoce())
    {
        HandleMacControl(frame);
        return;
    }
    uint8_t op = PeekPointer(frame)->Fields().bth.opcode;
    bool data = op != FEROCE_OP_ACK && op != FEROCE_OP_CNP;
    if (data && m_software)
    {
        // a CPU-bound receiver: frames wait for the processor, in a bounded buffer
        uint32_t size = frame->GetSize();
        // the data's priority: its VLAN PCP if tagged, else its queue pair's Priority (what the
        // sender's peer QP tags and the switch maps its DSCP to)
        const feroce_roce& f = frame->Fields();
        Ptr<RoceQueuePair> qp = GetQueuePair(f.bth.destqp);
        uint8_t prio = f.eth.vlan ? f.eth.pcp & 7 : qp ? qp->GetPriority() & 7 : 0;
        if (m_rxQueued + size > m_rxBufferSize)
        {
            m_counters.rxOverflowDrops++;
            if (!m_rxDropTrace.IsEmpty())
            {
                m_rxDropTrace(frame->GetPacket());
            }
            return;
        }
        m_rxQueued += size;
        m_rxClassBytes[prio] += size;
        m_counters.rxBufferPeak = std::max<uint64_t>(m_counters.rxBufferPeak, m_rxQueued);
        m_rxBufferTrace(m_rxQueued);
        if (m_rxPfc)
        {
            UpdateRxPfc(prio);
        }
        // time = per-packet cost + bytes / per-byte rate, one frame after the other
        Time now = FeroceSim::Now();
        Time start = std::max(now, m_rxBusyUntil);
        m_rxBusyUntil = start + m_rxPacketCost + m_rxRate.CalculateBytesTxTime(size);
        Simulator::Schedule(m_rxBusyUntil - now, &RoceNic::RxProcessed, this, frame, prio);
        return;
    }
    Deliver(frame);
}

void
RoceNic::Deliver(const Ptr<FeroceFrame>& frame)
{
    const feroce_roce& f = PeekPointer(frame)->Fields();
    uint32_t idx = f.bth.destqp - kFirstQpn;
    if (f.bth.destqp < kFirstQpn || idx >= m_qps.size() || !m_qps[idx])
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
RoceNic::RxProcessed(Ptr<FeroceFrame> frame, uint8_t prio)
{
    m_rxQueued -= frame->GetSize();
    m_rxClassBytes[prio] -= frame->GetSize();
    m_rxBufferTrace(m_rxQueued);
    if (m_rxPfc)
    {
        UpdateRxPfc(prio);
    }
    Deliver(frame);
}

void
RoceNic::UpdateRxPfc(uint8_t prio)
{
    // the core's static-threshold decision, as the switch takes it for an ingress class: per
    // priority for PFC, over the whole buffer for 802.3x
    if (m_rxSendLinkPause)
    {
        Decide(kLinkPause, m_rxQueued);
    }
    if (m_rxSendPfc)
    {
        Decide(prio, m_rxClassBytes[prio]);
    }
}

void
RoceNic::Decide(uint8_t prio, uint64_t bytes)
{
    feroce_pfc_action a = feroce_pfc_decide(&m_rxPfcParams, m_rxPause.IsXoff(prio), bytes, 0);
    if (a == FEROCE_PFC_XOFF)
    {
        m_rxPause.Xoff(prio);
        SendRxPause(prio, m_rxPauseQuanta);
    }
    else if (a == FEROCE_PFC_XON)
    {
        m_rxPause.Xon(prio);
        SendRxPause(prio, 0);
    }
}

void
RoceNic::SendRxPause(uint8_t prio, uint16_t quanta)
{
    bool link = prio == kLinkPause;
    m_pfcOut.push_back(link ? MakeLinkPauseFrame(quanta) : MakePfcFrame(prio, quanta));
    m_pauseSentTrace(prio, quanta);
    if (quanta == 0)
    {
        (link ? m_counters.linkResumeFramesSent : m_counters.resumeFramesSent)++;
    }
    else
    {
        (link ? m_counters.linkPauseFramesSent : m_counters.pauseFramesSent)++;
        m_rxPause.ScheduleRefresh(prio,
                                  GetPfcRefreshInterval(quanta),
                                  &RoceNic::RefreshRxPause,
                                  this);
    }
    TrySend();
}

void
RoceNic::RefreshRxPause(uint8_t prio)
{
    if (m_rxPause.IsXoff(prio))
    {
        SendRxPause(prio, m_rxPauseQuanta);
    }
}

void
RoceNic::HandleMacControl(const Ptr<FeroceFrame>& frame)
{
    PfcHeader pfc;
    LinkPauseHeader pause;
    feroce_frame_kind kind = ReadMacControl(*frame, pfc, pause);
    if (kind == FEROCE_FRAME_LINK_PAUSE)
    {
        if (pause.GetError() == FEROCE_WIRE_OK)
        {
            m_counters.linkPauseFramesReceived++;
            if (!m_obeyLinkPause)
            {
                m_counters.linkPauseFramesIgnored++;
                return;
            }
            ApplyLinkPause(pause.GetQuanta());
            TrySend();
            return;
        }
    }
    if (kind != FEROCE_FRAME_PFC || pfc.GetError() != FEROCE_WIRE_OK)
    {
        m_counters.unknownFrames++;
        m_rxDropTrace(frame->GetPacket());
        return;
    }
    m_counters.pauseFramesReceived++;
    if (!m_obeyPfc)
    {
        m_counters.pauseFramesIgnored++;
        return;
    }
    ApplyPause(pfc);
    TrySend();
}

} // namespace ns3
