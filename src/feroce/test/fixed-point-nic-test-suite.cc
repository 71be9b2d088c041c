/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoceNic's FixedPointFormat: the queue pairs' reaction points run the core's fixed-point
// model, register for register, and a format that cannot hold the rules is refused by name.

#include "ns3/dcqcn-reaction-point.h"
#include "ns3/feroce-rp-fixed.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

/// Two NICs on one link, a connected QP pair, a receiver on the second.
struct FixedPair
{
    Ptr<RoceNic> a;
    Ptr<RoceNic> b;
    Ptr<RoceQueuePair> qa;
};

FixedPair
MakeFixedPair(const std::string& format)
{
    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnPreset", StringValue("connectx"));
    helper.SetDeviceAttribute("FixedPointFormat", StringValue(format));
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
    FixedPair p;
    p.a = DynamicCast<RoceNic>(devs.Get(0));
    p.b = DynamicCast<RoceNic>(devs.Get(1));
    auto qps = helper.ConnectQueuePairs(p.a, p.b);
    p.qa = qps.first;
    Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
    rx->AddQueuePair(qps.second);
    nodes.Get(1)->AddApplication(rx);
    return p;
}

} // namespace

/**
 * \ingroup feroce
 * CNPs injected into a QP of a NIC with FixedPointFormat "surf" leave the same registers as the
 * core's fixed-point model fed the same CNPs at the cycles they fall in; the QP's rates are the
 * registers times SURF's LSB (8 b/s).  Without the attribute the QP has no registers.
 */
class FixedPointCnpTestCase : public TestCase
{
  public:
    FixedPointCnpTestCase()
        : TestCase("FixedPointFormat=surf: a QP's registers follow the core's fixed-point model")
    {
    }

  private:
    void Apply(Ptr<RoceQueuePair> qp, int64_t t, bool cnp)
    {
        if (cnp)
        {
            qp->ReceiveCnp();
            feroce_rp_fixed_cnp(&m_ref, &m_params, feroce_rp_fixed_cycle_at(&m_params, t));
        }
        else
        {
            feroce_rp_fixed_advance(&m_ref, &m_params, feroce_rp_fixed_cycle_at(&m_params, t));
        }
        const feroce_rp_fixed_regs* regs = qp->GetFixedRegisters();
        NS_TEST_ASSERT_MSG_NE(regs, nullptr, "fixed-point registers");
        NS_TEST_EXPECT_MSG_EQ(regs->rc, m_ref.cur.rc, "Rc register at " << t);
        NS_TEST_EXPECT_MSG_EQ(regs->rt, m_ref.cur.rt, "Rt register at " << t);
        NS_TEST_EXPECT_MSG_EQ(regs->alpha, m_ref.cur.alpha, "alpha register at " << t);
        NS_TEST_EXPECT_MSG_EQ(qp->GetRateBps(), double(m_ref.cur.rc) * 8, "Rc in b/s at " << t);
        NS_TEST_EXPECT_MSG_EQ(qp->GetTargetRateBps(), double(m_ref.cur.rt) * 8, "Rt at " << t);
        m_rows++;
    }

