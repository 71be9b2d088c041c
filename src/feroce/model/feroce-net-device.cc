/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-net-device.h"

#include "feroce-channel.h"
#include "link-pause-header.h"
#include "pfc-header.h"

#include "ns3/feroce-pooled-event.h"
#include "ns3/feroce-sim.h"
#include "ns3/feroce-wire.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FeroceNetDevice);

TypeId
FeroceNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FeroceNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Feroce")
            .AddAttribute(
                "DataRate",
                "Line rate of the port",
                DataRateValue(DataRate("10Gbps")),
                MakeDataRateAccessor(&FeroceNetDevice::SetDataRate, &FeroceNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest IPv4 packet in bytes (PMTU 4096 needs 4160)",
                          UintegerValue(4200),
                          MakeUintegerAccessor(&FeroceNetDevice::SetMtu, &FeroceNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("ReceiveErrorModel",
                          "Drops received frames it corrupts (loss injection)",
                          PointerValue(),
                          MakePointerAccessor(&FeroceNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("Sniffer",
                            "Every frame sent or received, as on the wire without FCS",
                            MakeTraceSourceAccessor(&FeroceNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Same frames as Sniffer (a port sees only its own link)",
                            MakeTraceSourceAccessor(&FeroceNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A frame the receive error model dropped",
                            MakeTraceSourceAccessor(&FeroceNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Pause",
                            "A PFC frame from the peer paused (quanta > 0) or resumed (0) a "
                            "priority",
                            MakeTraceSourceAccessor(&FeroceNetDevice::m_pauseTrace),
                            "ns3::FeroceNetDevice::PauseTracedCallback")
            .AddTraceSource("LinkPause",
                            "An 802.3x PAUSE from the peer held the link (quanta > 0) or released "
                            "it (0)",
                            MakeTraceSourceAccessor(&FeroceNetDevice::m_linkPauseTrace),
                            "ns3::FeroceNetDevice::LinkPauseTracedCallback");
    return tid;
}

FeroceNetDevice::FeroceNetDevice()
    : m_rxFrames(0),
      m_rxBytes(0),
      m_txFreeAt(0),
      m_wakeAt(kNever),
      m_bitRate(0),
      m_rateMagic(0),
      m_rateShift(0),
      m_txCarry(0),
      m_stepsPerNs(NanoSeconds(1).GetTimeStep()),
      m_txFrames(0),
      m_txBytes(0),
      m_nodeId(Simulator::NO_CONTEXT),
      m_ifIndex(0),
      m_address(Mac48Address::Allocate()),
      m_mtu(4200),
      m_rxErrorDrops(0)
{
    NS_LOG_FUNCTION(this);
    m_wakeEvent.run = &FeroceNetDevice::RunWake;
    m_wakeEvent.drop = nullptr;
    m_wakeEvent.ahead[0] = this;
    m_wakeEvent.ahead[1] = SubclassHead();
    SetAheadOwner(nullptr);
    m_pause.SetResumeCallback(MakeCallback(&FeroceNetDevice::TrySend, this));
}

FeroceNetDevice::~FeroceNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceNetDevice::DoDispose()
{
    if (m_wakeAt != kNever)
    {
        FeroceSim::RemoveEvent(m_wake, &m_wakeEvent);
    }
    m_wakeAt = kNever;
    m_pause.Cancel();
    m_node = nullptr;
    m_channel = nullptr;
    m_far = FeroceFarEnd();
    m_receiveErrorModel = nullptr;
    m_linkChange.clear();
    NetDevice::DoDispose();
}

bool
FeroceNetDevice::Attach(Ptr<FeroceChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    return true;
}

uint32_t
FeroceNetDevice::WireBytes(uint32_t frameBytes)
{
    return feroce_wire_bytes(frameBytes);
}

uint64_t
FeroceNetDevice::GetPfcHeadroom() const
{
    double rate = double(m_bitRate);
    double delay = m_channel ? m_channel->GetDelay().GetSeconds() : 0;
    uint64_t maxFrame = WireBytes(m_mtu + FEROCE_ETH_LEN + FEROCE_VLAN_LEN);
    return uint64_t(std::ceil(2 * delay * rate / 8)) + 2 * maxFrame +
           WireBytes(FEROCE_PFC_FRAME_LEN);
}

Ptr<FeroceFrame>
FeroceNetDevice::MakePfcFrame(uint8_t prio, uint16_t quanta) const
{
    PfcHeader pfc;
    pfc.SetSource(m_address);
    pfc.SetPause(prio, quanta);
    return FeroceFrame::MakePfc(pfc.Fields());
}

Ptr<FeroceFrame>
FeroceNetDevice::MakeLinkPauseFrame(uint16_t quanta) const
{
    LinkPauseHeader pause;
    pause.SetSource(m_address);
    pause.SetQuanta(quanta);
    return FeroceFrame::MakeLinkPause(pause.Fields());
}

feroce_frame_kind
FeroceNetDevice::ReadMacControl(const FeroceFrame& frame, PfcHeader& pfc, LinkPauseHeader& pause)
{
    feroce_frame_kind kind = frame.MadeControl();
    if (kind == FEROCE_FRAME_PFC)
    {
        pfc = PfcHeader(frame.Pfc());
        return kind;
    }
    if (kind == FEROCE_FRAME_LINK_PAUSE)
    {
        pause = LinkPauseHeader(frame.LinkPause());
        return kind;
    }
    uint8_t head[FEROCE_ETH_LEN + 2]; // EtherType and MAC-control opcode
    if (frame.IsRoce() || frame.GetSize() < sizeof(head))
    {
        return FEROCE_FRAME_OTHER;
    }
    Ptr<Packet> packet = frame.GetPacket();
    packet->CopyData(head, sizeof(head));
    kind = feroce_frame_classify(head, sizeof(head));
    if (kind == FEROCE_FRAME_PFC)
    {
        pfc.PeekFrom(*packet);
    }
    else if (kind == FEROCE_FRAME_LINK_PAUSE)
    {
        pause.PeekFrom(*packet);
    }
    return kind;
}

Time
FeroceNetDevice::GetPfcRefreshInterval(uint16_t quanta) const
{
    return NanoSeconds(feroce_pfc_quanta_ns(quanta, m_bitRate) / 2);
}

void
FeroceNetDevice::TransmitStart(const Ptr<FeroceFrame>& frame)
{
    int64_t now = FeroceSim::NowStep();
    NS_ASSERT_MSG(now >= m_txFreeAt, "FeroceNetDevice: transmit while the wire is busy");
    uint32_t size = frame->GetSize();
    uint64_t scaled = uint64_t(WireBytes(size)) * 8 * 1000000000ULL + m_txCarry;
    uint64_t ns = DivideByRate(scaled);
    m_txCarry = scaled - ns * m_bitRate;
    int64_t txTime = m_stepsPerNs ? int64_t(ns) * m_stepsPerNs : FromNs(int64_t(ns)).GetTimeStep();
    m_txFreeAt = now + txTime;
    m_txFrames++;
    m_txBytes += size;
    // the frame's bytes are built only for someone who looks at them
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame->GetPacket());
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame->GetPacket());
    }
    if (m_far.device)
    {
        FeroceChannel::Send(m_far, frame, txTime);
    }
}

void
FeroceNetDevice::WakeAt(int64_t at)
{
    if (at == m_wakeAt)
    {
        return;
    }
    if (m_wakeAt != kNever)
    {
        // removed, not cancelled: a cancelled event still costs the scheduler one event
        FeroceSim::RemoveEvent(m_wake, &m_wakeEvent);
    }
    m_wakeAt = at;
    if (at != kNever)
    {
        FeroceSim::ScheduleSteps(uint64_t(at - FeroceSim::NowStep()), &m_wakeEvent, m_wake);
    }
}

void
FeroceNetDevice::SetFarEnd(const FeroceFarEnd& far)
{
    m_far = far;
}

void
FeroceNetDevice::SetAheadOwner(const void* owner)
{
    m_wakeEvent.ahead[3] = owner ? owner : this;
    if (m_channel)
    {
        m_channel->UpdateFarEnds(); // attached before it had its owner
    }
}

void
FeroceNetDevice::RunWake(FeroceEvent* event)
{
    static_cast<FeroceNetDevice*>(const_cast<void*>(event->ahead[0]))->Wake();
}

void
FeroceNetDevice::Wake()
{
    m_wakeAt = kNever;
    TrySend();
}

void
FeroceNetDevice::Receive(Ptr<Packet> p)
{
    ReceiveFrame(FeroceFrame::FromPacket(p));
}

void
FeroceNetDevice::ReceiveFrame(const Ptr<FeroceFrame>& frame)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame->GetPacket()))
    {
        NS_LOG_LOGIC("error model drops a frame of " << frame->GetSize() << " B");
        m_rxErrorDrops++;
        m_phyRxDropTrace(frame->GetPacket());
        return;
    }
    m_rxFrames++;
    m_rxBytes += PeekPointer(frame)->GetSize(); // the channel's frames are never null
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame->GetPacket());
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame->GetPacket());
    }
    HandleFrame(frame);
}

