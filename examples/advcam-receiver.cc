/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The receiving host as the bottleneck (src/feroce/doc/receiver.md).  Two parts,
// simulated together (they share nothing: a switch each):
//
// (a) one board -> switch -> receiver at 10 Gb/s, saturating 1 MiB RDMA WRITEs,
//     per PMTU of --pmtus and per receiver: ConnectX (hardware, line rate),
//     Soft-RoCE with PFC from its NIC, Soft-RoCE without (drops, go-back-N).
//     The Soft-RoCE CPU costs --softPacketCost per packet + its bytes at
//     --softByteRate (calibrated once: 5 Gb/s at PMTU 4096, receiver.md).
// (b) the 3:1 AdvCam bench (--boards boards, one switch, PFC and ECN on the
//     switch) into a Soft-RoCE receiver, with and without PFC from its NIC,
//     with and without DCQCN: goodput, where the queue builds (switch egress
//     or NIC buffer), who marks, PAUSE frames, drops, retransmissions.
//
//   advcam-receiver --outdir=results/advcam-receiver
//
// Writes into --outdir: pmtu.csv (goodput per PMTU and receiver, the wire and
// CPU models, the hardware points), bench.csv (one line per bench
// configuration), goodput.csv and series.csv (per window: each chain's and
// board's goodput, each bench's switch queue and NIC buffer), metrics.txt; one
// row into --db whose goodput_gbps is Soft-RoCE with PFC at PMTU 4096 (or the
// largest PMTU).

#include "ns3/advcam-chain.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-study.h"
#include "ns3/feroce-switch-probe.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// The hardware bench at PMTU 4096 on 10 GbE (the Test 1): FPGA into ConnectX-5, and
/// into a VM's Soft-RoCE (CPU-bound).
constexpr uint32_t kHardwarePmtu = 4096;
constexpr double kConnectxGbps = 9.7;
constexpr double kSoftRoceGbps = 5.0;

/// The three receivers of part (a).
const char* const kKinds[] = {"connectx", "softroce_pfc", "softroce_nopfc"};

/// Most bytes in a NIC's receive buffer since the last read (from its RxBuffer trace).
struct NicBufferProbe
{
    uint32_t now{0};
    uint32_t windowMax{0};

    void Changed(uint32_t bytes)
    {
        now = bytes;
        windowMax = std::max(windowMax, bytes);
    }

    uint32_t TakeWindowMax()
    {
        uint32_t m = windowMax;
        windowMax = now;
        return m;
    }
};

/// A gauge's window maxima after the warm-up: their largest and their mean.
struct WindowStats
{
    double max{0};
    double sum{0};
    uint32_t n{0};

    void Add(double v, bool measured)
    {
        if (measured)
        {
            max = std::max(max, v);
            sum += v;
            n++;
        }
    }

    double Mean() const
    {
        return n ? sum / n : 0;
    }
};

/// One configuration of the 3:1 bench.
struct Bench
{
    bool nicPfc;
    bool dcqcn;
    std::string name;
    RoceIncast incast;
    std::vector<Ptr<RoceFrontEndApp>> apps;
    std::unique_ptr<FeroceSwitchProbe> switchProbe;
    NicBufferProbe nicProbe;
    WindowStats queue;
    WindowStats buffer;
};

void
Snapshot(std::vector<std::function<uint64_t()>>* counters, std::vector<uint64_t>* out)
{
    for (std::size_t i = 0; i < counters->size(); i++)
    {
        (*out)[i] = (*counters)[i]();
    }
}

/// The study's flags: the single-board chains' (AdvcamChainFlags), the Soft-RoCE receiver's and
/// the bench's.
struct ReceiverFlags : AdvcamChainFlags
{
    Time softPacketCost{NanoSeconds(3200)};
    DataRate softByteRate{"10Gbps"};
    uint32_t softBuffer{256 * 1024};
    uint32_t boards{3};
    uint32_t benchPmtu{4096};
    DcqcnSwitchFlags fabric; // the switch's part: the bench sets DCQCN per configuration

    void AddTo(FeroceStudy& study);

