/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/dcqcn-reaction-point.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

/**
 * \ingroup feroce
 * The connectx known-answer trace (test data rp-connectx.txt) driven through
 * the ns-3 object in simulated time: events scheduled, rates read at their
 * instants, Rc compared with the expected rows.
 */
class DcqcnRpVectorTestCase : public TestCase
{
  public:
    DcqcnRpVectorTestCase()
        : TestCase("connectx preset reproduces rp-connectx.txt in simulated time")
    {
    }

  private:
    struct Row
    {
        int64_t t;
        int event; // 0 cnp, 1 tx, 2 query
        uint32_t bytes;
        double rc;
        double alpha;
    };

    void Apply(Row row)
    {
        if (row.event == 0)
        {
            m_rp->ReceiveCnp();
        }
        else if (row.event == 1)
        {
            m_rp->NotifyTransmitted(row.bytes);
        }
        const feroce_rp_vars& v = m_rp->GetState();
        NS_TEST_EXPECT_MSG_EQ_TOL(v.rc, row.rc, 1e-6, "Rc at t=" << row.t);
        NS_TEST_EXPECT_MSG_EQ_TOL(v.alpha, row.alpha, 1e-9, "alpha at t=" << row.t);
        m_rows++;
    }

    void CountRate(double oldRate, double newRate)
    {
        NS_TEST_EXPECT_MSG_NE(oldRate, newRate, "Rate trace without a change");
        m_changes++;
    }

    void DoRun() override
    {
        // rows of rp-connectx.txt: t_ns, event, bytes, expected rc_bps and alpha
        const std::vector<Row> rows = {
            {0, 0, 0, 10000000000.000000, 0.999023438},
            {4000, 2, 0, 5101731461.016290, 0.979653708},
            {4000, 1, 4096, 5101731461.016290, 0.979653708},
            {100000, 1, 2097088, 7550865730.508144, 0.612348155},
            {100001, 2, 0, 7550865730.508144, 0.612348155},
            {304000, 2, 0, 8775432865.254072, 0.225600884},
            {400000, 1, 2097088, 9387716432.627037, 0.141015426},
            {604000, 2, 0, 9693858216.313519, 0.051952806},
            {700000, 0, 0, 9512792739.680389, 0.037356741},
            {704000, 2, 0, 9512792739.680389, 0.036632444},
        };
        m_rp = CreateObject<DcqcnReactionPoint>();
        NS_TEST_ASSERT_MSG_EQ(m_rp->ApplyPreset("connectx", DataRate("10Gbps")), "", "preset");
        NS_TEST_ASSERT_MSG_EQ(m_rp->Validate(), "", "connectx preset validates");
        m_rp->TraceConnectWithoutContext("Rate",
                                         MakeCallback(&DcqcnRpVectorTestCase::CountRate, this));
        for (const Row& row : rows)
        {
            Simulator::Schedule(NanoSeconds(row.t), &DcqcnRpVectorTestCase::Apply, this, row);
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(m_rows, rows.size(), "every row applied");
        // cut at 4 us, increases at 100 us, 304 us, 400 us, 604 us, cut at 700 us
        NS_TEST_EXPECT_MSG_EQ(m_changes, 6, "Rate trace fires at each change of Rc");
    }

    Ptr<DcqcnReactionPoint> m_rp;
    size_t m_rows{0};
    int m_changes{0};
};

/**
 * \ingroup feroce
 * Bad attribute values are reported by name, value and allowed range.
 */
class DcqcnRpValidationTestCase : public TestCase
{
  public:
    DcqcnRpValidationTestCase()
        : TestCase("attributes are validated with named errors")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
        NS_TEST_EXPECT_MSG_EQ(rp->Validate(), "", "the defaults (paper preset) validate");

        rp->SetAttribute("G", DoubleValue(2.0));
        NS_TEST_EXPECT_MSG_EQ(rp->Validate(), "G = 2 is not allowed: expected (0, 1]", "g range");

