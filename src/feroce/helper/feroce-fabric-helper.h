/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_FABRIC_HELPER_H
#define FEROCE_FABRIC_HELPER_H

#include "roce-helper.h"

#include "ns3/error-model.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-fct.h"
#include "ns3/feroce-topo.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * A fabric built from a topology (feroce_topo): node i of the topology is nodes.Get(i), with a
 * RoceNic (nics[i]) if it is not a switch, else a FeroceSwitch (switches[i]).
 */
struct FeroceFabric
{
    const feroce_topo* topo{nullptr};
    NodeContainer nodes;
    std::vector<Ptr<RoceNic>> nics;           ///< by node; null for a switch
    std::vector<Ptr<FeroceSwitch>> switches;  ///< by node; null for a host
    std::vector<Ptr<FeroceChannel>> channels; ///< by link
    /// Each link's ends: the device on its a side and on its b side (a NIC or a switch port).
    std::vector<std::pair<Ptr<FeroceNetDevice>, Ptr<FeroceNetDevice>>> ends;
    std::vector<Ptr<RateErrorModel>> errorModels;                 ///< of the lossy links' devices
    std::unordered_map<const FeroceSwitch*, uint32_t> switchNode; ///< switch -> its node

    /// The nodes that are not switches, in order.
    std::vector<uint32_t> Hosts() const;
    /**
     * The path a flow from src to dst with this UDP source port takes, as the switches route it
     * (ECMP included): its hops (each sending device's rate and its link's delay), the reverse
     * hops (the same links back: the ACKs'), and the switches crossed (node indices; may be null).
     */
    void Path(uint32_t src,
              uint32_t dst,
              uint16_t sport,
              std::vector<feroce_hop>* fwd,
              std::vector<feroce_hop>* rev,
              std::vector<uint32_t>* switchesCrossed = nullptr) const;
    /// Every NIC's Validate, then every switch's: "" or the first message, naming the node.
    std::string Validate() const;
    /// Streams of the lossy links' error models, from stream on; the number used.
    int64_t AssignStreams(int64_t stream);
    /**
     * Schedules the topology's outages (feroce_topo_outage: a link down at a time, up again at
     * another or never) on their channels; each time a link goes down or comes back every
     * switch's routes are computed again over the links that are up (RoceHelper::RecomputeRoutes,
     * as the HPCC simulator does on LINK_DOWN).  The helper must outlive the run.
     */
    void ScheduleOutages(RoceHelper& helper);
    /// Frames lost on links that were down (every channel's FeroceChannel::GetFramesLost).
    uint64_t GetFramesLostOnDownLinks() const;

  private:
    RoceHelper* m_routing{nullptr}; ///< recomputes the routes at a link's change
    void LinkChanged(bool up);
};

/**
 * \ingroup feroce
 * Builds a fabric from a topology through a RoceHelper: its device, channel, switch and
 * queue-pair attributes are the defaults, then each node's model and own settings, then the
 * link's rate (the NIC's and the switch ports' DataRate) and delay (its channel's Delay).
 *
 * Objects are made in the topology's order, so results follow the file: nodes in node order,
 * switches installed in node order, then each link in link order: a host's NIC (its address
 * the helper's next) before its switch port, a switch-to-switch link's port on a before b's.
 * Routes: RoceHelper::PopulateRoutes (shortest paths, ECMP across ties).  With ecmpSeed not 0,
 * each switch hashes ECMP with a seed of its own drawn from it and its node index (FeroceSwitch's
 * EcmpSeed), beneath the topology's settings; 0 leaves every switch's hash alike.
 */
class FeroceFabricHelper
{
  public:
    /// Whether the user gave this attribute ("ns3::FeroceSwitch::Kmin") explicitly: a setting of
    /// the file for it is then skipped (an explicit --ns3:: value wins over a file).
    typedef std::function<bool(const std::string& attribute)> GivenPredicate;

    /// "" with the fabric in out, or "FILE:LINE: KEY=VALUE ... is not allowed: ..." (a setting
    /// that names no attribute of the node's object or a value it refuses).
    static std::string Build(RoceHelper& helper,
                             const feroce_topo& topo,
                             FeroceFabric* out,
                             GivenPredicate given = nullptr,
                             uint64_t ecmpSeed = 0);
};

/**
 * \ingroup feroce
 * Runs f, so that a fabric's program can schedule a lambda (`Simulator::Schedule(t, &FeroceCall,
 * f)`): ns-3.35's Schedule takes functions and methods, not lambdas.
 */
void FeroceCall(std::function<void()> f);

} // namespace ns3

#endif /* FEROCE_FABRIC_HELPER_H */
