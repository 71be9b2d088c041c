/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_CAMERA_APPS_H
#define ADVCAM_CAMERA_APPS_H

#include "advcam-camera-fabric.h"
#include "advcam-event-tally.h"

#include "ns3/roce-frontend-app.h"
#include "ns3/roce-receiver-app.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * advcam-camera's traffic, event building by a static rule: a RoceReceiverApp on each receiver
 * and a RoceFrontEndApp on each board, triggered (every board on the same trigger), with one
 * queue pair to each receiver (receiver k's i-th queue pair is board i's), the event number as
 * immediate data; event n goes to receiver n mod K.
 */
struct AdvcamCameraApps
{
    std::vector<Ptr<RoceReceiverApp>> receivers;
    std::vector<Ptr<RoceFrontEndApp>> boards;
    std::vector<std::vector<Ptr<RoceQueuePair>>> boardQps; ///< each board's, by receiver
    std::unique_ptr<AdvcamEventTally> tally;               ///< camera events by outcome

    /// The bytes the receivers got from one board (its queue pair on each of them).
    uint64_t GetBoardDelivered(uint32_t board) const;
    /// Fragments the boards lost (their buffers full).
    uint64_t GetEventsLost() const;
};

/// The applications on the camera's fabric, running from 0 to stop (their random streams:
/// AssignStreams, after the helper's).
std::unique_ptr<AdvcamCameraApps> InstallAdvcamCameraApps(RoceHelper& helper,
                                                          const AdvcamCameraFabric& camera,
                                                          Time stop);

/**
 * What the study follows of a camera run: each receiver's goodput (a flow rxK), the switches and
 * the queues where the traffic meets (series.csv), the fragments lost, and the steady-state
 * gauges (camera events generated and lost, the share lost per window, the boards' buffers, the
 * drops); then the one trigger for the whole camera: every board draws the same Poisson gaps.
 */
void WatchAdvcamCamera(FeroceStudy& study,
                       RoceHelper& helper,
                       const AdvcamCameraFabric& camera,
                       AdvcamCameraApps& apps);

} // namespace ns3

#endif /* ADVCAM_CAMERA_APPS_H */
