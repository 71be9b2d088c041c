/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_QUEUE_PAIR_H
#define ROCE_QUEUE_PAIR_H

#include "feroce-frame.h"
#include "qp-rate-limiter.h"
#include "roce-header.h"
#include "roce-work-request.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/feroce-arena.h"
#include "ns3/feroce-fct.h"
#include "ns3/feroce-np.h"
#include "ns3/feroce-ring.h"
#include "ns3/feroce-rp.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/rng-stream.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <vector>

namespace ns3
{

class RoceNic;

/**
 * \ingroup feroce
 * \brief A reliable-connection queue pair of a RoceNic: the requester that
 * segments posted work requests into PMTU packets and recovers by go-back-N,
 * and the responder that accepts in order, acknowledges and NAKs.
 *
 * Requester: 24-bit PSNs that wrap; AckReq on a message's last packet (of every
 * AckReqMessages-th message, and of the last one of a full send queue) and every AckReqInterval
 * packets; at most SendQueueDepth outstanding work requests and optionally MaxUnackedBytes in
 * flight; completions CompletionLatency after the ACK that covers them (the engine's completion
 * processing: the request keeps its send-queue slot until then); go-back-N from a NAKed PSN; one
 * retransmission timer per QP (AckTimeout, plus a uniform draw below AckTimeoutJitter, RetryCount);
 * RNR NAKs wait the responder's timer and retry RnrRetry times (7 = for ever, the InfiniBand
 * convention); exhausted retries put the QP in the error state, flush its requests with an error
 * status and fire the Error trace.
 *
 * DCQCN: the reaction point is the C core's lazy state (no periodic event);
 * the QP paces its packets at the current rate Rc (gap = wire bytes / Rc),
 * and a CNP that lowers Rc pushes the next send later.  The responder runs
 * the notification point (CE mark -> CNP to the requester's QP).
 *
 * Responder: in-order acceptance with MSN; an ACK every AckInterval packets
 * and on AckReq; one PSN-sequence-error NAK per gap; duplicates
 * re-acknowledged, never delivered twice; a SEND without a posted receive
 * buffer gets an RNR NAK with RnrTimerCode.
 */
class RoceQueuePair : public Object
{
  public:
    static TypeId GetTypeId();

    RoceQueuePair();
    ~RoceQueuePair() override;
    RoceQueuePair& operator=(const RoceQueuePair&) = delete;

    /// Queue pairs live in the FeroceArena: cache-line aligned, on huge pages where the system
    /// gives them (a large camera visits 10^5 of them in turn).
    static void* operator new(std::size_t size);
    static void operator delete(void* p, std::size_t size);

    /// QP state, as ibv_qp_state names them (only those feroce uses).
    enum State : uint8_t
    {
        RESET, ///< created, not connected
        RTS,   ///< connected: sends and receives
        ERROR  ///< retries exhausted or remote error; nothing more is sent
    };

    /**
     * Connect to the remote QP `remoteQpn` at (mac, ip) whose requester starts
     * at remoteInitialPsn (the out-of-band exchange RDMA CM does); the helper
     * calls it on both QPs.
     */
    void Connect(Mac48Address remoteMac,
                 Ipv4Address remoteIp,
                 uint32_t remoteQpn,
                 uint32_t remoteInitialPsn);

    /**
     * Post a send work request.  Returns false (nothing posted) when the
     * send queue already holds SendQueueDepth requests or the QP is not RTS.
     */
    bool PostSend(const RoceWorkRequest& wr);
    /// Post a receive buffer for SENDs (any size: feroce does not check overflow).
    void PostReceive(uint64_t id);
    /**
     * Move to the error state now, as ibv_modify_qp to IBV_QPS_ERR does (or the QP's host
     * failing): the outstanding requests complete flushed and nothing more is sent or accepted.
     * An RC connection in error is not revived: a new pair of queue pairs replaces it
     * (RoceConnectionManager).
     */
    void SetError();

    typedef Callback<void, const RoceCompletion&> CompletionCallback;
    typedef Callback<void, const RoceReceive&> ReceiveCallback;
    /// The completions' (or receptions') consumer; replaces a handler set before.
    void SetCompletionCallback(CompletionCallback cb);
    void SetReceiveCallback(ReceiveCallback cb);

    /// A plain function called as fn(context, index, completion or reception).
    typedef void (*CompletionHandler)(void* context, uint32_t index, const RoceCompletion& c);
    typedef void (*ReceiveHandler)(void* context, uint32_t index, const RoceReceive& r);
    /**
     * The consumer as a plain function, its context and an index, kept in the queue pair's own
     * lines: for applications that own many queue pairs (a Callback's implementation and bound
     * arguments are two or three more cache lines per call, each cold when 10^5 queue pairs
     * are visited in turn).  Replaces the callback set before; fn null: none.
     */
    void SetCompletionHandler(CompletionHandler fn, void* context, uint32_t index);
    void SetReceiveHandler(ReceiveHandler fn, void* context, uint32_t index);