    /// The attributes of a Soft-RoCE receiver's NIC, with PFC from its NIC or not.
    NicAttributes Software(bool pfc) const
    {
        return {{"ReceiverModel", Create<StringValue>("software")},
                {"RxPacketCost", Create<TimeValue>(softPacketCost)},
                {"RxProcessingRate", Create<DataRateValue>(softByteRate)},
                {"RxBufferSize", Create<UintegerValue>(softBuffer)},
                {"RxPfc", Create<BooleanValue>(pfc)}};
    }
};

void
ReceiverFlags::AddTo(FeroceStudy& study)
{
    AdvcamChainFlags::AddTo(study);
    study.AddFlag("softPacketCost", "Soft-RoCE: the CPU's time per data packet", softPacketCost);
    study
        .AddFlag("softByteRate",
                 "Soft-RoCE: the CPU's per-byte cost as a rate (frame bits per second)",
                 softByteRate)
        .Check([](const DataRate& r) {
            return r.GetBitRate() > 0 ? "" : "a rate > 0 (the CPU's bytes per second)";
        });
    study.AddFlag("softBuffer", "Soft-RoCE: receive buffer bytes", softBuffer);
    study.AddFlag("boards", "Part (b): boards into the Soft-RoCE receiver", boards).Range(1, 64);
    study.AddFlag("benchPmtu", "Part (b): path MTU: 256, 512, 1024, 2048 or 4096", benchPmtu)
        .Check(
            [](const uint32_t& p) { return IsRocePmtu(p) ? "" : "256, 512, 1024, 2048 or 4096"; });
    fabric.AddSwitchTo(study);
    // the bench's NICs: paper; DCQCN on or off per configuration
    study.Owns("ns3::RoceNic::DcqcnPreset");
    study.Owns("ns3::RoceNic::DcqcnEnabled");
    study.Owns("ns3::RoceNic::RxPfc");
    // the receivers' models are set per NIC (the boards stay hardware) by these flags
    study.Owns("ns3::RoceNic::RxPacketCost", "softPacketCost");
    study.Owns("ns3::RoceNic::RxProcessingRate", "softByteRate");
    study.Owns("ns3::RoceNic::RxBufferSize", "softBuffer");
    // the Soft-RoCE receivers' PFC thresholds follow from the buffer (XOFF = buffer - headroom,
    // XON = XOFF / 2); set for every NIC they would only be refused by the boards' NICs
    study.Owns("ns3::RoceNic::RxXoffBytes", "softBuffer");
    study.Owns("ns3::RoceNic::RxXonBytes", "softBuffer");
    study.Owns("ns3::RoceQueuePair::Pmtu", "pmtus");
}

/**
 * One configuration of the bench: boards -> switch -> the Soft-RoCE receiver, with or without
 * PFC from its NIC and DCQCN; its flows and its gauges (the switch queue toward the receiver and
 * the NIC's buffer, most bytes per window) on the study.  Null with *error when refused.
 */
