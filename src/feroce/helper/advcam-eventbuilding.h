/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_EVENTBUILDING_H
#define ADVCAM_EVENTBUILDING_H

#include "ns3/advcam-camera-fabric.h"
#include "ns3/advcam-eventbuilding-flags.h"
#include "ns3/event-ledger.h"
#include "ns3/roce-assigner-app.h"
#include "ns3/roce-connection-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-host-failures.h"
#include "ns3/roce-receiver-app.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FeroceStudy;
class RoceHelper;

/**
 * \ingroup feroce
 * advcam-eventbuilding's camera (src/feroce/doc/eventbuilding.md): advcam-camera's fabric with
 * its boards and receivers as event builders, the assigner when the policy is availability,
 * connections that are re-established after a failure, the receivers' failures, and every
 * event's fate in an EventLedger.  Then, after the run, the study's outputs: events.csv,
 * receivers.csv, identities.txt and the metrics, each part a call so that the program reads as
 * the question it asks.
 *
 * The static policy's objects, queue pairs and random streams are advcam-camera's, in its
 * order: the assigner's (and its connections) come after them.
 */
class AdvcamEventBuilding
{
  public:
    explicit AdvcamEventBuilding(const AdvcamEventBuildingFlags& flags);

    /// Builds everything with helper's attributes: "" or the first Validate message.
    std::string Install(RoceHelper& helper, Time duration);
    /// advcam-camera's flows, queues and gauge, and where events wait (board buffers, events
    /// waiting for an assignment, the assigner's blocks, each receiver's partial events).
    void Watch(FeroceStudy& study);
    /// The streams (one trigger for the camera and the assigner; the failures' after all of
    /// helper's) and the failure the flags ask for.
    void ScheduleFailures(RoceHelper& helper);

    /// events.csv; the events by fate and the building latency.
    void AddEventMetrics(FeroceStudy& study);
    /// receivers.csv; each receiver's share.
    void AddReceiverMetrics(FeroceStudy& study);
    /// The failed receiver: when the last fragment went to it, when it was dropped, and what
    /// went to it after that (--failReceiver only).
    void AddFailureMetrics(FeroceStudy& study);
    /// Control traffic, queue pair errors, reconnections, fragments by fate, buffer peaks.
    void AddTrafficMetrics(FeroceStudy& study);
    /// What PAUSE held: PAUSE frames (PFC or 802.3x) the receivers' NICs obeyed (they send the
    /// boards' ACKs and CNPs: an obeyed 802.3x stops those too), those the boards obeyed, the
    /// longest a leaf kept a board's port paused, the ACK timeouts and retransmitted frames
    /// of the boards' queue pairs (those alive at the end) and of the control
    /// messages', and the PFC watchdog's storms and drops.
    void AddPauseMetrics(FeroceStudy& study);
    /// identities.txt and identity_violations (a warning when one does not hold).
    void AddIdentities(FeroceStudy& study);

    const AdvcamCameraFabric& GetFabric() const;

  private:
    /// What the boards count on their own.
    struct BoardTotals
    {
        uint64_t generated{0};
        uint64_t lost{0};
        uint64_t completed{0};
        uint64_t failed{0};
        uint64_t dropped{0};
        uint64_t held{0};
        std::vector<uint8_t> heldEvents; ///< per event: some board holds a fragment
    };

    BoardTotals CountBoards() const;
    void ConnectAssigner();
    /// board-rule: receiver k's announcements to every board.
    void ConnectAnnouncements();
    void WatchFailures();
    void ConnectLedger();

    typedef std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> QpPair;

    AdvcamEventBuildingFlags m_flags;
    Time m_duration;
    AdvcamCameraFabric m_cam;
    std::vector<Ptr<RoceReceiverApp>> m_rxApps;
    std::vector<Ptr<RoceFrontEndApp>> m_apps;
    Ptr<RoceAssignerApp> m_assigner;
    RoceConnectionManager m_manager;
    RoceHostFailures m_failures;
    EventLedger m_ledger;
    /// the control connections, replaced ones too: [0] credits (receiver -> assigner, or
    /// receiver -> board under board-rule) and [1] assignments (assigner -> board), each
    /// (requester, responder)
    std::vector<QpPair> m_controlQps[2];
    std::vector<Time> m_droppedAt; ///< when the assigner dropped each receiver
};

} // namespace ns3

#endif /* ADVCAM_EVENTBUILDING_H */
