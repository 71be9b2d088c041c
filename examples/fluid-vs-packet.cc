/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// fluid-vs-packet: the packet side of the packet-versus-fluid study (examples/fluid-vs-packet.sh
// runs it beside feroce-fluid with the same parameters).  N saturating boards -> one switch ->
// one receiver, every link at --lineRate with --linkDelay, DCQCN preset --preset, ECN Kmin/Kmax/
// Pmax, PFC off (the fluid model has no PFC).  Writes series.csv per window: the time-averaged
// queue toward the receiver (not the window's maximum) and each board's Rc, Rt and alpha, which
// are what the fluid model's time series holds; one row into --db.
//
//   fluid-vs-packet --boards=10 --lineRate=40Gbps --duration=200ms --outdir=results/fvp

#include "ns3/advcam-chain.h"
#include "ns3/core-module.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-study.h"
#include "ns3/feroce-switch.h"
#include "ns3/network-module.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"

#include <iostream>

using namespace ns3;

namespace
{

/// The time-weighted mean of one switch port's data queues over each window.
class QueueMean
{
  public:
    QueueMean(Ptr<FeroceSwitch> sw, uint32_t port)
        : m_port(port)
    {
        sw->TraceConnectWithoutContext("QueueLength", MakeCallback(&QueueMean::Changed, this));
    }

    /// The mean since the last call, in bytes.
    double Take()
    {
        Time now = Simulator::Now();
        double area = m_area + double(Total()) * (now - m_last).GetSeconds();
        double span = (now - m_windowStart).GetSeconds();
        m_area = 0;
        m_last = now;
        m_windowStart = now;
        return span > 0 ? area / span : double(Total());
    }

  private:
    void Changed(uint32_t port, uint8_t queue, uint64_t bytes)
    {
        if (port != m_port || queue >= 8)
        {
            return;
        }
        Time now = Simulator::Now();
        m_area += double(Total()) * (now - m_last).GetSeconds();
        m_last = now;
        m_bytes[queue] = bytes;
    }

    uint64_t Total() const
    {
        uint64_t t = 0;
        for (uint64_t b : m_bytes)
        {
            t += b;
        }
        return t;
    }

    uint32_t m_port;
    uint64_t m_bytes[8]{};
    double m_area{0};
    Time m_last;
    Time m_windowStart;
};

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t boards = 3;
    DataRate lineRate("10Gbps");
    DcqcnSwitchFlags
        fabric; // the fluid model's system: DCQCN, ECN, no PFC, a buffer that never fills
    fabric.pfc = false;
    fabric.bufferSize = 64000000;
    Time linkDelay = MicroSeconds(1);
    uint32_t pmtu = 1024;
    uint64_t messageSize = 65536;

    FeroceStudy study("fluid-vs-packet",
                      "results/fluid-vs-packet",
                      MilliSeconds(200),
                      MicroSeconds(100),
                      MilliSeconds(50));
    study.AddFlag("boards", "Boards sending to the receiver", boards).Range(1, 1000);
    study.AddFlag("lineRate", "Rate of every link (and the DCQCN line rate)", lineRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
        .Attribute("ns3::FeroceNetDevice::DataRate");
    fabric.AddTo(study);
    study.AddFlag("linkDelay", "Propagation delay of each link", linkDelay)
        .Attribute("ns3::FeroceChannel::Delay");
    study.AddFlag("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu)
        .Check(
            [](const uint32_t& p) { return IsRocePmtu(p) ? "" : "256, 512, 1024, 2048 or 4096"; })
        .Attribute("ns3::RoceQueuePair::Pmtu");
    study.AddFlag("messageSize", "Bytes per RDMA WRITE", messageSize)
        .AtLeast(1)
        .Attribute("ns3::RoceFrontEndApp::MessageSize");
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    fabric.SetHeadroomCheck(study);

    RoceHelper helper;
    NodeContainer hosts;
    hosts.Create(boards + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    NetDeviceContainer devices = helper.InstallStar(swNode, hosts);
    Ptr<FeroceSwitch> sw = swNode->GetObject<FeroceSwitch>();
    Ptr<RoceNic> receiver = DynamicCast<RoceNic>(devices.Get(boards));
    for (uint32_t i = 0; i <= boards; i++)
    {
        std::string error = DynamicCast<RoceNic>(devices.Get(i))->Validate();
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    std::string error = sw->Validate();
    if (!error.empty())
    {
        return study.Reject(error);
    }
    sw->AssignStreams(1);

    Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
    hosts.Get(boards)->AddApplication(rx);
    std::vector<Ptr<RoceQueuePair>> qps;
    for (uint32_t i = 0; i < boards; i++)
    {
        auto qp = helper.ConnectQueuePairs(DynamicCast<RoceNic>(devices.Get(i)), receiver);
        qps.push_back(qp.first);
        rx->AddQueuePair(qp.second);
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetQueuePair(qp.first);
        app->AssignStreams(10 + i);
        qp.first->AssignStreams(1000 + i);
        hosts.Get(i)->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(study.GetDuration());
        study.AddFlow(
            "board" + std::to_string(i),
            [rx, i]() { return rx->GetBytesReceived(i); },
            Time(0),
            study.GetDuration());
    }

    QueueMean queue(sw, boards); // InstallStar: switch port i faces host i
    study.AddGauge("queue_mean_bytes", [&queue]() { return queue.Take(); });
    for (uint32_t i = 0; i < boards; i++)
    {
        Ptr<RoceQueuePair> qp = qps[i];
        std::string b = "board" + std::to_string(i);
        study.AddGauge(b + "_rc_gbps", [qp]() { return qp->GetRateBps() / 1e9; });
        study.AddGauge(b + "_rt_gbps", [qp]() { return qp->GetTargetRateBps() / 1e9; });
        study.AddGauge(b + "_alpha", [qp]() { return qp->GetAlpha(); });
    }

    study.EnablePcap(helper, "fluid-vs-packet");
    if (!study.Run())
    {
        return study.GetExitCode();
    }
    uint64_t cnps = 0;
    for (uint32_t i = 0; i < boards; i++)
    {
        cnps += receiver->GetQueuePair(qps[i]->GetRemoteQpn())->GetCounters().cnpsSent;
    }
    const auto& c = sw->GetCounters();
    uint64_t drops = 0;
    for (uint64_t d : c.drops)
    {
        drops += d;
    }
    study.AddMetric("cnps", double(cnps));
    study.AddMetric("ecn_marks", double(c.ecnMarks));
    study.AddMetric("drops", double(drops));
    Simulator::Destroy();
    return study.Finish();
}
