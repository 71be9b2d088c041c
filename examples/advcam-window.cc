/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The engine's own limit: goodput of one board against its send-queue depth
// (the work requests it keeps outstanding, blue-rdma's MAX_QP_WR), for each
// message size, opcode (RDMA WRITE, SEND) and link delay.  One chain per
// point, board -> receiver on one link (or through a store-and-forward switch,
// --viaSwitch), saturating; the chains share nothing, so one simulation
// measures them all.  Two more chains are the hardware bench (SEND 4096 B,
// depth 4 and 16, one 10 GbE link into a ConnectX: 8.10 and 9.75 Gb/s).
//
//   advcam-window --outdir=results/advcam-window
//
// A window of W requests of M bytes, acknowledged K messages at a time
// (AckReq on every K-th message), each completion C after its ACK, gives
//   goodput = min(line, W M / (K T_msg + T_loop)),
//   T_loop  = 2 d + T_ack + C (+ T_last + T_ack + 2 d through a switch)
// (src/feroce/doc/window.md).  Writes into --outdir: window.csv (one line per
// point: measured and analytic goodput, line-rate goodput, RNR NAKs, the
// QP's completion status), design.csv (the smallest depth reaching 99% of
// line rate, measured and by the formula), hardware.csv (the bench points
// against the hardware), goodput.csv (the bench chains per window),
// metrics.txt; one row into --db.
//
// RNR: --recvPostRate=R makes the receivers of the SEND chains post one
// receive buffer every 1/R s (none at the start) instead of keeping a pool
// posted: SENDs then meet RNR NAKs, wait the RNR timer (--rnrTimerCode) and
// retry, goodput is bounded by R x message size, and --rnrRetry below 7 puts
// a QP that runs out of retries into the error state ("RNR retry exceeded").

#include "ns3/advcam-window-chain.h"
#include "ns3/core-module.h"
#include "ns3/feroce-flag-groups.h"
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

/// The hardware bench: blue-rdma in SURF on a KCU105, RDMA SEND 4096 B at PMTU 4096, one 10 GbE
/// link into a ConnectX; MAX_QP_WR 4 -> 8.10 Gb/s (247 kHz), 16 -> 9.75 Gb/s (298 kHz).
constexpr uint64_t kBenchMessage = 4096;
constexpr uint32_t kBenchDepths[2] = {4, 16};
constexpr double kBenchGbps[2] = {8.10, 9.75};
constexpr double kBenchKhz[2] = {247, 298};

typedef std::vector<std::unique_ptr<WindowChain>> Chains;

void
Snapshot(Chains* chains)
{
    for (auto& c : *chains)
    {
        c->rxAtFrom = c->rx->GetBytesReceived();
    }
}

std::string
Format(double v, int digits = 6)
{
    if (std::isnan(v))
    {
        return "";
    }
    std::ostringstream s;
    s.precision(digits);
    s << std::fixed << v;
    return s.str();
}

/// The grid's flags, as parsed.
struct Grid
{
    std::vector<uint32_t> depths;
    std::vector<uint64_t> messages;
    std::vector<std::string> opcodes;
    std::vector<Time> delays;
    bool withImm{false};
    double recvPostRate{0};
};

/// What window.csv's points sum up to (the study's metrics).
struct Totals
{
    double worst{0}; ///< largest relative error against the formula where it is exact
    uint64_t rnrNaks{0};
    uint64_t qpErrors{0};
    uint64_t retransmits{0};
    uint64_t belowFormula{0}; ///< points measured below the formula's bound
    std::string firstStatus;
};

/**
 * window.csv (a line per point) and design.csv (per opcode, message and delay: the smallest
 * depth from which every larger one reaches 99% of the line, measured and by the formula).
 */
