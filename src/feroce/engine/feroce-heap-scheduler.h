/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_HEAP_SCHEDULER_H
#define FEROCE_HEAP_SCHEDULER_H

#include "feroce-event.h"

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
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
 * out at once; from a heap it is lazy: its key (time, uid) goes into a small
 * min-heap of the removed keys, and the entry is dropped when it becomes the
 * next event, which is then exactly the earliest removed key (every removed
 * entry is due at or after it), so one comparison per event finds it (its
 * EventImpl is never touched again).
 *
 * A lane (FeroceLaneEvent, PushInLane) has only its first event in a heap,
 * as an entry whose impl is the event's address with its two lowest bits
 * set; taking it replaces the entry by the lane's next event in one sift
 * down.  What leaves (Pop, RemoveNext, PeekNext) carries the address with
 * only the lowest bit set, FeroceSimulatorImpl's tag of a FeroceEvent.
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

    /**
     * Insert a lane's event (ev.impl: the event tagged as FeroceSimulatorImpl
     * tags a FeroceEvent): behind the lane's last event if that one is still
     * pending and not due later, else as the first of a new lane; while the
     * near events are sorted (few), as an event of its own.  Removing it
     * (Remove) is not supported.
     */
    void PushInLane(const Event& ev, FeroceLaneEvent* event, FeroceLane& lane)
    {
        if (m_near.sorted)
        {
            Push(ev); // few pending: a sorted insertion costs less than a lane
            return;
        }
        event->laneNext = nullptr;
        if (lane.tail && lane.list == m_serial && lane.ts <= ev.key.m_ts &&
            (lane.ts > m_lastTs || (lane.ts == m_lastTs && lane.uid > m_lastUid)))
        {
            // the tail has not run: the lane is in the list
            FeroceLaneEvent* tail = lane.tail;
            tail->laneNext = event;
            tail->nextTs = ev.key.m_ts;
            tail->nextUid = ev.key.m_uid;
            tail->nextContext = ev.key.m_context;
        }
        else
        {
            Event first = ev;
            first.impl = LaneEntry(event);
            Push(first);
            lane.list = m_serial;
        }
        lane.tail = event;
        lane.ts = ev.key.m_ts;
        lane.uid = ev.key.m_uid;
    }

    /// RemoveNext, without a virtual call (FeroceSimulatorImpl); not empty.
    Event Pop()
    {
        bool fromNear = m_far.empty() || (!m_near.Empty() && Before(m_near.Front(), m_far.front()));
        Event next = fromNear ? m_near.Front() : m_far.front();
        if (LaneOf(next.impl))
        {
            PopLaneFirst(fromNear, next); // out of line: Pop stays small enough to inline
        }
        else if (fromNear)
        {
            m_near.PopFront();
        }
        else
        {
            HeapPopTop(m_far);
        }
        m_lastTs = next.key.m_ts;
        m_lastUid = next.key.m_uid;
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
    /// Put ev in place of the top entry of a (non-empty) heap, sifting it down.
    static void SiftDown(Heap& heap, Event ev);

    /// A lane's first event as a heap entry: its address with the two lowest bits set.
    static EventImpl* LaneEntry(FeroceLaneEvent* event)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(event) | 3);
    }

    /// The lane's first event this entry is; null if the entry is no lane's.
    static FeroceLaneEvent* LaneOf(EventImpl* impl)
    {
        uintptr_t p = reinterpret_cast<uintptr_t>(impl);
        return (p & 3) == 3 ? reinterpret_cast<FeroceLaneEvent*>(p - 3) : nullptr;
    }

    /// The heap entry of the event behind a lane's first, which becomes the first.
    static Event LaneNext(const FeroceLaneEvent* first)
    {
        Event ev;
        ev.impl = LaneEntry(first->laneNext);
        ev.key.m_ts = first->nextTs;
        ev.key.m_uid = first->nextUid;
        ev.key.m_context = first->nextContext;
        return ev;
    }

    /// An entry as it leaves: a lane's event tagged as any FeroceEvent (lowest bit only).
    static EventImpl* Untagged(EventImpl* impl)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(impl) & ~uintptr_t(2));
    }

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

        /// Take the front event and insert ev (its lane's next: due at or after it).
        void ReplaceFront(const Event& ev)
        {
            if (sorted)
            {
                PopFront();
                Push(ev);
                return;
            }
            SiftDown(v, ev);
        }

        /// Take the front event.
        void PopFront()
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
            if (v.size() < kSortedMin)
            {
                Sort();
            }
        }

        void PushSlow(const Event& ev);
        /// The heap becomes sorted (a removed entry stays in it until it is at the front).
        void Sort();
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
    /// Take a lane's first event (next, from the near events or the far heap): the lane's next
    /// takes its place; next.impl becomes the event's FeroceEvent tag.
    void PopLaneFirst(bool fromNear, Event& next);
    /// Drop the removed entries while the next event is one of them.
    void DropRemovedTops();

    /// The key of an event removed while in a heap (not yet dropped).
    struct RemovedKey
    {
        uint64_t ts;
        uint32_t uid;
    };

    /// The later of two removed keys: m_removed is a min-heap by this.
    static bool Later(const RemovedKey& a, const RemovedKey& b)
    {
        return a.ts > b.ts || (a.ts == b.ts && a.uid > b.uid);
    }

    Near m_near;                 ///< events due within the horizon when inserted
    Heap m_far;                  ///< the later ones
    uint64_t m_lastTs;           ///< time of the last event taken
    uint32_t m_lastUid{0};       ///< and its uid
    uint32_t m_serial;           ///< this list's number, for FeroceLane::list
    uint64_t m_nearHorizonSteps; ///< NearHorizon in time steps
    /// Removed events still in a heap, earliest first (a min-heap): the next event is
    /// never after the earliest of them, and is a removed one only if it is that one.
    std::vector<RemovedKey> m_removed;
};

} // namespace ns3

#endif /* FEROCE_HEAP_SCHEDULER_H */
