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
 * \brief An event scheduler: the near events in a sorted array or a calendar
 * queue, the far ones in a 4-ary min-heap.
 *
 * Events leave in the order of every ns-3 scheduler, by time and then by
 * insertion (the event's uid), so a simulation gives the same results as
 * with ns3::MapScheduler, the event for event.  It allocates nothing per
 * event once its arrays have grown (the map allocates a tree node for each).
 * Events due more than NearHorizon after the last event taken (retransmission
 * timers, slow pacing) go to the far heap: the fabric's own events (frame
 * arrivals, wake-ups a few microseconds ahead) then wait among only their own,
 * which stay in cache, instead of among the tens of thousands of timers of a
 * large camera; the next event is the earlier of the two fronts.
 *
 * The near events of a small fabric are a dozen, and a new one is nearly
 * always due after most of them: kept sorted, an insertion moves a few
 * entries up from the end and the next event is taken from the front without
 * moving any.  When more than SortedMax wait, they go into a calendar
 * (Calendar: buckets by time on a ring longer than the horizon, each a short
 * sorted list); below SortedMin they are sorted again.  Simulator::Remove takes
 * a near event out at once; from the far heap it is lazy: its key (time, uid)
 * goes into a small min-heap of the removed keys, and the entry is dropped
 * when it becomes the next event, which is then exactly the earliest removed
 * key (every removed entry is due at or after it), so one comparison per event
 * finds it (its EventImpl is never touched again).
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
        // every removed key is an entry still in the far heap (Pop drops one when it is the front);
        // while none is, the two fronts say it in fewer loads
        return m_removedTs == ~uint64_t(0) ? m_near.Empty() && m_far.Empty()
                                           : m_near.Size() + m_far.n == m_removed.size();
    }

    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// Insert, without a virtual call (FeroceSimulatorImpl); inlined as it was with the events
    /// kept whole (only a push into the heap or a full array is a call).
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline void
    Push(const Event& ev)
    {
        if (ev.key.m_ts <= m_lastTs + m_nearHorizonSteps)
        {
            m_near.Push(KeyOf(ev), ev.impl);
        }
        else
        {
            HeapPush(m_far, KeyOf(ev), ev.impl);
        }
    }

    /// RemoveNext, without a virtual call (FeroceSimulatorImpl); not empty.
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline Event
    Pop()
    {
        bool fromNear = FrontIsNear();
        Key key = FrontKey(fromNear);
        if (TsOf(key) >= m_removedTs && DropRemovedTops())
        {
            // the front was a removed event's entry (rare): the next one
            fromNear = FrontIsNear();
            key = FrontKey(fromNear);
        }
        EventImpl* impl = fromNear ? m_near.FrontImpl() : m_far.impl[0];
        if (fromNear)
        {
            m_near.PopFront();
        }
        else
        {
            HeapPopTop(m_far);
        }
        Event next = EventOf(key, impl);
        m_lastTs = next.key.m_ts;
        return next;
    }

    /// The NearHorizon attribute.
    Time GetNearHorizon() const;

    /// The near events are kept sorted now (not in the calendar); for tests.
    bool IsNearSorted() const
    {
        return m_near.sorted;
    }

  private:
    /**
     * An event's key as one unsigned 128-bit number: time, uid, context from
     * the most significant bits down.  Uids are unique, so its order is ns-3's
     * (Scheduler::EventKey's operator<: time, then uid), and a comparison is
     * one compare-and-borrow, without branches.
     */
#ifdef __SIZEOF_INT128__
    using Key = __uint128_t;
#else
    struct Key
    {
        uint64_t lo;
        uint64_t hi;

        bool operator<(const Key& b) const
        {
            return hi < b.hi || (hi == b.hi && lo < b.lo);
        }

        bool operator==(const Key& b) const
        {
            return hi == b.hi && lo == b.lo;
        }
    };
