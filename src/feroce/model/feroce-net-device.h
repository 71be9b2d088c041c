/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_NET_DEVICE_H
#define FEROCE_NET_DEVICE_H

#include "feroce-frame.h"
#include "pfc-pause-state.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/feroce-sim.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FeroceChannel;
class FeroceNetDevice;
class LinkPauseHeader;
class Node;
class PfcHeader;

/**
 * \ingroup feroce
 * \brief What a RoCE NIC and a switch port share: an Ethernet port on a
 * FeroceChannel that serializes one frame at a time at its DataRate.
 *
 * A frame of L bytes (without FCS) occupies the wire for max(L, 60) + 24
 * bytes: preamble and SFD 8, FCS 4, inter-frame gap 12 (src/feroce/doc/rocev2-wire.md).
 * Serialization times carry their sub-nanosecond remainder from frame to
 * frame, so a saturated link runs at exactly its DataRate.  Each frame costs
 * one receive event at the peer.  There is no transmit-complete event: the
 * device remembers when the wire becomes free, a frame offered to a free
 * wire starts at once, and a subclass that has something to send while the
 * wire is busy (or that must wait, e.g. for its rate limiter) asks for one
 * wake-up (WakeAt) at the time it can send; frames waiting for the wire thus
 * start back to back at the instant the previous one ends.  Subclasses decide
 * what to send (TrySend, also run by the wake-up) and what a received frame
 * means (HandleFrame).  Pcap: the Sniffer trace sees every frame sent and
 * received, as on the wire without FCS.  PFC: the priorities the peer's PFC
 * frames paused (ApplyPause, IsPaused; a pause that ends by itself runs
 * TrySend) and the Pause trace; an 802.3x PAUSE holds every priority
 * (ApplyLinkPause, IsLinkPaused, the LinkPause trace).  Link state: the
 * channel's (IsLinkUp), with the link-change callbacks run at each change.
 */
/**
 * \ingroup feroce
 * What a device's frames need of the far end of its link: FeroceChannel writes it into each end
 * at every change (an end attached, its node or owner, the delay, the link's state), so that a
 * frame's send reads the device only.
 */
struct FeroceFarEnd
{
    FeroceNetDevice* device{nullptr}; ///< null: no far end (a frame sent goes nowhere)
    const void* owner{nullptr};       ///< its AheadOwner
    int64_t delaySteps{0};            ///< the link's propagation delay, in time steps
    uint32_t node{0};                 ///< its node's id: the context of the frames' arrival
    uint32_t epoch{0};                ///< the link's epoch: a frame sent in another one is lost
};

class alignas(64) FeroceNetDevice : public NetDevice
{
  public:
    static TypeId GetTypeId();

    FeroceNetDevice();
    ~FeroceNetDevice() override;

    bool Attach(Ptr<FeroceChannel> channel);
    /// A frame arrives from the channel (its last bit, now).
    void Receive(Ptr<Packet> p);
    /// A frame from the channel, at the end of its last bit.
    void ReceiveFrame(const Ptr<FeroceFrame>& frame);
    /// The channel went down or came back: the link-change callbacks run.
    void NotifyLinkChange();
    /// The far end of the link as it is now (FeroceChannel tells each end at every change).
    void SetFarEnd(const FeroceFarEnd& far);

    DataRate GetDataRate() const;
    void SetDataRate(DataRate rate);

    /// Where a subclass's members begin (the class is line-aligned: its subclasses put what a
    /// frame's visit reads first), fetched ahead with the device's first five lines.
    const void* SubclassHead() const
    {
        return reinterpret_cast<const char*>(this) + sizeof(FeroceNetDevice);
    }

    /// What the device belongs to, whose first four lines its events read (a switch port's
    /// switch), fetched ahead with it; the device itself until set.
    const void* AheadOwner() const
    {
        return m_wakeEvent.ahead[3];
    }

    /// Its node's id (the context of events at this device), without a Ptr copy.
    uint32_t GetNodeId() const
    {
        return m_nodeId;
    }

    /// A frame is on the wire now (it started before now and ends after now).
    bool IsTransmitting() const;

    /// When the wire is free again (the end of the last frame started; in the past when idle).
    Time GetTxFreeAt() const
    {
        return TimeStep(uint64_t(m_txFreeAt));
    }

