/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// IEEE 802.3x link-level PAUSE at a NIC (src/feroce/doc/nic.md): a NIC that obeys it
// (PauseHonour 802.3x or both) stops everything it sends, ACKs included, for the pause's
// quanta, and a NIC that obeys PFC only ignores it; a receive buffer can send it
// (RxPauseFrames); bad and contradicting settings are refused by name.

#include "ns3/boolean.h"
#include "ns3/link-pause-header.h"
#include "ns3/node-container.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>

using namespace ns3;

namespace
{

/// Two NICs on one link, a saturating WRITE source on the first, a receiver app on the second.
struct PauseBench
{
    Ptr<RoceNic> tx;
    Ptr<RoceNic> rx;
    Ptr<RoceReceiverApp> app;
};

PauseBench
MakePauseBench(const std::string& txHonour, const std::string& rxHonour, bool slowReceiver)
{
    PauseBench b;
    RoceHelper helper;
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
    b.tx = DynamicCast<RoceNic>(devs.Get(0));
    b.rx = DynamicCast<RoceNic>(devs.Get(1));
    b.tx->SetAttribute("PauseHonour", StringValue(txHonour));
    b.rx->SetAttribute("PauseHonour", StringValue(rxHonour));
    if (slowReceiver)
    {
        // a Soft-RoCE host at about 5 Gb/s whose NIC sends 802.3x PAUSE for its buffer
        b.rx->SetAttribute("ReceiverModel", StringValue("software"));
        b.rx->SetAttribute("RxPacketCost", TimeValue(NanoSeconds(3200)));
        b.rx->SetAttribute("RxProcessingRate", DataRateValue(DataRate("10Gbps")));
        b.rx->SetAttribute("RxBufferSize", UintegerValue(256 * 1024));
        b.rx->SetAttribute("RxPfc", BooleanValue(true));
        b.rx->SetAttribute("RxPauseFrames", StringValue("802.3x"));
    }
    auto qps = helper.ConnectQueuePairs(b.tx, b.rx);
    b.app = CreateObject<RoceReceiverApp>();
    b.app->AddQueuePair(qps.second);
    nodes.Get(1)->AddApplication(b.app);
    Ptr<RoceFrontEndApp> src = CreateObject<RoceFrontEndApp>();
    src->SetAttribute("MaxOutstanding", UintegerValue(16));
    src->SetQueuePair(qps.first);
    nodes.Get(0)->AddApplication(src);
    return b;
}

void
SampleTx(Ptr<RoceNic> nic, uint64_t* frames)
{
    *frames = nic->GetTxFrames();
}

void
SampleLinkPaused(Ptr<RoceNic> nic, bool* paused)
{
    *paused = nic->IsLinkPaused();
}

/// A MAC-control frame from the peer, as if it arrived on the NIC's link now.
void
InjectLinkPause(Ptr<RoceNic> nic, uint16_t quanta)
{
    LinkPauseHeader pause;
    pause.SetSource(Mac48Address("02:00:00:00:00:99"));
    pause.SetQuanta(quanta);
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(pause);
    nic->Receive(p);
}

void
InjectPfc(Ptr<RoceNic> nic)
{
    PfcHeader pfc;
    pfc.SetSource(Mac48Address("02:00:00:00:00:99"));
    for (uint8_t prio = 0; prio < 8; prio++)
    {
        pfc.SetPause(prio, 0xffff);
    }
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(pfc);
    nic->Receive(p);
}

} // namespace

/**
 * \ingroup feroce
 * A slow receiver whose NIC sends 802.3x PAUSE: a sender that obeys 802.3x (alone or with PFC)
 * stops and nothing is lost; one that obeys PFC only, or nothing, ignores every PAUSE and the
 * receive buffer overflows.
 */
class LinkPauseObeyTestCase : public TestCase
{
  public:
    LinkPauseObeyTestCase(const std::string& honour, bool obeys)
        : TestCase("a board with PauseHonour " + honour + (obeys ? " obeys" : " ignores") +
                   " 802.3x PAUSE"),
          m_honour(honour),
          m_obeys(obeys)
    {
    }

