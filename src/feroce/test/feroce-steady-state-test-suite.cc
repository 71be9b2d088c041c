/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FeroceSteadyState: the steady-state variants of a run's series and the convergence warnings,
// on series whose answers are known.

#include "ns3/feroce-steady-state.h"
#include "ns3/test.h"

#include <cmath>
#include <map>

using namespace ns3;

namespace
{

std::map<std::string, double>
Metrics(const FeroceSteadyState& ss)
{
    std::map<std::string, double> m;
    for (const auto& p : ss.GetMetrics())
    {
        m[p.first] = p.second;
    }
    return m;
}

bool
Warns(const FeroceSteadyState& ss, const std::string& text)
{
    for (const auto& w : ss.GetWarnings())
    {
        if (w.find(text) != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

} // namespace

/**
 * \ingroup feroce
 * 60 windows of 1 ms after a warm-up of 5: a steady goodput (a mean), a queue's
 * peak per window (a maximum) and a loss counter that counts 3 in each of the
 * first 8 windows and nothing after.  From the given warm-up the losses are
 * still settling (one warning naming where MSER-5 starts); from MSER-5's start
 * (auto) they are 0 and nothing is warned.
 */
class SteadyStateTestCase : public TestCase
{
  public:
    SteadyStateTestCase()
        : TestCase("steady-state metrics from the warm-up and from MSER-5's start")
    {
    }

  private:
    static FeroceSteadyState Make()
    {
        FeroceSteadyState ss;
        ss.AddSeries("goodput_gbps", FeroceSteadyState::MEAN, true);
        ss.AddSeries("queue_max_bytes", FeroceSteadyState::MAX, true);
        ss.AddSeries("events_lost", FeroceSteadyState::COUNTER, true);
        ss.AddSeries("rx0_gbps", FeroceSteadyState::MEAN, false);
        double lost = 0;
        for (int w = 0; w < 65; w++)
        {
            lost += w < 8 ? 3 : 0;
            // goodput alternates 9 and 10 (mean 9.5, no trend); the queue peaks at 500 kB in the
            // first window, then 100 kB in every window
            ss.AddWindow({w % 2 ? 10.0 : 9.0, w == 0 ? 500e3 : 100e3, lost, 2.0});
        }
        return ss;
    }

    void DoRun() override
    {
        FeroceSteadyState given = Make();
        given.Finish(5, false, MilliSeconds(1));
        auto m = Metrics(given);
        NS_TEST_EXPECT_MSG_EQ(m["ss_start_ms"], 5, "from the warm-up");
        NS_TEST_EXPECT_MSG_EQ(m["ss_windows"], 60, "60 windows");
        NS_TEST_EXPECT_MSG_EQ_TOL(m["goodput_gbps_ss"], 9.5, 1e-12, "the mean");
        // ten batches of six windows: each batch's mean is 9.5, no spread
        NS_TEST_EXPECT_MSG_EQ_TOL(m["goodput_gbps_ss_ci95"], 0, 1e-12, "its interval");
        NS_TEST_EXPECT_MSG_EQ(m["queue_max_bytes_ss"],
                              100e3,
                              "the first window's peak is left out");
        NS_TEST_EXPECT_MSG_EQ(m["events_lost_ss"], 9, "windows 5, 6 and 7 lost 3 each");
        NS_TEST_EXPECT_MSG_EQ(m["rx0_gbps_ss"], 2, "a series not judged is reduced too");
        NS_TEST_EXPECT_MSG_EQ(given.GetWarnings().size(), 1, "one warning");
        NS_TEST_EXPECT_MSG_EQ(Warns(given,
                                    "events_lost is still settling after 5ms: MSER-5 starts "
                                    "its steady state at 10ms"),
                              true,
                              "the losses of windows 5..7 are a transient");

        FeroceSteadyState automatic = Make();
        automatic.Finish(5, true, MilliSeconds(1));
        m = Metrics(automatic);
        NS_TEST_EXPECT_MSG_EQ(m["ss_start_ms"], 10, "MSER-5 cuts whole batches of 5 windows");
        NS_TEST_EXPECT_MSG_EQ(m["events_lost_ss"], 0, "nothing lost in the steady state");
        NS_TEST_EXPECT_MSG_EQ(automatic.GetWarnings().size(), 0, "settled");
    }
};

/**
 * \ingroup feroce
 * The warnings: too few windows to judge; a series that keeps changing.
 */
class SteadyStateWarningsTestCase : public TestCase
{
  public:
    SteadyStateWarningsTestCase()
        : TestCase("too few windows, and a series still changing, are warned")
    {
    }

  private:
    void DoRun() override
    {
        FeroceSteadyState few;
        few.AddSeries("goodput_gbps", FeroceSteadyState::MEAN, true);
        for (int w = 0; w < 10; w++)
        {
            few.AddWindow({9.5});
        }
        few.Finish(1, false, MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(few.GetWarnings().size(), 1, "one warning");
        NS_TEST_EXPECT_MSG_EQ(Warns(few, "the steady state has 9 windows after 1ms: too few"),
                              true,
                              "9 windows");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(Metrics(few)["goodput_gbps_ss_ci95"]),
                              true,
                              "no interval");

        FeroceSteadyState ramp;
        ramp.AddSeries("queue_max_bytes", FeroceSteadyState::MAX, true);
        for (int w = 0; w < 100; w++)
        {
            ramp.AddWindow({1000.0 * w + (w % 3) * 500});
        }
        ramp.Finish(0, false, MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(Warns(ramp, "queue_max_bytes is still changing after 0ms"),
                              true,
                              "a queue that keeps growing");
    }
};

/**
 * \ingroup feroce
 * Steady-state metrics and convergence warnings.
 */
class FeroceSteadyStateTestSuite : public TestSuite
{
  public:
    FeroceSteadyStateTestSuite()
        : TestSuite("feroce-steady-state")
    {
        AddTestCase(new SteadyStateTestCase);
        AddTestCase(new SteadyStateWarningsTestCase);
    }
};

/// The suite's instance.
static FeroceSteadyStateTestSuite g_feroceSteadyStateTestSuite;
