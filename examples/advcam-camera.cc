/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The whole AdvCam camera readout: --boards front-end boards on 10 Gb/s links,
// --boardsPerLeaf of them per leaf switch, each leaf with one --uplinkRate
// uplink to an aggregation switch, and --receivers event-building servers at
// --receiverRate on the aggregation switch.
//
//   boards --10G-- leaf 0 ..                          .. rx 0
//   boards --10G-- leaf 1 --100G-- aggregation --100G-- rx 1
//   ...                                               .. rx K-1
//
// Traffic is event building: on every camera trigger (--triggerInterval or
// --triggerRate, periodic or --poisson, common to all boards) each board stores an event
// fragment of --fragmentSize bytes in its on-board buffer (--boardBuffer; a
// fragment that does not fit is a lost event) and sends it by RDMA WRITE to
// the event's receiver: event n goes to receiver n mod K, every board to the
// same one.  Each board has one queue pair per receiver.
//
//   advcam-camera --boards=150 --duration=5ms --outdir=results/advcam-camera
//   advcam-camera --topology=camera.topo     (any fabric of boards, receivers and switches;
//                                             feroce-topo camera writes this one's)
//
// Writes into --outdir: goodput.csv (Gb/s per receiver per window and Jain's
// index across the receivers), boards.csv (per board: bytes delivered, rate,
// fragments generated and lost, on-board buffer peak), series.csv (per window:
// the most bytes queued toward each receiver and on each leaf's uplink, every
// switch's buffer, fragments and camera events lost so far, the boards'
// buffers, frames lost), switches.csv (queue maximum, PAUSE time and frames,
// ECN marks, drops per switch), receivers.csv and leaves.csv (what was built,
// lost and dropped per receiver and per leaf), pause.csv, metrics.txt (the
// whole run's and the steady state's); one row into --db.
//
// A camera event is lost when any board lost its fragment (camera_events_*);
// the per-fragment counts are fragments_* (events_generated and events_lost
// are the fragments' too: names kept from before camera events were counted).

#include "ns3/advcam-camera-apps.h"
#include "ns3/advcam-camera-fabric.h"
#include "ns3/advcam-event-tally.h"
#include "ns3/core-module.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-frame-losses.h"
#include "ns3/feroce-stats.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>

using namespace ns3;

