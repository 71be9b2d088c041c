/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_HOST_FAILURES_H
#define ROCE_HOST_FAILURES_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class FeroceChannel;
class RoceConnectionManager;
class RoceNic;

/**
 * \ingroup feroce
 * Hosts (receivers) that fail and come back, at set times or at random.
 *
 * Mode "host": the host crashes: its link goes down (nothing in or out), its
 * queue pairs go to the error state (RoceConnectionManager::SetHostUp) and
 * its applications lose what they held (onState(false)); at its return the
 * link is up, the applications start empty (onState(true)) and the
 * connection manager re-establishes its connections.  Mode "link": only its
 * link (cable, switch port) goes down; the host keeps its state, and queue
 * pairs that have not exhausted their retries when it comes back carry on
 * by retransmission.
 *
 * Random failures: each host alternates up times drawn from an exponential
 * of mean Mtbf and down times of mean Mttr, from its own two streams
 * (AssignStreams, after every stream the run had), until `until`.
 */
class RoceHostFailures
{
  public:
    /// "host" or "link".
    RoceHostFailures(RoceConnectionManager* manager, const std::string& mode);

    /// A host that can fail: its NIC, its NIC's link, and what its applications do.
    std::size_t AddHost(Ptr<RoceNic> nic,
                        Ptr<FeroceChannel> link,
                        std::function<void(bool up)> onState);
    /// Host h down at `down`, back at `up` (Time::Max(): never).
    void Schedule(std::size_t h, Time down, Time up);
    /// Random failures of every host until `until` (call after AssignStreams).
    void Random(Time mtbf, Time mttr, Time until);
    int64_t AssignStreams(int64_t stream);

    /// One outage: host, down, up (Time::Max() if it never came back in the run).
    struct Outage
    {
        std::size_t host;
        Time down;
        Time up;
    };

    /// Every outage scheduled, in order of their start.
    const std::vector<Outage>& GetOutages() const;
    /// Host h was down at some instant of [from, to].
    bool WasDown(std::size_t h, Time from, Time to) const;
    /// Host h is down now.
    bool IsDown(std::size_t h) const;

  private:
    struct Host
    {
        Ptr<RoceNic> nic;
        Ptr<FeroceChannel> link;
        std::function<void(bool)> onState;
        bool down{false};
    };

    void SetUp(std::size_t h, bool up);

    RoceConnectionManager* m_manager;
    bool m_hostMode;
    std::vector<Host> m_hosts;
    std::vector<Outage> m_outages;
    std::vector<Ptr<ExponentialRandomVariable>> m_upTime;   ///< per host
    std::vector<Ptr<ExponentialRandomVariable>> m_downTime; ///< per host
};

} // namespace ns3

#endif /* ROCE_HOST_FAILURES_H */