    uint32_t GetQpn() const;
    uint32_t GetInitialPsn() const;
    uint32_t GetRemoteQpn() const;
    /// The UDP source port of its frames (ECMP's entropy): from the QPN, unless set.
    uint16_t GetUdpSourcePort() const;
    void SetUdpSourcePort(uint16_t port);
    /// Queue pairs that exist now, in the whole process (their memory follows it).
    static uint64_t GetLiveCount();
    State GetState() const;
    uint8_t GetPriority() const;
    uint32_t GetPmtu() const;
    /// Outstanding (posted, not completed) send work requests, those acknowledged and waiting
    /// for their CompletionLatency included.
    uint32_t GetSendQueueLength() const;
    /// Receive buffers posted and not yet used.
    uint32_t GetReceiveQueueLength() const;

    /// DCQCN: current rate Rc, target Rt and alpha, brought to now.
    double GetRateBps();
    double GetTargetRateBps();
    double GetAlpha();
    /// \return the reaction point's fixed-point registers at Simulator::Now(), or nullptr when
    /// the NIC runs the double-precision model (RoceNic::FixedPointFormat empty)
    const feroce_rp_fixed_regs* GetFixedRegisters();
    /// A CNP for this QP arrived now (called by the NIC; also for tests).
    void ReceiveCnp();

    /// Counters.
    struct Counters
    {
        // (the requester's first and the responder's last, as the packets use them)
        uint64_t dataPacketsSent{0};
        uint64_t payloadBytesSent{0};
        uint64_t acksReceived{0};
        uint64_t completions{0};
        uint64_t cnpsReceived{0};
        uint64_t retransmittedPackets{0};
        uint64_t naksReceived{0};
        uint64_t rnrNaksReceived{0};
        uint64_t timeouts{0};
        uint64_t duplicatesReceived{0};
        uint64_t outOfOrderReceived{0};
        uint64_t naksSent{0};
        uint64_t rnrNaksSent{0};
        uint64_t cnpsSent{0};
        uint64_t ceMarksReceived{0};
        uint64_t acksSent{0};
        uint64_t dataPacketsReceived{0};
        uint64_t payloadBytesDelivered{0};
        uint64_t messagesDelivered{0};
    };

    const Counters& GetCounters() const;

    /// Use stream for AckTimeoutJitter; returns the number of streams used (1).
    int64_t AssignStreams(int64_t stream);

    /// "" if pmtu is an InfiniBand path MTU (256, 512, 1024, 2048 or 4096), else the message.
    static std::string CheckPmtu(uint32_t pmtu);

    /**
     * Set the priority (PCP) of this queue pair's data, ACKs and NAKs, and its DSCP to
     * 8 x priority + 2 (the switches' default DscpMap gives the priority back: 26 for 3);
     * before Connect only.
     */
    void SetPriority(uint8_t priority);
    /// The frames of a message of this many bytes on this connection, in bytes on the wire
    /// (preamble, FCS and gap included): its first, each middle and its last data frame and the
    /// ACK of its last packet (the standalone FCT's input).
    feroce_message_frames GetMessageFrames(uint64_t length, bool write, bool withImm) const;

    typedef void (*CompletionTracedCallback)(const RoceCompletion& c, Time latency);
    typedef void (*RateTracedCallback)(double oldValue, double newValue);
    typedef void (*ErrorTracedCallback)(uint32_t qpn, RoceCompletionStatus why);

  private:
    friend class RoceNic;

    /**
     * A new queue pair with o's attribute values and a fresh state, as the NIC's ObjectFactory
     * would make it, without the attribute machinery (which costs about 10^5 instructions per
     * queue pair).  With takeStream it takes the next automatic random stream for
     * AckTimeoutJitter, as a constructed queue pair does; without, it is a prototype that never
     * draws.
     */
    RoceQueuePair(const RoceQueuePair& o, bool takeStream);
    /// RoceQueuePair(*this, takeStream) as an ns-3 object of the same TypeId.
    Ptr<RoceQueuePair> Clone(bool takeStream) const;
    /// Choose the automatic random stream (RngSeedManager's next) for AckTimeoutJitter.
    void TakeAutomaticStream();
    /// A uniform draw in [0, AckTimeoutJitter) ns.
    double DrawJitterNs();

