/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The rate limiter's saw-tooth, as the firmware team verified theirs: boards
// with different DCQCN parameters saturate one switch port toward one
// receiver (all links 10 Gb/s), and each board's current rate Rc and target
// rate Rt are sampled in fine windows (--window, default 100 us) beside the
// goodput it gets.
//
// One board per entry of --presets; the per-board lists --timers (rate-increase
// timer T), --alphaPeriods (alpha timer K), --gs (alpha gain g) and --rais
// (R_AI) override the preset where not 0.  The default: board 0 the paper's
// parameters, board 1 the hpcc preset, board 2 the paper's with its timers 10x
// longer (550 us), so that its rate's recovery steps show.
//
//   advcam-sawtooth --duration=20ms --outdir=results/advcam-sawtooth
//   advcam-sawtooth --presets=paper,paper --timers=55us,1ms --alphaPeriods=0,1ms
//
// Writes into --outdir: goodput.csv (Gb/s per board per window, Jain's
// index), series.csv (switch queue toward the receiver, buffer, each board's
// Rc, Rt and alpha at the end of each window), pause.csv, metrics.txt; one
// row into --db.

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn-reaction-point.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// The boards' reaction points (a preset each, and lists on top of it) and the switch.
struct SawtoothFlags
{
    std::vector<std::string> presets;
    std::vector<Time> timers;
    std::vector<Time> alphaPeriods;
    std::vector<double> gs;
    std::vector<double> rais;
    Time cnpInterval{MicroSeconds(50)};
    DcqcnSwitchFlags fabric; // the switch's part: DCQCN is per board, by the lists above
    uint32_t pmtu{4096};
    uint64_t messageSize{1 << 20};
    LinkFlags link;

    void AddTo(FeroceStudy& study);
};

void
SawtoothFlags::AddTo(FeroceStudy& study)
{
    study
        .AddList("presets",
                 "DCQCN preset per board (paper, connectx, hpcc), comma separated",
                 presets,
                 "paper,hpcc,paper")
        .Check([](const std::string& p) {
            return p == "paper" || p == "connectx" || p == "hpcc" ? "" : "paper, connectx or hpcc";
        })
        .CheckAll([](const std::vector<std::string>& p) {
            return p.size() <= 64 ? "" : "1..64 comma-separated presets";
        });
    auto perBoard = [this]() { return presets.size(); };
    const char* const oneEach = "comma-separated values (one per board of --presets)";
    study
        .AddList("timers",
                 "Per board: rate-increase timer T (0: the preset's)",
                 timers,
                 "0,0,550us")
        .Range(Time(0), Seconds(1))
        .Count(perBoard, oneEach);
    study
        .AddList("alphaPeriods",
                 "Per board: alpha timer K (0: the preset's)",
                 alphaPeriods,
                 "0,0,550us")
        .Range(Time(0), Seconds(1))
        .Count(perBoard, oneEach);
    study.AddList("gs", "Per board: alpha gain g in (0, 1] (0: the preset's)", gs, "0,0,0")
        .Check([](const double& g) { return g >= 0 && g <= 1 ? "" : "a number in [0, 1]"; })
        .Count(perBoard, oneEach);
    study
        .AddList("rais",
                 "Per board: additive increase R_AI in Mb/s (0: the preset's)",
                 rais,
                 "0,0,0")
        .Check([](const double& r) {
            return r >= 0 && r <= 10000 ? "" : "a number of Mb/s in [0, 10000]";
        })
        .Count(perBoard, oneEach);
    // each board's reaction point is its preset with its entries of these lists on top
    study.Owns("ns3::RoceNic::DcqcnPreset", "presets");
    study.Owns("ns3::DcqcnReactionPoint::IncreaseTimer", "timers");
    study.Owns("ns3::DcqcnReactionPoint::AlphaPeriod", "alphaPeriods");
    study.Owns("ns3::DcqcnReactionPoint::G", "gs");
    study.Owns("ns3::DcqcnReactionPoint::RateAi", "rais");
    study
        .AddFlag("cnpInterval", "The receiver's CNP interval N (0: a CNP per CE mark)", cnpInterval)
        .Attribute("ns3::RoceNic::CnpInterval");
    fabric.AddSwitchTo(study);
    study.AddFlag("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu)
        .Attribute("ns3::RoceQueuePair::Pmtu");
    study.AddFlag("messageSize", "Bytes per RDMA WRITE (the boards always have data)", messageSize)
        .Range(1, 1ULL << 31)
        .Attribute("ns3::RoceFrontEndApp::MessageSize");
    link.AddTo(study);
}

} // namespace

