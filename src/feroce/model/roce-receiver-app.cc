/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-receiver-app.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceReceiverApp");
NS_OBJECT_ENSURE_REGISTERED(RoceReceiverApp);

TypeId
RoceReceiverApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceReceiverApp")
            .SetParent<Application>()
            .SetGroupName("Feroce")
            .AddConstructor<RoceReceiverApp>()
            .AddAttribute("ReceiveBuffers",
                          "Receive buffers kept posted on each queue pair (for SENDs)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RoceReceiverApp::m_receiveBuffers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PostRate",
                          "Receive buffers posted per second on each queue pair (a host that "
                          "posts late: none at the start, at most ReceiveBuffers waiting, a "
                          "consumed one not re-posted); 0: keep ReceiveBuffers posted",
                          DoubleValue(0),
                          MakeDoubleAccessor(&RoceReceiverApp::m_postRate),
                          MakeDoubleChecker<double>(0, 1e12))
            .AddAttribute("FragmentsPerEvent",
                          "Event building: fragments (messages with immediate data = the event "
                          "number) that make an event, one per board; 0: no event building",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceReceiverApp::m_fragmentsPerEvent),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EventTimeout",
                          "Event building: an event still incomplete this long after its first "
                          "fragment is closed (lost: partial timeout)",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RoceReceiverApp::m_eventTimeout),
                          MakeTimeChecker())
            .AddAttribute("EventSlots",
                          "Credits: events this receiver takes at once (announced to the "
                          "assigner on the credit queue pair); 0: no credits",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceReceiverApp::m_eventSlots),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CreditBatch",
                          "Credits: slots freed before a credit message goes (1..EventSlots)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceReceiverApp::m_creditBatch),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CreditInterval",
                          "Credits: the count is sent again at least this often (a heartbeat "
                          "the assigner's ReceiverTimeout watches)",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RoceReceiverApp::m_creditInterval),
                          MakeTimeChecker())
            .AddAttribute("AnnounceLead",
                          "board-rule: an announcement is valid from the trigger the receiver "
                          "has counted + AnnounceLead - 1, so it has AnnounceLead - 1 trigger "
                          "intervals to reach every board (1..32767 events)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RoceReceiverApp::m_lead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TriggerInterval",
                          "board-rule: the boards' trigger (the mean if Poisson), counted to "
                          "stamp announcements",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RoceReceiverApp::m_triggerInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Poisson",
                          "board-rule: the boards' trigger has exponential gaps (their stream)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceReceiverApp::m_poisson),
                          MakeBooleanChecker())
            .AddTraceSource("Rx",
                            "Payload delivered in order on a queue pair",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_rxTrace),
                            "ns3::RoceReceiverApp::RxTracedCallback")
            .AddTraceSource("EventBuilt",
                            "Event building: the last fragment of an event arrived (its number)",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_builtTrace),
                            "ns3::RoceReceiverApp::EventTracedCallback")
            .AddTraceSource("EventTimedOut",
                            "Event building: an event closed incomplete after EventTimeout",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_timedOutTrace),
                            "ns3::RoceReceiverApp::EventTracedCallback")
            .AddTraceSource("EventIncomplete",
                            "Event building: an event closed with an empty fragment among its "
                            "fragments (a board lost its own)",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_incompleteTrace),
                            "ns3::RoceReceiverApp::EventTracedCallback")
            .AddTraceSource("EventLost",
                            "Event building: a partial event lost when the host failed",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_crashLostTrace),
                            "ns3::RoceReceiverApp::EventTracedCallback");
    return tid;
}

RoceReceiverApp::RoceReceiverApp()
    : m_receiveBuffers(64),
      m_postRate(0),
      m_buffersPosted(0),
      m_totalBytes(0),
      m_messages(0),
      m_nextRecvId(0),
      m_triggerInterval(MicroSeconds(10))
{
    m_interval = CreateObject<ExponentialRandomVariable>();
}

