/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The switch's link-level PAUSE and PFC watchdog (src/feroce/doc/switch.md): a switch that sends
// 802.3x PAUSE (PauseFrames) stops senders that obey 802.3x and is ignored by senders that obey
// PFC only; a switch port obeys its peer's 802.3x PAUSE, its control queue included; a PFC
// watchdog finds a queue its peer holds too long and drops (or forwards) what it holds, so that
// the senders behind the switch are not held with it; bad settings are refused by name.

#include "ns3/boolean.h"
#include "ns3/feroce-switch-port.h"
#include "ns3/feroce-switch.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <functional>
#include <string>

using namespace ns3;

namespace
{

/// A 3:1 incast of saturating WRITEs, DCQCN off, the senders obeying honour; setup runs on the
/// helper before anything is built (switch attributes) and on the receiver NIC after.
struct PauseIncast
{
    RoceIncast in;
    uint64_t delivered{0};

    uint64_t SendersCounter(std::function<uint64_t(const RoceNic::Counters&)> f) const
    {
        uint64_t n = 0;
        for (auto& s : in.senders)
        {
            n += f(s->GetCounters());
        }
        return n;
    }
};

void
RunIncast(PauseIncast& p,
          const std::string& pauseFrames,
          const std::string& honour,
          std::function<void(RoceHelper&)> switchSetup,
          std::function<void(Ptr<RoceNic>)> receiverSetup,
          Time duration)
{
    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnEnabled", BooleanValue(false));
    helper.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
    helper.SetSwitchAttribute("PauseFrames", StringValue(pauseFrames));
    if (switchSetup)
    {
        switchSetup(helper);
    }
    p.in = helper.InstallIncast(3);
    for (auto& s : p.in.senders)
    {
        s->SetAttribute("PauseHonour", StringValue(honour));
    }
    if (receiverSetup)
    {
        receiverSetup(p.in.receiver);
    }
    helper.ConnectIncast(p.in);
    NS_ABORT_MSG_IF(!p.in.Validate().empty(), p.in.Validate());
    for (uint32_t i = 0; i < 3; i++)
    {
        Ptr<RoceFrontEndApp> tx = CreateObject<RoceFrontEndApp>();
        tx->SetQueuePair(p.in.qps[i]);
        p.in.hosts.Get(i)->AddApplication(tx);
    }
    Simulator::Stop(duration);
    Simulator::Run();
    p.delivered = p.in.receiverApp->GetBytesReceived();
}

/// A receiver whose CPU cannot keep up (Soft-RoCE at about 100 Mb/s) and whose NIC sends PFC
/// for its receive buffer: it holds the switch's port toward it almost all the time.
void
StuckReceiver(Ptr<RoceNic> nic)
{
    nic->SetAttribute("ReceiverModel", StringValue("software"));
    nic->SetAttribute("RxPacketCost", TimeValue(MicroSeconds(300)));
    nic->SetAttribute("RxProcessingRate", DataRateValue(DataRate("10Gbps")));
    nic->SetAttribute("RxBufferSize", UintegerValue(64 * 1024));
    nic->SetAttribute("RxPfc", BooleanValue(true));
}

} // namespace

/**
 * \ingroup feroce
 * A 3:1 incast, DCQCN off, through a switch that sends 802.3x PAUSE: senders that obey 802.3x
 * stop and nothing is lost (no PFC frame on the wire); senders that obey PFC only ignore every
 * PAUSE and the lossless class overflows its headroom; with PauseFrames both, each XOFF sends
 * both kinds.
 */
class SwitchLinkPauseTestCase : public TestCase
{
  public:
    SwitchLinkPauseTestCase(const std::string& pauseFrames, const std::string& honour)
        : TestCase("switch PauseFrames " + pauseFrames + ", senders obeying " + honour),
          m_frames(pauseFrames),
          m_honour(honour)
    {
    }

