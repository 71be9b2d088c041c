/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Event building in the AdvCam camera when a receiver fails: which assignment policy, how many
// receivers and how much buffer on the boards survive it?  The camera of advcam-camera (boards
// on leaf switches, an aggregation switch, --receivers event builders) with every event's fate
// followed: built at one receiver, or lost with one cause, or in flight at the end.
//
//   --assignment=static         event n to receiver n mod K (advcam-camera's rule)
//   --assignment=availability   an assigner on the aggregation switch names each event's
//                               receiver from the credits the receivers announce (SENDs over
//                               the fabric); a board holds an event until then
//   --failReceiver=1 --failAt=30ms --returnAt=60ms [--failMode=host|link]
//   --mtbf=50ms --mttr=10ms     random failures of every receiver instead
//   --slowReceiver=2            receiver 2 is a Soft-RoCE host (--slow* flags)
//   --pauseFrames=802.3x --pauseHonour=802.3x   the switches send link-level PAUSE, the NICs
//                               obey only that (the boards' MAC); --watchdog=10ms the switches'
//                               PFC watchdog
//
//   advcam-eventbuilding --assignment=availability --failReceiver=1 --failAt=30ms
//       --returnAt=60ms --duration=100ms --outdir=results/advcam-eventbuilding
//
// Writes into --outdir: events.csv (per window of trigger time: events generated, built, lost by
// cause, in flight, the building latency p50/p99/max, and the events each receiver built),
// receivers.csv, identities.txt (the counters that must add up), goodput.csv, series.csv,
// switches.csv, pause.csv and metrics.txt (as advcam-camera); one row into --db.
// src/feroce/doc/eventbuilding.md explains the model and answers the design question.

#include "ns3/advcam-camera-fabric.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/event-ledger.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-identities.h"
#include "ns3/feroce-stats.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-assigner-app.h"
#include "ns3/roce-connection-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-host-failures.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

// the applications' traces into the ledger (bound free functions: Callback::Bind needs 3.36)
void
OnTrigger(EventLedger* l, uint64_t e)
{
    l->Generated(e);
}

void
OnBoardLost(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_BOARD_BUFFER);
}

void
OnPosted(EventLedger* l, uint64_t e, uint32_t k)
{
    l->Posted(e, k);
}

void
OnFailed(EventLedger* l, RoceFrontEndApp* app, uint64_t e, uint32_t k)
{
    l->FragmentFailed(e, k, app->GetConnectedSince(k));
}

void
OnBuilt(EventLedger* l, uint32_t k, uint64_t e)
{
    l->Built(e, k);
}

void
OnTimedOut(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_PARTIAL_TIMEOUT);
}

void
OnCrashLost(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_RECEIVER_DEAD);
}

void
OnDropped(std::vector<Time>* dropped, uint32_t k)
{
    (*dropped)[k] = Simulator::Now();
}

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

/// The event building's, the failures' and the slow receiver's flags (the camera's are
/// AdvcamCameraFlags').
struct EventBuildingFlags
{
    AdvcamCameraFlags camera;
    std::string assignment{"static"};
    Time eventTimeout{MilliSeconds(1)};
    uint32_t eventSlots{4};
    uint32_t creditBatch{1};
    Time creditInterval{MicroSeconds(100)};
    Time receiverTimeout{MicroSeconds(500)};
    uint32_t block{1};
    int32_t failReceiver{-1};
    Time failAt{0};
    Time returnAt{0};
    std::string failMode{"host"};
    Time mtbf{0};
    Time mttr{0};
    Time reconnectDelay{MicroSeconds(100)};
    Time ackTimeout{MilliSeconds(1)};
    uint32_t retryCount{7};
    // a slow receiver: Soft-RoCE (advcam-receiver's calibration)
    int32_t slowReceiver{-1};
    Time slowPacketCost{NanoSeconds(3200)};
    DataRate slowByteRate{"10Gbps"};
    uint64_t slowBuffer{1 << 20};
    PauseFlags pause;

    bool Availability() const
    {
        return assignment == "availability";
    }

    void AddTo(FeroceStudy& study);
    /// The checks that need the duration or several flags: "" or the message.
    std::string Check(FeroceStudy& study) const;
};

