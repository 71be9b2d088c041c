/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-goodput-meter.h"

#include "ns3/feroce-stats.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>

namespace ns3
{

std::string
FeroceFormatNumber(double v)
{
    if (!std::isfinite(v))
    {
        return "nan";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

void
FeroceGoodputMeter::AddFlow(const std::string& name,
                            std::function<uint64_t()> deliveredBytes,
                            Time start,
                            Time stop)
{
    Flow f;
    f.name = name;
    f.bytes = deliveredBytes;
    f.start = start;
    f.stop = stop;
    m_flows.push_back(f);
}

void
FeroceGoodputMeter::AddGauge(const std::string& name, std::function<double()> value)
{
    m_gauges.emplace_back(name, value);
}

std::size_t
FeroceGoodputMeter::GetFlowCount() const
{
    return m_flows.size();
}

std::size_t
FeroceGoodputMeter::GetGaugeCount() const
{
    return m_gauges.size();
}

void
FeroceGoodputMeter::OnWindow(
    std::function<void(const std::vector<double>&, const std::vector<double>&)> observer)
{
    m_observer = observer;
}

bool
FeroceGoodputMeter::WriteFlows(const std::string& path) const
{
    std::ofstream flows(path);
    flows << "flow,start_ns,stop_ns\n";
    for (const Flow& f : m_flows)
    {
        flows << f.name << "," << f.start.GetNanoSeconds() << "," << f.stop.GetNanoSeconds()
              << "\n";
    }
    flows.close();
    return bool(flows);
}

bool
FeroceGoodputMeter::Start(Time window,
                          Time warmup,
                          Time duration,
                          const std::string& goodputPath,
                          const std::string& seriesPath)
{
    m_window = window;
    m_warmup = warmup;
    m_duration = duration;
    m_goodputCsv.open(goodputPath);
    m_goodputCsv << "t_ns";
    for (const Flow& f : m_flows)
    {
        m_goodputCsv << "," << f.name << "_gbps";
    }
    m_goodputCsv << ",jain\n";
    if (!m_gauges.empty())
    {
        m_seriesCsv.open(seriesPath);
        m_seriesCsv << "t_ns";
        for (auto& g : m_gauges)
        {
            m_seriesCsv << "," << g.first;
        }
        m_seriesCsv << "\n";
    }
    Simulator::Schedule(m_window, &FeroceGoodputMeter::Sample, this);
    if (m_duration % m_window != Time(0))
    {
        Simulator::Stop(m_duration);
    }
    return bool(m_goodputCsv) && (m_gauges.empty() || bool(m_seriesCsv));
}

void
FeroceGoodputMeter::Sample()
{
    Time now = Simulator::Now();
    Time from = now - m_window;
    std::vector<double> active;
    uint64_t windowBytes = 0;
    uint64_t topBytes = 0;
    int top = -1;
    m_windowGbps.clear();
    m_windowGauges.clear();
    m_goodputCsv << now.GetNanoSeconds();
    for (Flow& f : m_flows)
    {
        uint64_t b = f.bytes();
        uint64_t delta = b - f.last;
        double gbps = double(delta) * 8 / m_window.GetSeconds() / 1e9;
        windowBytes += delta;
        if (delta > topBytes)
        {
            topBytes = delta;
            top = int(&f - m_flows.data());
        }
        f.last = b;
        m_goodputCsv << "," << FeroceFormatNumber(gbps);
        m_windowGbps.push_back(gbps);
        if (f.start <= from && now <= f.stop)
        {
            active.push_back(gbps);
        }
    }
    // fairness among the flows that were meant to send the whole window; one flow is trivially fair
    double jain = active.size() >= 2 ? feroce_jain(active.data(), active.size()) : NAN;
    m_goodputCsv << "," << (std::isfinite(jain) ? FeroceFormatNumber(jain) : "") << "\n";
    if (from >= m_warmup && std::isfinite(jain))
    {
        m_jain.push_back(jain);
    }
    if (from >= m_warmup && active.size() >= 2)
    {
        CountHolder(windowBytes, topBytes, top);
    }
    if (!m_gauges.empty())
    {
        m_seriesCsv << now.GetNanoSeconds();
        for (auto& g : m_gauges)
        {
            m_windowGauges.push_back(g.second());
            m_seriesCsv << "," << FeroceFormatNumber(m_windowGauges.back());
        }
        m_seriesCsv << "\n";
    }
    if (m_observer)
    {
        m_observer(m_windowGbps, m_windowGauges);
    }
    if (now + m_window <= m_duration)
    {
        Simulator::Schedule(m_window, &FeroceGoodputMeter::Sample, this);
    }
    else if (now == m_duration)
    {
        Simulator::Stop(); // after this last window (a Stop(duration) would come before it)
    }
}

void
FeroceGoodputMeter::CountHolder(uint64_t windowBytes, uint64_t topBytes, int top)
{
    m_contendedWindows++;
    if (windowBytes == 0)
    {
        m_idleWindows++;
    }
    else if (topBytes * 10 >= windowBytes * 9)
    {
        m_soloWindows++;
        if (m_lastSolo >= 0 && m_lastSolo != top)
        {
            m_handovers++;
        }
        m_lastSolo = top;
    }
}

void
FeroceGoodputMeter::Stop()
{
    for (Flow& f : m_flows)
    {
        f.total = f.bytes();
    }
}

bool
FeroceGoodputMeter::Close()
{
    m_goodputCsv.close();
    m_seriesCsv.close();
    return bool(m_goodputCsv) && (m_gauges.empty() || bool(m_seriesCsv));
}

std::vector<std::pair<std::string, double>>
FeroceGoodputMeter::GetMetrics() const
{
    std::vector<std::pair<std::string, double>> metrics;
    uint64_t delivered = 0;
    for (const Flow& f : m_flows)
    {
        delivered += f.total;
    }
    metrics.emplace_back("goodput_gbps", double(delivered) * 8 / m_duration.GetSeconds() / 1e9);
    struct feroce_summary jain;
    std::vector<double> j = m_jain;
    feroce_summarize(j.data(), j.size(), &jain);
    metrics.emplace_back("jain_min", jain.min);
    metrics.emplace_back("jain_mean", jain.mean);
    metrics.emplace_back("jain_windows", double(jain.n));
    if (m_contendedWindows > 0)
    {
        metrics.emplace_back("solo_fraction", double(m_soloWindows) / m_contendedWindows);
        metrics.emplace_back("idle_fraction", double(m_idleWindows) / m_contendedWindows);
        metrics.emplace_back("handovers", double(m_handovers));
    }
    return metrics;
}

std::vector<std::pair<std::string, double>>
FeroceGoodputMeter::GetFlowMetrics() const
{
    std::vector<std::pair<std::string, double>> metrics;
    for (const Flow& f : m_flows)
    {
        metrics.emplace_back(f.name + "_gbps", double(f.total) * 8 / m_duration.GetSeconds() / 1e9);
    }
    return metrics;
}

} // namespace ns3
