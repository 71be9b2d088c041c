/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-frontend-app.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFrontEndApp");

namespace
{
/// In a destination's queue (and a request's id): an empty fragment for this event, not data.
const uint64_t kMarker = uint64_t(1) << 63;
} // namespace

NS_OBJECT_ENSURE_REGISTERED(RoceFrontEndApp);

TypeId
RoceFrontEndApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceFrontEndApp")
            .SetParent<Application>()
            .SetGroupName("Feroce")
            .AddConstructor<RoceFrontEndApp>()
            .AddAttribute("MessageSize",
                          "Bytes per message (per event in trigger mode)",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RoceFrontEndApp::m_messageSize),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 31))
            .AddAttribute("Mode",
                          "saturate (always data) or trigger (events at TriggerInterval)",
                          StringValue("saturate"),
                          MakeStringAccessor(&RoceFrontEndApp::m_mode),
                          MakeStringChecker())
            .AddAttribute("TriggerInterval",
                          "Trigger mode: time between events (the mean if Poisson)",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RoceFrontEndApp::m_triggerInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Poisson",
                          "Trigger mode: exponential gaps instead of periodic",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceFrontEndApp::m_poisson),
                          MakeBooleanChecker())
            .AddAttribute("BufferSize",
                          "Trigger mode: on-board buffer bytes; an event that does not fit is lost",
                          UintegerValue(4 << 20),
                          MakeUintegerAccessor(&RoceFrontEndApp::m_bufferSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxOutstanding",
                          "Most messages posted and not yet completed on each queue pair (a board "
                          "keeps a few in flight; the send queue may allow more)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RoceFrontEndApp::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Write",
                          "RDMA WRITE (true) or SEND (false)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceFrontEndApp::m_write),
                          MakeBooleanChecker())
            .AddAttribute("WithImmediate",
                          "Messages carry immediate data (the message number)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceFrontEndApp::m_withImm),
                          MakeBooleanChecker())
            .AddAttribute("Assignment",
                          "Trigger mode, several queue pairs: static (event n to the n mod K-th), "
                          "availability (to the receiver an assigner names in a message on "
                          "the assignment queue pair; the event waits in the buffer until then) "
                          "or board-rule (to the receiver BoardCreditRule names from the "
                          "receivers' announcements this board has seen)",
                          StringValue("static"),
                          MakeStringAccessor(&RoceFrontEndApp::m_assignment),
                          MakeStringChecker())
            .AddAttribute("LostMarkers",
                          "Trigger mode: an event lost to the full buffer is announced to its "
                          "receiver as an empty fragment (a zero-length WRITE with immediate)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceFrontEndApp::m_lostMarkers),
                          MakeBooleanChecker())
            .AddAttribute("CreditExpiry",
                          "board-rule: a receiver whose latest announcement is valid from more "
                          "than this many events ago is out of the rule until it announces "
                          "again; 0: only missing credits take it out",
                          UintegerValue(32),
                          MakeUintegerAccessor(&RoceFrontEndApp::m_creditExpiry),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("ReceiverLapsed",
                            "board-rule: a receiver's announcements lapsed (CreditExpiry)",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_lapsedTrace),
                            "ns3::RoceAssignerApp::ReceiverTracedCallback")
            .AddTraceSource("EventLost",
                            "An event did not fit in the on-board buffer (its number)",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_lostTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Trigger",
                            "A trigger: the event's number (stored or lost)",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_triggerTrace),
                            "ns3::RoceFrontEndApp::EventTracedCallback")
            .AddTraceSource("FragmentPosted",
                            "An event's fragment posted on a destination's queue pair",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_postedTrace),
                            "ns3::RoceFrontEndApp::FragmentTracedCallback")
            .AddTraceSource("FragmentFailed",
                            "An event's fragment that will not be delivered: its request failed, "
                            "or it waited for a queue pair in the error state",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_failedTrace),
                            "ns3::RoceFrontEndApp::FragmentTracedCallback");
    return tid;
}

