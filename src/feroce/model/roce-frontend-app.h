/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_FRONTEND_APP_H
#define ROCE_FRONTEND_APP_H

#include "roce-queue-pair.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
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
 * board sends the fragments of one event to the same receiver.  Each queue
 * pair has its own MaxOutstanding and its own waiting events; the on-board
 * buffer is shared by all.  Work-request ids and immediate data are the
 * event number in trigger mode, the message number in saturate mode.
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
    /// The first queue pair (nullptr if none).
    Ptr<RoceQueuePair> GetQueuePair() const;
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
    /// Most bytes the on-board buffer held.
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

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Trigger();
    void PostPending(std::size_t i);
    void Completed(std::size_t i, const RoceCompletion& c);
    static void CompletedOn(RoceFrontEndApp* app, std::size_t i, const RoceCompletion& c);

    /// One destination: its queue pair, the events waiting for room in its
    /// send queue, and its counters.
    struct Destination
    {
        Ptr<RoceQueuePair> qp;
        std::deque<uint64_t> waiting; ///< event numbers stored, not yet posted
        uint64_t posted{0};
        uint64_t completed{0};
        uint64_t bytesCompleted{0};
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
};

} // namespace ns3

#endif /* ROCE_FRONTEND_APP_H */
