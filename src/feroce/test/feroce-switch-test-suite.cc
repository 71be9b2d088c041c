/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/feroce-switch-buffer.h"
#include "ns3/feroce-switch.h"
#include "ns3/node-container.h"
#include "ns3/pfc-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

/// The helper's incast with saturating RDMA WRITEs, and its samples.
struct Incast : RoceIncast
{
    std::vector<std::vector<uint64_t>> samples; ///< per window: bytes per flow
};

void
Sample(Incast* in)
{
    std::vector<uint64_t> v;
    for (std::size_t i = 0; i < in->qps.size(); i++)
    {
        v.push_back(in->receiverApp->GetBytesReceived(i));
    }
    in->samples.push_back(v);
}

/// Per sender, before its queue pair is created: e.g. SetQueuePairAttribute on its NIC.
typedef std::function<void(uint32_t, Ptr<RoceNic>)> SenderSetup;

void
BuildIncast(Incast& in,
            RoceHelper& helper,
            uint32_t n,
            Time window,
            Time duration,
            SenderSetup setup = nullptr)
{
    static_cast<RoceIncast&>(in) = helper.InstallIncast(n);
    for (uint32_t i = 0; setup && i < n; i++)
    {
        setup(i, in.senders[i]);
    }
    helper.ConnectIncast(in);
    for (uint32_t i = 0; i < n; i++)
    {
        Ptr<RoceFrontEndApp> tx = CreateObject<RoceFrontEndApp>();
        tx->SetQueuePair(in.qps[i]);
        in.hosts.Get(i)->AddApplication(tx);
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
        // the HPCC simulator's DCQCN and ECN settings, scaled to 10 Gb/s (src/feroce/doc/dcqcn.md
        // presets)
        helper.SetDeviceAttribute("DcqcnPreset", StringValue("hpcc"));
        helper.SetSwitchAttribute("Kmin", UintegerValue(40000));
        helper.SetSwitchAttribute("Kmax", UintegerValue(160000));
        helper.SetSwitchAttribute("Pmax", DoubleValue(0.2));
        Incast in;
        BuildIncast(in, helper, 3, MilliSeconds(10), MilliSeconds(150));
        Simulator::Run();
        const auto& c = in.sw->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.TotalDrops(), 0, "no drop");
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
                  << in.receiverApp->GetBytesReceived() * 8 / 30e-3 / 1e9 << " Gb/s" << std::endl;
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
            NS_TEST_EXPECT_MSG_GT_OR_EQ(in.receiverApp->GetBytesReceived(i),
                                        qc.completions << 20,
                                        "completed bytes delivered");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(in.receiverApp->GetBytesReceived(i),
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
        std::vector<uint64_t> v = {in.sw->GetCounters().ecnMarks,
                                   in.receiverApp->GetBytesReceived()};
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

/// Sender i sends at priority prio (its DSCP 8 x prio), and with this PMTU.
void
SetPriority(uint32_t /* i */, Ptr<RoceNic> nic, uint8_t prio, uint32_t pmtu)
{
    nic->SetQueuePairAttribute("Priority", UintegerValue(prio));
    nic->SetQueuePairAttribute("Dscp", UintegerValue(8 * prio));
    nic->SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
}

/**
 * \ingroup feroce
 * Two senders at priorities 1 and 2, each able to fill the bottleneck alone
 * and window-limited so that both egress queues stay backlogged: the egress
 * shares the bottleneck by the priorities' weights, in frames (QueueWeights)
 * or in frame bytes (WrrQuantum > 0, deficit round robin).
 */
class WrrTestCase : public TestCase
{
  public:
    /// weights of priorities 1 and 2, WrrQuantum, PMTU of the two flows, expected byte ratio
    WrrTestCase(uint32_t w1,
                uint32_t w2,
                uint32_t quantum,
                uint32_t pmtu1,
                uint32_t pmtu2,
                double ratio)
        : TestCase("weighted round robin " + std::to_string(w1) + ":" + std::to_string(w2) +
                   (quantum ? " in bytes" : " in frames") + ", PMTU " + std::to_string(pmtu1) +
                   " and " + std::to_string(pmtu2)),
          m_w1(w1),
          m_w2(w2),
          m_quantum(quantum),
          m_pmtu1(pmtu1),
          m_pmtu2(pmtu2),
          m_ratio(ratio)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        // window-limited flows (no DCQCN): each keeps its queue backlogged below any PFC threshold
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        helper.SetQueuePairAttribute("MaxUnackedBytes", UintegerValue(100000));
        helper.SetSwitchAttribute("LosslessPriorities", StringValue("1,2"));
        std::string weights =
            "1," + std::to_string(m_w1) + "," + std::to_string(m_w2) + ",1,1,1,1,1";
        helper.SetSwitchAttribute("QueueWeights", StringValue(weights));
        helper.SetSwitchAttribute("WrrQuantum", UintegerValue(m_quantum));
        Incast in;
        BuildIncast(in,
                    helper,
                    2,
                    MilliSeconds(5),
                    MilliSeconds(15),
                    [this](uint32_t i, Ptr<RoceNic> nic) {
                        SetPriority(i, nic, i == 0 ? 1 : 2, i == 0 ? m_pmtu1 : m_pmtu2);
                    });
        Simulator::Run();
        const auto& s = in.samples; // at 0, 5, 10, 15 ms: measure after the first 5
        double b1 = double(s[3][0] - s[1][0]);
        double b2 = double(s[3][1] - s[1][1]);
        std::cout << "WRR " << m_w1 << ":" << m_w2 << (m_quantum ? " bytes" : " frames") << ": "
                  << b1 * 8 / 10e-3 / 1e9 << " and " << b2 * 8 / 10e-3 / 1e9 << " Gb/s, ratio "
                  << b1 / b2 << " (expected " << m_ratio << ")" << std::endl;
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetCounters().TotalDrops(), 0, "no drop");
        NS_TEST_EXPECT_MSG_GT_OR_EQ((b1 + b2) * 8 / 10e-3, 9e9, "the bottleneck stays full");
        NS_TEST_EXPECT_MSG_EQ_TOL(b1 / b2, m_ratio, m_ratio * 0.03, "shares by weight");
        Simulator::Destroy();
    }

    uint32_t m_w1;
    uint32_t m_w2;
    uint32_t m_quantum;
    uint32_t m_pmtu1;
    uint32_t m_pmtu2;
    double m_ratio;
};