namespace
{

void
SnapshotBoards(const AdvcamCameraApps* apps, std::vector<uint64_t>* out)
{
    for (uint32_t b = 0; b < out->size(); b++)
    {
        (*out)[b] = apps->GetBoardDelivered(b);
    }
}

std::string
Format(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

/// What boards.csv sums up.
struct BoardTotals
{
    uint64_t eventsLost{0};
    uint64_t eventsGenerated{0};
    uint64_t retransmits{0};
    uint64_t delivered{0}; ///< fragments acknowledged
    uint64_t failed{0};    ///< fragments whose request failed
    uint64_t inFlight{0};  ///< fragments still in the boards' buffers
};

/**
 * boards.csv (per board: leaf, bytes delivered, Gb/s over the run and after the warm-up, events
 * generated and lost, buffer peak, retransmissions), the offered load and the boards' fairness
 * (Jain's index of their rates after the warm-up).
 */
BoardTotals
WriteBoards(FeroceStudy& study,
            const AdvcamCameraFlags& f,
            const AdvcamCameraFabric& camera,
            const AdvcamCameraApps& a,
            const std::vector<uint64_t>& atWarmup,
            Time warmup)
{
    const std::vector<Ptr<RoceFrontEndApp>>& apps = a.boards;
    uint32_t boards = uint32_t(apps.size());
    Time duration = study.GetDuration();
    std::ofstream boardsCsv = study.OpenOutput("boards.csv");
    boardsCsv << "board,leaf,delivered_bytes,gbps,gbps_after_warmup,events_generated,"
                 "events_lost,buffer_peak_bytes,retransmits\n";
    std::vector<double> boardRates;
    BoardTotals t;
    double measured = (duration - warmup).GetSeconds();
    for (uint32_t b = 0; b < boards; b++)
    {
        uint64_t delivered = a.GetBoardDelivered(b);
        double after = double(delivered - atWarmup[b]) * 8 / measured / 1e9;
        uint64_t boardRetx = 0;
        for (auto& qp : a.boardQps[b])
        {
            boardRetx += qp->GetCounters().retransmittedPackets;
        }
        boardsCsv << b << "," << camera.boardLeaf[b] << "," << delivered << ","
                  << Format(double(delivered) * 8 / duration.GetSeconds() / 1e9) << ","
                  << Format(after) << "," << apps[b]->GetEventsGenerated() << ","
                  << apps[b]->GetEventsLost() << "," << apps[b]->GetBufferPeak() << "," << boardRetx
                  << "\n";
        boardRates.push_back(after);
        t.eventsLost += apps[b]->GetEventsLost();
        t.eventsGenerated += apps[b]->GetEventsGenerated();
        t.retransmits += boardRetx;
        t.delivered += apps[b]->GetMessagesCompleted();
        t.failed += apps[b]->GetMessagesFailed();
        t.inFlight += apps[b]->GetBufferBytes() / f.fragmentSize;
    }
    double offered =
        double(boards) * double(f.fragmentSize) * 8 / f.triggerInterval.GetSeconds() / 1e9;
    study.AddMetric("offered_gbps", offered);
    study.AddMetric("jain_boards",
                    boards >= 2 ? feroce_jain(boardRates.data(), boardRates.size()) : NAN);
    study.AddMetric("board_gbps_min", *std::min_element(boardRates.begin(), boardRates.end()));
    study.AddMetric("board_gbps_max", *std::max_element(boardRates.begin(), boardRates.end()));
    return t;
}

/**
 * receivers.csv (per receiver: Gb/s, camera events assigned, built and lost, frames lost at its
 * NIC) and leaves.csv (per leaf: boards, fragments generated and lost, the boards' buffer peak,
 * frames lost at the leaf and its boards).
 */
void
WritePlaces(FeroceStudy& study, const AdvcamCameraFabric& camera, const AdvcamCameraApps& a)
{
    const std::vector<Ptr<RoceFrontEndApp>>& apps = a.boards;
    const AdvcamEventTally& tally = *a.tally;
    double seconds = study.GetDuration().GetSeconds();
    std::ofstream rx = study.OpenOutput("receivers.csv");
    rx << "receiver,gbps,events_assigned,events_built,events_lost,drops\n";
    for (uint32_t k = 0; k < a.receivers.size(); k++)
    {
        rx << k << "," << Format(double(a.receivers[k]->GetBytesReceived()) * 8 / seconds / 1e9)
           << "," << tally.GetAssignedTo(k) << "," << tally.GetBuiltAt(k) << ","
           << tally.GetLostAt(k) << ","
           << FeroceFrameLosses::Of(NodeContainer(camera.rxNodes.Get(k))).Total() << "\n";
    }
    std::ofstream leaves = study.OpenOutput("leaves.csv");
    leaves << "leaf,boards,fragments_generated,fragments_lost,buffer_peak_bytes,drops\n";
    for (uint32_t l = 0; l < camera.leaves.size(); l++)
    {
        FeroceFrameLosses lost;
        lost.Add(camera.leaves[l]->GetObject<Node>());
        uint32_t boards = 0;
        uint64_t generated = 0;
        uint64_t fragmentsLost = 0;
        uint64_t peak = 0;
        for (uint32_t b = 0; b < apps.size(); b++)
        {
            if (camera.boardLeaf[b] != l)
            {
                continue;
            }
            boards++;
            lost.Add(camera.boardNodes.Get(b));
            generated += apps[b]->GetEventsGenerated();
            fragmentsLost += apps[b]->GetEventsLost();
            peak = std::max(peak, apps[b]->GetBufferPeak());
        }
        leaves << l << "," << boards << "," << generated << "," << fragmentsLost << "," << peak
               << "," << lost.Total() << "\n";
    }
}

/**
 * The counters' sums (results.md, "Metric names"), each part counted where it happens: frames
 * lost anywhere by place (drops, the caller's, is their sum), fragments and camera events by
 * outcome and cause.  A sum that does
 * not hold is a bug of the model: a warning, and identity_violations counts them.
 */
void
AddCounters(FeroceStudy& study,
            const BoardTotals& t,
            const AdvcamEventTally& tally,
            const FeroceFrameLosses& lost)
{
    uint32_t violations = 0;
    auto check = [&](const std::string& what, uint64_t total, uint64_t sum) {
        if (total != sum)
        {
            violations++;
            study.Warn("the counters do not add up (a bug): " + what + ": " +
                       std::to_string(total) + " != " + std::to_string(sum));
        }
    };
    for (const auto& part : lost.Parts())
    {
        study.AddMetric(part.first, double(part.second));
    }
    uint64_t fragmentsLost = t.eventsLost + t.failed;
    study.AddMetric("fragments_generated", double(t.eventsGenerated));
    study.AddMetric("fragments_delivered", double(t.delivered));
    study.AddMetric("fragments_lost", double(fragmentsLost));
    study.AddMetric("fragments_lost_board_buffer", double(t.eventsLost));
    study.AddMetric("fragments_lost_request_failed", double(t.failed));
    study.AddMetric("fragments_in_flight", double(t.inFlight));
    check("fragments_generated = delivered + lost + in flight",
          t.eventsGenerated,
          t.delivered + fragmentsLost + t.inFlight);
    study.AddMetric("camera_events_generated", double(tally.GetGenerated()));
    study.AddMetric("camera_events_built", double(tally.GetBuilt()));
    study.AddMetric("camera_events_lost", double(tally.GetLost()));
    uint64_t byCause = 0;
    for (int c = 0; c < AdvcamEventTally::CAUSES; c++)
    {
        auto cause = AdvcamEventTally::Cause(c);
        study.AddMetric(std::string("camera_events_lost_") + AdvcamEventTally::GetCauseName(cause),
                        double(tally.GetLost(cause)));
        byCause += tally.GetLost(cause);
    }
    study.AddMetric("camera_events_in_flight", double(tally.GetInFlight()));
    check("camera_events_generated = built + lost + in flight",
          tally.GetGenerated(),
          tally.GetBuilt() + byCause + tally.GetInFlight());
    study.AddMetric("identity_violations", double(violations));
}

} // namespace

int
main(int argc, char* argv[])
{
    AdvcamCameraFlags f;
    FeroceStudy study("advcam-camera",
                      "results/advcam-camera",
                      MilliSeconds(10),
                      MilliSeconds(1),
                      MilliSeconds(1));
    f.AddTo(study);
    std::string topology;
    study
        .AddFlag("topology",
                 "A topology file of boards, receivers and switches to run on instead of the "
                 "built-in fabric (feroce-topo camera writes it)",
                 topology)
        .InputFile();
    study.GetCommandLine().SetScenarioReader(
        [&]() { return topology.empty() ? "" : SetAdvcamCameraSizes(study, topology); });
    if (!study.Parse(argc, argv) || !f.triggerRate.Apply(study, f.triggerInterval))
    {
        return study.GetExitCode();
    }
    for (const char* flag : {"boards",
                             "boardsPerLeaf",
                             "receivers",
                             "boardRate",
                             "uplinkRate",
                             "receiverRate",
                             "linkDelay"})
    {
        if (!topology.empty() && study.IsGiven(flag))
        {
            return study.RejectFlag(flag, "not given with --topology (the fabric is the file's)");
        }
    }
    if (!topology.empty() &&
        study.GetCommandLine().GetSource("ns3::FeroceChannel::Delay") == FeroceSource::User)
    {
        return study.Reject("--ns3::FeroceChannel::Delay is not allowed with --topology: each "
                            "link's delay is the file's");
    }
    Time duration = study.GetDuration();
    f.fabric.SetHeadroomCheck(study);

    RoceHelper helper;
    AdvcamCameraFabric camera;
    std::string error;
    if (topology.empty())
    {
        camera = InstallAdvcamCameraFabric(helper,
                                           f.boards,
                                           f.boardsPerLeaf,
                                           f.receivers,
                                           f.boardRate,
                                           f.uplinkRate,
                                           f.receiverRate);
    }
    else
    {
        error = InstallAdvcamCameraFabric(study, helper, topology, &camera);
    }
    error = error.empty() ? camera.Validate() : error;
    if (!error.empty())
    {
        return study.Reject(error);
    }
    std::unique_ptr<AdvcamCameraApps> apps = InstallAdvcamCameraApps(helper, camera, duration);
    WatchAdvcamCamera(study, helper, camera, *apps);
    // per-board rates from the end of the warm-up on (the whole run when it is as long)
    std::vector<uint64_t> atWarmup(apps->boards.size(), 0);
    Time warmup = study.GetMeasureFrom();
    Simulator::Schedule(warmup, &SnapshotBoards, apps.get(), &atWarmup);
    study.EnablePcap(helper, "advcam-camera");
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    BoardTotals t = WriteBoards(study, f, camera, *apps, atWarmup, warmup);
    WritePlaces(study, camera, *apps);
    uint64_t cnps = 0;
    for (auto& nic : camera.rxNics)
    {
        cnps += nic->GetCounters().cnpsSent;
    }
    FeroceFrameLosses lost = FeroceFrameLosses::Of(NodeContainer::GetGlobal());
    study.AddMetric("drops", double(lost.Total())); // frames lost anywhere
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("retransmits", double(t.retransmits));
    study.AddMetric("events_generated", double(t.eventsGenerated));
    study.AddMetric("events_lost", double(t.eventsLost));
    AddCounters(study, t, *apps->tally, lost);
    Simulator::Destroy();
    return study.Finish();
}
