/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_RECOVERY_LOG_H
#define ROCE_RECOVERY_LOG_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

class RoceQueuePair;

/**
 * \ingroup feroce
 * The loss recoveries of senders' queue pairs, from their Nak and Timeout trace sources: when,
 * whose (the sender's index) and at which PSN, as a study's recovery.csv lists them.
 */
class RoceRecoveryLog
{
  public:
    /// Logs qp's NAKs and retransmission timeouts as sender's.
    void Watch(Ptr<RoceQueuePair> qp, uint32_t sender);
    /// "t_ns,board,event,psn" then a row per recovery, in time order.
    void Write(std::ostream& out) const;

  private:
    struct Event
    {
        Time at;
        uint32_t sender;
        const char* kind;
        uint32_t psn;
    };

    static void Record(std::vector<Event>* events, uint32_t sender, const char* kind, uint32_t psn);

    std::vector<Event> m_events;
};

} // namespace ns3

#endif /* ROCE_RECOVERY_LOG_H */