RoceFrontEndApp::RoceFrontEndApp()
    : m_messageSize(1 << 20),
      m_poisson(false),
      m_bufferSize(4 << 20),
      m_maxOutstanding(4),
      m_write(true),
      m_withImm(false),
      m_running(false),
      m_saturate(true),
      m_nextId(0),
      m_buffered(0),
      m_generated(0),
      m_lost(0),
      m_completed(0),
      m_bytesCompleted(0),
      m_bufferPeak(0),
      m_assignment("static")
{
    m_interval = CreateObject<ExponentialRandomVariable>();
}

RoceFrontEndApp::~RoceFrontEndApp()
{
}

void
RoceFrontEndApp::DoDispose()
{
    m_dests.clear();
    m_assignQp = nullptr;
    m_announceQps.clear();
    Application::DoDispose();
}

void
RoceFrontEndApp::SetQueuePair(Ptr<RoceQueuePair> qp)
{
    m_dests.clear();
    m_inFlight.clear();
    AddQueuePair(qp);
}

void
RoceFrontEndApp::AddQueuePair(Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(!qp, "RoceFrontEndApp: AddQueuePair(nullptr)");
    std::size_t index = m_dests.size();
    m_dests.emplace_back();
    m_inFlight.emplace_back();
    m_dests.back().qp = qp;
    m_dests.back().since = Simulator::Now();
    qp->SetCompletionHandler(&RoceFrontEndApp::CompletedOn, this, uint32_t(index));
}

void
RoceFrontEndApp::ReplaceQueuePair(std::size_t i, Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(i >= m_dests.size() || !qp, "RoceFrontEndApp: ReplaceQueuePair(" << i << ")");
    m_dests[i].qp = qp;
    m_dests[i].since = Simulator::Now();
    qp->SetCompletionHandler(&RoceFrontEndApp::CompletedOn, this, uint32_t(i));
    PostPending(i);
}

void
RoceFrontEndApp::SetAssignmentQueuePair(Ptr<RoceQueuePair> qp)
{
    m_assignQp = qp;
    m_assignBytes = 0;
    qp->SetReceiveCallback(MakeBoundCallback(&RoceFrontEndApp::AssignmentOn, this));
    // receive buffers for the assigner's SENDs, one re-posted per message
    while (qp->GetReceiveQueueLength() < 64)
    {
        qp->PostReceive(m_nextRecvId++);
    }
}

void
RoceFrontEndApp::SetAnnounceQueuePair(std::size_t k, Ptr<RoceQueuePair> qp)
{
    if (k >= m_announceQps.size())
    {
        m_announceQps.resize(k + 1);
    }
    m_announceQps[k] = qp;
    qp->SetReceiveCallback(MakeBoundCallback(&RoceFrontEndApp::AnnouncementOn, this, k));
    while (qp->GetReceiveQueueLength() < 64)
    {
        qp->PostReceive(m_nextRecvId++);
    }
}

Ptr<RoceQueuePair>
RoceFrontEndApp::GetQueuePair() const
{
    return m_dests.empty() ? nullptr : m_dests[0].qp;
}

Time
RoceFrontEndApp::GetConnectedSince(std::size_t i) const
{
    return i < m_dests.size() ? m_dests[i].since : Time(0);
}

Ptr<RoceQueuePair>
RoceFrontEndApp::GetQueuePair(std::size_t i) const
{
    return i < m_dests.size() ? m_dests[i].qp : nullptr;
}

std::size_t
RoceFrontEndApp::GetNQueuePairs() const
{
    return m_dests.size();
}

int64_t
RoceFrontEndApp::AssignStreams(int64_t stream)
{
    m_interval->SetStream(stream);
    return 1;
}

std::string
RoceFrontEndApp::Validate() const
{
    if (m_mode != "saturate" && m_mode != "trigger")
    {
        return "Mode = " + m_mode + " is not allowed: expected saturate or trigger";
    }
    if (m_assignment != "static" && m_assignment != "availability" && m_assignment != "board-rule")
    {
        return "Assignment = " + m_assignment +
               " is not allowed: expected static, availability or board-rule";
    }
    return "";
}

