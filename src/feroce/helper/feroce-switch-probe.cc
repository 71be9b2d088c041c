/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-switch-probe.h"

#include "ns3/callback.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint8_t kDataQueues = 8;
} // namespace

FeroceSwitchProbe::FeroceSwitchProbe(Ptr<FeroceSwitch> sw)
    : m_switch(sw)
{
    uint32_t n = sw->GetNPorts();
    m_queueBytes.assign(n * kDataQueues, 0);
    m_portBytes.assign(n, 0);
    m_windowMax.assign(n, 0);
    m_runMax.assign(n, 0);
    m_pausedSince.assign(n * 8, Time(-1));
    sw->TraceConnectWithoutContext("QueueLength",
                                   MakeCallback(&FeroceSwitchProbe::QueueChanged, this));
    sw->TraceConnectWithoutContext("Pause", MakeCallback(&FeroceSwitchProbe::PauseSent, this));
}

void
FeroceSwitchProbe::QueueChanged(uint32_t port, uint8_t queue, uint64_t bytes)
{
    if (queue >= kDataQueues || port >= m_portBytes.size())
    {
        return; // the control queue holds no data
    }
    uint64_t& q = m_queueBytes[port * kDataQueues + queue];
    m_portBytes[port] = m_portBytes[port] - q + bytes;
    q = bytes;
    m_windowMax[port] = std::max(m_windowMax[port], m_portBytes[port]);
    m_runMax[port] = std::max(m_runMax[port], m_portBytes[port]);
}

void
FeroceSwitchProbe::PauseSent(uint32_t port, uint8_t priority, uint16_t quanta)
{
    Time& since = m_pausedSince[port * 8 + priority];
    Time now = Simulator::Now();
    if (quanta > 0 && since.IsStrictlyNegative())
    {
        since = now; // a refresh of a pause in force does not start a new interval
    }
    else if (quanta == 0 && !since.IsStrictlyNegative())
    {
        m_intervals.push_back({port, priority, since, now});
        since = Time(-1);
    }
}

uint64_t
FeroceSwitchProbe::TakeWindowMax(uint32_t port)
{
    uint64_t m = m_windowMax.at(port);
    m_windowMax[port] = m_portBytes[port];
    return m;
}

uint64_t
FeroceSwitchProbe::GetQueueMax() const
{
    return m_runMax.empty() ? 0 : *std::max_element(m_runMax.begin(), m_runMax.end());
}

uint64_t
FeroceSwitchProbe::GetQueueMax(uint32_t port) const
{
    return m_runMax.at(port);
}

Time
FeroceSwitchProbe::GetPauseTime(Time now) const
{
    Time total;
    for (const Interval& i : m_intervals)
    {
        total += i.end - i.start;
    }
    for (const Time& since : m_pausedSince)
    {
        if (!since.IsStrictlyNegative())
        {
            total += now - since;
        }
    }
    return total;
}

void
FeroceSwitchProbe::WritePauseIntervals(std::ostream& out, Time now) const
{
    for (const Interval& i : m_intervals)
    {
        out << i.port << "," << unsigned(i.priority) << "," << i.start.GetNanoSeconds() << ","
            << i.end.GetNanoSeconds() << "\n";
    }
    for (std::size_t k = 0; k < m_pausedSince.size(); k++)
    {
        if (!m_pausedSince[k].IsStrictlyNegative())
        {
            out << k / 8 << "," << k % 8 << "," << m_pausedSince[k].GetNanoSeconds() << ","
                << now.GetNanoSeconds() << "\n";
        }
    }
}

} // namespace ns3
