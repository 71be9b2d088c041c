/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_FRONTEND_APP_H
#define ROCE_FRONTEND_APP_H

#include "board-credit-rule.h"
#include "event-building.h"
#include "roce-queue-pair.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/feroce-ring.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A detector front-end board sending over one queue pair, or over
 * several (one per receiver: event building).
 *
 * Mode "saturate": keeps MaxOutstanding messages of MessageSize bytes
 * posted on each queue pair (a board that always has data).  Mode "trigger":
 * an event of MessageSize bytes every TriggerInterval (periodic, or Poisson
 * with that mean), stored in an on-board buffer of BufferSize bytes until
 * its RDMA message is acknowledged; an event that does not fit is lost and
 * counted, as a board's FIFO overflows.  Random draws use one stream
 * (AssignStreams); boards given the same stream trigger at the same instants,
 * as a camera's common trigger does.
 *
 * Event building: with K queue pairs (AddQueuePair), event n (counted from
 * 0 at the start, lost events included) goes to the (n mod K)-th, so every
 * board sends the fragments of one event to the same receiver (Assignment
 * static).  With Assignment availability an assigner (RoceAssignerApp) names
 * each event's receiver in assignment messages (SENDs with immediate data,
 * EncodeAssignment) on the assignment queue pair; an event waits in the
 * on-board buffer until its assignment arrives.  With Assignment board-rule
 * there is no assigner: every receiver announces its credits to every board
 * (SENDs with immediate data, EncodeAnnouncement, on the announcement queue
 * pairs) and the board applies BoardCreditRule to what it has seen, at each
 * trigger; an event no receiver has credit for waits in the buffer.  Each queue pair has its own
 * MaxOutstanding and its own waiting events; the on-board buffer is shared
 * by all.  Work-request ids and immediate data are the event number in
 * trigger mode, the message number in saturate mode.
 *
 * LostMarkers (trigger mode): an event this board lost to its full buffer is
 * still announced to its receiver, as a zero-length RDMA WRITE with the event
 * number as immediate data (an empty fragment), so that the receiver closes
 * the event at once instead of waiting for a fragment that never comes (and,
 * with credits, frees its slot).
 *
 * A destination whose queue pair is in the error state (retries exhausted,
 * or its peer gone) loses the events waiting for it, and those it had in
 * flight complete in error: each is a fragment failed (FragmentFailed) until
 * ReplaceQueuePair gives the destination a new connection.
 */
class RoceFrontEndApp : public Application
{
  public:
    static TypeId GetTypeId();

    /// "" if the attributes make an application that can start, else a message naming the bad one.
    std::string Validate() const;

    RoceFrontEndApp();
    ~RoceFrontEndApp() override;

    /// The one queue pair the board sends on (replaces any added before).
    void SetQueuePair(Ptr<RoceQueuePair> qp);
    /// One more destination: with K of them, event n goes to the (n mod K)-th added.
    void AddQueuePair(Ptr<RoceQueuePair> qp);
    /// A new connection to the i-th destination (the old one is in error): waiting events go on it.
    void ReplaceQueuePair(std::size_t i, Ptr<RoceQueuePair> qp);
    /// The queue pair on which the assigner's messages arrive (Assignment availability); the
    /// board keeps receive buffers posted on it.  Again with a new one after a reconnection.
    void SetAssignmentQueuePair(Ptr<RoceQueuePair> qp);
    /// The queue pair on which receiver k's announcements arrive (Assignment board-rule): the
    /// board keeps receive buffers posted on it.  Again with a new one after a reconnection.
    void SetAnnounceQueuePair(std::size_t k, Ptr<RoceQueuePair> qp);
    /// The first queue pair (nullptr if none).
    Ptr<RoceQueuePair> GetQueuePair() const;
    /// When the i-th destination's current queue pair was connected (added or replaced).
    Time GetConnectedSince(std::size_t i) const;
    /// The i-th queue pair added.
    Ptr<RoceQueuePair> GetQueuePair(std::size_t i) const;
    std::size_t GetNQueuePairs() const;
    int64_t AssignStreams(int64_t stream);

    uint64_t GetEventsGenerated() const;
    uint64_t GetEventsLost() const;
    uint64_t GetMessagesCompleted() const;
    uint64_t GetBytesCompleted() const;
    /// Messages and bytes completed on the i-th queue pair.
    uint64_t GetMessagesCompleted(std::size_t i) const;
    uint64_t GetBytesCompleted(std::size_t i) const;
    /// Most bytes the on-board buffer held, and the bytes it holds now.
    uint64_t GetBufferPeak() const;
    /// Bytes the on-board buffer holds now.
    uint64_t GetBufferBytes() const;
    /// Most bytes the on-board buffer held since the last call (a study's window), then
    /// starts again from what it holds now.
    uint64_t TakeBufferWindowPeak();
    /// Requests that completed with an error status (flushed ones included).
    uint64_t GetMessagesFailed() const;
    /// The status of the first request that failed, other than flushed (ROCE_WC_SUCCESS if none):
    /// why the queue pair stopped.
    RoceCompletionStatus GetFailureStatus() const;
    /// Events that waited for a destination whose queue pair was in the error state, dropped.
    uint64_t GetFragmentsDropped() const;
    /// Empty fragments posted for events lost to the buffer (LostMarkers).
    uint64_t GetMarkersSent() const;
    /// Assignment messages received, and events waiting for their assignment now.
    uint64_t GetAssignmentsReceived() const;
    std::size_t GetUnassigned() const;
    /// Announcements received (board-rule), and those that came after the event they were
    /// valid from had been processed here (late: this board's rule may diverge).
    uint64_t GetAnnouncementsReceived() const;
    uint64_t GetLateAnnouncements() const;
    /**
     * The events this board holds now (waiting for an assignment, waiting for room in a send
     * queue, or posted and not completed), in no order: with GetEventsLost, the completions,
     * GetMessagesFailed and GetFragmentsDropped they add up to GetEventsGenerated.
     */
    std::vector<uint64_t> GetHeldEvents() const;