int
main(int argc, char* argv[])
{
    SawtoothFlags f;
    FeroceStudy study("advcam-sawtooth",
                      "results/advcam-sawtooth",
                      MilliSeconds(20),
                      MicroSeconds(100),
                      MilliSeconds(2));
    f.AddTo(study);
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    f.fabric.SetHeadroomCheck(study);
    std::size_t boards = f.presets.size();
    Time duration = study.GetDuration();

    RoceHelper helper;
    RoceIncast incast = helper.InstallIncast(boards);
    for (std::size_t i = 0; i < boards; i++)
    {
        // each board's own rate limiter: its preset, then the flags on top of it
        std::vector<std::pair<std::string, Ptr<AttributeValue>>> overrides;
        if (f.timers[i].IsStrictlyPositive())
        {
            overrides.emplace_back("IncreaseTimer", Create<TimeValue>(f.timers[i]));
        }
        if (f.alphaPeriods[i].IsStrictlyPositive())
        {
            overrides.emplace_back("AlphaPeriod", Create<TimeValue>(f.alphaPeriods[i]));
        }
        if (f.gs[i] > 0)
        {
            overrides.emplace_back("G", Create<DoubleValue>(f.gs[i]));
        }
        if (f.rais[i] > 0)
        {
            overrides.emplace_back("RateAi",
                                   Create<DataRateValue>(DataRate(uint64_t(f.rais[i] * 1e6))));
        }
        std::string error;
        Ptr<RoceNic> nic = incast.senders[i];
        Ptr<DcqcnReactionPoint> rp =
            RoceHelper::CreateReactionPoint(f.presets[i], nic->GetDataRate(), overrides, &error);
        if (!rp)
        {
            return study.Reject("board " + std::to_string(i) + ": " + error);
        }
        nic->SetAttribute("ReactionPoint", PointerValue(rp));
    }
    std::string error = incast.Validate();
    if (!error.empty())
    {
        return study.Reject(error);
    }

    helper.ConnectIncast(incast);
    Ptr<RoceReceiverApp> rx = incast.receiverApp;
    for (std::size_t i = 0; i < boards; i++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetQueuePair(incast.qps[i]);
        incast.hosts.Get(i)->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(duration);
        study.AddFlow(
            "board" + std::to_string(i),
            [rx, i]() { return rx->GetBytesReceived(i); },
            Time(0),
            duration);
    }

    // series.csv: queue, buffer, then Rc of every board, Rt of every board, alpha of every board
    study.WatchSwitch(incast.sw, incast.GetReceiverPort());
    for (const Ptr<RoceQueuePair>& qp : incast.qps)
    {
        study.AddGauge("board" + std::to_string(&qp - incast.qps.data()) + "_rc_gbps",
                       [qp]() { return qp->GetRateBps() / 1e9; });
    }
    for (const Ptr<RoceQueuePair>& qp : incast.qps)
    {
        study.AddGauge("board" + std::to_string(&qp - incast.qps.data()) + "_rt_gbps",
                       [qp]() { return qp->GetTargetRateBps() / 1e9; });
    }
    for (const Ptr<RoceQueuePair>& qp : incast.qps)
    {
        study.AddGauge("board" + std::to_string(&qp - incast.qps.data()) + "_alpha",
                       [qp]() { return qp->GetAlpha(); });
    }
    study.EnablePcap(helper, "advcam-sawtooth");

    helper.AssignStreams(1);
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    uint64_t retx = 0;
    for (std::size_t i = 0; i < boards; i++)
    {
        const auto& c = incast.qps[i]->GetCounters();
        retx += c.retransmittedPackets;
        study.AddMetric("board" + std::to_string(i) + "_cnps", double(c.cnpsReceived));
    }
    study.AddMetric(
        "drops",
        double(incast.sw->GetCounters().TotalDrops() + incast.receiver->GetRxErrorDrops()));
    study.AddMetric("cnps", double(incast.receiver->GetCounters().cnpsSent));
    study.AddMetric("retransmits", double(retx));
    Simulator::Destroy();
    return study.Finish();
}
