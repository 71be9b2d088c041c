/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BOARD_CREDIT_RULE_H
#define BOARD_CREDIT_RULE_H

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * The per-board assignment rule (Assignment board-rule, src/feroce/doc/eventbuilding.md): each
 * board applies it to the receivers' announcements it has seen, with no assigner.
 *
 * An announcement of receiver k is (v, G, fresh): valid from event v, G the cumulative event
 * slots k has granted on its connection, fresh the first on a new connection (k's account
 * starts over).  Advance(n), once per event in order: the announcements valid at n are applied
 * (G replaces k's grant; fresh also zeroes the events charged to k), n joins the events waiting
 * for a receiver, then, oldest first, each waiting event e goes to the first receiver in the
 * order e mod K, e + 1 mod K, ... that is in (its latest announcement no more than Expiry
 * events old; Expiry 0: never expires) and has credit (G - events charged to it > 0), and is
 * charged to it.  An event no receiver can take waits, and so do those after it.
 *
 * So the receiver of event n is a function of n and the announcements valid at events <= n:
 * boards that have seen each announcement before processing the event it is valid from name
 * the same receiver for every event, by construction.  An announcement that comes after that
 * (Announce returns true: late) is applied from the board's next event, and this board's
 * account may differ from the others' from then on: the divergence the study counts.
 */
class BoardCreditRule
{
  public:
    /// K receivers, none in until it announces; announcements older than expiry events lapse.
    void Reset(uint32_t receivers, uint64_t expiry);
    /// An announcement arrived: true if it is late (valid from an event already processed).
    bool Announce(uint32_t k, uint64_t validFrom, uint32_t granted, bool fresh);
    /// Process event n (the next one): the (event, receiver) pairs assigned now, appended to
    /// `assigned` in order; the receivers that lapsed at n, appended to `lapsed`.
    void Advance(uint64_t n,
                 std::vector<std::pair<uint64_t, uint32_t>>& assigned,
                 std::vector<uint32_t>& lapsed);

    /// The next event to process.
    uint64_t GetNext() const;
    /// Events waiting for a receiver with credit.
    std::size_t GetWaiting() const;
    /// The latest grant seen (to decode the next announcement's count) of receiver k.
    uint32_t GetGranted(uint32_t k) const;
    /// Receiver k's credit now, and whether it is in.
    int64_t GetCredit(uint32_t k) const;
    bool IsIn(uint32_t k) const;

  private:
    struct Announcement
    {
        uint64_t validFrom;
        uint32_t granted;
        bool fresh;
    };

    struct Receiver
    {
        std::deque<Announcement> pending; ///< arrived, not yet valid
        bool heard{false};
        bool in{false};
        uint64_t heardAt{0};  ///< the event the latest applied announcement was valid from
        uint32_t granted{0};  ///< G, applied
        uint32_t received{0}; ///< G, the latest that arrived
        uint32_t charged{0};
    };

    std::vector<Receiver> m_receivers;
    std::deque<uint64_t> m_waiting;
    uint64_t m_expiry{0};
    uint64_t m_next{0};
};

} // namespace ns3

#endif /* BOARD_CREDIT_RULE_H */
