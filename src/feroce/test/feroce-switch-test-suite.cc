/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/feroce-switch.h"
#include "ns3/node-container.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

/// N senders -> one switch -> one receiver, saturating RDMA WRITEs.
struct Incast
{
    Ptr<FeroceSwitch> sw;
    std::vector<Ptr<RoceNic>> senders;
    Ptr<RoceNic> receiver;
    std::vector<Ptr<RoceQueuePair>> qps;
    Ptr<RoceReceiverApp> rx;
    std::vector<std::vector<uint64_t>> samples; ///< per window: bytes per flow
};

void
Sample(Incast* in)
{
    std::vector<uint64_t> v;
    for (std::size_t i = 0; i < in->qps.size(); i++)
    {
        v.push_back(in->rx->GetBytesReceived(i));
    }
    in->samples.push_back(v);
}

void
BuildIncast(Incast& in, RoceHelper& helper, uint32_t n, Time window, Time duration)
{
    NodeContainer hosts;
    hosts.Create(n + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    NetDeviceContainer nics = helper.InstallStar(swNode, hosts);
    in.sw = swNode->GetObject<FeroceSwitch>();
    for (uint32_t i = 0; i < n; i++)
    {
        in.senders.push_back(DynamicCast<RoceNic>(nics.Get(i)));
    }
    in.receiver = DynamicCast<RoceNic>(nics.Get(n));
    in.rx = CreateObject<RoceReceiverApp>();
    hosts.Get(n)->AddApplication(in.rx);
    for (uint32_t i = 0; i < n; i++)
    {
        auto qp = helper.ConnectQueuePairs(in.senders[i], in.receiver);
        in.qps.push_back(qp.first);
        in.rx->AddQueuePair(qp.second);
        Ptr<RoceFrontEndApp> tx = CreateObject<RoceFrontEndApp>();
        tx->SetQueuePair(qp.first);
        hosts.Get(i)->AddApplication(tx);
    }
    for (Time t = Time(0); t <= duration; t += window)
    {
        Simulator::Schedule(t, &Sample, &in);
    }
    Simulator::Stop(duration + NanoSeconds(1));
}

double
Jain(const std::vector<double>& x)
{
    double s = std::accumulate(x.begin(), x.end(), 0.0);
    double s2 = 0;
    for (double v : x)
    {
        s2 += v * v;
    }
    return s2 > 0 ? s * s / (x.size() * s2) : 1;
}

} // namespace

/**
 * \ingroup feroce
 * 3:1 incast at 10 Gb/s with DCQCN (hpcc preset) and PFC: no drop, at least
 * 97% of the bottleneck's payload capacity, fair in every 10 ms window after
 * 50 ms (Jain >= 0.99, each flow within 5% of a third).
 */
class IncastDcqcnTestCase : public TestCase
{
  public:
    IncastDcqcnTestCase()
        : TestCase("3:1 incast, DCQCN and PFC: lossless, 97% goodput, fair")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        // the HPCC simulator's DCQCN and ECN settings, scaled to 10 Gb/s (spec/dcqcn.md presets)
        helper.SetDeviceAttribute("DcqcnPreset", StringValue("hpcc"));
        helper.SetSwitchAttribute("Kmin", UintegerValue(40000));
        helper.SetSwitchAttribute("Kmax", UintegerValue(160000));
        helper.SetSwitchAttribute("Pmax", DoubleValue(0.2));
        Incast in;
        BuildIncast(in, helper, 3, MilliSeconds(10), MilliSeconds(150));
        Simulator::Run();
        const auto& c = in.sw->GetCounters();
        uint64_t drops = 0;
        for (uint64_t d : c.drops)
        {
            drops += d;
        }
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "no drop");
        NS_TEST_EXPECT_MSG_GT(c.ecnMarks, 0, "ECN marks");
        // payload capacity of the bottleneck with 1024-B packets in 1 MiB messages: 9.258 Gb/s
        const double capacity = 9.258e9;
        const auto& s = in.samples;
        double total = 0;
        double minJain = 1;
        for (std::size_t w = 6; w < s.size(); w++) // windows ending after 50 ms
        {
            std::vector<double> rates;
            for (std::size_t f = 0; f < 3; f++)
            {
                rates.push_back(double(s[w][f] - s[w - 1][f]) * 8 / 10e-3);
            }
            double sum = rates[0] + rates[1] + rates[2];
            total += sum;
            minJain = std::min(minJain, Jain(rates));
        }
        // each flow's share of everything after the warm-up
        std::size_t last = s.size() - 1;
        double all = double(s[last][0] + s[last][1] + s[last][2] - s[5][0] - s[5][1] - s[5][2]);
        for (std::size_t f = 0; f < 3; f++)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(double(s[last][f] - s[5][f]),
                                      all / 3,
                                      all / 3 * 0.05,
                                      "flow " << f << " within 5% of a third");
        }
        double goodput = total / (s.size() - 6);
        std::cout << "3:1 DCQCN: goodput " << goodput / 1e9 << " Gb/s, min Jain " << minJain
                  << ", marks " << c.ecnMarks << ", pauses " << c.pauseFramesSent << std::endl;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(goodput, 0.97 * capacity, "aggregate goodput");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(minJain, 0.99, "Jain's index");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The same incast with DCQCN off: PFC alone keeps it lossless (PAUSE frames
 * seen); with PFC off too: drops, retransmissions, every byte still
 * delivered in order.
 */
