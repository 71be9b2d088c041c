/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// AdvCam incast: N front-end boards on 10 GbE links -> one switch -> one
// receiver at 10 Gb/s, RDMA WRITEs (or SENDs), DCQCN and PFC as configured.
// By default the boards leave one by one (3 -> 2 -> 1), as on the hardware bench.
//
//   advcam-incast --boards=3 --duration=90ms --outdir=results/advcam-incast --pcap=1
//
// Writes into --outdir: goodput.csv (Gb/s per board per window, and Jain's
// index), series.csv (switch queue toward the receiver, buffer, each board's
// DCQCN rate Rc), pause.csv (PAUSE intervals), recovery.csv (each board's NAKs
// and retransmission timeouts), metrics.txt; one row into --db.

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn-reaction-point.h"
#include "ns3/error-model.h"
#include "ns3/feroce-attributes.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

std::string
ParseSchedule(const std::string& text, uint32_t boards, std::vector<std::pair<Time, Time>>& out)
{
    std::istringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        std::size_t colon = item.find(':');
        Time start;
        Time stop;
        if (colon == std::string::npos || !FeroceStudy::ParseTime(item.substr(0, colon), start) ||
            !FeroceStudy::ParseTime(item.substr(colon + 1), stop) || start.IsStrictlyNegative() ||
            stop <= start)
        {
            return "--schedule=" + text + " is not allowed: expected start:stop per board, " +
                   "comma separated, with 0 <= start < stop (e.g. 0ms:90ms,0ms:60ms,0ms:30ms)";
        }
        out.emplace_back(start, stop);
    }
    if (out.size() != boards)
    {
        return "--schedule=" + text + " is not allowed: expected " + std::to_string(boards) +
               " start:stop pairs (one per board), got " + std::to_string(out.size());
    }
    return "";
}

/// A NAK or retransmission timeout of a board, as recovery.csv lists it.
struct RecoveryEvent
{
    Time at;
    uint32_t board;
    const char* kind;
    uint32_t psn;
};

void
RecordRecovery(std::vector<RecoveryEvent>* events, uint32_t board, const char* kind, uint32_t psn)
{
    events->push_back({Simulator::Now(), board, kind, psn});
}

