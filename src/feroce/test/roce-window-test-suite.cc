/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * The engine's own limits (src/feroce/doc/window.md): the work-request window
 * with a completion latency and ACKs requested every K messages, and RNR flow
 * control against a receiver that posts its buffers at a set rate.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One board linked to one receiver (10 Gb/s, PMTU 4096), saturating SENDs of 4096 B.
struct Bench
{
    Ptr<RoceQueuePair> qa;
    Ptr<RoceQueuePair> qb;
    Ptr<RoceReceiverApp> rx;
    Ptr<RoceFrontEndApp> tx;
};

Bench
MakeBench(RoceHelper& helper, uint32_t depth, bool withImm, double postRate)
{
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
    helper.SetQueuePairAttribute("SendQueueDepth", UintegerValue(depth));
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
    auto qps = helper.ConnectQueuePairs(DynamicCast<RoceNic>(devs.Get(0)),
                                        DynamicCast<RoceNic>(devs.Get(1)));
    Bench b;
    b.qa = qps.first;
    b.qb = qps.second;
    b.rx = CreateObjectWithAttributes<RoceReceiverApp>("PostRate", DoubleValue(postRate));
    b.rx->AddQueuePair(b.qb);
    nodes.Get(1)->AddApplication(b.rx);
    b.tx = CreateObjectWithAttributes<RoceFrontEndApp>("MessageSize",
                                                       UintegerValue(4096),
                                                       "MaxOutstanding",
                                                       UintegerValue(depth),
                                                       "Write",
                                                       BooleanValue(false),
                                                       "WithImmediate",
                                                       BooleanValue(withImm));
    b.tx->SetQueuePair(b.qa);
    nodes.Get(0)->AddApplication(b.tx);
    return b;
}

void
Sample(Ptr<RoceReceiverApp> app, uint64_t* out)
{
    *out = app->GetBytesReceived();
}

// SEND Only of 4096 B: 14+20+8+12 + 4096 + 4 ICRC = 4154 B, 4178 on the wire; ACK 62 -> 86
constexpr double kSendNs = 4178 * 8 / 10.0;
constexpr double kAckNs = 86 * 8 / 10.0;
constexpr double kLineGbps = 4096 * 8 / kSendNs;

/**
 * \ingroup feroce
 * A window of W SENDs, AckReq every K messages (0: one per full window), each
 * completion C after its ACK: goodput is min(line, W M / (K T + 2 d + T_ack + C)),
 * and the board receives one ACK per K messages.
 */
class RoceCompletionLatencyTestCase : public TestCase
{
  public:
    RoceCompletionLatencyTestCase(uint32_t depth, uint32_t k, Time latency)
        : TestCase("window " + std::to_string(depth) + ", AckReq every " + std::to_string(k) +
                   " messages, completion latency " + std::to_string(latency.GetNanoSeconds()) +
                   " ns: goodput by the formula"),
          m_depth(depth),
          m_k(k),
          m_latency(latency)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
        helper.SetQueuePairAttribute("CompletionLatency", TimeValue(m_latency));
        helper.SetQueuePairAttribute("AckReqMessages", UintegerValue(m_k));
        helper.SetQueuePairAttribute("AckInterval", UintegerValue(0xffffffffU)); // on AckReq only
        Bench b = MakeBench(helper, m_depth, false, 0);
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        Simulator::Schedule(MilliSeconds(1), &Sample, b.rx, &b1);
        Simulator::Schedule(MilliSeconds(21), &Sample, b.rx, &b2);
        Simulator::Stop(MilliSeconds(21) + NanoSeconds(1));
        Simulator::Run();
        uint32_t k = m_k == 0 ? m_depth : std::min(m_k, m_depth);
        double loopNs = 2 * 50 + kAckNs + double(m_latency.GetNanoSeconds());
        double expect = std::min(kLineGbps, m_depth * 4096 * 8 / (k * kSendNs + loopNs));
        double measured = double(b2 - b1) * 8 / 20e-3 / 1e9;
        std::cout << GetName() << ": " << measured << " Gb/s, formula " << expect << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expect, expect * 0.002, "goodput");
        const auto& c = b.qa->GetCounters();
        NS_TEST_EXPECT_MSG_EQ_TOL(double(c.acksReceived),
                                  double(c.completions) / k,
                                  m_depth + 1.0, // the requests acknowledged, not yet completed
                                  "one ACK per " << k << " messages");
        NS_TEST_EXPECT_MSG_EQ(c.retransmittedPackets, 0, "nothing retransmitted");
        Simulator::Destroy();
    }

    uint32_t m_depth;
    uint32_t m_k;
    Time m_latency;
};