class IncastPfcTestCase : public TestCase
{
  public:
    IncastPfcTestCase(bool pfc)
        : TestCase(pfc ? "3:1 incast, PFC only: lossless with PAUSE frames"
                       : "3:1 incast, no PFC and no DCQCN: drops recovered by go-back-N"),
          m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        helper.SetSwitchAttribute("PfcEnabled", BooleanValue(m_pfc));
        helper.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
        Incast in;
        BuildIncast(in, helper, 3, MilliSeconds(10), MilliSeconds(30));
        Simulator::Run();
        const auto& c = in.sw->GetCounters();
        uint64_t retx = 0;
        uint64_t sent = 0;
        for (auto& qp : in.qps)
        {
            retx += qp->GetCounters().retransmittedPackets;
            sent += qp->GetCounters().payloadBytesSent;
        }
        std::cout << (m_pfc ? "PFC only" : "no PFC") << ": pauses " << c.pauseFramesSent
                  << ", drops " << c.drops[FeroceSwitch::DROP_LOSSY_BUFFER_FULL]
                  << ", retransmitted " << retx << ", delivered "
                  << in.rx->GetBytesReceived() * 8 / 30e-3 / 1e9 << " Gb/s" << std::endl;
        NS_TEST_EXPECT_MSG_EQ(c.drops[FeroceSwitch::DROP_LOSSLESS], 0, "no lossless drop");
        if (m_pfc)
        {
            NS_TEST_EXPECT_MSG_EQ(c.drops[FeroceSwitch::DROP_LOSSY_BUFFER_FULL], 0, "no drop");
            NS_TEST_EXPECT_MSG_GT(c.pauseFramesSent, 0, "PAUSE frames sent");
            NS_TEST_EXPECT_MSG_GT(in.senders[0]->GetCounters().pauseFramesReceived +
                                      in.senders[1]->GetCounters().pauseFramesReceived +
                                      in.senders[2]->GetCounters().pauseFramesReceived,
                                  0,
                                  "and received by the senders");
            NS_TEST_EXPECT_MSG_EQ(retx, 0, "nothing to retransmit");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(c.drops[FeroceSwitch::DROP_LOSSY_BUFFER_FULL], 0, "tail drops");
            NS_TEST_EXPECT_MSG_GT(retx, 0, "retransmissions");
            NS_TEST_EXPECT_MSG_EQ(c.pauseFramesSent, 0, "no PAUSE");
        }
        for (std::size_t i = 0; i < in.qps.size(); i++)
        {
            // in order and once: the responder accepted exactly the bytes that completed or are
            // the in-order prefix of the current message; never more than were sent
            const auto& qc = in.qps[i]->GetCounters();
            NS_TEST_EXPECT_MSG_GT(qc.completions, 0, "flow " << i << " completed messages");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(in.rx->GetBytesReceived(i),
                                        qc.completions << 20,
                                        "completed bytes delivered");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(in.rx->GetBytesReceived(i),
                                        (qc.completions + 256) << 20,
                                        "bounded");
        }
        Simulator::Destroy();
    }

    bool m_pfc;
};

/**
 * \ingroup feroce
 * 16:1 with a buffer too small to give each lossless class the headroom its
 * link needs: Validate() refuses it, naming BufferSize.
 */
class IncastValidationTestCase : public TestCase
{
  public:
    IncastValidationTestCase()
        : TestCase("16:1 incast with a too small buffer is rejected by validation")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetSwitchAttribute("BufferSize", UintegerValue(150000));
        Incast in;
        BuildIncast(in, helper, 16, MilliSeconds(1), MilliSeconds(1));
        std::string error = in.sw->Validate();
        NS_TEST_EXPECT_MSG_EQ(error.find("BufferSize = 150000 is not allowed"), 0, error);
        in.sw->SetAttribute("BufferSize", UintegerValue(12000000));
        NS_TEST_EXPECT_MSG_EQ(in.sw->Validate(), "", "12 MB is enough");
        in.sw->SetAttribute("Headroom", UintegerValue(1000));
        NS_TEST_EXPECT_MSG_EQ(in.sw->Validate().find("Headroom = 1000 is not allowed"),
                              0,
                              "headroom");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * Same RngRun: identical counters; another RngRun: other ECN marks.
 */
class IncastDeterminismTestCase : public TestCase
{
  public:
    IncastDeterminismTestCase()
        : TestCase("incast determinism by RngRun")
    {
    }

  private:
    std::vector<uint64_t> RunOnce(uint32_t run)
    {
        RngSeedManager::SetRun(run);
        RoceHelper helper;
        Incast in;
        BuildIncast(in, helper, 3, MilliSeconds(1), MilliSeconds(5));
        in.sw->AssignStreams(1);
        Simulator::Run();
        std::vector<uint64_t> v = {in.sw->GetCounters().ecnMarks, in.rx->GetBytesReceived()};
        for (auto& qp : in.qps)
        {
            v.push_back(qp->GetCounters().cnpsReceived);
            v.push_back(qp->GetCounters().dataPacketsSent);
        }
        Simulator::Destroy();
        return v;
    }

    void DoRun() override
    {
        auto a = RunOnce(1);
        auto b = RunOnce(1);
        auto c = RunOnce(2);
        RngSeedManager::SetRun(1);
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "same RngRun, same counters");
        NS_TEST_EXPECT_MSG_NE(a[0], c[0], "another RngRun, other marks");
    }
};

/**
 * \ingroup feroce
 * The ECN-marking, PFC switch in incasts.
 */
class FeroceSwitchTestSuite : public TestSuite
{
  public:
    FeroceSwitchTestSuite()
        : TestSuite("feroce-switch")
    {
        AddTestCase(new IncastDcqcnTestCase);
        AddTestCase(new IncastPfcTestCase(true));
        AddTestCase(new IncastPfcTestCase(false));
        AddTestCase(new IncastValidationTestCase);
        AddTestCase(new IncastDeterminismTestCase);
    }
};

static FeroceSwitchTestSuite g_feroceSwitchTestSuite;