    struct SendEntry
    {
        RoceWorkRequest wr;
        Time posted;
        uint32_t firstPsn;
        uint32_t npkts;
        uint64_t seq; ///< the how-manieth request posted (from 0), for AckReqMessages
    };

    /// An acknowledged request waiting for CompletionLatency, still holding its slot.
    struct Retiring
    {
        RoceCompletion completion;
        Time due;
    };

    // used by the NIC
    void Setup(RoceNic* nic,
               uint32_t qpn,
               const QpRateLimiter::Model* rp,
               const feroce_np_params* np);
    /// When the next data packet may go: now (the current time) or later; Time::Max() if none is
    /// ready.
    Time NextSendTime(Time now) const;
    /// Build the next data packet (NextSendTime() <= now) and advance.
    Ptr<FeroceFrame> BuildDataPacket();
    /// A frame for this QP arrived (its header fields).
    void Receive(const feroce_roce& f);

    // requester
    void ReceiveAck(const feroce_roce& f);
    void AcknowledgeUpTo(uint32_t psn);
    void RewindTo(uint32_t psn);
    void ArmRetransmitTimer();
    void RetransmitTimeout();
    void EnterError(RoceCompletionStatus why);
    /// The completion of a request ending now with this status.
    RoceCompletion MakeCompletion(const SendEntry& e, RoceCompletionStatus status) const;
    bool HasUnacked() const;
    void ReportRates();
    /// Deliver a completion (counter, trace, callback).
    void Complete(const RoceCompletion& c);
    /// CompletionLatency elapsed for the oldest retiring requests: complete them, free their slots.
    void RetireDue();

    // responder
    void ReceiveData(const feroce_roce& f);
    void SendAck(uint32_t psn, uint8_t syndrome);
    void SendCnp();
    Ptr<Packet> BuildControl(uint8_t opcode, uint8_t dscp, uint8_t pcp) const;

    /// The trace sources and the values the DCQCN ones last reported, made at the first
    /// connection to any of them: a queue pair nobody traces carries a null pointer instead.
    struct Traces
    {
        /// m_traced's bits: the sources connected at least once (the others fire nothing)
        enum Source : uint16_t
        {
            COMPLETION = 1,
            RATE = 2,
            TARGET_RATE = 4,
            ALPHA = 8,
            ERROR = 16,
            RETRANSMIT = 32,
            TIMEOUT = 64,
            NAK = 128,
            CNP_SENT = 256,
            CNP_RECEIVED = 512,
            DCQCN = RATE | TARGET_RATE | ALPHA, ///< what ReportRates fires
        };

        double reportedRc{0};
        double reportedRt{0};
        double reportedAlpha{0};
        TracedCallback<const RoceCompletion&, Time> completion;
        TracedCallback<double, double> rate;
        TracedCallback<double, double> targetRate;
        TracedCallback<double, double> alpha;
        TracedCallback<uint32_t, RoceCompletionStatus> error;
        TracedCallback<uint32_t> retransmit;
        TracedCallback<uint32_t> timeout;
        TracedCallback<uint32_t> nak;
        TracedCallback<> cnpSent;
        TracedCallback<> cnpReceived;
    };

    /// The trace sources, made now if they were not.
    Traces& GetTraces();
    /// The source `bit` (Traces::Source) is being connected: the traces made, the bit set.
    Traces& Connecting(uint16_t bit);
    /// A TypeId trace source for one of Traces' members, `bit` its Traces::Source (it makes
    /// them at the first connection).
    template <typename SOURCE>
    static Ptr<const TraceSourceAccessor> MakeTracesAccessor(SOURCE Traces::*member, uint16_t bit);
    /// SetCompletionCallback's and SetReceiveCallback's handlers: context is an owned Callback.
    static void CallCompletionCallback(void* cb, uint32_t, const RoceCompletion& c);
    static void CallReceiveCallback(void* cb, uint32_t, const RoceReceive& r);
    /// Forget the handlers (and delete an owned Callback).
    void ClearCompletionHandler();
    void ClearReceiveHandler();

    /// The fields of the frames this connection sends that are its own; the others are those
    /// of RoceHeader(FEROCE_OP_SEND_ONLY).
    struct Connection
    {
        uint8_t srcMac[6]{};
        uint8_t dstMac[6]{};
        uint32_t srcIp{0};
        uint32_t dstIp{0};
        uint32_t destQp{0};
        uint16_t sport{0};
        uint8_t dscp{0};
        uint8_t pcp{0};
    };

    /// The header fields of this connection's frames: addresses, ports, classes.
    feroce_roce Header() const;

