/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The NIC's receiver models (ReceiverModel, src/feroce/doc/receiver.md): a software
// receiver's goodput is its cost model, its receive buffer sends PFC PAUSE when RxPfc
// (nothing lost) or drops (go-back-N recovers), and bad settings are refused by name.

#include "ns3/boolean.h"
#include "ns3/feroce-switch-port.h"
#include "ns3/feroce-switch.h"
#include "ns3/node-container.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A board's NIC linked to a receiver's NIC (directly, or through a switch), one QP pair.
struct ReceiverBench
{
    Ptr<RoceNic> tx;
    Ptr<RoceNic> rx;
    Ptr<RoceQueuePair> qtx;
    Ptr<RoceQueuePair> qrx;
    Ptr<RoceReceiverApp> app;
    Ptr<FeroceSwitch> sw; ///< null when linked directly
};

/// The receiver NIC gets attrs (name, value) before its queue pair fixes its parameters.
ReceiverBench
MakeBench(RoceHelper& helper,
          bool viaSwitch,
          const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& attrs)
{
    ReceiverBench b;
    NodeContainer nodes;
    nodes.Create(2);
    if (viaSwitch)
    {
        Ptr<Node> swNode = CreateObject<Node>();
        b.sw = helper.InstallSwitch(swNode);
        b.tx = helper.AttachHost(b.sw, nodes.Get(0));
        b.rx = helper.AttachHost(b.sw, nodes.Get(1));
        helper.PopulateRoutes();
    }
    else
    {
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        b.tx = DynamicCast<RoceNic>(devs.Get(0));
        b.rx = DynamicCast<RoceNic>(devs.Get(1));
    }
    for (const auto& a : attrs)
    {
        b.rx->SetAttribute(a.first, *a.second);
    }
    auto qps = helper.ConnectQueuePairs(b.tx, b.rx);
    b.qtx = qps.first;
    b.qrx = qps.second;
    b.app = CreateObject<RoceReceiverApp>();
    b.app->AddQueuePair(b.qrx);
    nodes.Get(1)->AddApplication(b.app);
    return b;
}

std::vector<std::pair<std::string, Ptr<AttributeValue>>>
Software(Time packetCost, DataRate byteRate, uint32_t buffer, bool pfc)
{
    return {{"ReceiverModel", Create<StringValue>("software")},
            {"RxPacketCost", Create<TimeValue>(packetCost)},
            {"RxProcessingRate", Create<DataRateValue>(byteRate)},
            {"RxBufferSize", Create<UintegerValue>(buffer)},
            {"RxPfc", Create<BooleanValue>(pfc)}};
}

void
SampleBytes(Ptr<RoceReceiverApp> app, uint64_t* out)
{
    *out = app->GetBytesReceived();
}

void
CountPause(uint32_t* pauses, uint32_t* resumes, uint8_t /* prio */, uint16_t quanta)
{
    (quanta ? *pauses : *resumes) += 1;
}

} // namespace

/**
 * \ingroup feroce
 * A software receiver behind a 10 Gb/s link, with PFC, saturated by 1 MiB
 * WRITEs: its goodput is what its CPU allows, payload over
 * (RxPacketCost + frame bytes x 8 / RxProcessingRate) per packet, within 0.5%;
 * it sends PAUSE frames and loses nothing.
 */
class SoftReceiverGoodputTestCase : public TestCase
{
  public:
    SoftReceiverGoodputTestCase(uint32_t pmtu, Time packetCost, DataRate byteRate)
        : TestCase("software receiver goodput is its cost model, PMTU " + std::to_string(pmtu) +
                   ", " + std::to_string(packetCost.GetNanoSeconds()) + " ns per packet"),
          m_pmtu(pmtu),
          m_cost(packetCost),
          m_rate(byteRate)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(m_pmtu));
        ReceiverBench b = MakeBench(helper, false, Software(m_cost, m_rate, 256 * 1024, true));
        Ptr<RoceFrontEndApp> src = CreateObject<RoceFrontEndApp>();
        src->SetAttribute("MaxOutstanding", UintegerValue(16));
        src->SetQueuePair(b.qtx);
        b.tx->GetNode()->AddApplication(src);
        uint32_t pauses = 0;
        uint32_t resumes = 0;
        b.rx->TraceConnectWithoutContext("PauseSent",
                                         MakeBoundCallback(&CountPause, &pauses, &resumes));
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        Simulator::Schedule(MilliSeconds(1), &SampleBytes, b.app, &b1);
        Simulator::Schedule(MilliSeconds(9), &SampleBytes, b.app, &b2);
        Simulator::Stop(MilliSeconds(9));
        Simulator::Run();
        double gbps = double(b2 - b1) * 8 / 8e-3 / 1e9;
        // a 1 MiB WRITE: the first packet has a RETH (16 B), every packet 14 + 20 + 8 + 12
        // header and 4 ICRC bytes around its payload
        double packets = double((1 << 20) / m_pmtu);
        double bytes = (1 << 20) + packets * (14 + 20 + 8 + 12 + 4) + 16;
        double cpuSeconds = packets * m_cost.GetSeconds() + bytes * 8 / double(m_rate.GetBitRate());
        double model = (1 << 20) * 8 / cpuSeconds / 1e9;
        std::cout << "PMTU " << m_pmtu << " software receiver " << gbps << " Gb/s (cost model "
                  << model << "), PAUSE " << pauses << " XON " << resumes << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(gbps, model, model * 0.005, "goodput vs the cost model");
        NS_TEST_EXPECT_MSG_GT(pauses, 0, "the full receive buffer sent PAUSE");
        NS_TEST_EXPECT_MSG_GT(resumes, 0, "and XON when it drained");
        NS_TEST_EXPECT_MSG_EQ(b.rx->GetCounters().pauseFramesSent, pauses, "counter = trace");
        NS_TEST_EXPECT_MSG_EQ(b.rx->GetCounters().rxOverflowDrops, 0, "nothing lost with PFC");
        NS_TEST_EXPECT_MSG_EQ(b.qtx->GetCounters().retransmittedPackets, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_GT(b.tx->GetPausedTime(3).GetSeconds(), 0, "the sender was paused");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(b.rx->GetCounters().rxBufferPeak,
                                    256 * 1024,
                                    "the buffer held");
        Simulator::Destroy();
    }

    uint32_t m_pmtu;
    Time m_cost;
    DataRate m_rate;
};

