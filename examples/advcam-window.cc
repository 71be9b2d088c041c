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

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/double.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// The hardware bench: blue-rdma in SURF on a KCU105, RDMA SEND 4096 B at PMTU 4096, one 10 GbE
/// link into a ConnectX; MAX_QP_WR 4 -> 8.10 Gb/s (247 kHz), 16 -> 9.75 Gb/s (298 kHz).
constexpr uint64_t kBenchMessage = 4096;
constexpr uint32_t kBenchDepths[2] = {4, 16};
constexpr double kBenchGbps[2] = {8.10, 9.75};
constexpr double kBenchKhz[2] = {247, 298};

/// Bytes of a RoCEv2 frame (FCS excluded) carrying `payload`: Ethernet 14, IPv4 20, UDP 8, BTH
/// 12, RETH 16 on a WRITE's first packet, ImmDt 4 on the last packet with immediate, payload
/// padded to 4, ICRC 4.
uint32_t
FrameBytes(uint32_t payload, bool write, bool first, bool last, bool imm)
{
    return 14 + 20 + 8 + 12 + (write && first ? 16 : 0) + (imm && last ? 4 : 0) +
           (payload + 3) / 4 * 4 + 4;
}

/// Nanoseconds a frame of `frame` bytes holds a link of `rate` b/s (preamble, FCS, gap included).
double
WireNs(uint32_t frame, double rate)
{
    return FeroceNetDevice::WireBytes(frame) * 8 * 1e9 / rate;
}

/// The path of one chain, for the formula.
struct Path
{
    double rate;       ///< b/s
    double delayNs;    ///< per link
    bool viaSwitch;    ///< one store-and-forward switch between board and receiver
    double completeNs; ///< CompletionLatency
    uint32_t ackReqMessages;
    uint32_t pmtu;
};

struct Analytic
{
    double lineGbps;   ///< back-to-back messages
    double windowGbps; ///< W M / (K T_msg + T_loop)
    double gbps;       ///< the smaller
    double loopNs;     ///< T_loop
    bool exact;        ///< every ACK covers K messages (K = 1, or K divides W)
};

Analytic
Formula(const Path& p, bool write, bool imm, uint64_t message, uint32_t depth)
{
    double msgNs = 0;
    double lastNs = 0;
    uint64_t left = message;
    bool first = true;
    do
    {
        uint32_t payload = uint32_t(std::min<uint64_t>(left, p.pmtu));
        left -= payload;
        lastNs = WireNs(FrameBytes(payload, write, first, left == 0, imm), p.rate);
        msgNs += lastNs;
        first = false;
    } while (left > 0);
    double ackNs = WireNs(14 + 20 + 8 + 12 + 4 + 4, p.rate); // BTH + AETH
    double loop = 2 * p.delayNs + ackNs + p.completeNs;
    if (p.viaSwitch)
    {
        loop += lastNs + ackNs + 2 * p.delayNs; // the switch stores each frame before it forwards
    }
    uint32_t k = p.ackReqMessages == 0 ? depth : std::min(p.ackReqMessages, depth);
    Analytic a;
    a.lineGbps = double(message) * 8 / msgNs;
    a.windowGbps = double(depth) * double(message) * 8 / (k * msgNs + loop);
    a.gbps = std::min(a.lineGbps, a.windowGbps);
    a.loopNs = loop;
    // exact when every ACK covers K messages; otherwise (K does not divide W) some ACKs cover
    // fewer and free slots sooner: the formula is then a lower bound
    a.exact = p.ackReqMessages == 0 || k == 1 || (depth >= p.ackReqMessages && depth % k == 0);
    return a;
}

/// Completions of one chain, for goodput over whole turns of the window: from the first
/// completion instant after the warm-up, t_a, to the last instant t_b by which a multiple of W
/// requests completed after t_a.  In a steady state where each of the W send-queue slots turns
/// once per period (requests completed alone or K at a time), t_b - t_a is a whole number of
/// periods, and the goodput is exact rather than off by a message at either end.
struct Meter
{
    Time from;
    uint32_t depth{1};
    uint64_t message{0};
    Time first{-1};    ///< t_a
    Time instant{-1};  ///< the instant being counted
    uint64_t count{0}; ///< completions after t_a, up to and including `instant`
    Time last{-1};     ///< t_b
    uint64_t good{0};  ///< completions in (t_a, t_b]

