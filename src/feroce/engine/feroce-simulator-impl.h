/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SIMULATOR_IMPL_H
#define FEROCE_SIMULATOR_IMPL_H

#include "feroce-calendar.h"
#include "feroce-event.h"
#include "feroce-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <deque>
#include <list>
#include <mutex>
#include <thread>
#include <utility>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A sequential SimulatorImpl that runs events in DefaultSimulatorImpl's
 * order, with a short path for the fabric's own events.
 *
 * It keeps ns-3's contract event for event: the same uids in the same order
 * (so ties at one instant break the same way), the same context, expiry,
 * removal, destroy-event and stop semantics, and events scheduled with a
 * context from another thread are taken in between events, as
 * DefaultSimulatorImpl does.  What it saves is the cost around each event:
 * no logging checks, no EventId built for the pre-event hook, and, through
 * FeroceSim, a call from feroce's devices to the clock or the event list
 * that goes straight to this object instead of through Simulator's static
 * wrappers and a virtual call.  With FeroceHeapScheduler as its scheduler it
 * calls the heap directly, and keeps the FeroceEvents due soon (within 16 us,
 * or the heap's NearHorizon if shorter) apart, in a FeroceCalendar of their
 * own: the next event is the earlier of the two fronts, in the same order.
 * It is feroce's default (RoceHelper::SetDefaultSimulator);
 * SimulatorImplementationType=ns3::DefaultSimulatorImpl gives ns-3's own,
 * with the same results.
 */
class FeroceSimulatorImpl final : public SimulatorImpl
{
  public:
    static TypeId GetTypeId();

    FeroceSimulatorImpl();
    ~FeroceSimulatorImpl() override;

    /// The calendar spans at most this, so its buckets are about 1 ns wide: a busy fabric runs
    /// an event every few ns, and a bucket that seldom holds two makes an insertion that seldom
    /// reads another event, walks a list or mispredicts. Frames' arrivals and wake-ups are due
    /// within microseconds; a later event waits in the heap, in the same order
    /// (src/feroce/doc/fabric.md, "The calendar's buckets 1 ns wide").
    static constexpr int64_t kCalendarSpanNs = 16000;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    /// void in older ns-3 (3.35, 3.37), EventId in newer (ns-3-dev): follow the base class
    using StopResult = decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>()));
    StopResult Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /// The implementation the Simulator runs, if it is this class; else nullptr.
    static FeroceSimulatorImpl* Running()
    {
        return s_running;
    }

    /// The current time step.
    uint64_t NowStep() const
    {
        return m_currentTs;
    }

    /// Schedule from the simulation's thread; returns the event's uid.
    uint32_t Insert(uint64_t delayStep, uint32_t context, EventImpl* event)
    {
        NS_ASSERT_MSG(int64_t(delayStep) >= 0, "FeroceSimulatorImpl: an event in the past");
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = m_currentTs + delayStep;
        ev.key.m_context = context;
        ev.key.m_uid = m_uid++;
        m_unscheduledEvents++;
        if (m_heap)
        {
            m_heap->Push(ev);
            NoteHeapInsert(ev.key.m_ts, ev.key.m_uid);
        }
        else
        {
            m_events->Insert(ev);
        }
        return ev.key.m_uid;
    }

    /// Schedule a FeroceEvent from the simulation's thread, as Insert an EventImpl: into the
    /// calendar when due within its horizon (and the scheduler is the heap); the event keeps its
    /// key (FeroceEvent::ts, uid, context), to be removed by.
    void InsertEvent(uint64_t delayStep, uint32_t context, FeroceEvent* event)
    {
        NS_ASSERT_MSG(int64_t(delayStep) >= 0, "FeroceSimulatorImpl: an event in the past");
        event->ts = m_currentTs + delayStep;
        event->context = context;
        if (delayStep >= m_calendarLimit)
        {
            event->uid = Insert(delayStep, context, Tag(event));
            return;
        }
        event->uid = m_uid++;
        m_unscheduledEvents++;
        m_calendar.Insert(event);
    }

    /// Remove a pending FeroceEvent (not yet run), by the key InsertEvent gave it.
    void RemoveEvent(FeroceEvent* event);

    /**
     * A FeroceEvent as it waits in the event list: its address with the
     * lowest bit set (a FeroceEvent is pointer-aligned, an EventImpl's address
     * never has that bit), which no scheduler dereferences.
     */
    static EventImpl* Tag(FeroceEvent* event)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(event) | 1);
    }

    /// A FeroceEvent that waits out of the calendar as the scheduler holds it: tagged, with the
    /// key InsertEvent gave it.
    static Scheduler::Event Listed(FeroceEvent* event)
    {
        Scheduler::Event ev;
        ev.impl = Tag(event);
        ev.key.m_ts = event->ts;
        ev.key.m_uid = event->uid;
        ev.key.m_context = event->context;
        return ev;
    }

    /// The FeroceEvent an entry of the event list holds, or null for an EventImpl.
    static FeroceEvent* Untag(EventImpl* impl)
    {
        uintptr_t p = reinterpret_cast<uintptr_t>(impl);
        return p & 1 ? reinterpret_cast<FeroceEvent*>(p - 1) : nullptr;
    }

  protected:
    void DoDispose() override;

  private:
    /// Run the next event. Inlined always into Run's loop: as a call, it saved and restored
    /// six registers around every event (about 17 instructions of some 790).
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    inline void
    ProcessOneEvent();
    /// Run the next event of the scheduler (an EventImpl, or a FeroceEvent due later than the
    /// calendar's horizon when scheduled).
    void ProcessListed();
    /// With more events than this in the calendar, the next one's memory is fetched ahead.
    static const std::size_t kFetchAheadMin = 32;

    /// The heap's front may now be (ts, uid): the earlier of it and the one noted.
    void NoteHeapInsert(uint64_t ts, uint32_t uid)
    {
        if (FeroceCalendar::Earlier(ts, uid, m_heapTs, m_heapUid))
        {
            m_heapTs = ts;
            m_heapUid = uid;
        }
    }

    /// Note the heap's front anew (after it lost an event); none: m_heapTs ~0.
    void NoteHeapFront();

    /// The calendar's front is due before the heap's (not empty).
    bool CalendarFirst() const
    {
        const FeroceEvent* f = m_calendar.Front();
        return f && FeroceCalendar::Earlier(f->ts, f->uid, m_heapTs, m_heapUid);
    }

    /// Prefetch what the next event (if a FeroceEvent) reads first (FeroceEvent::ahead).
    /// Inlined always: GCC takes a function that only prefetches for one without effect, and
    /// drops its call when it has not inlined it first.
