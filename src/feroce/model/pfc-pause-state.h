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
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

class PfcHeader;

/**
 * \ingroup feroce
 * \brief Which of the eight priorities a received PFC frame paused, until
 * when, and how long each has been paused in all: what a NIC or a switch
 * port keeps to honour 802.1Qbb.  An 802.3x PAUSE (ApplyLink) pauses the
 * whole link, every priority, on a timer of its own.  When a pause ends by
 * itself, the resume callback runs (the owner's transmit attempt).
 */
class PfcPauseState
{
  public:
    static const uint8_t kLink = 8; ///< the index of the link-level pause in the tables

    PfcPauseState();
    void SetResumeCallback(Callback<void> resume);
    /// A PFC frame received now on a link of rateBps: pause (or resume) each priority it enables.
    void Apply(const PfcHeader& pfc, uint64_t rateBps);
    /// An 802.3x PAUSE of quanta received now on a link of rateBps: the whole link (0: resume).
    void ApplyLink(uint16_t quanta, uint64_t rateBps);

    /// An 802.3x PAUSE holds the whole link now.
    bool IsLinkPaused() const
    {
        return (m_maybePaused >> kLink & 1) && IsPausedNow(kLink);
    }

    /// Time 802.3x PAUSE frames have held the link, so far.
    Time GetLinkPausedTime() const;
    /// Cancel the pending resumes (owner disposed).
    void Cancel();

    bool IsPaused(uint8_t prio) const
    {
        // most calls find nothing paused: no clock read, no call
        return (m_maybePaused & (1u << prio | 1u << kLink)) && IsPausedNow(prio);
    }

    /// Bit p: priority p (bit kLink: the link) may be paused now; no other is (IsPaused).
    uint16_t MaybePaused() const
    {
        return m_maybePaused;
    }

    Time GetPausedUntil(uint8_t prio) const;
    /// Paused time so far, the running pause included.
    Time GetPausedTime(uint8_t prio) const;

  private:
    /// IsPaused, read on the clock (the priority or the link was paused and has not resumed).
    bool IsPausedNow(uint8_t prio) const;
    /// Pause prio (or kLink) for `duration` from now (0: resume), its resume timer included.
    void Apply(uint8_t prio, Time duration);
    /// The pause of prio ended by itself.
    void Resume(uint8_t prio);

    /// bit p: priority p (bit 8: the link) was paused and has not resumed (spares a clock read);
    /// read per frame sent, first: within the lines of a device fetched ahead
    uint16_t m_maybePaused;
    Callback<void> m_resume;
    EventId m_resumeEvent[9];
    Time m_until[9];
    Time m_start[9];
    Time m_total[9];
};

/**
 * \ingroup feroce
 * \brief The sending side of pause: which of a device's classes are in XOFF (a PAUSE sent
 * upstream, refreshed until the XON), since when, and the XOFF time so far.  What a switch port
 * keeps for its ingress classes and a NIC for its receive buffer (RxPfc).  Entries 0..7 are the
 * priorities (PFC), kLink the 802.3x PAUSE of the whole link.  The owner decides and sends the
 * frames; this keeps the timing.
 */
class PauseSender
{
  public:
    static const uint8_t kLink = PfcPauseState::kLink;

    /// Class i enters XOFF now.
    void Xoff(uint8_t i);
    /// Class i leaves XOFF now; its refresh is cancelled.
    void Xon(uint8_t i);

    bool IsXoff(uint8_t i) const
    {
        return m_class[i].xoff;
    }

    /// XOFF time of class i so far, the running period included.
    Time GetXoffTime(uint8_t i) const;

    /// The PAUSE of class i is sent again after `after` ((obj->*fn)(i); the last one cancelled).
    template <typename MEM, typename OBJ>
    void ScheduleRefresh(uint8_t i, Time after, MEM fn, OBJ obj)
    {
        FeroceSim::Cancel(m_class[i].refresh);
        m_class[i].refresh = FeroceSim::Schedule(after, MakeEvent(fn, obj, i));
    }

    /// Cancel the pending refreshes (owner disposed).
    void Cancel();

  private:
    struct Class
    {
        bool xoff{false};
        Time since;
        Time total; ///< of the XOFF periods that ended
        EventId refresh;
    };

    Class m_class[9];
};

} // namespace ns3

#endif /* PFC_PAUSE_STATE_H */
