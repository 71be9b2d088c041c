/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-event-tally.h"

#include "ns3/callback.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-queue-pair.h"

namespace ns3
{

const char*
AdvcamEventTally::GetCauseName(Cause c)
{
    switch (c)
    {
    case BOARD_BUFFER:
        return "board_buffer";
    case REQUEST_FAILED:
        return "request_failed";
    default:
        return "?";
    }
}

AdvcamEventTally::AdvcamEventTally(const std::vector<Ptr<RoceFrontEndApp>>& boards,
                                   uint32_t receivers)
    : m_boards(boards),
      m_receivers(receivers),
      m_builtAt(receivers, 0),
      m_lostAt(receivers, 0)
{
    for (const Ptr<RoceFrontEndApp>& app : boards)
    {
        app->TraceConnectWithoutContext("EventLost", MakeBoundCallback(&OnLost, this));
        for (std::size_t i = 0; i < app->GetNQueuePairs(); i++)
        {
            app->GetQueuePair(i)->TraceConnectWithoutContext(
                "Completion",
                MakeBoundCallback(&OnCompletion, this));
        }
    }
}

AdvcamEventTally::Event&
AdvcamEventTally::At(uint64_t event)
{
    if (event >= m_events.size())
    {
        m_events.resize(event + 1);
    }
    return m_events[event];
}

void
AdvcamEventTally::FragmentLost(uint64_t event, Cause c)
{
    Event& e = At(event);
    if (e.lost++ == 0)
    {
        m_lost[c]++;
        m_lostAt[event % m_receivers]++;
    }
}

void
AdvcamEventTally::OnLost(AdvcamEventTally* t, uint64_t event)
{
    t->FragmentLost(event, BOARD_BUFFER);
}

void
AdvcamEventTally::OnCompletion(AdvcamEventTally* t, const RoceCompletion& c, Time)
{
    if (c.status != ROCE_WC_SUCCESS)
    {
        t->FragmentLost(c.id, REQUEST_FAILED);
        return;
    }
    Event& e = t->At(c.id);
    if (++e.delivered == t->m_boards.size())
    {
        t->m_built++;
        t->m_builtAt[c.id % t->m_receivers]++;
    }
}

uint64_t
AdvcamEventTally::GetGenerated() const
{
    // a common trigger: every board has generated as many
    return m_boards.empty() ? 0 : m_boards[0]->GetEventsGenerated();
}

uint64_t
AdvcamEventTally::GetBuilt() const
{
    return m_built;
}

uint64_t
AdvcamEventTally::GetLost() const
{
    uint64_t lost = 0;
    for (uint64_t l : m_lost)
    {
        lost += l;
    }
    return lost;
}

uint64_t
AdvcamEventTally::GetLost(Cause c) const
{
    return m_lost[c];
}

uint64_t
AdvcamEventTally::GetInFlight() const
{
    // counted, not subtracted: the sum is then a check
    uint64_t n = 0;
    for (uint64_t i = 0; i < GetGenerated(); i++)
    {
        const Event* e = i < m_events.size() ? &m_events[i] : nullptr;
        if (!e || (e->lost == 0 && e->delivered < m_boards.size()))
        {
            n++;
        }
    }
    return n;
}

uint64_t
AdvcamEventTally::GetAssignedTo(uint32_t k) const
{
    uint64_t n = GetGenerated();
    return n / m_receivers + (k < n % m_receivers ? 1 : 0);
}

uint64_t
AdvcamEventTally::GetBuiltAt(uint32_t k) const
{
    return m_builtAt[k];
}

uint64_t
AdvcamEventTally::GetLostAt(uint32_t k) const
{
    return m_lostAt[k];
}

} // namespace ns3