RoceReceiverApp::~RoceReceiverApp()
{
}

void
RoceReceiverApp::DoDispose()
{
    m_qps.clear();
    m_creditQp = nullptr;
    m_announceQps.clear();
    Application::DoDispose();
}

void
RoceReceiverApp::AddQueuePair(Ptr<RoceQueuePair> qp)
{
    std::size_t index = m_qps.size();
    m_qps.push_back(qp);
    m_bytes.push_back(0);
    qp->SetReceiveHandler(&RoceReceiverApp::ReceivedOn, this, uint32_t(index));
}

void
RoceReceiverApp::ReplaceQueuePair(std::size_t i, Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(i >= m_qps.size() || !qp, "RoceReceiverApp: ReplaceQueuePair(" << i << ")");
    m_qps[i] = qp;
    qp->SetReceiveHandler(&RoceReceiverApp::ReceivedOn, this, uint32_t(i));
    if (m_postRate == 0)
    {
        while (qp->GetReceiveQueueLength() < m_receiveBuffers)
        {
            qp->PostReceive(m_nextRecvId++);
            m_buffersPosted++;
        }
    }
}

void
RoceReceiverApp::SetCreditQueuePair(Ptr<RoceQueuePair> qp)
{
    bool again = m_creditQp != nullptr;
    m_creditQp = qp;
    qp->SetCompletionCallback(MakeBoundCallback(&RoceReceiverApp::CreditCompletedOn, this));
    m_creditWaiting = false;
    m_creditFreed = 0;
    if (again && m_up)
    {
        // a new connection: the assigner counts afresh (its first count is the slots)
        m_granted = m_eventSlots;
        SendCredits();
    }
}

void
RoceReceiverApp::AddAnnounceQueuePair(Ptr<RoceQueuePair> qp)
{
    m_announceQps.emplace_back();
    m_announceWaiting.emplace_back();
    ReplaceAnnounceQueuePair(m_announceQps.size() - 1, qp);
}

void
RoceReceiverApp::ReplaceAnnounceQueuePair(std::size_t b, Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(b >= m_announceQps.size() || !qp,
                    "RoceReceiverApp: ReplaceAnnounceQueuePair(" << b << ")");
    bool again = m_announceQps[b] != nullptr;
    m_announceQps[b] = qp;
    qp->SetCompletionCallback(MakeBoundCallback(&RoceReceiverApp::AnnounceCompletedOn, this, b));
    if (again && m_up && m_epochAt != Simulator::Now())
    {
        // connections replaced at one instant (a return) make one epoch
        NewEpoch();
    }
    FlushAnnouncements(b);
}

int64_t
RoceReceiverApp::AssignStreams(int64_t stream)
{
    m_interval->SetStream(stream);
    return 1;
}

bool
RoceReceiverApp::Announcing() const
{
    return m_eventSlots && (m_creditQp || !m_announceQps.empty());
}

void
RoceReceiverApp::Trigger()
{
    // the boards' trigger: the same instants (a timing system), whether the host is up or not
    m_triggered++;
    m_triggerEvent = Simulator::Schedule(NextTriggerGap(m_triggerInterval, m_poisson, m_interval),
                                         &RoceReceiverApp::Trigger,
                                         this);
}

void
RoceReceiverApp::NewEpoch()
{
    // the boards' account starts over at the epoch's event: the slots free now (events already
    // here return theirs when they close)
    m_epochAt = Simulator::Now();
    uint64_t held = std::min<uint64_t>(m_partial.size(), m_eventSlots);
    m_granted = m_eventSlots - uint32_t(held);
    m_creditFreed = 0;
    for (auto& waiting : m_announceWaiting)
    {
        waiting.clear(); // the old epoch's counts mean nothing now
    }
    Announce(true);
}

