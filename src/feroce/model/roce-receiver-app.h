/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_RECEIVER_APP_H
#define ROCE_RECEIVER_APP_H

#include "event-building.h"
#include "roce-queue-pair.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A receiver server: consumes what its queue pairs deliver and keeps
 * ReceiveBuffers receive buffers posted on each (re-posting one for every
 * SEND message it consumes), so SENDs find a buffer unless the pool is 0.
 *
 * PostRate > 0 models a host that posts receive buffers late: none at the
 * start, then one on each queue pair every 1/PostRate seconds while fewer
 * than ReceiveBuffers are posted there (a consumed buffer is not re-posted).
 * A SEND that finds no buffer gets an RNR NAK, so SEND goodput is bounded by
 * PostRate x message size.
 *
 * Event building (FragmentsPerEvent > 0): a message with immediate data is
 * the fragment of event imm from one board; the event is built when
 * FragmentsPerEvent fragments have arrived (EventBuilt), or closed incomplete
 * EventTimeout after its first fragment (EventTimedOut; later fragments of it
 * are dropped); an empty fragment (a zero-length message, a board's word that
 * it lost its fragment) counts, and the event closes incomplete when the last
 * arrives (EventIncomplete).  Credits (EventSlots > 0, with a credit queue pair to the
 * assigner): the receiver announces how many events it can take, as the
 * cumulative count of event slots it has granted in the immediate data of a
 * SEND: EventSlots at the start and on every new connection, one more for
 * each event it closes (sent when CreditBatch have gathered), and the count
 * again every CreditInterval as a heartbeat.  A slow receiver (Soft-RoCE)
 * closes its events late and so asks for fewer.  Announcements (Assignment
 * board-rule: announcement queue pairs, one per board, instead of the credit
 * queue pair): the same counts go to every board, in the same order, as
 * EncodeAnnouncement(v, G, fresh), each valid from event v = the trigger
 * number the receiver has counted + AnnounceLead - 1 (it counts the boards'
 * trigger: TriggerInterval, Poisson, the boards' stream); an epoch (the start,
 * a return, new connections) starts with a fresh count of its free slots.
 * Fail and Restart model the
 * host crashing (its partial events lost, nothing sent) and booting again.
 */
class RoceReceiverApp : public Application
{
  public:
    static TypeId GetTypeId();

    RoceReceiverApp();
    ~RoceReceiverApp() override;

    /// Serve one more queue pair.
    void AddQueuePair(Ptr<RoceQueuePair> qp);

    uint64_t GetBytesReceived() const;
    uint64_t GetMessagesReceived() const;
    /// Bytes received on the i-th queue pair added.
    uint64_t GetBytesReceived(std::size_t i) const;
    /// Receive buffers posted so far (all queue pairs).
    uint64_t GetBuffersPosted() const;

    /// A new connection for the i-th queue pair (the old one is in error).
    void ReplaceQueuePair(std::size_t i, Ptr<RoceQueuePair> qp);
    /// The queue pair on which credits go to the assigner (again after a reconnection: the
    /// count starts over with the slots free then).
    void SetCreditQueuePair(Ptr<RoceQueuePair> qp);
    /// One more board to announce credits to (board-rule), and a new connection to board b
    /// (a new epoch: every board hears a fresh count).
    void AddAnnounceQueuePair(Ptr<RoceQueuePair> qp);
    void ReplaceAnnounceQueuePair(std::size_t b, Ptr<RoceQueuePair> qp);
    /// The trigger's random stream: the boards' (board-rule: the receiver counts their triggers).
    int64_t AssignStreams(int64_t stream);
    /// The host crashes: partial events are lost (EventLost), nothing more is received or sent.
    void Fail();
    /// The host is back: empty, it takes events again once its connections are re-established.
    void Restart();
    bool IsUp() const;

    /// Events built, closed incomplete, and lost in a crash; fragments dropped (late, or
    /// arriving while down); credit messages sent.
    uint64_t GetEventsBuilt() const;
    uint64_t GetEventsTimedOut() const;
    /// Events closed with an empty fragment among theirs.
    uint64_t GetEventsIncomplete() const;
    uint64_t GetEventsCrashed() const;
    uint64_t GetLateFragments() const;
    uint64_t GetCreditMessages() const;
    /// Events with some fragments here now: how many, and which (in no order).
    std::size_t GetPartialEvents() const;
    std::vector<uint64_t> GetPartialEventNumbers() const;

