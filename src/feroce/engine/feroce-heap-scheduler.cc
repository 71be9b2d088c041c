/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-heap-scheduler.h"

#include "feroce-calendar.h"

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
      m_nearHorizonSteps(uint64_t(MicroSeconds(100).GetTimeStep())),
      m_removedTs(~uint64_t(0))
{
    NS_LOG_FUNCTION(this);
    m_near.Grow(4 * kSortedMax); // room to take from the front between compactions
    m_near.SetHorizon(m_nearHorizonSteps);
}

FeroceHeapScheduler::~FeroceHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceHeapScheduler::SetNearHorizon(Time horizon)
{
    m_nearHorizonSteps = uint64_t(horizon.GetTimeStep());
    m_near.SetHorizon(m_nearHorizonSteps);
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
FeroceHeapScheduler::Calendar::Fit(uint64_t horizonSteps)
{
    // the near events' times span at most the horizon: they fall in horizon / 2^shift + 2
    // consecutive buckets, which the ring must hold
    shift = 0;
    while ((horizonSteps >> shift) + 2 > kBuckets)
    {
        shift++;
    }
    bucket.assign(kBuckets, Bucket{kNil, kNil});
    busy.assign(kBuckets / 64, 0);
}

bool
FeroceHeapScheduler::Calendar::Insert(Key k, EventImpl* e)
{
    uint32_t at = free;
    if (at == kNil)
    {
        at = uint32_t(node.size());
        node.push_back(Node{});
    }
    else
    {
        free = node[at].next;
    }
    std::size_t b = BucketOf(k);
    Bucket& list = bucket[b];
    // the usual case: into an empty bucket or after every event of its bucket (due later, or
    // scheduled later); whether the bucket was empty is a coin toss, so the two are one path of
    // selects (an empty bucket reads and links the new node itself, then overwritten)
    bool empty = list.first == kNil;
    uint32_t last = empty ? at : list.last;
    if (empty | (node[last].key < k))
    {
        node[last].next = at;
        list.first = empty ? at : list.first;
        list.last = at;
        node[at] = Node{k, e, kNil};
    }
    else
    {
        uint32_t* link = &list.first;
        while (node[*link].key < k)
        {
            link = &node[*link].next;
        }
        node[at] = Node{k, e, *link};
        *link = at;
    }
    busy[b / 64] |= uint64_t(1) << (b % 64);
    count++;
    if (count == 1 || k < node[front].key)
    {
        front = at;
        frontBucket = b;
        return true;
    }
    return false;
}

std::size_t
FeroceHeapScheduler::Calendar::NextBusy(std::size_t from) const
{
    static_assert(kBuckets == FeroceCalendar::kBuckets, "one ring size for both calendars");
    return FeroceCalendar::NextBusy(busy.data(), from);
}

void
FeroceHeapScheduler::Calendar::Unlink(std::size_t b, uint32_t* link, uint32_t before)
{
    uint32_t at = *link;
    *link = node[at].next;
    node[at].next = free;
    free = at;
    count--;
    Bucket& list = bucket[b];
    // selects, not branches: whether the bucket empties is a coin toss
    list.last = list.last == at ? before : list.last;
    busy[b / 64] &= ~(uint64_t(list.first == kNil) << (b % 64));
}

void
FeroceHeapScheduler::Calendar::PopFront()
{
    // the earliest is its bucket's first; the next earliest is the next in that bucket, or the
    // first of the next busy bucket (every event is due within the ring from here)
    std::size_t b = frontBucket;
    Unlink(b, &bucket[b].first, kNil);
    if (count == 0)
    {
        front = kNil;
        return;
    }
    if (bucket[b].first == kNil)
    {
        b = NextBusy(b);
        frontBucket = b;
    }
    front = bucket[b].first;
}

bool
FeroceHeapScheduler::Calendar::Remove(Key k)
{
    std::size_t b = BucketOf(k);
    uint32_t before = kNil;
    for (uint32_t* link = &bucket[b].first; *link != kNil; link = &node[*link].next)
    {
        if (Ident(node[*link].key) == k)
        {
            if (*link == front)
            {
                PopFront();
            }
            else
            {
                Unlink(b, link, before);
            }
            return true;
        }
        before = *link;
    }
    return false;
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
FeroceHeapScheduler::Near::NoteFront()
{
    n = calendar.count > 0 ? 1 : 0;
    head = 0;
    if (n > 0)
    {
        const Calendar::Node& f = calendar.node[calendar.front];
        Set(0, f.key, f.impl);
    }
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
        // kSortedMax events: into the calendar, the earliest first
        for (std::size_t i = head; i < n; i++)
        {
            calendar.Insert(key[i], impl[i]);
        }
        sorted = false;
        NoteFront();
    }
    if (calendar.Insert(k, e))
    {
        Set(0, k, e);
        n = 1;
    }
}

void
FeroceHeapScheduler::Near::PopListed()
{
    calendar.PopFront();
    Shrunk();
}

void
FeroceHeapScheduler::Near::Shrunk()
{
    if (calendar.count < kSortedMin)
    {
        Sort();
        return;
    }
    NoteFront();
}

void
FeroceHeapScheduler::Near::Sort()
{
    // fewer than kSortedMin events: taken in order into the array
    n = 0;
    head = 0;
    while (calendar.count > 0)
    {
        const Calendar::Node& f = calendar.node[calendar.front];
        Set(n++, f.key, f.impl);
        calendar.PopFront();
    }
    sorted = true;
}

bool
FeroceHeapScheduler::Near::Remove(Key k)
{
    if (!sorted)
    {
        if (!calendar.Remove(k))
        {
            return false;
        }
        Shrunk();
        return true;
    }
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
FeroceHeapScheduler::Near::SetHorizon(uint64_t steps)
{
    // while events wait, the buckets never narrow: those inserted under the old horizon must
    // still fall on the ring; the calendar's events are inserted again into the new buckets
    if (!Empty())
    {
        steps = std::max(steps, horizonSteps);
    }
    std::vector<Calendar::Node> held;
    while (calendar.count > 0)
    {
        held.push_back(calendar.node[calendar.front]);
        calendar.PopFront();
    }
    calendar.Fit(steps);
    for (const Calendar::Node& h : held)
    {
        calendar.Insert(h.key, h.impl);
    }
    horizonSteps = steps;
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
    return EventOf(FrontKey(fromNear), fromNear ? m_near.FrontImpl() : m_far.impl[0]);
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
    if (m_near.Remove(k))
    {
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