    void DoRun() override
    {
        FixedPair p = MakeFixedPair("surf");
        feroce_rp_params rules;
        feroce_rp_fixed_format fmt;
        feroce_rp_preset(&rules, "connectx", 10e9, nullptr);
        feroce_rp_fixed_format_preset(&fmt, "surf", nullptr);
        NS_TEST_ASSERT_MSG_EQ(feroce_rp_fixed_build(&m_params, &rules, &fmt, nullptr),
                              FEROCE_OK,
                              "surf holds connectx");
        feroce_rp_fixed_init(&m_ref, &m_params, 0);
        // CNPs every 20 us for 200 us (cuts every D = 4 us tick after one), then recovery
        std::vector<std::pair<int64_t, bool>> events;
        for (int64_t t = 1000; t <= 200000; t += 20000)
        {
            events.emplace_back(t, true);
            events.emplace_back(t + 4001, false);
        }
        for (int64_t t = 300000; t <= 3000000; t += 150000)
        {
            events.emplace_back(t, false);
        }
        for (auto [t, cnp] : events)
        {
            Simulator::Schedule(NanoSeconds(t), &FixedPointCnpTestCase::Apply, this, p.qa, t, cnp);
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_rows, events.size(), "every row checked");
        NS_TEST_EXPECT_MSG_LT(m_ref.cur.rc, m_params.line, "the CNPs cut the rate");
        NS_TEST_EXPECT_MSG_GT(m_ref.cur.ts, 0, "the increase timer ran");
        Simulator::Destroy();

        FixedPair d = MakeFixedPair("");
        NS_TEST_EXPECT_MSG_EQ(d.qa->GetFixedRegisters(), nullptr, "double precision by default");
        Simulator::Destroy();
    }

    feroce_rp_fixed_params m_params{};
    feroce_rp_fixed_state m_ref{};
    uint32_t m_rows{0};
};

/**
 * \ingroup feroce
 * A format that cannot hold the NIC's rules is refused by Validate() with the attribute, the
 * parameter, its value and what is allowed.
 */
