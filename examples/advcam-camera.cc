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
// Traffic is event building: on every camera trigger (--triggerInterval,
// periodic or --poisson, common to all boards) each board stores an event
// fragment of --fragmentSize bytes in its on-board buffer (--boardBuffer; a
// fragment that does not fit is a lost event) and sends it by RDMA WRITE to
// the event's receiver: event n goes to receiver n mod K, every board to the
// same one.  Each board has one queue pair per receiver.
//
//   advcam-camera --boards=150 --duration=5ms --outdir=results/advcam-camera
//
// Writes into --outdir: goodput.csv (Gb/s per receiver per window and Jain's
// index across the receivers), boards.csv (per board: bytes delivered, rate,
// events generated and lost, on-board buffer peak), series.csv (per window:
// the most bytes queued toward each receiver and on each leaf's uplink, every
// switch's buffer), switches.csv (queue maximum, PAUSE time and frames, ECN
// marks, drops per switch), pause.csv, metrics.txt; one row into --db.

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-stats.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// The bytes the receivers got from one board (its queue pair on each of them).
uint64_t
BoardDelivered(const std::vector<Ptr<RoceReceiverApp>>& rx, uint32_t board)
{
    uint64_t bytes = 0;
    for (const auto& r : rx)
    {
        bytes += r->GetBytesReceived(board);
    }
    return bytes;
}