Totals
WriteGrid(FeroceStudy& study,
          const Grid& g,
          const Chains& chains,
          const WindowPath& base,
          Time from)
{
    Totals t;
    std::ofstream csv = study.OpenOutput("window.csv");
    csv << "opcode,message_bytes,delay_ns,depth,measured_gbps,analytic_gbps,line_gbps,"
           "window_gbps,fraction_of_line,formula_exact,loop_ns,post_bound_gbps,rnr_naks,"
           "retransmits,timeouts,acks_per_message,status\n";
    std::ofstream dcsv = study.OpenOutput("design.csv");
    dcsv << "opcode,message_bytes,delay_ns,min_depth_99_measured,min_depth_99_formula\n";
    std::size_t i = 0;
    for (const std::string& opcode : g.opcodes)
    {
        bool write = opcode == "write";
        for (uint64_t message : g.messages)
        {
            for (Time delay : g.delays)
            {
                WindowPath p = base;
                p.delayNs = double(delay.GetNanoSeconds());
                int minMeasured = -1;
                for (uint32_t depth : g.depths)
                {
                    const WindowChain& c = *chains[i++];
                    WindowGoodput a = WindowFormula(p, write, g.withImm, message, depth);
                    double m = c.GetGbps(from, study.GetDuration());
                    bool rnr = !write && g.recvPostRate > 0;
                    double bound = rnr ? g.recvPostRate * double(message) * 8 / 1e9 : NAN;
                    const auto& k = c.qp->GetCounters();
                    t.rnrNaks += k.rnrNaksReceived;
                    t.retransmits += k.retransmittedPackets;
                    // what the board's application saw: the status of its first failed request
                    RoceCompletionStatus why = c.app->GetFailureStatus();
                    std::string status = RoceCompletionStatusName(why);
                    if (why != ROCE_WC_SUCCESS && t.qpErrors++ == 0)
                    {
                        t.firstStatus = status;
                    }
                    double acks =
                        k.completions ? double(k.acksReceived) / double(k.completions) : NAN;
                    csv << opcode << "," << message << "," << delay.GetNanoSeconds() << "," << depth
                        << "," << Format(m) << "," << Format(a.gbps) << "," << Format(a.lineGbps)
                        << "," << Format(a.windowGbps) << "," << Format(m / a.lineGbps) << ","
                        << (a.exact ? 1 : 0) << "," << Format(a.loopNs, 1) << "," << Format(bound)
                        << "," << k.rnrNaksReceived << "," << k.retransmittedPackets << ","
                        << k.timeouts << "," << Format(acks, 3) << "," << status << "\n";
                    if (a.exact && !rnr)
                    {
                        t.worst = std::max(t.worst, std::fabs(m - a.gbps) / a.gbps);
                    }
                    // with K > 1 a depth K does not divide can do worse: every larger one counts
                    minMeasured =
                        m >= 0.99 * a.lineGbps ? (minMeasured < 0 ? int(depth) : minMeasured) : -1;
                    t.belowFormula += !rnr && m < a.gbps * (1 - 1e-3);
                }
                // by the formula, over the depths where it is exact
                int minFormula = -1;
                for (uint32_t w = 1; w <= 1024 && minFormula < 0; w++)
                {
                    WindowGoodput f = WindowFormula(p, write, g.withImm, message, w);
                    minFormula = f.exact && f.windowGbps >= 0.99 * f.lineGbps ? int(w) : -1;
                }
                dcsv << opcode << "," << message << "," << delay.GetNanoSeconds() << ","
                     << (minMeasured > 0 ? std::to_string(minMeasured) : "") << ","
                     << (minFormula > 0 ? std::to_string(minFormula) : "") << "\n";
                // named by its delay too: one metric per point of design.csv
                study.AddMetric("min_depth_99_" + opcode + "_" + std::to_string(message) + "_" +
                                    std::to_string(delay.GetNanoSeconds()) + "ns",
                                minMeasured > 0 ? minMeasured : NAN);
            }
        }
    }
    return t;
}

/// hardware.csv: the bench's two chains against the hardware; the largest relative error.
double
WriteBench(FeroceStudy& study, const Chains& chains, WindowPath bp, bool comparable, Time from)
{
    std::ofstream hcsv = study.OpenOutput("hardware.csv");
    hcsv << "depth,measured_gbps,analytic_gbps,hardware_gbps,measured_khz,hardware_khz,"
            "acks_per_message\n";
    double worst = 0;
    for (std::size_t b = 0; b < 2; b++)
    {
        const WindowChain& c = *chains[chains.size() - 2 + b];
        double m = c.GetGbps(from, study.GetDuration());
        WindowGoodput a = WindowFormula(bp, false, false, kBenchMessage, c.depth);
        double khz = m * 1e9 / (8.0 * kBenchMessage) / 1e3;
        const auto& k = c.qp->GetCounters();
        hcsv << c.depth << "," << Format(m) << "," << Format(a.gbps) << ","
             << (comparable ? Format(kBenchGbps[b], 2) : "") << "," << Format(khz, 2) << ","
             << (comparable ? Format(kBenchKhz[b], 0) : "") << ","
             << Format(double(k.acksReceived) / double(std::max<uint64_t>(1, k.completions)), 3)
             << "\n";
        std::string name = "bench" + std::to_string(c.depth);
        study.AddMetric(name + "_gbps", m);
        study.AddMetric(name + "_analytic_gbps", a.gbps);
        worst = std::max(worst, comparable ? std::fabs(m - kBenchGbps[b]) / kBenchGbps[b] : 0.0);
    }
    return worst;
}

/// The study's flags: the grid, the link and the queue pairs.
struct Flags : Grid
{
    bool viaSwitch{false};
    uint32_t pmtu{4096};
    DataRate linkRate{"10Gbps"};
    Time completionLatency{NanoSeconds(2500)};
    uint32_t ackReqMessages{4};
    uint32_t ackInterval{0};
    Time benchDelay{NanoSeconds(50)};
    uint32_t receiveBuffers{64};
    uint32_t rnrRetry{7};
    uint32_t rnrTimerCode{1};
    DcqcnSwitchFlags fabric; ///< the switch's part, with --viaSwitch (the NICs run no DCQCN)