    // The fields are in the order the packets use them, so that a queue pair (cache-line
    // aligned, from the FeroceArena) is visited in as few lines as it can be.  The initial
    // values of the state are here, for both constructors.
    //
    // requester: what a data packet sent, an ACK and a CNP received touch (line 0: both sides)
    RoceNic* m_nic{nullptr};
    uint32_t m_qpn{0};
    State m_state{RESET};
    uint8_t m_priority;              // (an attribute, as those below)
    bool m_retransmitPending{false}; ///< m_retransmitEvent is scheduled and has not run
    bool m_jitterDrawn{false};       ///< this expiry's AckTimeoutJitter was added to the deadline
    uint16_t m_traced{0};            ///< Traces::Source bits (checked here, where both sides look)
    uint8_t m_rnrRetries{0};         ///< RNR NAKs without progress (at most RnrRetry + 1)
    uint32_t m_completionIndex{0};   ///< (the completion handler's, in the line all visits read)
    FeroceRing<SendEntry> m_sq;
    FeroceRing<Retiring> m_retiring; ///< acknowledged, completing after CompletionLatency
    uint32_t m_sendIdx{0};           ///< entry of the next packet to send
    uint32_t m_sendPkt{0};           ///< packet index in that entry
    uint32_t m_nextPsn{0};           ///< PSN of the next packet to send
    uint32_t m_sentEnd{0};           ///< PSN after the highest PSN sent
    uint32_t m_unackedPsn{0};        ///< oldest PSN not acknowledged
    uint32_t m_postPsn{0};           ///< first PSN of the next posted request
    uint64_t m_postSeq{0};           ///< requests posted so far
    uint32_t m_pmtu;
    uint32_t m_sendQueueDepth;
    uint32_t m_ackReqInterval;
    uint32_t m_ackReqMessages;
    uint64_t m_maxUnackedBytes;
    Time m_ackTimeout;
    Time m_completionLatency;
    Time m_retransmitDeadline;
    Time m_rnrUntil;
    uint32_t m_retries{0}; ///< consecutive timeouts/NAKs without progress
    uint32_t m_lastWireBits{0};
    double m_nextSendNs{0}; ///< pacing: earliest start of the next data packet
    double m_lastStartNs{0};
    // both sides: the headers of data, ACKs and CNPs; the responder's sequence state
    Connection m_conn;
    uint32_t m_ePsn{0};
    uint32_t m_msn{0};
    uint32_t m_unackedReceived{0}; ///< packets accepted since the last ACK
    // DCQCN reaction point: 192 bytes, from a line boundary (3 lines)
    alignas(FeroceArena::kLine) QpRateLimiter m_rl; ///< double precision or fixed point
    std::unique_ptr<Traces> m_traces;
    CompletionHandler m_completionFn{nullptr};
    void* m_completionContext{nullptr}; ///< an owned Callback if m_completionFn is the Callback's
    // the requester's counters first, the responder's last, in the lines of their other fields
    Counters m_counters;
    // responder: what a data packet received and its ACK and CNP touch
    bool m_nakSent{false};  ///< a sequence-error NAK was sent for the current gap
    bool m_dupAcked{false}; ///< the current run of duplicates was acknowledged
    bool m_inSend{false};   ///< a SEND message is being received (its buffer taken)
    uint8_t m_rnrTimerCode;
    uint32_t m_ackInterval;
    const feroce_np_params* m_np{nullptr};
    feroce_np_state m_npState;
    ReceiveHandler m_receiveFn{nullptr};
    void* m_receiveContext{nullptr}; ///< an owned Callback if m_receiveFn is the Callback's
    uint32_t m_receiveIndex{0};
    FeroceRing<uint64_t> m_rq;
    uint64_t m_sendRecvId{0};

    // rarely used
    uint32_t m_remoteQpn{0};
    uint32_t m_initialPsn;
    uint32_t m_retryCount;
    uint32_t m_rnrRetry;
    uint32_t m_jitterSeed{0}; ///< (AckTimeoutJitter's stream: see below)
    uint8_t m_dscp;
    Time m_ackTimeoutJitter;
    EventId m_retransmitEvent;
    EventId m_retireEvent;

    // AckTimeoutJitter's random stream is chosen when the QP is created (an automatic number,
    // as a UniformRandomVariable takes it) or by AssignStreams, with the seed and run of that
    // moment; its generator is built at the first draw, so a QP without jitter allocates none
    uint64_t m_jitterStream{0}; ///< RngStream number: automatic (< 2^63) or 2^63 + assigned
    uint64_t m_jitterRun{0};
    std::unique_ptr<RngStream> m_jitterRng;

    static uint64_t s_live; ///< GetLiveCount
};

} // namespace ns3

#endif /* ROCE_QUEUE_PAIR_H */