void
RoceReceiverApp::Announce(bool fresh)
{
    // events [0, m_triggered) have triggered: valid from m_triggered - 1 + lead
    uint64_t validFrom = m_triggered + m_lead - 1;
    uint32_t imm = EncodeAnnouncement(validFrom, m_granted, fresh);
    for (std::size_t b = 0; b < m_announceQps.size(); b++)
    {
        m_announceWaiting[b].push_back(imm);
        FlushAnnouncements(b);
    }
}

void
RoceReceiverApp::FlushAnnouncements(std::size_t b)
{
    std::deque<uint32_t>& waiting = m_announceWaiting[b];
    Ptr<RoceQueuePair> qp = m_announceQps[b];
    while (m_up && !waiting.empty() && qp->GetState() == RoceQueuePair::RTS)
    {
        RoceWorkRequest wr;
        wr.id = m_creditMessages;
        wr.write = false;
        wr.withImm = true;
        wr.imm = waiting.front();
        wr.length = 0;
        if (!qp->PostSend(wr))
        {
            return; // the send queue is full: a completion makes room
        }
        m_creditMessages++;
        waiting.pop_front();
    }
}

void
RoceReceiverApp::AnnounceCompletedOn(RoceReceiverApp* app, std::size_t b, const RoceCompletion& c)
{
    if (c.status == ROCE_WC_SUCCESS)
    {
        app->FlushAnnouncements(b);
    }
}

void
RoceReceiverApp::CreditCompletedOn(RoceReceiverApp* app, const RoceCompletion& c)
{
    if (c.status == ROCE_WC_SUCCESS && app->m_creditWaiting)
    {
        app->SendCredits(); // a slot in the send queue again: the latest count
    }
}

void
RoceReceiverApp::SendCredits()
{
    if (!m_announceQps.empty())
    {
        if (m_up)
        {
            Announce(false);
        }
        return;
    }
    if (!m_up || !m_creditQp || m_creditQp->GetState() != RoceQueuePair::RTS)
    {
        return;
    }
    RoceWorkRequest wr;
    wr.id = m_creditMessages;
    wr.write = false;
    wr.withImm = true;
    wr.imm = m_granted;
    wr.length = 0;
    m_creditWaiting = !m_creditQp->PostSend(wr);
    if (!m_creditWaiting)
    {
        m_creditMessages++;
    }
}

void
RoceReceiverApp::Heartbeat()
{
    m_granted += m_creditFreed;
    m_creditFreed = 0;
    SendCredits();
    m_heartbeat = Simulator::Schedule(m_creditInterval, &RoceReceiverApp::Heartbeat, this);
}

void
RoceReceiverApp::Fragment(uint64_t event, bool empty)
{
    if (m_timedOut.count(event))
    {
        m_late++; // its event was closed: too late
        return;
    }
    Partial& p = m_partial[event];
    if (p.fragments == 0)
    {
        m_deadlines.emplace_back(Simulator::Now() + m_eventTimeout, event);
        if (FeroceSim::IsExpired(m_timeoutEvent))
        {
            m_timeoutEvent =
                Simulator::Schedule(m_eventTimeout, &RoceReceiverApp::CheckTimeouts, this);
        }
    }
    p.incomplete = p.incomplete || empty;
    if (++p.fragments < m_fragmentsPerEvent)
    {
        return;
    }
    bool incomplete = p.incomplete;
    m_partial.erase(event);
    if (incomplete)
    {
        m_timedOut.insert(event);
        m_incomplete++;
        m_incompleteTrace(event);
    }
    else
    {
        m_built++;
        m_builtTrace(event);
    }
    Closed(event);
}

void
RoceReceiverApp::CheckTimeouts()
{
    Time now = Simulator::Now();
    while (!m_deadlines.empty() && m_deadlines.front().first <= now)
    {
        uint64_t event = m_deadlines.front().second;
        m_deadlines.pop_front();
        if (m_partial.erase(event))
        {
            m_timedOut.insert(event);
            m_timedOutCount++;
            m_timedOutTrace(event);
            Closed(event);
        }
    }
    if (!m_deadlines.empty())
    {
        m_timeoutEvent = Simulator::Schedule(m_deadlines.front().first - now,
                                             &RoceReceiverApp::CheckTimeouts,
                                             this);
    }
}