    /// The instant counted is complete: is it a t_b?
    void Close()
    {
        if (instant > first && count % depth == 0)
        {
            last = instant;
            good = count;
        }
    }
};

void
OnCompletion(Meter* m, const RoceCompletion& c, Time)
{
    if (c.status != ROCE_WC_SUCCESS || c.completed < m->from)
    {
        return;
    }
    if (m->first.IsNegative())
    {
        m->first = m->instant = c.completed;
        return;
    }
    if (c.completed == m->first)
    {
        return; // t_a's own completions start the count
    }
    if (c.completed != m->instant)
    {
        m->Close();
        m->instant = c.completed;
    }
    m->count++;
}

struct Chain
{
    bool write;
    uint64_t message;
    Time delay;
    uint32_t depth;
    bool bench;
    Ptr<RoceQueuePair> qp;
    Ptr<RoceQueuePair> peer;
    Ptr<RoceReceiverApp> rx;
    Ptr<RoceFrontEndApp> app;
    Ptr<FeroceSwitch> sw;
    Meter meter;
    uint64_t rxAtFrom{0}; ///< bytes received at the end of the warm-up
};

void
Snapshot(std::vector<std::unique_ptr<Chain>>* chains)
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

/// "a,b,c" into items; false on an empty item.
bool
Split(const std::string& text, std::vector<std::string>& out)
{
    std::istringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        if (item.empty())
        {
            return false;
        }
        out.push_back(item);
    }
    return !out.empty() && text.back() != ',';
}

/// An unsigned integer, all of the text.
bool
ParseUint(const std::string& text, uint64_t& v)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 12)
    {
        return false;
    }
    v = std::stoull(text);
    return true;
}