    void AddTo(FeroceStudy& study);
};

void
Flags::AddTo(FeroceStudy& study)
{
    study
        .AddList("depths",
                 "Send-queue depths (work requests outstanding): lo:hi or a comma list",
                 depths,
                 "1:32")
        .Range(1, 1024)
        .Distinct()
        .Sorted()
        .Allowed("lo:hi or distinct comma-separated depths, within 1..1024");
    study
        .AddList("messageSizes",
                 "Message bytes, comma separated",
                 messages,
                 "1024,4096,16384,65536")
        .Range(1, 1ULL << 31)
        .Distinct()
        .Allowed("distinct comma-separated byte counts within 1..2147483648");
    study.AddList("opcodes", "write, send or both, comma separated", opcodes, "write,send")
        .Check(
            [](const std::string& o) { return o == "write" || o == "send" ? "" : "write or send"; })
        .Distinct()
        .Allowed("write, send or write,send");
    study
        .AddList("delays",
                 "One-way propagation delay of each link, comma separated",
                 delays,
                 "50ns,1us,5us")
        .Range(Time(0), MilliSeconds(1))
        .Distinct()
        .Allowed("distinct comma-separated times within 0..1ms (e.g. 50ns,1us)");
    study.AddFlag("viaSwitch", "A store-and-forward switch between board and receiver", viaSwitch);
    study.AddFlag("pmtu", "Path MTU", pmtu)
        .Check(
            [](const uint32_t& p) { return IsRocePmtu(p) ? "" : "256, 512, 1024, 2048 or 4096"; })
        .Attribute("ns3::RoceQueuePair::Pmtu");
    study.AddFlag("linkRate", "Rate of every link", linkRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
        .Attribute("ns3::FeroceNetDevice::DataRate");
    study
        .AddFlag("completionLatency",
                 "Engine's completion processing: from the ACK to the free send-queue slot",
                 completionLatency)
        .Attribute("ns3::RoceQueuePair::CompletionLatency");
    study
        .AddFlag("ackReqMessages",
                 "AckReq on every this many messages (and on the last queued); 0: one per window",
                 ackReqMessages)
        .Range(0, 1024)
        .Attribute("ns3::RoceQueuePair::AckReqMessages");
    study
        .AddFlag("ackInterval",
                 "Receiver: ACK every this many packets as well as on AckReq; 0: only on AckReq",
                 ackInterval)
        .Check([](const uint32_t& a) {
            return a <= 1000000 ? "" : "0 (only on AckReq) or 1..1000000 packets";
        })
        .Sets("ns3::RoceQueuePair::AckInterval", [](const uint32_t& a) {
            return std::to_string(a == 0 ? 0xffffffffU : a); // 0: only on AckReq
        });
    study
        .AddFlag("benchDelay",
                 "Propagation delay of the hardware bench's one link (its two chains)",
                 benchDelay)
        .Range(Time(0), MilliSeconds(1));
    study
        .AddFlag("recvPostRate",
                 "SEND chains' receivers post one receive buffer per 1/this s (none at the "
                 "start); 0: they keep receiveBuffers posted",
                 recvPostRate)
        .Check([](const double& r) {
            return r >= 0 && r <= 1e9
                       ? ""
                       : "0 (buffers always posted) or a rate in (0, 1e9] buffers per second";
        })
        .Owns("ns3::RoceReceiverApp::PostRate");
    study
        .AddFlag("receiveBuffers",
                 "Receive buffers posted per queue pair (most waiting, with recvPostRate)",
                 receiveBuffers)
        .Check([this](const uint32_t& b) {
            return recvPostRate > 0 && b == 0 ? ">= 1 with --recvPostRate > 0" : "";
        })
        .Attribute("ns3::RoceReceiverApp::ReceiveBuffers");
    study.AddFlag("withImm", "The grid's messages carry immediate data", withImm)
        .Owns("ns3::RoceFrontEndApp::WithImmediate");
    study
        .AddFlag("rnrRetry", "RNR NAKs without progress before the QP fails; 7: for ever", rnrRetry)
        .Attribute("ns3::RoceQueuePair::RnrRetry");
    study
        .AddFlag("rnrTimerCode",
                 "Receiver's RNR NAK timer code (1 = 10 us, 14 = 1.28 ms)",
                 rnrTimerCode)
        .Attribute("ns3::RoceQueuePair::RnrTimerCode");
    study.Owns("ns3::RoceQueuePair::SendQueueDepth", "depths");
    study.Owns("ns3::RoceFrontEndApp::MaxOutstanding", "depths");
    study.Owns("ns3::RoceFrontEndApp::MessageSize", "messageSizes");
    fabric.AddSwitchTo(study);
    study.Owns("ns3::RoceFrontEndApp::Write", "opcodes");
    study.Owns("ns3::FeroceChannel::Delay", "delays");
}

} // namespace

