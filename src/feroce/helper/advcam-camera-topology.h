/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_CAMERA_TOPOLOGY_H
#define ADVCAM_CAMERA_TOPOLOGY_H

#include "feroce-study.h"

#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FeroceChannel;
class FeroceSwitch;
class RoceHelper;
class RoceNic;

/**
 * \ingroup feroce
 * The AdvCam camera's fabric, as advcam-camera and advcam-eventbuilding build it:
 * boards on leaf switches (boardsPerLeaf each), each leaf with one uplink to an
 * aggregation switch, the receivers on the aggregation switch.
 *
 *   boards --boardRate-- leaf 0 ..                                 .. rx 0
 *   boards --boardRate-- leaf 1 --uplinkRate-- aggregation --receiverRate-- rx 1
 *
 * Nodes: 0..B-1 the boards, B..B+K-1 the receivers, then the leaves and the
 * aggregation switch.  Ports: a leaf's boards, then its uplink; the aggregation
 * switch's leaves, then the receivers.  The helper's switch, device and channel
 * attributes apply; its device DataRate is left at receiverRate.
 */
struct AdvcamCamera
{
    NodeContainer boardNodes;
    NodeContainer rxNodes;
    NodeContainer leafNodes;
    Ptr<Node> aggNode;
    Ptr<FeroceSwitch> agg;
    /// The leaves, then the aggregation switch ("leaf0".., "agg").
    std::vector<FeroceStudy::WatchedSwitch> switches;
    std::vector<Ptr<RoceNic>> boardNics;
    std::vector<Ptr<RoceNic>> rxNics;
    std::vector<Ptr<FeroceChannel>> rxLinks; ///< receiver k's link to the aggregation switch
    Ptr<RoceNic> assignerNic;                ///< null without an assigner
    uint32_t leaves{0};

    /// Every NIC's and switch's Validate: "" or the first message (a switch's named).
    std::string Validate() const;
    /// The queues where the camera's traffic meets, for WatchSwitches: toward each receiver,
    /// then each leaf's uplink.
    std::vector<FeroceStudy::WatchedQueue> GetQueues() const;
};

/// Builds the camera's fabric (routes populated).
AdvcamCamera InstallAdvcamCamera(RoceHelper& helper,
                                 uint32_t boards,
                                 uint32_t boardsPerLeaf,
                                 uint32_t receivers,
                                 DataRate boardRate,
                                 DataRate uplinkRate,
                                 DataRate receiverRate,
                                 bool assigner = false);

} // namespace ns3

#endif /* ADVCAM_CAMERA_TOPOLOGY_H */