/**
 * \ingroup feroce
 * An acknowledged request keeps its send-queue slot for CompletionLatency:
 * the queue stays full and refuses posts until the completion, which comes
 * exactly CompletionLatency after the ACK.
 */
class RoceCompletionSlotTestCase : public TestCase
{
  public:
    RoceCompletionSlotTestCase()
        : TestCase("CompletionLatency: the slot is held until the completion")
    {
    }

  private:
    void Completed(const RoceCompletion& c)
    {
        m_completed.push_back(c.completed);
    }

    void Probe(Ptr<RoceQueuePair> qp)
    {
        m_lengthBefore = qp->GetSendQueueLength();
        RoceWorkRequest wr;
        wr.write = false;
        wr.length = 100;
        m_postedBefore = qp->PostSend(wr);
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
        helper.SetQueuePairAttribute("CompletionLatency", TimeValue(MicroSeconds(10)));
        helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
        helper.SetQueuePairAttribute("SendQueueDepth", UintegerValue(1));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        auto qps = helper.ConnectQueuePairs(DynamicCast<RoceNic>(devs.Get(0)),
                                            DynamicCast<RoceNic>(devs.Get(1)));
        Ptr<RoceQueuePair> qa = qps.first;
        qps.second->PostReceive(1);
        qa->SetCompletionCallback(MakeCallback(&RoceCompletionSlotTestCase::Completed, this));
        RoceWorkRequest wr;
        wr.write = false;
        wr.length = 4096;
        NS_TEST_ASSERT_MSG_EQ(qa->PostSend(wr), true, "first post");
        // the ACK is back after 4178 B + 86 B on the wire and two delays: 3.5112 us
        Simulator::Schedule(MicroSeconds(8), &RoceCompletionSlotTestCase::Probe, this, qa);
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(qa->GetCounters().acksReceived, 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(m_lengthBefore, 1, "still outstanding after its ACK");
        NS_TEST_EXPECT_MSG_EQ(m_postedBefore, false, "the slot is not free yet");
        NS_TEST_ASSERT_MSG_EQ(m_completed.size(), 1, "one completion");
        // (the wire times are counted in whole nanoseconds, the remainder carried)
        double ackNs = kSendNs + kAckNs + 100;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(m_completed[0].GetNanoSeconds()),
                                  ackNs + 10000,
                                  2.0,
                                  "ACK + CompletionLatency");
        NS_TEST_EXPECT_MSG_EQ(qa->GetSendQueueLength(), 0, "the slot is free");
        Simulator::Destroy();
    }

    std::vector<Time> m_completed;
    uint32_t m_lengthBefore{0};
    bool m_postedBefore{true};
};

/**
 * \ingroup feroce
 * SENDs with immediate into a receiver that posts a buffer every 1/R s: RNR
 * NAKs and retries; delivered messages never exceed the buffers posted and
 * goodput follows R x message size.  rnr_retry = 7 retries for ever; a
 * smaller value puts the QP in the error state when the buffers come too
 * slowly: the first request completes with "RNR retry exceeded", the rest
 * flushed.
 */