    /// "" or a message naming the parameter, its value and what is allowed.
    std::string Validate() const;

    typedef void (*RxTracedCallback)(uint32_t qpn, uint64_t bytes);
    typedef void (*EventTracedCallback)(uint64_t event);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Received(std::size_t index, const RoceReceive& r);
    /// PostRate: one more buffer on each queue pair that has room.
    void PostTick();
    void SchedulePost();
    /// The queue pairs' receive handler (app: this, index: the queue pair's).
    static void ReceivedOn(void* app, uint32_t index, const RoceReceive& r);
    /// A fragment of event arrived whole (empty: the board lost it).
    void Fragment(uint64_t event, bool empty);
    /// An event left (built or closed incomplete): its slot is free for a credit.
    void Closed(uint64_t event);
    /// The oldest partial events' timeouts.
    void CheckTimeouts();
    /// Send the granted count (if the credit queue pair has room; else after a completion).
    void SendCredits();
    void Heartbeat();
    static void CreditCompletedOn(RoceReceiverApp* app, const RoceCompletion& c);
    /// board-rule: count the boards' triggers.
    void Trigger();
    /// board-rule: a new epoch (fresh count of the free slots) announced to every board.
    void NewEpoch();
    /// board-rule: the granted count, valid from the trigger counted + AnnounceLead - 1, to
    /// every board.
    void Announce(bool fresh);
    /// Post board b's waiting announcements while its send queue has room.
    void FlushAnnouncements(std::size_t b);
    static void AnnounceCompletedOn(RoceReceiverApp* app, std::size_t b, const RoceCompletion& c);
    /// Credits go somewhere: an assigner or the boards.
    bool Announcing() const;

    uint32_t m_receiveBuffers;
    double m_postRate;
    EventId m_postEvent;
    Time m_postStart;
    uint64_t m_postTicks{0};
    uint64_t m_buffersPosted;
    std::vector<Ptr<RoceQueuePair>> m_qps;
    std::vector<uint64_t> m_bytes;
    uint64_t m_totalBytes;
    uint64_t m_messages;
    uint64_t m_nextRecvId;
    TracedCallback<uint32_t, uint64_t> m_rxTrace;

    // event building
    uint32_t m_fragmentsPerEvent{0};
    Time m_eventTimeout;
    uint32_t m_eventSlots{0};
    uint32_t m_creditBatch{1};
    Time m_creditInterval;
    bool m_up{true};

    struct Partial
    {
        uint32_t fragments{0};
        bool incomplete{false}; ///< an empty fragment came
    };

    std::unordered_map<uint64_t, Partial> m_partial;
    std::unordered_set<uint64_t> m_timedOut; ///< closed unbuilt: late fragments are dropped
    std::deque<std::pair<Time, uint64_t>> m_deadlines; ///< (timeout, event) by first fragment
    EventId m_timeoutEvent;
    uint64_t m_built{0};
    uint64_t m_timedOutCount{0};
    uint64_t m_incomplete{0};
    uint64_t m_crashed{0};
    uint64_t m_late{0};
    Ptr<RoceQueuePair> m_creditQp;
    uint32_t m_granted{0};     ///< slots granted on this credit connection (cumulative)
    uint32_t m_creditFreed{0}; ///< slots freed since the last credit message
    bool m_creditWaiting{false};
    uint64_t m_creditMessages{0};
    EventId m_heartbeat;
    // board-rule
    uint32_t m_lead{4};
    Time m_triggerInterval;
    bool m_poisson{false};
    Ptr<ExponentialRandomVariable> m_interval;
    EventId m_triggerEvent;
    uint64_t m_triggered{0};     ///< the boards' triggers counted
    Time m_epochAt{Time::Min()}; ///< when the current epoch started
    std::vector<Ptr<RoceQueuePair>> m_announceQps;
    std::vector<std::deque<uint32_t>> m_announceWaiting; ///< per board: immediates not yet posted
    TracedCallback<uint64_t> m_builtTrace;
    TracedCallback<uint64_t> m_timedOutTrace;
    TracedCallback<uint64_t> m_incompleteTrace;
    TracedCallback<uint64_t> m_crashLostTrace;
};

} // namespace ns3

#endif /* ROCE_RECEIVER_APP_H */
