/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EVENT_BUILDING_H
#define EVENT_BUILDING_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup feroce
 * Why a camera event was not built (src/feroce/doc/eventbuilding.md): one cause per event, the
 * first that happened to any of its fragments.
 */
enum EventLossCause
{
    EVENT_LOST_BOARD_BUFFER = 0,  ///< a board had no room for its fragment (or its wait for a
                                  ///< destination) in its on-board buffer
    EVENT_LOST_RECEIVER_DEAD,     ///< its receiver (or the receiver's link) was down while the
                                  ///< event was on its way there or held there
    EVENT_LOST_RETRIES_EXHAUSTED, ///< a board's queue pair gave up (error state) with the
                                  ///< receiver up, or was not yet re-established
    EVENT_LOST_PARTIAL_TIMEOUT,   ///< the receiver closed it incomplete after its EventTimeout
    EVENT_LOSS_CAUSES
};

/// "board_buffer", "receiver_dead", "retries_exhausted", "partial_timeout": the metric suffixes.
inline const char*
EventLossCauseName(EventLossCause cause)
{
    switch (cause)
    {
    case EVENT_LOST_BOARD_BUFFER:
        return "board_buffer";
    case EVENT_LOST_RECEIVER_DEAD:
        return "receiver_dead";
    case EVENT_LOST_RETRIES_EXHAUSTED:
        return "retries_exhausted";
    case EVENT_LOST_PARTIAL_TIMEOUT:
        return "partial_timeout";
    default:
        return "unknown";
    }
}

/**
 * The immediate data of an assignment message (a SEND from the assigner to every board): the
 * first event of the block in the upper 24 bits, the receiver's index (0..255) in the lower 8;
 * the message's length is the number of events in the block.
 */
inline uint32_t
EncodeAssignment(uint64_t firstEvent, uint32_t receiver)
{
    return uint32_t((firstEvent & 0xffffff) << 8 | (receiver & 0xff));
}

/// The event number an assignment's 24 bits name, the nearest to `near` (events wrap at 2^24).
inline uint64_t
DecodeAssignmentEvent(uint32_t imm, uint64_t near)
{
    uint64_t low = imm >> 8;
    uint64_t e = (near & ~uint64_t(0xffffff)) | low;
    if (e + 0x800000 < near)
    {
        e += 0x1000000;
    }
    else if (e > near + 0x800000 && e >= 0x1000000)
    {
        e -= 0x1000000;
    }
    return e;
}

} // namespace ns3

#endif /* EVENT_BUILDING_H */
