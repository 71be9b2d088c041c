/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// AdvcamEventBuilding after the run: the study's outputs and metrics (eventbuilding.md names
// them), in the order metrics.txt lists them.

#include "advcam-eventbuilding.h"

#include "ns3/feroce-frame-losses.h"
#include "ns3/feroce-identities.h"
#include "ns3/feroce-stats.h"
#include "ns3/feroce-study.h"
#include "ns3/feroce-switch.h"
#include "ns3/feroce-wire.h"
#include "ns3/roce-assigner-app.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

namespace ns3
{

namespace
{

/// Frame bytes (without FCS) of a message of this many payload bytes on a queue pair, as
/// SENDs with immediate, and of an ACK.
uint64_t
SendImmFrameBytes(uint64_t payload)
{
    feroce_roce f;
    feroce_roce_init(&f, FEROCE_OP_SEND_ONLY_IMM);
    f.payload_len = uint32_t(payload);
    return feroce_roce_frame_len(&f);
}

uint64_t
AckFrameBytes()
{
    feroce_roce f;
    feroce_roce_init(&f, FEROCE_OP_ACK);
    return feroce_roce_frame_len(&f);
}

} // namespace

AdvcamEventBuilding::BoardTotals
AdvcamEventBuilding::CountBoards() const
{
    BoardTotals t;
    t.heldEvents.assign(m_ledger.GetGenerated(), 0);
    for (auto& app : m_apps)
    {
        t.generated += app->GetEventsGenerated();
        t.lost += app->GetEventsLost();
        t.completed += app->GetMessagesCompleted();
        t.failed += app->GetMessagesFailed();
        t.dropped += app->GetFragmentsDropped();
        for (uint64_t e : app->GetHeldEvents())
        {
            t.held++;
            if (e < t.heldEvents.size())
            {
                t.heldEvents[e] = 1;
            }
        }
    }
    return t;
}

void
AdvcamEventBuilding::AddEventMetrics(FeroceStudy& study)
{
    const AdvcamCameraFlags& c = m_flags.camera;
    std::ofstream eventsCsv = study.OpenOutput("events.csv");
    m_ledger.WriteCsv(eventsCsv, study.GetWindow(), c.receivers);
    eventsCsv.close();
    study.AddMetric("offered_gbps",
                    double(c.boards) * double(c.fragmentSize) * 8 / c.triggerInterval.GetSeconds() /
                        1e9);
    study.AddMetric("events_generated", double(m_ledger.GetGenerated()));
    study.AddMetric("events_built", double(m_ledger.GetBuilt()));
    study.AddMetric("events_lost", double(m_ledger.GetLost()));
    for (int cause = 0; cause < EVENT_LOSS_CAUSES; cause++)
    {
        study.AddMetric(std::string("events_lost_") + EventLossCauseName(EventLossCause(cause)),
                        double(m_ledger.GetLost(EventLossCause(cause))));
    }
    study.AddMetric("events_in_flight", double(m_ledger.GetInFlight()));
    std::vector<double> latency = m_ledger.GetLatenciesUs();
    feroce_summary lat;
    feroce_summarize(latency.data(), latency.size(), &lat);
    study.AddMetric("build_latency_p50_us", lat.p50);
    study.AddMetric("build_latency_p99_us", lat.p99);
    study.AddMetric("build_latency_max_us", lat.max);
}

void
AdvcamEventBuilding::AddReceiverMetrics(FeroceStudy& study)
{
    uint64_t built = m_ledger.GetBuilt();
    std::ofstream rxCsv = study.OpenOutput("receivers.csv");
    rxCsv << "receiver,events_built,events_timed_out,events_incomplete,events_lost_in_crash,"
             "fragments_late,"
             "events_partial_at_end,events_built_fraction,events_assigned,credit_messages,"
             "last_post_s\n";
    for (uint32_t k = 0; k < m_rxApps.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        double share = built ? double(m_ledger.GetBuiltAt(k)) / double(built) : NAN;
        study.AddMetric("rx" + std::to_string(k) + "_events_built", double(m_ledger.GetBuiltAt(k)));
        study.AddMetric("rx" + std::to_string(k) + "_events_built_fraction", share);
        rxCsv << k << "," << rx->GetEventsBuilt() << "," << rx->GetEventsTimedOut() << ","
              << rx->GetEventsIncomplete() << "," << rx->GetEventsCrashed() << ","
              << rx->GetLateFragments() << "," << rx->GetPartialEvents() << "," << share << ","
              << (m_assigner ? double(m_assigner->GetAssigned(k)) : NAN) << "," << rx->GetCreditMessages()
              << "," << m_ledger.GetLastPost(k).GetSeconds() << "\n";
    }
    rxCsv.close();
}

void
AdvcamEventBuilding::AddFailureMetrics(FeroceStudy& study)
{
    if (m_flags.failReceiver < 0)
    {
        return;
    }
    uint32_t k = uint32_t(m_flags.failReceiver);
    Time failAt = m_flags.failAt;
    Time back = m_flags.returnAt.IsZero() ? m_duration : m_flags.returnAt;
    Time last = m_ledger.GetLastPost(k, failAt, back);
    study.AddMetric("failure_last_post_ms",
                    last.IsNegative() ? 0 : (last - failAt).GetSeconds() * 1e3);
    if (m_assigner || m_flags.BoardRule())
    {
        // the assigner dropped it, or the boards' rule let its announcements lapse
        Time detect = m_droppedAt[k];
        bool detected = detect >= failAt && detect < back;
        study.AddMetric("failure_detect_ms", detected ? (detect - failAt).GetSeconds() * 1e3 : NAN);
        // no event triggered after its failure was detected went to it
        study.AddMetric("posts_after_detection",
                        detected ? double(m_ledger.CountPostsTriggeredAfter(k, detect, back))
                                 : NAN);
    }
}

void
AdvcamEventBuilding::AddTrafficMetrics(FeroceStudy& study)
{
    // control traffic: the credit and assignment messages (credits carry no payload, an
    // assignment a byte per event) and their ACKs, against every frame the NICs sent
    uint64_t controlBytes = 0;
    uint64_t controlMessages = 0;
    for (int kind = 0; kind < 2; kind++)
    {
        for (auto& qp : m_controlQps[kind])
        {
            uint64_t sent = qp.first->GetCounters().dataPacketsSent;
            controlMessages += sent;
            controlBytes += sent * SendImmFrameBytes(kind == 0 ? 0 : m_flags.block) +
                            qp.second->GetCounters().acksSent * AckFrameBytes();
        }
    }
    uint64_t allBytes = 0;
    uint64_t qpErrors = 0;
    for (auto* nics : {&m_cam.boardNics, &m_cam.rxNics})
    {
        for (auto& nic : *nics)
        {
            allBytes += nic->GetTxBytes();
            qpErrors += nic->GetCounters().qpErrors;
        }
    }
    if (m_assigner)
    {
        allBytes += m_cam.assignerNic->GetTxBytes();
    }
    study.AddMetric("control_messages", double(controlMessages));
    study.AddMetric("control_fraction", allBytes ? double(controlBytes) / double(allBytes) : 0);
    study.AddMetric("qp_errors", double(qpErrors));
    study.AddMetric("reconnections", double(m_manager.GetReconnections()));

    BoardTotals t = CountBoards();
    study.AddMetric("fragments_generated", double(t.generated));
    study.AddMetric("fragments_delivered", double(t.completed));
    study.AddMetric("fragments_lost_board_buffer", double(t.lost));
    study.AddMetric("fragments_lost_receiver_dead",
                    double(m_ledger.GetFragmentsFailed(EVENT_LOST_RECEIVER_DEAD)));
    study.AddMetric("fragments_lost_retries_exhausted",
                    double(m_ledger.GetFragmentsFailed(EVENT_LOST_RETRIES_EXHAUSTED)));
    study.AddMetric("fragments_in_flight", double(t.held));
    uint64_t bufferPeak = 0;
    for (auto& app : m_apps)
    {
        bufferPeak = std::max(bufferPeak, app->GetBufferPeak());
    }
    study.AddMetric("board_buffer_max_bytes", double(bufferPeak));
    if (m_assigner)
    {
        study.AddMetric("assigner_pending_max", double(m_assigner->GetPendingPeak()));
    }
    if (m_flags.BoardRule())
    {
        // announcements valid from an event a board had processed already: its rule may
        // then name other receivers than the others' (events split: the boards disagreed)
        uint64_t heard = 0;
        uint64_t late = 0;
        for (auto& app : m_apps)
        {
            heard += app->GetAnnouncementsReceived();
            late += app->GetLateAnnouncements();
        }
        study.AddMetric("announcements_received", double(heard));
        study.AddMetric("announcements_late", double(late));
        study.AddMetric("events_split", double(m_ledger.GetSplit()));
    }
    // frames lost by place: a failed receiver's link loses what is on it and what is sent
    // into it while it is down
    FeroceFrameLosses lost = FeroceFrameLosses::Of(NodeContainer::GetGlobal());
    for (const auto& part : lost.Parts())
    {
        study.AddMetric(part.first, double(part.second));
    }
}

void
AdvcamEventBuilding::AddPauseMetrics(FeroceStudy& study)
{
    auto obeyed = [](const std::vector<Ptr<RoceNic>>& nics) {
        uint64_t n = 0;
        for (auto& nic : nics)
        {
            const RoceNic::Counters& c = nic->GetCounters();
            n += c.pauseFramesReceived - c.pauseFramesIgnored + c.linkPauseFramesReceived -
                 c.linkPauseFramesIgnored;
        }
        return n;
    };
    study.AddMetric("rx_pause_frames_obeyed", double(obeyed(m_cam.rxNics)));
    study.AddMetric("board_pause_frames_obeyed", double(obeyed(m_cam.boardNics)));
    // a leaf's ports are its boards, then its uplink
    Time held;
    for (auto& leaf : m_cam.leaves)
    {
        for (uint32_t port = 0; port + 1 < leaf->GetNPorts(); port++)
        {
            for (uint8_t prio = 0; prio < 8; prio++)
            {
                held = std::max(held, leaf->GetUpstreamPausedTime(port, prio));
            }
        }
    }
    study.AddMetric("board_paused_ms_max", held.GetSeconds() * 1e3);
    uint64_t timeouts = 0;
    uint64_t retransmitted = 0;
    for (auto& nic : m_cam.boardNics)
    {
        for (uint32_t q = 0; q < nic->GetNQueuePairs(); q++)
        {
            const RoceQueuePair::Counters& c = nic->GetQueuePairByIndex(q)->GetCounters();
            timeouts += c.timeouts;
            retransmitted += c.retransmittedPackets;
        }
    }
    study.AddMetric("board_timeouts", double(timeouts));
    study.AddMetric("board_retransmits", double(retransmitted));
    // the credits' and assignments' queue pairs wait for ACKs that a PAUSE may hold
    uint64_t controlTimeouts = 0;
    for (auto& kind : m_controlQps)
    {
        for (auto& qp : kind)
        {
            controlTimeouts += qp.first->GetCounters().timeouts;
        }
    }
    study.AddMetric("control_timeouts", double(controlTimeouts));
    uint64_t storms = 0;
    uint64_t watchdogDrops = 0;
    for (auto& sw : m_cam.GetSwitches())
    {
        storms += sw.sw->GetCounters().watchdogStorms;
        watchdogDrops += sw.sw->GetCounters().drops[FeroceSwitch::DROP_WATCHDOG];
    }
    study.AddMetric("watchdog_storms", double(storms));
    study.AddMetric("drops_watchdog", double(watchdogDrops));
}

void
AdvcamEventBuilding::AddIdentities(FeroceStudy& study)
{
    uint64_t built = m_ledger.GetBuilt();
    FeroceIdentities::Parts eventParts{{"events_built", built}};
    for (int cause = 0; cause < EVENT_LOSS_CAUSES; cause++)
    {
        eventParts.emplace_back(std::string("events_lost_") +
                                    EventLossCauseName(EventLossCause(cause)),
                                m_ledger.GetLost(EventLossCause(cause)));
    }
    eventParts.emplace_back("events_in_flight", m_ledger.GetInFlight());
    uint64_t builtAtReceivers = 0;
    for (auto& rx : m_rxApps)
    {
        builtAtReceivers += rx->GetEventsBuilt();
    }
    // the events in flight are each held somewhere: on a board, or partly at a receiver (all
    // its fragments delivered, to more than one receiver: the boards disagreed)
    BoardTotals t = CountBoards();
    for (auto& rx : m_rxApps)
    {
        for (uint64_t e : rx->GetPartialEventNumbers())
        {
            if (e < t.heldEvents.size())
            {
                t.heldEvents[e] = 1;
            }
        }
    }
    uint64_t inFlightFound = 0;
    for (uint64_t e : m_ledger.GetInFlightEvents())
    {
        inFlightFound += e < t.heldEvents.size() && t.heldEvents[e];
    }
    uint64_t fragmentsDead = m_ledger.GetFragmentsFailed(EVENT_LOST_RECEIVER_DEAD);
    uint64_t fragmentsRetries = m_ledger.GetFragmentsFailed(EVENT_LOST_RETRIES_EXHAUSTED);

    FeroceIdentities ids;
    ids.Add("events_generated", m_ledger.GetGenerated(), eventParts);
    ids.Add("events_built", built, {{"rx_events_built", builtAtReceivers}});
    ids.Add("events_in_flight", m_ledger.GetInFlight(), {{"events_in_flight_held", inFlightFound}});
    ids.Add("fragments_generated",
            t.generated,
            {{"fragments_delivered", t.completed},
             {"fragments_lost_board_buffer", t.lost},
             {"fragments_lost_receiver_dead", fragmentsDead},
             {"fragments_lost_retries_exhausted", fragmentsRetries},
             {"fragments_in_flight", t.held}});
    // every frame the receivers' links lost is counted at one of their two ends
    uint64_t linksLost = 0;
    for (auto& link : m_cam.rxLinks)
    {
        linksLost += link->GetFramesLost();
    }
    ids.Add("rx_links_frames_lost",
            linksLost,
            {{"drops_link_down", FeroceFrameLosses::Of(NodeContainer::GetGlobal()).linkDown}});
    // the boards' own counts of what failed, against the failures the ledger classified
    ids.Add("boards_fragments_failed",
            t.failed + t.dropped,
            {{"fragments_lost_receiver_dead", fragmentsDead},
             {"fragments_lost_retries_exhausted", fragmentsRetries}});
    std::ofstream idsTxt = study.OpenOutput("identities.txt");
    for (const std::string& line : ids.Describe())
    {
        idsTxt << line << "\n";
    }
    idsTxt.close();
    study.AddMetric("identity_violations", double(ids.GetViolations()));
    if (ids.GetViolations())
    {
        std::cerr << "advcam-eventbuilding: warning: " << ids.Check() << "\n";
    }
}

} // namespace ns3
