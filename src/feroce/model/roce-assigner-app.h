/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_ASSIGNER_APP_H
#define ROCE_ASSIGNER_APP_H

#include "roce-queue-pair.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief The event manager of availability-driven event building: a node on
 * the fabric that names each event's receiver by the credits the receivers
 * announce (as CMS's event manager, LHCb's credit-based readout supervisor
 * and ALICE's time-frame scheduler do; src/feroce/doc/eventbuilding.md).
 *
 * It triggers with the boards (TriggerInterval, Poisson, the same random
 * stream): at the first event of every block of Block events it chooses a
 * receiver with Block credits, round robin among those alive, and sends every
 * board an assignment message (a SEND of Block bytes with the immediate data
 * EncodeAssignment(first event, receiver)).  A block no receiver has credit
 * for waits, oldest first, until credits come.
 *
 * Credits: each receiver's messages (SENDs with immediate) carry the
 * cumulative count G of event slots it has granted on its connection; the
 * first on a connection is its slots S.  Its credit is min(S, G - events
 * assigned to it).  A receiver not heard for ReceiverTimeout is dropped from
 * the rotation (ReceiverDropped); when it is heard again it is taken back
 * with S credits (what it held is taken as lost).  Every message is real
 * traffic on the fabric, with its ACKs.
 */
class RoceAssignerApp : public Application
{
  public:
    static TypeId GetTypeId();

    RoceAssignerApp();
    ~RoceAssignerApp() override;

    /// A board: the queue pair its assignments go on.
    void AddBoard(Ptr<RoceQueuePair> qp);
    /// A new connection to board b (assignments not yet sent go on it).
    void ReplaceBoard(std::size_t b, Ptr<RoceQueuePair> qp);
    /// A receiver: the queue pair its credits arrive on.
    void AddReceiver(Ptr<RoceQueuePair> qp);
    /// A new connection from receiver k: its credits start over with its next message.
    void ReplaceReceiver(std::size_t k, Ptr<RoceQueuePair> qp);
    /// The trigger's random stream: the boards' (they trigger together).
    int64_t AssignStreams(int64_t stream);

    /// "" or a message naming the parameter, its value and what is allowed.
    std::string Validate() const;

    uint64_t GetEventsTriggered() const;
    /// Events assigned to receiver k so far.
    uint64_t GetAssigned(std::size_t k) const;
    /// Assignment messages posted (one per board per block), and credit messages received.
    uint64_t GetAssignmentMessages() const;
    uint64_t GetCreditMessages() const;
    /// Blocks waiting for a receiver with credit now, and the most that ever waited.
    std::size_t GetPendingBlocks() const;
    std::size_t GetPendingPeak() const;
    /// Receiver k is in the rotation.
    bool IsAlive(std::size_t k) const;

    typedef void (*AssignedTracedCallback)(uint64_t firstEvent, uint32_t events, uint32_t receiver);
    typedef void (*ReceiverTracedCallback)(uint32_t receiver);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Trigger();
    /// Give the waiting blocks to receivers with credit.
    void Assign();
    /// Drop the receivers not heard for ReceiverTimeout.
    void CheckAlive();
    void Credit(std::size_t k, uint32_t granted);
    /// Post board b's waiting assignment messages while its send queue has room.
    void Flush(std::size_t b);
    static void CreditOn(RoceAssignerApp* app, std::size_t k, const RoceReceive& r);
    static void BoardCompletedOn(RoceAssignerApp* app, std::size_t b, const RoceCompletion& c);

    struct Receiver
    {
        Ptr<RoceQueuePair> qp;
        bool fresh{true};    ///< no message yet on this connection
        bool alive{false};   ///< in the rotation
        uint32_t slots{0};   ///< S: the first count on the connection
        uint32_t granted{0}; ///< G: the latest count
        uint32_t charged{0}; ///< events charged against G on this connection
        uint64_t assigned{0};
        Time heard;
    };

    struct Board
    {
        Ptr<RoceQueuePair> qp;
        std::deque<std::pair<uint32_t, uint32_t>> waiting; ///< (imm, events) not yet posted
    };

    Time m_triggerInterval;
    bool m_poisson;
    uint32_t m_block;
    Time m_receiverTimeout;
    Ptr<ExponentialRandomVariable> m_interval;

    std::vector<Receiver> m_receivers;
    std::vector<Board> m_boards;
    std::deque<uint64_t> m_pending; ///< first events of the blocks waiting for credit
    std::size_t m_pendingPeak{0};
    std::size_t m_next{0}; ///< round robin: the receiver to try first
    bool m_running{false};
    EventId m_triggerEvent;
    uint64_t m_generated{0};
    uint64_t m_messages{0};
    uint64_t m_credits{0};
    uint64_t m_nextRecvId{0};
    TracedCallback<uint64_t, uint32_t, uint32_t> m_assignedTrace;
    TracedCallback<uint32_t> m_droppedTrace;
    TracedCallback<uint32_t> m_backTrace;
};

} // namespace ns3

#endif /* ROCE_ASSIGNER_APP_H */
