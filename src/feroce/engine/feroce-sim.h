/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SIM_H
#define FEROCE_SIM_H

#include "feroce-simulator-impl.h"

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief What FeroceSim needs, beside the event, to remove a FeroceEvent:
 * nothing under FeroceSimulatorImpl (the event carries its key), the
 * EventId of its wrapper under another SimulatorImpl.
 */
struct FeroceEventId
{
    EventId fallback; ///< scheduled under another SimulatorImpl (the event's uid is 0)
};

/**
 * \ingroup feroce
 * \brief The clock and event list for feroce's devices: straight to a running
 * FeroceSimulatorImpl, else through ns3::Simulator (same results).
 */
class FeroceSim
{
  public:
    static Time Now()
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        return s ? TimeStep(s->NowStep()) : Simulator::Now();
    }

    /// Now, in time steps: the per-frame paths keep their times as steps (each ns3::Time made
    /// and destroyed checks ns-3's list of marked times, a global of another library, twice).
    static int64_t NowStep()
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        return s ? int64_t(s->NowStep()) : Simulator::Now().GetTimeStep();
    }

    /// Schedule an event that takes the current context (Simulator::Schedule).
    static EventId Schedule(const Time& delay, EventImpl* event)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        return s ? s->Schedule(delay, event)
                 : Simulator::Schedule(delay, Ptr<EventImpl>(event, false));
    }

    /// Schedule an event in another node's context, nothing to cancel it by.
    static void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        if (!s)
        {
            Simulator::ScheduleWithContext(context, delay, event);
            return;
        }
        s->Insert(uint64_t(delay.GetTimeStep()), context, event);
    }

    /// Schedule a FeroceEvent `steps` time steps from now in the current context (as Schedule an
    /// EventImpl: the same uid, time and context), to be removed by RemoveEvent (with id, which
    /// only another SimulatorImpl fills). In steps, not a Time: ns-3 constructs and destroys a
    /// Time with a test each.
    static void ScheduleSteps(uint64_t steps, FeroceEvent* event, FeroceEventId& id)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        if (!s)
        {
            event->uid = 0;
            id.fallback = Simulator::Schedule(TimeStep(steps),
                                              Ptr<EventImpl>(new FeroceEventImpl(event), false));
            return;
        }
        s->InsertEvent(steps, s->GetContext(), event);
    }

    /// Schedule a FeroceEvent `steps` time steps from now in another node's context, nothing to
    /// remove it by.
    static void ScheduleStepsWithContext(uint32_t context, uint64_t steps, FeroceEvent* event)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        if (!s)
        {
            Simulator::ScheduleWithContext(context, TimeStep(steps), new FeroceEventImpl(event));
            return;
        }
        s->InsertEvent(steps, context, event);
    }

    /// Remove a FeroceEvent that ScheduleSteps scheduled (with this id), before it runs.
    static void RemoveEvent(const FeroceEventId& id, FeroceEvent* event)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        if (event->uid == 0)
        {
            Simulator::Remove(id.fallback);
        }
        else if (s)
        {
            s->RemoveEvent(event);
        }
    }

    static bool IsExpired(const EventId& id)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        return s ? s->IsExpired(id) : Simulator::IsExpired(id);
    }

    /// Cancel an event, as EventId::Cancel: under FeroceSimulatorImpl its EventImpl is marked
    /// cancelled without asking first whether it has run (marking one that has run, or is
    /// running, changes nothing: only its Invoke reads the mark).
    static void Cancel(const EventId& id)
    {
        if (!FeroceSimulatorImpl::Running())
        {
            Simulator::Cancel(id);
        }
        else if (EventImpl* impl = id.PeekEventImpl())
        {
            impl->Cancel();
        }
    }

    static void Remove(const EventId& id)
    {
        FeroceSimulatorImpl* s = FeroceSimulatorImpl::Running();
        if (s)
        {
            s->Remove(id);
        }
        else
        {
            Simulator::Remove(id);
        }
    }
};

} // namespace ns3

#endif /* FEROCE_SIM_H */
