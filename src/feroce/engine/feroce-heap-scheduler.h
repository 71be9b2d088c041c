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
 * \brief An event scheduler: two 4-ary min-heaps of events, each in one array.
 *
 * Events leave in the order of every ns-3 scheduler, by time and then by
 * insertion (the event's uid), so a simulation gives the same results as
 * with ns3::MapScheduler, the event for event.  It allocates nothing per
 * event (the map allocates a tree node for each) and keeps the pending
 * events in contiguous memory.  Events due more than NearHorizon after the
 * last event taken (retransmission timers, slow pacing) go to a second heap:
 * the fabric's own events (frame arrivals, wake-ups a few microseconds
 * ahead) then sift through a heap of only their own few, which stays in
 * cache, instead of through the tens of thousands of timers of a large
 * camera; the next event is the earlier of the two tops.  Simulator::Remove
 * of an event that is not the next one is lazy: its uid is remembered and the
 * entry dropped when it reaches the top of its heap (the entry's EventImpl
 * is never touched again).
 */
class FeroceHeapScheduler final : public Scheduler
{
  public:
    static TypeId GetTypeId();

    FeroceHeapScheduler();
    ~FeroceHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    using Heap = std::vector<Event>;

    static void Push(Heap& heap, const Event& ev);
    /// Take the top entry off a heap.
    static void PopTop(Heap& heap);
    /// The heap whose top is the next event (one of them is not empty).
    Heap& NextHeap();
    const Heap& NextHeap() const;
    /// Drop the removed entries that reached the top of either heap.
    void DropRemovedTops();

    Heap m_near;                            ///< events due within the horizon when inserted
    Heap m_far;                             ///< the later ones
    uint64_t m_lastTs;                      ///< time of the last event taken
    Time m_nearHorizon;                     ///< how far ahead an event goes to m_near
    std::unordered_set<uint32_t> m_removed; ///< uids removed but still in a heap
};

} // namespace ns3

#endif /* FEROCE_HEAP_SCHEDULER_H */
