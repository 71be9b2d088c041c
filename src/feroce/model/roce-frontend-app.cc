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

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFrontEndApp");
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
            .AddTraceSource("EventLost",
                            "An event did not fit in the on-board buffer (its number)",
                            MakeTraceSourceAccessor(&RoceFrontEndApp::m_lostTrace),
                            "ns3::TracedValueCallback::Uint64");
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
      m_bufferPeak(0)
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
    Application::DoDispose();
}

void
RoceFrontEndApp::SetQueuePair(Ptr<RoceQueuePair> qp)
{
    m_dests.clear();
    AddQueuePair(qp);
}

void
RoceFrontEndApp::AddQueuePair(Ptr<RoceQueuePair> qp)
{
    NS_ABORT_MSG_IF(!qp, "RoceFrontEndApp: AddQueuePair(nullptr)");
    std::size_t index = m_dests.size();
    m_dests.emplace_back();
    m_dests.back().qp = qp;
    // a bound free function: Callback::Bind needs ns-3.36
    qp->SetCompletionCallback(MakeBoundCallback(&RoceFrontEndApp::CompletedOn, this, index));
}

Ptr<RoceQueuePair>
RoceFrontEndApp::GetQueuePair() const
{
    return m_dests.empty() ? nullptr : m_dests[0].qp;
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
    return "";
}

void
RoceFrontEndApp::StartApplication()
{
    NS_ABORT_MSG_IF(m_dests.empty(), "RoceFrontEndApp: no queue pair (SetQueuePair)");
    NS_ABORT_MSG_IF(!Validate().empty(), "RoceFrontEndApp: " << Validate());
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
    if (m_buffered + m_messageSize > m_bufferSize)
    {
        m_lost++;
        NS_LOG_LOGIC("event " << event << " lost: " << m_buffered << " of " << m_bufferSize
                              << " buffer bytes held");
        m_lostTrace(event);
    }
    else
    {
        // event building: every board sends event n to the same receiver, n mod K
        std::size_t i = event % m_dests.size();
        m_buffered += m_messageSize;
        m_bufferPeak = std::max(m_bufferPeak, m_buffered);
        m_bufferWindowPeak = std::max(m_bufferWindowPeak, m_buffered);
        m_dests[i].waiting.push_back(event);
        PostPending(i);
    }
    Time gap = m_triggerInterval;
    if (m_poisson)
    {
        gap = NanoSeconds(
            int64_t(m_interval->GetValue(double(m_triggerInterval.GetNanoSeconds()), 0)));
    }
    m_triggerEvent = Simulator::Schedule(gap, &RoceFrontEndApp::Trigger, this);
}

void
RoceFrontEndApp::PostPending(std::size_t i)
{
    Destination& d = m_dests[i];
    while (m_running && (m_saturate || !d.waiting.empty()) &&
           d.qp->GetSendQueueLength() < m_maxOutstanding)
    {
        uint64_t id = m_saturate ? m_nextId : d.waiting.front();
        RoceWorkRequest wr;
        wr.id = id;
        wr.write = m_write;
        wr.withImm = m_withImm;
        wr.imm = uint32_t(id);
        wr.length = m_messageSize;
        wr.remoteAddr = 0x10000000ULL + (d.posted % 64) * m_messageSize;
        wr.rkey = 0x1234;
        if (!d.qp->PostSend(wr))
        {
            return; // the send queue is full: a completion makes room
        }
        d.posted++;
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
RoceFrontEndApp::CompletedOn(RoceFrontEndApp* app, std::size_t i, const RoceCompletion& c)
{
    app->Completed(i, c);
}

void
RoceFrontEndApp::Completed(std::size_t i, const RoceCompletion& c)
{
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
        m_buffered -= std::min(m_buffered, c.length); // acknowledged: the board frees it
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

} // namespace ns3