int
main(int argc, char* argv[])
{
    Flags f;
    FeroceStudy study("advcam-window",
                      "results/advcam-window",
                      MilliSeconds(5),
                      MicroSeconds(500),
                      MilliSeconds(1));
    f.AddTo(study);
    const std::string noSwitch = "without --viaSwitch this program builds no switch";
    if (!study.Parse(argc, argv) ||
        (!f.viaSwitch && study.RefuseType("ns3::FeroceSwitch", noSwitch)))
    {
        return study.GetExitCode();
    }
    if (!f.viaSwitch && study.GetCommandLine().IsGiven("pfcHonour"))
    {
        return study.Reject(study.GetCommandLine().GetGivenAs("ns3::RoceNic::PfcHonour") +
                            " is not allowed: " + noSwitch + " (nothing sends PAUSE)");
    }
    Time duration = study.GetDuration();
    Time from = study.GetMeasureFrom();
    study.SetBeneath("ns3::RoceNic::DcqcnEnabled", "false"); // one flow, no congestion
    f.fabric.SetHeadroomCheck(study);

    RoceHelper helper;
    Chains chains;
    for (const std::string& opcode : f.opcodes)
    {
        for (uint64_t message : f.messages)
        {
            for (Time delay : f.delays)
            {
                for (uint32_t depth : f.depths)
                {
                    chains.push_back(InstallWindowChain(helper,
                                                        opcode == "write",
                                                        f.withImm,
                                                        message,
                                                        delay,
                                                        depth,
                                                        f.viaSwitch,
                                                        opcode == "write" ? 0 : f.recvPostRate,
                                                        from,
                                                        duration));
                }
            }
        }
    }
    for (uint32_t depth : kBenchDepths)
    {
        chains.push_back(InstallWindowChain(helper,
                                            false,
                                            false,
                                            kBenchMessage,
                                            f.benchDelay,
                                            depth,
                                            false,
                                            0,
                                            from,
                                            duration));
        chains.back()->bench = true;
        Ptr<RoceReceiverApp> rx = chains.back()->rx;
        study.AddFlow(
            "bench_depth" + std::to_string(depth),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            duration);
    }
    helper.PopulateRoutes();
    const WindowChain* longest = nullptr; // the switch whose links need the most headroom
    for (auto& c : chains)
    {
        longest = c->sw && (!longest || c->delay > longest->delay) ? c.get() : longest;
    }
    if (longest)
    {
        f.fabric.WarnHeadroom(study, *longest->sw, 0);
    }
    for (auto& c : chains)
    {
        std::string error = c->error.empty() && c->sw ? c->sw->Validate() : c->error;
        error = error.empty() ? c->rx->Validate() : error;
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    study.EnablePcap(helper, "advcam-window");
    Simulator::Schedule(from, &Snapshot, &chains);
    helper.AssignStreams(1);
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    for (auto& c : chains)
    {
        c->meter.Close();
    }
    WindowPath base{double(f.linkRate.GetBitRate()),
                    0,
                    f.viaSwitch,
                    double(f.completionLatency.GetNanoSeconds()),
                    f.ackReqMessages,
                    f.pmtu};
    Totals t = WriteGrid(study, f, chains, base, from);
    WindowPath bench = base;
    bench.delayNs = double(f.benchDelay.GetNanoSeconds());
    bench.viaSwitch = false;
    bool comparable = f.pmtu == 4096 && f.linkRate.GetBitRate() == 10000000000ULL;
    double worstBench = WriteBench(study, chains, bench, comparable, from);
    study.AddMetric("goodput_gbps", chains[chains.size() - 2]->GetGbps(from, duration));
    study.AddMetric("jain_min", NAN); // the chains do not share anything
    study.AddMetric("jain_mean", NAN);
    study.AddMetric("jain_windows", 0);
    study.AddMetric("max_error_vs_analytic", t.worst);
    study.AddMetric("points_below_formula", double(t.belowFormula));
    study.AddMetric("max_error_vs_hardware", comparable ? worstBench : NAN);
    study.AddMetric("rnr_naks", double(t.rnrNaks));
    study.AddMetric("qp_errors", double(t.qpErrors));
    study.AddMetric("retransmits", double(t.retransmits));
    if (t.qpErrors > 0)
    {
        std::cout << "advcam-window: " << t.qpErrors << " queue pair(s) in the error state, first "
                  << "completion status: " << t.firstStatus << std::endl;
    }
    Simulator::Destroy();
    return study.Finish();
}