#endif

    static Key MakeKey(uint64_t ts, uint32_t uid, uint32_t context)
    {
        uint64_t lo = uint64_t(uid) << 32 | context;
#ifdef __SIZEOF_INT128__
        return Key(ts) << 64 | lo;
#else
        return Key{lo, ts};
#endif
    }

    static Key KeyOf(const Event& ev)
    {
        return MakeKey(ev.key.m_ts, ev.key.m_uid, ev.key.m_context);
    }

    static uint64_t TsOf(Key k)
    {
#ifdef __SIZEOF_INT128__
        return uint64_t(k >> 64);
#else
        return k.hi;
#endif
    }

    static uint64_t LowOf(Key k)
    {
#ifdef __SIZEOF_INT128__
        return uint64_t(k);
#else
        return k.lo;
#endif
    }

    static Event EventOf(Key k, EventImpl* impl)
    {
        Event ev;
        ev.impl = impl;
        ev.key.m_ts = TsOf(k);
        ev.key.m_uid = uint32_t(LowOf(k) >> 32);
        ev.key.m_context = uint32_t(LowOf(k));
        return ev;
    }

    /// The key without its context: what identifies an event (its time and uid).
    static Key Ident(Key k)
    {
#ifdef __SIZEOF_INT128__
        return k & ~Key(0xffffffffu);
#else
        return Key{k.lo & ~uint64_t(0xffffffffu), k.hi};
#endif
    }

    /// Above every event's key (an event's time is below 2^63): the keys past a heap's end.
    static Key NoKey()
    {
        return MakeKey(~uint64_t(0), ~uint32_t(0), ~uint32_t(0));
    }

    /**
     * Events as keys and their EventImpls in two arrays of the same index, the
     * keys 16 bytes each: a 4-ary heap's four children are 64 bytes of keys.
     * As a heap, the four keys past its end are NoKey(), so every entry's
     * children are four keys (the missing ones never chosen) and a sift reads
     * no count of them.
     */
    struct Heap
    {
        Key* key{nullptr};         ///< the keys (slots of them)
        EventImpl** impl{nullptr}; ///< their EventImpls
        std::size_t n{0};          ///< entries
        std::size_t slots{0};      ///< entries the arrays hold

        Heap()
        {
            Grow(4 * kPad);
        }

        ~Heap()
        {
            delete[] key;
            delete[] impl;
        }

        Heap(const Heap&) = delete;
        Heap& operator=(const Heap&) = delete;

        bool Empty() const
        {
            return n == 0;
        }

        /// Room for one more entry and the padding behind it.
        bool Full() const
        {
            return n + kPad + 1 > slots;
        }

        /// Arrays of this many slots (more than now), the new keys NoKey().
        void Grow(std::size_t size);

        void Set(std::size_t i, Key k, EventImpl* e)
        {
            key[i] = k;
            impl[i] = e;
        }

        void Move(std::size_t to, std::size_t from)
        {
            key[to] = key[from];
            impl[to] = impl[from];
        }
    };

    /// Keys past a heap's end that are NoKey(): one family of children.
    static const std::size_t kPad = 4;

    /// Put (k, impl) in the hole at i or above it (the sift up of HeapPush and ReplaceTop).
    static void SiftUp(Heap& heap, std::size_t i, Key k, EventImpl* impl);
    static void HeapPush(Heap& heap, Key k, EventImpl* impl);
    /// Take the top entry off a (non-empty) heap.
    static void HeapPopTop(Heap& heap);
    /// Put (k, impl) in place of the top entry of a (non-empty) heap: the hole left by the top
    /// goes down to a leaf, each time to the earliest child, and the entry goes up from there
    /// (bottom-up, Floyd's: an entry from the bottom belongs low in the heap).
    static void ReplaceTop(Heap& heap, Key k, EventImpl* impl);

    /**
     * The near events when many: a calendar queue (R. Brown, CACM 31(10), 1988) of buckets
     * 2^shift time steps wide on a ring longer than the near horizon, so every near event (due
     * within the horizon of the last one taken) has a bucket of its own time; each bucket a
     * list sorted by key, a bit per bucket says which are not empty. Taking the earliest and
     * inserting (mostly into an empty bucket or after its last) cost a few loads, where a heap of a
     * hundred entries costs three levels of comparisons whose outcomes are coin tosses; a
     * removal unlinks at once.
     */
    struct Calendar
    {
        /// An event in a bucket's list.
        struct Node
        {
            Key key;
            EventImpl* impl;
            uint32_t next; ///< the next node of the bucket, or kNil
        };

        static constexpr uint32_t kNil = ~uint32_t(0);
        /// Buckets on the ring (a power of two): 128 KiB of list ends.
        static constexpr std::size_t kBuckets = 16384;

        std::vector<Node> node; ///< the nodes, in use or free

        /// A bucket's list: its earliest and its latest node, kNil when empty.
        struct Bucket
        {
            uint32_t first;
            uint32_t last;
        };

        std::vector<Bucket> bucket; ///< the ring
        std::vector<uint64_t> busy; ///< a bit per bucket: not empty
        uint32_t free{kNil};        ///< the free nodes, a list
        unsigned shift{0};          ///< a bucket is 2^shift time steps
        std::size_t count{0};       ///< events in the buckets
        uint32_t front{kNil};       ///< the earliest event's node
        std::size_t frontBucket{0}; ///< and its bucket

        /// Buckets wide enough that the ring is longer than a horizon of this many steps.
        void Fit(uint64_t horizonSteps);

        std::size_t BucketOf(Key k) const
        {
            return std::size_t(TsOf(k) >> shift) & (kBuckets - 1);
        }

        /// Insert into its bucket's list; whether it is the new earliest.
        bool Insert(Key k, EventImpl* e);
        /// Take the earliest (not empty); the new earliest is `front` (kNil if none).
        void PopFront();
        /// Remove the event of this key (Ident), if here.
        bool Remove(Key k);
        /// The first busy bucket from `from` on around the ring (not empty).
        std::size_t NextBusy(std::size_t from) const;
        /// Unlink the node `*link` points to (after node `before`, kNil if it is the first) from
        /// bucket b's list and free it.
        void Unlink(std::size_t b, uint32_t* link, uint32_t before);
    };

    /**
     * The near events: sorted in [head, n) while few, else in a calendar whose earliest event is
     * copied to slot 0 (n is 1, or 0 when empty), so the front is read the same way in both.
     */
    struct Near : Heap
    {
        std::size_t head{0};
        bool sorted{true};
        Calendar calendar;
        uint64_t horizonSteps{0}; ///< the horizon the calendar's ring covers

        bool Empty() const
        {
            return n == head;
        }

        std::size_t Size() const
        {
            return sorted ? n - head : calendar.count;
        }

        Key FrontKey() const
        {
            return key[head];
        }

        EventImpl* FrontImpl() const
        {
            return impl[head];
        }

#if defined(__GNUC__)
        __attribute__((always_inline))
#endif
        inline void
        Push(Key k, EventImpl* e)
        {
            if (!sorted || n - head >= kSortedMax || Full())
            {
                PushSlow(k, e);
                return;
            }
            // from the end down to its place: a new event is nearly always among the latest
            std::size_t i = n++;
            while (i > head && k < key[i - 1])
            {
                Move(i, i - 1);
                i--;
            }
            Set(i, k, e);
        }

        /// Take the front event.
        void PopFront()
        {
            if (sorted)
            {
                if (++head == n)
                {
                    n = 0;
                    head = 0;
                }
                return;
            }
            PopListed();
        }

        /// Push when the array is full (sorted: compacted or grown) or in the calendar.
        void PushSlow(Key k, EventImpl* e);
        /// Take the calendar's earliest (then as Shrunk).
        void PopListed();
        /// The calendar lost an event: below kSortedMin events, sorted again; else its earliest
        /// into slot 0 (NoteFront).
        void Shrunk();
        /// The calendar's earliest event into slot 0.
        void NoteFront();
        /// The calendar's events, sorted, into the array.
        void Sort();
        /// Move the sorted events to the start of the array.
        void Compact();
        /// Remove the event of this key (Ident), if here.
        bool Remove(Key k);
        /// The calendar fits a new horizon (its events, if any, inserted again).
        void SetHorizon(uint64_t steps);
    };

    /// Below this many near events they are kept sorted again.
    static const std::size_t kSortedMin = 16;
    /// Above this many, the near events go into the calendar.
    static const std::size_t kSortedMax = 64;

    void SetNearHorizon(Time horizon);
    /// Drop the removed entries while the front is one of them; whether it dropped any.
    bool DropRemovedTops();

    /// The earliest entry is the near events' front (else the far heap's top); not empty.
    bool FrontIsNear() const
    {
        return m_far.Empty() || (!m_near.Empty() && m_near.FrontKey() < m_far.key[0]);
    }

    /// The key of the near events' front or of the far heap's top.
    Key FrontKey(bool fromNear) const
    {
        return fromNear ? m_near.FrontKey() : m_far.key[0];
    }

    /// The later of two removed keys: m_removed is a min-heap by this.
    static bool Later(const Key& a, const Key& b)
    {
        return b < a;
    }

    Near m_near;                 ///< events due within the horizon when inserted
    Heap m_far;                  ///< the later ones
    uint64_t m_lastTs;           ///< time of the last event taken
    uint64_t m_nearHorizonSteps; ///< NearHorizon in time steps
    /// Keys (Ident) of removed events still in the far heap, earliest first (a min-heap): the
    /// earliest entry is a removed one only if it is the earliest of them.
    std::vector<Key> m_removed;
    /// The time of m_removed's earliest key, past every event's while none: a front due before
    /// it is not a removed event (one comparison per event).
    uint64_t m_removedTs;
};

} // namespace ns3

#endif /* FEROCE_HEAP_SCHEDULER_H */