/// "-1 (none) or a receiver 0..K-1", or "" when r is one.
std::string
CheckReceiver(int32_t r, uint32_t receivers)
{
    return r >= -1 && r < int32_t(receivers)
               ? std::string()
               : "-1 (none) or a receiver 0.." + std::to_string(receivers - 1);
}

void
EventBuildingFlags::AddTo(FeroceStudy& study)
{
    camera.AddTo(study);
    const uint32_t* k = &camera.receivers;
    study
        .AddFlag("assignment",
                 "Which receiver builds each event: static (n mod K) or availability (an "
                 "assigner, by the receivers' credits)",
                 assignment)
        .OneOf({"static", "availability"});
    study
        .AddFlag("eventTimeout",
                 "A receiver closes an event still incomplete this long after its first fragment",
                 eventTimeout)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Attribute("ns3::RoceReceiverApp::EventTimeout");
    study
        .AddFlag("eventSlots",
                 "availability: events a receiver takes at once (its credits)",
                 eventSlots)
        .Range(1, 1000000)
        .Owns("ns3::RoceReceiverApp::EventSlots");
    const uint32_t* slots = &eventSlots;
    study
        .AddFlag("creditBatch",
                 "availability: events a receiver closes before it sends a credit message",
                 creditBatch)
        .Check([slots](const uint32_t& b) {
            return b >= 1 && b <= *slots ? std::string()
                                         : "1..eventSlots = " + std::to_string(*slots);
        })
        .Owns("ns3::RoceReceiverApp::CreditBatch");
    study
        .AddFlag("creditInterval",
                 "availability: a receiver's credits are sent again at least this often",
                 creditInterval)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Owns("ns3::RoceReceiverApp::CreditInterval");
    study
        .AddFlag("receiverTimeout",
                 "availability: the assigner drops a receiver not heard for this long (0: only "
                 "missing credits)",
                 receiverTimeout)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; })
        .Owns("ns3::RoceAssignerApp::ReceiverTimeout");
    study
        .AddFlag("block",
                 "availability: consecutive events per assignment (one message per board)",
                 block)
        .Check([slots](const uint32_t& b) {
            return b >= 1 && b <= *slots ? std::string()
                                         : "1..eventSlots = " + std::to_string(*slots) +
                                               " (a receiver takes a whole block)";
        })
        .Owns("ns3::RoceAssignerApp::Block");
    study.AddFlag("failReceiver", "The receiver that fails (-1: none)", failReceiver)
        .Check([k](const int32_t& r) { return CheckReceiver(r, *k); });
    study.AddFlag("failAt", "When it fails", failAt);
    study.AddFlag("returnAt", "When it comes back (0: not in the run)", returnAt);
    study
        .AddFlag("failMode",
                 "host (the host crashes: link down, its state and queue pairs lost) or link "
                 "(only its link goes down)",
                 failMode)
        .OneOf({"host", "link"});
    study
        .AddFlag("mtbf",
                 "Random failures of every receiver: mean time between failures (0: none)",
                 mtbf)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; });
    study.AddFlag("mttr", "Random failures: mean time to repair", mttr).Check([](const Time& t) {
        return t.IsNegative() && !t.IsZero() ? "a time >= 0" : "";
    });
    study
        .AddFlag("reconnectDelay",
                 "A broken connection is re-established (new queue pairs) this long after both "
                 "ends are up",
                 reconnectDelay)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; });
    study.AddFlag("ackTimeout", "Queue pairs' retransmission timeout", ackTimeout)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Attribute("ns3::RoceQueuePair::AckTimeout");
    study.AddFlag("retryCount", "Timeouts without progress before a queue pair fails", retryCount)
        .Range(0, 7)
        .Attribute("ns3::RoceQueuePair::RetryCount");
    study.AddFlag("slowReceiver", "The receiver that is a Soft-RoCE host (-1: none)", slowReceiver)
        .Check([k](const int32_t& r) { return CheckReceiver(r, *k); });
    study.AddFlag("slowPacketCost", "Soft-RoCE: CPU time per data frame", slowPacketCost)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; })
        .Owns("ns3::RoceNic::RxPacketCost");
    study.AddFlag("slowByteRate", "Soft-RoCE: the CPU's per-byte cost as a rate", slowByteRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
        .Owns("ns3::RoceNic::RxProcessingRate");
    study.AddFlag("slowBuffer", "Soft-RoCE: receive buffer bytes (PFC from its NIC)", slowBuffer)
        .Range(1, 1ULL << 32)
        .Owns("ns3::RoceNic::RxBufferSize");
    pause.AddTo(study);
    // the receivers build events of one fragment per board; a board marks what it lost
    study.Owns("ns3::RoceReceiverApp::FragmentsPerEvent", "boards");
    study.Owns("ns3::RoceFrontEndApp::LostMarkers");
    study.Owns("ns3::RoceAssignerApp::TriggerInterval", "triggerInterval");
    study.Owns("ns3::RoceAssignerApp::Poisson", "poisson");
    study.Owns("ns3::RoceNic::ReceiverModel", "slowReceiver");
    study.Owns("ns3::RoceNic::RxPfc", "slowReceiver");
}