    /// Now in whole nanoseconds, as FeroceSim::Now().GetNanoSeconds() (without ns-3's unit
    /// lookup per call).
    int64_t NowNs() const
    {
        int64_t steps = FeroceSim::NowStep();
        return m_stepsPerNs ? steps / m_stepsPerNs : FeroceSim::Now().GetNanoSeconds();
    }

    /// A time of whole nanoseconds, as NanoSeconds(ns).
    Time FromNs(int64_t ns) const
    {
        return m_stepsPerNs ? TimeStep(uint64_t(ns * m_stepsPerNs)) : NanoSeconds(ns);
    }

    /// Bytes one frame of this size occupies on the wire.
    static uint32_t WireBytes(uint32_t frameBytes);
    /**
     * The headroom, in bytes, a PFC sender on this port needs per lossless
     * priority: what may still arrive after it decides XOFF (the PAUSE's own
     * frame time, a frame the peer has started, the link's round trip, and
     * the frame being received when the PAUSE leaves; IEEE 802.1Qbb annex N
     * style).  The switch's ports and the NIC's receive buffer use it alike.
     */
    uint64_t GetPfcHeadroom() const;
    /// A PFC frame from this port pausing prio for quanta (0: resume, XON).
    Ptr<FeroceFrame> MakePfcFrame(uint8_t prio, uint16_t quanta) const;
    /// An 802.3x PAUSE frame from this port pausing the whole link for quanta (0: resume).
    Ptr<FeroceFrame> MakeLinkPauseFrame(uint16_t quanta) const;
    /**
     * What a frame is as MAC control: FEROCE_FRAME_PFC (decoded into pfc),
     * FEROCE_FRAME_LINK_PAUSE (into pause) or anything else (FEROCE_FRAME_OTHER,
     * FEROCE_FRAME_ROCE for bytes that look like RoCEv2); the header's GetError
     * says whether it decoded.  A frame made by MakePfcFrame or
     * MakeLinkPauseFrame is read from its fields (no ns3::Packet is built), one
     * given as bytes from them.
     */
    static feroce_frame_kind ReadMacControl(const FeroceFrame& frame,
                                            PfcHeader& pfc,
                                            LinkPauseHeader& pause);
    /// A PAUSE of quanta sent on this port is refreshed after this while XOFF lasts: half its
    /// time, so the peer never resumes on its own.
    Time GetPfcRefreshInterval(uint16_t quanta) const;

    uint64_t GetTxFrames() const;
    uint64_t GetTxBytes() const;
    uint64_t GetRxFrames() const;
    uint64_t GetRxBytes() const;
    /// Frames the receive error model dropped.
    uint64_t GetRxErrorDrops() const;

    /// The peer's PFC frames have paused this priority (it is not sent).
    bool IsPaused(uint8_t prio) const
    {
        return m_pause.IsPaused(prio);
    }

    /// Bit p: the peer's PAUSE may hold priority p (bit 8: the link); IsPaused is false for
    /// every other priority.
    uint16_t MaybePaused() const
    {
        return m_pause.MaybePaused();
    }

    /// Time the peer's PFC frames have kept this priority paused, so far.
    Time GetPausedTime(uint8_t prio) const;

    /// The peer's 802.3x PAUSE holds the whole link now (IsPaused is then true for every priority).
    bool IsLinkPaused() const
    {
        return m_pause.IsLinkPaused();
    }

    /// Time the peer's 802.3x PAUSE frames have held the link, so far.
    Time GetLinkPausedTime() const;

    typedef void (*PauseTracedCallback)(uint8_t priority, uint16_t quanta);
    typedef void (*LinkPauseTracedCallback)(uint16_t quanta);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

    /**
     * A frame may start now: the wire is free, and no wake-up is due at this
     * very instant for the end of the last frame (frames that waited for the
     * wire start in that wake-up, as they would in a transmit-complete
     * event, whatever else happens at the same instant before it).
     */
    bool CanTransmit() const
    {
        int64_t now = FeroceSim::NowStep();
        // one test, not a chain of branches the predictor misses
        return (now > m_txFreeAt) | ((now == m_txFreeAt) & (m_wakeAt != now));
    }

    /// Time::Max() in time steps: no wake-up (WakeAt).
    static const int64_t kNever = INT64_MAX;

