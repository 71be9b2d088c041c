/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EVENT_BUILDING_H
#define EVENT_BUILDING_H

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

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
    EVENT_LOST_DISAGREEMENT,      ///< the boards' rule named different receivers for it (a late
                                  ///< announcement, Assignment board-rule): its fragments split
                                  ///< and each part closed incomplete
    EVENT_LOSS_CAUSES
};

/// "board_buffer", "receiver_dead", "retries_exhausted", "partial_timeout", "disagreement": the
/// metric suffixes.
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
    case EVENT_LOST_DISAGREEMENT:
        return "disagreement";
    default:
        return "unknown";
    }
}

/**
 * The number whose lower `bits` bits are `low`, the nearest to `near` (serial-number arithmetic:
 * right while the two are less than half the range apart).
 */
inline uint64_t
UnwrapNear(uint64_t low, unsigned bits, uint64_t near)
{
    uint64_t range = uint64_t(1) << bits;
    uint64_t e = (near & ~(range - 1)) | low;
    if (e + range / 2 < near)
    {
        e += range;
    }
    else if (e > near + range / 2 && e >= range)
    {
        e -= range;
    }
    return e;
}

/**
 * The time to the camera's next trigger: TriggerInterval, or an exponential gap of that mean
 * (Poisson) drawn from `gaps` (the boards', the assigner's and the receivers' draw the same
 * stream, so they trigger together).
 */
inline Time
NextTriggerGap(Time interval, bool poisson, Ptr<ExponentialRandomVariable> gaps)
{
    if (!poisson)
    {
        return interval;
    }
    return NanoSeconds(int64_t(gaps->GetValue(double(interval.GetNanoSeconds()), 0)));
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
    return UnwrapNear(imm >> 8, 24, near);
}

/**
 * The immediate data of a receiver's announcement to a board (Assignment board-rule): the event
 * it is valid from in the upper 16 bits; bit 15 set on the first of an epoch (the receiver
 * started, came back, or has new connections: the boards' account of it starts over); in the
 * lower 15 bits the cumulative event slots the receiver has granted in the epoch.  Both numbers
 * wrap: a board decodes the event nearest to its own next event (DecodeAnnouncementEvent) and
 * the count forward from the last it saw (DecodeAnnouncementGranted).
 */
inline uint32_t
EncodeAnnouncement(uint64_t validFrom, uint32_t granted, bool fresh)
{
    return uint32_t((validFrom & 0xffff) << 16 | (fresh ? 0x8000u : 0u) | (granted & 0x7fff));
}

/// The first of an epoch: the count is the receiver's free slots then (less than 2^15).
inline bool
IsFreshAnnouncement(uint32_t imm)
{
    return imm & 0x8000;
}

/// The event an announcement's upper 16 bits name, the nearest to `near`.
inline uint64_t
DecodeAnnouncementEvent(uint32_t imm, uint64_t near)
{
    return UnwrapNear(imm >> 16, 16, near);
}

/// The cumulative count an announcement names: its 15 bits if fresh, else the first count at
/// or after `last` with those low bits.
inline uint32_t
DecodeAnnouncementGranted(uint32_t imm, uint32_t last)
{
    return IsFreshAnnouncement(imm) ? (imm & 0x7fff) : last + ((imm - last) & 0x7fff);
}

} // namespace ns3

#endif /* EVENT_BUILDING_H */
