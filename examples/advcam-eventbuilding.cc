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
//   --assignment=board-rule     no assigner: the receivers announce their credits to every
//                               board, and every board applies one rule to what it has seen
//                               (--announceLead, --creditExpiry)
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

#include "ns3/advcam-eventbuilding.h"

#include "ns3/advcam-eventbuilding-flags.h"
#include "ns3/core-module.h"
#include "ns3/feroce-study.h"
#include "ns3/roce-helper.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    AdvcamEventBuildingFlags f; // the camera's, the policy's, the failures', PAUSE
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
    f.camera.fabric.SetHeadroomCheck(study);

    // the camera: boards, receivers that build events under the policy, the assigner
    RoceHelper helper;
    AdvcamEventBuilding camera(f);
    error = camera.Install(helper, study.GetDuration());
    if (!error.empty())
    {
        return study.Reject(error);
    }
    camera.Watch(study);
    study.EnablePcap(helper, "advcam-eventbuilding");
    // one receiver fails at --failAt and is back at --returnAt (or random failures)
    camera.ScheduleFailures(helper);
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    // what the failure cost: events built and lost by cause, and when the boards stopped
    // sending to the dead receiver; what the policy cost: control traffic, board buffers
    camera.AddEventMetrics(study);
    camera.AddReceiverMetrics(study);
    camera.AddFailureMetrics(study);
    camera.AddTrafficMetrics(study);
    // and what PAUSE held: the boards, the receivers (their ACKs and CNPs), the control messages
    camera.AddPauseMetrics(study);
    camera.AddIdentities(study);
    Simulator::Destroy();
    return study.Finish();
}
