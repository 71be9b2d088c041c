/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(FeroceHeapScheduler);

namespace
{
const std::size_t kArity = 4;
uint32_t g_lists = 0; ///< event lists made so far (each one's serial number)
} // namespace

TypeId
FeroceHeapScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FeroceHeapScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Feroce")
            .AddConstructor<FeroceHeapScheduler>()
            .AddAttribute("NearHorizon",
                          "Events due further ahead than this (from the last event taken) wait "
                          "in a second heap, so that the many timers of a large fabric stay out "
                          "of the way of its frames; the order of events does not change",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&FeroceHeapScheduler::SetNearHorizon,
                                           &FeroceHeapScheduler::GetNearHorizon),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FeroceHeapScheduler::FeroceHeapScheduler()
    : m_lastTs(0),
      m_serial(++g_lists),
      m_nearHorizonSteps(uint64_t(MicroSeconds(100).GetTimeStep()))
{
    NS_LOG_FUNCTION(this);
    m_near.v.reserve(4 * kSortedMax); // room to take from the front between compactions
}

FeroceHeapScheduler::~FeroceHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceHeapScheduler::SetNearHorizon(Time horizon)
{
    m_nearHorizonSteps = uint64_t(horizon.GetTimeStep());
}

Time
FeroceHeapScheduler::GetNearHorizon() const
{
    return TimeStep(m_nearHorizonSteps);
}

void
FeroceHeapScheduler::HeapPush(Heap& heap, const Event& ev)
{
    // sift up: move parents down into the hole until ev fits
    std::size_t i = heap.size();
    heap.emplace_back();
    Event* e = heap.data();
    const uint64_t ts = ev.key.m_ts;
    const uint32_t uid = ev.key.m_uid;
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        uint64_t parentTs = e[parent].key.m_ts;
        if (parentTs < ts || (parentTs == ts && e[parent].key.m_uid < uid))
        {
            break;
        }
        e[i] = e[parent];
        i = parent;
    }
    e[i] = ev;
}

void
FeroceHeapScheduler::HeapPopTop(Heap& heap)
{
    // sift the last entry down from the root
    Event last = heap.back();
    heap.pop_back();
    if (!heap.empty())
    {
        SiftDown(heap, last);
    }
}

void
FeroceHeapScheduler::SiftDown(Heap& heap, Event last)
{
    // the keys compared are held in locals (the moved entry's and the best child's so far), so
    // a comparison loads only the child's time (and its uid on a tie of times)
    Event* e = heap.data();
    const std::size_t n = heap.size();
    const uint64_t lastTs = last.key.m_ts;
    const uint32_t lastUid = last.key.m_uid;
    std::size_t i = 0;
    for (;;)
    {
        std::size_t first = i * kArity + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t end = first + kArity < n ? first + kArity : n;
        std::size_t best = first;
        uint64_t bestTs = e[first].key.m_ts;
        uint32_t bestUid = e[first].key.m_uid;
        for (std::size_t c = first + 1; c < end; c++)
        {
            uint64_t ts = e[c].key.m_ts;
            if (ts < bestTs || (ts == bestTs && e[c].key.m_uid < bestUid))
            {
                best = c;
                bestTs = ts;
                bestUid = e[c].key.m_uid;
            }
        }
        if (lastTs < bestTs || (lastTs == bestTs && lastUid < bestUid))
        {
            break; // last is before every child (uids are unique: never equal keys)
        }
        e[i] = e[best];
        i = best;
    }
    e[i] = last;
}

void
FeroceHeapScheduler::Near::Compact()
{
    v.erase(v.begin(), v.begin() + std::ptrdiff_t(head));
    head = 0;
}

void
FeroceHeapScheduler::Near::PushSlow(const Event& ev)
{
    if (sorted)
    {
        // kSortedMax events: sorted ascending from index 0, they already are a heap
        Compact();
        sorted = false;
    }
    HeapPush(v, ev);
}

void
FeroceHeapScheduler::Near::Sort()
{
    std::sort(v.begin(), v.end(), Before);
    sorted = true;
}

bool
FeroceHeapScheduler::Near::RemoveSorted(const Event& ev)
{
    auto first = v.begin() + std::ptrdiff_t(head);
    auto it = std::lower_bound(first, v.end(), ev, Before);
    if (it == v.end() || it->key.m_uid != ev.key.m_uid)
    {
        return false;
    }
    if (it == first)
    {
        head++;
    }
    else
    {
        v.erase(it);
    }
    if (head == v.size())
    {
        v.clear();
        head = 0;
    }
    return true;
}

void
FeroceHeapScheduler::Insert(const Event& ev)
{
    Push(ev);
}

Scheduler::Event
FeroceHeapScheduler::PeekNext() const
{
    NS_ASSERT(!IsEmpty());
    Event next = m_far.empty() || (!m_near.Empty() && Before(m_near.Front(), m_far.front()))
                     ? m_near.Front()
                     : m_far.front();
    next.impl = Untagged(next.impl);
    return next;
}

Scheduler::Event
FeroceHeapScheduler::RemoveNext()
{
    NS_ASSERT(!IsEmpty());
    return Pop();
}

void
FeroceHeapScheduler::Remove(const Event& ev)
{
    NS_ASSERT(!IsEmpty());
    if (m_near.sorted)
    {
        if (m_near.RemoveSorted(ev))
        {
            return;
        }
    }
    else if (!m_near.Empty() && m_near.Front().key.m_uid == ev.key.m_uid)
    {
        m_near.PopFront();
        DropRemovedTops();
        return;
    }
    // at the top of the far heap it goes now (no removed entry stays on a top), else lazily
    if (!m_far.empty() && m_far.front().key.m_uid == ev.key.m_uid)
    {
        HeapPopTop(m_far);
        DropRemovedTops();
        return;
    }
    // not a front: the next event is earlier, so the invariant of m_removed holds
    m_removed.push_back({ev.key.m_ts, ev.key.m_uid});
    std::push_heap(m_removed.begin(), m_removed.end(), Later);
}

void
FeroceHeapScheduler::PopLaneFirst(bool fromNear, Event& next)
{
    FeroceLaneEvent* first = LaneOf(next.impl);
    if (!first->laneNext)
    {
        fromNear ? m_near.PopFront() : HeapPopTop(m_far);
    }
    else if (fromNear)
    {
        m_near.ReplaceFront(LaneNext(first));
    }
    else
    {
        SiftDown(m_far, LaneNext(first));
    }
    next.impl = Untagged(next.impl);
}

void
FeroceHeapScheduler::DropRemovedTops()
{
    // every removed entry is in a heap, due at or after the next event: the next event is a
    // removed one only if it is the earliest removed key
    while (!m_removed.empty())
    {
        bool fromNear = m_far.empty() || (!m_near.Empty() && Before(m_near.Front(), m_far.front()));
        const Event& next = fromNear ? m_near.Front() : m_far.front();
        const RemovedKey& first = m_removed.front();
        if (next.key.m_ts != first.ts || next.key.m_uid != first.uid)
        {
            return;
        }
        std::pop_heap(m_removed.begin(), m_removed.end(), Later);
        m_removed.pop_back();
        if (fromNear)
        {
            m_near.PopFront();
        }
        else
        {
            HeapPopTop(m_far);
        }
    }
}

} // namespace ns3