/**
 * \ingroup feroce
 * EcnPerQueue: priority 2 marks above its own 20 KB while the global Kmin
 * and Kmax (10 MB) are never reached: every departure of priority 2 that
 * leaves more than 20 KB queued is marked (Pmax 1 at Kmax = Kmin), nothing
 * of priority 1 is.
 */
class EcnPerQueueTestCase : public TestCase
{
  public:
    EcnPerQueueTestCase()
        : TestCase("ECN thresholds per egress priority")
    {
    }

  private:
    struct Watch
    {
        Ptr<FeroceSwitch> sw;
        uint32_t port{0};
        uint64_t last{0};
        uint64_t departuresAbove{0}; ///< priority-2 departures leaving > 20 KB behind
        uint64_t minMarkedQueue{UINT64_MAX};
    };

    static void Queue(Watch* w, uint32_t port, uint8_t queue, uint64_t bytes)
    {
        if (port == w->port && queue == 2)
        {
            if (bytes < w->last && bytes > 20000)
            {
                w->departuresAbove++;
            }
            w->last = bytes;
        }
    }

    static void Mark(Watch* w, Ptr<const Packet> /* frame */)
    {
        // marks at dequeue: the queue the decision saw is what the departure left
        w->minMarkedQueue = std::min(w->minMarkedQueue, w->sw->GetPort(w->port)->GetQueueBytes(2));
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnEnabled",
                                  BooleanValue(false)); // the queues do not depend on marks
        helper.SetSwitchAttribute("LosslessPriorities", StringValue("1,2"));
        helper.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
        helper.SetSwitchAttribute("Kmin", UintegerValue(10000000));
        helper.SetSwitchAttribute("Kmax", UintegerValue(10000000));
        helper.SetSwitchAttribute("Pmax", DoubleValue(1.0));
        helper.SetSwitchAttribute("EcnPerQueue", StringValue("2:20000:20000:1"));
        Incast in;
        BuildIncast(
            in,
            helper,
            2,
            MilliSeconds(5),
            MilliSeconds(5),
            [](uint32_t i, Ptr<RoceNic> nic) { SetPriority(i, nic, i == 0 ? 1 : 2, 1024); });
        Watch w;
        w.sw = in.sw;
        w.port = in.GetReceiverPort();
        in.sw->TraceConnectWithoutContext("QueueLength", MakeBoundCallback(&Queue, &w));
        in.sw->TraceConnectWithoutContext("EcnMark", MakeBoundCallback(&Mark, &w));
        Simulator::Run();
        const auto& c = in.sw->GetCounters();
        std::cout << "EcnPerQueue: marks " << c.ecnMarks << ", priority-2 departures above 20 KB "
                  << w.departuresAbove << std::endl;
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetEcnParameters(2).kmin_bytes,
                              20000,
                              "priority 2 has its own");
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetEcnParameters(1).kmin_bytes,
                              10000000,
                              "priority 1 the global");
        NS_TEST_EXPECT_MSG_GT(c.ecnMarks, 1000, "priority 2 marked");
        NS_TEST_EXPECT_MSG_EQ(c.ecnMarks,
                              w.departuresAbove,
                              "exactly its departures above its Kmin");
        NS_TEST_EXPECT_MSG_GT(w.minMarkedQueue, 20000, "none at or below its Kmin");
        NS_TEST_EXPECT_MSG_GT(in.qps[0]->GetCounters().dataPacketsSent, 0, "priority 1 sent");
        // the receiver's QPs: no CE for priority 1
        NS_TEST_EXPECT_MSG_EQ(in.receiverQps[0]->GetCounters().ceMarksReceived,
                              0,
                              "priority 1 never marked");
        NS_TEST_EXPECT_MSG_GT(in.receiverQps[1]->GetCounters().ceMarksReceived,
                              0,
                              "priority 2 marked");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * DscpMap moves a DSCP to another priority (its egress queue and its PFC
 * class); DSCPs it does not list keep DSCP / 8.
 */