void
RoceReceiverApp::Closed(uint64_t /* event */)
{
    if (!Announcing())
    {
        return;
    }
    if (++m_creditFreed >= m_creditBatch)
    {
        m_granted += m_creditFreed;
        m_creditFreed = 0;
        SendCredits();
    }
}

void
RoceReceiverApp::Fail()
{
    m_up = false;
    for (const auto& p : m_partial)
    {
        m_crashed++;
        m_timedOut.insert(p.first); // a fragment of it that comes later is no use
        m_crashLostTrace(p.first);
    }
    m_partial.clear();
    m_deadlines.clear();
    m_timeoutEvent.Cancel();
    m_heartbeat.Cancel();
}

void
RoceReceiverApp::Restart()
{
    m_up = true;
    m_creditFreed = 0;
    if (Announcing())
    {
        m_heartbeat = Simulator::Schedule(m_creditInterval, &RoceReceiverApp::Heartbeat, this);
    }
}

bool
RoceReceiverApp::IsUp() const
{
    return m_up;
}

uint64_t
RoceReceiverApp::GetEventsBuilt() const
{
    return m_built;
}

uint64_t
RoceReceiverApp::GetEventsTimedOut() const
{
    return m_timedOutCount;
}

uint64_t
RoceReceiverApp::GetEventsIncomplete() const
{
    return m_incomplete;
}

uint64_t
RoceReceiverApp::GetEventsCrashed() const
{
    return m_crashed;
}

uint64_t
RoceReceiverApp::GetLateFragments() const
{
    return m_late;
}

uint64_t
RoceReceiverApp::GetCreditMessages() const
{
    return m_creditMessages;
}

std::size_t
RoceReceiverApp::GetPartialEvents() const
{
    return m_partial.size();
}

std::vector<uint64_t>
RoceReceiverApp::GetPartialEventNumbers() const
{
    std::vector<uint64_t> events;
    events.reserve(m_partial.size());
    for (const auto& p : m_partial)
    {
        events.push_back(p.first);
    }
    return events;
}

std::string
RoceReceiverApp::Validate() const
{
    if (!(m_postRate >= 0 && m_postRate <= 1e12))
    {
        return "PostRate = " + std::to_string(m_postRate) +
               " is not allowed: expected 0 (keep ReceiveBuffers posted) or a rate in (0, 1e12] "
               "buffers per second";
    }
    if (m_postRate > 0 && m_receiveBuffers == 0)
    {
        return "ReceiveBuffers = 0 is not allowed with PostRate = " + std::to_string(m_postRate) +
               ": expected >= 1 (the most buffers waiting on a queue pair)";
    }
    if (m_fragmentsPerEvent && !m_eventTimeout.IsStrictlyPositive())
    {
        return "EventTimeout = " + std::to_string(m_eventTimeout.GetNanoSeconds()) +
               "ns is not allowed with FragmentsPerEvent > 0: expected > 0";
    }
    if (m_eventSlots && !m_fragmentsPerEvent)
    {
        return "EventSlots = " + std::to_string(m_eventSlots) +
               " is not allowed with FragmentsPerEvent = 0: expected 0 (credits count events)";
    }
    if (!m_announceQps.empty() && (m_lead < 1 || m_lead > 32767))
    {
        return "AnnounceLead = " + std::to_string(m_lead) +
               " is not allowed: expected 1..32767 events (an announcement is valid from the "
               "trigger counted + AnnounceLead - 1)";
    }
    if (!m_announceQps.empty() && (m_eventSlots < 1 || m_eventSlots > 32767))
    {
        return "EventSlots = " + std::to_string(m_eventSlots) +
               " is not allowed with announcements to the boards: expected 1..32767 (15 bits)";
    }
    if (m_eventSlots && (m_creditBatch < 1 || m_creditBatch > m_eventSlots))
    {
        return "CreditBatch = " + std::to_string(m_creditBatch) +
               " is not allowed: expected 1..EventSlots = " + std::to_string(m_eventSlots);
    }
    if (m_eventSlots && !m_creditInterval.IsStrictlyPositive())
    {
        return "CreditInterval = " + std::to_string(m_creditInterval.GetNanoSeconds()) +
               "ns is not allowed with EventSlots > 0: expected > 0";
    }
    return "";
}