std::string
EventBuildingFlags::Check(FeroceStudy& study) const
{
    Time duration = study.GetDuration();
    if (!Availability())
    {
        // the credit flags mean nothing to the static rule: refused rather than ignored
        for (const char* f :
             {"eventSlots", "creditBatch", "creditInterval", "receiverTimeout", "block"})
        {
            if (study.IsGiven(f))
            {
                return std::string("--") + f +
                       " is not allowed with --assignment=static: expected "
                       "--assignment=availability (credits are its)";
            }
        }
    }
    if (failReceiver >= 0)
    {
        if (failAt.IsStrictlyNegative() || failAt >= duration)
        {
            return "--failAt=" + study.GetCommandLine().GetText("failAt") +
                   " is not allowed: expected a time in [0, duration = " +
                   std::to_string(duration.GetMilliSeconds()) + "ms)";
        }
        if (!returnAt.IsZero() && returnAt <= failAt)
        {
            return "--returnAt=" + study.GetCommandLine().GetText("returnAt") +
                   " is not allowed: expected a time after --failAt = " +
                   std::to_string(failAt.GetMicroSeconds()) + "us, or 0 (not back in the run)";
        }
    }
    else if (study.IsGiven("failAt") || study.IsGiven("returnAt"))
    {
        return "--failAt and --returnAt are not allowed without --failReceiver: expected "
               "--failReceiver=K (0.." +
               std::to_string(camera.receivers - 1) + ")";
    }
    if (mtbf.IsStrictlyPositive() != mttr.IsStrictlyPositive())
    {
        bool m = mtbf.IsStrictlyPositive();
        return std::string("--") + (m ? "mttr" : "mtbf") +
               "=0 is not allowed: expected a time > 0 with --" + (m ? "mtbf" : "mttr");
    }
    if (mtbf.IsStrictlyPositive() && failReceiver >= 0)
    {
        return "--mtbf is not allowed with --failReceiver: expected one of a set failure or "
               "random ones";
    }
    std::string pauseError = pause.Check(study, camera.fabric.pfcHonour);
    if (!pauseError.empty())
    {
        return pauseError;
    }
    if (slowReceiver < 0)
    {
        for (const char* f : {"slowPacketCost", "slowByteRate", "slowBuffer"})
        {
            if (study.IsGiven(f))
            {
                return std::string("--") + f +
                       " is not allowed without --slowReceiver: expected --slowReceiver=K";
            }
        }
    }
    return "";
}

