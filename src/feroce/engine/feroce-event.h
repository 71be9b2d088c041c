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
 * FeroceEvent is two function pointers (run, drop) in memory its owner
 * keeps (a device's one pending wake-up lives in the device, a frame's
 * arrival in a free list of the channel's), scheduled by FeroceSim in the
 * same event list, with the same uid, time and context as an EventImpl
 * would have: the order of events, and so every result, is the same.
 * FeroceSimulatorImpl keeps one due within its horizon in its FeroceCalendar,
 * linked through the event itself, and a later one in its event list as a
 * tagged pointer (FeroceSimulatorImpl::Tag); under another SimulatorImpl
 * FeroceSim wraps it in a FeroceEventImpl instead, with the same effect.
 */
struct FeroceEvent
{
    // an event's turn reads its first 64 bytes (one cache line where the event is line-aligned,
    // as a frame's arrival and a device's wake-up are): the function, what to fetch ahead, the
    // key and the link; `drop` only where it is dropped or removed

    /// Run the event; it may reuse or free its memory (it is no longer in the list).
    void (*run)(FeroceEvent* self);
    /// What the event reads first, fetched ahead (prefetched) while the event before it runs,
    /// null for nothing: a device's first five cache lines (ahead[0]), the line of its
    /// subclass's first members (ahead[1]), a frame's 128 bytes (ahead[2]), the first four lines
    /// of what the device belongs to (ahead[3]: a switch port's switch).
    const void* ahead[4]{};
    /// While it waits (set by FeroceSimulatorImpl): its time step, uid and context, as an
    /// EventImpl's key (uid 0: FeroceSim scheduled it under another SimulatorImpl); the next
    /// event of its FeroceCalendar bucket.
    uint64_t ts{0};
    uint32_t uid{0};
    uint32_t context{0};
    FeroceEvent* next{nullptr};
    /// Release what it holds without running it (the event list is destroyed with the event
    /// still in it); null when it holds nothing.
    void (*drop)(FeroceEvent* self);
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
