/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_POOLED_EVENT_H
#define FEROCE_POOLED_EVENT_H

#include "ns3/event-impl.h"

#include <cstddef>
#include <new>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief An event whose memory comes from a free list of its own type.
 *
 * ns-3 allocates each event (MakeEvent) on the heap and frees it once run;
 * the fabric's events (a frame's arrival, a device's wake-up) are a few per
 * frame, so T derives from FerocePooledEvent<T> and reuses the memory of the
 * events of its type already run.  The list holds at most the most events
 * of type T ever pending at once; nothing is freed to the heap while a
 * simulation runs.  (ns-3 deletes an event through EventImpl's virtual
 * destructor, which finds T's operator delete, inherited from here.)
 */
template <typename T>
class FerocePooledEvent : public EventImpl
{
  public:
    static void* operator new(std::size_t size)
    {
        std::vector<void*>& free = FreeList();
        if (size == sizeof(T) && !free.empty())
        {
            void* p = free.back();
            free.pop_back();
            return p;
        }
        return ::operator new(size);
    }

    static void operator delete(void* p, std::size_t size)
    {
        if (size == sizeof(T))
        {
            FreeList().push_back(p);
            return;
        }
        ::operator delete(p);
    }

  private:
    static std::vector<void*>& FreeList()
    {
        // never destroyed: an event may still be freed while statics are destroyed at exit
        static std::vector<void*>* free = new std::vector<void*>;
        return *free;
    }
};

} // namespace ns3

#endif /* FEROCE_POOLED_EVENT_H */
