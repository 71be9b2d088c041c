/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-arena.h"

#include <cstdint>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ns3
{

namespace
{

constexpr std::size_t kRegion = std::size_t(2) << 20; ///< one huge page
constexpr std::size_t kLargest = 8192;                ///< larger blocks: operator new

struct FreeBlock
{
    FreeBlock* next;
};

struct Arena
{
    std::mutex lock;
    FreeBlock* free[kLargest / FeroceArena::kLine + 1]{}; ///< by size in lines
    char* next{nullptr};                                  ///< the current region's unused part
    char* end{nullptr};
};

Arena&
TheArena()
{
    // never destroyed: blocks may be freed by static destructors after main
    static Arena* arena = new Arena;
    return *arena;
}

/// A new region of kRegion bytes, aligned to kRegion where the system allows it.
char*
NewRegion()
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // map twice the size and keep the aligned middle, so that the region is one huge page
    void* m =
        mmap(nullptr, 2 * kRegion, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED)
    {
        auto start = reinterpret_cast<std::uintptr_t>(m);
        std::uintptr_t aligned = (start + kRegion - 1) & ~(kRegion - 1);
        if (aligned > start)
        {
            munmap(m, aligned - start);
        }
        std::uintptr_t tail = start + 2 * kRegion - (aligned + kRegion);
        if (tail > 0)
        {
            munmap(reinterpret_cast<void*>(aligned + kRegion), tail);
        }
        madvise(reinterpret_cast<void*>(aligned), kRegion, MADV_HUGEPAGE); // advice only
        return reinterpret_cast<char*>(aligned);
    }
#endif
    return static_cast<char*>(::operator new(kRegion, std::align_val_t(FeroceArena::kLine)));
}

} // namespace

void*
FeroceArena::Allocate(std::size_t bytes)
{
    std::size_t lines = bytes == 0 ? 1 : (bytes + kLine - 1) / kLine;
    if (lines * kLine > kLargest)
    {
        return ::operator new(lines* kLine, std::align_val_t(kLine));
    }
    Arena& a = TheArena();
    std::lock_guard<std::mutex> guard(a.lock);
    if (FreeBlock* b = a.free[lines])
    {
        a.free[lines] = b->next;
        return b;
    }
    std::size_t size = lines * kLine;
    if (a.next == nullptr || std::size_t(a.end - a.next) < size)
    {
        a.next = NewRegion(); // the rest of the old region stays unused
        a.end = a.next + kRegion;
    }
    void* p = a.next;
    a.next += size;
    return p;
}

void
FeroceArena::Free(void* p, std::size_t bytes)
{
    if (p == nullptr)
    {
        return;
    }
    std::size_t lines = bytes == 0 ? 1 : (bytes + kLine - 1) / kLine;
    if (lines * kLine > kLargest)
    {
        ::operator delete(p, std::align_val_t(kLine));
        return;
    }
    Arena& a = TheArena();
    std::lock_guard<std::mutex> guard(a.lock);
    auto* b = static_cast<FreeBlock*>(p);
    b->next = a.free[lines];
    a.free[lines] = b;
}

} // namespace ns3