/// "1:32" or "1,2,4,8" into distinct depths in 1..1024, ascending.
bool
ParseDepths(const std::string& text, std::vector<uint32_t>& out)
{
    std::size_t colon = text.find(':');
    if (colon != std::string::npos)
    {
        uint64_t lo = 0;
        uint64_t hi = 0;
        if (!ParseUint(text.substr(0, colon), lo) || !ParseUint(text.substr(colon + 1), hi) ||
            lo < 1 || hi > 1024 || lo > hi)
        {
            return false;
        }
        for (uint64_t d = lo; d <= hi; d++)
        {
            out.push_back(uint32_t(d));
        }
        return true;
    }
    std::vector<std::string> items;
    if (!Split(text, items))
    {
        return false;
    }
    for (auto& i : items)
    {
        uint64_t d = 0;
        if (!ParseUint(i, d) || d < 1 || d > 1024 || std::count(out.begin(), out.end(), d))
        {
            return false;
        }
        out.push_back(uint32_t(d));
    }
    std::sort(out.begin(), out.end());
    return true;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string depthList = "1:32";
    std::string messageList = "1024,4096,16384,65536";
    std::string opcodeList = "write,send";
    std::string delayList = "50ns,1us,5us";
    bool viaSwitch = false;
    uint32_t pmtu = 4096;
    DataRate linkRate("10Gbps");
    Time completionLatency = NanoSeconds(2500);
    uint32_t ackReqMessages = 4;
    uint32_t ackInterval = 0;
    Time benchDelay = NanoSeconds(50);
    double recvPostRate = 0;
    uint32_t receiveBuffers = 64;
    bool withImm = false;
    uint32_t rnrRetry = 7;
    uint32_t rnrTimerCode = 1;

    FeroceStudy study("advcam-window",
                      "results/advcam-window",
                      MilliSeconds(5),
                      MicroSeconds(500),
                      MilliSeconds(1));
    study.AddFlag("depths",
                  "Send-queue depths (work requests outstanding): lo:hi or a comma list, 1..1024",
                  depthList);
    study.AddFlag("messageSizes", "Message bytes, comma separated, 1..2147483648", messageList);
    study.AddFlag("opcodes", "write, send or both, comma separated", opcodeList);
    study.AddFlag("delays",
                  "One-way propagation delay of each link, comma separated (e.g. 50ns,1us,5us)",
                  delayList);
    study.AddFlag("viaSwitch", "A store-and-forward switch between board and receiver", viaSwitch);
    study.AddFlag("pmtu", "Path MTU", pmtu, "ns3::RoceQueuePair::Pmtu");
    study.AddFlag("linkRate", "Rate of every link", linkRate, "ns3::FeroceNetDevice::DataRate");
    study.AddFlag("completionLatency",
                  "Engine's completion processing: from the ACK to the free send-queue slot",
                  completionLatency,
                  "ns3::RoceQueuePair::CompletionLatency");
    study.AddFlag("ackReqMessages",
                  "AckReq on every this many messages (and on the last queued); 0: one per window",
                  ackReqMessages,
                  "ns3::RoceQueuePair::AckReqMessages");
    study.AddFlag("ackInterval",
                  "Receiver: ACK every this many packets as well as on AckReq; 0: only on AckReq",
                  ackInterval);
    study.Owns("ns3::RoceQueuePair::AckInterval", "ackInterval");
    study.AddFlag("benchDelay",
                  "Propagation delay of the hardware bench's one link (its two chains)",
                  benchDelay);
    study.AddFlag("recvPostRate",
                  "SEND chains' receivers post one receive buffer per 1/this s (none at the "
                  "start); 0: they keep receiveBuffers posted",
                  recvPostRate);
    study.Owns("ns3::RoceReceiverApp::PostRate", "recvPostRate");
    study.AddFlag("receiveBuffers",
                  "Receive buffers posted per queue pair (most waiting, with recvPostRate)",
                  receiveBuffers,
                  "ns3::RoceReceiverApp::ReceiveBuffers");
    study.AddFlag("withImm", "The grid's messages carry immediate data", withImm);
    study.Owns("ns3::RoceFrontEndApp::WithImmediate", "withImm");
    study.AddFlag("rnrRetry",
                  "RNR NAKs without progress before the QP fails; 7: for ever",
                  rnrRetry,
                  "ns3::RoceQueuePair::RnrRetry");
    study.AddFlag("rnrTimerCode",
                  "Receiver's RNR NAK timer code (1 = 10 us, 14 = 1.28 ms)",
                  rnrTimerCode,
                  "ns3::RoceQueuePair::RnrTimerCode");
    study.Owns("ns3::RoceQueuePair::SendQueueDepth", "depths");
    study.Owns("ns3::RoceFrontEndApp::MaxOutstanding", "depths");
    study.Owns("ns3::RoceFrontEndApp::MessageSize", "messageSizes");
    study.Owns("ns3::RoceFrontEndApp::Write", "opcodes");
    study.Owns("ns3::FeroceChannel::Delay", "delays");
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }

    // every input checked before anything is built
    std::vector<uint32_t> depths;
    if (!ParseDepths(depthList, depths))
    {
        return study.RejectFlag("depths",
                                "lo:hi or distinct comma-separated depths, within 1..1024");
    }
    std::vector<uint64_t> messages;
    {
        std::vector<std::string> items;
        bool ok = Split(messageList, items);
        for (auto& i : items)
        {
            uint64_t m = 0;
            ok = ok && ParseUint(i, m) && m >= 1 && m <= (1ULL << 31) &&
                 !std::count(messages.begin(), messages.end(), m);
            messages.push_back(m);
        }
        if (!ok)
        {
            return study.RejectFlag("messageSizes",
                                    "distinct comma-separated byte counts within 1..2147483648");
        }
    }
    std::vector<bool> opcodes;
    {
        std::vector<std::string> items;
        bool ok = Split(opcodeList, items);
        for (auto& i : items)
        {
            bool w = i == "write";
            ok = ok && (w || i == "send") && !std::count(opcodes.begin(), opcodes.end(), w);
            opcodes.push_back(w);
        }
        if (!ok)
        {
            return study.RejectFlag("opcodes", "write, send or write,send");
        }
    }
    std::vector<Time> delays;
    {
        std::vector<std::string> items;
        bool ok = Split(delayList, items);
        for (auto& i : items)
        {
            Time t;
            ok = ok && FeroceStudy::ParseTime(i, t) && !t.IsNegative() && t <= MilliSeconds(1) &&
                 !std::count(delays.begin(), delays.end(), t);
            delays.push_back(t);
        }
        if (!ok)
        {
            return study.RejectFlag("delays",
                                    "distinct comma-separated times within 0..1ms (e.g. 50ns,1us)");
        }
    }
    std::string error = RoceQueuePair::CheckPmtu(pmtu);
    if (!error.empty())
    {
        return study.Reject(error);
    }
    if (linkRate.GetBitRate() < 1000000 || linkRate.GetBitRate() > 1000000000000ULL)
    {
        return study.RejectFlag("linkRate", "1Mbps..1Tbps");
    }
    if (benchDelay.IsNegative() || benchDelay > MilliSeconds(1))
    {
        return study.RejectFlag("benchDelay", "a time within 0..1ms");
    }
    if (ackInterval > 1000000)
    {
        return study.RejectFlag("ackInterval", "0 (only on AckReq) or 1..1000000 packets");
    }
    if (!(recvPostRate >= 0 && recvPostRate <= 1e9))
    {
        return study.RejectFlag(
            "recvPostRate",
            "0 (buffers always posted) or a rate in (0, 1e9] buffers per second");
    }
    if (recvPostRate > 0 && receiveBuffers == 0)
    {
        return study.RejectFlag("receiveBuffers", ">= 1 with --recvPostRate > 0");
    }
    if (ackReqMessages > 1024)
    {
        return study.RejectFlag("ackReqMessages", "0..1024");
    }
    Time duration = study.GetDuration();
    Time from = study.GetWarmup() < duration ? study.GetWarmup() : Time(0);

    RoceHelper helper;
    helper.SetDeviceAttribute("DataRate", DataRateValue(linkRate));
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false)); // one flow, no congestion
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetQueuePairAttribute("CompletionLatency", TimeValue(completionLatency));
    helper.SetQueuePairAttribute("AckReqMessages", UintegerValue(ackReqMessages));
    helper.SetQueuePairAttribute("RnrRetry", UintegerValue(rnrRetry));
    helper.SetQueuePairAttribute("RnrTimerCode", UintegerValue(rnrTimerCode));
    // the receiver acknowledges on AckReq, and every ackInterval packets if given
    helper.SetQueuePairAttribute("AckInterval",
                                 UintegerValue(ackInterval == 0 ? 0xffffffffU : ackInterval));

    std::vector<std::unique_ptr<Chain>> chains;
    auto build = [&](bool write, uint64_t message, Time delay, uint32_t depth, bool bench) {
        auto c = std::make_unique<Chain>();
        c->write = write;
        c->message = message;
        c->delay = delay;
        c->depth = depth;
        c->bench = bench;
        c->meter.from = from;
        c->meter.depth = depth;
        c->meter.message = message;
        helper.SetChannelAttribute("Delay", TimeValue(delay));
        helper.SetQueuePairAttribute("SendQueueDepth", UintegerValue(depth));
        Ptr<Node> board = CreateObject<Node>();
        Ptr<Node> receiver = CreateObject<Node>();
        Ptr<RoceNic> tx;
        Ptr<RoceNic> rx;
        if (viaSwitch && !bench)
        {
            Ptr<Node> swNode = CreateObject<Node>();
            c->sw = helper.InstallSwitch(swNode);
            tx = helper.AttachHost(c->sw, board);
            rx = helper.AttachHost(c->sw, receiver);
        }
        else
        {
            NetDeviceContainer d = helper.InstallLink(board, receiver);
            tx = DynamicCast<RoceNic>(d.Get(0));
            rx = DynamicCast<RoceNic>(d.Get(1));
        }
        auto qps = helper.ConnectQueuePairs(tx, rx);
        c->qp = qps.first;
        c->peer = qps.second;
        c->rx = CreateObject<RoceReceiverApp>();
        c->rx->SetAttribute("ReceiveBuffers", UintegerValue(receiveBuffers));
        c->rx->SetAttribute("PostRate", DoubleValue(!bench && !write ? recvPostRate : 0));
        c->rx->AddQueuePair(qps.second);
        receiver->AddApplication(c->rx);
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("MessageSize", UintegerValue(message));
        app->SetAttribute("MaxOutstanding", UintegerValue(depth));
        app->SetAttribute("Write", BooleanValue(write));
        app->SetAttribute("WithImmediate", BooleanValue(!bench && withImm));
        app->SetQueuePair(c->qp);
        c->app = app;
        board->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(duration);
        c->qp->TraceConnectWithoutContext("Completion",
                                          MakeBoundCallback(&OnCompletion, &c->meter));
        chains.push_back(std::move(c));
    };
    for (bool write : opcodes)
    {
        for (uint64_t message : messages)
        {
            for (Time delay : delays)
            {
                for (uint32_t depth : depths)
                {
                    build(write, message, delay, depth, false);
                }
            }
        }
    }
    std::size_t firstBench = chains.size();
    for (uint32_t depth : kBenchDepths)
    {
        build(false, kBenchMessage, benchDelay, depth, true);
        Ptr<RoceReceiverApp> rx = chains.back()->rx;
        study.AddFlow(
            "bench_depth" + std::to_string(depth),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            duration);
    }
    if (viaSwitch)
    {
        helper.PopulateRoutes();
        for (auto& c : chains)
        {
            if (c->sw)
            {
                error = c->sw->Validate();
                if (!error.empty())
                {
                    return study.Reject(error);
                }
            }
        }
    }
    for (auto& c : chains)
    {
        error = c->rx->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    if (study.GetPcap())
    {
        helper.EnablePcapAll(study.GetPath("advcam-window"));
    }
    Simulator::Schedule(from, &Snapshot, &chains);
    helper.AssignStreams(1);
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    // goodput of a chain: whole periods between completions; the receiver's bytes over the
    // measured time when fewer than two completion instants fell after the warm-up
    double seconds = (duration - from).GetSeconds();
    for (auto& c : chains)
    {
        c->meter.Close();
    }
    auto measured = [&](const Chain& c) {
        if (c.meter.last > c.meter.first && !c.meter.first.IsNegative())
        {
            return double(c.meter.good * c.meter.message) * 8 /
                   (c.meter.last - c.meter.first).GetSeconds() / 1e9;
        }
        return double(c.rx->GetBytesReceived() - c.rxAtFrom) * 8 / seconds / 1e9;
    };
    double rate = double(linkRate.GetBitRate());
    Path base{rate, 0, viaSwitch, double(completionLatency.GetNanoSeconds()), ackReqMessages, pmtu};

    std::ofstream csv = study.OpenOutput("window.csv");
    csv << "opcode,message_bytes,delay_ns,depth,measured_gbps,analytic_gbps,line_gbps,"
           "window_gbps,fraction_of_line,formula_exact,loop_ns,post_bound_gbps,rnr_naks,"
           "retransmits,timeouts,acks_per_message,status\n";
    double worst = 0; // largest relative error against the formula where it is exact
    uint64_t rnrNaks = 0;
    uint64_t qpErrors = 0;
    uint64_t retransmits = 0;
    std::string firstStatus;
    uint64_t belowFormula = 0; // points measured below the formula's bound

    // design answer per (opcode, message, delay)
    struct Design
    {
        int measured{-1};
        int formula{-1};
    };

    std::vector<Design> design;
    std::size_t i = 0;
    for (bool write : opcodes)
    {
        for (uint64_t message : messages)
        {
            for (Time delay : delays)
            {
                Path p = base;
                p.delayNs = double(delay.GetNanoSeconds());
                Design d;
                for (uint32_t depth : depths)
                {
                    Chain& c = *chains[i];
                    bool imm = withImm;
                    Analytic a = Formula(p, write, imm, message, depth);
                    double m = measured(c);
                    bool rnr = !write && recvPostRate > 0;
                    double bound = rnr ? recvPostRate * double(message) * 8 / 1e9 : NAN;
                    const auto& k = c.qp->GetCounters();
                    rnrNaks += k.rnrNaksReceived;
                    retransmits += k.retransmittedPackets;
                    // what the board's application saw: the status of its first failed request
                    RoceCompletionStatus why = c.app->GetFailureStatus();
                    std::string status = RoceCompletionStatusName(why);
                    if (why != ROCE_WC_SUCCESS)
                    {
                        qpErrors++;
                        if (firstStatus.empty())
                        {
                            firstStatus = status;
                        }
                    }
                    csv << (write ? "write" : "send") << "," << message << ","
                        << delay.GetNanoSeconds() << "," << depth << "," << Format(m) << ","
                        << Format(a.gbps) << "," << Format(a.lineGbps) << ","
                        << Format(a.windowGbps) << "," << Format(m / a.lineGbps) << ","
                        << (a.exact ? 1 : 0) << "," << Format(a.loopNs, 1) << "," << Format(bound)
                        << "," << k.rnrNaksReceived << "," << k.retransmittedPackets << ","
                        << k.timeouts << ","
                        << Format(k.completions ? double(k.acksReceived) / double(k.completions)
                                                : NAN,
                                  3)
                        << "," << status << "\n";
                    if (a.exact && !rnr)
                    {
                        worst = std::max(worst, std::fabs(m - a.gbps) / a.gbps);
                    }
                    // the design answer: the smallest depth from which every larger one in the
                    // list reaches 99% (with K > 1 a depth K does not divide can do worse)
                    if (m >= 0.99 * a.lineGbps)
                    {
                        if (d.measured < 0)
                        {
                            d.measured = int(depth);
                        }
                    }
                    else
                    {
                        d.measured = -1;
                    }
                    if (!rnr && m < a.gbps * (1 - 1e-3))
                    {
                        belowFormula++;
                    }
                    i++;
                }
                // by the formula, over the depths where it is exact
                for (uint32_t w = 1; w <= 1024 && d.formula < 0; w++)
                {
                    Analytic f = Formula(p, write, withImm, message, w);
                    if (f.exact && f.windowGbps >= 0.99 * f.lineGbps)
                    {
                        d.formula = int(w);
                    }
                }
                design.push_back(d);
            }
        }
    }
    csv.close();

    std::ofstream dcsv = study.OpenOutput("design.csv");
    dcsv << "opcode,message_bytes,delay_ns,min_depth_99_measured,min_depth_99_formula\n";
    std::size_t j = 0;
    for (bool write : opcodes)
    {
        for (uint64_t message : messages)
        {
            for (Time delay : delays)
            {
                const Design& d = design[j++];
                dcsv << (write ? "write" : "send") << "," << message << ","
                     << delay.GetNanoSeconds() << ","
                     << (d.measured > 0 ? std::to_string(d.measured) : "") << ","
                     << (d.formula > 0 ? std::to_string(d.formula) : "") << "\n";
                // named by its delay too: one metric per point of design.csv
                study.AddMetric(std::string("min_depth_99_") + (write ? "write_" : "send_") +
                                    std::to_string(message) + "_" +
                                    std::to_string(delay.GetNanoSeconds()) + "ns",
                                d.measured > 0 ? d.measured : NAN);
            }
        }
    }
    dcsv.close();

    std::ofstream hcsv = study.OpenOutput("hardware.csv");
    hcsv << "depth,measured_gbps,analytic_gbps,hardware_gbps,measured_khz,hardware_khz,"
            "acks_per_message\n";
    bool benchComparable = pmtu == 4096 && linkRate.GetBitRate() == 10000000000ULL;
    Path bp = base;
    bp.delayNs = double(benchDelay.GetNanoSeconds());
    bp.viaSwitch = false;
    double worstBench = 0;
    for (std::size_t b = 0; b < 2; b++)
    {
        Chain& c = *chains[firstBench + b];
        double m = measured(c);
        Analytic a = Formula(bp, false, false, kBenchMessage, c.depth);
        double khz = m * 1e9 / (8.0 * kBenchMessage) / 1e3;
        hcsv << c.depth << "," << Format(m) << "," << Format(a.gbps) << ","
             << (benchComparable ? Format(kBenchGbps[b], 2) : "") << "," << Format(khz, 2) << ","
             << (benchComparable ? Format(kBenchKhz[b], 0) : "") << ","
             << Format(double(c.qp->GetCounters().acksReceived) /
                           double(std::max<uint64_t>(1, c.qp->GetCounters().completions)),
                       3)
             << "\n";
        std::string name = "bench" + std::to_string(c.depth);
        study.AddMetric(name + "_gbps", m);
        study.AddMetric(name + "_analytic_gbps", a.gbps);
        if (benchComparable)
        {
            worstBench = std::max(worstBench, std::fabs(m - kBenchGbps[b]) / kBenchGbps[b]);
        }
    }
    hcsv.close();

    study.AddMetric("goodput_gbps", measured(*chains[firstBench]));
    study.AddMetric("jain_min", NAN); // the chains do not share anything
    study.AddMetric("jain_mean", NAN);
    study.AddMetric("jain_windows", 0);
    study.AddMetric("max_error_vs_analytic", worst);
    study.AddMetric("points_below_formula", double(belowFormula));
    study.AddMetric("max_error_vs_hardware", benchComparable ? worstBench : NAN);
    study.AddMetric("rnr_naks", double(rnrNaks));
    study.AddMetric("qp_errors", double(qpErrors));
    study.AddMetric("retransmits", double(retransmits));
    if (qpErrors > 0)
    {
        std::cout << "advcam-window: " << qpErrors << " queue pair(s) in the error state, first "
                  << "completion status: " << firstStatus << std::endl;
    }
    Simulator::Destroy();
    return study.Finish();
}
