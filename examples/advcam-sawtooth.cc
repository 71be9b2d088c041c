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

/// A comma-separated list, one entry per board.
std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        out.push_back(item);
    }
    return out;
}

/// Parses one entry of a list flag; "" when it parses, else the message.
template <typename T>
std::string
ParseEach(const std::string& flag,
          const std::string& text,
          std::size_t boards,
          const std::string& expected,
          std::function<bool(const std::string&, T&)> parse,
          std::vector<T>& out)
{
    std::vector<std::string> items = Split(text);
    if (items.size() != boards)
    {
        return flag + " = " + text + " is not allowed: expected " + std::to_string(boards) +
               " comma-separated values (one per board of --presets), got " +
               std::to_string(items.size());
    }
    for (const std::string& item : items)
    {
        T v{};
        if (!parse(item, v))
        {
            return flag + " = " + text + " is not allowed: " + item + " is not " + expected;
        }
        out.push_back(v);
    }
    return "";
}

/// A timer: 0 or a time in (0, 1 s].
bool
ParseTimer(const std::string& s, Time& t)
{
    return FeroceStudy::ParseTime(s, t) && !t.IsStrictlyNegative() && t <= Seconds(1);
}

bool
ParseNumber(const std::string& s, double& v, double lo, double hi)
{
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0' && std::isfinite(v) && v >= lo && v <= hi;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string presets = "paper,hpcc,paper";
    std::string timers = "0,0,550us";
    std::string alphaPeriods = "0,0,550us";
    std::string gs = "0,0,0";
    std::string rais = "0,0,0";
    Time cnpInterval = MicroSeconds(50);
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    bool pfc = true;
    uint32_t pmtu = 4096;
    uint64_t messageSize = 1 << 20;
    Time linkDelay = MicroSeconds(1);

    FeroceStudy study("advcam-sawtooth",
                      "results/advcam-sawtooth",
                      MilliSeconds(20),
                      MicroSeconds(100),
                      MilliSeconds(2));
    study.AddFlag("presets",
                  "DCQCN preset per board (paper, connectx, hpcc), comma separated",
                  presets);
    study.AddFlag("timers", "Per board: rate-increase timer T (0: the preset's)", timers);
    study.AddFlag("alphaPeriods", "Per board: alpha timer K (0: the preset's)", alphaPeriods);
    study.AddFlag("gs", "Per board: alpha gain g in (0, 1] (0: the preset's)", gs);
    study.AddFlag("rais", "Per board: additive increase R_AI in Mb/s (0: the preset's)", rais);
    study.AddFlag("cnpInterval",
                  "The receiver's CNP interval N (0: a CNP per CE mark)",
                  cnpInterval,
                  "ns3::RoceNic::CnpInterval");
    study.AddFlag("kmin", "ECN Kmin bytes", kmin, "ns3::FeroceSwitch::Kmin");
    study.AddFlag("kmax", "ECN Kmax bytes", kmax, "ns3::FeroceSwitch::Kmax");
    study.AddFlag("pmax", "ECN Pmax", pmax, "ns3::FeroceSwitch::Pmax");
    study.AddFlag("pfc", "PFC on the switch", pfc, "ns3::FeroceSwitch::PfcEnabled");
    study.AddFlag("pmtu",
                  "Path MTU: 256, 512, 1024, 2048 or 4096",
                  pmtu,
                  "ns3::RoceQueuePair::Pmtu");
    study.AddFlag("messageSize",
                  "Bytes per RDMA WRITE (the boards always have data)",
                  messageSize,
                  "ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("linkDelay",
                  "Propagation delay of each link",
                  linkDelay,
                  "ns3::FeroceChannel::Delay");
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }

    std::vector<std::string> presetList = Split(presets);
    std::size_t boards = presetList.size();
    if (boards < 1 || boards > 64)
    {
        return study.Reject("presets = " + presets +
                            " is not allowed: expected 1..64 comma-separated presets");
    }
    for (const std::string& p : presetList)
    {
        if (p != "paper" && p != "connectx" && p != "hpcc")
        {
            return study.Reject("presets = " + presets + " is not allowed: " + p +
                                " is not paper, connectx or hpcc");
        }
    }
    std::vector<Time> timerList;
    std::vector<Time> alphaList;
    std::vector<double> gList;
    std::vector<double> raiList;
    std::function<bool(const std::string&, Time&)> parseTime = ParseTimer;
    std::function<bool(const std::string&, double&)> parseG = [](const std::string& s, double& v) {
        return ParseNumber(s, v, 0, 1);
    };
    std::function<bool(const std::string&, double&)> parseRai =
        [](const std::string& s, double& v) { return ParseNumber(s, v, 0, 10000); };
    for (std::string error :
         {ParseEach("timers",
                    timers,
                    boards,
                    "0 or a time in (0, 1s] (e.g. 550us)",
                    parseTime,
                    timerList),
          ParseEach("alphaPeriods",
                    alphaPeriods,
                    boards,
                    "0 or a time in (0, 1s] (e.g. 550us)",
                    parseTime,
                    alphaList),
          ParseEach("gs", gs, boards, "a number in [0, 1]", parseG, gList),
          ParseEach("rais", rais, boards, "a number of Mb/s in [0, 10000]", parseRai, raiList)})
    {
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    if (cnpInterval.IsStrictlyNegative())
    {
        return study.Reject("cnpInterval = " + std::to_string(cnpInterval.GetNanoSeconds()) +
                            "ns is not allowed: expected >= 0");
    }
    if (messageSize < 1 || messageSize > (1ULL << 31))
    {
        return study.Reject("messageSize = " + std::to_string(messageSize) +
                            " is not allowed: expected 1..2147483648 bytes");
    }
    if (linkDelay.IsStrictlyNegative())
    {
        return study.Reject("linkDelay = " + std::to_string(linkDelay.GetNanoSeconds()) +
                            "ns is not allowed: expected >= 0");
    }
    Time duration = study.GetDuration();

    RoceHelper helper;
    helper.SetChannelAttribute("Delay", TimeValue(linkDelay));
    helper.SetDeviceAttribute("CnpInterval", TimeValue(cnpInterval));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    helper.SetSwitchAttribute("Kmin", UintegerValue(kmin));
    helper.SetSwitchAttribute("Kmax", UintegerValue(kmax));
    helper.SetSwitchAttribute("Pmax", DoubleValue(pmax));

    RoceIncast incast = helper.InstallIncast(boards);
    for (std::size_t i = 0; i < boards; i++)
    {
        // each board's own rate limiter: its preset, then the flags on top of it
        std::vector<std::pair<std::string, Ptr<AttributeValue>>> overrides;
        if (timerList[i].IsStrictlyPositive())
        {
            overrides.emplace_back("IncreaseTimer", Create<TimeValue>(timerList[i]));
        }
        if (alphaList[i].IsStrictlyPositive())
        {
            overrides.emplace_back("AlphaPeriod", Create<TimeValue>(alphaList[i]));
        }
        if (gList[i] > 0)
        {
            overrides.emplace_back("G", Create<DoubleValue>(gList[i]));
        }
        if (raiList[i] > 0)
        {
            overrides.emplace_back("RateAi",
                                   Create<DataRateValue>(DataRate(uint64_t(raiList[i] * 1e6))));
        }
        std::string error;
        Ptr<RoceNic> nic = incast.senders[i];
        Ptr<DcqcnReactionPoint> rp =
            RoceHelper::CreateReactionPoint(presetList[i], nic->GetDataRate(), overrides, &error);
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
        app->SetAttribute("MessageSize", UintegerValue(messageSize));
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
    if (study.GetPcap())
    {
        helper.EnablePcapAll(study.GetPath("advcam-sawtooth"));
    }

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
