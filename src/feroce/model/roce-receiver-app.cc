/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-receiver-app.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

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
            .AddTraceSource("Rx",
                            "Payload delivered in order on a queue pair",
                            MakeTraceSourceAccessor(&RoceReceiverApp::m_rxTrace),
                            "ns3::RoceReceiverApp::RxTracedCallback");
    return tid;
}

RoceReceiverApp::RoceReceiverApp()
    : m_receiveBuffers(64),
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

void
RoceReceiverApp::StartApplication()
{
    for (auto& qp : m_qps)
    {
        while (qp->GetReceiveQueueLength() < m_receiveBuffers)
        {
            qp->PostReceive(m_nextRecvId++);
        }
    }
}

void
RoceReceiverApp::StopApplication()
{
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
        if (!r.write)
        {
            m_qps[index]->PostReceive(m_nextRecvId++); // the consumed buffer goes back
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
RoceReceiverApp::GetBytesReceived(std::size_t i) const
{
    return i < m_bytes.size() ? m_bytes[i] : 0;
}

} // namespace ns3