/**
 * \ingroup feroce
 * The same receiver without PFC drops what its buffer cannot hold; go-back-N
 * (NAKs for the gaps) delivers every message once, in order.
 */
class SoftReceiverLossTestCase : public TestCase
{
  public:
    SoftReceiverLossTestCase()
        : TestCase("software receiver without PFC: drops, recovered by go-back-N")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        ReceiverBench b = MakeBench(helper,
                                    false,
                                    Software(MicroSeconds(2), DataRate("8Gbps"), 64 * 1024, false));
        const uint64_t n = 10;
        for (uint64_t i = 0; i < n; i++)
        {
            RoceWorkRequest wr;
            wr.id = i;
            wr.length = 65536;
            NS_TEST_ASSERT_MSG_EQ(b.qtx->PostSend(wr), true, "posted");
        }
        Simulator::Stop(MilliSeconds(200));
        Simulator::Run();
        const auto& ctx = b.qtx->GetCounters();
        const auto& crx = b.qrx->GetCounters();
        std::cout << "no PFC: drops " << b.rx->GetCounters().rxOverflowDrops << ", NAKs "
                  << crx.naksSent << ", retransmitted " << ctx.retransmittedPackets << ", timeouts "
                  << ctx.timeouts << std::endl;
        NS_TEST_EXPECT_MSG_GT(b.rx->GetCounters().rxOverflowDrops, 0, "the buffer overflowed");
        NS_TEST_EXPECT_MSG_EQ(b.rx->GetCounters().pauseFramesSent, 0, "no PAUSE without RxPfc");
        NS_TEST_EXPECT_MSG_GT(crx.naksSent, 0, "NAKs for the gaps");
        NS_TEST_EXPECT_MSG_GT(ctx.retransmittedPackets, 0, "went back");
        NS_TEST_EXPECT_MSG_EQ(ctx.completions, n, "every request completed");
        NS_TEST_EXPECT_MSG_EQ(crx.messagesDelivered, n, "every message delivered");
        NS_TEST_EXPECT_MSG_EQ(b.app->GetBytesReceived(), n * 65536, "each byte once");
        NS_TEST_EXPECT_MSG_EQ(b.rx->GetRxBufferBytes(), 0, "the buffer drained");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * Behind a switch, the NIC's PAUSE stops the switch's egress port toward it:
 * the queue builds in the switch, whose own PFC then pauses the board; nothing
 * is lost anywhere and the switch port counts the NIC's PAUSE frames.
 */
class SoftReceiverSwitchTestCase : public TestCase
{
  public:
    SoftReceiverSwitchTestCase()
        : TestCase("software receiver with PFC behind a switch: the queue moves into the switch")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        ReceiverBench b =
            MakeBench(helper, true, Software(MicroSeconds(3), DataRate("8Gbps"), 128 * 1024, true));
        Ptr<RoceFrontEndApp> src = CreateObject<RoceFrontEndApp>();
        src->SetAttribute("MaxOutstanding", UintegerValue(16));
        src->SetQueuePair(b.qtx);
        b.tx->GetNode()->AddApplication(src);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        Ptr<FeroceSwitchPort> toRx = b.sw->GetPort(1);
        NS_TEST_EXPECT_MSG_GT(b.rx->GetCounters().pauseFramesSent, 0, "the NIC paused");
        NS_TEST_EXPECT_MSG_EQ(toRx->GetCounters().pauseFramesReceived,
                              b.rx->GetCounters().pauseFramesSent +
                                  b.rx->GetCounters().resumeFramesSent,
                              "the switch port got each PAUSE and XON");
        NS_TEST_EXPECT_MSG_GT(b.sw->GetCounters().pauseFramesSent,
                              0,
                              "the switch paused the board");
        NS_TEST_EXPECT_MSG_EQ(b.sw->GetCounters().TotalDrops(), 0, "the switch lost nothing");
        NS_TEST_EXPECT_MSG_EQ(b.rx->GetCounters().rxOverflowDrops, 0, "the NIC lost nothing");
        NS_TEST_EXPECT_MSG_EQ(b.qtx->GetCounters().retransmittedPackets, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_GT(b.sw->GetCounters().bufferPeak, 0, "the switch buffered");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The hardware receiver (the default) never buffers, and bad receiver settings are
 * refused by Validate with a message naming the parameter, its value and what is allowed.
 */
class ReceiverValidationTestCase : public TestCase
{
  public:
    ReceiverValidationTestCase()
        : TestCase("receiver models: bad settings refused by name")
    {
    }

  private:
    void Check(const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& attrs,
               const std::string& expect)
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        Ptr<RoceNic> rx = DynamicCast<RoceNic>(devs.Get(1));
        for (const auto& a : attrs)
        {
            rx->SetAttribute(a.first, *a.second);
        }
        std::string error = rx->Validate();
        if (expect.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(error, "", "a valid setting");
        }
        else
        {
            NS_TEST_EXPECT_MSG_NE(error.find(expect),
                                  std::string::npos,
                                  "expected " + expect + ", got: " + error);
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Check({}, ""); // the default (hardware) is valid
        auto soft = [](uint32_t buffer, bool pfc) {
            return Software(MicroSeconds(1), DataRate("8Gbps"), buffer, pfc);
        };
        Check({{"ReceiverModel", Create<StringValue>("cpu")}},
              "ReceiverModel = cpu is not allowed: expected hardware");
        Check({{"ReceiverModel", Create<StringValue>("software")}},
              "RxProcessingRate = 0bps is not allowed with ReceiverModel = software: expected > 0");
        Check({{"RxProcessingRate", Create<DataRateValue>(DataRate("5Gbps"))}},
              "RxProcessingRate = 5000000000bps is not allowed with ReceiverModel = hardware");
        Check({{"RxPacketCost", Create<TimeValue>(MicroSeconds(1))}},
              "RxPacketCost = 1000ns is not allowed with ReceiverModel = hardware");
        Check({{"RxPfc", Create<BooleanValue>(true)}},
              "RxPfc = true is not allowed with ReceiverModel = hardware");
        Check({{"RxBufferSize", Create<UintegerValue>(100000)}},
              "RxBufferSize = 100000 is not allowed with ReceiverModel = hardware");
        auto unused = soft(256 * 1024, false);
        unused.push_back({"RxXoffBytes", Create<UintegerValue>(100000)});
        Check(unused, "RxXoffBytes = 100000 is not allowed without RxPfc");
        Check({{"RxPauseQuanta", Create<UintegerValue>(100)}},
              "RxPauseQuanta = 100 is not allowed without RxPfc");
        auto negative = soft(256 * 1024, false);
        negative[1].second = Create<TimeValue>(NanoSeconds(-1));
        Check(negative, "RxPacketCost = -1ns is not allowed: expected >= 0");
        Check(soft(4000, false),
              "RxBufferSize = 4000 is not allowed: expected >= 4178 (one data frame at Pmtu "
              "4096)");
        Check(soft(10000, true), "RxBufferSize = 10000 is not allowed with RxPfc: expected >= ");
        auto xoff = soft(256 * 1024, true);
        xoff.push_back({"RxXoffBytes", Create<UintegerValue>(300000)});
        Check(xoff, "RxXoffBytes = 300000 is not allowed: expected <= RxBufferSize - headroom");
        auto xon = soft(256 * 1024, true);
        xon.push_back({"RxXoffBytes", Create<UintegerValue>(100000)});
        xon.push_back({"RxXonBytes", Create<UintegerValue>(100000)});
        Check(xon, "RxXonBytes = 100000 is not allowed: expected < the XOFF threshold 100000");
        auto quanta = soft(256 * 1024, true);
        quanta.push_back({"RxPauseQuanta", Create<UintegerValue>(0)});
        Check(quanta, "RxPauseQuanta = 0 is not allowed: expected 1..65535");
        Check(soft(256 * 1024, true), "");
    }
};

/// \ingroup feroce
class RoceNicReceiverTestSuite : public TestSuite
{
  public:
    RoceNicReceiverTestSuite()
        : TestSuite("feroce-nic-receiver")
    {
        AddTestCase(new SoftReceiverGoodputTestCase(4096, MicroSeconds(2), DataRate("8Gbps")));
        AddTestCase(new SoftReceiverGoodputTestCase(1024, MicroSeconds(1), DataRate("6Gbps")));
        AddTestCase(new SoftReceiverGoodputTestCase(256, Time(0), DataRate("3Gbps")));
        AddTestCase(new SoftReceiverLossTestCase);
        AddTestCase(new SoftReceiverSwitchTestCase);
        AddTestCase(new ReceiverValidationTestCase);
    }
};

static RoceNicReceiverTestSuite g_roceNicReceiverTestSuite;