void
SnapshotBoards(const std::vector<Ptr<RoceReceiverApp>>* rx, std::vector<uint64_t>* out)
{
    for (uint32_t b = 0; b < out->size(); b++)
    {
        (*out)[b] = BoardDelivered(*rx, b);
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

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t boards = 150;
    uint32_t boardsPerLeaf = 24;
    uint32_t receivers = 4;
    DataRate boardRate("10Gbps");
    DataRate uplinkRate("100Gbps");
    DataRate receiverRate("100Gbps");
    Time linkDelay = MicroSeconds(1);
    uint64_t fragmentSize = 4096;
    Time triggerInterval = MicroSeconds(16);
    bool poisson = false;
    uint64_t boardBuffer = 1 << 20;
    uint32_t maxOutstanding = 4;
    uint32_t pmtu = 4096;
    bool dcqcn = true;
    std::string preset = "paper";
    bool pfc = true;
    bool ecn = true;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    uint64_t bufferSize = 12000000;

    FeroceStudy study("advcam-camera",
                      "results/advcam-camera",
                      MilliSeconds(10),
                      MilliSeconds(1),
                      MilliSeconds(1));
    study.AddFlag("boards", "Front-end boards (1..2000)", boards);
    study.AddFlag("boardsPerLeaf", "Boards per leaf switch (1..256)", boardsPerLeaf);
    study.AddFlag("receivers",
                  "Event-building receivers on the aggregation switch (1..64)",
                  receivers);
    study.AddFlag("boardRate", "Link rate of a board", boardRate);
    study.AddFlag("uplinkRate",
                  "Link rate of a leaf's uplink to the aggregation switch",
                  uplinkRate);
    study.AddFlag("receiverRate", "Link rate of a receiver", receiverRate);
    study.AddFlag("linkDelay",
                  "Propagation delay of each link",
                  linkDelay,
                  "ns3::FeroceChannel::Delay");
    study.AddFlag("fragmentSize",
                  "Bytes of one board's fragment of an event",
                  fragmentSize,
                  "ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("triggerInterval",
                  "Time between camera triggers (the mean if Poisson)",
                  triggerInterval,
                  "ns3::RoceFrontEndApp::TriggerInterval");
    study.AddFlag("poisson",
                  "Triggers at exponential gaps (common to all boards)",
                  poisson,
                  "ns3::RoceFrontEndApp::Poisson");
    study.AddFlag("boardBuffer",
                  "On-board buffer bytes; a fragment that does not fit is a lost event",
                  boardBuffer,
                  "ns3::RoceFrontEndApp::BufferSize");
    study.AddFlag("maxOutstanding",
                  "Fragments posted and unacknowledged per queue pair",
                  maxOutstanding,
                  "ns3::RoceFrontEndApp::MaxOutstanding");
    study.AddFlag("pmtu",
                  "Path MTU: 256, 512, 1024, 2048 or 4096",
                  pmtu,
                  "ns3::RoceQueuePair::Pmtu");
    study.AddFlag("dcqcn", "DCQCN on the boards' NICs", dcqcn, "ns3::RoceNic::DcqcnEnabled");
    study.AddFlag("preset",
                  "DCQCN preset: paper, connectx or hpcc",
                  preset,
                  "ns3::RoceNic::DcqcnPreset");
    study.AddFlag("pfc", "PFC on the switches", pfc, "ns3::FeroceSwitch::PfcEnabled");
    study.AddFlag("ecn", "ECN marking on the switches", ecn, "ns3::FeroceSwitch::EcnEnabled");
    study.AddFlag("kmin", "ECN Kmin bytes (every switch)", kmin, "ns3::FeroceSwitch::Kmin");
    study.AddFlag("kmax", "ECN Kmax bytes (every switch)", kmax, "ns3::FeroceSwitch::Kmax");
    study.AddFlag("pmax", "ECN Pmax (every switch)", pmax, "ns3::FeroceSwitch::Pmax");
    study.AddFlag("bufferSize",
                  "Buffer bytes of each switch",
                  bufferSize,
                  "ns3::FeroceSwitch::BufferSize");
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    Time duration = study.GetDuration();

    if (boards < 1 || boards > 2000)
    {
        return study.Reject("boards = " + std::to_string(boards) +
                            " is not allowed: expected 1..2000");
    }
    if (boardsPerLeaf < 1 || boardsPerLeaf > 256)
    {
        return study.Reject("boardsPerLeaf = " + std::to_string(boardsPerLeaf) +
                            " is not allowed: expected 1..256");
    }
    if (receivers < 1 || receivers > 64)
    {
        return study.Reject("receivers = " + std::to_string(receivers) +
                            " is not allowed: expected 1..64");
    }
    for (auto r : {std::make_pair("boardRate", boardRate),
                   std::make_pair("uplinkRate", uplinkRate),
                   std::make_pair("receiverRate", receiverRate)})
    {
        if (r.second.GetBitRate() < 1000000 || r.second.GetBitRate() > 1000000000000ULL)
        {
            return study.Reject(std::string(r.first) + " = " +
                                std::to_string(r.second.GetBitRate()) +
                                "bps is not allowed: expected 1Mbps..1Tbps");
        }
    }
    if (linkDelay.IsStrictlyNegative())
    {
        return study.Reject("linkDelay = " + std::to_string(linkDelay.GetNanoSeconds()) +
                            "ns is not allowed: expected >= 0");
    }
    if (fragmentSize < 1 || fragmentSize > (1ULL << 31))
    {
        return study.Reject("fragmentSize = " + std::to_string(fragmentSize) +
                            " is not allowed: expected 1..2147483648 bytes");
    }
    if (triggerInterval < NanoSeconds(1))
    {
        return study.Reject(
            "triggerInterval = " + std::to_string(triggerInterval.GetNanoSeconds()) +
            "ns is not allowed: expected >= 1ns");
    }
    if (boardBuffer < fragmentSize)
    {
        return study.Reject("boardBuffer = " + std::to_string(boardBuffer) +
                            " is not allowed: expected >= fragmentSize = " +
                            std::to_string(fragmentSize) + " (one fragment)");
    }
    if (maxOutstanding < 1 || maxOutstanding > 256)
    {
        return study.Reject("maxOutstanding = " + std::to_string(maxOutstanding) +
                            " is not allowed: expected 1..256 (the send queue's depth)");
    }
    if (preset != "paper" && preset != "connectx" && preset != "hpcc")
    {
        return study.Reject("preset = " + preset +
                            " is not allowed: expected paper, connectx or hpcc");
    }
    uint32_t leaves = (boards + boardsPerLeaf - 1) / boardsPerLeaf;

    RoceHelper helper;
    helper.SetChannelAttribute("Delay", TimeValue(linkDelay));
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(dcqcn));
    helper.SetDeviceAttribute("DcqcnPreset", StringValue(preset));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    helper.SetSwitchAttribute("BufferSize", UintegerValue(bufferSize));
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    helper.SetSwitchAttribute("Kmin", UintegerValue(kmin));
    helper.SetSwitchAttribute("Kmax", UintegerValue(kmax));
    helper.SetSwitchAttribute("Pmax", DoubleValue(pmax));

    // nodes 0..B-1 the boards, B..B+K-1 the receivers, then the leaves and the aggregation
    NodeContainer boardNodes;
    boardNodes.Create(boards);
    NodeContainer rxNodes;
    rxNodes.Create(receivers);
    NodeContainer leafNodes;
    leafNodes.Create(leaves);
    Ptr<Node> aggNode = CreateObject<Node>();

    std::vector<FeroceStudy::WatchedSwitch> switches(leaves + 1);
    Ptr<FeroceSwitch> agg = helper.InstallSwitch(aggNode);
    std::vector<Ptr<RoceNic>> boardNics;
    helper.SetDeviceAttribute("DataRate", DataRateValue(boardRate));
    for (uint32_t l = 0; l < leaves; l++)
    {
        // leaf ports: its boards, then the uplink; aggregation ports: the leaves, then receivers
        Ptr<FeroceSwitch> leaf = helper.InstallSwitch(leafNodes.Get(l));
        for (uint32_t b = l * boardsPerLeaf; b < std::min(boards, (l + 1) * boardsPerLeaf); b++)
        {
            boardNics.push_back(helper.AttachHost(leaf, boardNodes.Get(b)));
        }
        helper.LinkSwitches(leaf, agg, uplinkRate);
        switches[l].name = "leaf" + std::to_string(l);
        switches[l].sw = leaf;
    }
    switches[leaves].name = "agg";
    switches[leaves].sw = agg;
    std::vector<Ptr<RoceNic>> rxNics;
    helper.SetDeviceAttribute("DataRate", DataRateValue(receiverRate));
    for (uint32_t k = 0; k < receivers; k++)
    {
        rxNics.push_back(helper.AttachHost(agg, rxNodes.Get(k)));
    }
    helper.PopulateRoutes();

    for (auto& nic : boardNics)
    {
        std::string error = nic->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    for (auto& nic : rxNics)
    {
        std::string error = nic->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    for (uint32_t s = 0; s < switches.size(); s++)
    {
        std::string error = switches[s].sw->Validate();
        if (!error.empty())
        {
            return study.Reject(switches[s].name + ": " + error);
        }
    }

    std::vector<Ptr<RoceReceiverApp>> rxApps;
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
        rxNodes.Get(k)->AddApplication(rx);
        rxApps.push_back(rx);
    }
    std::vector<Ptr<RoceFrontEndApp>> apps;
    std::vector<std::vector<Ptr<RoceQueuePair>>> boardQps(boards);
    for (uint32_t b = 0; b < boards; b++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("Mode", StringValue("trigger"));
        app->SetAttribute("MessageSize", UintegerValue(fragmentSize));
        app->SetAttribute("TriggerInterval", TimeValue(triggerInterval));
        app->SetAttribute("Poisson", BooleanValue(poisson));
        app->SetAttribute("BufferSize", UintegerValue(boardBuffer));
        app->SetAttribute("MaxOutstanding", UintegerValue(maxOutstanding));
        app->SetAttribute("WithImmediate", BooleanValue(true)); // the event number
        for (uint32_t k = 0; k < receivers; k++)
        {
            // receiver k's i-th queue pair is board i's
            auto qp = helper.ConnectQueuePairs(boardNics[b], rxNics[k]);
            app->AddQueuePair(qp.first);
            rxApps[k]->AddQueuePair(qp.second);
            boardQps[b].push_back(qp.first);
        }
        boardNodes.Get(b)->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(duration);
        apps.push_back(app);
    }

    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = rxApps[k];
        study.AddFlow(
            "rx" + std::to_string(k),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            duration);
    }
    // series: the queues where the camera's traffic meets, most bytes per window, and every
    // switch's buffer; after the run switches.csv, pause.csv and the switches' metrics
    std::vector<FeroceStudy::WatchedQueue> queues;
    for (uint32_t k = 0; k < receivers; k++)
    {
        queues.push_back({"agg_to_rx" + std::to_string(k) + "_queue_bytes", leaves, leaves + k});
    }
    for (uint32_t l = 0; l < leaves; l++)
    {
        queues.push_back({"leaf" + std::to_string(l) + "_uplink_queue_bytes",
                          l,
                          switches[l].sw->GetNPorts() - 1});
    }
    study.WatchSwitches(switches, queues);
    study.AddGauge("events_lost", [&apps]() {
        uint64_t lost = 0;
        for (auto& a : apps)
        {
            lost += a->GetEventsLost();
        }
        return double(lost);
    });
    // per-board rates from the end of the warm-up on
    std::vector<uint64_t> atWarmup(boards, 0);
    // (the whole run when the warm-up is as long as the run)
    Time warmup = study.GetWarmup() < duration ? study.GetWarmup() : Time(0);
    Simulator::Schedule(warmup, &SnapshotBoards, &rxApps, &atWarmup);
    if (study.GetPcap())
    {
        helper.EnablePcapAll(study.GetPath("advcam-camera"));
    }

    // one trigger for the whole camera: every board draws the same Poisson gaps
    int64_t trigger = 1 + helper.AssignStreams(1);
    for (Ptr<RoceFrontEndApp> app : apps)
    {
        app->AssignStreams(trigger);
    }
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    // boards.csv and Jain's index across boards over [warmup, duration]
    std::ofstream boardsCsv = study.OpenOutput("boards.csv");
    boardsCsv << "board,leaf,delivered_bytes,gbps,gbps_after_warmup,events_generated,"
                 "events_lost,buffer_peak_bytes,retransmits\n";
    std::vector<double> boardRates;
    uint64_t eventsLost = 0;
    uint64_t eventsGenerated = 0;
    uint64_t retx = 0;
    double measured = (duration - warmup).GetSeconds();
    for (uint32_t b = 0; b < boards; b++)
    {
        uint64_t delivered = BoardDelivered(rxApps, b);
        double after = double(delivered - atWarmup[b]) * 8 / measured / 1e9;
        uint64_t boardRetx = 0;
        for (auto& qp : boardQps[b])
        {
            boardRetx += qp->GetCounters().retransmittedPackets;
        }
        boardsCsv << b << "," << b / boardsPerLeaf << "," << delivered << ","
                  << Format(double(delivered) * 8 / duration.GetSeconds() / 1e9) << ","
                  << Format(after) << "," << apps[b]->GetEventsGenerated() << ","
                  << apps[b]->GetEventsLost() << "," << apps[b]->GetBufferPeak() << "," << boardRetx
                  << "\n";
        boardRates.push_back(after);
        eventsLost += apps[b]->GetEventsLost();
        eventsGenerated += apps[b]->GetEventsGenerated();
        retx += boardRetx;
    }
    boardsCsv.close();

    uint64_t cnps = 0;
    uint64_t rxDrops = 0;
    for (auto& nic : rxNics)
    {
        cnps += nic->GetCounters().cnpsSent;
        rxDrops += nic->GetRxErrorDrops();
    }
    uint64_t drops = rxDrops;
    for (auto& s : switches)
    {
        drops += s.sw->GetCounters().TotalDrops();
    }
    double offered = double(boards) * double(fragmentSize) * 8 / triggerInterval.GetSeconds() / 1e9;
    study.AddMetric("offered_gbps", offered);
    study.AddMetric("jain_boards",
                    boards >= 2 ? feroce_jain(boardRates.data(), boardRates.size()) : NAN);
    study.AddMetric("board_gbps_min", *std::min_element(boardRates.begin(), boardRates.end()));
    study.AddMetric("board_gbps_max", *std::max_element(boardRates.begin(), boardRates.end()));
    study.AddMetric("drops", double(drops)); // the switches' and the receivers'
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("retransmits", double(retx));
    study.AddMetric("events_generated", double(eventsGenerated));
    study.AddMetric("events_lost", double(eventsLost));
    Simulator::Destroy();
    return study.Finish();
}