int
main(int argc, char* argv[])
{
    EventBuildingFlags f;
    FeroceStudy study("advcam-eventbuilding",
                      "results/advcam-eventbuilding",
                      MilliSeconds(10),
                      MilliSeconds(1),
                      MilliSeconds(1));
    f.AddTo(study);
    if (!study.Parse(argc, argv) || !f.camera.triggerRate.Apply(study, f.camera.triggerInterval))
    {
        return study.GetExitCode();
    }
    std::string error = f.Check(study);
    if (!error.empty())
    {
        return study.Reject(error);
    }
    Time duration = study.GetDuration();
    const AdvcamCameraFlags& c = f.camera;
    uint32_t boards = c.boards;
    uint32_t receivers = c.receivers;
    bool availability = f.Availability();
    f.camera.fabric.SetHeadroomCheck(study);

    RoceHelper helper;
    AdvcamCameraFabric cam = InstallAdvcamCameraFabric(helper,
                                                       boards,
                                                       c.boardsPerLeaf,
                                                       receivers,
                                                       c.boardRate,
                                                       c.uplinkRate,
                                                       c.receiverRate,
                                                       availability);
    if (f.slowReceiver >= 0)
    {
        Ptr<RoceNic> slow = cam.rxNics[f.slowReceiver];
        slow->SetAttribute("ReceiverModel", StringValue("software"));
        slow->SetAttribute("RxPacketCost", TimeValue(f.slowPacketCost));
        slow->SetAttribute("RxProcessingRate", DataRateValue(f.slowByteRate));
        slow->SetAttribute("RxBufferSize", UintegerValue(f.slowBuffer));
        slow->SetAttribute("RxPfc", BooleanValue(true));
    }
    error = cam.Validate();
    if (!error.empty())
    {
        return study.Reject(error);
    }

    // the receivers build events of one fragment per board
    std::vector<Ptr<RoceReceiverApp>> rxApps;
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
        rx->SetAttribute("FragmentsPerEvent", UintegerValue(boards));
        if (availability)
        {
            rx->SetAttribute("EventSlots", UintegerValue(f.eventSlots));
            rx->SetAttribute("CreditBatch", UintegerValue(f.creditBatch));
            rx->SetAttribute("CreditInterval", TimeValue(f.creditInterval));
        }
        error = rx->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
        cam.rxNodes.Get(k)->AddApplication(rx);
        rxApps.push_back(rx);
    }
    std::vector<Ptr<RoceFrontEndApp>> apps;
    for (uint32_t b = 0; b < boards; b++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("Mode", StringValue("trigger"));
        app->SetAttribute("WithImmediate", BooleanValue(true)); // the event number
        app->SetAttribute("LostMarkers", BooleanValue(true));
        app->SetAttribute("Assignment", StringValue(f.assignment));
        apps.push_back(app);
    }

    // connections, in advcam-camera's order (receiver k's i-th queue pair is board i's); the
    // assigner's after them, so that the static rule's queue pairs and streams are the camera's
    RoceConnectionManager manager(f.reconnectDelay);
    // the control connections, replaced ones too: [0] credits (receiver -> assigner) and
    // [1] assignments (assigner -> board), each a list of (requester, responder)
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> controlQps[2];
    for (uint32_t b = 0; b < boards; b++)
    {
        for (uint32_t k = 0; k < receivers; k++)
        {
            Ptr<RoceFrontEndApp> app = apps[b];
            Ptr<RoceReceiverApp> rx = rxApps[k];
            auto qp =
                manager.Connect(cam.boardNics[b],
                                cam.rxNics[k],
                                [app, rx, b, k](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                                    app->ReplaceQueuePair(k, qa);
                                    rx->ReplaceQueuePair(b, qb);
                                });
            app->AddQueuePair(qp.first);
            rx->AddQueuePair(qp.second);
        }
        cam.boardNodes.Get(b)->AddApplication(apps[b]);
        apps[b]->SetStartTime(Time(0));
        apps[b]->SetStopTime(duration);
    }
    Ptr<RoceAssignerApp> assigner;
    if (availability)
    {
        assigner = CreateObject<RoceAssignerApp>();
        assigner->SetAttribute("TriggerInterval", TimeValue(c.triggerInterval));
        assigner->SetAttribute("Poisson", BooleanValue(c.poisson));
        assigner->SetAttribute("Block", UintegerValue(f.block));
        assigner->SetAttribute("ReceiverTimeout", TimeValue(f.receiverTimeout));
        for (uint32_t k = 0; k < receivers; k++)
        {
            Ptr<RoceReceiverApp> rx = rxApps[k];
            auto qp = manager.Connect(
                cam.rxNics[k],
                cam.assignerNic,
                [rx, assigner, k, &controlQps](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                    controlQps[0].emplace_back(qa, qb);
                    assigner->ReplaceReceiver(k, qb);
                    rx->SetCreditQueuePair(qa);
                });
            rx->SetCreditQueuePair(qp.first);
            assigner->AddReceiver(qp.second);
            controlQps[0].push_back(qp);
        }
        for (uint32_t b = 0; b < boards; b++)
        {
            Ptr<RoceFrontEndApp> app = apps[b];
            auto qp = manager.Connect(
                cam.assignerNic,
                cam.boardNics[b],
                [app, assigner, b, &controlQps](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                    controlQps[1].emplace_back(qa, qb);
                    assigner->ReplaceBoard(b, qa);
                    app->SetAssignmentQueuePair(qb);
                });
            assigner->AddBoard(qp.first);
            app->SetAssignmentQueuePair(qp.second);
            controlQps[1].push_back(qp);
        }
        error = assigner->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
        cam.assignerNic->GetNode()->AddApplication(assigner);
        assigner->SetStartTime(Time(0));
        assigner->SetStopTime(duration);
    }

    // failures of the receivers
    RoceHostFailures failures(&manager, f.failMode);
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = rxApps[k];
        failures.AddHost(cam.rxNics[k], cam.rxLinks[k], [rx](bool up) {
            if (up)
            {
                rx->Restart();
            }
            else
            {
                rx->Fail();
            }
        });
    }

    // every event's fate
    EventLedger ledger(&failures);
    apps[0]->TraceConnectWithoutContext("Trigger", MakeBoundCallback(&OnTrigger, &ledger));
    for (auto& app : apps)
    {
        app->TraceConnectWithoutContext("EventLost", MakeBoundCallback(&OnBoardLost, &ledger));
        app->TraceConnectWithoutContext("FragmentPosted", MakeBoundCallback(&OnPosted, &ledger));
        app->TraceConnectWithoutContext("FragmentFailed",
                                        MakeBoundCallback(&OnFailed, &ledger, PeekPointer(app)));
    }
    for (uint32_t k = 0; k < receivers; k++)
    {
        rxApps[k]->TraceConnectWithoutContext("EventBuilt",
                                              MakeBoundCallback(&OnBuilt, &ledger, k));
        rxApps[k]->TraceConnectWithoutContext("EventTimedOut",
                                              MakeBoundCallback(&OnTimedOut, &ledger));
        rxApps[k]->TraceConnectWithoutContext("EventLost",
                                              MakeBoundCallback(&OnCrashLost, &ledger));
        rxApps[k]->TraceConnectWithoutContext("EventIncomplete",
                                              MakeBoundCallback(&OnBoardLost, &ledger));
    }
    std::vector<Time> droppedAt(receivers, Time::Max());
    if (assigner)
    {
        assigner->TraceConnectWithoutContext("ReceiverDropped",
                                             MakeBoundCallback(&OnDropped, &droppedAt));
    }

    // advcam-camera's flows, queues and gauge
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = rxApps[k];
        study.AddFlow(
            "rx" + std::to_string(k),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            duration);
    }
    study.WatchSwitches(cam.GetSwitches(), cam.GetQueues());
    study.AddGauge("events_lost", [&apps]() {
        uint64_t lost = 0;
        for (auto& a : apps)
        {
            lost += a->GetEventsLost();
        }
        return double(lost);
    });
    // and where events wait: the fullest board buffer, the most events a board holds for an
    // assignment, the blocks waiting for credit, each receiver's partial events
    study.AddGauge("board_buffer_max_bytes", [&apps]() {
        uint64_t most = 0;
        for (auto& a : apps)
        {
            most = std::max(most, a->GetBufferBytes());
        }
        return double(most);
    });
    study.AddGauge("board_unassigned_max", [&apps]() {
        std::size_t most = 0;
        for (auto& a : apps)
        {
            most = std::max(most, a->GetUnassigned());
        }
        return double(most);
    });
    if (assigner)
    {
        study.AddGauge("assigner_pending_blocks",
                       [assigner]() { return double(assigner->GetPendingBlocks()); });
    }
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = rxApps[k];
        study.AddGauge("rx" + std::to_string(k) + "_events_partial",
                       [rx]() { return double(rx->GetPartialEvents()); });
    }
    study.EnablePcap(helper, "advcam-eventbuilding");

    // one trigger for the whole camera (and the assigner); the failures' streams after all
    int64_t trigger = 1 + helper.AssignStreams(1);
    for (Ptr<RoceFrontEndApp> app : apps)
    {
        app->AssignStreams(trigger);
    }
    if (assigner)
    {
        assigner->AssignStreams(trigger);
    }
    failures.AssignStreams(trigger + 1);
    if (f.failReceiver >= 0)
    {
        failures.Schedule(uint32_t(f.failReceiver),
                          f.failAt,
                          f.returnAt.IsZero() ? Time::Max() : f.returnAt);
    }
    else if (f.mtbf.IsStrictlyPositive())
    {
        failures.Random(f.mtbf, f.mttr, duration);
    }
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    // the events: counts by fate, latency, per receiver
    std::ofstream eventsCsv = study.OpenOutput("events.csv");
    ledger.WriteCsv(eventsCsv, study.GetWindow(), receivers);
    eventsCsv.close();
    uint64_t generated = ledger.GetGenerated();
    uint64_t built = ledger.GetBuilt();
    study.AddMetric("offered_gbps",
                    double(boards) * double(c.fragmentSize) * 8 / c.triggerInterval.GetSeconds() /
                        1e9);
    study.AddMetric("events_generated", double(generated));
    study.AddMetric("events_built", double(built));
    study.AddMetric("events_lost", double(ledger.GetLost()));
    FeroceIdentities::Parts eventParts{{"events_built", built}};
    for (int c = 0; c < EVENT_LOSS_CAUSES; c++)
    {
        std::string name = std::string("events_lost_") + EventLossCauseName(EventLossCause(c));
        uint64_t n = ledger.GetLost(EventLossCause(c));
        study.AddMetric(name, double(n));
        eventParts.emplace_back(name, n);
    }
    eventParts.emplace_back("events_in_flight", ledger.GetInFlight());
    study.AddMetric("events_in_flight", double(ledger.GetInFlight()));
    std::vector<double> latency = ledger.GetLatenciesUs();
    feroce_summary lat;
    feroce_summarize(latency.data(), latency.size(), &lat);
    study.AddMetric("build_latency_p50_us", lat.p50);
    study.AddMetric("build_latency_p99_us", lat.p99);
    study.AddMetric("build_latency_max_us", lat.max);

    // what the boards and receivers count on their own, for the identities
    uint64_t fragmentsGenerated = 0;
    uint64_t fragmentsLost = 0;
    uint64_t fragmentsCompleted = 0;
    uint64_t fragmentsFailed = 0;
    uint64_t fragmentsDropped = 0;
    uint64_t fragmentsHeld = 0;
    std::vector<uint8_t> held(generated, 0);
    for (auto& app : apps)
    {
        fragmentsGenerated += app->GetEventsGenerated();
        fragmentsLost += app->GetEventsLost();
        fragmentsCompleted += app->GetMessagesCompleted();
        fragmentsFailed += app->GetMessagesFailed();
        fragmentsDropped += app->GetFragmentsDropped();
        for (uint64_t e : app->GetHeldEvents())
        {
            fragmentsHeld++;
            if (e < held.size())
            {
                held[e] = 1;
            }
        }
    }
    uint64_t builtAtReceivers = 0;
    std::ofstream rxCsv = study.OpenOutput("receivers.csv");
    rxCsv << "receiver,events_built,events_timed_out,events_incomplete,events_lost_in_crash,"
             "fragments_late,"
             "events_partial_at_end,events_built_fraction,events_assigned,credit_messages,"
             "last_post_s\n";
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = rxApps[k];
        builtAtReceivers += rx->GetEventsBuilt();
        double share = built ? double(ledger.GetBuiltAt(k)) / double(built) : NAN;
        study.AddMetric("rx" + std::to_string(k) + "_events_built", double(ledger.GetBuiltAt(k)));
        study.AddMetric("rx" + std::to_string(k) + "_events_built_fraction", share);
        rxCsv << k << "," << rx->GetEventsBuilt() << "," << rx->GetEventsTimedOut() << ","
              << rx->GetEventsIncomplete() << "," << rx->GetEventsCrashed() << ","
              << rx->GetLateFragments() << "," << rx->GetPartialEvents() << "," << share << ","
              << (assigner ? assigner->GetAssigned(k) : 0) << "," << rx->GetCreditMessages() << ","
              << ledger.GetLastPost(k).GetSeconds() << "\n";
    }
    rxCsv.close();
    // the events in flight are each held somewhere: on a board, or partly at a receiver
    uint64_t inFlightFound = 0;
    std::vector<uint64_t> inFlight = ledger.GetInFlightEvents();
    for (uint64_t e : inFlight)
    {
        inFlightFound += e < held.size() && held[e];
    }

    // the failure: when the assigner (or the boards' queue pairs) stopped sending to it
    if (f.failReceiver >= 0)
    {
        uint32_t k = uint32_t(f.failReceiver);
        Time failAt = f.failAt;
        Time back = f.returnAt.IsZero() ? duration : f.returnAt;
        Time last = ledger.GetLastPost(k, failAt, back);
        study.AddMetric("failure_last_post_ms",
                        last.IsNegative() ? 0 : (last - failAt).GetSeconds() * 1e3);
        if (assigner)
        {
            Time detect = droppedAt[k];
            bool detected = detect >= failAt && detect < back;
            study.AddMetric("failure_detect_ms",
                            detected ? (detect - failAt).GetSeconds() * 1e3 : NAN);
            // no event triggered after its failure was detected went to it
            study.AddMetric("posts_after_detection",
                            detected ? double(ledger.CountPostsTriggeredAfter(k, detect, back))
                                     : NAN);
        }
    }

    // control traffic: the credit and assignment messages (credits carry no payload, an
    // assignment a byte per event) and their ACKs, against every frame the NICs sent
    uint64_t controlBytes = 0;
    uint64_t controlMessages = 0;
    for (int kind = 0; kind < 2; kind++)
    {
        for (auto& qp : controlQps[kind])
        {
            uint64_t sent = qp.first->GetCounters().dataPacketsSent;
            controlMessages += sent;
            controlBytes += sent * SendImmFrameBytes(kind == 0 ? 0 : f.block) +
                            qp.second->GetCounters().acksSent * AckFrameBytes();
        }
    }
    uint64_t allBytes = 0;
    for (auto* nics : {&cam.boardNics, &cam.rxNics})
    {
        for (auto& nic : *nics)
        {
            allBytes += nic->GetTxBytes();
        }
    }
    if (assigner)
    {
        allBytes += cam.assignerNic->GetTxBytes();
    }
    study.AddMetric("control_messages", double(controlMessages));
    study.AddMetric("control_fraction", allBytes ? double(controlBytes) / double(allBytes) : 0);

    uint64_t qpErrors = 0;
    for (auto* nics : {&cam.boardNics, &cam.rxNics})
    {
        for (auto& nic : *nics)
        {
            qpErrors += nic->GetCounters().qpErrors;
        }
    }
    study.AddMetric("qp_errors", double(qpErrors));
    study.AddMetric("reconnections", double(manager.GetReconnections()));
    study.AddMetric("fragments_generated", double(fragmentsGenerated));
    study.AddMetric("fragments_delivered", double(fragmentsCompleted));
    study.AddMetric("fragments_lost_board_buffer", double(fragmentsLost));
    study.AddMetric("fragments_lost_receiver_dead",
                    double(ledger.GetFragmentsFailed(EVENT_LOST_RECEIVER_DEAD)));
    study.AddMetric("fragments_lost_retries_exhausted",
                    double(ledger.GetFragmentsFailed(EVENT_LOST_RETRIES_EXHAUSTED)));
    study.AddMetric("fragments_in_flight", double(fragmentsHeld));
    uint64_t bufferPeak = 0;
    for (auto& app : apps)
    {
        bufferPeak = std::max(bufferPeak, app->GetBufferPeak());
    }
    study.AddMetric("board_buffer_max_bytes", double(bufferPeak));
    if (assigner)
    {
        study.AddMetric("assigner_pending_max", double(assigner->GetPendingPeak()));
    }

    // the counters that must add up
    FeroceIdentities ids;
    ids.Add("events_generated", generated, eventParts);
    ids.Add("events_built", built, {{"rx_events_built", builtAtReceivers}});
    ids.Add("events_in_flight", ledger.GetInFlight(), {{"events_in_flight_held", inFlightFound}});
    uint64_t fragmentsDead = ledger.GetFragmentsFailed(EVENT_LOST_RECEIVER_DEAD);
    uint64_t fragmentsRetries = ledger.GetFragmentsFailed(EVENT_LOST_RETRIES_EXHAUSTED);
    ids.Add("fragments_generated",
            fragmentsGenerated,
            {{"fragments_delivered", fragmentsCompleted},
             {"fragments_lost_board_buffer", fragmentsLost},
             {"fragments_lost_receiver_dead", fragmentsDead},
             {"fragments_lost_retries_exhausted", fragmentsRetries},
             {"fragments_in_flight", fragmentsHeld}});
    // the boards' own counts of what failed, against the failures the ledger classified
    ids.Add("boards_fragments_failed",
            fragmentsFailed + fragmentsDropped,
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
    Simulator::Destroy();
    return study.Finish();
}
