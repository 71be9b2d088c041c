/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_RING_H
#define FEROCE_RING_H

#include <cstddef>
#include <cstdint>
#include <memory>
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
 * (from 4 entries) and never shrinks.  T must be default-constructible and copyable.
 */
template <typename T>
class FeroceRing
{
  public:
    FeroceRing() = default;

    FeroceRing(const FeroceRing&) = delete;
    FeroceRing& operator=(const FeroceRing&) = delete;

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
        m_head = (m_head + 1) & (m_capacity - 1);
        m_size--;
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
        std::size_t capacity = m_capacity == 0 ? 4 : 2 * m_capacity;
        std::unique_ptr<T[]> buf(new T[capacity]);
        for (std::size_t i = 0; i < m_size; i++)
        {
            buf[i] = (*this)[i];
        }
        m_buf = std::move(buf);
        m_capacity = capacity;
        m_head = 0;
    }

    std::unique_ptr<T[]> m_buf;
    uint32_t m_capacity{0}; ///< a power of two, or 0 before the first push
    uint32_t m_head{0};
    std::size_t m_size{0};
};

} // namespace ns3

#endif /* FEROCE_RING_H */
