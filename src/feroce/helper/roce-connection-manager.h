/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_CONNECTION_MANAGER_H
#define ROCE_CONNECTION_MANAGER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

class RoceNic;
class RoceQueuePair;

/**
 * \ingroup feroce
 * What RDMA CM does for a readout that outlives its failures: the RC
 * connections between hosts, each a pair of queue pairs connected out of
 * band (as RoceHelper::ConnectQueuePairs), and a new pair for a connection
 * that broke.
 *
 * An RC queue pair in the error state is not revived: a connection is broken
 * when either of its queue pairs is in error (retries exhausted, or its host
 * failed: SetHostUp(false) moves every queue pair of the host's NIC to the
 * error state, as its contexts are gone).  ReconnectDelay (the CM exchange)
 * after both hosts are up and both NICs' links are up, the manager moves the
 * other end to the error state too (its requests complete flushed) and
 * connects two new queue pairs, with fresh PSNs, numbered after every queue
 * pair the NICs had: onReplace hands them to the applications.  So a run
 * without failures creates no queue pair and draws nothing.  The manager
 * must outlive the simulation (the NICs call it back).
 */
class RoceConnectionManager
{
  public:
    /// The applications take the new pair (a's end first).
    typedef std::function<void(Ptr<RoceQueuePair>, Ptr<RoceQueuePair>)> Replace;

    explicit RoceConnectionManager(Time reconnectDelay);

    /// A connection a <-> b, made now; onReplace runs for each later pair that replaces it.
    std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> Connect(Ptr<RoceNic> a,
                                                              Ptr<RoceNic> b,
                                                              Replace onReplace);
    /// The host of nic fails (its queue pairs go to the error state) or is back.
    void SetHostUp(Ptr<RoceNic> nic, bool up);
    bool IsHostUp(Ptr<RoceNic> nic) const;
    /// Connections replaced so far.
    uint64_t GetReconnections() const;

  private:
    struct Connection
    {
        Ptr<RoceNic> a;
        Ptr<RoceNic> b;
        Ptr<RoceQueuePair> qa;
        Ptr<RoceQueuePair> qb;
        Replace onReplace;
        bool scheduled{false}; ///< a reconnection is due
    };

    /// Watch nic: its queue pairs' errors and its link's changes.
    void Watch(Ptr<RoceNic> nic);
    bool Reachable(const Connection& c) const;
    bool Broken(const Connection& c) const;
    /// Reconnect c after ReconnectDelay if it is broken and both ends are reachable.
    void Schedule(std::size_t c);
    void Reconnect(std::size_t c);
    /// Something changed at nic (an error, its host or link back): its broken connections.
    void Check(RoceNic* nic);

    Time m_delay;
    std::vector<Connection> m_connections;
    std::map<RoceNic*, bool> m_down; ///< hosts that failed (true) and are not back
    std::map<RoceNic*, bool> m_watched;
    std::vector<std::unique_ptr<std::function<void()>>> m_checks; ///< the NICs' callbacks
    uint64_t m_reconnections{0};
};

} // namespace ns3

#endif /* ROCE_CONNECTION_MANAGER_H */
