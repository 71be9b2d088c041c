/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-pause-state.h"

#include "pfc-header.h"

#include "ns3/feroce-sim.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

PfcPauseState::PfcPauseState()
    : m_maybePaused(0)
{
}

void
PfcPauseState::SetResumeCallback(Callback<void> resume)
{
    m_resume = resume;
}

void
PfcPauseState::Apply(const PfcHeader& pfc, uint64_t rateBps)
{
    for (uint8_t prio = 0; prio < 8; prio++)
    {
        if (!pfc.IsEnabled(prio))
        {
            continue;
        }
        Apply(prio, NanoSeconds(feroce_pfc_quanta_ns(pfc.GetQuanta(prio), rateBps)));
    }
}

void
PfcPauseState::ApplyLink(uint16_t quanta, uint64_t rateBps)
{
    Apply(kLink, NanoSeconds(feroce_pfc_quanta_ns(quanta, rateBps)));
}

Time
PfcPauseState::GetLinkPausedTime() const
{
    return GetPausedTime(kLink);
}

void
PfcPauseState::Resume(uint8_t prio)
{
    m_maybePaused &= uint16_t(~(1u << prio));
    m_resume();
}

void
PfcPauseState::Cancel()
{
    for (auto& e : m_resumeEvent)
    {
        e.Cancel();
    }
}

void
PfcPauseState::Apply(uint8_t prio, Time duration)
{
    Time now = FeroceSim::Now();
    // close the running (or finished) pause, then a new one starts now
    if (m_until[prio] > m_start[prio])
    {
        m_total[prio] += std::min(now, m_until[prio]) - m_start[prio];
    }
    m_start[prio] = now;
    m_until[prio] = now + duration;
    if (duration.IsStrictlyPositive())
    {
        m_maybePaused |= uint16_t(1u << prio);
    }
    else
    {
        m_maybePaused &= uint16_t(~(1u << prio));
    }
    FeroceSim::Cancel(m_resumeEvent[prio]);
    if (duration.IsStrictlyPositive() && !m_resume.IsNull())
    {
        m_resumeEvent[prio] =
            FeroceSim::Schedule(duration, MakeEvent(&PfcPauseState::Resume, this, prio));
    }
}

bool
PfcPauseState::IsPausedNow(uint8_t prio) const
{
    if ((m_maybePaused >> prio & 1) && FeroceSim::Now() < m_until[prio])
    {
        return true;
    }
    // an 802.3x PAUSE holds every priority
    return (m_maybePaused >> kLink & 1) && FeroceSim::Now() < m_until[kLink];
}

Time
PfcPauseState::GetPausedUntil(uint8_t prio) const
{
    return m_until[prio];
}

Time
PfcPauseState::GetPausedTime(uint8_t prio) const
{
    Time end = std::min(FeroceSim::Now(), m_until[prio]);
    return end > m_start[prio] ? m_total[prio] + (end - m_start[prio]) : m_total[prio];
}

void
PauseSender::Xoff(uint8_t i)
{
    m_class[i].xoff = true;
    m_class[i].since = FeroceSim::Now();
}

void
PauseSender::Xon(uint8_t i)
{
    Class& c = m_class[i];
    c.xoff = false;
    c.total += FeroceSim::Now() - c.since;
    FeroceSim::Cancel(c.refresh);
}

Time
PauseSender::GetXoffTime(uint8_t i) const
{
    const Class& c = m_class[i];
    return c.xoff ? c.total + (FeroceSim::Now() - c.since) : c.total;
}

void
PauseSender::Cancel()
{
    for (auto& c : m_class)
    {
        c.refresh.Cancel();
    }
}

} // namespace ns3
