/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Goodput of one AdvCam board against the path MTU: board -> switch ->
// receiver at 10 Gb/s, saturating RDMA WRITEs of --messageSize bytes, one
// such chain per PMTU of --pmtus.  The chains share nothing (a switch each),
// so one simulation measures them all as separate runs would.
//
//   advcam-mtu --outdir=results/advcam-mtu
//
// Beside each measurement: the analytic goodput (each packet costs its
// payload + 82 bytes on the wire, a message's first packet 16 more for the
// RETH; src/feroce/doc/rocev2-wire.md) and the hardware measurement (about
// 9.7 Gb/s at PMTU 4096, FPGA to ConnectX-5).  Writes into --outdir:
// mtu.csv (pmtu, measured_gbps, analytic_gbps, hardware_gbps), goodput.csv
// (Gb/s per PMTU per window), metrics.txt; one row into --db whose
// goodput_gbps is the PMTU 4096 value (or the largest PMTU's).

#include "ns3/advcam-chain.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/feroce-flag-groups.h"
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

/// The hardware bench's goodput at PMTU 4096 (spec rocev2-wire.md).
constexpr uint32_t kHardwarePmtu = 4096;
constexpr double kHardwareGbps = 9.7;

void
Snapshot(std::vector<Ptr<RoceReceiverApp>>* rx, std::vector<uint64_t>* out)
{
    for (std::size_t i = 0; i < rx->size(); i++)
    {
        (*out)[i] = (*rx)[i]->GetBytesReceived();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    AdvcamChainFlags flags;
    DcqcnSwitchFlags fabric; // the switch's part: the bench's NICs run the paper preset

    FeroceStudy study("advcam-mtu",
                      "results/advcam-mtu",
                      MilliSeconds(10),
                      MilliSeconds(1),
                      MilliSeconds(1));
    flags.AddTo(study);
    fabric.AddSwitchTo(study);
    study.Owns("ns3::RoceNic::DcqcnPreset"); // the bench's NICs: paper
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    fabric.SetHeadroomCheck(study);
    Time duration = study.GetDuration();
    const std::vector<uint32_t>& pmtus = flags.pmtus;
    uint64_t messageSize = flags.messageSize;
    DataRate linkRate = flags.linkRate;
    // measured from the end of the warm-up (the whole run if it is as long)
    Time from = study.GetMeasureFrom();

    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnPreset", StringValue("paper"));
    std::vector<Ptr<RoceReceiverApp>> rxApps;
    std::vector<Ptr<RoceQueuePair>> qps;
    std::vector<Ptr<FeroceSwitch>> switches;
    for (uint32_t pmtu : pmtus)
    {
        AdvcamChain c = InstallAdvcamChain(helper, pmtu, duration);
        if (!c.error.empty())
        {
            return study.Reject(c.error);
        }
        Ptr<RoceReceiverApp> rxApp = c.receiverApp;
        rxApps.push_back(rxApp);
        qps.push_back(c.qp);
        switches.push_back(c.sw);
        study.AddFlow(
            "pmtu" + std::to_string(pmtu),
            [rxApp]() { return rxApp->GetBytesReceived(); },
            Time(0),
            duration);
    }
    helper.PopulateRoutes();
    for (auto& sw : switches)
    {
        std::string error = sw->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    std::vector<uint64_t> atFrom(pmtus.size(), 0);
    Simulator::Schedule(from, &Snapshot, &rxApps, &atFrom);
    study.EnablePcap(helper, "advcam-mtu");

    helper.AssignStreams(1);
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    double seconds = (duration - from).GetSeconds();
    std::ofstream csv = study.OpenOutput("mtu.csv");
    csv << "pmtu,measured_gbps,analytic_gbps,hardware_gbps\n";
    double rate = double(linkRate.GetBitRate());
    double headline = NAN;
    uint32_t headlinePmtu = std::count(pmtus.begin(), pmtus.end(), kHardwarePmtu)
                                ? kHardwarePmtu
                                : *std::max_element(pmtus.begin(), pmtus.end());
    double worst = 0;
    uint64_t retx = 0;
    uint64_t cnps = 0;
    for (std::size_t i = 0; i < pmtus.size(); i++)
    {
        double measured = double(rxApps[i]->GetBytesReceived() - atFrom[i]) * 8 / seconds / 1e9;
        double analytic = WriteWireGoodputGbps(messageSize, pmtus[i], rate);
        bool hardware = pmtus[i] == kHardwarePmtu && linkRate.GetBitRate() == 10000000000ULL;
        csv << pmtus[i] << "," << FormatFixed(measured) << "," << FormatFixed(analytic) << ","
            << (hardware ? FormatFixed(kHardwareGbps) : "") << "\n";
        std::string name = "pmtu" + std::to_string(pmtus[i]);
        study.AddMetric(name + "_gbps", measured); // from the warm-up on, not the whole run
        study.AddMetric(name + "_analytic_gbps", analytic);
        worst = std::max(worst, std::fabs(measured - analytic) / analytic);
        if (pmtus[i] == headlinePmtu)
        {
            headline = measured;
        }
        retx += qps[i]->GetCounters().retransmittedPackets;
        cnps += qps[i]->GetCounters().cnpsReceived;
    }
    csv.close();
    uint64_t drops = 0;
    uint64_t pauses = 0;
    uint64_t marks = 0;
    for (auto& sw : switches)
    {
        for (uint64_t d : sw->GetCounters().drops)
        {
            drops += d;
        }
        pauses += sw->GetCounters().pauseFramesSent;
        marks += sw->GetCounters().ecnMarks;
    }
    // the chains are not meant to share: their fairness means nothing
    study.AddMetric("goodput_gbps", headline);
    study.AddMetric("jain_min", NAN);
    study.AddMetric("jain_mean", NAN);
    study.AddMetric("jain_windows", 0);
    study.AddMetric("max_error_vs_analytic", worst);
    study.AddMetric("hardware_gbps_at_4096", kHardwareGbps);
    study.AddMetric("drops", double(drops));
    study.AddMetric("pause_frames", double(pauses));
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("ecn_marks", double(marks));
    study.AddMetric("retransmits", double(retx));
    Simulator::Destroy();
    return study.Finish();
}