class RoceRnrPostRateTestCase : public TestCase
{
  public:
    RoceRnrPostRateTestCase(double rate, uint32_t rnrRetry, bool fails)
        : TestCase(
              "SEND with immediate, buffers posted at " + std::to_string(int(rate)) +
              " per s, rnr_retry " + std::to_string(rnrRetry) +
              (fails ? ": the QP fails, RNR retry exceeded" : ": goodput bounded by the rate")),
          m_rate(rate),
          m_rnrRetry(rnrRetry),
          m_fails(fails)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
        helper.SetQueuePairAttribute("RnrRetry", UintegerValue(m_rnrRetry));
        helper.SetQueuePairAttribute("RnrTimerCode", UintegerValue(1)); // 10 us
        Bench b = MakeBench(helper, 4, true, m_rate);
        b.qa->TraceConnectWithoutContext("Error",
                                         MakeCallback(&RoceRnrPostRateTestCase::Failed, this));
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        Simulator::Schedule(MilliSeconds(2), &Sample, b.rx, &b1);
        Simulator::Schedule(MilliSeconds(42), &Sample, b.rx, &b2);
        Simulator::Stop(MilliSeconds(42) + NanoSeconds(1));
        Simulator::Run();
        const auto& c = b.qa->GetCounters();
        NS_TEST_EXPECT_MSG_GT(c.rnrNaksReceived, 0, "RNR NAKs");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(b.rx->GetMessagesReceived(),
                                    b.rx->GetBuffersPosted(),
                                    "a SEND only into a posted buffer");
        if (m_fails)
        {
            NS_TEST_EXPECT_MSG_EQ(b.qa->GetState(), RoceQueuePair::ERROR, "error state");
            NS_TEST_EXPECT_MSG_EQ(c.rnrNaksReceived, 1 + m_rnrRetry, "1 + rnr_retry NAKs");
            // what the application sees: four failed requests (the first RNR, three flushed)
            NS_TEST_EXPECT_MSG_EQ(b.tx->GetMessagesFailed(), 4, "the four requests fail");
            NS_TEST_EXPECT_MSG_EQ(b.tx->GetFailureStatus(),
                                  ROCE_WC_RNR_RETRY_EXCEEDED,
                                  "why: RNR retries exhausted");
            NS_TEST_EXPECT_MSG_EQ(std::string(RoceCompletionStatusName(b.tx->GetFailureStatus())),
                                  "RNR retry exceeded",
                                  "its name");
            NS_TEST_EXPECT_MSG_EQ(b.tx->GetMessagesCompleted(), 0, "none succeeded");
            NS_TEST_EXPECT_MSG_EQ(m_why, ROCE_WC_RNR_RETRY_EXCEEDED, "the Error trace");
            NS_TEST_EXPECT_MSG_EQ(b.rx->GetMessagesReceived(), 0, "nothing delivered");
        }
        else
        {
            double bound = m_rate * 4096 * 8 / 1e9;
            double measured = double(b2 - b1) * 8 / 40e-3 / 1e9;
            std::cout << GetName() << ": " << measured << " Gb/s, bound " << bound << " Gb/s, "
                      << c.rnrNaksReceived << " RNR NAKs, " << c.retransmittedPackets
                      << " retransmitted" << std::endl;
            NS_TEST_EXPECT_MSG_EQ(b.qa->GetState(), RoceQueuePair::RTS, "never in error");
            NS_TEST_EXPECT_MSG_EQ(m_why, ROCE_WC_SUCCESS, "no Error trace");
            NS_TEST_EXPECT_MSG_GT(c.retransmittedPackets, 0, "retried");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(measured, bound * 1.001, "bounded by the post rate");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, bound * 0.99, "and follows it");
            NS_TEST_EXPECT_MSG_EQ(b.tx->GetMessagesFailed(), 0, "every completion succeeds");
            NS_TEST_EXPECT_MSG_GT(b.tx->GetMessagesCompleted(), 0, "and there are some");
            if (m_rnrRetry == 7 && m_rate < 10000)
            {
                // each buffer comes after more than 7 RNR timers: only "for ever" survives
                NS_TEST_EXPECT_MSG_GT(c.rnrNaksReceived,
                                      8 * b.rx->GetMessagesReceived(),
                                      "more than 7 retries per message");
            }
        }
        Simulator::Destroy();
    }

    void Failed(uint32_t, RoceCompletionStatus why)
    {
        m_why = why;
    }

    double m_rate;
    uint32_t m_rnrRetry;
    bool m_fails;
    RoceCompletionStatus m_why{ROCE_WC_SUCCESS};
};