std::unique_ptr<Bench>
InstallBench(FeroceStudy& study,
             RoceHelper& helper,
             const ReceiverFlags& f,
             int cfg,
             Time from,
             std::vector<std::function<uint64_t()>>& counters,
             std::string* error)
{
    Time duration = study.GetDuration();
    uint32_t boards = f.boards;
    auto b = std::make_unique<Bench>();
    b->nicPfc = cfg & 1;
    b->dcqcn = cfg & 2;
    b->name = std::string("nicpfc") + (b->nicPfc ? "1" : "0") + "_dcqcn" + (b->dcqcn ? "1" : "0");
    b->incast = helper.InstallIncast(boards);
    for (const auto& nic : b->incast.senders)
    {
        nic->SetAttribute("DcqcnEnabled", BooleanValue(b->dcqcn));
    }
    b->incast.receiver->SetAttribute("DcqcnEnabled", BooleanValue(b->dcqcn));
    for (const auto& a : f.Software(b->nicPfc))
    {
        b->incast.receiver->SetAttribute(a.first, *a.second);
    }
    *error = b->incast.receiver->Validate();
    if (!error->empty())
    {
        *error =
            "the Soft-RoCE receiver (--softPacketCost, --softByteRate, --softBuffer): " + *error;
        return nullptr;
    }
    *error = b->incast.Validate(); // the boards and the switch (--kmin, --kmax, --pmax)
    if (!error->empty())
    {
        return nullptr;
    }
    helper.ConnectIncast(b->incast);
    Ptr<RoceReceiverApp> rx = b->incast.receiverApp;
    for (uint32_t i = 0; i < boards; i++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetQueuePair(b->incast.qps[i]);
        b->incast.hosts.Get(i)->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(duration);
        b->apps.push_back(app);
        counters.push_back([rx, i]() { return rx->GetBytesReceived(i); });
        study.AddFlow(b->name + "_board" + std::to_string(i), counters.back(), Time(0), duration);
    }
    b->switchProbe = std::make_unique<FeroceSwitchProbe>(b->incast.sw);
    Bench* raw = b.get();
    b->incast.receiver->TraceConnectWithoutContext(
        "RxBuffer",
        MakeCallback(&NicBufferProbe::Changed, &raw->nicProbe));
    uint32_t port = b->incast.GetReceiverPort();
    study.AddGauge(b->name + "_switch_queue_bytes", [raw, port, from]() {
        double v = double(raw->switchProbe->TakeWindowMax(port));
        raw->queue.Add(v, Simulator::Now() > from);
        return v;
    });
    study.AddGauge(b->name + "_nic_buffer_bytes", [raw, from]() {
        double v = double(raw->nicProbe.TakeWindowMax());
        raw->buffer.Add(v, Simulator::Now() > from);
        return v;
    });
    return b;
}

/**
 * bench.csv, one line per configuration (goodput, Jain's index, switch queue and NIC buffer,
 * PAUSE frames, ECN marks, CNPs, drops, retransmissions, timeouts) and its metrics; gbps(flow)
 * is a flow's goodput after the warm-up, the bench's flows after the first firstFlow.  Returns
 * the benches' drops.
 */
uint64_t
WriteBench(FeroceStudy& study,
           const ReceiverFlags& f,
           const std::vector<std::unique_ptr<Bench>>& benches,
           const std::function<double(std::size_t)>& gbps,
           std::size_t firstFlow)
{
    std::ofstream benchCsv = study.OpenOutput("bench.csv");
    benchCsv << "config,nic_pfc,dcqcn,goodput_gbps,jain,switch_queue_max_bytes,"
                "switch_queue_mean_bytes,nic_buffer_max_bytes,nic_buffer_mean_bytes,"
                "switch_pause_frames,nic_pause_frames,ecn_marks,cnps,nic_drops,switch_drops,"
                "retransmits,timeouts\n";
    std::size_t flow = firstFlow;
    uint64_t benchDrops = 0;
    for (const auto& b : benches)
    {
        double sum = 0;
        double squares = 0;
        for (uint32_t i = 0; i < f.boards; i++, flow++)
        {
            double g = gbps(flow);
            sum += g;
            squares += g * g;
        }
        double jain = squares > 0 ? sum * sum / (f.boards * squares) : NAN;
        uint64_t cnps = 0;
        uint64_t retx = 0;
        uint64_t timeouts = 0;
        for (uint32_t i = 0; i < f.boards; i++)
        {
            cnps += b->incast.receiverQps[i]->GetCounters().cnpsSent;
            retx += b->incast.qps[i]->GetCounters().retransmittedPackets;
            timeouts += b->incast.qps[i]->GetCounters().timeouts;
        }
        const auto& sc = b->incast.sw->GetCounters();
        const auto& nc = b->incast.receiver->GetCounters();
        benchDrops += nc.rxOverflowDrops + sc.TotalDrops();
        benchCsv << b->name << "," << b->nicPfc << "," << b->dcqcn << "," << FormatFixed(sum) << ","
                 << FormatFixed(jain) << "," << uint64_t(b->queue.max) << ","
                 << FormatFixed(b->queue.Mean()) << "," << uint64_t(b->buffer.max) << ","
                 << FormatFixed(b->buffer.Mean()) << "," << sc.pauseFramesSent << ","
                 << nc.pauseFramesSent << "," << sc.ecnMarks << "," << cnps << ","
                 << nc.rxOverflowDrops << "," << sc.TotalDrops() << "," << retx << "," << timeouts
                 << "\n";
        study.AddMetric(b->name + "_goodput_gbps", sum);
        study.AddMetric(b->name + "_switch_queue_max_bytes", b->queue.max);
        study.AddMetric(b->name + "_nic_buffer_max_bytes", b->buffer.max);
        study.AddMetric(b->name + "_ecn_marks", double(sc.ecnMarks));
        study.AddMetric(b->name + "_nic_drops", double(nc.rxOverflowDrops));
        study.AddMetric(b->name + "_retransmits", double(retx));
    }
    benchCsv.close();
    return benchDrops;
}

