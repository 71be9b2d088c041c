/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(FeroceHeapScheduler);

namespace
{
/// ns-3's order (Scheduler::EventKey's operator<): time, then uid.
inline bool
Before(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return a.key.m_ts < b.key.m_ts || (a.key.m_ts == b.key.m_ts && a.key.m_uid < b.key.m_uid);
}

const std::size_t kArity = 4;
} // namespace

TypeId
FeroceHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FeroceHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Feroce")
                            .AddConstructor<FeroceHeapScheduler>();
    return tid;
}

FeroceHeapScheduler::FeroceHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

FeroceHeapScheduler::~FeroceHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceHeapScheduler::Insert(const Event& ev)
{
    // sift up: move parents down into the hole until ev fits
    std::size_t i = m_heap.size();
    m_heap.emplace_back();
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (!Before(ev, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

bool
FeroceHeapScheduler::IsEmpty() const
{
    return m_heap.empty(); // a removed entry never stays on top
}

Scheduler::Event
FeroceHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
FeroceHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    Event next = m_heap.front();
    PopTop();
    DropRemovedTop();
    return next;
}

void
FeroceHeapScheduler::Remove(const Event& ev)
{
    NS_ASSERT(!m_heap.empty());
    if (m_heap.front().key.m_uid == ev.key.m_uid)
    {
        PopTop();
        DropRemovedTop();
        return;
    }
    m_removed.insert(ev.key.m_uid);
}

void
FeroceHeapScheduler::PopTop()
{
    // sift the last entry down from the root
    Event last = m_heap.back();
    m_heap.pop_back();
    std::size_t n = m_heap.size();
    if (n == 0)
    {
        return;
    }
    std::size_t i = 0;
    for (;;)
    {
        std::size_t first = i * kArity + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t end = first + kArity < n ? first + kArity : n;
        std::size_t best = first;
        for (std::size_t c = first + 1; c < end; c++)
        {
            if (Before(m_heap[c], m_heap[best]))
            {
                best = c;
            }
        }
        if (!Before(m_heap[best], last))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = last;
}

void
FeroceHeapScheduler::DropRemovedTop()
{
    while (!m_removed.empty() && !m_heap.empty())
    {
        auto it = m_removed.find(m_heap.front().key.m_uid);
        if (it == m_removed.end())
        {
            return;
        }
        m_removed.erase(it);
        PopTop();
    }
}

} // namespace ns3
