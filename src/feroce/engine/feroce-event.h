/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_EVENT_H
#define FEROCE_EVENT_H

#include "feroce-pooled-event.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief An event of the fabric's own (a frame's arrival, a device's wake-up),
 * run by FeroceSimulatorImpl without an EventImpl.
 *
 * An ns-3 event is an EventImpl: constructed and destroyed in the core
 * library (each testing whether logging is on), reference counted, invoked
 * through two virtual calls and freed through a virtual destructor.  A
 * FeroceEvent is two function pointers at the head of memory its owner
 * keeps (a device's one pending wake-up lives in the device, a frame's
 * arrival in a free list of the channel's), scheduled by FeroceSim in the
 * same event list, with the same uid, time and context as an EventImpl
 * would have: the order of events, and so every result, is the same.
 * FeroceSimulatorImpl keeps it in its event list as a tagged pointer
 * (FeroceSimulatorImpl::Tag); under another SimulatorImpl FeroceSim wraps it
 * in a FeroceEventImpl instead, with the same effect.
 */
struct FeroceEvent
{
    /// Run the event; it may reuse or free its memory (it is no longer in the list).
    void (*run)(FeroceEvent* self);
    /// Release what it holds without running it (the event list is destroyed with the event
    /// still in it); null when it holds nothing.
    void (*drop)(FeroceEvent* self);
};

/**
 * \ingroup feroce
 * \brief A FeroceEvent of a lane: one of a series a source schedules in the
 * order they are due (a link's arrivals in one direction).
 *
 * Only a lane's first pending event waits in the event list's heap; the
 * others wait behind it, each with the time, uid and context it was given
 * when scheduled (FeroceSim::ScheduleInLane), kept in the event before it.  A lane is in (time,
 * uid) order, so its first event is its earliest, and events leave in exactly the order they would
 * as separate events; taking the first puts the next one in its place in the heap (one sift instead
 * of a pop and a push).
 */
struct FeroceLaneEvent : FeroceEvent
{
    FeroceLaneEvent* laneNext; ///< the next event of its lane (the owner's free list after)
    // the next event's key, kept here: taking this event (whose memory it then runs with)
    // puts the next one in the heap without reading the next one's memory
    uint64_t nextTs;
    uint32_t nextUid;
    uint32_t nextContext;
};

/**
 * \ingroup feroce
 * \brief The end of a lane, kept by its source: the last event scheduled in
 * it.  An event due before that one, or scheduled after that one ran, starts
 * a new lane (the order stays exact).
 */
struct FeroceLane
{
    FeroceLaneEvent* tail{nullptr}; ///< read only while it is pending (ts, uid)
    uint64_t ts{0};
    uint32_t uid{0};
    uint32_t list{0}; ///< the event list it waits in (FeroceHeapScheduler's serial number)
};

/// A FeroceEvent as an ns-3 EventImpl, for a SimulatorImpl other than FeroceSimulatorImpl.
class FeroceEventImpl : public FerocePooledEvent<FeroceEventImpl>
{
  public:
    explicit FeroceEventImpl(FeroceEvent* event)
        : m_event(event)
    {
    }

    ~FeroceEventImpl() override
    {
        if (m_event && m_event->drop)
        {
            m_event->drop(m_event); // removed, or destroyed with the event list
        }
    }

  protected:
    void Notify() override
    {
        FeroceEvent* e = m_event;
        m_event = nullptr;
        e->run(e);
    }

  private:
    FeroceEvent* m_event; ///< null once run
};

} // namespace ns3

#endif /* FEROCE_EVENT_H */
