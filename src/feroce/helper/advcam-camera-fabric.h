/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_CAMERA_FABRIC_H
#define ADVCAM_CAMERA_FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/feroce-study.h"
#include "ns3/node-container.h"

#include <string>
#include <vector>

namespace ns3
{

class RoceHelper;
class RoceNic;

/**
 * \ingroup feroce
 * The AdvCam camera's readout fabric: boards on leaf switches (boardsPerLeaf each, the leaf's
 * ports its boards then one uplink), the leaves' uplinks on an aggregation switch, and the
 * event-building receivers on the aggregation switch (its ports: the leaves, then the
 * receivers).  Nodes 0..B-1 are the boards, then the receivers, the leaves, the aggregation.
 *
 *   boards --boardRate-- leaf 0 ..                              .. rx 0
 *   boards --boardRate-- leaf 1 --uplinkRate-- aggregation --receiverRate-- rx 1
 */
struct AdvcamCameraFabric
{
    NodeContainer boardNodes;
    NodeContainer rxNodes;
    std::vector<Ptr<FeroceSwitch>> leaves;
    Ptr<FeroceSwitch> agg;
    std::vector<Ptr<RoceNic>> boardNics;
    std::vector<Ptr<RoceNic>> rxNics;
    uint32_t boardsPerLeaf{1};

    /// Every NIC's Validate, then each switch's (named leafN or agg): "" or the first message.
    std::string Validate() const;
    /// The switches as the study watches them: leaf0, leaf1, ..., agg.
    std::vector<FeroceStudy::WatchedSwitch> GetSwitches() const;
    /// The queues where the camera's traffic meets: the aggregation's toward each receiver
    /// (agg_to_rxK_queue_bytes), then each leaf's uplink (leafL_uplink_queue_bytes).
    std::vector<FeroceStudy::WatchedQueue> GetQueues() const;
};

/// Builds the fabric with helper (its switch and NIC attributes), routes filled.
AdvcamCameraFabric InstallAdvcamCameraFabric(RoceHelper& helper,
                                             uint32_t boards,
                                             uint32_t boardsPerLeaf,
                                             uint32_t receivers,
                                             DataRate boardRate,
                                             DataRate uplinkRate,
                                             DataRate receiverRate);

} // namespace ns3

#endif /* ADVCAM_CAMERA_FABRIC_H */
