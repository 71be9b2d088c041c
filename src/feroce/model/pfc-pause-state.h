/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_PAUSE_STATE_H
#define PFC_PAUSE_STATE_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief Which of the eight priorities a received PFC frame paused, until
 * when, and how long each has been paused in all: what a NIC or a switch
 * port keeps to honour 802.1Qbb.
 */
class PfcPauseState
{
  public:
    /// A PFC frame now pauses prio for `duration` (0: resumes it).
    void Apply(uint8_t prio, Time duration);
    bool IsPaused(uint8_t prio) const;
    Time GetPausedUntil(uint8_t prio) const;
    /// Paused time so far, the running pause included.
    Time GetPausedTime(uint8_t prio) const;

  private:
    Time m_until[8];
    Time m_start[8];
    Time m_total[8];
};

} // namespace ns3

#endif /* PFC_PAUSE_STATE_H */
