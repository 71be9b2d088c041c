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

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A detector front-end board sending over one queue pair.
 *
 * Mode "saturate": keeps MaxOutstanding messages of MessageSize bytes
 * posted (a board that always has data).  Mode "trigger": an event of MessageSize
 * bytes every TriggerInterval (periodic, or Poisson with that mean), stored
 * in an on-board buffer of BufferSize bytes until its RDMA message is
 * acknowledged; an event that does not fit is lost and counted, as a
 * board's FIFO overflows.  Random draws use one stream (AssignStreams).
 */
class RoceFrontEndApp : public Application
{
  public:
    static TypeId GetTypeId();

    RoceFrontEndApp();
    ~RoceFrontEndApp() override;

    void SetQueuePair(Ptr<RoceQueuePair> qp);
    Ptr<RoceQueuePair> GetQueuePair() const;
    int64_t AssignStreams(int64_t stream);

    uint64_t GetEventsGenerated() const;
    uint64_t GetEventsLost() const;
    uint64_t GetMessagesCompleted() const;
    uint64_t GetBytesCompleted() const;
    /// Most bytes the on-board buffer held.
    uint64_t GetBufferPeak() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Trigger();
    void PostPending();
    void Completed(const RoceCompletion& c);

    Ptr<RoceQueuePair> m_qp;
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
    uint64_t m_waiting;  ///< events stored but not yet posted (send queue full)
    uint64_t m_generated;
    uint64_t m_lost;
    uint64_t m_completed;
    uint64_t m_bytesCompleted;
    uint64_t m_bufferPeak;
    TracedCallback<uint64_t> m_lostTrace;
};

} // namespace ns3

#endif /* ROCE_FRONTEND_APP_H */