  private:
    void DoRun() override
    {
        PauseBench b = MakePauseBench(m_honour, "", true);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const RoceNic::Counters& tx = b.tx->GetCounters();
        const RoceNic::Counters& rx = b.rx->GetCounters();
        NS_TEST_ASSERT_MSG_GT(rx.linkPauseFramesSent, 1, "the receive buffer sends 802.3x PAUSE");
        NS_TEST_ASSERT_MSG_EQ(rx.pauseFramesSent, 0, "and no PFC frame (RxPauseFrames 802.3x)");
        NS_TEST_ASSERT_MSG_EQ(tx.linkPauseFramesReceived,
                              rx.linkPauseFramesSent + rx.linkResumeFramesSent,
                              "every PAUSE reaches the board");
        NS_TEST_ASSERT_MSG_EQ(b.tx->ObeysLinkPause(), m_obeys, "PauseHonour resolved");
        if (m_obeys)
        {
            NS_TEST_ASSERT_MSG_EQ(tx.linkPauseFramesIgnored, 0, "none ignored");
            NS_TEST_ASSERT_MSG_GT(b.tx->GetLinkPausedTime(), MilliSeconds(1), "paused a while");
            NS_TEST_ASSERT_MSG_EQ(rx.rxOverflowDrops, 0, "nothing lost");
            NS_TEST_ASSERT_MSG_GT(b.app->GetBytesReceived(), 2000000, "the data flows");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(tx.linkPauseFramesIgnored,
                                  tx.linkPauseFramesReceived,
                                  "every PAUSE ignored");
            NS_TEST_ASSERT_MSG_EQ(b.tx->GetLinkPausedTime(), Time(0), "never paused");
            NS_TEST_ASSERT_MSG_GT(rx.rxOverflowDrops, 0, "the receive buffer overflows");
        }
        Simulator::Destroy();
    }

    std::string m_honour;
    bool m_obeys;
};

/**
 * \ingroup feroce
 * 802.3x stops everything: a receiver NIC that obeys it sends no ACK while paused (the sender's
 * window fills and it falls silent too), then resumes when the pause ends; a PFC frame it does
 * not obey leaves it sending.
 */
class LinkPauseStopsAcksTestCase : public TestCase
{
  public:
    LinkPauseStopsAcksTestCase()
        : TestCase("an 802.3x PAUSE stops the ACKs of a NIC that obeys it, PFC does not")
    {
    }

