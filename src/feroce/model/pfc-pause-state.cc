/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-pause-state.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
PfcPauseState::Apply(uint8_t prio, Time duration)
{
    Time now = Simulator::Now();
    // close the running (or finished) pause, then a new one starts now
    if (m_until[prio] > m_start[prio])
    {
        m_total[prio] += std::min(now, m_until[prio]) - m_start[prio];
    }
    m_start[prio] = now;
    m_until[prio] = now + duration;
}

bool
PfcPauseState::IsPaused(uint8_t prio) const
{
    return Simulator::Now() < m_until[prio];
}

Time
PfcPauseState::GetPausedUntil(uint8_t prio) const
{
    return m_until[prio];
}

Time
PfcPauseState::GetPausedTime(uint8_t prio) const
{
    Time end = std::min(Simulator::Now(), m_until[prio]);
    return end > m_start[prio] ? m_total[prio] + (end - m_start[prio]) : m_total[prio];
}

} // namespace ns3
