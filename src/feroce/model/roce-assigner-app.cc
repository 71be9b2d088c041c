/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-assigner-app.h"

#include "event-building.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceAssignerApp");
NS_OBJECT_ENSURE_REGISTERED(RoceAssignerApp);

namespace
{
const uint32_t kReceiveBuffers = 64; ///< receive buffers kept posted for the receivers' SENDs
} // namespace

TypeId
RoceAssignerApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceAssignerApp")
            .SetParent<Application>()
            .SetGroupName("Feroce")
            .AddConstructor<RoceAssignerApp>()
            .AddAttribute("TriggerInterval",
                          "Time between events (the mean if Poisson): the boards' trigger",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RoceAssignerApp::m_triggerInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Poisson",
                          "Exponential gaps instead of periodic (the boards' stream)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceAssignerApp::m_poisson),
                          MakeBooleanChecker())
            .AddAttribute("Block",
                          "Events per assignment: a block of consecutive events goes to one "
                          "receiver (LHCb's multi-event packets), one message per board",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceAssignerApp::m_block),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReceiverTimeout",
                          "A receiver not heard for this long is dropped from the rotation until "
                          "it is heard again; 0: only missing credits take it out",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RoceAssignerApp::m_receiverTimeout),
                          MakeTimeChecker())
            .AddTraceSource("Assigned",
                            "A block of events given to a receiver (first event, events, "
                            "receiver)",
                            MakeTraceSourceAccessor(&RoceAssignerApp::m_assignedTrace),
                            "ns3::RoceAssignerApp::AssignedTracedCallback")
            .AddTraceSource("ReceiverDropped",
                            "A receiver not heard for ReceiverTimeout left the rotation",
                            MakeTraceSourceAccessor(&RoceAssignerApp::m_droppedTrace),
                            "ns3::RoceAssignerApp::ReceiverTracedCallback")
            .AddTraceSource("ReceiverBack",
                            "A receiver dropped (or newly connected) was heard and is in the "
                            "rotation again",
                            MakeTraceSourceAccessor(&RoceAssignerApp::m_backTrace),
                            "ns3::RoceAssignerApp::ReceiverTracedCallback");
    return tid;
}

RoceAssignerApp::RoceAssignerApp()
    : m_triggerInterval(MicroSeconds(10)),
      m_poisson(false),
      m_block(1),
      m_receiverTimeout(MicroSeconds(500))
{
    m_interval = CreateObject<ExponentialRandomVariable>();
}

RoceAssignerApp::~RoceAssignerApp()
{
}

void
RoceAssignerApp::DoDispose()
{
    m_receivers.clear();
    m_boards.clear();
    Application::DoDispose();
}

int64_t
RoceAssignerApp::AssignStreams(int64_t stream)
{
    m_interval->SetStream(stream);
    return 1;
}

void
RoceAssignerApp::AddBoard(Ptr<RoceQueuePair> qp)
{
    m_boards.emplace_back();
    ReplaceBoard(m_boards.size() - 1, qp);
}

void
RoceAssignerApp::ReplaceBoard(std::size_t b, Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(b >= m_boards.size() || !qp, "RoceAssignerApp: ReplaceBoard(" << b << ")");
    m_boards[b].qp = qp;
    qp->SetCompletionCallback(MakeBoundCallback(&RoceAssignerApp::BoardCompletedOn, this, b));
    Flush(b);
}

void
RoceAssignerApp::AddReceiver(Ptr<RoceQueuePair> qp)
{
    m_receivers.emplace_back();
    ReplaceReceiver(m_receivers.size() - 1, qp);
}

void
RoceAssignerApp::ReplaceReceiver(std::size_t k, Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(k >= m_receivers.size() || !qp,
                    "RoceAssignerApp: ReplaceReceiver(" << k << ")");
    Receiver& r = m_receivers[k];
    r.qp = qp;
    r.fresh = true; // no credit until it speaks on the new connection
    r.alive = false;
    qp->SetReceiveCallback(MakeBoundCallback(&RoceAssignerApp::CreditOn, this, k));
    while (qp->GetReceiveQueueLength() < kReceiveBuffers)
    {
        qp->PostReceive(m_nextRecvId++);
    }
}

std::string
RoceAssignerApp::Validate() const
{
    if (m_block < 1 || m_block > 4096)
    {
        return "Block = " + std::to_string(m_block) + " is not allowed: expected 1..4096 events";
    }
    if (m_receiverTimeout.IsStrictlyNegative())
    {
        return "ReceiverTimeout = " + std::to_string(m_receiverTimeout.GetNanoSeconds()) +
               "ns is not allowed: expected >= 0";
    }
    if (m_receivers.empty() || m_receivers.size() > 256)
    {
        return "RoceAssignerApp has " + std::to_string(m_receivers.size()) +
               " receivers: expected 1..256 (an assignment names one in 8 bits)";
    }
    return "";
}

void
RoceAssignerApp::StartApplication()
{
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), "RoceAssignerApp: " << error);
    m_running = true;
    Trigger();
}

