/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// AdvCam incast: N front-end boards on 10 GbE links -> one switch -> one
// receiver at 10 Gb/s, RDMA WRITEs, DCQCN and PFC as configured.  By default
// the boards leave one by one (3 -> 2 -> 1), as on the hardware bench.
//
//   advcam-incast --boards=3 --duration=30ms --outdir=results/advcam-incast --pcap=1
//
// Writes OUTDIR/goodput.csv (Gb/s per board per window), OUTDIR/counters.txt
// (key=value: the simulator's own counters) and, with --pcap=1, one pcap per
// device (DLT_EN10MB, nanosecond timestamps).

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/stat.h>

using namespace ns3;

namespace
{

struct Run
{
    std::vector<Ptr<RoceQueuePair>> qps;
    Ptr<RoceReceiverApp> rx;
    std::vector<uint64_t> last;
    std::ofstream csv;
};

void
Sample(Run* run, Time window)
{
    run->csv << Simulator::Now().GetNanoSeconds();
    for (std::size_t i = 0; i < run->qps.size(); i++)
    {
        uint64_t b = run->rx->GetBytesReceived(i);
        run->csv << "," << double(b - run->last[i]) * 8 / window.GetSeconds() / 1e9;
        run->last[i] = b;
    }
    run->csv << "\n";
    Simulator::Schedule(window, &Sample, run, window);
}

/// mkdir -p: every missing parent too.
bool
MakeDirectories(const std::string& path)
{
    for (std::size_t i = 1; i <= path.size(); i++)
    {
        if (i == path.size() || path[i] == '/')
        {
            std::string part = path.substr(0, i);
            if (mkdir(part.c_str(), 0777) != 0 && errno != EEXIST)
            {
                return false;
            }
        }
    }
    return true;
}

int
Reject(const std::string& what)
{
    std::cerr << "advcam-incast: " << what << std::endl;
    return 2;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t boards = 3;
    Time duration = MilliSeconds(30);
    Time window = MilliSeconds(1);
    std::string outdir = "results/advcam-incast";
    bool pcap = false;
    bool dcqcn = true;
    std::string preset = "paper";
    bool pfc = true;
    bool pfcHonour = true;
    bool leave = true;
    double loss = 0;
    uint64_t bufferSize = 12000000;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    uint32_t pmtu = 4096;
    uint64_t messageSize = 1 << 20;
    bool write = true;
    bool imm = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("boards", "Front-end boards sending to the receiver", boards);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("window", "Goodput averaging window", window);
    cmd.AddValue("outdir", "Output directory", outdir);
    cmd.AddValue("pcap", "Write a pcap per device", pcap);
    cmd.AddValue("dcqcn", "DCQCN on the boards' NICs", dcqcn);
    cmd.AddValue("preset", "DCQCN preset: paper, connectx or hpcc", preset);
    cmd.AddValue("pfc", "PFC on the switch", pfc);
    cmd.AddValue("pfcHonour", "Boards obey PAUSE frames", pfcHonour);
    cmd.AddValue("leave", "Boards leave one by one (N -> N-1 -> ... -> 1)", leave);
    cmd.AddValue("loss", "Probability that the receiver's NIC loses a frame", loss);
    cmd.AddValue("bufferSize", "Switch buffer bytes", bufferSize);
    cmd.AddValue("kmin", "ECN Kmin bytes", kmin);
    cmd.AddValue("kmax", "ECN Kmax bytes", kmax);
    cmd.AddValue("pmax", "ECN Pmax", pmax);
    cmd.AddValue("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu);
    cmd.AddValue("messageSize", "Bytes per message", messageSize);
    cmd.AddValue("write", "RDMA WRITE (1) or SEND (0)", write);
    cmd.AddValue("imm", "Messages carry immediate data", imm);
    cmd.Parse(argc, argv);

    if (boards < 1 || boards > 1000)
    {
        return Reject("boards = " + std::to_string(boards) + " is not allowed: expected 1..1000");
    }
    if (pmtu != 256 && pmtu != 512 && pmtu != 1024 && pmtu != 2048 && pmtu != 4096)
    {
        return Reject("pmtu = " + std::to_string(pmtu) +
                      " is not allowed: expected 256, 512, 1024, 2048 or 4096");
    }
    if (loss < 0 || loss >= 1)
    {
        return Reject("loss = " + std::to_string(loss) + " is not allowed: expected [0, 1)");
    }
    if (!duration.IsStrictlyPositive() || !window.IsStrictlyPositive())
    {
        return Reject("duration and window must be > 0");
    }
    if (!MakeDirectories(outdir))
    {
        return Reject("cannot create --outdir " + outdir + ": " + std::strerror(errno));
    }

    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(dcqcn));
    helper.SetDeviceAttribute("DcqcnPreset", StringValue(preset));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    helper.SetSwitchAttribute("BufferSize", UintegerValue(bufferSize));
    helper.SetSwitchAttribute("Kmin", UintegerValue(kmin));
    helper.SetSwitchAttribute("Kmax", UintegerValue(kmax));
    helper.SetSwitchAttribute("Pmax", DoubleValue(pmax));

    NodeContainer hosts;
    hosts.Create(boards + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    NetDeviceContainer devices = helper.InstallStar(swNode, hosts);
    Ptr<FeroceSwitch> sw = swNode->GetObject<FeroceSwitch>();
    std::vector<Ptr<RoceNic>> nics;
    for (uint32_t i = 0; i < boards; i++)
    {
        nics.push_back(DynamicCast<RoceNic>(devices.Get(i)));
        nics.back()->SetAttribute("PfcHonour", BooleanValue(pfcHonour));
    }
    Ptr<RoceNic> receiver = DynamicCast<RoceNic>(devices.Get(boards));
    for (Ptr<RoceNic> nic : nics)
    {
        std::string error = nic->Validate();
        if (!error.empty())
        {
            return Reject(error);
        }
    }
    std::string error = sw->Validate();
    if (!error.empty())
    {
        return Reject(error);
    }
    sw->AssignStreams(1);
    if (loss > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(loss));
        em->AssignStreams(2);
        receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    Run run;
    run.rx = CreateObject<RoceReceiverApp>();
    hosts.Get(boards)->AddApplication(run.rx);
    std::vector<Ptr<RoceFrontEndApp>> apps;
    for (uint32_t i = 0; i < boards; i++)
    {
        auto qp = helper.ConnectQueuePairs(nics[i], receiver);
        run.qps.push_back(qp.first);
        run.rx->AddQueuePair(qp.second);
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("MessageSize", UintegerValue(messageSize));
        app->SetAttribute("Write", BooleanValue(write));
        app->SetAttribute("WithImmediate", BooleanValue(imm));
        app->SetQueuePair(qp.first);
        hosts.Get(i)->AddApplication(app);
        if (leave && i > 0)
        {
            app->SetStopTime(duration * int64_t(boards - i) / int64_t(boards));
        }
        apps.push_back(app);
    }
    run.last.assign(boards, 0);
    std::string csvName = outdir + "/goodput.csv";
    run.csv.open(csvName);
    if (!run.csv)
    {
        return Reject("cannot write " + csvName);
    }
    run.csv << "t_ns";
    for (uint32_t i = 0; i < boards; i++)
    {
        run.csv << ",board" << i << "_gbps";
    }
    run.csv << "\n";
    Simulator::Schedule(window, &Sample, &run, window);
    if (pcap)
    {
        helper.EnablePcapAll(outdir + "/advcam");
    }

    Simulator::Stop(duration);
    Simulator::Run();

    // the simulator's own counters, for the system tests and the user
    uint64_t ce = 0, cnps = 0, naks = 0, retx = 0, timeouts = 0;
    for (std::size_t i = 0; i < run.qps.size(); i++)
    {
        const auto& s = run.qps[i]->GetCounters();
        retx += s.retransmittedPackets;
        timeouts += s.timeouts;
        const auto& r = receiver->GetQueuePair(run.qps[i]->GetRemoteQpn())->GetCounters();
        ce += r.ceMarksReceived;
        cnps += r.cnpsSent;
        naks += r.naksSent;
    }
    const auto& c = sw->GetCounters();
    std::string countersName = outdir + "/counters.txt";
    std::ofstream counters(countersName);
    counters << "delivered_bytes=" << run.rx->GetBytesReceived() << "\n"
             << "ecn_marks=" << c.ecnMarks << "\n"
             << "ce_received=" << ce << "\n"
             << "cnps=" << cnps << "\n"
             << "naks=" << naks << "\n"
             << "retransmits=" << retx << "\n"
             << "timeouts=" << timeouts << "\n"
             << "pause_frames=" << c.pauseFramesSent << "\n"
             << "resume_frames=" << c.resumeFramesSent << "\n"
             << "drops_lossless=" << c.drops[FeroceSwitch::DROP_LOSSLESS] << "\n"
             << "drops_lossy=" << c.drops[FeroceSwitch::DROP_LOSSY_BUFFER_FULL] << "\n"
             << "receiver_losses=" << receiver->GetRxErrorDrops() << "\n"
             << "buffer_peak=" << c.bufferPeak << "\n";
    counters.close();
    Simulator::Destroy();

    std::cout << "advcam-incast: " << boards << " boards, "
              << run.rx->GetBytesReceived() * 8 / duration.GetSeconds() / 1e9
              << " Gb/s delivered on average\n"
              << "wrote " << csvName << " and " << countersName
              << (pcap ? " and " + outdir + "/advcam-*.pcap" : "") << std::endl;
    return counters ? 0 : 1;
}
