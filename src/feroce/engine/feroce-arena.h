/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_ARENA_H
#define FEROCE_ARENA_H

#include <cstddef>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief Memory for the many small, long-lived objects of a large fabric (queue pairs and
 * their rings): blocks of whole 64-byte cache lines, cut from 2 MiB regions that Linux may back
 * with transparent huge pages.
 *
 * A 2000-board camera holds 2 x 10^5 queue pairs, and the packets visit them in turn: spread
 * over the malloc heap on 4 KiB pages, nearly every visit misses the TLB (a page walk, nested
 * on a virtual machine).  In 2 MiB pages (MADV_HUGEPAGE; the kernel's "madvise" or "always"
 * mode) a few hundred TLB entries cover all of them.  Blocks are cache-line aligned, so an
 * object's fields that are used together share the fewest lines.
 *
 * A freed block goes to the free list of its size and is reused; regions are never returned
 * to the system.  Blocks above 8 KiB come from the global operator new.  Thread-safe.
 */
class FeroceArena
{
  public:
    /// Bytes per line: every block is a multiple of it and aligned to it.
    static constexpr std::size_t kLine = 64;

    /// A block of at least `bytes` bytes, aligned to kLine; never null (throws std::bad_alloc).
    static void* Allocate(std::size_t bytes);
    /// Give back a block of Allocate(bytes), the same `bytes`; p may be null.
    static void Free(void* p, std::size_t bytes);
};

} // namespace ns3

#endif /* FEROCE_ARENA_H */
