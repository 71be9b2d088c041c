/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-steady-state.h"

#include "ns3/feroce-stats.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

void
FeroceSteadyState::AddSeries(const std::string& name, Reduce how, bool judged)
{
    m_series.push_back({name, how, judged, {}});
}

void
FeroceSteadyState::AddWindow(const std::vector<double>& values)
{
    for (std::size_t i = 0; i < m_series.size() && i < values.size(); i++)
    {
        m_series[i].values.push_back(values[i]);
    }
    m_windows++;
}

std::vector<double>
FeroceSteadyState::PerWindow(const Series& s)
{
    if (s.how != COUNTER)
    {
        return s.values;
    }
    std::vector<double> steps(s.values.size());
    for (std::size_t i = 0; i < steps.size(); i++)
    {
        steps[i] = s.values[i] - (i ? s.values[i - 1] : 0);
    }
    return steps;
}

void
FeroceSteadyState::Finish(std::size_t firstWindow, bool autoStart, Time window)
{
    m_metrics.clear();
    m_warnings.clear();
    m_start = std::min(firstWindow, m_windows);
    double ms = window.GetSeconds() * 1e3;
    auto at = [ms](std::size_t w) {
        std::ostringstream s;
        s << w * ms << "ms";
        return s.str();
    };
    if (autoStart)
    {
        // the latest end of a transient among the judged series; a transient that MSER-5 ends
        // at its limit (half the series) may last longer than the run
        std::size_t cut = 0;
        std::vector<std::pair<std::string, std::size_t>> atLimit;
        for (const Series& s : m_series)
        {
            std::vector<double> x = PerWindow(s);
            if (s.judged && x.size() > m_start)
            {
                struct feroce_mser mser;
                feroce_mser5(x.data() + m_start, x.size() - m_start, &mser);
                cut = std::max(cut, mser.truncate);
                if (mser.at_limit && mser.truncate > 0)
                {
                    atLimit.emplace_back(s.name, mser.truncate);
                }
            }
        }
        for (const auto& series : atLimit)
        {
            m_warnings.push_back(series.first +
                                 " has not settled by the middle of the run (MSER-5 ends its "
                                 "transient at its limit, " +
                                 at(m_start + series.second) + "): a longer --duration");
        }
        m_start += cut;
    }
    std::size_t n = m_windows - m_start;
    m_metrics.emplace_back("ss_start_ms", double(m_start) * ms);
    m_metrics.emplace_back("ss_windows", double(n));
    bool tooShort = false;
    for (const Series& s : m_series)
    {
        std::vector<double> x = PerWindow(s);
        const double* steady = x.data() + m_start;
        double value = NAN;
        double ci95 = NAN;
        if (n > 0 && s.how == MEAN)
        {
            double sum = 0;
            for (std::size_t i = 0; i < n; i++)
            {
                sum += steady[i];
            }
            value = sum / double(n);
            struct feroce_batch_means bm;
            if (n >= FEROCE_SS_MIN_WINDOWS &&
                feroce_batch_means(steady, n, FEROCE_SS_BATCHES, &bm) == 0)
            {
                ci95 = bm.ci95;
            }
        }
        else if (n > 0 && s.how == MAX)
        {
            value = *std::max_element(steady, steady + n);
        }
        else if (n > 0)
        {
            value = s.values.back() - (m_start ? s.values[m_start - 1] : 0);
        }
        m_metrics.emplace_back(s.name + "_ss", value);
        if (s.how == MEAN)
        {
            m_metrics.emplace_back(s.name + "_ss_ci95", ci95);
        }
        if (!s.judged || n < FEROCE_SS_MIN_WINDOWS)
        {
            tooShort = tooShort || s.judged;
            continue;
        }
        struct feroce_steady st;
        feroce_steady_state(steady, n, 0, &st);
        std::ostringstream w;
        w.precision(3);
        switch (st.verdict)
        {
        case FEROCE_SS_SETTLED:
        case FEROCE_SS_TOO_SHORT:
            break;
        case FEROCE_SS_DRIFTING:
            w << s.name << " is still changing after " << at(m_start) << " (its means over "
              << st.bm.batches << " batches of " << st.bm.batch_size
              << " windows trend, t = " << st.bm.trend_t << "): a longer --duration";
            break;
        case FEROCE_SS_CORRELATED:
            w << s.name << " varies over about " << st.bm.corr_time
              << " windows, more than half its batches of " << st.bm.batch_size
              << " windows: its confidence interval is too narrow; a longer --duration";
            break;
        case FEROCE_SS_TRANSIENT:
            w << s.name << " is still settling after " << at(m_start)
              << ": MSER-5 starts its steady state at " << at(m_start + st.mser.truncate)
              << ", and the windows before move its mean by more than "
              << "its interval: --warmup=" << at(m_start + st.mser.truncate);
            break;
        }
        if (!w.str().empty())
        {
            m_warnings.push_back(w.str());
        }
    }
    if (tooShort)
    {
        std::ostringstream w;
        w << "the steady state has " << n << " windows after " << at(m_start)
          << ": too few to judge whether the metrics settled (" << FEROCE_SS_MIN_WINDOWS
          << " at least): a longer --duration or a shorter --window";
        m_warnings.insert(m_warnings.begin(), w.str());
    }
}

std::size_t
FeroceSteadyState::GetStart() const
{
    return m_start;
}

const std::vector<std::pair<std::string, double>>&
FeroceSteadyState::GetMetrics() const
{
    return m_metrics;
}

const std::vector<std::string>&
FeroceSteadyState::GetWarnings() const
{
    return m_warnings;
}

} // namespace ns3