class DscpMapTestCase : public TestCase
{
  public:
    DscpMapTestCase()
        : TestCase("DSCP to priority map")
    {
    }

  private:
    static void Queue(std::vector<uint64_t>* peak,
                      uint32_t /* port */,
                      uint8_t queue,
                      uint64_t bytes)
    {
        (*peak)[queue] = std::max((*peak)[queue], bytes);
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        helper.SetSwitchAttribute("DscpMap", StringValue("8:5,63:0"));
        helper.SetSwitchAttribute("LosslessPriorities", StringValue("5"));
        helper.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
        Incast in;
        // sender 0: DSCP 8 (priority 1 by DSCP / 8, 5 by the map), sender 1: DSCP 16 (priority 2)
        BuildIncast(in,
                    helper,
                    2,
                    MilliSeconds(3),
                    MilliSeconds(3),
                    [](uint32_t i, Ptr<RoceNic> nic) {
                        SetPriority(i, nic, i == 0 ? 5 : 2, 1024);
                        nic->SetQueuePairAttribute("Dscp", UintegerValue(i == 0 ? 8 : 16));
                    });
        std::vector<uint64_t> peak(9, 0);
        in.sw->TraceConnectWithoutContext("QueueLength", MakeBoundCallback(&Queue, &peak));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(unsigned(in.sw->GetDscpPriority(8)), 5, "mapped");
        NS_TEST_EXPECT_MSG_EQ(unsigned(in.sw->GetDscpPriority(63)), 0, "mapped");
        NS_TEST_EXPECT_MSG_EQ(unsigned(in.sw->GetDscpPriority(16)), 2, "DSCP / 8");
        NS_TEST_EXPECT_MSG_EQ(unsigned(in.sw->GetDscpPriority(26)), 3, "DSCP / 8");
        NS_TEST_EXPECT_MSG_GT(peak[5], 0, "DSCP 8 queued at priority 5");
        NS_TEST_EXPECT_MSG_EQ(peak[1], 0, "not at DSCP / 8");
        NS_TEST_EXPECT_MSG_GT(peak[2], 0, "DSCP 16 at priority 2");
        // priority 5 is lossless: its sender is paused; priority 2 is lossy: its sender never is
        const auto& c = in.sw->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.drops[FeroceSwitch::DROP_LOSSLESS], 0, "no lossless drop");
        NS_TEST_EXPECT_MSG_GT(in.senders[0]->GetCounters().pauseFramesReceived,
                              0,
                              "priority 5 paused");
        NS_TEST_EXPECT_MSG_EQ(in.senders[1]->GetCounters().pauseFramesReceived,
                              0,
                              "priority 2 not");
        NS_TEST_EXPECT_MSG_GT(in.sw->GetPort(0)->GetCounters().pauseFramesSent,
                              0,
                              "per-port counter");
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetPort(1)->GetCounters().pauseFramesSent,
                              0,
                              "per-port counter");
        NS_TEST_EXPECT_MSG_GT(in.sw->GetPort(0)->GetUpstreamPausedTime(5), Time(0), "XOFF time");
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetPort(1)->GetUpstreamPausedTime(2), Time(0), "none");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * Bad QueueWeights, DscpMap and EcnPerQueue values are rejected by
 * Validate() with a message naming the attribute, the value and what is
 * allowed.
 */
