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

/// A comparison as 0 or 1, the compiler told its outcome is unpredictable: it computes with it
/// (set, and, or) instead of branching on it.
inline std::size_t
CoinToss(bool c)
{
#if defined(__clang__)
    return __builtin_unpredictable(c);
#elif defined(__GNUC__)
    return __builtin_expect_with_probability(c, 1, 0.5);
#else
    return c;
#endif
}
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
      m_nearHorizonSteps(uint64_t(MicroSeconds(100).GetTimeStep())),
      m_removedTs(~uint64_t(0))
{
    NS_LOG_FUNCTION(this);
    m_near.Grow(4 * kSortedMax); // room to take from the front between compactions
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

inline void
FeroceHeapScheduler::SiftUp(Heap& heap, std::size_t i, Key k, EventImpl* impl)
{
    // parents move down into the hole until the entry fits (uids are unique: never equal keys)
    const Key* key = heap.key;
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (key[parent] < k)
        {
            break;
        }
        heap.Move(i, parent);
        i = parent;
    }
    heap.Set(i, k, impl);
}

void
FeroceHeapScheduler::HeapPush(Heap& heap, Key k, EventImpl* impl)
{
    // a hole at the end, then up
    if (heap.Full())
    {
        heap.Grow(2 * heap.slots);
    }
    std::size_t i = heap.n++;
    heap.key[heap.n + kPad - 1] = NoKey();
    SiftUp(heap, i, k, impl);
}

void
FeroceHeapScheduler::HeapPopTop(Heap& heap)
{
    // the last entry fills the top's place
    std::size_t last = --heap.n;
    Key k = heap.key[last];
    EventImpl* impl = heap.impl[last];
    heap.key[last] = NoKey();
    if (last > 0)
    {
        ReplaceTop(heap, k, impl);
    }
}

void
FeroceHeapScheduler::ReplaceTop(Heap& heap, Key k, EventImpl* impl)
{
    Key* key = heap.key;
    EventImpl** impls = heap.impl;
    const std::size_t n = heap.n;
    // down: the hole takes the earliest of its four children (the padding's NoKey() is never
    // the earliest: a family starts with an entry)
    std::size_t i = 0;
    for (std::size_t first = 1; first < n; first = i * kArity + 1)
    {
        // the earlier of each pair, then of the two, as indexes computed without a branch:
        // which child is the earliest is a coin toss, and a branch on it would mispredict
        // about half the time
        const Key* c = key + first;
        std::size_t a = CoinToss(c[1] < c[0]);
        std::size_t b = 2 | CoinToss(c[3] < c[2]);
        std::size_t later = CoinToss(c[b] < c[a]) - 1; // all ones when c[a] is the earlier
        std::size_t best = first + ((a & later) | (b & ~later));
        key[i] = key[best];
        impls[i] = impls[best];
        i = best;
    }
    // up: the entry rises from that leaf to its place
    SiftUp(heap, i, k, impl);
}

void
FeroceHeapScheduler::Heap::Grow(std::size_t size)
{
    Key* keys = new Key[size];
    EventImpl** impls = new EventImpl*[size];
    std::copy(key, key + slots, keys);
    std::fill(keys + slots, keys + size, NoKey());
    std::copy(impl, impl + slots, impls);
    std::fill(impls + slots, impls + size, nullptr);
    delete[] key;
    delete[] impl;
    key = keys;
    impl = impls;
    slots = size;
}

void
FeroceHeapScheduler::Near::Compact()
{
    std::copy(key + head, key + n, key);
    std::copy(impl + head, impl + n, impl);
    n -= head;
    head = 0;
}

void
FeroceHeapScheduler::Near::PushSlow(Key k, EventImpl* e)
{
    if (sorted && n - head < kSortedMax)
    {
        // the array is full: room from the front, else a larger array
        if (head > 0)
        {
            Compact();
        }
        if (Full())
        {
            Grow(2 * slots);
        }
        Push(k, e);
        return;
    }
    if (sorted)
    {
        // kSortedMax events: sorted ascending from index 0, they already are a heap
        Compact();
        std::fill(key + n, key + n + kPad, NoKey());
        sorted = false;
    }
    HeapPush(*this, k, e);
}

void
FeroceHeapScheduler::Near::Sort()
{
    // fewer than kSortedMin entries: an insertion sort
    for (std::size_t i = 1; i < n; i++)
    {
        Key k = key[i];
        EventImpl* e = impl[i];
        std::size_t j = i;
        for (; j > 0 && k < key[j - 1]; j--)
        {
            Move(j, j - 1);
        }
        Set(j, k, e);
    }
    sorted = true;
}

bool
FeroceHeapScheduler::Near::RemoveSorted(Key k)
{
    Key* end = key + n;
    Key* it = std::lower_bound(key + head, end, k);
    if (it == end || !(Ident(*it) == k))
    {
        return false;
    }
    std::size_t i = std::size_t(it - key);
    if (i == head)
    {
        head++;
    }
    else
    {
        for (; i + 1 < n; i++)
        {
            Move(i, i + 1);
        }
        n--;
    }
    if (head == n)
    {
        n = 0;
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
    // what is left of removed events goes now, as Pop would drop it
    const_cast<FeroceHeapScheduler*>(this)->DropRemovedTops();
    bool fromNear = FrontIsNear();
    return EventOf(FrontKey(fromNear), Untagged(fromNear ? m_near.FrontImpl() : m_far.impl[0]));
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
    Key k = MakeKey(ev.key.m_ts, ev.key.m_uid, 0); // as Ident: the context is not compared
    if (m_near.sorted)
    {
        if (m_near.RemoveSorted(k))
        {
            return;
        }
    }
    else if (!m_near.Empty() && Ident(m_near.FrontKey()) == k)
    {
        m_near.PopFront();
        return;
    }
    // at the top of the far heap it goes now, else lazily (Pop drops it when it is the front)
    if (!m_far.Empty() && Ident(m_far.key[0]) == k)
    {
        HeapPopTop(m_far);
        return;
    }
    m_removed.push_back(k);
    std::push_heap(m_removed.begin(), m_removed.end(), Later);
    m_removedTs = TsOf(m_removed.front());
}

EventImpl*
FeroceHeapScheduler::PopLaneFirst(bool fromNear, EventImpl* impl)
{
    FeroceLaneEvent* first = LaneOf(impl);
    if (!first->laneNext)
    {
        fromNear ? m_near.PopFront() : HeapPopTop(m_far);
    }
    else if (fromNear)
    {
        m_near.ReplaceFront(LaneNextKey(first), LaneEntry(first->laneNext));
    }
    else
    {
        ReplaceTop(m_far, LaneNextKey(first), LaneEntry(first->laneNext));
    }
    return Untagged(impl);
}

bool
FeroceHeapScheduler::DropRemovedTops()
{
    // every removed entry is in a heap: the front is a removed one only if it is the earliest
    // removed key
    bool dropped = false;
    while (!m_removed.empty())
    {
        bool fromNear = FrontIsNear();
        if (!(Ident(FrontKey(fromNear)) == m_removed.front()))
        {
            break;
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
        dropped = true;
    }
    m_removedTs = m_removed.empty() ? ~uint64_t(0) : TsOf(m_removed.front());
    return dropped;
}

} // namespace ns3