void
RoceFrontEndApp::StartApplication()
{
    NS_ABORT_MSG_IF(m_dests.empty(), "RoceFrontEndApp: no queue pair (SetQueuePair)");
    NS_ABORT_MSG_IF(!Validate().empty(), "RoceFrontEndApp: " << Validate());
    // board-rule holds events as availability does, the rule standing for the assigner
    m_boardRule = m_assignment == "board-rule";
    m_availability = m_assignment != "static";
    NS_ABORT_MSG_IF(m_availability && !m_boardRule && (m_mode != "trigger" || !m_assignQp),
                    "RoceFrontEndApp: Assignment = availability needs Mode = trigger and an "
                    "assignment queue pair (SetAssignmentQueuePair)");
    NS_ABORT_MSG_IF(m_boardRule && (m_mode != "trigger" || m_announceQps.size() != m_dests.size()),
                    "RoceFrontEndApp: Assignment = board-rule needs Mode = trigger and an "
                    "announcement queue pair per destination (SetAnnounceQueuePair)");
    if (m_boardRule)
    {
        m_rule.Reset(uint32_t(m_dests.size()), m_creditExpiry);
    }
    m_running = true;
    m_saturate = m_mode == "saturate";
    if (m_saturate)
    {
        for (std::size_t i = 0; i < m_dests.size(); i++)
        {
            PostPending(i);
        }
    }
    else
    {
        Trigger();
    }
}

void
RoceFrontEndApp::StopApplication()
{
    m_running = false;
    m_triggerEvent.Cancel();
}

void
RoceFrontEndApp::Trigger()
{
    uint64_t event = m_generated++;
    m_triggerTrace(event);
    if (m_buffered + m_messageSize > m_bufferSize)
    {
        m_lost++;
        NS_LOG_LOGIC("event " << event << " lost: " << m_buffered << " of " << m_bufferSize
                              << " buffer bytes held");
        m_lostTrace(event);
        if (m_lostMarkers && !m_availability)
        {
            Route(event | kMarker, event % m_dests.size());
        }
        else if (m_lostMarkers)
        {
            auto known = m_future.find(event);
            if (known == m_future.end())
            {
                m_lostPending.insert(event); // the marker goes when its receiver is known
            }
            else
            {
                Route(event | kMarker, known->second);
                m_future.erase(known);
            }
        }
        else
        {
            m_future.erase(event);
        }
    }
    else
    {
        m_buffered += m_messageSize;
        m_bufferPeak = std::max(m_bufferPeak, m_buffered);
        m_bufferWindowPeak = std::max(m_bufferWindowPeak, m_buffered);
        if (!m_availability)
        {
            // event building: every board sends event n to the same receiver, n mod K
            Route(event, event % m_dests.size());
        }
        else
        {
            auto known = m_future.find(event);
            if (known == m_future.end())
            {
                m_unassigned.push_back(event); // held until the assigner names its receiver
            }
            else
            {
                uint32_t dest = known->second;
                m_future.erase(known);
                Route(event, dest);
            }
        }
    }
    if (m_boardRule)
    {
        ApplyRule(event);
    }
    m_triggerEvent = Simulator::Schedule(NextTriggerGap(m_triggerInterval, m_poisson, m_interval),
                                         &RoceFrontEndApp::Trigger,
                                         this);
}

void
RoceFrontEndApp::Route(uint64_t event, std::size_t i)
{
    m_dests[i].waiting.push_back(event);
    PostPending(i);
}

void
RoceFrontEndApp::AssignmentOn(RoceFrontEndApp* app, const RoceReceive& r)
{
    app->m_assignBytes += r.bytes;
    if (!r.last)
    {
        return;
    }
    app->m_assignQp->PostReceive(app->m_nextRecvId++); // the consumed buffer goes back
    uint64_t count = std::max<uint64_t>(app->m_assignBytes, 1);
    app->m_assignBytes = 0;
    app->m_assignments++;
    uint64_t first = DecodeAssignmentEvent(r.imm, app->m_generated);
    app->Assigned(first, count, r.imm & 0xff);
}