void
RecordLatency(FeroceStudy* study, const RoceCompletion& c, Time latency)
{
    if (c.status == ROCE_WC_SUCCESS)
    {
        study->AddLatency(latency);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t boards = 3;
    bool leave = true;
    std::string schedule;
    bool dcqcn = true;
    std::string preset = "paper";
    double g = 0;
    double rai = 0;
    Time increaseTimer;
    bool pfc = true;
    bool pfcHonour = true;
    uint64_t headroom = 0;
    bool ecn = true;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    uint64_t bufferSize = 12000000;
    double loss = 0;
    Time linkDelay = MicroSeconds(1);
    uint32_t pmtu = 4096;
    uint64_t messageSize = 1 << 20;
    bool write = true;
    bool imm = false;
    std::string mode = "saturate";
    Time triggerInterval = MicroSeconds(100);
    uint64_t boardBuffer = 4 << 20;
    Time ackTimeout = MilliSeconds(1);
    Time ackJitter;

    FeroceStudy study("advcam-incast", "results/advcam-incast", MilliSeconds(30));
    study.AddFlag("boards", "Front-end boards sending to the receiver", boards);
    study.AddFlag("leave", "Boards leave one by one (N -> N-1 -> ... -> 1)", leave);
    study.AddFlag("schedule", "Per board start:stop, comma separated (overrides leave)", schedule);
    study.AddFlag("dcqcn", "DCQCN on the boards' NICs", dcqcn, "ns3::RoceNic::DcqcnEnabled");
    study.AddFlag("preset",
                  "DCQCN preset: paper, connectx or hpcc",
                  preset,
                  "ns3::RoceNic::DcqcnPreset");
    study.AddFlag("g", "DCQCN alpha gain g (0: the preset's)", g, "ns3::DcqcnReactionPoint::G");
    study.AddFlag("rai", "DCQCN additive increase R_AI in Mb/s (0: the preset's)", rai);
    study.AddFlag("timer",
                  "DCQCN rate-increase timer T (0: the preset's)",
                  increaseTimer,
                  "ns3::DcqcnReactionPoint::IncreaseTimer");
    study.AddFlag("pfc", "PFC on the switch", pfc, "ns3::FeroceSwitch::PfcEnabled");
    study.AddFlag("pfcHonour", "Boards obey PAUSE frames", pfcHonour, "ns3::RoceNic::PfcHonour");
    study.AddFlag("headroom",
                  "Switch PFC headroom bytes per port and class (0: what the link needs)",
                  headroom,
                  "ns3::FeroceSwitch::Headroom");
    study.AddFlag("ecn", "ECN marking on the switch", ecn, "ns3::FeroceSwitch::EcnEnabled");
    study.AddFlag("kmin", "ECN Kmin bytes", kmin, "ns3::FeroceSwitch::Kmin");
    study.AddFlag("kmax", "ECN Kmax bytes", kmax, "ns3::FeroceSwitch::Kmax");
    study.AddFlag("pmax", "ECN Pmax", pmax, "ns3::FeroceSwitch::Pmax");
    study.AddFlag("bufferSize", "Switch buffer bytes", bufferSize, "ns3::FeroceSwitch::BufferSize");
    study.AddFlag("loss", "Probability that the receiver's NIC loses a frame", loss);
    study.AddFlag("linkDelay",
                  "Propagation delay of each link",
                  linkDelay,
                  "ns3::FeroceChannel::Delay");
    study.AddFlag("pmtu",
                  "Path MTU: 256, 512, 1024, 2048 or 4096",
                  pmtu,
                  "ns3::RoceQueuePair::Pmtu");
    study.AddFlag("messageSize",
                  "Bytes per message",
                  messageSize,
                  "ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("write", "RDMA WRITE (1) or SEND (0)", write, "ns3::RoceFrontEndApp::Write");
    study.AddFlag("imm",
                  "Messages carry immediate data",
                  imm,
                  "ns3::RoceFrontEndApp::WithImmediate");
    study.AddFlag("mode",
                  "Board traffic: saturate or trigger (a message per trigger)",
                  mode,
                  "ns3::RoceFrontEndApp::Mode");
    study.AddFlag("triggerInterval",
                  "Trigger mode: time between events",
                  triggerInterval,
                  "ns3::RoceFrontEndApp::TriggerInterval");
    study.AddFlag("boardBuffer",
                  "Trigger mode: on-board buffer bytes",
                  boardBuffer,
                  "ns3::RoceFrontEndApp::BufferSize");
    study.AddFlag("ackTimeout",
                  "QP retransmission timeout",
                  ackTimeout,
                  "ns3::RoceQueuePair::AckTimeout");
    study.AddFlag("ackJitter",
                  "Each timeout fires a uniform draw of up to this much after ackTimeout",
                  ackJitter,
                  "ns3::RoceQueuePair::AckTimeoutJitter");
    study.Owns("ns3::DcqcnReactionPoint::RateAi", "rai");
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    Time duration = study.GetDuration();

    if (boards < 1 || boards > 1000)
    {
        return study.RejectFlag("boards", "1..1000");
    }
    if (loss < 0 || loss >= 1)
    {
        return study.RejectFlag("loss", "[0, 1)");
    }
    if (g < 0 || g > 1)
    {
        return study.RejectFlag("g", "(0, 1], or 0 for the preset's");
    }
    if (rai < 0 || rai > 10000)
    {
        return study.RejectFlag("rai", "0..10000 Mb/s");
    }
    if (mode != "saturate" && mode != "trigger")
    {
        return study.RejectFlag("mode", "saturate or trigger");
    }
    if (messageSize < 1)
    {
        return study.RejectFlag("messageSize", ">= 1");
    }
    if (!ackTimeout.IsStrictlyPositive())
    {
        return study.RejectFlag("ackTimeout", "> 0");
    }
    std::vector<std::pair<Time, Time>> active;
    if (!schedule.empty())
    {
        std::string error = ParseSchedule(schedule, boards, active);
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    else
    {
        for (uint32_t i = 0; i < boards; i++)
        {
            Time stop =
                leave && i > 0 ? duration * int64_t(boards - i) / int64_t(boards) : duration;
            active.emplace_back(Time(0), stop);
        }
    }

    RoceHelper helper;
    helper.SetChannelAttribute("Delay", TimeValue(linkDelay));
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(dcqcn));
    helper.SetDeviceAttribute("PfcHonour", BooleanValue(pfcHonour));
    // the preset at the link's rate, then the swept knobs on top of it
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> overrides;
    if (g > 0)
    {
        overrides.emplace_back("G", Create<DoubleValue>(g));
    }
    if (rai > 0)
    {
        overrides.emplace_back("RateAi", Create<DataRateValue>(DataRate(uint64_t(rai * 1e6))));
    }
    if (increaseTimer.IsStrictlyPositive())
    {
        overrides.emplace_back("IncreaseTimer", Create<TimeValue>(increaseTimer));
    }
    std::string rpError = helper.SetReactionPoint(preset, overrides);
    if (!rpError.empty())
    {
        return study.Reject(rpError);
    }
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    helper.SetQueuePairAttribute("AckTimeout", TimeValue(ackTimeout));
    helper.SetQueuePairAttribute("AckTimeoutJitter", TimeValue(ackJitter));
    helper.SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    helper.SetSwitchAttribute("Headroom", UintegerValue(headroom));
    // an explicit headroom is taken as given: too little of it is a configuration to study
    if (!IsAttributeDefaultChanged(FeroceSwitch::GetTypeId(), "HeadroomCheck"))
    {
        helper.SetSwitchAttribute("HeadroomCheck", BooleanValue(headroom == 0));
    }
    helper.SetSwitchAttribute("BufferSize", UintegerValue(bufferSize));
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    helper.SetSwitchAttribute("Kmin", UintegerValue(kmin));
    helper.SetSwitchAttribute("Kmax", UintegerValue(kmax));
    helper.SetSwitchAttribute("Pmax", DoubleValue(pmax));

    RoceIncast incast = helper.InstallIncast(boards);
    std::string error = incast.Validate();
    if (!error.empty())
    {
        return study.Reject(error);
    }
    Ptr<FeroceSwitch> sw = incast.sw;
    Ptr<RoceNic> receiver = incast.receiver;
    if (pfc && headroom > 0 && headroom < sw->GetRequiredHeadroom(0))
    {
        std::cerr << "advcam-incast: warning: headroom = " << headroom << " is below the "
                  << sw->GetRequiredHeadroom(0)
                  << " bytes a board's link needs: frames in flight after a PAUSE will be lost"
                  << std::endl;
    }
    Ptr<RateErrorModel> em;
    if (loss > 0)
    {
        em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(loss));
        receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    helper.ConnectIncast(incast);
    Ptr<RoceReceiverApp> rx = incast.receiverApp;
    std::vector<Ptr<RoceFrontEndApp>> apps;
    std::vector<RecoveryEvent> recovery;
    for (uint32_t i = 0; i < boards; i++)
    {
        Ptr<RoceQueuePair> qp = incast.qps[i];
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("MessageSize", UintegerValue(messageSize));
        app->SetAttribute("Write", BooleanValue(write));
        app->SetAttribute("WithImmediate", BooleanValue(imm));
        app->SetAttribute("Mode", StringValue(mode));
        app->SetAttribute("TriggerInterval", TimeValue(triggerInterval));
        app->SetAttribute("BufferSize", UintegerValue(boardBuffer));
        app->SetQueuePair(qp);
        incast.hosts.Get(i)->AddApplication(app);
        app->SetStartTime(active[i].first);
        app->SetStopTime(active[i].second);
        apps.push_back(app);
        study.AddFlow(
            "board" + std::to_string(i),
            [rx, i]() { return rx->GetBytesReceived(i); },
            active[i].first,
            active[i].second);
        qp->TraceConnectWithoutContext("Completion", MakeBoundCallback(&RecordLatency, &study));
        qp->TraceConnectWithoutContext(
            "Nak",
            MakeBoundCallback(&RecordRecovery, &recovery, i, static_cast<const char*>("nak")));
        qp->TraceConnectWithoutContext(
            "Timeout",
            MakeBoundCallback(&RecordRecovery, &recovery, i, static_cast<const char*>("timeout")));
    }

    // what the study samples every window: the switch, and each board's DCQCN rate
    study.WatchSwitch(sw, incast.GetReceiverPort());
    for (uint32_t i = 0; i < boards; i++)
    {
        Ptr<RoceQueuePair> qp = incast.qps[i];
        study.AddGauge("board" + std::to_string(i) + "_rc_gbps",
                       [qp]() { return qp->GetRateBps() / 1e9; });
    }
    if (study.GetPcap())
    {
        helper.EnablePcapAll(study.GetPath("advcam"));
    }

    int64_t stream = helper.AssignStreams(1) + 1;
    for (Ptr<RoceFrontEndApp> app : apps)
    {
        stream += app->AssignStreams(stream);
    }
    if (em)
    {
        em->AssignStreams(stream);
    }
    if (!study.Run())
    {
        return study.GetExitCode();
    }

    uint64_t ce = 0;
    uint64_t cnps = 0;
    uint64_t naks = 0;
    uint64_t retx = 0;
    uint64_t timeouts = 0;
    uint64_t eventsLost = 0;
    for (uint32_t i = 0; i < boards; i++)
    {
        const auto& s = incast.qps[i]->GetCounters();
        retx += s.retransmittedPackets;
        timeouts += s.timeouts;
        const auto& r = incast.receiverQps[i]->GetCounters();
        ce += r.ceMarksReceived;
        cnps += r.cnpsSent;
        naks += r.naksSent;
        eventsLost += apps[i]->GetEventsLost();
    }
    std::ofstream recoveryCsv = study.OpenOutput("recovery.csv");
    recoveryCsv << "t_ns,board,event,psn\n";
    for (const RecoveryEvent& e : recovery)
    {
        recoveryCsv << e.at.GetNanoSeconds() << "," << e.board << "," << e.kind << "," << e.psn
                    << "\n";
    }
    // the switch's metrics come from WatchSwitch; the receiver's losses are drops too
    study.AddMetric("drops", double(sw->GetCounters().TotalDrops() + receiver->GetRxErrorDrops()));
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("retransmits", double(retx));
    study.AddMetric("ce_received", double(ce));
    study.AddMetric("naks", double(naks));
    study.AddMetric("timeouts", double(timeouts));
    study.AddMetric("receiver_losses", double(receiver->GetRxErrorDrops()));
    study.AddMetric("events_lost", double(eventsLost));
    Simulator::Destroy();
    return study.Finish();
}
