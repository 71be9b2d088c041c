/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// feroce-bench: how fast feroce simulates incasts (a program, not a test).
//
//   feroce-bench                      # every scenario
//   feroce-bench --scenario=incast3   # one of incast3 incast16 incast64 incast3-4k qp-memory
//   feroce-bench --scenario=incast256 # incastN: N (1..4096) senders, as incast3
//
// One line per scenario, key=value pairs: N senders -> switch -> 1 receiver,
// 10 Gb/s links, 1 us delay, PMTU 1024 with 1000-B payloads (4096 / 4000 B
// for incast3-4k), DCQCN hpcc preset (with a 100 Mb/s floor) scaled to 10 Gb/s with the HPCC
// simulator's ECN thresholds scaled alike, an ACK for every packet, 50 ms
// simulated; the frames sent by kind (data, ACK and NAK, CNP, PFC PAUSE and XON) close the
// line.  qp-memory measures the resident memory of 10000 QP pairs.

#include "ns3/core-module.h"
#include "ns3/feroce-command-line.h"
#include "ns3/feroce-cpu-time.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

long
CurrentRssKb()
{
    long pages = 0;
    long resident = 0;
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (f)
    {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
        {
            resident = 0;
        }
        std::fclose(f);
    }
    return resident * 4;
}

void
Incast(const std::string& name, uint32_t senders, uint32_t pmtu, uint32_t payload)
{
    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnPreset", StringValue("hpcc"));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetSwitchAttribute("Kmin", UintegerValue(40000));
    helper.SetSwitchAttribute("Kmax", UintegerValue(160000));
    helper.SetSwitchAttribute("Pmax", DoubleValue(0.2));
    // the switch's 12 MB default holds every port's reserve and headroom up to a few hundred
    // ports; beyond, 16 kB a port
    helper.SetSwitchAttribute(
        "BufferSize",
        UintegerValue(std::max<uint64_t>(12000000, 16000ULL * (senders + 1))));
    helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));

    RoceIncast incast = helper.InstallIncast(senders);
    helper.ConnectIncast(incast);
    Ptr<FeroceSwitch> sw = incast.sw;
    Ptr<RoceReceiverApp> rx = incast.receiverApp;
    const std::vector<Ptr<RoceQueuePair>>& remote = incast.receiverQps;
    for (uint32_t i = 0; i < senders; i++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("MessageSize", UintegerValue(payload));
        app->SetAttribute("MaxOutstanding", UintegerValue(64));
        app->SetQueuePair(incast.qps[i]);
        incast.hosts.Get(i)->AddApplication(app);
    }
    helper.AssignStreams(1);
    Time duration = MilliSeconds(50);
    Simulator::Stop(duration);
    uint64_t events0 = Simulator::GetEventCount();
    double cpu0 = FeroceCpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = FeroceCpuSeconds() - cpu0;
    uint64_t events = Simulator::GetEventCount() - events0;
    uint64_t delivered = 0;
    // the frames the model sent, by kind (PFC: PAUSE and XON), for the cost per modelled frame
    uint64_t data = 0;
    uint64_t acks = 0;
    uint64_t cnps = 0;
    uint64_t pauses = sw->GetCounters().pauseFramesSent + sw->GetCounters().resumeFramesSent;
    for (auto& qp : remote)
    {
        const RoceQueuePair::Counters& c = qp->GetCounters();
        delivered += c.messagesDelivered; // one packet per message
        acks += c.acksSent + c.naksSent + c.rnrNaksSent;
        cnps += c.cnpsSent;
    }
    for (auto& qp : incast.qps)
    {
        data += qp->GetCounters().dataPacketsSent;
    }
    incast.senders.push_back(incast.receiver);
    for (auto& nic : incast.senders)
    {
        pauses += nic->GetCounters().pauseFramesSent + nic->GetCounters().resumeFramesSent;
    }
    std::cout << "scenario=" << name << " wall_s=" << wall << " cpu_s=" << cpu
              << " sim_s=" << duration.GetSeconds() << " delivered_pkts=" << delivered
              << " pkts_per_wall_s=" << uint64_t(delivered / wall)
              << " events_per_pkt=" << double(events) / delivered
              << " goodput_gbps=" << rx->GetBytesReceived() * 8 / duration.GetSeconds() / 1e9
              << " ecn_marks=" << sw->GetCounters().ecnMarks << " peak_rss_kb=" << FerocePeakRssKb()
              << " data_frames=" << data << " ack_frames=" << acks << " cnp_frames=" << cnps
              << " pause_frames=" << pauses << std::endl;
    Simulator::Destroy();
}

