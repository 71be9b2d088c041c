/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_RECEIVER_APP_H
#define ROCE_RECEIVER_APP_H

#include "roce-queue-pair.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <string>
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

    /// "" or a message naming the parameter, its value and what is allowed.
    std::string Validate() const;

    typedef void (*RxTracedCallback)(uint32_t qpn, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Received(std::size_t index, const RoceReceive& r);
    /// PostRate: one more buffer on each queue pair that has room.
    void PostTick();
    void SchedulePost();
    static void ReceivedOn(RoceReceiverApp* app, std::size_t index, const RoceReceive& r);

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
};

} // namespace ns3

#endif /* ROCE_RECEIVER_APP_H */