void
RoceFrontEndApp::AnnouncementOn(RoceFrontEndApp* app, std::size_t k, const RoceReceive& r)
{
    if (!r.last)
    {
        return;
    }
    app->m_announceQps[k]->PostReceive(app->m_nextRecvId++); // the consumed buffer goes back
    if (!r.withImm)
    {
        return;
    }
    BoardCreditRule& rule = app->m_rule;
    uint64_t validFrom = DecodeAnnouncementEvent(r.imm, rule.GetNext());
    uint32_t granted = DecodeAnnouncementGranted(r.imm, rule.GetGranted(uint32_t(k)));
    app->m_announcements++;
    if (rule.Announce(uint32_t(k), validFrom, granted, IsFreshAnnouncement(r.imm)))
    {
        app->m_lateAnnouncements++;
        NS_LOG_INFO("receiver " << k << "'s announcement valid from event " << validFrom
                                << " came after event " << rule.GetNext() - 1);
    }
}

void
RoceFrontEndApp::ApplyRule(uint64_t n)
{
    m_ruleAssigned.clear();
    m_ruleLapsed.clear();
    m_rule.Advance(n, m_ruleAssigned, m_ruleLapsed);
    for (uint32_t k : m_ruleLapsed)
    {
        m_lapsedTrace(k);
    }
    for (const auto& a : m_ruleAssigned)
    {
        Assigned(a.first, 1, a.second);
    }
}

void
RoceFrontEndApp::Assigned(uint64_t first, uint64_t count, uint32_t dest)
{
    NS_ABORT_MSG_IF(dest >= m_dests.size(),
                    "RoceFrontEndApp: an assignment names receiver " << dest << " of "
                                                                     << m_dests.size());
    for (uint64_t e = first; e < first + count; e++)
    {
        if (e >= m_generated)
        {
            m_future[e] = dest; // not triggered here yet
            continue;
        }
        if (m_lostPending.erase(e))
        {
            Route(e | kMarker, dest); // lost here: the receiver hears so
            continue;
        }
        // events are assigned in order: the one waiting longest, unless it was lost
        auto it = m_unassigned.begin();
        while (it != m_unassigned.end() && *it != e)
        {
            ++it;
        }
        if (it == m_unassigned.end())
        {
            continue; // lost when it triggered (buffer full)
        }
        m_unassigned.erase(it);
        Route(e, dest);
    }
}

void
RoceFrontEndApp::FragmentFailed(uint64_t event, std::size_t i)
{
    m_buffered -= std::min(m_buffered, m_messageSize);
    m_failedTrace(event, uint32_t(i));
}

void
RoceFrontEndApp::PostPending(std::size_t i)
{
    Destination& d = m_dests[i];
    if (!m_saturate && d.qp->GetState() == RoceQueuePair::ERROR)
    {
        // a dead connection: what waits for it is lost (a new one comes with ReplaceQueuePair)
        while (!d.waiting.empty())
        {
            if (!(d.waiting.front() & kMarker))
            {
                m_dropped++;
                FragmentFailed(d.waiting.front(), i);
            }
            d.waiting.pop_front();
        }
        return;
    }
    while (m_running && (m_saturate || !d.waiting.empty()) &&
           d.qp->GetSendQueueLength() < m_maxOutstanding)
    {
        uint64_t id = m_saturate ? m_nextId : d.waiting.front();
        bool marker = id & kMarker;
        RoceWorkRequest wr;
        wr.id = id;
        wr.write = m_write;
        wr.withImm = m_withImm;
        wr.imm = uint32_t(id);
        wr.length = marker ? 0 : m_messageSize;
        wr.remoteAddr = 0x10000000ULL + (d.posted % 64) * m_messageSize;
        wr.rkey = 0x1234;
        if (marker)
        {
            wr.write = true; // a zero-length WRITE with immediate: the event number, no data
            wr.withImm = true;
        }
        if (!d.qp->PostSend(wr))
        {
            return; // the send queue is full: a completion makes room
        }
        if (marker)
        {
            m_markers++;
        }
        else
        {
            d.posted++;
        }
        if (!m_saturate && !marker)
        {
            m_inFlight[i].push_back(id);
            m_postedTrace(id, uint32_t(i));
        }
        if (m_saturate)
        {
            m_nextId++;
        }
        else
        {
            d.waiting.pop_front();
        }
    }
}

void
RoceFrontEndApp::CompletedOn(void* app, uint32_t i, const RoceCompletion& c)
{
    static_cast<RoceFrontEndApp*>(app)->Completed(i, c);
}

