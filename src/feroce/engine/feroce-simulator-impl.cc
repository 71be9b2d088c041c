/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-simulator-impl.h"

#include "feroce-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

// no logging per event: it is what this class saves (and Now() must not log)
NS_LOG_COMPONENT_DEFINE("FeroceSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(FeroceSimulatorImpl);

namespace
{
// EventId's reserved uids (ns-3's EventId::UID): 2 marks a destroy event, real events start at 4
const uint32_t kDestroyUid = 2;
const uint32_t kFirstUid = 4;
} // namespace

FeroceSimulatorImpl* FeroceSimulatorImpl::s_running = nullptr;

TypeId
FeroceSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FeroceSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Feroce")
                            .AddConstructor<FeroceSimulatorImpl>();
    return tid;
}

FeroceSimulatorImpl::FeroceSimulatorImpl()
    : m_heap(nullptr),
      m_calendarLimit(0),
      m_heapTs(~uint64_t(0)),
      m_heapUid(~uint32_t(0)),
      m_currentTs(0),
      m_currentUid(0),
      m_currentContext(Simulator::NO_CONTEXT),
      m_uid(kFirstUid),
      m_unscheduledEvents(0),
      m_eventCount(0),
      m_stop(false),
      m_mainThread(std::this_thread::get_id()),
      m_threadEventsPending(false)
{
}

FeroceSimulatorImpl::~FeroceSimulatorImpl()
{
    if (s_running == this)
    {
        s_running = nullptr;
    }
}

void
FeroceSimulatorImpl::DoDispose()
{
    if (s_running == this)
    {
        s_running = nullptr;
    }
    TakeThreadEvents();
    while (!m_calendar.Empty())
    {
        FeroceEvent* fe = m_calendar.PopFront();
        if (fe->drop)
        {
            fe->drop(fe);
        }
    }
    while (m_events && !m_events->IsEmpty())
    {
        EventImpl* impl = m_events->RemoveNext().impl;
        FeroceEvent* fe = Untag(impl);
        if (!fe)
        {
            impl->Unref();
        }
        else if (fe->drop)
        {
            fe->drop(fe);
        }
    }
    m_events = nullptr;
    m_heap = nullptr;
    SimulatorImpl::DoDispose();
}

void
FeroceSimulatorImpl::Destroy()
{
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> event = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!event->IsCancelled())
        {
            event->Invoke();
        }
    }
    // Simulator::Destroy: the next Simulator call makes a new implementation, even if someone
    // still holds this one
    if (s_running == this)
    {
        s_running = nullptr;
    }
}

void
FeroceSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    while (m_events && !m_events->IsEmpty())
    {
        scheduler->Insert(m_events->RemoveNext());
    }
    // the calendar's events join the new scheduler's, which may be no heap
    while (!m_calendar.Empty())
    {
        FeroceEvent* fe = m_calendar.PopFront();
        scheduler->Insert(Listed(fe));
    }
    m_events = scheduler;
    m_heap = dynamic_cast<FeroceHeapScheduler*>(PeekPointer(scheduler));
    m_calendarLimit = 0;
    if (m_heap)
    {
        uint64_t horizon = std::min(uint64_t(m_heap->GetNearHorizon().GetTimeStep()),
                                    uint64_t(NanoSeconds(kCalendarSpanNs).GetTimeStep()));
        m_calendar.Fit(horizon);
        m_calendarLimit = horizon + 1;
        NoteHeapFront();
    }
    // the Simulator calls this right after creating its implementation
    s_running = this;
}

uint32_t
FeroceSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
FeroceSimulatorImpl::IsFinished() const
{
    return (m_calendar.Empty() && m_events->IsEmpty()) || m_stop;
}

void
FeroceSimulatorImpl::NoteHeapFront()
{
    m_heapTs = ~uint64_t(0);
    m_heapUid = ~uint32_t(0);
    if (!m_heap->IsEmpty())
    {
        Scheduler::Event front = m_heap->PeekNext();
        m_heapTs = front.key.m_ts;
        m_heapUid = front.key.m_uid;
    }
}

inline void
FeroceSimulatorImpl::ProcessOneEvent()
{
    if (CalendarFirst())
    {
        // the fabric's own event, due before the heap's front (nearly every event)
        FeroceEvent* fe = m_calendar.PopFront();
        m_unscheduledEvents--;
        m_eventCount++;
        m_currentTs = fe->ts;
        m_currentContext = fe->context;
        m_currentUid = fe->uid;
        // a fabric of that many events in flight is one whose state leaves the cache between
        // visits
        FetchAhead(m_calendar.Size() > kFetchAheadMin ? m_calendar.Front() : nullptr);
        fe->run(fe);
    }
    else
    {
        ProcessListed();
    }
    if (m_threadEventsPending.load(std::memory_order_acquire))
    {
        TakeThreadEvents();
    }
}