/**
 * (a) A chain per PMTU and receiver (ConnectX, Soft-RoCE with PFC, without), its flow on the
 * study and its counter in counters.  "" or why a NIC refused its attributes.
 */
std::string
InstallChains(FeroceStudy& study,
              RoceHelper& helper,
              const ReceiverFlags& f,
              std::vector<std::function<uint64_t()>>& counters,
              std::vector<AdvcamChain>& chains)
{
    for (uint32_t pmtu : f.pmtus)
    {
        for (std::size_t k = 0; k < 3; k++)
        {
            NicAttributes attrs = k == 0 ? NicAttributes{} : f.Software(k == 1);
            if (k > 0)
            {
                // the Soft-RoCE host of the hardware point: no notification point (no CNPs),
                // so its goodput is its CPU's, whatever the switch marks (receiver.md)
                attrs.emplace_back("DcqcnEnabled", Create<BooleanValue>(false));
            }
            AdvcamChain c = InstallAdvcamChain(helper, pmtu, study.GetDuration(), attrs);
            if (!c.error.empty())
            {
                // a refused receiver names the flags that set it
                return k == 0 ? c.error
                              : "the Soft-RoCE receiver (--softPacketCost, --softByteRate, "
                                "--softBuffer): " +
                                    c.error;
            }
            Ptr<RoceReceiverApp> rx = c.receiverApp;
            counters.push_back([rx]() { return rx->GetBytesReceived(); });
            study.AddFlow(std::string(kKinds[k]) + "_pmtu" + std::to_string(pmtu),
                          counters.back(),
                          Time(0),
                          study.GetDuration());
            chains.push_back(c);
        }
    }
    return "";
}

/**
 * (a) pmtu.csv and its metrics: goodput per PMTU and receiver against the wire's and the CPU
 * model's.  Returns the Soft-RoCE-with-PFC goodput at the hardware's PMTU (or the largest
 * studied); adds the chains' drops and retransmissions to *drops and *retx.
 */
double
WritePmtu(FeroceStudy& study,
          const ReceiverFlags& f,
          const std::vector<AdvcamChain>& chains,
          const std::function<double(std::size_t)>& gbps,
          uint64_t* drops,
          uint64_t* retx)
{
    const std::vector<uint32_t>& pmtus = f.pmtus;
    double rate = double(f.linkRate.GetBitRate());
    bool tenGig = f.linkRate.GetBitRate() == 10000000000ULL;
    uint32_t headlinePmtu = std::count(pmtus.begin(), pmtus.end(), kHardwarePmtu)
                                ? kHardwarePmtu
                                : *std::max_element(pmtus.begin(), pmtus.end());
    double headline = NAN;
    std::ofstream pmtuCsv = study.OpenOutput("pmtu.csv");
    pmtuCsv << "pmtu,connectx_gbps,softroce_pfc_gbps,softroce_nopfc_gbps,wire_gbps,"
               "cpu_model_gbps,connectx_hw_gbps,softroce_hw_gbps\n";
    for (std::size_t p = 0; p < pmtus.size(); p++)
    {
        double wire = WriteWireGoodputGbps(f.messageSize, pmtus[p], rate);
        double cpu =
            SoftReceiverGoodputGbps(f.messageSize, pmtus[p], f.softPacketCost, f.softByteRate);
        bool hw = tenGig && pmtus[p] == kHardwarePmtu;
        pmtuCsv << pmtus[p];
        for (std::size_t k = 0; k < 3; k++)
        {
            double g = gbps(p * 3 + k);
            pmtuCsv << "," << FormatFixed(g);
            study.AddMetric(std::string(kKinds[k]) + "_pmtu" + std::to_string(pmtus[p]) + "_gbps",
                            g);
            if (k == 1 && pmtus[p] == headlinePmtu)
            {
                headline = g;
            }
            const AdvcamChain& c = chains[p * 3 + k];
            *drops += c.receiver->GetCounters().rxOverflowDrops + c.sw->GetCounters().TotalDrops();
            *retx += c.qp->GetCounters().retransmittedPackets;
        }
        pmtuCsv << "," << FormatFixed(wire) << "," << FormatFixed(std::min(wire, cpu)) << ","
                << (hw ? FormatFixed(kConnectxGbps) : "") << ","
                << (hw ? FormatFixed(kSoftRoceGbps) : "") << "\n";
        study.AddMetric("cpu_model_pmtu" + std::to_string(pmtus[p]) + "_gbps", std::min(wire, cpu));
    }
    return headline;
}

} // namespace

