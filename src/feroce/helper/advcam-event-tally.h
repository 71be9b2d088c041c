/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_EVENT_TALLY_H
#define ADVCAM_EVENT_TALLY_H

#include "ns3/ptr.h"
#include "ns3/roce-work-request.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RoceFrontEndApp;

/**
 * \ingroup feroce
 * Whole camera events from the boards' fragments (src/feroce/doc/results.md, "Metric
 * names"): on a common trigger every board stores a fragment of event n and sends it to
 * receiver n mod K; the event is built when every board's fragment is acknowledged, lost
 * when any board lost its fragment (its buffer was full, or the request failed), and in
 * flight otherwise.  An event lost for several causes counts once, under the cause of its
 * first lost fragment.  Counted from the boards' EventLost and their queue pairs'
 * Completion traces, so that the sums (events_generated = built + lost + in flight) are
 * checked against the boards' own counters.
 */
class AdvcamEventTally
{
  public:
    /// Why an event was lost; the names are the metrics' suffixes.
    enum Cause
    {
        BOARD_BUFFER,   ///< board_buffer: a board's buffer had no room for its fragment
        REQUEST_FAILED, ///< request_failed: a fragment's RDMA request completed in error
        CAUSES
    };

    static const char* GetCauseName(Cause c);

    /// Follows these boards (every one's queue pairs, in the order added) for K receivers.
    AdvcamEventTally(const std::vector<Ptr<RoceFrontEndApp>>& boards, uint32_t receivers);

    /// Camera triggers so far (events generated).
    uint64_t GetGenerated() const;
    uint64_t GetBuilt() const;
    uint64_t GetLost() const;
    uint64_t GetLost(Cause c) const;
    /// Generated, neither built nor lost: a fragment still on its way.
    uint64_t GetInFlight() const;
    /// Events assigned to receiver k (n mod K = k), built and lost.
    uint64_t GetAssignedTo(uint32_t k) const;
    uint64_t GetBuiltAt(uint32_t k) const;
    uint64_t GetLostAt(uint32_t k) const;

  private:
    struct Event
    {
        uint32_t delivered{0};
        uint32_t lost{0};
    };

    Event& At(uint64_t event);
    void FragmentLost(uint64_t event, Cause c);
    static void OnLost(AdvcamEventTally* t, uint64_t event);
    static void OnCompletion(AdvcamEventTally* t, const RoceCompletion& c, Time latency);

    std::vector<Ptr<RoceFrontEndApp>> m_boards;
    uint32_t m_receivers;
    std::vector<Event> m_events; ///< by event number
    uint64_t m_built{0};
    uint64_t m_lost[CAUSES]{};
    std::vector<uint64_t> m_builtAt;
    std::vector<uint64_t> m_lostAt;
};

} // namespace ns3

#endif /* ADVCAM_EVENT_TALLY_H */
