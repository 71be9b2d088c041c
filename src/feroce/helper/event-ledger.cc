/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "event-ledger.h"

#include "roce-host-failures.h"

#include "ns3/feroce-stats.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

EventLedger::EventLedger(const RoceHostFailures* failures)
    : m_failures(failures)
{
}

EventLedger::Event&
EventLedger::At(uint64_t event)
{
    if (event >= m_events.size())
    {
        m_events.resize(event + 1);
    }
    return m_events[event];
}

void
EventLedger::Generated(uint64_t event)
{
    At(event).triggerNs = Simulator::Now().GetNanoSeconds();
}

void
EventLedger::Built(uint64_t event, uint32_t receiver)
{
    Event& e = At(event);
    e.state = kBuilt;
    e.builtNs = Simulator::Now().GetNanoSeconds();
    e.receiver = uint8_t(receiver);
}

void
EventLedger::Lost(uint64_t event, EventLossCause cause)
{
    Event& e = At(event);
    if (e.state == kPending)
    {
        // a part of an event the boards sent to several receivers, closed incomplete
        bool split = cause == EVENT_LOST_PARTIAL_TIMEOUT && e.split;
        e.state = uint8_t(split ? EVENT_LOST_DISAGREEMENT : cause);
    }
}

void
EventLedger::FragmentFailed(uint64_t event, uint32_t receiver, Time since)
{
    Event& e = At(event);
    Time from = std::min(NanoSeconds(e.triggerNs), since);
    bool dead = m_failures && m_failures->WasDown(receiver, from, Simulator::Now());
    EventLossCause cause = dead ? EVENT_LOST_RECEIVER_DEAD : EVENT_LOST_RETRIES_EXHAUSTED;
    m_fragmentsFailed[cause]++;
    Lost(event, cause);
}

void
EventLedger::Posted(uint64_t event, uint32_t receiver)
{
    if (receiver >= m_posts.size())
    {
        m_posts.resize(receiver + 1);
    }
    m_posts[receiver].push_back({Simulator::Now().GetNanoSeconds(), event});
    Event& e = At(event);
    if (e.posted == 0)
    {
        e.posted = uint8_t(receiver + 1);
    }
    else if (e.posted != receiver + 1 && !e.split)
    {
        e.split = true;
        m_split++;
    }
}

uint64_t
EventLedger::GetSplit() const
{
    return m_split;
}

uint64_t
EventLedger::GetGenerated() const
{
    return m_events.size();
}

uint64_t
EventLedger::GetBuilt() const
{
    return uint64_t(std::count_if(m_events.begin(), m_events.end(), [](const Event& e) {
        return e.state == kBuilt;
    }));
}

uint64_t
EventLedger::GetLost(EventLossCause cause) const
{
    return uint64_t(std::count_if(m_events.begin(), m_events.end(), [cause](const Event& e) {
        return e.state == uint8_t(cause);
    }));
}

uint64_t
EventLedger::GetLost() const
{
    return uint64_t(std::count_if(m_events.begin(), m_events.end(), [](const Event& e) {
        return e.state < EVENT_LOSS_CAUSES;
    }));
}

uint64_t
EventLedger::GetInFlight() const
{
    return GetInFlightEvents().size();
}

std::vector<uint64_t>
EventLedger::GetInFlightEvents() const
{
    std::vector<uint64_t> out;
    for (uint64_t i = 0; i < m_events.size(); i++)
    {
        if (m_events[i].state == kPending)
        {
            out.push_back(i);
        }
    }
    return out;
}

uint64_t
EventLedger::GetBuiltAt(uint32_t k) const
{
    return uint64_t(std::count_if(m_events.begin(), m_events.end(), [k](const Event& e) {
        return e.state == kBuilt && e.receiver == k;
    }));
}

uint64_t
EventLedger::GetFragmentsFailed(EventLossCause cause) const
{
    return m_fragmentsFailed[cause];
}

std::vector<double>
EventLedger::GetLatenciesUs() const
{
    std::vector<double> out;
    for (const Event& e : m_events)
    {
        if (e.state == kBuilt)
        {
            out.push_back(double(e.builtNs - e.triggerNs) / 1e3);
        }
    }
    return out;
}

Time
EventLedger::GetLastPost(uint32_t k) const
{
    return GetLastPost(k, Time(0), Time::Max());
}

Time
EventLedger::GetLastPost(uint32_t k, Time from, Time to) const
{
    Time last = NanoSeconds(-1);
    if (k < m_posts.size())
    {
        for (const Post& p : m_posts[k])
        {
            if (p.ns >= from.GetNanoSeconds() && NanoSeconds(p.ns) < to)
            {
                last = NanoSeconds(p.ns);
            }
        }
    }
    return last;
}

uint64_t
EventLedger::CountPostsTriggeredAfter(uint32_t k, Time from, Time to) const
{
    uint64_t n = 0;
    if (k < m_posts.size())
    {
        for (const Post& p : m_posts[k])
        {
            bool inWindow = p.ns >= from.GetNanoSeconds() && NanoSeconds(p.ns) < to;
            if (inWindow && p.event < m_events.size() &&
                m_events[p.event].triggerNs >= from.GetNanoSeconds())
            {
                n++;
            }
        }
    }
    return n;
}

void
EventLedger::WriteCsv(std::ostream& out, Time window, uint32_t receivers) const
{
    out << "time_s,generated,built,lost_board_buffer,lost_receiver_dead,lost_retries_exhausted,"
           "lost_partial_timeout,lost_disagreement,in_flight,latency_p50_us,latency_p99_us,latency_"
           "max_us";
    for (uint32_t k = 0; k < receivers; k++)
    {
        out << ",rx" << k << "_built";
    }
    out << "\n";
    int64_t w = window.GetNanoSeconds();
    std::size_t i = 0;
    for (int64_t start = 0; i < m_events.size(); start += w)
    {
        uint64_t generated = 0;
        uint64_t built = 0;
        uint64_t inFlight = 0;
        uint64_t lost[EVENT_LOSS_CAUSES] = {};
        std::vector<uint64_t> perRx(receivers, 0);
        std::vector<double> lat;
        for (; i < m_events.size() && m_events[i].triggerNs < start + w; i++)
        {
            const Event& e = m_events[i];
            generated++;
            if (e.state == kBuilt)
            {
                built++;
                lat.push_back(double(e.builtNs - e.triggerNs) / 1e3);
                if (e.receiver < receivers)
                {
                    perRx[e.receiver]++;
                }
            }
            else if (e.state == kPending)
            {
                inFlight++;
            }
            else
            {
                lost[e.state]++;
            }
        }
        out << double(start + w) / 1e9 << "," << generated << "," << built;
        for (uint64_t l : lost)
        {
            out << "," << l;
        }
        out << "," << inFlight;
        if (lat.empty())
        {
            out << ",,,";
        }
        else
        {
            feroce_summary sum;
            feroce_summarize(lat.data(), lat.size(), &sum);
            out << "," << sum.p50 << "," << sum.p99 << "," << sum.max;
        }
        for (uint64_t n : perRx)
        {
            out << "," << n;
        }
        out << "\n";
    }
}

} // namespace ns3