    typedef void (*EventTracedCallback)(uint64_t event);
    typedef void (*FragmentTracedCallback)(uint64_t event, uint32_t destination);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Trigger();
    void PostPending(std::size_t i);
    void Completed(std::size_t i, const RoceCompletion& c);
    /// The queue pairs' completion handler (app: this, i: the destination).
    static void CompletedOn(void* app, uint32_t i, const RoceCompletion& c);
    static void AssignmentOn(RoceFrontEndApp* app, const RoceReceive& r);
    static void AnnouncementOn(RoceFrontEndApp* app, std::size_t k, const RoceReceive& r);
    /// board-rule: event n is processed by the rule; what it assigns is routed.
    void ApplyRule(uint64_t n);
    /// An assignment message: events [first, first + count) go to destination dest.
    void Assigned(uint64_t first, uint64_t count, uint32_t dest);
    /// A stored event goes to destination i (its queue, then posted when there is room).
    void Route(uint64_t event, std::size_t i);
    /// A fragment that will not be delivered: its buffer freed, FragmentFailed.
    void FragmentFailed(uint64_t event, std::size_t i);

    /// One destination: its queue pair, the events waiting for room in its
    /// send queue, and its counters, in one cache line (a board's trigger, post and completion
    /// visit one of a large camera's 10^4 to 10^5 destinations, each cold).
    struct alignas(64) Destination
    {
        Ptr<RoceQueuePair> qp;
        FeroceRing<uint64_t> waiting; ///< event numbers stored, not yet posted
        uint64_t posted{0};
        uint64_t completed{0};
        uint64_t bytesCompleted{0};
        Time since; ///< when qp was connected
    };

    std::vector<Destination> m_dests;
    uint64_t m_messageSize;
    std::string m_mode;
    Time m_triggerInterval;
    bool m_poisson;
    uint64_t m_bufferSize;
    uint32_t m_maxOutstanding;
    bool m_write;
    bool m_withImm;
    Ptr<ExponentialRandomVariable> m_interval;

    bool m_running;
    bool m_saturate;
    EventId m_triggerEvent;
    uint64_t m_nextId;
    uint64_t m_buffered; ///< bytes of events stored on board (posted or waiting)
    uint64_t m_generated;
    uint64_t m_lost;
    uint64_t m_completed;
    uint64_t m_bytesCompleted;
    uint64_t m_bufferPeak;
    uint64_t m_bufferWindowPeak{0};
    uint64_t m_failed{0};
    RoceCompletionStatus m_failure{ROCE_WC_SUCCESS};
    TracedCallback<uint64_t> m_lostTrace;
    // Assignment availability
    std::string m_assignment;
    bool m_availability{false};
    Ptr<RoceQueuePair> m_assignQp;
    std::deque<uint64_t> m_unassigned;     ///< events stored, waiting for their assignment
    std::map<uint64_t, uint32_t> m_future; ///< assignments of events not yet triggered
    bool m_lostMarkers{false};
    std::set<uint64_t> m_lostPending; ///< lost to the buffer, their assignment not yet seen
    uint64_t m_markers{0};
    uint64_t m_assignBytes{0}; ///< the assignment message being received, so far
    uint64_t m_assignments{0};
    uint64_t m_dropped{0};
    uint64_t m_nextRecvId{0};
    std::vector<std::vector<uint64_t>> m_inFlight; ///< per destination: posted, not completed
    // Assignment board-rule
    bool m_boardRule{false};
    uint64_t m_creditExpiry{32};
    BoardCreditRule m_rule;
    std::vector<Ptr<RoceQueuePair>> m_announceQps; ///< per receiver
    uint64_t m_announcements{0};
    uint64_t m_lateAnnouncements{0};
    std::vector<std::pair<uint64_t, uint32_t>> m_ruleAssigned; ///< scratch of ApplyRule
    std::vector<uint32_t> m_ruleLapsed;                        ///< scratch of ApplyRule
    TracedCallback<uint32_t> m_lapsedTrace;
    TracedCallback<uint64_t> m_triggerTrace;
    TracedCallback<uint64_t, uint32_t> m_postedTrace;
    TracedCallback<uint64_t, uint32_t> m_failedTrace;
};

} // namespace ns3

#endif /* ROCE_FRONTEND_APP_H */