DataRate
FeroceNetDevice::GetDataRate() const
{
    return DataRate(m_bitRate);
}

void
FeroceNetDevice::SetDataRate(DataRate rate)
{
    m_bitRate = rate.GetBitRate(); // kept as an integer: read per frame, no call into ns-3
    // A frame's time divides by the rate; a division by an invariant is a multiply (Granlund
    // and Montgomery, PLDI 1994, theorem 4.2): with l = ceil(log2 rate) and m = ceil(2^(63+l) /
    // rate), floor(x / rate) = floor(x * m / 2^(63+l)) for every x < 2^63; m fits 64 bits
    // for rate >= 2.
    m_rateMagic = 0;
    m_rateShift = 0;
#ifdef __SIZEOF_INT128__
    if (m_bitRate >= 2)
    {
        unsigned l = 64 - unsigned(__builtin_clzll(m_bitRate - 1));
        __uint128_t m = (__uint128_t(1) << (63 + l)) / m_bitRate + 1;
        if ((__uint128_t(1) << (63 + l)) % m_bitRate == 0)
        {
            m--; // exact: the ceiling is the quotient
        }
        if (m >> 64 == 0)
        {
            m_rateMagic = uint64_t(m);
            m_rateShift = uint8_t(l - 1);
        }
    }
#endif
}