void
RoceFrontEndApp::Completed(std::size_t i, const RoceCompletion& c)
{
    if (!m_saturate && (c.id & kMarker))
    {
        PostPending(i); // an empty fragment: no data, no buffer
        return;
    }
    if (c.status == ROCE_WC_SUCCESS)
    {
        m_completed++;
        m_bytesCompleted += c.length;
        m_dests[i].completed++;
        m_dests[i].bytesCompleted += c.length;
    }
    else
    {
        m_failed++;
        if (m_failure == ROCE_WC_SUCCESS && c.status != ROCE_WC_FLUSHED)
        {
            m_failure = c.status;
            NS_LOG_WARN("queue pair " << c.qpn << ": request " << c.id
                                      << " failed: " << RoceCompletionStatusName(c.status));
        }
    }
    if (!m_saturate)
    {
        // completions come in order of posting on a queue pair (and a replaced one's first)
        auto& posted = m_inFlight[i];
        auto it = std::find(posted.begin(), posted.end(), c.id);
        if (it != posted.end())
        {
            posted.erase(it);
        }
        if (c.status == ROCE_WC_SUCCESS)
        {
            m_buffered -= std::min(m_buffered, c.length); // acknowledged: the board frees it
        }
        else
        {
            FragmentFailed(c.id, i); // its queue pair gave up: the board frees it too
        }
    }
    PostPending(i);
}

uint64_t
RoceFrontEndApp::GetEventsGenerated() const
{
    return m_generated;
}

uint64_t
RoceFrontEndApp::GetEventsLost() const
{
    return m_lost;
}

uint64_t
RoceFrontEndApp::GetMessagesCompleted() const
{
    return m_completed;
}

uint64_t
RoceFrontEndApp::GetBytesCompleted() const
{
    return m_bytesCompleted;
}

uint64_t
RoceFrontEndApp::GetMessagesCompleted(std::size_t i) const
{
    return i < m_dests.size() ? m_dests[i].completed : 0;
}

uint64_t
RoceFrontEndApp::GetBytesCompleted(std::size_t i) const
{
    return i < m_dests.size() ? m_dests[i].bytesCompleted : 0;
}

uint64_t
RoceFrontEndApp::GetBufferPeak() const
{
    return m_bufferPeak;
}

uint64_t
RoceFrontEndApp::GetBufferBytes() const
{
    return m_buffered;
}

uint64_t
RoceFrontEndApp::TakeBufferWindowPeak()
{
    uint64_t peak = m_bufferWindowPeak;
    m_bufferWindowPeak = m_buffered;
    return peak;
}

uint64_t
RoceFrontEndApp::GetMessagesFailed() const
{
    return m_failed;
}

RoceCompletionStatus
RoceFrontEndApp::GetFailureStatus() const
{
    return m_failure;
}

uint64_t
RoceFrontEndApp::GetFragmentsDropped() const
{
    return m_dropped;
}

uint64_t
RoceFrontEndApp::GetMarkersSent() const
{
    return m_markers;
}

uint64_t
RoceFrontEndApp::GetAssignmentsReceived() const
{
    return m_assignments;
}

std::size_t
RoceFrontEndApp::GetUnassigned() const
{
    return m_unassigned.size();
}

uint64_t
RoceFrontEndApp::GetAnnouncementsReceived() const
{
    return m_announcements;
}

uint64_t
RoceFrontEndApp::GetLateAnnouncements() const
{
    return m_lateAnnouncements;
}

std::vector<uint64_t>
RoceFrontEndApp::GetHeldEvents() const
{
    std::vector<uint64_t> held(m_unassigned.begin(), m_unassigned.end());
    for (std::size_t i = 0; i < m_dests.size(); i++)
    {
        const FeroceRing<uint64_t>& waiting = m_dests[i].waiting;
        for (std::size_t j = 0; j < waiting.size(); j++)
        {
            if (!(waiting[j] & kMarker))
            {
                held.push_back(waiting[j]);
            }
        }
        held.insert(held.end(), m_inFlight[i].begin(), m_inFlight[i].end());
    }
    return held;
}

} // namespace ns3
