/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_CALENDAR_H
#define FEROCE_CALENDAR_H

#include "feroce-event.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief FeroceSimulatorImpl's list of the FeroceEvents due soon: a calendar
 * queue (R. Brown, CACM 31(10), 1988) whose entries are the events themselves.
 *
 * Contract:
 * - an event is inserted with its key set (FeroceEvent::ts, uid, context),
 *   due within the horizon given to Fit of the time of the last event taken
 *   (or of the start), never before it; it is in one list at a time;
 * - the front is the earliest event by (ts, uid), ns-3's order;
 * - nothing is allocated but the ring, by Fit.
 *
 * A bucket is 2^shift time steps wide, the ring longer than the horizon, so
 * every event has a bucket of its own time and the earliest is the first of
 * the first busy bucket from the front's on; each bucket's events are a list
 * sorted by key, linked through FeroceEvent::next; a bit per bucket says which
 * are busy.  An insertion is nearly always into an empty bucket or after the
 * last event of its bucket, a removal of the front a step down its list: a few
 * loads and stores, against FeroceHeapScheduler's conversions of each event
 * to a key, a node and back (73 instructions an event more on a k=4
 * fat-tree: src/feroce/doc/fabric.md, session 11).
 */
class FeroceCalendar
{
  public:
    /// Buckets on the ring (a power of two): about 1 ns each over FeroceSimulatorImpl's span,
    /// fewer than one event a bucket in a busy fabric, so that few insertions walk a bucket's
    /// list (only the buckets near the front are read: the ring's size costs no cache)
    static constexpr std::size_t kBuckets = 16384;

    FeroceCalendar();

    /// Buckets wide enough that the ring is longer than a horizon of this many steps; empty.
    void Fit(uint64_t horizonSteps);

    bool Empty() const
    {
        return m_front == nullptr;
    }

    std::size_t Size() const
    {
        return m_count;
    }

    /// The earliest event, null when empty.
    FeroceEvent* Front() const
    {
        return m_front;
    }

    /// (ts, uid) is due before (ts2, uid2): ns-3's order (time, then uid, which is unique).
    static bool Earlier(uint64_t ts, uint32_t uid, uint64_t ts2, uint32_t uid2)
    {
        return ts < ts2 || (ts == ts2 && uid < uid2);
    }

    /// a is due before b (Earlier).
    static bool Before(const FeroceEvent* a, const FeroceEvent* b)
    {
        return Earlier(a->ts, a->uid, b->ts, b->uid);
    }

    /// Before(b, a) without a branch (its parts are coin tosses); false for a == b.
    static bool Follows(const FeroceEvent* a, const FeroceEvent* b)
    {
        return (b->ts < a->ts) | ((b->ts == a->ts) & (b->uid < a->uid));
    }

    void Insert(FeroceEvent* e)
    {
        std::size_t b = BucketOf(e->ts);
        Bucket& list = m_bucket[b];
        // the usual case: into an empty bucket or after every event of its bucket; whether the
        // bucket was empty is a coin toss, so the two are one path of selects (an empty bucket
        // compares the event with itself and links it to itself, then overwritten)
        bool empty = list.first == nullptr;
        FeroceEvent* last = empty ? e : list.last;
        if (empty | Follows(e, last))
        {
            last->next = e;
            list.first = empty ? e : list.first;
            list.last = e;
            e->next = nullptr;
        }
        else
        {
            InsertInside(list, e);
        }
        m_busy[b / 64] |= uint64_t(1) << (b % 64);
        m_count++;
        if (m_front == nullptr || Before(e, m_front))
        {
            m_front = e;
            m_frontBucket = b;
        }
    }

    /// Take the earliest event (not empty).
    FeroceEvent* PopFront()
    {
        FeroceEvent* e = m_front;
        std::size_t b = m_frontBucket;
        Bucket& list = m_bucket[b];
        list.first = e->next; // the front is its bucket's first
        m_count--;
        // selects, not branches: whether the bucket empties is a coin toss
        bool emptied = list.first == nullptr;
        list.last = emptied ? nullptr : list.last;
        m_busy[b / 64] &= ~(uint64_t(emptied) << (b % 64));
        if (m_count == 0)
        {
            m_front = nullptr;
            return e;
        }
        if (emptied)
        {
            b = NextBusy(b);
            m_frontBucket = b;
        }
        m_front = m_bucket[b].first;
        return e;
    }

    /// Remove a waiting event; false if it is not in the calendar (it waits elsewhere).
    bool Remove(FeroceEvent* e);

    /// The first bucket from `from` on around a ring of kBuckets whose bit is set in `busy`
    /// (kBuckets / 64 words; some bit is set).
    static std::size_t NextBusy(const uint64_t* busy, std::size_t from);

  private:
    /// A bucket's list: its earliest and its latest event, null when empty.
    struct Bucket
    {
        FeroceEvent* first;
        FeroceEvent* last;
    };

    std::size_t BucketOf(uint64_t ts) const
    {
        return std::size_t(ts >> m_shift) & (kBuckets - 1);
    }

    /// Insert into a list whose last event is due after e, at its place.
    static void InsertInside(Bucket& list, FeroceEvent* e);

    /// The first busy bucket from `from` on around the ring (some bucket is busy).
    std::size_t NextBusy(std::size_t from) const
    {
        return NextBusy(m_busy.data(), from);
    }

    std::vector<Bucket> m_bucket;  ///< the ring
    std::vector<uint64_t> m_busy;  ///< a bit per bucket: not empty
    unsigned m_shift{0};           ///< a bucket is 2^shift time steps
    std::size_t m_count{0};        ///< events waiting
    FeroceEvent* m_front{nullptr}; ///< the earliest
    std::size_t m_frontBucket{0};  ///< and its bucket
};

} // namespace ns3

#endif /* FEROCE_CALENDAR_H */