  private:
    void DoRun() override
    {
        PauseBench b = MakePauseBench("", "802.3x", false);
        // 0xffff quanta at 10 Gb/s: 3.355 ms from 1 ms; a PFC frame for every priority at 0.5 ms
        Simulator::Schedule(MicroSeconds(500), &InjectPfc, b.rx);
        Simulator::Schedule(MilliSeconds(1), &InjectLinkPause, b.rx, uint16_t(0xffff));
        uint64_t at0 = 0;
        uint64_t at1 = 0;
        uint64_t at2 = 0;
        uint64_t at3 = 0;
        bool pausedMid = false;
        bool pausedAfter = true;
        Simulator::Schedule(MicroSeconds(900), &SampleTx, b.rx, &at0);
        Simulator::Schedule(MicroSeconds(1010), &SampleTx, b.rx, &at1);
        Simulator::Schedule(MicroSeconds(4300), &SampleTx, b.rx, &at2);
        Simulator::Schedule(MicroSeconds(2000), &SampleLinkPaused, b.rx, &pausedMid);
        Simulator::Schedule(MicroSeconds(4400), &SampleLinkPaused, b.rx, &pausedAfter);
        Simulator::Schedule(MicroSeconds(6000), &SampleTx, b.rx, &at3);
        Simulator::Stop(MilliSeconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(at0, 100, "ACKs before the pause");
        NS_TEST_ASSERT_MSG_EQ(b.rx->GetCounters().pauseFramesIgnored, 1, "PFC is not obeyed");
        NS_TEST_ASSERT_MSG_EQ(pausedMid, true, "the link is held");
        NS_TEST_ASSERT_MSG_EQ(at2, at1, "no frame at all while paused: ACKs held");
        NS_TEST_ASSERT_MSG_EQ(pausedAfter, false, "the pause ends after its quanta");
        NS_TEST_ASSERT_MSG_GT(at3, at2 + 100, "ACKs again after it");
        Time paused = b.rx->GetLinkPausedTime();
        NS_TEST_ASSERT_MSG_EQ_TOL(paused.GetSeconds(),
                                  65535 * 512 / 10e9,
                                  1e-8,
                                  "paused for its 65535 quanta at 10 Gb/s");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * Which pause frames a NIC obeys: PauseHonour's values, PfcHonour alone, and the settings that
 * contradict each other or are unknown, refused by name.
 */
class PauseHonourValidationTestCase : public TestCase
{
  public:
    PauseHonourValidationTestCase()
        : TestCase("PauseHonour and RxPauseFrames: values, PfcHonour, contradictions")
    {
    }

  private:
    /// A NIC with these attributes: Validate's message, and what it obeys.
    std::string Validate(const std::vector<std::pair<std::string, std::string>>& attrs,
                         bool* pfc = nullptr,
                         bool* linkPause = nullptr)
    {
        Ptr<RoceNic> nic = CreateObject<RoceNic>();
        for (const auto& a : attrs)
        {
            if (a.first == "PfcHonour" || a.first == "RxPfc")
            {
                nic->SetAttribute(a.first, BooleanValue(a.second == "true"));
            }
            else
            {
                nic->SetAttribute(a.first, StringValue(a.second));
            }
        }
        std::string error = nic->Validate();
        if (pfc)
        {
            *pfc = nic->ObeysPfc();
            *linkPause = nic->ObeysLinkPause();
        }
        return error;
    }

    void Obeys(const std::vector<std::pair<std::string, std::string>>& attrs,
               bool pfc,
               bool linkPause)
    {
        bool p = false;
        bool l = false;
        NS_TEST_ASSERT_MSG_EQ(Validate(attrs, &p, &l), "", "accepted");
        NS_TEST_EXPECT_MSG_EQ(p, pfc, "obeys PFC");
        NS_TEST_EXPECT_MSG_EQ(l, linkPause, "obeys 802.3x");
    }

    void Refused(const std::vector<std::pair<std::string, std::string>>& attrs,
                 const std::string& want)
    {
        std::string error = Validate(attrs);
        bool found = error.find(want) != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(found, true, "expected '" << want << "' in '" << error << "'");
    }

    void DoRun() override
    {
        Obeys({}, true, false);
        Obeys({{"PfcHonour", "false"}}, false, false);
        Obeys({{"PauseHonour", "pfc"}}, true, false);
        Obeys({{"PauseHonour", "802.3x"}}, false, true);
        Obeys({{"PauseHonour", "both"}}, true, true);
        Obeys({{"PauseHonour", "none"}}, false, false);
        Obeys({{"PfcHonour", "false"}, {"PauseHonour", "802.3x"}}, false, true);
        Refused({{"PauseHonour", "pause"}},
                "PauseHonour = pause is not allowed: expected pfc, 802.3x, both or none");
        Refused({{"PfcHonour", "false"}, {"PauseHonour", "both"}},
                "PauseHonour = both is not allowed with PfcHonour = false: they contradict "
                "each other");
        Refused({{"PfcHonour", "false"}, {"PauseHonour", "pfc"}}, "they contradict each other");
        Refused({{"RxPauseFrames", "802.3x"}},
                "RxPauseFrames = 802.3x is not allowed without RxPfc");
        Refused({{"RxPauseFrames", "xon"}},
                "RxPauseFrames = xon is not allowed: expected pfc, 802.3x or both");
    }
};

/// \ingroup feroce
class RoceLinkPauseTestSuite : public TestSuite
{
  public:
    RoceLinkPauseTestSuite()
        : TestSuite("feroce-link-pause")
    {
        AddTestCase(new LinkPauseObeyTestCase("802.3x", true));
        AddTestCase(new LinkPauseObeyTestCase("both", true));
        AddTestCase(new LinkPauseObeyTestCase("pfc", false));
        AddTestCase(new LinkPauseObeyTestCase("none", false));
        AddTestCase(new LinkPauseStopsAcksTestCase);
        AddTestCase(new PauseHonourValidationTestCase);
    }
};

static RoceLinkPauseTestSuite g_roceLinkPauseTestSuite;