class SwitchAttributeValidationTestCase : public TestCase
{
  public:
    SwitchAttributeValidationTestCase()
        : TestCase("QueueWeights, DscpMap and EcnPerQueue validation")
    {
    }

  private:
    void Expect(Ptr<FeroceSwitch> sw, std::string name, std::string value, std::string start)
    {
        sw->SetAttribute(name, StringValue(value));
        std::string error = sw->Validate();
        NS_TEST_EXPECT_MSG_EQ(error.find(start), 0, name << " = " << value << ": " << error);
        sw->SetAttribute(name, StringValue(name == "QueueWeights" ? "1,1,1,1,1,1,1,1" : ""));
    }

    void DoRun() override
    {
        RoceHelper helper;
        Incast in;
        BuildIncast(in, helper, 2, MilliSeconds(1), MilliSeconds(1));
        Ptr<FeroceSwitch> sw = in.sw;
        NS_TEST_EXPECT_MSG_EQ(sw->Validate(), "", "defaults");
        for (std::string bad : {"1,1,1",
                                "1,1,1,1,1,1,1,0",
                                "1,1,1,1,1,1,1,256",
                                "1,1,1,1,1,1,1,x",
                                "1,1,1,1,1,1,1,1,",
                                "1,1,1,1,1,1,1,-1"})
        {
            Expect(sw,
                   "QueueWeights",
                   bad,
                   "QueueWeights = " + bad + " is not allowed: expected 8 weights 1..255");
        }
        for (std::string bad : {"64:1", "8:8", "8", "8:1:2", "8:1,8:2", "a:1", "8:1,"})
        {
            Expect(sw,
                   "DscpMap",
                   bad,
                   "DscpMap = " + bad + " is not allowed: expected dscp:priority pairs");
        }
        for (std::string bad :
             {"8:1:2:0.1", "3:1:2", "3:1:2:x", "3:1:2:0.1,3:1:2:0.1", "3:-1:2:0.1"})
        {
            Expect(sw,
                   "EcnPerQueue",
                   bad,
                   "EcnPerQueue = " + bad + " is not allowed: expected prio:kmin:kmax:pmax");
        }
        Expect(sw,
               "EcnPerQueue",
               "3:9000:5000:0.1",
               "EcnPerQueue = 3:9000:5000:0.1, priority 3: kmin_bytes = 9000 is not allowed");
        Expect(sw,
               "EcnPerQueue",
               "3:5000:9000:1.5",
               "EcnPerQueue = 3:5000:9000:1.5, priority 3: pmax = 1.5 is not allowed");
        sw->SetAttribute("QueueWeights", StringValue("4,1,2,3,1,1,1,255"));
        sw->SetAttribute("DscpMap", StringValue("0:7,26:3,46:5"));
        sw->SetAttribute("EcnPerQueue", StringValue("0:0:0:0,7:100:200000:1"));
        NS_TEST_EXPECT_MSG_EQ(sw->Validate(), "", "good values");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The switch buffer alone (no simulation): reserve, shared pool and headroom
 * in that order; a lossless class goes to XOFF past the static threshold or
 * as soon as it needs its headroom, takes no shared bytes while in XOFF, and
 * goes back to XON only with its headroom empty and its shared bytes at the
 * XON threshold; a lossy class is refused when the pool is full; the dynamic
 * threshold follows alpha x the free pool.
 */
class SwitchBufferTestCase : public TestCase
{
  public:
    SwitchBufferTestCase()
        : TestCase("switch buffer: admission, headroom and PFC decisions")
    {
    }

  private:
    void DoRun() override
    {
        typedef FeroceSwitchBuffer B;
        B::Params p;
        p.size = 40000;
        p.reserve = 1000;
        p.lossless = 1 << 3;
        p.pfc.mode = FEROCE_PFC_STATIC;
        p.pfc.xoff_bytes = 3000;
        p.pfc.xon_bytes = 1000;
        p.headroom = {2000, 4000}; // two ports
        NS_TEST_EXPECT_MSG_EQ(B::FixedBytes(p),
                              2 * 8 * 1000 + 2000 + 4000,
                              "reserves and the lossless class's headrooms");
        B b;
        b.Configure(p);
        NS_TEST_EXPECT_MSG_EQ(b.GetSharedSize(), 40000 - 22000, "the rest is shared");
        // lossless class (port 0, prio 3): the reserve, then 3000 shared bytes without XOFF
        B::Admission a = b.Admit(0, 3, 1000);
        NS_TEST_EXPECT_MSG_EQ(a.place, B::SHARED, "the reserve");
        NS_TEST_EXPECT_MSG_EQ(a.pfc, FEROCE_PFC_HOLD, "within the reserve");
        for (int i = 0; i < 3; i++)
        {
            a = b.Admit(0, 3, 1000);
            NS_TEST_EXPECT_MSG_EQ(a.pfc, FEROCE_PFC_HOLD, "at or below XOFF");
        }
        a = b.Admit(0, 3, 1);
        NS_TEST_EXPECT_MSG_EQ(a.place, B::SHARED, "still shared");
        NS_TEST_EXPECT_MSG_EQ(a.pfc, FEROCE_PFC_XOFF, "past XOFF");
        NS_TEST_EXPECT_MSG_EQ(b.IsXoff(0, 3), true, "in XOFF");
        // in XOFF, what still arrives goes to the headroom, then is refused
        a = b.Admit(0, 3, 1500);
        NS_TEST_EXPECT_MSG_EQ(a.place, B::HEADROOM, "headroom in XOFF");
        NS_TEST_EXPECT_MSG_EQ(a.pfc, FEROCE_PFC_HOLD, "already in XOFF");
        NS_TEST_EXPECT_MSG_EQ(b.Admit(0, 3, 501).place, B::REFUSED, "headroom of port 0 is 2000");
        NS_TEST_EXPECT_MSG_EQ(b.GetUsed(), 5501, "bytes held");
        // draining: no XON while the headroom holds bytes, XON once shared <= 1000 and it is empty
        NS_TEST_EXPECT_MSG_EQ(b.Release(0, 3, 1000, B::SHARED), FEROCE_PFC_HOLD, "2001 shared");
        NS_TEST_EXPECT_MSG_EQ(b.Release(0, 3, 1001, B::SHARED), FEROCE_PFC_HOLD, "headroom held");
        NS_TEST_EXPECT_MSG_EQ(b.Release(0, 3, 1500, B::HEADROOM), FEROCE_PFC_XON, "headroom empty");
        NS_TEST_EXPECT_MSG_EQ(b.IsXoff(0, 3), false, "resumed");
        // a class that needs its headroom goes to XOFF at once: fill the pool from port 1, prio 0
        B c;
        c.Configure(p);
        uint64_t shared = c.GetSharedSize();
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 0, uint32_t(shared + 1000)).place, B::SHARED, "lossy");
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 0, 1).place, B::REFUSED, "lossy: the pool is full");
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 2, 1000).place, B::SHARED, "another class's reserve");
        a = c.Admit(1, 3, 1001);
        NS_TEST_EXPECT_MSG_EQ(a.place, B::HEADROOM, "lossless: its headroom");
        NS_TEST_EXPECT_MSG_EQ(a.pfc, FEROCE_PFC_XOFF, "XOFF when it needs its headroom");
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 3, 2999).place, B::HEADROOM, "port 1 has 4000");
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 3, 1001).place, B::REFUSED, "and no more");
        NS_TEST_EXPECT_MSG_EQ(c.Admit(1, 3, 1000).place, B::SHARED, "but its reserve, unused");
        NS_TEST_EXPECT_MSG_EQ(c.GetPeak(), shared + 1000 + 1000 + 4000 + 1000, "peak");
        // dynamic: XOFF above alpha x free shared bytes
        p.pfc.mode = FEROCE_PFC_DYNAMIC;
        p.pfc.alpha = 0.5;
        p.pfc.xon_offset_bytes = 0;
        p.lossless = 1 << 3 | 1 << 4;
        B d;
        p.size = B::FixedBytes(p) + 9000;
        d.Configure(p);
        NS_TEST_EXPECT_MSG_EQ(d.GetSharedSize(), 9000, "shared");
        // class (0, 4) takes 3000 shared: free 6000, its threshold 3000: not above
        NS_TEST_EXPECT_MSG_EQ(d.Admit(0, 4, 4000).pfc, FEROCE_PFC_HOLD, "3000 <= 0.5 x 6000");
        // another class takes 1000 shared: (0, 4) is re-decided only when its own bytes change
        NS_TEST_EXPECT_MSG_EQ(d.Admit(1, 3, 2000).pfc, FEROCE_PFC_HOLD, "1000 <= 0.5 x 5000");
        NS_TEST_EXPECT_MSG_EQ(d.Admit(0, 4, 1).pfc, FEROCE_PFC_XOFF, "3001 > 0.5 x 4999");
    }
};

