/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Counters that add up (src/feroce/doc/results.md, "Metric names"): every frame a queue pair
// sends is received by a queue pair or lost at one of FeroceFrameLosses' places.

#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-frame-losses.h"
#include "ns3/feroce-switch.h"
#include "ns3/pointer.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

namespace
{

/// Drops every n-th frame it sees (no random stream: the same frames every run).
class EveryNthModel : public ErrorModel
{
  public:
    explicit EveryNthModel(uint32_t n)
        : m_n(n)
    {
    }

  private:
    bool DoCorrupt(Ptr<Packet>) override
    {
        return ++m_seen % m_n == 0;
    }

    void DoReset() override
    {
        m_seen = 0;
    }

    uint32_t m_n;
    uint32_t m_seen{0};
};

/// RoCEv2 frames a queue pair sent (data, ACKs and NAKs, CNPs) and received.
struct QpFrames
{
    uint64_t sent{0};
    uint64_t received{0};

    void Add(const RoceQueuePair::Counters& c)
    {
        sent += c.dataPacketsSent + c.acksSent + c.naksSent + c.rnrNaksSent + c.cnpsSent;
        received += c.dataPacketsReceived + c.acksReceived + c.naksReceived + c.rnrNaksReceived +
                    c.cnpsReceived;
    }
};

void
Post(Ptr<RoceQueuePair> qp, RoceWorkRequest wr)
{
    qp->PostSend(wr);
}

void
Completed(uint32_t* ok, uint32_t* failed, const RoceCompletion& c)
{
    (c.status == ROCE_WC_SUCCESS ? *ok : *failed) += 1;
}

} // namespace

/**
 * \ingroup feroce
 * A 3:1 incast that loses frames at every place: a switch with no route for a
 * queue pair's destination, a Soft-RoCE receiver with a small buffer and no
 * PFC, an error model on the receiver and on the switch port from board 0, a
 * queue pair aimed at a queue pair number the receiver does not have, a
 * queue pair that goes to the error state and still receives, and board 0's
 * link, down for 200 us while it sends.  After the run has drained, the
 * frames the queue pairs sent equal those they received plus
 * FeroceFrameLosses' total, each place lost some, the total is the sum of the
 * parts, and each was counted at the node where it happened.
 */