    /// GetTxFreeAt() in time steps.
    int64_t TxFreeStep() const
    {
        return m_txFreeAt;
    }

    /// Start serializing a whole frame now; the wire must be free.  (Frames pass by reference
    /// down to the arrival, which holds the one reference of its own: ns-3's Ptr has no move.)
    void TransmitStart(const Ptr<FeroceFrame>& frame);
    /**
     * Run TrySend at time step `at` (not before now): the one pending wake-up
     * of the device moves there, or is cancelled with kNever.  A subclass
     * keeps it at the earliest time it can send something (at least
     * TxFreeStep()), so each frame that waits costs one event.
     */
    void WakeAt(int64_t at);
    /// Send what may be sent now, if the wire is free; then WakeAt the next chance.
    virtual void TrySend() = 0;
    /// A frame arrived intact.
    virtual void HandleFrame(const Ptr<FeroceFrame>& frame) = 0;
    /// A valid PFC frame from the peer, honoured now: pause or resume each priority it enables.
    void ApplyPause(const PfcHeader& pfc);
    /// A valid 802.3x PAUSE from the peer, honoured now: the whole link for its quanta.
    void ApplyLinkPause(uint16_t quanta);
    /// AheadOwner: what the device belongs to (null: the device itself).
    void SetAheadOwner(const void* owner);
    Mac48Address GetMacAddress() const;

  private:
    static void RunWake(FeroceEvent* event);

    /// x / m_bitRate, exact: a multiply by its reciprocal for x < 2^63 (every frame's).
    uint64_t DivideByRate(uint64_t x) const
    {
#ifdef __SIZEOF_INT128__
        if (m_rateMagic && x >> 63 == 0)
        {
            return uint64_t(__uint128_t(x) * m_rateMagic >> 64) >> m_rateShift;
        }
#endif
        return x / m_bitRate; // (without 128-bit integers, m_rateMagic stays 0)
    }

    void Wake();

    // What a frame's send (TransmitStart, WakeAt) and arrival (ReceiveFrame) read, in five
    // cache lines from the object's head (the class is line-aligned; its vtable pointer, read by
    // TrySend and HandleFrame, is in the first): the arrival's, the traces both read and the
    // wake-up's time, the send's, the wake-up, and the far end beside the pause bits (a switch's
    // egress port, not fetched ahead, sends a frame from the second, third and fifth: the first
    // trace starts a line)
    Ptr<ErrorModel> m_receiveErrorModel;
    uint64_t m_rxFrames;
    uint64_t m_rxBytes;
    alignas(64) TracedCallback<Ptr<const Packet>> m_snifferTrace;
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;
    int64_t m_txFreeAt;   ///< end of the last frame started, in time steps
    int64_t m_wakeAt;     ///< the wake-up's time step; kNever when none is pending
    uint64_t m_bitRate;   ///< the line rate (DataRate attribute) in bit/s
    uint64_t m_rateMagic; ///< x / m_bitRate as a multiply (DivideByRate); 0: a division
    uint8_t m_rateShift;  ///< DivideByRate's shift of the product's high half
    uint64_t m_txCarry;   ///< remainder of bits * 1e9 / rate from earlier frames
    int64_t m_stepsPerNs; ///< time steps in a nanosecond (0 with a resolution coarser than 1 ns)
    uint64_t m_txFrames;
    uint64_t m_txBytes;
    FeroceEvent m_wakeEvent; ///< the wake-up (TrySend), one at a time; ahead[0]: the device
    FeroceFarEnd m_far;      ///< where TransmitStart's frames go
    PfcPauseState m_pause;   ///< IsPaused: read per frame sent
    Ptr<FeroceChannel> m_channel;
    Ptr<Node> m_node;
    uint32_t m_nodeId;
    uint32_t m_ifIndex;
    Mac48Address m_address;
    uint16_t m_mtu;
    FeroceEventId m_wake; ///< the wake-up's id under another SimulatorImpl
    uint64_t m_rxErrorDrops;
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;
    TracedCallback<uint8_t, uint16_t> m_pauseTrace;
    TracedCallback<uint16_t> m_linkPauseTrace;
    std::vector<Callback<void>> m_linkChange;
};

} // namespace ns3

#endif /* FEROCE_NET_DEVICE_H */