  private:
    void DoRun() override
    {
        PauseIncast p;
        RunIncast(p, m_frames, m_honour, nullptr, nullptr, MilliSeconds(20));
        FeroceSwitch::Counters c = p.in.sw->GetCounters();
        uint64_t pfcSent = c.pauseFramesSent - c.linkPauseFramesSent;
        uint64_t linkReceived =
            p.SendersCounter([](const RoceNic::Counters& n) { return n.linkPauseFramesReceived; });
        uint64_t linkIgnored =
            p.SendersCounter([](const RoceNic::Counters& n) { return n.linkPauseFramesIgnored; });
        uint64_t pfcReceived =
            p.SendersCounter([](const RoceNic::Counters& n) { return n.pauseFramesReceived; });
        NS_TEST_ASSERT_MSG_GT(c.linkPauseFramesSent, 0, "the switch sends 802.3x PAUSE");
        NS_TEST_ASSERT_MSG_GT(linkReceived, 0, "the senders receive it");
        if (m_frames == "802.3x")
        {
            NS_TEST_ASSERT_MSG_EQ(pfcSent, 0, "and no PFC frame");
            NS_TEST_ASSERT_MSG_EQ(pfcReceived, 0, "none received");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(pfcSent, 0, "PFC frames too");
        }
        if (m_honour == "802.3x")
        {
            NS_TEST_ASSERT_MSG_EQ(linkIgnored, 0, "obeyed");
            NS_TEST_ASSERT_MSG_EQ(c.TotalDrops(), 0, "nothing lost");
            NS_TEST_ASSERT_MSG_GT(p.in.senders[0]->GetLinkPausedTime(),
                                  MilliSeconds(1),
                                  "a sender is held a while");
            // the bottleneck stays busy: at least 90% of its 10 Gb/s in payload
            NS_TEST_ASSERT_MSG_GT(double(p.delivered) * 8 / 20e-3, 9e9, "at line rate");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(linkIgnored, linkReceived, "every 802.3x PAUSE ignored");
            NS_TEST_ASSERT_MSG_EQ(p.in.senders[0]->GetLinkPausedTime(), Time(0), "never held");
            if (m_frames == "802.3x")
            {
                NS_TEST_ASSERT_MSG_GT(c.drops[FeroceSwitch::DROP_LOSSLESS],
                                      0,
                                      "the lossless class overflows its headroom");
            }
        }
        Simulator::Destroy();
    }

    std::string m_frames;
    std::string m_honour;
};

/**
 * \ingroup feroce
 * A switch port obeys its peer's 802.3x PAUSE: a slow receiver whose NIC sends 802.3x holds the
 * port toward it, every class and the control queue, and the switch's PFC holds the senders;
 * nothing is lost.
 */
class SwitchObeysLinkPauseTestCase : public TestCase
{
  public:
    SwitchObeysLinkPauseTestCase()
        : TestCase("a switch port obeys its peer's 802.3x PAUSE")
    {
    }

