/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-host-failures.h"

#include "roce-connection-manager.h"

#include "ns3/abort.h"
#include "ns3/feroce-channel.h"
#include "ns3/log.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHostFailures");

RoceHostFailures::RoceHostFailures(RoceConnectionManager* manager, const std::string& mode)
    : m_manager(manager),
      m_hostMode(mode == "host")
{
    NS_ABORT_MSG_IF(mode != "host" && mode != "link",
                    "RoceHostFailures: mode = " << mode
                                                << " is not allowed: expected host or link");
}

std::size_t
RoceHostFailures::AddHost(Ptr<RoceNic> nic,
                          Ptr<FeroceChannel> link,
                          std::function<void(bool up)> onState)
{
    Host h;
    h.nic = nic;
    h.link = link;
    h.onState = onState;
    m_hosts.push_back(h);
    m_upTime.push_back(CreateObject<ExponentialRandomVariable>());
    m_downTime.push_back(CreateObject<ExponentialRandomVariable>());
    return m_hosts.size() - 1;
}

int64_t
RoceHostFailures::AssignStreams(int64_t stream)
{
    for (std::size_t h = 0; h < m_hosts.size(); h++)
    {
        m_upTime[h]->SetStream(stream + int64_t(2 * h));
        m_downTime[h]->SetStream(stream + int64_t(2 * h + 1));
    }
    return int64_t(2 * m_hosts.size());
}

void
RoceHostFailures::Schedule(std::size_t h, Time down, Time up)
{
    NS_ABORT_MSG_IF(h >= m_hosts.size() || down.IsStrictlyNegative() || up <= down,
                    "RoceHostFailures::Schedule: expected a host and 0 <= down < up");
    m_outages.push_back({h, down, up});
    std::stable_sort(m_outages.begin(), m_outages.end(), [](const Outage& a, const Outage& b) {
        return a.down < b.down;
    });
    Simulator::Schedule(down - Simulator::Now(), &RoceHostFailures::SetUp, this, h, false);
    if (up != Time::Max())
    {
        Simulator::Schedule(up - Simulator::Now(), &RoceHostFailures::SetUp, this, h, true);
    }
}

void
RoceHostFailures::Random(Time mtbf, Time mttr, Time until)
{
    for (std::size_t h = 0; h < m_hosts.size(); h++)
    {
        Time t = Simulator::Now();
        while (true)
        {
            t += NanoSeconds(int64_t(m_upTime[h]->GetValue(double(mtbf.GetNanoSeconds()), 0)));
            if (t >= until)
            {
                break;
            }
            Time back =
                t +
                NanoSeconds(1 + int64_t(m_downTime[h]->GetValue(double(mttr.GetNanoSeconds()), 0)));
            Schedule(h, t, back < until ? back : Time::Max());
            t = back;
        }
    }
}

void
RoceHostFailures::SetUp(std::size_t h, bool up)
{
    Host& host = m_hosts[h];
    if (host.down == !up)
    {
        return;
    }
    host.down = !up;
    NS_LOG_INFO("host " << h << (up ? " back" : " down") << " (" << (m_hostMode ? "host" : "link")
                        << ")");
    if (!up)
    {
        host.link->SetUp(false);
        if (m_hostMode)
        {
            host.onState(false);
            m_manager->SetHostUp(host.nic, false);
        }
        return;
    }
    if (m_hostMode)
    {
        host.onState(true);
    }
    host.link->SetUp(true); // the connection manager hears it and reconnects
    if (m_hostMode)
    {
        m_manager->SetHostUp(host.nic, true);
    }
}

const std::vector<RoceHostFailures::Outage>&
RoceHostFailures::GetOutages() const
{
    return m_outages;
}

bool
RoceHostFailures::WasDown(std::size_t h, Time from, Time to) const
{
    for (const Outage& o : m_outages)
    {
        if (o.host == h && o.down <= to && o.up >= from)
        {
            return true;
        }
    }
    return false;
}

bool
RoceHostFailures::IsDown(std::size_t h) const
{
    return h < m_hosts.size() && m_hosts[h].down;
}

} // namespace ns3
