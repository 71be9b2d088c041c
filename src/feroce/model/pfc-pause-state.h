/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_PAUSE_STATE_H
#define PFC_PAUSE_STATE_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/feroce-sim.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

class PfcHeader;

/**
 * \ingroup feroce
 * \brief Which of the eight priorities a received PFC frame paused, until
 * when, and how long each has been paused in all: what a NIC or a switch
 * port keeps to honour 802.1Qbb.  When a pause ends by itself, the resume
 * callback runs (the owner's transmit attempt).
 */
class PfcPauseState
{
  public:
    PfcPauseState();
    void SetResumeCallback(Callback<void> resume);
    /// A PFC frame received now on a link of rateBps: pause (or resume) each priority it enables.
    void Apply(const PfcHeader& pfc, uint64_t rateBps);
    /// Cancel the pending resumes (owner disposed).
    void Cancel();

    bool IsPaused(uint8_t prio) const
    {
        return (m_maybePaused >> prio & 1) && FeroceSim::Now() < m_until[prio];
    }

    Time GetPausedUntil(uint8_t prio) const;
    /// Paused time so far, the running pause included.
    Time GetPausedTime(uint8_t prio) const;

  private:
    /// Pause prio for `duration` from now (0: resume).
    void Apply(uint8_t prio, Time duration);
    /// The pause of prio ended by itself.
    void Resume(uint8_t prio);

    Callback<void> m_resume;
    uint8_t
        m_maybePaused; ///< bit p: priority p was paused and has not resumed (spares a clock read)
    EventId m_resumeEvent[8];
    Time m_until[8];
    Time m_start[8];
    Time m_total[8];
};

} // namespace ns3

#endif /* PFC_PAUSE_STATE_H */