void
RoceReceiverApp::StartApplication()
{
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), "RoceReceiverApp: " << error);
    if (!m_announceQps.empty())
    {
        Trigger(); // the boards trigger event 0 now
        NewEpoch();
        m_heartbeat = Simulator::Schedule(m_creditInterval, &RoceReceiverApp::Heartbeat, this);
    }
    else if (m_eventSlots && m_creditQp)
    {
        m_granted = m_eventSlots;
        SendCredits();
        m_heartbeat = Simulator::Schedule(m_creditInterval, &RoceReceiverApp::Heartbeat, this);
    }
    if (m_postRate > 0)
    {
        m_postStart = Simulator::Now();
        m_postTicks = 0;
        SchedulePost();
        return;
    }
    for (auto& qp : m_qps)
    {
        while (qp->GetReceiveQueueLength() < m_receiveBuffers)
        {
            qp->PostReceive(m_nextRecvId++);
            m_buffersPosted++;
        }
    }
}

void
RoceReceiverApp::PostTick()
{
    for (auto& qp : m_qps)
    {
        if (qp->GetReceiveQueueLength() < m_receiveBuffers)
        {
            qp->PostReceive(m_nextRecvId++);
            m_buffersPosted++;
        }
    }
    SchedulePost();
}

void
RoceReceiverApp::SchedulePost()
{
    // tick n at n / PostRate from the start, rounded to the nanosecond: no drift
    m_postTicks++;
    Time at =
        m_postStart + NanoSeconds(int64_t(std::llround(double(m_postTicks) * 1e9 / m_postRate)));
    m_postEvent = Simulator::Schedule(at - Simulator::Now(), &RoceReceiverApp::PostTick, this);
}

void
RoceReceiverApp::StopApplication()
{
    m_postEvent.Cancel();
    m_heartbeat.Cancel();
    m_triggerEvent.Cancel();
}

void
RoceReceiverApp::ReceivedOn(void* app, uint32_t index, const RoceReceive& r)
{
    static_cast<RoceReceiverApp*>(app)->Received(index, r);
}

void
RoceReceiverApp::Received(std::size_t index, const RoceReceive& r)
{
    if (!m_up)
    {
        return; // a failed host delivers nothing
    }
    m_bytes[index] += r.bytes;
    m_totalBytes += r.bytes;
    m_rxTrace(r.qpn, r.bytes);
    if (r.last)
    {
        m_messages++;
        if (!r.write && m_postRate == 0)
        {
            m_qps[index]->PostReceive(m_nextRecvId++); // the consumed buffer goes back
            m_buffersPosted++;
        }
        if (m_fragmentsPerEvent && r.withImm)
        {
            // (a fragment's last packet carries at least a byte: an empty one is a single packet)
            Fragment(r.imm, r.bytes == 0);
        }
    }
}

uint64_t
RoceReceiverApp::GetBytesReceived() const
{
    return m_totalBytes;
}

uint64_t
RoceReceiverApp::GetMessagesReceived() const
{
    return m_messages;
}

uint64_t
RoceReceiverApp::GetBuffersPosted() const
{
    return m_buffersPosted;
}

uint64_t
RoceReceiverApp::GetBytesReceived(std::size_t i) const
{
    return i < m_bytes.size() ? m_bytes[i] : 0;
}

} // namespace ns3
