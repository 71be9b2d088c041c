/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EVENT_LEDGER_H
#define EVENT_LEDGER_H

#include "ns3/event-building.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

class RoceHostFailures;

/**
 * \ingroup feroce
 * The fate of every camera event of a run: generated at its trigger, then
 * built at one receiver, or lost with one cause (the first that struck any of
 * its fragments), or still in flight when the run ends.
 *
 * Fed by the applications' traces (connect with the Connect* helpers): a
 * board's Trigger (one board's is enough), EventLost (board buffer full),
 * FragmentPosted and FragmentFailed; a receiver's EventBuilt, EventTimedOut
 * (partial timeout) and EventLost (the host failed).  A fragment that failed
 * counts as receiver_dead when its receiver (host index = receiver index in
 * `failures`) was down at some instant since the event's trigger or since its
 * connection was made (a connection from before a crash dies with it), else
 * as retries_exhausted.  An event whose fragments were posted to more than
 * one receiver (the boards disagreed) and that timed out is lost with cause
 * disagreement.  An event built after a loss was recorded counts as built
 * (its data got there).
 */
class EventLedger
{
  public:
    explicit EventLedger(const RoceHostFailures* failures = nullptr);

    void Generated(uint64_t event);
    void Built(uint64_t event, uint32_t receiver);
    void Lost(uint64_t event, EventLossCause cause);
    /// A fragment for receiver failed on a connection made at `since`.
    void FragmentFailed(uint64_t event, uint32_t receiver, Time since = Time::Max());
    void Posted(uint64_t event, uint32_t receiver);

    uint64_t GetGenerated() const;
    uint64_t GetBuilt() const;
    uint64_t GetLost(EventLossCause cause) const;
    uint64_t GetLost() const;
    /// Generated, neither built nor lost.
    uint64_t GetInFlight() const;
    /// The events in flight, in order.
    std::vector<uint64_t> GetInFlightEvents() const;
    /// Events built at receiver k.
    uint64_t GetBuiltAt(uint32_t k) const;
    /// Fragments that failed (FragmentFailed), by the cause given to their event's loss
    /// (receiver_dead or retries_exhausted).
    uint64_t GetFragmentsFailed(EventLossCause cause) const;
    /// Events whose fragments the boards posted to more than one receiver (their rules
    /// disagreed); those closed incomplete are lost with cause disagreement.
    uint64_t GetSplit() const;
    /// Trigger to last fragment delivered of every built event, microseconds.
    std::vector<double> GetLatenciesUs() const;

    /// The last time a fragment was posted to receiver k (-1 ns if never).
    Time GetLastPost(uint32_t k) const;
    /// The last post to receiver k within [from, to) (-1 ns if none).
    Time GetLastPost(uint32_t k, Time from, Time to) const;
    /// Fragments posted to receiver k within [from, to) of events triggered at or after from.
    uint64_t CountPostsTriggeredAfter(uint32_t k, Time from, Time to) const;

    /**
     * events.csv: per window of trigger time, events generated, built, lost by cause and in
     * flight, and the building latency (p50, p99, max, us) of those built; then per receiver
     * the events of the window it built.
     */
    void WriteCsv(std::ostream& out, Time window, uint32_t receivers) const;

  private:
    static const uint8_t kPending = 0xff;
    static const uint8_t kBuilt = 0xfe;

    struct Event
    {
        int64_t triggerNs{0};
        int64_t builtNs{0};
        uint8_t state{kPending}; ///< kPending, kBuilt or the EventLossCause
        uint8_t receiver{0};     ///< where it was built
        uint8_t posted{0};       ///< 1 + the receiver of its first fragment posted, 0: none
        bool split{false};       ///< fragments posted to more than one receiver
    };

    struct Post
    {
        int64_t ns;
        uint64_t event;
    };

    /// The event's entry (generated even if its trigger was not seen).
    Event& At(uint64_t event);

    const RoceHostFailures* m_failures;
    std::vector<Event> m_events;
    uint64_t m_fragmentsFailed[EVENT_LOSS_CAUSES]{};
    uint64_t m_split{0};
    std::vector<std::vector<Post>> m_posts; ///< per receiver: the posts, in time order
};

} // namespace ns3

#endif /* EVENT_LEDGER_H */
