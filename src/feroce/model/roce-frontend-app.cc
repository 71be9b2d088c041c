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
                          "Most messages posted and not yet completed (a board keeps a few in "
                          "flight; the send queue may allow more)",
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
      m_waiting(0),
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
    m_qp = nullptr;
    Application::DoDispose();
}

void
RoceFrontEndApp::SetQueuePair(Ptr<RoceQueuePair> qp)
{
    m_qp = qp;
    m_qp->SetCompletionCallback(MakeCallback(&RoceFrontEndApp::Completed, this));
}

Ptr<RoceQueuePair>
RoceFrontEndApp::GetQueuePair() const
{
    return m_qp;
}

int64_t
RoceFrontEndApp::AssignStreams(int64_t stream)
{
    m_interval->SetStream(stream);
    return 1;
}

void
RoceFrontEndApp::StartApplication()
{
    NS_ABORT_MSG_IF(!m_qp, "RoceFrontEndApp: no queue pair (SetQueuePair)");
    NS_ABORT_MSG_IF(m_mode != "saturate" && m_mode != "trigger",
                    "RoceFrontEndApp: Mode = " << m_mode
                                               << " is not allowed: expected saturate or trigger");
    m_running = true;
    m_saturate = m_mode == "saturate";
    if (m_saturate)
    {
        PostPending();
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
    m_generated++;
    if (m_buffered + m_messageSize > m_bufferSize)
    {
        m_lost++;
        m_lostTrace(m_generated - 1);
    }
    else
    {
        m_buffered += m_messageSize;
        m_bufferPeak = std::max(m_bufferPeak, m_buffered);
        m_waiting++;
        PostPending();
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
RoceFrontEndApp::PostPending()
{
    while (m_running && (m_saturate || m_waiting > 0) &&
           m_qp->GetSendQueueLength() < m_maxOutstanding)
    {
        RoceWorkRequest wr;
        wr.id = m_nextId;
        wr.write = m_write;
        wr.withImm = m_withImm;
        wr.imm = uint32_t(m_nextId);
        wr.length = m_messageSize;
        wr.remoteAddr = 0x10000000ULL + (m_nextId % 64) * m_messageSize;
        wr.rkey = 0x1234;
        if (!m_qp->PostSend(wr))
        {
            return; // the send queue is full: a completion makes room
        }
        m_nextId++;
        if (!m_saturate)
        {
            m_waiting--;
        }
    }
}

void
RoceFrontEndApp::Completed(const RoceCompletion& c)
{
    if (c.status == ROCE_WC_SUCCESS)
    {
        m_completed++;
        m_bytesCompleted += c.length;
    }
    if (!m_saturate)
    {
        m_buffered -= std::min(m_buffered, c.length); // acknowledged: the board frees it
    }
    PostPending();
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
RoceFrontEndApp::GetBufferPeak() const
{
    return m_bufferPeak;
}

} // namespace ns3
