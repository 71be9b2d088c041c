/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-calendar.h"

namespace ns3
{

FeroceCalendar::FeroceCalendar()
{
    Fit(0);
}

void
FeroceCalendar::Fit(uint64_t horizonSteps)
{
    // the events' times span at most the horizon: they fall in horizon / 2^shift + 2
    // consecutive buckets, which the ring must hold
    m_shift = 0;
    while ((horizonSteps >> m_shift) + 2 > kBuckets)
    {
        m_shift++;
    }
    m_bucket.assign(kBuckets, Bucket{nullptr, nullptr});
    m_busy.assign(kBuckets / 64, 0);
    m_count = 0;
    m_front = nullptr;
    m_frontBucket = 0;
}

void
FeroceCalendar::InsertInside(Bucket& list, FeroceEvent* e)
{
    FeroceEvent** link = &list.first;
    while (Before(*link, e))
    {
        link = &(*link)->next;
    }
    e->next = *link;
    *link = e;
}

std::size_t
FeroceCalendar::NextBusy(const uint64_t* busy, std::size_t from)
{
    std::size_t w = from / 64;
    uint64_t bits = busy[w] & (~uint64_t(0) << (from % 64));
    while (bits == 0)
    {
        // around the ring: a bucket below `from` in this word is reached last, as the latest
        w = (w + 1) % (kBuckets / 64);
        bits = busy[w];
    }
    return w * 64 + std::size_t(__builtin_ctzll(bits));
}

bool
FeroceCalendar::Remove(FeroceEvent* e)
{
    if (e == m_front)
    {
        PopFront();
        return true;
    }
    std::size_t b = BucketOf(e->ts);
    Bucket& list = m_bucket[b];
    FeroceEvent* before = nullptr;
    FeroceEvent** link = &list.first;
    while (*link != e)
    {
        if (*link == nullptr)
        {
            return false; // not in its bucket: not in the calendar
        }
        before = *link;
        link = &(*link)->next;
    }
    *link = e->next;
    if (list.last == e)
    {
        list.last = before;
    }
    if (list.first == nullptr)
    {
        m_busy[b / 64] &= ~(uint64_t(1) << (b % 64));
    }
    m_count--;
    return true;
}

} // namespace ns3