  private:
    void DoRun() override
    {
        PauseIncast p;
        RunIncast(
            p,
            "pfc",
            "pfc",
            nullptr,
            [](Ptr<RoceNic> nic) {
                nic->SetAttribute("ReceiverModel", StringValue("software"));
                nic->SetAttribute("RxPacketCost", TimeValue(NanoSeconds(3200)));
                nic->SetAttribute("RxProcessingRate", DataRateValue(DataRate("10Gbps")));
                nic->SetAttribute("RxBufferSize", UintegerValue(256 * 1024));
                nic->SetAttribute("RxPfc", BooleanValue(true));
                nic->SetAttribute("RxPauseFrames", StringValue("802.3x"));
            },
            MilliSeconds(10));
        Ptr<FeroceSwitchPort> port = p.in.sw->GetPort(p.in.GetReceiverPort());
        NS_TEST_ASSERT_MSG_GT(port->GetCounters().linkPauseFramesReceived,
                              1,
                              "the port receives 802.3x");
        NS_TEST_ASSERT_MSG_GT(port->GetLinkPausedTime(), MilliSeconds(1), "and is held by it");
        NS_TEST_ASSERT_MSG_EQ(p.in.receiver->GetCounters().rxOverflowDrops, 0, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(p.in.sw->GetCounters().TotalDrops(), 0, "nowhere");
        NS_TEST_ASSERT_MSG_GT(p.in.sw->GetCounters().pauseFramesSent, 0, "PFC to the senders");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * A receiver that holds its switch port nearly all the time (a stuck host sending PFC): without
 * a watchdog the switch's buffer fills and its PFC holds every sender; with the watchdog
 * (detect 1 ms) the queue is found in a storm, what it holds is dropped (or, with forward,
 * sent despite the PAUSE, to overflow the receiver's buffer), the senders are released and the
 * storm is counted once.
 */
class SwitchWatchdogTestCase : public TestCase
{
  public:
    SwitchWatchdogTestCase(const std::string& action)
        : TestCase("PFC watchdog: " + (action.empty() ? std::string("off") : action)),
          m_action(action)
    {
    }

  private:
    void DoRun() override
    {
        PauseIncast p;
        std::string action = m_action;
        RunIncast(
            p,
            "pfc",
            "pfc",
            [action](RoceHelper& h) {
                if (!action.empty())
                {
                    h.SetSwitchAttribute("WatchdogDetect", TimeValue(MilliSeconds(1)));
                    h.SetSwitchAttribute("WatchdogRestore", TimeValue(MilliSeconds(50)));
                    h.SetSwitchAttribute("WatchdogAction", StringValue(action));
                }
            },
            &StuckReceiver,
            MilliSeconds(20));
        FeroceSwitch::Counters c = p.in.sw->GetCounters();
        Ptr<FeroceSwitchPort> port = p.in.sw->GetPort(p.in.GetReceiverPort());
        Time held = p.in.senders[0]->GetPausedTime(3);
        std::cout << "watchdog " << (m_action.empty() ? "off" : m_action) << ": senders held "
                  << held.As(Time::MS) << ", storms " << c.watchdogStorms << ", watchdog drops "
                  << c.drops[FeroceSwitch::DROP_WATCHDOG] << ", delivered " << p.delivered
                  << " bytes, receiver overflow drops "
                  << p.in.receiver->GetCounters().rxOverflowDrops << std::endl;
        if (m_action.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(c.watchdogStorms, 0, "no watchdog");
            NS_TEST_ASSERT_MSG_EQ(c.TotalDrops(), 0, "lossless");
            NS_TEST_ASSERT_MSG_GT(held, MilliSeconds(10), "the senders are held with the receiver");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(c.watchdogStorms, 1, "one storm (the PAUSE never stops)");
            NS_TEST_ASSERT_MSG_EQ(port->IsInStorm(3), true, "still in it at the end");
            if (m_action == "drop")
            {
                // what comes for the queue is discarded: the buffer never fills again
                NS_TEST_ASSERT_MSG_LT(held, MilliSeconds(2), "the senders are released");
                NS_TEST_ASSERT_MSG_GT(c.drops[FeroceSwitch::DROP_WATCHDOG], 0, "dropped");
                NS_TEST_ASSERT_MSG_EQ(c.TotalDrops(),
                                      c.drops[FeroceSwitch::DROP_WATCHDOG],
                                      "by the watchdog only");
            }
            else
            {
                // sent at line rate despite the PAUSE: the senders are held only by the 3:1
                // incast's own congestion (DCQCN is off), no longer by the stuck receiver
                NS_TEST_ASSERT_MSG_LT(held, MilliSeconds(10), "the senders are released");
                NS_TEST_ASSERT_MSG_EQ(c.TotalDrops(), 0, "the switch drops nothing");
                NS_TEST_ASSERT_MSG_GT(p.in.receiver->GetCounters().rxOverflowDrops,
                                      0,
                                      "the receiver's buffer overflows instead");
            }
        }
        Simulator::Destroy();
    }

    std::string m_action;
};

/**
 * \ingroup feroce
 * PauseFrames and the watchdog's settings: unknown values and contradictions refused by name.
 */
class SwitchPauseValidationTestCase : public TestCase
{
  public:
    SwitchPauseValidationTestCase()
        : TestCase("PauseFrames and watchdog settings: values and contradictions")
    {
    }

  private:
    static std::string Check(const std::string& attr, const AttributeValue& v, bool pfc = true)
    {
        Ptr<FeroceSwitch> sw = CreateObject<FeroceSwitch>();
        sw->SetAttribute("PfcEnabled", BooleanValue(pfc));
        sw->SetAttribute(attr, v);
        if (attr == "WatchdogRestore")
        {
            sw->SetAttribute("WatchdogDetect", TimeValue(MilliSeconds(1)));
        }
        return sw->Validate();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Check("PauseFrames", StringValue("802.3x")), "", "802.3x");
        NS_TEST_ASSERT_MSG_EQ(Check("PauseFrames", StringValue("both")), "", "both");
        NS_TEST_ASSERT_MSG_EQ(Check("PauseFrames", StringValue("pause")),
                              "PauseFrames = pause is not allowed: expected pfc, 802.3x or both",
                              "unknown");
        NS_TEST_ASSERT_MSG_EQ(
            Check("PauseFrames", StringValue("802.3x"), false)
                .find("PauseFrames = 802.3x is not allowed with PfcEnabled = false"),
            0,
            "no lossless class to send it for");
        NS_TEST_ASSERT_MSG_EQ(Check("WatchdogAction", StringValue("shout")),
                              "WatchdogAction = shout is not allowed: expected drop or forward",
                              "unknown action");
        NS_TEST_ASSERT_MSG_EQ(Check("WatchdogRestore", TimeValue(Time(0))),
                              "WatchdogRestore = 0 is not allowed with WatchdogDetect > 0: "
                              "expected > 0",
                              "restore 0");
    }
};

/**
 * \ingroup feroce
 * The switch's link-level PAUSE and PFC watchdog.
 */
class FeroceSwitchPauseTestSuite : public TestSuite
{
  public:
    FeroceSwitchPauseTestSuite()
        : TestSuite("feroce-switch-pause")
    {
        AddTestCase(new SwitchLinkPauseTestCase("802.3x", "802.3x"));
        AddTestCase(new SwitchLinkPauseTestCase("802.3x", "pfc"));
        AddTestCase(new SwitchLinkPauseTestCase("both", "802.3x"));
        AddTestCase(new SwitchObeysLinkPauseTestCase);
        AddTestCase(new SwitchWatchdogTestCase(""));
        AddTestCase(new SwitchWatchdogTestCase("drop"));
        AddTestCase(new SwitchWatchdogTestCase("forward"));
        AddTestCase(new SwitchPauseValidationTestCase);
    }
};

/// The suite's one instance.
static FeroceSwitchPauseTestSuite g_feroceSwitchPauseTestSuite;