class FramesAddUpTestCase : public TestCase
{
  public:
    FramesAddUpTestCase()
        : TestCase("frames sent = frames received + lost at the switch, receive buffer, error "
                   "models, unknown queue pairs, queue pairs in error and a link that was down")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetSwitchAttribute("PfcEnabled", BooleanValue(false)); // every frame a queue pair's
        helper.SetSwitchAttribute("BufferSize", UintegerValue(300000));
        helper.SetQueuePairAttribute("AckTimeout", TimeValue(MicroSeconds(200)));
        RoceIncast in = helper.InstallIncast(3);
        in.receiver->SetAttribute("ReceiverModel", StringValue("software"));
        in.receiver->SetAttribute("RxPacketCost", TimeValue(NanoSeconds(500)));
        in.receiver->SetAttribute("RxProcessingRate", DataRateValue(DataRate("20Gbps")));
        in.receiver->SetAttribute("RxBufferSize", UintegerValue(24 * 1024));
        in.receiver->SetAttribute("RxPfc", BooleanValue(false));
        helper.ConnectIncast(in);
        // board 2 also writes to a queue pair number the receiver does not have, and to a MAC
        // address the switch has no route for: every try lost
        Ptr<RoceQueuePair> orphan = in.senders[2]->CreateQueuePair();
        orphan->Connect(Mac48Address::ConvertFrom(in.receiver->GetAddress()),
                        in.receiver->GetIpv4Address(),
                        0xabcdef,
                        0);
        Ptr<RoceQueuePair> nowhere = in.senders[2]->CreateQueuePair();
        nowhere->Connect(Mac48Address("02:00:00:00:99:99"), Ipv4Address("10.9.9.9"), 0x100, 0);
        // board 1 has a second connection whose receiving end goes to the error state: the
        // receiver SENDs on it first, board 1 has no receive buffer posted, and with RnrRetry 0
        // the first RNR NAK ends it; then board 1 writes to it
        auto broken = helper.ConnectQueuePairs(in.senders[1], in.receiver);
        broken.second->SetAttribute("RnrRetry", UintegerValue(0));
        orphan->SetAttribute("RetryCount", UintegerValue(1));
        nowhere->SetAttribute("RetryCount", UintegerValue(1));
        broken.first->SetAttribute("RetryCount", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(in.Validate(), "", "a valid incast");
        in.sw->GetPort(0)->SetAttribute("ReceiveErrorModel",
                                        PointerValue(Create<EveryNthModel>(97)));
        in.receiver->SetAttribute("ReceiveErrorModel", PointerValue(Create<EveryNthModel>(89)));
        Ptr<FeroceChannel> link0 = DynamicCast<FeroceChannel>(in.senders[0]->GetChannel());
        link0->ScheduleDown(MicroSeconds(200), MicroSeconds(400));

        uint32_t ok = 0;
        uint32_t failed = 0;
        for (auto& qp : in.qps)
        {
            qp->SetCompletionCallback(MakeBoundCallback(&Completed, &ok, &failed));
            for (uint64_t i = 0; i < 8; i++)
            {
                RoceWorkRequest wr;
                wr.id = i;
                wr.length = 65536;
                NS_TEST_ASSERT_MSG_EQ(qp->PostSend(wr), true, "posted");
            }
        }
        RoceWorkRequest small;
        small.length = 1000;
        for (auto qp : {orphan, nowhere, broken.second})
        {
            qp->SetCompletionCallback(MakeBoundCallback(&Completed, &ok, &failed));
        }
        broken.first->SetCompletionCallback(MakeBoundCallback(&Completed, &ok, &failed));
        NS_TEST_ASSERT_MSG_EQ(orphan->PostSend(small), true, "posted");
        NS_TEST_ASSERT_MSG_EQ(nowhere->PostSend(small), true, "posted");
        RoceWorkRequest send = small;
        send.write = false;
        NS_TEST_ASSERT_MSG_EQ(broken.second->PostSend(send), true, "posted");
        // after the RNR NAK has ended broken.second and the boards have finished
        Simulator::Schedule(MilliSeconds(50), &Post, broken.first, small);
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(ok, 24, "every request of the three boards completed");
        NS_TEST_EXPECT_MSG_EQ(failed,
                              4,
                              "the orphans' WRITEs, the receiver's SEND, board 1's WRITE failed");
        NS_TEST_EXPECT_MSG_EQ(in.sw->GetBufferUsed(), 0, "nothing left in the switch");
        NS_TEST_EXPECT_MSG_EQ(in.receiver->GetRxBufferBytes(), 0, "nothing left at the receiver");

        QpFrames frames;
        std::vector<Ptr<RoceNic>> nics = in.senders;
        nics.push_back(in.receiver);
        for (auto& nic : nics)
        {
            for (uint32_t q = 0; q < nic->GetNQueuePairs(); q++)
            {
                frames.Add(nic->GetQueuePair(0x100 + q)->GetCounters());
            }
        }
        NodeContainer all = in.hosts;
        all.Add(in.sw->GetObject<Node>());
        FeroceFrameLosses lost = FeroceFrameLosses::Of(all);
        std::cout << "sent " << frames.sent << " = received " << frames.received << " + lost";
        uint64_t sum = 0;
        for (const auto& part : lost.Parts())
        {
            std::cout << " " << part.first << "=" << part.second;
            NS_TEST_EXPECT_MSG_GT(part.second, 0, part.first << ": this place lost frames");
            sum += part.second;
        }
        std::cout << std::endl;
        NS_TEST_EXPECT_MSG_EQ(lost.Total(), sum, "the total is the sum of the places");
        NS_TEST_EXPECT_MSG_EQ(frames.sent,
                              frames.received + lost.Total(),
                              "every frame sent was received or lost at one of the places");

        // where: the receiver lost to its buffer, its error model, unknown and broken queue
        // pairs, the switch to its buffer and port 0's error model, the boards nothing
        FeroceFrameLosses rx;
        FeroceFrameLosses sw;
        rx.Add(in.hosts.Get(3));
        sw.Add(in.sw->GetObject<Node>());
        NS_TEST_EXPECT_MSG_EQ(rx.rxBuffer, lost.rxBuffer, "the receive buffer's at the receiver");
        NS_TEST_EXPECT_MSG_EQ(rx.unknown, lost.unknown, "the unknown queue pair's at the receiver");
        NS_TEST_EXPECT_MSG_EQ(rx.qpError, lost.qpError, "the broken queue pair's at the receiver");
        NS_TEST_EXPECT_MSG_EQ(sw.switchDrops, lost.switchDrops, "the switch's at the switch");
        NS_TEST_EXPECT_MSG_GT(sw.errorModel, 0, "port 0's error model");
        NS_TEST_EXPECT_MSG_GT(rx.errorModel, 0, "the receiver's error model");
        NS_TEST_EXPECT_MSG_EQ(rx.errorModel + sw.errorModel, lost.errorModel, "and none else");
        // board 0's link: its data lost on the way to the switch, ACKs on the way to board 0
        FeroceFrameLosses board0;
        board0.Add(in.hosts.Get(0));
        NS_TEST_EXPECT_MSG_GT(sw.linkDown, 0, "board 0's data, lost on its way to the switch");
        NS_TEST_EXPECT_MSG_EQ(sw.linkDown + board0.linkDown,
                              lost.linkDown,
                              "counted at the two ends of board 0's link and nowhere else");
        NS_TEST_EXPECT_MSG_EQ(lost.linkDown, link0->GetFramesLost(), "the channel's count");
        NS_TEST_EXPECT_MSG_EQ(link0->GetFramesLostTo(PeekPointer(in.senders[0])),
                              board0.linkDown,
                              "per end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * Counters that add up.
 */
class FeroceCountersTestSuite : public TestSuite
{
  public:
    FeroceCountersTestSuite()
        : TestSuite("feroce-counters")
    {
        AddTestCase(new FramesAddUpTestCase);
    }
};

/// The suite's instance.
static FeroceCountersTestSuite g_feroceCountersTestSuite;