int
main(int argc, char* argv[])
{
    ReceiverFlags f;
    FeroceStudy study("advcam-receiver",
                      "results/advcam-receiver",
                      MilliSeconds(30),
                      MilliSeconds(1),
                      MilliSeconds(5));
    f.AddTo(study);
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    f.fabric.SetHeadroomCheck(study);
    Time from = study.GetMeasureFrom();

    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnPreset", StringValue("paper"));

    std::vector<std::function<uint64_t()>> counters; // what goodput counts, per flow
    std::vector<AdvcamChain> chains;
    std::string error = InstallChains(study, helper, f, counters, chains);
    if (!error.empty())
    {
        return study.Reject(error);
    }

    // the Soft-RoCE receivers' model is this program's (a value the f.boards accept is not one
    // it can honour on them)
    if (study.GetCommandLine().GetSource("ns3::RoceNic::ReceiverModel") == FeroceSource::User)
    {
        return study.Reject(study.GetCommandLine().GetGivenAs("ns3::RoceNic::ReceiverModel") +
                            " is not honoured: this program sets ReceiverModel per receiver (see "
                            "--help)");
    }

    // (b) the bench, four ways
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(f.benchPmtu));
    std::vector<std::unique_ptr<Bench>> benches;
    for (int cfg = 0; cfg < 4; cfg++)
    {
        auto b = InstallBench(study, helper, f, cfg, from, counters, &error);
        if (!b)
        {
            return study.Reject(error);
        }
        benches.push_back(std::move(b));
    }
    helper.PopulateRoutes();
    for (const AdvcamChain& c : chains)
    {
        error = c.sw->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    std::vector<uint64_t> atFrom(counters.size(), 0);
    Simulator::Schedule(from, &Snapshot, &counters, &atFrom);
    study.EnablePcap(helper, "advcam-receiver");
    int64_t stream = helper.AssignStreams(1) + 1;
    for (const auto& b : benches)
    {
        for (const auto& app : b->apps)
        {
            stream += app->AssignStreams(stream);
        }
    }
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    // goodput after the warm-up
    double seconds = (study.GetDuration() - from).GetSeconds();
    std::function<double(std::size_t)> gbps = [&](std::size_t flow) {
        return double(counters[flow]() - atFrom[flow]) * 8 / seconds / 1e9;
    };
    uint64_t chainDrops = 0;
    uint64_t chainRetx = 0;
    double headline = WritePmtu(study, f, chains, gbps, &chainDrops, &chainRetx);

    // (b) one line per bench configuration
    uint64_t benchDrops = WriteBench(study, f, benches, gbps, f.pmtus.size() * 3);
    // the flows are not meant to share one link: their fairness means nothing as a whole
    study.AddMetric("goodput_gbps", headline);
    study.AddMetric("jain_min", NAN);
    study.AddMetric("jain_mean", NAN);
    study.AddMetric("jain_windows", 0);
    study.AddMetric("drops", double(chainDrops + benchDrops));
    study.AddMetric("retransmits_single_board", double(chainRetx));
    Simulator::Destroy();
    return study.Finish();
}
