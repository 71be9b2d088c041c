/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-recovery-log.h"

#include "ns3/roce-queue-pair.h"
#include "ns3/simulator.h"

namespace ns3
{

void
RoceRecoveryLog::Record(std::vector<Event>* events, uint32_t sender, const char* kind, uint32_t psn)
{
    events->push_back({Simulator::Now(), sender, kind, psn});
}

void
RoceRecoveryLog::Watch(Ptr<RoceQueuePair> qp, uint32_t sender)
{
    qp->TraceConnectWithoutContext("Nak",
                                   MakeBoundCallback(&RoceRecoveryLog::Record,
                                                     &m_events,
                                                     sender,
                                                     static_cast<const char*>("nak")));
    qp->TraceConnectWithoutContext("Timeout",
                                   MakeBoundCallback(&RoceRecoveryLog::Record,
                                                     &m_events,
                                                     sender,
                                                     static_cast<const char*>("timeout")));
}

void
RoceRecoveryLog::Write(std::ostream& out) const
{
    out << "t_ns,board,event,psn\n";
    for (const Event& e : m_events)
    {
        out << e.at.GetNanoSeconds() << "," << e.sender << "," << e.kind << "," << e.psn << "\n";
    }
}

} // namespace ns3
