/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "board-credit-rule.h"

namespace ns3
{

void
BoardCreditRule::Reset(uint32_t receivers, uint64_t expiry)
{
    m_receivers.assign(receivers, Receiver());
    m_waiting.clear();
    m_expiry = expiry;
    m_next = 0;
}

bool
BoardCreditRule::Announce(uint32_t k, uint64_t validFrom, uint32_t granted, bool fresh)
{
    Receiver& r = m_receivers[k];
    r.received = granted;
    // a late one counts from the next event this board processes
    bool late = validFrom < m_next;
    r.pending.push_back({late ? m_next : validFrom, granted, fresh});
    return late;
}

void
BoardCreditRule::Advance(uint64_t n,
                         std::vector<std::pair<uint64_t, uint32_t>>& assigned,
                         std::vector<uint32_t>& lapsed)
{
    uint32_t receivers = uint32_t(m_receivers.size());
    for (uint32_t k = 0; k < receivers; k++)
    {
        Receiver& r = m_receivers[k];
        // a connection's announcements come in order, each valid from the same event or later
        while (!r.pending.empty() && r.pending.front().validFrom <= n)
        {
            const Announcement& a = r.pending.front();
            if (a.fresh)
            {
                r.charged = 0;
            }
            r.granted = a.granted;
            r.heard = true;
            r.heardAt = a.validFrom;
            r.pending.pop_front();
        }
        bool in = r.heard && (m_expiry == 0 || n - r.heardAt <= m_expiry);
        if (r.in && !in)
        {
            lapsed.push_back(k);
        }
        r.in = in;
    }
    m_waiting.push_back(n);
    m_next = n + 1;
    while (!m_waiting.empty())
    {
        uint64_t e = m_waiting.front();
        uint32_t chosen = receivers;
        for (uint32_t i = 0; i < receivers && chosen == receivers; i++)
        {
            uint32_t k = uint32_t((e + i) % receivers);
            if (m_receivers[k].in && GetCredit(k) > 0)
            {
                chosen = k;
            }
        }
        if (chosen == receivers)
        {
            return; // no receiver has credit: it waits for an announcement
        }
        m_receivers[chosen].charged++;
        assigned.emplace_back(e, chosen);
        m_waiting.pop_front();
    }
}

uint64_t
BoardCreditRule::GetNext() const
{
    return m_next;
}

std::size_t
BoardCreditRule::GetWaiting() const
{
    return m_waiting.size();
}

uint32_t
BoardCreditRule::GetGranted(uint32_t k) const
{
    return m_receivers[k].received;
}

int64_t
BoardCreditRule::GetCredit(uint32_t k) const
{
    const Receiver& r = m_receivers[k];
    return int64_t(int32_t(r.granted - r.charged));
}

bool
BoardCreditRule::IsIn(uint32_t k) const
{
    return m_receivers[k].in;
}

} // namespace ns3
