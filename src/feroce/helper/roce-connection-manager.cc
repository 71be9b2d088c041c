/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-connection-manager.h"

#include "roce-helper.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/object-vector.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceConnectionManager");

namespace
{
/// Callbacks of a NIC's trace and link change back into the manager (bound free functions:
/// Callback::Bind needs ns-3.36).
void
QpErrorOn(std::function<void()>* check, uint32_t /* qpn */)
{
    (*check)();
}

void
LinkChangeOn(std::function<void()>* check)
{
    (*check)();
}
} // namespace

RoceConnectionManager::RoceConnectionManager(Time reconnectDelay)
    : m_delay(reconnectDelay)
{
}

std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>
RoceConnectionManager::Connect(Ptr<RoceNic> a, Ptr<RoceNic> b, Replace onReplace)
{
    auto qp = RoceHelper::ConnectQueuePairs(a, b);
    Connection c;
    c.a = a;
    c.b = b;
    c.qa = qp.first;
    c.qb = qp.second;
    c.onReplace = onReplace;
    m_connections.push_back(c);
    Watch(a);
    Watch(b);
    return qp;
}

void
RoceConnectionManager::Watch(Ptr<RoceNic> nic)
{
    if (m_watched[PeekPointer(nic)])
    {
        return;
    }
    m_watched[PeekPointer(nic)] = true;
    m_checks.emplace_back(new std::function<void()>([this, n = PeekPointer(nic)]() { Check(n); }));
    std::function<void()>* check = m_checks.back().get();
    nic->TraceConnectWithoutContext("QueuePairError", MakeBoundCallback(&QpErrorOn, check));
    nic->AddLinkChangeCallback(MakeBoundCallback(&LinkChangeOn, check));
}

void
RoceConnectionManager::SetHostUp(Ptr<RoceNic> nic, bool up)
{
    RoceNic* n = PeekPointer(nic);
    m_down[n] = !up;
    if (!up)
    {
        // its queue pairs' contexts are gone: each in error, its requests flushed
        ObjectVectorValue qps;
        nic->GetAttribute("QueuePairs", qps);
        for (auto it = qps.Begin(); it != qps.End(); ++it)
        {
            DynamicCast<RoceQueuePair>(it->second)->SetError();
        }
        return;
    }
    Check(n);
}

bool
RoceConnectionManager::IsHostUp(Ptr<RoceNic> nic) const
{
    auto it = m_down.find(PeekPointer(nic));
    return it == m_down.end() || !it->second;
}

uint64_t
RoceConnectionManager::GetReconnections() const
{
    return m_reconnections;
}

bool
RoceConnectionManager::Reachable(const Connection& c) const
{
    return IsHostUp(c.a) && IsHostUp(c.b) && c.a->IsLinkUp() && c.b->IsLinkUp();
}

bool
RoceConnectionManager::Broken(const Connection& c) const
{
    return c.qa->GetState() != RoceQueuePair::RTS || c.qb->GetState() != RoceQueuePair::RTS;
}

void
RoceConnectionManager::Check(RoceNic* nic)
{
    for (std::size_t i = 0; i < m_connections.size(); i++)
    {
        const Connection& c = m_connections[i];
        if (PeekPointer(c.a) == nic || PeekPointer(c.b) == nic)
        {
            Schedule(i);
        }
    }
}

void
RoceConnectionManager::Schedule(std::size_t i)
{
    Connection& c = m_connections[i];
    if (c.scheduled || !Broken(c) || !Reachable(c))
    {
        return; // the host or link coming back checks it again
    }
    c.scheduled = true;
    Simulator::Schedule(m_delay, &RoceConnectionManager::Reconnect, this, i);
}

void
RoceConnectionManager::Reconnect(std::size_t i)
{
    Connection& c = m_connections[i];
    c.scheduled = false;
    if (!Broken(c) || !Reachable(c))
    {
        return;
    }
    // the end still connected learns (from the CM) that its peer is gone
    c.qa->SetError();
    c.qb->SetError();
    auto qp = RoceHelper::ConnectQueuePairs(c.a, c.b);
    c.qa = qp.first;
    c.qb = qp.second;
    m_reconnections++;
    NS_LOG_INFO("connection " << i << " re-established: QPs " << c.qa->GetQpn() << " and "
                              << c.qb->GetQpn());
    c.onReplace(c.qa, c.qb);
}

} // namespace ns3
