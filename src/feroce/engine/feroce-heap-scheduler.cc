/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(FeroceHeapScheduler);

namespace
{
/// ns-3's order (Scheduler::EventKey's operator<): time, then uid.
inline bool
Before(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
}

const std::size_t kArity = 4;
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
                          MakeTimeAccessor(&FeroceHeapScheduler::m_nearHorizon),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FeroceHeapScheduler::FeroceHeapScheduler()
    : m_lastTs(0)
{
    NS_LOG_FUNCTION(this);
}

FeroceHeapScheduler::~FeroceHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceHeapScheduler::Push(Heap& heap, const Event& ev)
{
    // sift up: move parents down into the hole until ev fits
    std::size_t i = heap.size();
    heap.emplace_back();
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (!Before(ev, heap[parent]))
        {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = ev;
}

void
FeroceHeapScheduler::Insert(const Event& ev)
{
    bool near = ev.key.m_ts <= m_lastTs + uint64_t(m_nearHorizon.GetTimeStep());
    Push(near ? m_near : m_far, ev);
}

bool
FeroceHeapScheduler::IsEmpty() const
{
    return m_near.empty() && m_far.empty(); // a removed entry never stays on top
}

FeroceHeapScheduler::Heap&
FeroceHeapScheduler::NextHeap()
{
    if (m_far.empty() || (!m_near.empty() && Before(m_near.front(), m_far.front())))
    {
        return m_near;
    }
    return m_far;
}

const FeroceHeapScheduler::Heap&
FeroceHeapScheduler::NextHeap() const
{
    return const_cast<FeroceHeapScheduler*>(this)->NextHeap();
}

Scheduler::Event
FeroceHeapScheduler::PeekNext() const
{
    NS_ASSERT(!IsEmpty());
    return NextHeap().front();
}

Scheduler::Event
FeroceHeapScheduler::RemoveNext()
{
    NS_ASSERT(!IsEmpty());
    Heap& heap = NextHeap();
    Event next = heap.front();
    PopTop(heap);
    m_lastTs = next.key.m_ts;
    DropRemovedTops();
    return next;
}

void
FeroceHeapScheduler::Remove(const Event& ev)
{
    NS_ASSERT(!IsEmpty());
    // at the top of either heap it goes now (no removed entry stays on a top), else lazily
    for (Heap* heap : {&m_near, &m_far})
    {
        if (!heap->empty() && heap->front().key.m_uid == ev.key.m_uid)
        {
            PopTop(*heap);
            DropRemovedTops();
            return;
        }
    }
    m_removed.insert(ev.key.m_uid);
}

void
FeroceHeapScheduler::PopTop(Heap& heap)
{
    // sift the last entry down from the root
    Event last = heap.back();
    heap.pop_back();
    std::size_t n = heap.size();
    if (n == 0)
    {
        return;
    }
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
        for (std::size_t c = first + 1; c < end; c++)
        {
            if (Before(heap[c], heap[best]))
            {
                best = c;
            }
        }
        if (!Before(heap[best], last))
        {
            break;
        }
        heap[i] = heap[best];
        i = best;
    }
    heap[i] = last;
}

void
FeroceHeapScheduler::DropRemovedTops()
{
    if (m_removed.empty())
    {
        return; // nearly always: most removals are of the next event
    }
    for (Heap* heap : {&m_near, &m_far})
    {
        while (!m_removed.empty() && !heap->empty())
        {
            auto it = m_removed.find(heap->front().key.m_uid);
            if (it == m_removed.end())
            {
                break;
            }
            m_removed.erase(it);
            PopTop(*heap);
        }
    }
}

} // namespace ns3
