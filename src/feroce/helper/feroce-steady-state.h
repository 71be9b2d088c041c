/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_STEADY_STATE_H
#define FEROCE_STEADY_STATE_H

#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * The steady-state variants of a run's metrics (src/feroce/doc/results.md,
 * "Steady state"): a study's per-window series, reduced over the windows from
 * the steady state's start to the end of the run, with batch-means
 * confidence intervals, and the convergence check that says when the run was
 * too short for them (feroce-stats.h: MSER-5, batch means, trend,
 * correlation and bias tests).
 *
 * The steady state starts after the warm-up the user gave, or (auto) where
 * MSER-5 puts the end of the judged series' transients, the latest of them.
 * Each series named NAME (its whole-run metric's name) gives NAME_ss and,
 * for a mean, NAME_ss_ci95; ss_start_ms and ss_windows say where it starts
 * and how many windows it has.  Each judged series whose verdict is not
 * "settled" gives one warning line, and too few windows give one.
 */
class FeroceSteadyState
{
  public:
    /// How a series of one value per window reduces over the steady windows.
    enum Reduce
    {
        MEAN,    ///< a rate per window (goodput): the mean, and its interval (_ss, _ss_ci95)
        MAX,     ///< the most in each window (a queue's peak): the largest (_ss)
        COUNTER, ///< a counter's value at each window's end: its increase (_ss); judged per window
    };

    /// A series, named as its whole-run metric; judged: the convergence check looks at it.
    void AddSeries(const std::string& name, Reduce how, bool judged);
    /// One window's values, one per series in the order they were added.
    void AddWindow(const std::vector<double>& values);

    /**
     * Picks the first steady window (firstWindow, the first after the warm-up, or with autoStart
     * the latest MSER-5 truncation of the judged series after it), reduces every series over the
     * steady windows and judges the judged ones.  window: the windows' length.
     */
    void Finish(std::size_t firstWindow, bool autoStart, Time window);

    /// The first steady window (after Finish).
    std::size_t GetStart() const;
    /// ss_start_ms, ss_windows, then NAME_ss (and NAME_ss_ci95) per series, in order.
    const std::vector<std::pair<std::string, double>>& GetMetrics() const;
    /// One line per problem, for the run's warnings.
    const std::vector<std::string>& GetWarnings() const;

  private:
    struct Series
    {
        std::string name;
        Reduce how;
        bool judged;
        std::vector<double> values;
    };

    /// The values the convergence check looks at: per window (a counter's increase).
    static std::vector<double> PerWindow(const Series& s);

    std::vector<Series> m_series;
    std::size_t m_windows{0};
    std::size_t m_start{0};
    std::vector<std::pair<std::string, double>> m_metrics;
    std::vector<std::string> m_warnings;
};

} // namespace ns3

#endif /* FEROCE_STEADY_STATE_H */
