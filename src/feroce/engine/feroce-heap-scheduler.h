/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_HEAP_SCHEDULER_H
#define FEROCE_HEAP_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief An event scheduler: the near events in a sorted array or a 4-ary
 * min-heap, the far ones in a second heap.
 *
 * Events leave in the order of every ns-3 scheduler, by time and then by
 * insertion (the event's uid), so a simulation gives the same results as
 * with ns3::MapScheduler, the event for event.  It allocates nothing per
 * event (the map allocates a tree node for each) and keeps the pending
 * events in contiguous memory.  Events due more than NearHorizon after the
 * last event taken (retransmission timers, slow pacing) go to the far heap:
 * the fabric's own events (frame arrivals, wake-ups a few microseconds
 * ahead) then wait among only their own few, which stay in cache, instead of
 * among the tens of thousands of timers of a large camera; the next event is
 * the earlier of the two fronts.
 *
 * The near events of a small fabric are a dozen, and a new one is nearly
 * always due after most of them: kept sorted, an insertion moves a few
 * entries up from the end and the next event is taken from the front without
 * moving any, cheaper than a heap's sifts both ways.  When more than
 * SortedMax wait, the array (sorted, so already a heap) becomes a 4-ary heap;
 * below SortedMin it is sorted again.  Simulator::Remove takes a sorted event
 * out at once; from a heap it is lazy: its uid is remembered and the entry
 * dropped when it reaches the top (its EventImpl is never touched again).
 */
class FeroceHeapScheduler final : public Scheduler
{
  public:
    static TypeId GetTypeId();

    FeroceHeapScheduler();
    ~FeroceHeapScheduler() override;

    void Insert(const Event& ev) override;

    bool IsEmpty() const override
    {
        return m_near.Empty() && m_far.empty(); // a removed entry never stays on top
    }

    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// Insert, without a virtual call (FeroceSimulatorImpl).
    void Push(const Event& ev)
    {
        if (ev.key.m_ts <= m_lastTs + m_nearHorizonSteps)
        {
            m_near.Push(ev);
        }
        else
        {
            HeapPush(m_far, ev);
        }
    }

    /// RemoveNext, without a virtual call (FeroceSimulatorImpl); not empty.
    Event Pop()
    {
        Event next;
        if (m_far.empty() || (!m_near.Empty() && Before(m_near.Front(), m_far.front())))
        {
            next = m_near.Front();
            m_near.PopFront(m_removed);
        }
        else
        {
            next = m_far.front();
            HeapPopTop(m_far);
        }
        m_lastTs = next.key.m_ts;
        if (!m_removed.empty())
        {
            DropRemovedTops();
        }
        return next;
    }

    /// The near events are kept sorted now (not as a heap); for tests.
    bool IsNearSorted() const
    {
        return m_near.sorted;
    }

  private:
    using Heap = std::vector<Event>;

    /// ns-3's order (Scheduler::EventKey's operator<): time, then uid.
    static bool Before(const Event& a, const Event& b)
    {
        return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
    }

    static void HeapPush(Heap& heap, const Event& ev);
    /// Take the top entry off a heap.
    static void HeapPopTop(Heap& heap);

    /// The near events: sorted in [head, end) while few, else a heap in [0, end).
    struct Near
    {
        Heap v;
        std::size_t head{0};
        bool sorted{true};

        bool Empty() const
        {
            return v.size() == head;
        }

        const Event& Front() const
        {
            return v[head];
        }

        void Push(const Event& ev)
        {
            if (!sorted || v.size() - head >= kSortedMax)
            {
                PushSlow(ev);
                return;
            }
            if (v.size() == v.capacity() && head > 0)
            {
                Compact();
            }
            // from the end down to its place: a new event is nearly always among the latest
            std::size_t i = v.size();
            v.emplace_back();
            Event* e = v.data();
            while (i > head && Before(ev, e[i - 1]))
            {
                e[i] = e[i - 1];
                i--;
            }
            e[i] = ev;
        }

        /// Take the front event (removed: the uids to leave out if the heap becomes sorted).
        void PopFront(std::unordered_set<uint32_t>& removed)
        {
            if (sorted)
            {
                if (++head == v.size())
                {
                    v.clear();
                    head = 0;
                }
                return;
            }
            HeapPopTop(v);
            SortIfFew(removed);
        }

        void PushSlow(const Event& ev);
        /// A heap of fewer than kSortedMin events becomes sorted, without the removed ones.
        void SortIfFew(std::unordered_set<uint32_t>& removed);
        /// Move the sorted events to the start of the array.
        void Compact();
        /// Remove the sorted event of this key, if here.
        bool RemoveSorted(const Event& ev);
    };

    /// Below this many near events they are kept sorted again.
    static const std::size_t kSortedMin = 16;
    /// Above this many, the near events become a heap.
    static const std::size_t kSortedMax = 64;

    void SetNearHorizon(Time horizon);
    Time GetNearHorizon() const;
    /// Drop the removed entries that reached the top of either heap.
    void DropRemovedTops();

    Near m_near;                            ///< events due within the horizon when inserted
    Heap m_far;                             ///< the later ones
    uint64_t m_lastTs;                      ///< time of the last event taken
    uint64_t m_nearHorizonSteps;            ///< NearHorizon in time steps
    std::unordered_set<uint32_t> m_removed; ///< uids removed but still in a heap
    /// No event of m_removed is due before this: a top due earlier is not looked up (a timer
    /// removed far ahead would otherwise cost a lookup at every event until it is due).
    uint64_t m_removedFrom{UINT64_MAX};
};

} // namespace ns3

#endif /* FEROCE_HEAP_SCHEDULER_H */