void
FeroceSimulatorImpl::ProcessListed()
{
    Scheduler::Event next = m_heap ? m_heap->Pop() : m_events->RemoveNext();
    NS_ASSERT(next.key.m_ts >= m_currentTs);
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = next.key.m_ts;
    m_currentContext = next.key.m_context;
    m_currentUid = next.key.m_uid;
    if (m_heap)
    {
        NoteHeapFront();
    }
    if (FeroceEvent* fe = Untag(next.impl))
    {
        fe->run(fe); // no reference to drop: its owner keeps its memory
    }
    else
    {
        next.impl->Invoke();
        next.impl->Unref();
    }
}

void
FeroceSimulatorImpl::TakeThreadEvents()
{
    std::deque<ThreadEvent> events;
    {
        std::lock_guard<std::mutex> lock(m_threadEventsMutex);
        events.swap(m_threadEvents);
        m_threadEventsPending.store(false, std::memory_order_release);
    }
    // their time counts from the moment they are taken, as in DefaultSimulatorImpl
    for (const ThreadEvent& e : events)
    {
        Insert(e.delayStep, e.context, e.event);
    }
}

void
FeroceSimulatorImpl::Run()
{
    m_mainThread = std::this_thread::get_id();
    TakeThreadEvents();
    m_stop = false;
    // with the heap, its front noted says whether it is empty
    while (!(m_calendar.Empty() && (m_heap ? m_heapTs == ~uint64_t(0) : m_events->IsEmpty())) &&
           !m_stop)
    {
        ProcessOneEvent();
    }
    NS_ASSERT(!m_calendar.Empty() || !m_events->IsEmpty() || m_unscheduledEvents == 0);
}

void
FeroceSimulatorImpl::Stop()
{
    m_stop = true;
}

FeroceSimulatorImpl::StopResult
FeroceSimulatorImpl::Stop(const Time& delay)
{
    // a Simulator::Stop event through Simulator::Schedule, as ns-3's implementations do
    return static_cast<StopResult>(
        Simulator::Schedule(delay, static_cast<void (*)()>(&Simulator::Stop)));
}

EventId
FeroceSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThread == std::this_thread::get_id(),
                  "Simulator::Schedule from a thread other than the simulation's");
    NS_ASSERT_MSG(delay.IsPositive(), "FeroceSimulatorImpl::Schedule: negative delay");
    uint64_t ts = m_currentTs + uint64_t(delay.GetTimeStep());
    uint32_t uid = Insert(uint64_t(delay.GetTimeStep()), m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
FeroceSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (m_mainThread == std::this_thread::get_id())
    {
        Insert(uint64_t(delay.GetTimeStep()), context, event);
        return;
    }
    std::lock_guard<std::mutex> lock(m_threadEventsMutex);
    m_threadEvents.push_back({context, uint64_t(delay.GetTimeStep()), event});
    m_threadEventsPending.store(true, std::memory_order_release);
}

EventId
FeroceSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
FeroceSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThread == std::this_thread::get_id(),
                  "Simulator::ScheduleDestroy from a thread other than the simulation's");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, Simulator::NO_CONTEXT, kDestroyUid);
    m_destroyEvents.push_back(id);
    m_uid++; // a destroy event takes a uid too, so later events number as in ns-3
    return id;
}

Time
FeroceSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FeroceSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_currentTs);
}

void
FeroceSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == kDestroyUid)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event ev;
    ev.impl = id.PeekEventImpl();
    ev.key.m_ts = id.GetTs();
    ev.key.m_context = id.GetContext();
    ev.key.m_uid = id.GetUid();
    if (m_heap)
    {
        m_heap->Remove(ev);
        NoteHeapFront();
    }
    else
    {
        m_events->Remove(ev);
    }
    ev.impl->Cancel();
    ev.impl->Unref(); // the list's reference
    m_unscheduledEvents--;
}

void
FeroceSimulatorImpl::RemoveEvent(FeroceEvent* event)
{
    NS_ASSERT_MSG(FeroceCalendar::Earlier(m_currentTs, m_currentUid, event->ts, event->uid),
                  "FeroceSimulatorImpl::RemoveEvent: the event has run");
    // in the calendar, or else (due beyond its horizon) in the scheduler
    if (!m_calendar.Remove(event))
    {
        if (m_heap)
        {
            m_heap->Remove(Listed(event));
            NoteHeapFront();
        }
        else
        {
            m_events->Remove(Listed(event));
        }
    }
    if (event->drop)
    {
        event->drop(event);
    }
    m_unscheduledEvents--;
}

void
FeroceSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FeroceSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* impl = id.PeekEventImpl();
    if (id.GetUid() == kDestroyUid)
    {
        if (!impl || impl->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return !impl || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) || impl->IsCancelled();
}

Time
FeroceSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FeroceSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FeroceSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