void
QpMemory()
{
    const uint32_t n = 10000;
    RoceHelper helper;
    NodeContainer hosts;
    hosts.Create(2);
    NetDeviceContainer devs = helper.InstallLink(hosts.Get(0), hosts.Get(1));
    Ptr<RoceNic> a = DynamicCast<RoceNic>(devs.Get(0));
    Ptr<RoceNic> b = DynamicCast<RoceNic>(devs.Get(1));
    long before = CurrentRssKb();
    for (uint32_t i = 0; i < n; i++)
    {
        helper.ConnectQueuePairs(a, b);
    }
    long after = CurrentRssKb();
    std::cout << "scenario=qp-memory qps=" << 2 * n
              << " bytes_per_qp=" << (after - before) * 1024.0 / (2 * n)
              << " sizeof_qp=" << sizeof(RoceQueuePair) << " peak_rss_kb=" << FerocePeakRssKb()
              << std::endl;
    Simulator::Destroy();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scenario = "all";
    FeroceCommandLine cmd("feroce-bench", "feroce-bench: the speed of the simulator");
    cmd.AddValue("scenario",
                 "incast3, incast16, incast64, incast3-4k, qp-memory, all, or incastN (N senders)",
                 scenario);
    // the scenarios are fixed: what they set is theirs
    for (const char* owned : {"ns3::RoceNic::DcqcnPreset",
                              "ns3::RoceQueuePair::Pmtu",
                              "ns3::FeroceSwitch::Kmin",
                              "ns3::FeroceSwitch::Kmax",
                              "ns3::FeroceSwitch::Pmax",
                              "ns3::FeroceSwitch::BufferSize",
                              "ns3::FeroceChannel::Delay",
                              "ns3::RoceFrontEndApp::MessageSize",
                              "ns3::RoceFrontEndApp::MaxOutstanding",
                              "ns3::RoceNic::Ipv4Address"})
    {
        cmd.Owns(owned);
    }
    cmd.Derived("ns3::DcqcnReactionPoint::LineRate", "the NIC's DataRate");
    RoceHelper::SetDefaultSimulator(); // before Parse: the command line wins
    // the bench's DCQCN since its first round: the hpcc preset with the 100 Mb/s floor of the HPCC
    // simulator's RdmaHw default (run.py writes 1 Gb/s, the preset's now), so that its counts and
    // speeds stay comparable across rounds
    Config::SetDefault("ns3::DcqcnReactionPoint::MinRate", DataRateValue(DataRate("100Mbps")));
    if (!cmd.Parse(argc, argv))
    {
        return cmd.GetExitCode();
    }
    bool all = scenario == "all";
    bool known = false;
    if (all || scenario == "incast3")
    {
        Incast("incast3", 3, 1024, 1000);
        known = true;
    }
    if (all || scenario == "incast16")
    {
        Incast("incast16", 16, 1024, 1000);
        known = true;
    }
    if (all || scenario == "incast64")
    {
        Incast("incast64", 64, 1024, 1000);
        known = true;
    }
    // incastN: any other number of senders, for the scaling curve (plots/feroce-scaling.sh)
    uint32_t n = 0;
    if (!known && !all && scenario.rfind("incast", 0) == 0 &&
        scenario.find_first_not_of("0123456789", 6) == std::string::npos && scenario.size() > 6 &&
        scenario.size() < 11)
    {
        n = uint32_t(std::stoul(scenario.substr(6)));
    }
    if (n >= 1 && n <= 4096)
    {
        Incast(scenario, n, 1024, 1000);
        known = true;
    }
    if (all || scenario == "incast3-4k")
    {
        Incast("incast3-4k", 3, 4096, 4000);
        known = true;
    }
    if (all || scenario == "qp-memory")
    {
        QpMemory();
        known = true;
    }
    if (!known)
    {
        return cmd.Reject("--scenario=" + scenario +
                          " is not allowed: expected incast3, incast16, incast64, incast3-4k, "
                          "qp-memory, all or incastN with N in 1..4096 (see --help)");
    }
    return 0;
}
