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
// DCQCN rate Rc, frames lost so far), pause.csv (PAUSE intervals), recovery.csv
// (each board's NAKs and retransmission timeouts), metrics.txt (the whole run's
// and the steady state's); one row into --db.

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-frame-losses.h"
#include "ns3/feroce-study.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/roce-recovery-log.h"

using namespace ns3;

namespace
{

void
RecordLatency(FeroceStudy* study, const RoceCompletion& c, Time latency)
{
    if (c.status == ROCE_WC_SUCCESS)
    {
        study->AddLatency(latency);
    }
}

/// When each board sends: --schedule as given, else the whole run or, with --leave, board i
/// stops at (N - i) / N of it.
void
CompleteSchedule(FeroceStudy& study, uint32_t boards, bool leave, std::vector<TimeSpan>& schedule)
{
    Time duration = study.GetDuration();
    for (uint32_t i = schedule.empty() ? 0 : boards; i < boards; i++)
    {
        Time stop = leave && i > 0 ? duration * int64_t(boards - i) / int64_t(boards) : duration;
        schedule.push_back({Time(0), stop});
    }
    for (uint32_t i = 0; i < boards; i++)
    {
        if (schedule[i].start >= duration)
        {
            study.Warn("board " + std::to_string(i) +
                       " starts at or after --duration: it sends nothing");
        }
    }
}

/// A source on each board, sending within its span; its flow, latencies, recovery and DCQCN
/// rate followed by the study.
std::vector<Ptr<RoceFrontEndApp>>
InstallBoards(FeroceStudy& study,
              const RoceIncast& incast,
              const std::vector<TimeSpan>& schedule,
              RoceRecoveryLog& recovery)
{
    Ptr<RoceReceiverApp> rx = incast.receiverApp;
    std::vector<Ptr<RoceFrontEndApp>> apps;
    for (uint32_t i = 0; i < schedule.size(); i++)
    {
        Ptr<RoceQueuePair> qp = incast.qps[i];
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetQueuePair(qp);
        incast.hosts.Get(i)->AddApplication(app);
        app->SetStartTime(schedule[i].start);
        app->SetStopTime(schedule[i].stop);
        apps.push_back(app);
        study.AddFlow(
            "board" + std::to_string(i),
            [rx, i]() { return rx->GetBytesReceived(i); },
            schedule[i].start,
            schedule[i].stop);
        qp->TraceConnectWithoutContext("Completion", MakeBoundCallback(&RecordLatency, &study));
        recovery.Watch(qp, i);
    }
    // what the study samples every window: the switch, and each board's DCQCN rate
    study.WatchSwitch(incast.sw, incast.GetReceiverPort());
    for (uint32_t i = 0; i < schedule.size(); i++)
    {
        Ptr<RoceQueuePair> qp = incast.qps[i];
        study.AddGauge("board" + std::to_string(i) + "_rc_gbps",
                       [qp]() { return qp->GetRateBps() / 1e9; });
    }
    study.AddDropsGauge();
    return apps;
}

/// The transport's counters over every board and the frames lost by place.
void
AddTransportMetrics(FeroceStudy& study,
                    const RoceIncast& incast,
                    const std::vector<Ptr<RoceFrontEndApp>>& apps)
{
    uint64_t ce = 0;
    uint64_t cnps = 0;
    uint64_t naks = 0;
    uint64_t retx = 0;
    uint64_t timeouts = 0;
    uint64_t eventsLost = 0;
    for (uint32_t i = 0; i < apps.size(); i++)
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
    // the switch's metrics come from WatchSwitch; drops are frames lost anywhere
    FeroceFrameLosses lost = FeroceFrameLosses::Of(NodeContainer::GetGlobal());
    study.AddMetric("drops", double(lost.Total()));
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("retransmits", double(retx));
    study.AddMetric("ce_received", double(ce));
    study.AddMetric("naks", double(naks));
    study.AddMetric("timeouts", double(timeouts));
    study.AddMetric("receiver_losses", double(incast.receiver->GetRxErrorDrops()));
    study.AddMetric("events_lost", double(eventsLost));
    for (const auto& part : lost.Parts())
    {
        study.AddMetric(part.first, double(part.second));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t boards = 3;
    bool leave = true;
    std::vector<TimeSpan> schedule;
    double loss = 0;
    DcqcnSwitchFlags fabric;
    LinkFlags link;
    BoardTrafficFlags traffic;

    FeroceStudy study("advcam-incast", "results/advcam-incast", MilliSeconds(30));
    study.AddFlag("boards", "Front-end boards sending to the receiver", boards).Range(1, 1000);
    study.AddFlag("leave", "Boards leave one by one (N -> N-1 -> ... -> 1)", leave);
    study
        .AddList("schedule",
                 "Per board start:stop, comma separated (overrides leave)",
                 schedule,
                 "")
        .Allowed("start:stop per board, comma separated, with 0 <= start < stop (e.g. "
                 "0ms:90ms,0ms:60ms,0ms:30ms)")
        .Count([&boards]() { return std::size_t(boards); }, "start:stop pairs (one per board)");
    fabric.AddTo(study);
    study.AddFlag("loss", "Probability that the receiver's NIC loses a frame", loss)
        .Check([](const double& p) { return p >= 0 && p < 1 ? "" : "[0, 1)"; });
    study.Owns("ns3::RateErrorModel::ErrorRate", "loss");
    study.Owns("ns3::RateErrorModel::ErrorUnit");
    study.GetCommandLine().Uses({"ns3::RateErrorModel"});
    link.AddTo(study);
    traffic.AddTo(study);
    if (!study.Parse(argc, argv) || !traffic.triggerRate.Apply(study, traffic.triggerInterval) ||
        (loss == 0 && study.RefuseType("ns3::RateErrorModel",
                                       "without --loss this program builds no error model")))
    {
        return study.GetExitCode();
    }
    if (!schedule.empty() && study.IsGiven("leave"))
    {
        return study.RejectFlag("leave",
                                "no --leave with --schedule (it says when each board stops)");
    }
    CompleteSchedule(study, boards, leave, schedule);
    fabric.SetHeadroomCheck(study);

    RoceHelper helper;
    RoceIncast incast = helper.InstallIncast(boards);
    std::string error = incast.Validate();
    if (!error.empty())
    {
        return study.Reject(error);
    }
    fabric.WarnHeadroom(study, *incast.sw, 0);
    Ptr<RateErrorModel> em;
    if (loss > 0)
    {
        em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(loss));
        incast.receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    helper.ConnectIncast(incast);
    RoceRecoveryLog recovery;
    std::vector<Ptr<RoceFrontEndApp>> apps = InstallBoards(study, incast, schedule, recovery);
    study.EnablePcap(helper, "advcam");
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

    std::ofstream recoveryCsv = study.OpenOutput("recovery.csv");
    recovery.Write(recoveryCsv);
    AddTransportMetrics(study, incast, apps);
    Simulator::Destroy();
    return study.Finish();
}