class FixedPointBadFormatTestCase : public TestCase
{
  public:
    FixedPointBadFormatTestCase()
        : TestCase("FixedPointFormat: a bad format is refused by name")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* format;
            const char* message;
        };

        const Case cases[] = {
            {"surf,alpha_bits=6",
             "FixedPointFormat = surf,alpha_bits=6: G = 0.0048828125 is not allowed: expected a "
             "multiple of 2^-6 in (0, 1]"},
            {"surf,clock_hz=100000",
             "FixedPointFormat = surf,clock_hz=100000: AlphaPeriod = 1000 is not allowed: "
             "expected >= one cycle of clock_hz = 100000"},
            {"surf,rate_bits=16",
             "FixedPointFormat = surf,rate_bits=16: LineRate = 10000000000 is not allowed"},
            {"asic", "FixedPointFormat = asic: format = \"asic\" is not allowed"},
            {"surf,rounding=up",
             "FixedPointFormat = surf,rounding=up: rounding = \"up\" is not allowed: expected "
             "truncate or nearest"},
        };
        for (const Case& c : cases)
        {
            RoceHelper helper;
            helper.SetDeviceAttribute("DcqcnPreset", StringValue("connectx"));
            helper.SetDeviceAttribute("FixedPointFormat", StringValue(c.format));
            NodeContainer nodes;
            nodes.Create(2);
            NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
            std::string error = DynamicCast<RoceNic>(devs.Get(0))->Validate();
            NS_TEST_EXPECT_MSG_EQ(error.rfind(c.message, 0),
                                  0,
                                  "message for " << c.format << ": " << error);
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup feroce
 * A saturating WRITE stream with periodic CNPs on the fixed-point rate limiter: every rate the
 * QP reports is a whole number of SURF's LSBs, the rate is cut and recovers, and the data still
 * flow.
 */
class FixedPointTrafficTestCase : public TestCase
{
  public:
    FixedPointTrafficTestCase()
        : TestCase("FixedPointFormat=surf: a paced stream reports only register rates")
    {
    }

  private:
    void Rate(double, double rate)
    {
        m_changes++;
        m_lowest = std::min(m_lowest, rate);
        if (std::fmod(rate, 8.0) != 0)
        {
            m_offGrid++;
        }
    }

    void DoRun() override
    {
        FixedPair p = MakeFixedPair("surf");
        Ptr<RoceFrontEndApp> tx = CreateObject<RoceFrontEndApp>();
        tx->SetQueuePair(p.qa);
        p.a->GetNode()->AddApplication(tx);
        p.qa->TraceConnectWithoutContext("Rate",
                                         MakeCallback(&FixedPointTrafficTestCase::Rate, this));
        for (int64_t t = 10000; t < 500000; t += 25000)
        {
            Simulator::Schedule(NanoSeconds(t), &RoceQueuePair::ReceiveCnp, p.qa);
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(m_changes, 10, "Rc moved");
        NS_TEST_EXPECT_MSG_EQ(m_offGrid, 0, "every Rc a multiple of 8 b/s");
        NS_TEST_EXPECT_MSG_LT(m_lowest, 5e9, "the CNPs cut the rate");
        NS_TEST_EXPECT_MSG_GT(p.qa->GetCounters().dataPacketsSent, 100, "data flowed");
        Simulator::Destroy();
    }

    uint32_t m_changes{0};
    uint32_t m_offGrid{0};
    double m_lowest{1e12};
};

/**
 * \ingroup feroce
 * DcqcnReactionPoint with FixedPointFormat: CNPs and bytes leave the core's fixed-point
 * registers, GetState() shows them as rates, GetNextDeadline() is the start of the deadline's
 * cycle, and a bad format is refused by Validate().
 */
class FixedPointReactionPointTestCase : public TestCase
{
  public:
    FixedPointReactionPointTestCase()
        : TestCase("DcqcnReactionPoint FixedPointFormat: registers, state view, deadline")
    {
    }

  private:
    void Step(Ptr<DcqcnReactionPoint> rp, int64_t t, int what)
    {
        int64_t cycle = feroce_rp_fixed_cycle_at(&m_params, t);
        if (what == 0)
        {
            rp->ReceiveCnp();
            feroce_rp_fixed_cnp(&m_ref, &m_params, cycle);
        }
        else
        {
            rp->NotifyTransmitted(65536);
            feroce_rp_fixed_tx(&m_ref, &m_params, cycle, 65536);
        }
        const feroce_rp_fixed_regs* r = rp->GetFixedRegisters();
        NS_TEST_ASSERT_MSG_NE(r, nullptr, "registers");
        NS_TEST_EXPECT_MSG_EQ(r->rc, m_ref.cur.rc, "Rc at " << t);
        NS_TEST_EXPECT_MSG_EQ(r->alpha, m_ref.cur.alpha, "alpha at " << t);
        NS_TEST_EXPECT_MSG_EQ(r->bs, m_ref.cur.bs, "byte stage at " << t);
        const feroce_rp_vars& v = rp->GetState();
        NS_TEST_EXPECT_MSG_EQ(v.rc, double(m_ref.cur.rc) * 8, "Rc in b/s at " << t);
        NS_TEST_EXPECT_MSG_EQ(v.alpha, m_ref.cur.alpha / 1024.0, "alpha at " << t);
        int64_t d = feroce_rp_fixed_next_deadline(&m_ref, &m_params);
        Time expected =
            d == FEROCE_NEVER ? Time::Max() : NanoSeconds(feroce_rp_fixed_ns_at(&m_params, d));
        NS_TEST_EXPECT_MSG_EQ(rp->GetNextDeadline(), expected, "deadline at " << t);
        m_steps++;
    }

    void DoRun() override
    {
        Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
        NS_TEST_ASSERT_MSG_EQ(rp->ApplyPreset("connectx", DataRate("10Gbps")), "", "preset");
        rp->SetAttribute("FixedPointFormat", StringValue("surf"));
        NS_TEST_EXPECT_MSG_EQ(rp->Validate(), "", "surf holds connectx");
        feroce_rp_params rules;
        feroce_rp_fixed_format fmt;
        feroce_rp_preset(&rules, "connectx", 10e9, nullptr);
        feroce_rp_fixed_format_preset(&fmt, "surf", nullptr);
        feroce_rp_fixed_build(&m_params, &rules, &fmt, nullptr);
        feroce_rp_fixed_init(&m_ref, &m_params, 0);
        int64_t t = 500;
        for (int i = 0; i < 400; i++)
        {
            // a CNP every 10 us for the first 100 us, a packet every 3.3 us throughout
            int what = (i % 3 == 0 && t < 100000) ? 0 : 1;
            Simulator::Schedule(NanoSeconds(t),
                                &FixedPointReactionPointTestCase::Step,
                                this,
                                rp,
                                t,
                                what);
            t += 3333;
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_steps, 400, "every step checked");
        NS_TEST_EXPECT_MSG_GT(m_ref.cur.bs, 0, "the byte counter ran");
        Simulator::Destroy();

        Ptr<DcqcnReactionPoint> bad = CreateObject<DcqcnReactionPoint>();
        bad->ApplyPreset("connectx", DataRate("10Gbps"));
        bad->SetAttribute("FixedPointFormat", StringValue("surf,alpha_bits=8"));
        NS_TEST_EXPECT_MSG_EQ(bad->Validate().rfind("FixedPointFormat = surf,alpha_bits=8: g = "
                                                    "0.0048828125 is not allowed",
                                                    0),
                              0,
                              bad->Validate());
    }

    feroce_rp_fixed_params m_params{};
    feroce_rp_fixed_state m_ref{};
    uint32_t m_steps{0};
};

/**
 * \ingroup feroce
 * A NIC configured through its ReactionPoint object honours that object's FixedPointFormat, and
 * refuses a different one of its own by name.
 */
class FixedPointReactionPointNicTestCase : public TestCase
{
  public:
    FixedPointReactionPointNicTestCase()
        : TestCase("RoceNic honours its ReactionPoint's FixedPointFormat, refuses a conflict")
    {
    }

  private:
    Ptr<RoceNic> Make(const std::string& nicFormat, const std::string& rpFormat)
    {
        Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
        rp->ApplyPreset("paper", DataRate("10Gbps"));
        rp->SetAttribute("FixedPointFormat", StringValue(rpFormat));
        RoceHelper helper;
        helper.SetDeviceAttribute("ReactionPoint", PointerValue(rp));
        helper.SetDeviceAttribute("FixedPointFormat", StringValue(nicFormat));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        return DynamicCast<RoceNic>(devs.Get(0));
    }

    void DoRun() override
    {
        Ptr<RoceNic> nic = Make("", "surf");
        NS_TEST_EXPECT_MSG_EQ(nic->Validate(), "", "the ReactionPoint's format");
        Ptr<RoceQueuePair> qp = nic->CreateQueuePair();
        NS_TEST_EXPECT_MSG_NE(qp->GetFixedRegisters(),
                              nullptr,
                              "fixed point from the ReactionPoint");
        NS_TEST_EXPECT_MSG_EQ(qp->GetFixedRegisters()->rc, 1250000000u, "SURF bytes/s");
        Simulator::Destroy();

        nic = Make("surf", "surf");
        NS_TEST_EXPECT_MSG_EQ(nic->Validate(), "", "the same format twice");
        Simulator::Destroy();

        nic = Make("default", "surf");
        std::string error = nic->Validate();
        NS_TEST_EXPECT_MSG_EQ(error.rfind("FixedPointFormat = default is not allowed: the "
                                          "ReactionPoint says FixedPointFormat = surf",
                                          0),
                              0,
                              error);
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The fixed-point NIC's test suite.
 */
class FixedPointNicTestSuite : public TestSuite
{
  public:
    FixedPointNicTestSuite()
        : TestSuite("feroce-fixed-point-nic")
    {
        AddTestCase(new FixedPointCnpTestCase);
        AddTestCase(new FixedPointBadFormatTestCase);
        AddTestCase(new FixedPointTrafficTestCase);
        AddTestCase(new FixedPointReactionPointTestCase);
        AddTestCase(new FixedPointReactionPointNicTestCase);
    }
};

/// Static instance registering the suite.
static FixedPointNicTestSuite g_fixedPointNicTestSuite;