bool
FeroceNetDevice::IsTransmitting() const
{
    return FeroceSim::NowStep() < m_txFreeAt;
}

uint64_t
FeroceNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
FeroceNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
FeroceNetDevice::GetRxFrames() const
{
    return m_rxFrames;
}

uint64_t
FeroceNetDevice::GetRxBytes() const
{
    return m_rxBytes;
}

uint64_t
FeroceNetDevice::GetRxErrorDrops() const
{
    return m_rxErrorDrops;
}

Mac48Address
FeroceNetDevice::GetMacAddress() const
{
    return m_address;
}

void
FeroceNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FeroceNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FeroceNetDevice::GetChannel() const
{
    return m_channel;
}

void
FeroceNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FeroceNetDevice::GetAddress() const
{
    return m_address;
}

bool
FeroceNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
FeroceNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FeroceNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_channel->IsUp();
}

void
FeroceNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChange.push_back(callback);
}

void
FeroceNetDevice::NotifyLinkChange()
{
    for (auto& cb : m_linkChange)
    {
        cb();
    }
}

bool
FeroceNetDevice::IsBroadcast() const
{
    return true;
}

Address
FeroceNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FeroceNetDevice::IsMulticast() const
{
    return false;
}

Address
FeroceNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FeroceNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FeroceNetDevice::IsPointToPoint() const
{
    return true;
}

bool
FeroceNetDevice::IsBridge() const
{
    return false;
}

bool
FeroceNetDevice::Send(Ptr<Packet> /* packet */, const Address& /* dest */, uint16_t /* protocol */)
{
    NS_LOG_WARN("FeroceNetDevice carries RoCEv2 frames of its own; Send() from a protocol stack is "
                "refused");
    return false;
}

bool
FeroceNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& /* source */,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
FeroceNetDevice::GetNode() const
{
    return m_node;
}

void
FeroceNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node ? node->GetId() : Simulator::NO_CONTEXT;
    if (m_channel)
    {
        m_channel->UpdateFarEnds(); // attached before it had its node
    }
}

bool
FeroceNetDevice::NeedsArp() const
{
    return false;
}

void
FeroceNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
}

void
FeroceNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
FeroceNetDevice::SupportsSendFrom() const
{
    return false;
}

Time
FeroceNetDevice::GetPausedTime(uint8_t prio) const
{
    return m_pause.GetPausedTime(prio);
}

Time
FeroceNetDevice::GetLinkPausedTime() const
{
    return m_pause.GetLinkPausedTime();
}

void
FeroceNetDevice::ApplyLinkPause(uint16_t quanta)
{
    m_pause.ApplyLink(quanta, m_bitRate);
    m_linkPauseTrace(quanta);
}

void
FeroceNetDevice::ApplyPause(const PfcHeader& pfc)
{
    m_pause.Apply(pfc, m_bitRate);
    for (uint8_t prio = 0; prio < 8; prio++)
    {
        if (pfc.IsEnabled(prio))
        {
            m_pauseTrace(prio, pfc.GetQuanta(prio));
        }
    }
}

} // namespace ns3