/**
 * \ingroup feroce
 * ECN marking statistics through the switch: the receiver's port is paused
 * by a PFC frame, so its queue only grows while three senders fill it; each
 * arriving frame is marked (MarkPoint enqueue) with p(q) of the queue q it
 * finds.  Below Kmin never, above Kmax always, in between the marks of each
 * half of the range match the sum of p(q) within 4 standard deviations.
 */
class EcnStatisticsTestCase : public TestCase
{
  public:
    EcnStatisticsTestCase()
        : TestCase("ECN marking statistics through the switch, queue held by a PAUSE")
    {
    }

  private:
    struct Watch
    {
        uint32_t port{0};
        uint64_t last{0};
        bool marked{false};
        std::vector<std::pair<uint64_t, bool>> samples; ///< queue found, marked
    };

    static void Mark(Watch* w, Ptr<const Packet> /* frame */)
    {
        w->marked = true; // the mark comes just before the enqueue it decided
    }

    static void Queue(Watch* w, uint32_t port, uint8_t queue, uint64_t bytes)
    {
        if (port != w->port || queue != 3)
        {
            return;
        }
        if (bytes > w->last)
        {
            w->samples.emplace_back(w->last, w->marked);
        }
        w->marked = false;
        w->last = bytes;
    }

    void DoRun() override
    {
        const uint64_t kmin = 100000;
        const uint64_t kmax = 2000000;
        const double pmax = 0.5;
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        helper.SetSwitchAttribute("MarkPoint", StringValue("enqueue"));
        helper.SetSwitchAttribute("Kmin", UintegerValue(kmin));
        helper.SetSwitchAttribute("Kmax", UintegerValue(kmax));
        helper.SetSwitchAttribute("Pmax", DoubleValue(pmax));
        Incast in;
        BuildIncast(in, helper, 3, MilliSeconds(1), MilliSeconds(2));
        in.sw->AssignStreams(7);
        Watch w;
        w.port = in.GetReceiverPort();
        in.sw->TraceConnectWithoutContext("QueueLength", MakeBoundCallback(&Queue, &w));
        in.sw->TraceConnectWithoutContext("EcnMark", MakeBoundCallback(&Mark, &w));
        // the receiver's port stops sending priority 3 for 0xffff quanta (3.4 ms at 10 Gb/s)
        PfcHeader pfc;
        pfc.SetPause(3, 0xffff);
        Ptr<Packet> frame = Create<Packet>(0);
        frame->AddHeader(pfc);
        Ptr<FeroceSwitchPort> port = in.sw->GetPort(w.port);
        Simulator::Schedule(MicroSeconds(1), &FeroceNetDevice::Receive, PeekPointer(port), frame);
        Simulator::Run();
        feroce_cp_params cp = in.sw->GetEcnParameters(3);
        uint64_t below = 0;
        uint64_t belowMarked = 0;
        uint64_t above = 0;
        uint64_t aboveMarked = 0;
        double mean[2] = {0, 0};
        double var[2] = {0, 0};
        uint64_t marks[2] = {0, 0};
        uint64_t n[2] = {0, 0};
        for (const auto& sample : w.samples)
        {
            uint64_t q = sample.first;
            bool marked = sample.second;
            if (q <= kmin)
            {
                below++;
                belowMarked += marked;
            }
            else if (q > kmax)
            {
                above++;
                aboveMarked += marked;
            }
            else
            {
                double p = feroce_cp_probability(&cp, q);
                int half = q > (kmin + kmax) / 2;
                mean[half] += p;
                var[half] += p * (1 - p);
                marks[half] += marked;
                n[half]++;
            }
        }
        std::cout << "ECN statistics: " << w.samples.size() << " arrivals, " << below
                  << " below Kmin, " << above << " above Kmax; marks " << marks[0] << " (expected "
                  << mean[0] << ") and " << marks[1] << " (expected " << mean[1] << ")"
                  << std::endl;
        NS_TEST_EXPECT_MSG_GT(below, 0, "arrivals below Kmin");
        NS_TEST_EXPECT_MSG_EQ(belowMarked, 0, "never marked below Kmin");
        NS_TEST_EXPECT_MSG_EQ(aboveMarked, above, "always marked above Kmax");
        for (int half = 0; half < 2; half++)
        {
            NS_TEST_EXPECT_MSG_GT(n[half], 500, "arrivals in each half of (Kmin, Kmax]");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(marks[half]),
                                      mean[half],
                                      4 * std::sqrt(var[half]),
                                      "marks within 4 sigma in half " << half);
        }
        Simulator::Destroy();
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
        AddTestCase(new WrrTestCase(3, 1, 0, 1024, 1024, 3.0));
        AddTestCase(new WrrTestCase(1, 1, 0, 4096, 1024, 4096.0 / 1024));
        // byte-fair in frame bytes: a WRITE Middle frame is its payload + 58 B (Ethernet, IPv4,
        // UDP, BTH, ICRC), so the payload shares are 4096/4154 : 1024/1082
        AddTestCase(new WrrTestCase(1, 1, 1500, 4096, 1024, (4096.0 / 4154) / (1024.0 / 1082)));
        AddTestCase(new EcnPerQueueTestCase);
        AddTestCase(new DscpMapTestCase);
        AddTestCase(new SwitchAttributeValidationTestCase);
        AddTestCase(new EcnStatisticsTestCase);
        AddTestCase(new SwitchBufferTestCase);
    }
};

static FeroceSwitchTestSuite g_feroceSwitchTestSuite;