/**
 * \ingroup feroce
 * The new attributes refuse what they cannot mean, by name.
 */
class RoceWindowAttributesTestCase : public TestCase
{
  public:
    RoceWindowAttributesTestCase()
        : TestCase("PostRate, ReceiveBuffers and CompletionLatency refuse bad values")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
        NS_TEST_EXPECT_MSG_EQ(rx->Validate(), "", "the defaults are valid");
        NS_TEST_EXPECT_MSG_EQ(rx->SetAttributeFailSafe("PostRate", DoubleValue(-1)),
                              false,
                              "a negative rate is refused");
        NS_TEST_EXPECT_MSG_EQ(rx->SetAttributeFailSafe("PostRate", DoubleValue(NAN)),
                              false,
                              "NaN is refused");
        rx->SetAttribute("PostRate", DoubleValue(1000));
        rx->SetAttribute("ReceiveBuffers", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(rx->Validate(),
                              "ReceiveBuffers = 0 is not allowed with PostRate = 1000.000000: "
                              "expected >= 1 (the most buffers waiting on a queue pair)",
                              "no room for any buffer");
        Ptr<RoceQueuePair> qp = CreateObject<RoceQueuePair>();
        NS_TEST_EXPECT_MSG_EQ(
            qp->SetAttributeFailSafe("CompletionLatency", TimeValue(NanoSeconds(-1))),
            false,
            "a negative completion latency is refused");
        TimeValue latency;
        qp->GetAttribute("CompletionLatency", latency);
        NS_TEST_EXPECT_MSG_EQ(latency.Get(), Time(0), "default 0: results unchanged");
        UintegerValue k;
        qp->GetAttribute("AckReqMessages", k);
        NS_TEST_EXPECT_MSG_EQ(k.Get(), 1, "default: AckReq on every message");
    }
};

class RoceWindowTestSuite : public TestSuite
{
  public:
    RoceWindowTestSuite()
        : TestSuite("feroce-window")
    {
        // the hardware bench's two points with one parameter set (window.md): 8.17, 9.80 Gb/s
        AddTestCase(new RoceCompletionLatencyTestCase(4, 4, NanoSeconds(2500)));
        AddTestCase(new RoceCompletionLatencyTestCase(16, 4, NanoSeconds(2500)));
        // an ACK per SEND needs a 12.7 us completion for the same 8.1 Gb/s at depth 4
        AddTestCase(new RoceCompletionLatencyTestCase(4, 1, NanoSeconds(12700)));
        // one ACK per full window: 9.34 Gb/s at depth 16, not the bench's 9.75
        AddTestCase(new RoceCompletionLatencyTestCase(16, 0, NanoSeconds(2500)));
        AddTestCase(new RoceCompletionLatencyTestCase(1, 1, Time(0)));
        AddTestCase(new RoceCompletionSlotTestCase);
        AddTestCase(new RoceRnrPostRateTestCase(100000, 7, false));
        AddTestCase(new RoceRnrPostRateTestCase(2000, 7, false));
        AddTestCase(new RoceRnrPostRateTestCase(2000, 3, true));
        AddTestCase(new RoceRnrPostRateTestCase(2000, 0, true));
        AddTestCase(new RoceWindowAttributesTestCase);
    }
};

} // namespace

static RoceWindowTestSuite g_roceWindowTestSuite;