#if defined(__GNUC__)
    __attribute__((always_inline))
#endif
    static inline void
    FetchAhead(const FeroceEvent* next)
    {
        if (next == nullptr)
        {
            return;
        }
        // a prefetch never faults: of null and the lines after it (nothing) it costs nothing,
        // and no branch asks (arrivals and wake-ups alternate at random)
        uintptr_t device = reinterpret_cast<uintptr_t>(next->ahead[0]);
        uintptr_t frame = reinterpret_cast<uintptr_t>(next->ahead[2]);
        uintptr_t owner = reinterpret_cast<uintptr_t>(next->ahead[3]);
        __builtin_prefetch(reinterpret_cast<const void*>(device));
        __builtin_prefetch(reinterpret_cast<const void*>(device + 64));
        __builtin_prefetch(reinterpret_cast<const void*>(device + 128));
        __builtin_prefetch(reinterpret_cast<const void*>(device + 192));
        __builtin_prefetch(reinterpret_cast<const void*>(device + 256));
        __builtin_prefetch(next->ahead[1]);
        __builtin_prefetch(reinterpret_cast<const void*>(frame));
        __builtin_prefetch(reinterpret_cast<const void*>(frame + 64));
        __builtin_prefetch(reinterpret_cast<const void*>(frame + 127));
        __builtin_prefetch(reinterpret_cast<const void*>(owner));
        __builtin_prefetch(reinterpret_cast<const void*>(owner + 64));
        __builtin_prefetch(reinterpret_cast<const void*>(owner + 128));
        __builtin_prefetch(reinterpret_cast<const void*>(owner + 192));
    }

    /// Move the events other threads scheduled into the event list.
    void TakeThreadEvents();

    /// An event scheduled with a context from another thread.
    struct ThreadEvent
    {
        uint32_t context;
        uint64_t delayStep;
        EventImpl* event;
    };

    static FeroceSimulatorImpl* s_running;

    Ptr<Scheduler> m_events;
    FeroceHeapScheduler* m_heap; ///< m_events, when it is feroce's heap (called directly)
    FeroceCalendar m_calendar;   ///< FeroceEvents due soon (m_calendarLimit)
    /// FeroceEvents due in fewer time steps than this go into the calendar: its span (the
    /// heap's NearHorizon or kCalendarSpanNs, the shorter) and one; 0 (none) without the heap.
    uint64_t m_calendarLimit;
    uint64_t m_heapTs;  ///< the heap's front's time step, ~0 when it is empty (with m_heap)
    uint32_t m_heapUid; ///< and its uid
    std::list<EventId> m_destroyEvents;
    uint64_t m_currentTs;
    uint32_t m_currentUid;
    uint32_t m_currentContext;
    uint32_t m_uid;               ///< the next event's uid
    uint64_t m_unscheduledEvents; ///< events in the list
    uint64_t m_eventCount;        ///< events run
    bool m_stop;
    std::thread::id m_mainThread; ///< the thread of Run (or of construction)
    std::mutex m_threadEventsMutex;
    std::deque<ThreadEvent> m_threadEvents;
    std::atomic<bool> m_threadEventsPending;
};

} // namespace ns3

#endif /* FEROCE_SIMULATOR_IMPL_H */
