/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_RING_H
#define FEROCE_RING_H

#include "feroce-arena.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A FIFO of T in one growable circular array: push at the back, pop at the front,
 * index from the front.
 *
 * It replaces std::deque in the queue pair, which allocates about 576 bytes (its map and a
 * first 512-byte node) even when empty: a camera holds 10^5 queue pairs, most of whose
 * receive queues stay empty.  An empty FeroceRing allocates nothing; it grows by doubling
 * (from 4 entries) and never shrinks.  Its array comes from the FeroceArena (cache-line
 * aligned, on huge pages where the system gives them), as the queue pair itself does.
 * T must be default-constructible and copyable; an entry popped is reset to T() (a reference
 * it held, as a frame's, is released then, not when its slot is reused).
 */
template <typename T>
class FeroceRing
{
  public:
    FeroceRing() = default;

    ~FeroceRing()
    {
        Release(m_buf, m_capacity);
    }

    FeroceRing(const FeroceRing&) = delete;
    FeroceRing& operator=(const FeroceRing&) = delete;

    /// Moved: o is left empty (as a vector of rings reallocating needs).
    FeroceRing(FeroceRing&& o) noexcept
    {
        swap(o);
    }

    FeroceRing& operator=(FeroceRing&& o) noexcept
    {
        swap(o);
        return *this;
    }

    bool empty() const
    {
        return m_size == 0;
    }

    std::size_t size() const
    {
        return m_size;
    }

    T& front()
    {
        return m_buf[m_head];
    }

    const T& front() const
    {
        return m_buf[m_head];
    }

    /// The i-th entry from the front (i < size()).
    T& operator[](std::size_t i)
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    const T& operator[](std::size_t i) const
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    void push_back(const T& v)
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        m_buf[(m_head + m_size) & (m_capacity - 1)] = v;
        m_size++;
    }

    void pop_front()
    {
        if constexpr (!std::is_trivially_destructible<T>::value)
        {
            // destroyed and made anew in place: cheaper than assigning a T() (no temporary)
            m_buf[m_head].~T();
            new (&m_buf[m_head]) T();
        }
        m_head = (m_head + 1) & (m_capacity - 1);
        m_size--;
    }

    /// Pop every entry (the array stays).
    void clear()
    {
        while (m_size > 0)
        {
            pop_front();
        }
    }

    void swap(FeroceRing& o)
    {
        std::swap(m_buf, o.m_buf);
        std::swap(m_capacity, o.m_capacity);
        std::swap(m_head, o.m_head);
        std::swap(m_size, o.m_size);
    }

  private:
    void Grow()
    {
        uint32_t capacity = m_capacity == 0 ? 4 : 2 * m_capacity;
        T* buf = static_cast<T*>(FeroceArena::Allocate(capacity * sizeof(T)));
        for (uint32_t i = 0; i < capacity; i++)
        {
            new (buf + i) T();
        }
        for (uint32_t i = 0; i < m_size; i++)
        {
            buf[i] = (*this)[i];
        }
        Release(m_buf, m_capacity);
        m_buf = buf;
        m_capacity = capacity;
        m_head = 0;
    }

    static void Release(T* buf, uint32_t capacity)
    {
        if (buf == nullptr)
        {
            return;
        }
        for (uint32_t i = 0; i < capacity; i++)
        {
            buf[i].~T();
        }
        FeroceArena::Free(buf, capacity * sizeof(T));
    }

    T* m_buf{nullptr};
    uint32_t m_capacity{0}; ///< a power of two, or 0 before the first push
    uint32_t m_head{0};
    uint32_t m_size{0};
};

} // namespace ns3

#endif /* FEROCE_RING_H */
