/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_NIC_H
#define ROCE_NIC_H

#include "feroce-net-device.h"
#include "roce-queue-pair.h"

#include "ns3/dcqcn-reaction-point.h"
#include "ns3/event-id.h"
#include "ns3/feroce-cp.h"
#include "ns3/feroce-np.h"
#include "ns3/feroce-rp-fixed.h"
#include "ns3/feroce-rp.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"

#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A RoCEv2 NIC: RC queue pairs over one Ethernet port, DCQCN paced.
 *
 * Transmit order: ACK, NAK and CNP frames first, then the eligible queue
 * pairs round robin; a QP is eligible when it has a packet, its rate
 * limiter allows it, its window is open and its priority is not paused.
 * One wake-up at a time, at the earliest instant something can go: the end
 * of the frame on the wire or the next paced send, whichever is later.
 * PFC PAUSE frames from the link pause priorities for their quanta (512 bit
 * times each; 0 resumes) unless PfcHonour is false (a MAC without PFC).
 * PauseHonour says which pause frames the MAC obeys: pfc (802.1Qbb, per
 * priority), 802.3x (link-level PAUSE, opcode 0x0001: everything the port
 * sends stops, ACKs and CNPs included, but its own MAC control frames), both
 * or none; empty: what PfcHonour says (pfc or none).  The AdvCam boards'
 * MAC (SURF's EthMacRxPause) obeys 802.3x only.
 * DCQCN: each QP runs a reaction point with the parameters of the
 * ReactionPoint attribute (or the preset DcqcnPreset, scaled to DataRate);
 * the receive side answers CE marks with CNPs moderated by the notification
 * point (CnpInterval, per QP or per port).  With DcqcnEnabled false, QPs
 * send at line rate and no CNP is sent.  FixedPointFormat runs every QP's
 * reaction point in a firmware's integer arithmetic (feroce-rp-fixed.h)
 * instead of double precision.
 *
 * Receiver models (ReceiverModel, src/feroce/doc/receiver.md): hardware
 * (ConnectX) processes what arrives at line rate; software (Soft-RoCE, the
 * kernel's rxe on a CPU) spends RxPacketCost + bytes x 8 / RxProcessingRate
 * on each data frame, one at a time, while later frames wait in a receive
 * buffer of RxBufferSize bytes.  When it is full a frame is dropped (the
 * sender's go-back-N recovers it), unless RxPfc sends PFC PAUSE upstream
 * for the frame's priority when that priority holds more than RxXoffBytes
 * (XON at RxXonBytes), keeping GetPfcHeadroom() bytes for what is in flight,
 * as a switch port does (PAUSE of RxPauseQuanta, refreshed at half its time);
 * with RxPauseFrames 802.3x it sends link-level PAUSE instead, for the whole
 * buffer (or both kinds).
 */
class RoceNic : public FeroceNetDevice
{
  public:
    static TypeId GetTypeId();

    RoceNic();
    ~RoceNic() override;

    /// NICs live in the FeroceArena, on huge pages where the system gives them, as their queue
    /// pairs do: every packet visits two to four of a large camera's thousand NICs.
    static void* operator new(std::size_t size);
    static void operator delete(void* p, std::size_t size);

    /// Create a queue pair with the QueuePair attributes (RoceQueuePair defaults overridden by
    /// SetQueuePairAttribute).  The defaults are read when the NIC creates its first queue pair
    /// (and its first after a SetQueuePairAttribute): the later ones copy its attribute values.
    Ptr<RoceQueuePair> CreateQueuePair();
    /// Attributes for the queue pairs this NIC creates from now on.
    void SetQueuePairAttribute(std::string name, const AttributeValue& value);
    /**
     * Destroy a queue pair: it sends and receives nothing more (its timers cancelled), the NIC
     * drops its reference, and frames for its number are counted unknown.  Its number goes to
     * a later CreateQueuePair once QpnReuseDelay has passed, so that frames of the old
     * connection still in the fabric find no queue pair; memory then follows the queue pairs
     * alive, not those ever made.  Call it outside the queue pair's own callbacks.
     */
    void ReleaseQueuePair(Ptr<RoceQueuePair> qp);
    /// The queue pair of this number, or null (none, or released).
    Ptr<RoceQueuePair> GetQueuePair(uint32_t qpn) const;
    /// Queue pairs alive (created and not released).
    uint32_t GetNQueuePairs() const;
    /// The i-th queue pair alive, in order of number (i < GetNQueuePairs()).
    Ptr<RoceQueuePair> GetQueuePairByIndex(uint32_t i) const;

    Ipv4Address GetIpv4Address() const;
    void SetIpv4Address(Ipv4Address address);
    bool IsDcqcnEnabled() const;
    /// Which pause frames the MAC obeys (PauseHonour resolved by Validate).
    bool ObeysPfc() const;
    bool ObeysLinkPause() const;

    /**
     * Check every parameter (DCQCN reaction and notification point, PFC,
     * priorities).  Returns "" or a message naming the parameter, its value
     * and what is allowed.  Also run, fatally, before the first packet.
     */
    std::string Validate();

    /// Device counters.
    struct Counters
    {
        uint64_t cnpsSent{0};
        uint64_t cnpsReceived{0};
        uint64_t pauseFramesReceived{0};
        uint64_t pauseFramesIgnored{0};      ///< received while PFC is not obeyed (PauseHonour)
        uint64_t linkPauseFramesReceived{0}; ///< 802.3x PAUSE frames (opcode 0x0001)
        uint64_t linkPauseFramesIgnored{0};  ///< received while 802.3x is not obeyed
        uint64_t rxOverflowDrops{0};         ///< receive buffer full (software receiver)
        uint64_t unknownFrames{0};           ///< not RoCEv2 for a known QP, nor PFC
        uint64_t qpErrorDrops{0}; ///< RoCEv2 for a queue pair not in RTS (the error state)
        uint64_t qpErrors{0};
        uint64_t pauseFramesSent{0};  ///< PAUSE (quanta > 0) sent upstream for the receive buffer
        uint64_t resumeFramesSent{0}; ///< XON (quanta 0) sent upstream
        uint64_t linkPauseFramesSent{0};  ///< 802.3x PAUSE (quanta > 0) sent (RxPauseFrames)
        uint64_t linkResumeFramesSent{0}; ///< 802.3x PAUSE of 0 quanta sent
        uint64_t rxBufferPeak{0};         ///< most bytes ever in the receive buffer
    };

    const Counters& GetCounters() const;
    /// Bytes waiting in the receive buffer now (software receiver).
    uint32_t GetRxBufferBytes() const;
    /// Time this NIC has kept its upstream paused for prio (XOFF to XON), so far.
    Time GetUpstreamPausedTime(uint8_t prio) const;
    /// The largest data frame the queue pairs' Pmtu gives, in bytes (without FCS).
    uint32_t GetMaxDataFrame() const;

    typedef void (*PauseSentTracedCallback)(uint8_t priority, uint16_t quanta);
    typedef void (*QpErrorTracedCallback)(uint32_t qpn);
    typedef void (*RxBufferTracedCallback)(uint32_t bytes);

  protected:
    void DoInitialize() override;
    void DoDispose() override;
    void TrySend() override;
    void HandleFrame(const Ptr<FeroceFrame>& frame) override;

  private:
    friend class RoceQueuePair;

    void Start();
    /// Cancel a queue pair's timers and cut it from the NIC (release, dispose).
    static void Detach(const Ptr<RoceQueuePair>& qp);
    void SendControl(Ptr<FeroceFrame> frame, uint8_t priority);
    /// A frame that is not RoCEv2: PFC, 802.3x PAUSE, or unknown.
    void HandleMacControl(const Ptr<FeroceFrame>& frame);
    /// The PauseHonour and RxPauseFrames checks of Validate.
    std::string ValidatePause();
    void RxProcessed(Ptr<FeroceFrame> frame, uint8_t prio);
    /// The receive-buffer checks of Validate.
    std::string ValidateReceiver();
    /// "" unless a PFC threshold is set while the receive buffer sends no PFC.
    std::string CheckRxPfcUnused() const;
    /// XOFF or XON for prio after its receive-buffer bytes changed (RxPfc).
    void UpdateRxPfc(uint8_t prio);
    /// XOFF or XON for m_rxPause[prio] holding bytes.
    void Decide(uint8_t prio, uint64_t bytes);
    /// A PAUSE (or XON) for prio: PFC, or for kLinkPause an 802.3x PAUSE.
    void SendRxPause(uint8_t prio, uint16_t quanta);
    void RefreshRxPause(uint8_t prio);
    static const uint8_t kLinkPause = PauseSender::kLink; ///< the 802.3x PAUSE's entry
    /// Hand a RoCEv2 frame to its queue pair (or count it unknown).
    void Deliver(const Ptr<FeroceFrame>& frame);
    feroce_np_state* GetPortNpState();
    void NotifyQpError(uint32_t qpn);
    /// The queue pair may have packets to send again (posted, or rewound): TrySend looks at it.
    void NotifySendable(uint32_t qpn);
    /// The first index in [from, to) whose m_sendable bit is set, or `to`.
    std::size_t NextSendable(std::size_t from, std::size_t to) const;

    struct ControlFrame
    {
        Ptr<FeroceFrame> frame;
        uint8_t priority;
    };

    /// The first control frame of a priority not paused (most calls find the front one, or
    /// none: a plain loop, not find_if's unrolled one over the deque's iterators).
    std::deque<ControlFrame>::iterator FirstControl()
    {
        auto it = m_control.begin();
        while (it != m_control.end() && IsPaused(it->priority))
        {
            ++it;
        }
        return it;
    }

    // What a frame's visit reads comes first, together: a large fabric's thousand NICs are
    // visited in turn, so each visit starts cold and pays for every line it touches.
    std::vector<Ptr<RoceQueuePair>> m_qps; ///< by number - kFirstQpn; null: released
    std::vector<uint64_t> m_sendable;      ///< bit i: m_qps[i] may have a packet to send
    std::size_t m_rrNext{0};
    bool m_dcqcnEnabled{true};
    bool m_software{false};    ///< ReceiverModel is software (set by Validate)
    bool m_holdTrySend{false}; ///< an ACK's completions are running: TrySend after them
    bool m_started{false};
    bool m_fixedPoint{false};    ///< the QPs run m_rpFixed
    bool m_obeyPfc{true};        ///< PauseHonour resolved (Validate)
    bool m_obeyLinkPause{false}; ///< PauseHonour resolved (Validate)
    uint8_t m_cnpPriority{7};
    uint8_t m_cnpDscp{48};
    std::deque<ControlFrame> m_control;
    std::deque<Ptr<FeroceFrame>> m_pfcOut; ///< PAUSE and XON frames, sent before anything else
    feroce_np_params m_np;
    feroce_np_state m_portNp;
    Counters m_counters;
    std::vector<RoceCompletion> m_completedScratch; ///< RoceQueuePair::AcknowledgeUpTo's list

    // configuration, and the software receiver's state
    Ipv4Address m_ipv4;
    std::string m_dcqcnPreset;
    std::string m_fixedPointFormat;
    Ptr<DcqcnReactionPoint> m_rpConfig;
    Time m_cnpInterval;
    std::string m_cnpScope;
    bool m_pfcHonour{true};
    std::string m_pauseHonour;
    std::string m_rxPauseFrames;
    bool m_rxSendPfc{true}; ///< RxPauseFrames resolved (Validate)
    bool m_rxSendLinkPause{false};
    std::string m_receiverModel;
    DataRate m_rxRate;
    Time m_rxPacketCost;
    uint32_t m_rxBufferSize;
    bool m_rxPfc;
    uint32_t m_rxXoff;
    uint32_t m_rxXon;
    uint16_t m_rxPauseQuanta;
    feroce_pfc_params m_rxPfcParams{}; ///< the receive buffer's thresholds (RxPfc)

    QpRateLimiter::Model m_rlModel{}; ///< the queue pairs' (set by Start, from the two below)
    feroce_rp_params m_rp;
    feroce_rp_fixed_params m_rpFixed;
    ObjectFactory m_qpFactory;
    /// The attribute values m_qpFactory gave (a queue pair never set up); null until the first
    /// CreateQueuePair and after SetQueuePairAttribute
    Ptr<RoceQueuePair> m_qpPrototype;
    uint32_t m_liveQps{0};
    /// Released numbers (their index in m_qps) and when each may be reused, oldest first.
    std::deque<std::pair<uint32_t, Time>> m_freeQpns;
    Time m_qpnReuseDelay;
    uint32_t m_qpPmtu; ///< the Pmtu the queue pairs get (checked by Validate)

    Time m_rxBusyUntil;
    uint32_t m_rxQueued;
    uint32_t m_rxClassBytes[8]{}; ///< receive-buffer bytes per priority

    PauseSender m_rxPause; ///< per priority; [kLinkPause]: the 802.3x PAUSE of the whole buffer
    TracedCallback<uint8_t, uint16_t> m_pauseSentTrace;
    TracedCallback<uint32_t> m_rxBufferTrace;
    TracedCallback<uint32_t> m_qpErrorTrace;
    TracedCallback<Ptr<const Packet>> m_rxDropTrace;
};

} // namespace ns3

#endif /* ROCE_NIC_H */
