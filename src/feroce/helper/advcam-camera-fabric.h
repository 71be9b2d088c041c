/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_CAMERA_FABRIC_H
#define ADVCAM_CAMERA_FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-study.h"
#include "ns3/node-container.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class RoceHelper;
class RoceNic;
struct AdvcamCameraFile;

/**
 * \ingroup feroce
 * The AdvCam camera's readout fabric: boards on leaf switches (boardsPerLeaf each, the leaf's
 * ports its boards then one uplink), the leaves' uplinks on an aggregation switch, and the
 * event-building receivers on the aggregation switch (its ports: the leaves, then the
 * receivers, then an assigner if asked).  Nodes 0..B-1 are the boards, then the receivers, the
 * leaves, the aggregation (and the assigner).
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
    std::vector<Ptr<FeroceChannel>> rxLinks; ///< receiver k's link to the aggregation switch
    Ptr<RoceNic> assignerNic;                ///< an event assigner's host (null without)
    uint32_t boardsPerLeaf{1};
    std::vector<uint32_t> boardLeaf; ///< each board's leaf (an index into leaves)
    /// The switches as the study watches them: the leaves (leaf0, leaf1, ...), then the others
    /// (agg).
    std::vector<FeroceStudy::WatchedSwitch> switches;
    /// The queues where the camera's traffic meets: toward each receiver (agg_to_rxK_queue_bytes),
    /// then each leaf's uplinks (leafL_uplink_queue_bytes; leafL_to_S_queue_bytes when a leaf has
    /// several).
    std::vector<FeroceStudy::WatchedQueue> queues;
    std::shared_ptr<AdvcamCameraFile> file; ///< the topology file's fabric (null: built in)

    /// Every NIC's Validate, then each switch's (by its name): "" or the first message.
    std::string Validate() const;
    std::vector<FeroceStudy::WatchedSwitch> GetSwitches() const;
    std::vector<FeroceStudy::WatchedQueue> GetQueues() const;
};

/// Builds the fabric with helper (its switch and NIC attributes), routes filled; with assigner,
/// one more host at receiverRate on the aggregation switch (advcam-eventbuilding's assigner).
AdvcamCameraFabric InstallAdvcamCameraFabric(RoceHelper& helper,
                                             uint32_t boards,
                                             uint32_t boardsPerLeaf,
                                             uint32_t receivers,
                                             DataRate boardRate,
                                             DataRate uplinkRate,
                                             DataRate receiverRate,
                                             bool assigner = false);

/**
 * The camera on a topology file's fabric (`feroce-topo camera` writes the built-in one, node for
 * node) instead of the built-in shape: the file's boards and receivers in file order, each on a
 * switch; a switch with boards is a leaf (in the order of its first board), the others follow in
 * node order; the file's settings beneath the command line, its outages scheduled (the routes
 * computed again at each).  "" with the fabric in out, or what is wrong ("FILE:LINE: ...").
 */
std::string InstallAdvcamCameraFabric(FeroceStudy& study,
                                      RoceHelper& helper,
                                      const std::string& topology,
                                      AdvcamCameraFabric* out);

/**
 * advcam-camera's scenario reader for --topology (inside Parse): the file's boards, receivers and
 * the most boards on one leaf as the values of --boards, --receivers and --boardsPerLeaf (what
 * params.txt and the row record), unless given.  "" or what is wrong with the file.
 */
std::string SetAdvcamCameraSizes(FeroceStudy& study, const std::string& topology);

/**
 * \ingroup feroce
 * The camera's flags, as advcam-camera and advcam-eventbuilding take them: the fabric's size and
 * rates, the boards' event fragments and buffer, and DcqcnSwitchFlags.
 */
struct AdvcamCameraFlags
{
    uint32_t boards{150};
    uint32_t boardsPerLeaf{24};
    uint32_t receivers{4};
    DataRate boardRate{"10Gbps"};
    DataRate uplinkRate{"100Gbps"};
    DataRate receiverRate{"100Gbps"};
    LinkFlags link;
    uint64_t fragmentSize{4096};
    Time triggerInterval{MicroSeconds(16)};
    TriggerRateFlag triggerRate; ///< or the interval as a rate
    bool poisson{false};
    uint64_t boardBuffer{1 << 20};
    uint32_t maxOutstanding{4};
    uint32_t pmtu{4096};
    DcqcnSwitchFlags fabric;

    void AddTo(FeroceStudy& study);
};

} // namespace ns3

#endif /* ADVCAM_CAMERA_FABRIC_H */