void
RoceAssignerApp::StopApplication()
{
    m_running = false;
    m_triggerEvent.Cancel();
}

void
RoceAssignerApp::Trigger()
{
    // the boards' trigger: the same instants, the same numbers
    uint64_t event = m_generated++;
    if (event % m_block == 0)
    {
        m_pending.push_back(event);
        m_pendingPeak = std::max(m_pendingPeak, m_pending.size());
    }
    Assign();
    m_triggerEvent = Simulator::Schedule(NextTriggerGap(m_triggerInterval, m_poisson, m_interval),
                                         &RoceAssignerApp::Trigger,
                                         this);
}

void
RoceAssignerApp::CheckAlive()
{
    if (!m_receiverTimeout.IsStrictlyPositive())
    {
        return;
    }
    Time now = Simulator::Now();
    for (std::size_t k = 0; k < m_receivers.size(); k++)
    {
        Receiver& r = m_receivers[k];
        if (r.alive && now - r.heard > m_receiverTimeout)
        {
            r.alive = false;
            NS_LOG_INFO("receiver " << k << " not heard since " << r.heard.As(Time::US)
                                    << ": dropped from the rotation");
            m_droppedTrace(uint32_t(k));
        }
    }
}

void
RoceAssignerApp::Assign()
{
    CheckAlive();
    std::size_t n = m_receivers.size();
    while (!m_pending.empty())
    {
        std::size_t chosen = n;
        for (std::size_t i = 0; i < n && chosen == n; i++)
        {
            std::size_t k = (m_next + i) % n;
            const Receiver& r = m_receivers[k];
            int64_t credit = std::min<int64_t>(r.slots, int64_t(int32_t(r.granted - r.charged)));
            if (r.alive && credit >= int64_t(m_block))
            {
                chosen = k;
            }
        }
        if (chosen == n)
        {
            return; // no receiver can take a block: it waits for credits
        }
        uint64_t first = m_pending.front();
        m_pending.pop_front();
        Receiver& r = m_receivers[chosen];
        r.charged += m_block;
        r.assigned += m_block;
        m_next = (chosen + 1) % n;
        m_assignedTrace(first, m_block, uint32_t(chosen));
        uint32_t imm = EncodeAssignment(first, uint32_t(chosen));
        for (std::size_t b = 0; b < m_boards.size(); b++)
        {
            m_boards[b].waiting.emplace_back(imm, m_block);
            Flush(b);
        }
    }
}

void
RoceAssignerApp::Flush(std::size_t b)
{
    Board& board = m_boards[b];
    while (!board.waiting.empty() && board.qp->GetState() == RoceQueuePair::RTS)
    {
        RoceWorkRequest wr;
        wr.id = m_messages;
        wr.write = false;
        wr.withImm = true;
        wr.imm = board.waiting.front().first;
        wr.length = board.waiting.front().second; // a byte per event: the block's table
        if (!board.qp->PostSend(wr))
        {
            return; // the send queue is full: a completion makes room
        }
        m_messages++;
        board.waiting.pop_front();
    }
}

void
RoceAssignerApp::BoardCompletedOn(RoceAssignerApp* app, std::size_t b, const RoceCompletion& c)
{
    if (c.status == ROCE_WC_SUCCESS)
    {
        app->Flush(b);
    }
}

void
RoceAssignerApp::CreditOn(RoceAssignerApp* app, std::size_t k, const RoceReceive& r)
{
    if (!r.last)
    {
        return;
    }
    app->m_receivers[k].qp->PostReceive(app->m_nextRecvId++); // the consumed buffer goes back
    if (r.withImm)
    {
        app->Credit(k, r.imm);
    }
}

void
RoceAssignerApp::Credit(std::size_t k, uint32_t granted)
{
    m_credits++;
    Receiver& r = m_receivers[k];
    r.heard = Simulator::Now();
    r.granted = granted;
    if (r.fresh)
    {
        // the first count on a connection is the receiver's slots
        r.fresh = false;
        r.slots = granted;
        r.charged = 0;
    }
    if (!r.alive)
    {
        // back in the rotation with all its slots: what it held when dropped is lost
        r.alive = true;
        r.charged = r.granted - r.slots;
        m_backTrace(uint32_t(k));
    }
    if (m_running)
    {
        Assign();
    }
}

uint64_t
RoceAssignerApp::GetEventsTriggered() const
{
    return m_generated;
}

uint64_t
RoceAssignerApp::GetAssigned(std::size_t k) const
{
    return k < m_receivers.size() ? m_receivers[k].assigned : 0;
}

uint64_t
RoceAssignerApp::GetAssignmentMessages() const
{
    return m_messages;
}

uint64_t
RoceAssignerApp::GetCreditMessages() const
{
    return m_credits;
}

std::size_t
RoceAssignerApp::GetPendingBlocks() const
{
    return m_pending.size();
}

std::size_t
RoceAssignerApp::GetPendingPeak() const
{
    return m_pendingPeak;
}

bool
RoceAssignerApp::IsAlive(std::size_t k) const
{
    return k < m_receivers.size() && m_receivers[k].alive;
}

} // namespace ns3