        rp = CreateObjectWithAttributes<DcqcnReactionPoint>("AlphaMode", StringValue("weekly"));
        NS_TEST_EXPECT_MSG_EQ(rp->Validate(),
                              "AlphaMode = \"weekly\" is not allowed: expected on_cnp or periodic",
                              "alpha mode name");

        rp = CreateObjectWithAttributes<DcqcnReactionPoint>("MinRate",
                                                            DataRateValue(DataRate("20Gbps")));
        std::string error = rp->Validate();
        NS_TEST_EXPECT_MSG_NE(error.find("MinRate = 20000000000"), std::string::npos, error);
        NS_TEST_EXPECT_MSG_NE(error.find("LineRate = 10000000000"), std::string::npos, error);

        rp = CreateObjectWithAttributes<DcqcnReactionPoint>("AlphaPeriod", TimeValue(Seconds(0)));
        error = rp->Validate();
        NS_TEST_EXPECT_MSG_NE(error.find("AlphaPeriod = 0"), std::string::npos, error);

        rp = CreateObject<DcqcnReactionPoint>();
        NS_TEST_EXPECT_MSG_EQ(rp->ApplyPreset("fast", DataRate("10Gbps")),
                              "preset = \"fast\" is not allowed: expected paper, connectx or hpcc",
                              "unknown preset");
        NS_TEST_EXPECT_MSG_EQ(rp->ApplyPreset("hpcc", DataRate("25Gbps")), "", "hpcc preset");
        UintegerValue bytes;
        rp->GetAttribute("ByteCounter", bytes);
        NS_TEST_EXPECT_MSG_EQ(bytes.Get(), 0, "hpcc disables the byte counter");
        DataRateValue rai;
        rp->GetAttribute("RateAi", rai);
        NS_TEST_EXPECT_MSG_EQ(rai.Get(), DataRate("5Mbps"), "hpcc R_AI at 25 Gb/s");
    }
};

/**
 * \ingroup feroce
 * No event is scheduled: the rate changes at the deadline the object reports.
 */
class DcqcnRpDeadlineTestCase : public TestCase
{
  public:
    DcqcnRpDeadlineTestCase()
        : TestCase("lazy timers: rate changes at the reported deadline, nothing scheduled")
    {
    }

  private:
    void Cnp()
    {
        m_rp->ReceiveCnp();
        NS_TEST_EXPECT_MSG_EQ(m_rp->GetRate(), DataRate("5Gbps"), "paper: first cut halves Rc");
        NS_TEST_EXPECT_MSG_EQ(m_rp->GetNextDeadline(),
                              MicroSeconds(56),
                              "increase timer T after the CNP");
    }

    void Check(double expected)
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(m_rp->GetRateBps(), expected, 1e-3, "Rc at " << Simulator::Now());
    }

    void DoRun() override
    {
        m_rp = CreateObject<DcqcnReactionPoint>();
        Simulator::Schedule(MicroSeconds(1), &DcqcnRpDeadlineTestCase::Cnp, this);
        Simulator::Schedule(NanoSeconds(55999), &DcqcnRpDeadlineTestCase::Check, this, 5e9);
        Simulator::Schedule(MicroSeconds(56), &DcqcnRpDeadlineTestCase::Check, this, 7.5e9);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 3, "the object scheduled nothing itself");
        Simulator::Destroy();
    }

    Ptr<DcqcnReactionPoint> m_rp;
};

/**
 * \ingroup feroce
 * The reaction point of the C core inside ns-3.
 */
class DcqcnReactionPointTestSuite : public TestSuite
{
  public:
    DcqcnReactionPointTestSuite()
        : TestSuite("feroce-dcqcn-reaction-point")
    {
        AddTestCase(new DcqcnRpVectorTestCase);
        AddTestCase(new DcqcnRpValidationTestCase);
        AddTestCase(new DcqcnRpDeadlineTestCase);
    }
};

/// The suite's only instance.
static DcqcnReactionPointTestSuite g_dcqcnReactionPointTestSuite;
