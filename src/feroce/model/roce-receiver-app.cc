/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-receiver-app.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

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
            .AddTraceSource("Rx",
                            "Payload delivered in order on a queue pair",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_rxTrace),
                            "ns3::RoceReceiverApp::RxTracedCallback");
    return tid;
}

RoceReceiverApp::RoceReceiverApp()
    : m_receiveBuffers(64),
      m_postRate(0),
      m_buffersPosted(0),
      m_totalBytes(0),
      m_messages(0),
      m_nextRecvId(0)
{
}

RoceReceiverApp::~RoceReceiverApp()
{
}

void
RoceReceiverApp::DoDispose()
{
    m_qps.clear();
    Application::DoDispose();
}

void
RoceReceiverApp::AddQueuePair(Ptr<RoceQueuePair> qp)
{
    std::size_t index = m_qps.size();
    m_qps.push_back(qp);
    m_bytes.push_back(0);
    // a bound free function: Callback::Bind needs ns-3.36
    qp->SetReceiveCallback(MakeBoundCallback(&RoceReceiverApp::ReceivedOn, this, index));
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
    return "";
}

void
RoceReceiverApp::StartApplication()
{
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), "RoceReceiverApp: " << error);
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
}

void
RoceReceiverApp::ReceivedOn(RoceReceiverApp* app, std::size_t index, const RoceReceive& r)
{
    app->Received(index, r);
}

void
RoceReceiverApp::Received(std::size_t index, const RoceReceive& r)
{
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
