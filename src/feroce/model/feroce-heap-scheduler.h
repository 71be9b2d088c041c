/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_HEAP_SCHEDULER_H
#define FEROCE_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief An event scheduler: a 4-ary min-heap of events in one array.
 *
 * Events leave in the order of every ns-3 scheduler, by time and then by
 * insertion (the event's uid), so a simulation gives the same results as
 * with ns3::MapScheduler, the event for event.  It allocates nothing per
 * event (the map allocates a tree node for each), keeps the pending events
 * in contiguous memory (what matters with the tens of thousands of timers
 * of a large fabric) and needs about log4(n) moves per insertion or removal.
 * Simulator::Remove of an event that is not the next one is lazy: its uid is
 * remembered and the entry dropped when it reaches the top (the entry's
 * EventImpl is never touched again).
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
    /// Take the top entry off the heap.
    void PopTop();
    /// Drop the removed entries that reached the top.
    void DropRemovedTop();

    std::vector<Event> m_heap;              ///< m_heap[0] is the next event
    std::unordered_set<uint32_t> m_removed; ///< uids removed but still in m_heap
};

} // namespace ns3

#endif /* FEROCE_HEAP_SCHEDULER_H */
