/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-study.h"

#include "roce-helper.h"

#include "ns3/feroce-db.h"
#include "ns3/feroce-stats.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceStudy");

namespace
{

/// mkdir -p: every missing parent too.
bool
MakeDirectories(const std::string& path)
{
    for (std::size_t i = 1; i <= path.size(); i++)
    {
        if (i == path.size() || path[i] == '/')
        {
            std::string part = path.substr(0, i);
            if (mkdir(part.c_str(), 0777) != 0 && errno != EEXIST)
            {
                return false;
            }
        }
    }
    return true;
}

std::string
FormatNumber(double v)
{
    if (!std::isfinite(v))
    {
        return "nan";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

FeroceStudy::FeroceStudy(const std::string& scenario,
                         const std::string& defaultOutdir,
                         Time defaultDuration,
                         Time defaultWindow,
                         Time defaultWarmup)
    : m_scenario(scenario),
      m_outdir(defaultOutdir),
      m_duration(defaultDuration),
      m_window(defaultWindow),
      m_warmup(defaultWarmup)
{
    m_cmd.Usage(scenario + ": a feroce study; outputs under --outdir, one row in --db "
                           "(src/feroce/doc/results.md)");
    AddFlag("outdir", "Directory of the run's outputs (created if missing)", m_outdir);
    AddFlag("duration", "Simulated time", m_duration);
    AddFlag("window", "Goodput averaging window", m_window);
    AddFlag("warmup", "Windows ending before this are left out of Jain's index", m_warmup);
    AddFlag("pcap", "Write a pcap per device into outdir", m_pcap);
    m_cmd.AddValue("db", "Results database (sqlite); none: write no row", m_db);
}

void
FeroceStudy::RecordParameter(const std::string& name, std::function<std::string()> value)
{
    m_params.emplace_back(name, value);
}

std::string
FeroceStudy::Format(const Time& t)
{
    // seconds, so that the database sorts and compares times as numbers
    std::ostringstream s;
    s.precision(17);
    s << t.GetSeconds();
    return s.str();
}

std::string
FeroceStudy::Format(bool b)
{
    return b ? "1" : "0";
}

bool
FeroceStudy::Parse(int argc, char** argv)
{
    for (int i = 0; i < argc; i++)
    {
        m_command += (i ? " " : "") + std::string(argv[i]);
        std::string arg = argv[i];
        // ns-3 attribute defaults set on the command line are parameters of the run too
        if (arg.rfind("--ns3::", 0) == 0 && arg.find('=') != std::string::npos)
        {
            std::size_t eq = arg.find('=');
            m_attributeArgs.emplace_back(arg.substr(2, eq - 2), arg.substr(eq + 1));
        }
    }
    std::string schedulerError = RoceHelper::CheckSchedulerArgument(argc, argv);
    if (!schedulerError.empty())
    {
        Reject(schedulerError);
        return false;
    }
    RoceHelper::SetDefaultScheduler(); // before Parse: --SchedulerType wins
    m_cmd.Parse(argc, argv);
    for (auto t : {std::make_pair("duration", m_duration), std::make_pair("window", m_window)})
    {
        if (!t.second.IsStrictlyPositive())
        {
            std::ostringstream s;
            s << t.first << " = " << t.second.As(Time::MS) << " is not allowed: expected > 0";
            Reject(s.str());
            return false;
        }
    }
    if (m_warmup.IsStrictlyNegative())
    {
        Reject("warmup must be >= 0");
        return false;
    }
    if (!MakeDirectories(m_outdir))
    {
        Reject("cannot create --outdir " + m_outdir + ": " + std::strerror(errno));
        return false;
    }
    return true;
}

bool
FeroceStudy::ParseTime(const std::string& text, Time& t)
{
    if (text == "0")
    {
        t = Time(0);
        return true;
    }
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    std::string unit = end ? end : "";
    double scale = unit == "s"    ? 1e9
                   : unit == "ms" ? 1e6
                   : unit == "us" ? 1e3
                   : unit == "ns" ? 1
                                  : 0;
    if (end == text.c_str() || scale == 0 || !std::isfinite(v))
    {
        return false;
    }
    t = NanoSeconds(int64_t(std::llround(v * scale)));
    return true;
}

int
FeroceStudy::Reject(const std::string& message)
{
    std::cerr << m_scenario << ": " << message << std::endl;
    m_exitCode = 2;
    return m_exitCode;
}

int
FeroceStudy::GetExitCode() const
{
    return m_exitCode;
}

Time
FeroceStudy::GetDuration() const
{
    return m_duration;
}

Time
FeroceStudy::GetWindow() const
{
    return m_window;
}

Time
FeroceStudy::GetWarmup() const
{
    return m_warmup;
}

const std::string&
FeroceStudy::GetOutdir() const
{
    return m_outdir;
}

bool
FeroceStudy::GetPcap() const
{
    return m_pcap;
}

std::string
FeroceStudy::GetPath(const std::string& name) const
{
    return m_outdir + "/" + name;
}

void
FeroceStudy::AddFlow(const std::string& name,
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
FeroceStudy::AddGauge(const std::string& name, std::function<double()> value)
{
    m_gauges.emplace_back(name, value);
}

std::ofstream
FeroceStudy::OpenOutput(const std::string& name)
{
    m_extraOutputs += "," + name;
    return std::ofstream(GetPath(name));
}

void
FeroceStudy::AddLatency(Time latency)
{
    m_latenciesUs.push_back(latency.GetSeconds() * 1e6);
}

void
FeroceStudy::AddMetric(const std::string& name, double value)
{
    m_metrics.emplace_back(name, value);
}

void
FeroceStudy::Sample()
{
    Time now = Simulator::Now();
    Time from = now - m_window;
    std::vector<double> active;
    uint64_t windowBytes = 0;
    uint64_t topBytes = 0;
    int top = -1;
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
        m_goodputCsv << "," << FormatNumber(gbps);
        if (f.start <= from && now <= f.stop)
        {
            active.push_back(gbps);
        }
    }
    // fairness among the flows that were meant to send the whole window; one flow is trivially fair
    double jain = active.size() >= 2 ? feroce_jain(active.data(), active.size()) : NAN;
    m_goodputCsv << "," << (std::isfinite(jain) ? FormatNumber(jain) : "") << "\n";
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
            m_seriesCsv << "," << FormatNumber(g.second());
        }
        m_seriesCsv << "\n";
    }
    if (now + m_window <= m_duration)
    {
        Simulator::Schedule(m_window, &FeroceStudy::Sample, this);
    }
    else if (now == m_duration)
    {
        Simulator::Stop(); // after this last window (a Stop(duration) would come before it)
    }
}

void
FeroceStudy::Run()
{
    char now[32];
    feroce_db_now(now, sizeof now);
    m_startedAt = now;
    std::ofstream params(GetPath("params.txt"));
    for (auto& p : m_params)
    {
        params << p.first << "=" << p.second() << "\n";
    }
    for (auto& a : m_attributeArgs)
    {
        params << a.first << "=" << a.second << "\n";
    }
    params << "RngRun=" << RngSeedManager::GetRun() << "\n";
    std::ofstream flows(GetPath("flows.csv"));
    flows << "flow,start_ns,stop_ns\n";
    for (const Flow& f : m_flows)
    {
        flows << f.name << "," << f.start.GetNanoSeconds() << "," << f.stop.GetNanoSeconds()
              << "\n";
    }
    m_goodputCsv.open(GetPath("goodput.csv"));
    m_goodputCsv << "t_ns";
    for (const Flow& f : m_flows)
    {
        m_goodputCsv << "," << f.name << "_gbps";
    }
    m_goodputCsv << ",jain\n";
    if (!m_gauges.empty())
    {
        m_seriesCsv.open(GetPath("series.csv"));
        m_seriesCsv << "t_ns";
        for (auto& g : m_gauges)
        {
            m_seriesCsv << "," << g.first;
        }
        m_seriesCsv << "\n";
    }
    Simulator::Schedule(m_window, &FeroceStudy::Sample, this);
    if (m_duration % m_window != Time(0))
    {
        Simulator::Stop(m_duration);
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    m_wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (Flow& f : m_flows)
    {
        f.total = f.bytes();
    }
}

void
FeroceStudy::CountHolder(uint64_t windowBytes, uint64_t topBytes, int top)
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

int
FeroceStudy::Finish()
{
    // the study's own metrics first, then the program's
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
    if (!m_latenciesUs.empty())
    {
        struct feroce_summary lat;
        feroce_summarize(m_latenciesUs.data(), m_latenciesUs.size(), &lat);
        metrics.emplace_back("latency_p50_us", lat.p50);
        metrics.emplace_back("latency_p99_us", lat.p99);
        metrics.emplace_back("latency_max_us", lat.max);
    }
    for (const Flow& f : m_flows)
    {
        metrics.emplace_back(f.name + "_gbps", double(f.total) * 8 / m_duration.GetSeconds() / 1e9);
    }
    for (auto& m : m_metrics)
    {
        auto same = std::find_if(metrics.begin(), metrics.end(), [&m](const auto& mine) {
            return mine.first == m.first;
        });
        if (same != metrics.end())
        {
            same->second = m.second; // the program knows better
        }
        else
        {
            metrics.push_back(m);
        }
    }

    std::string metricsName = GetPath("metrics.txt");
    std::ofstream out(metricsName);
    for (auto& m : metrics)
    {
        out << m.first << "=" << FormatNumber(m.second) << "\n";
        std::cout << m_scenario << ": " << m.first << "=" << FormatNumber(m.second) << "\n";
    }
    out.close();
    m_goodputCsv.close();
    m_seriesCsv.close();
    if (!out || !m_goodputCsv)
    {
        std::cerr << m_scenario << ": cannot write into " << m_outdir << std::endl;
        return 1;
    }
    std::cout << m_scenario << ": wall " << FormatNumber(m_wallSeconds) << " s for "
              << FormatNumber(m_duration.GetSeconds()) << " s simulated\n"
              << m_scenario << ": wrote " << m_outdir << "/{params.txt,flows.csv,goodput.csv"
              << (m_gauges.empty() ? "" : ",series.csv") << m_extraOutputs << ",metrics.txt}"
              << (m_pcap ? " and " + m_outdir + "/*.pcap" : "") << std::endl;

    if (m_db == "none")
    {
        return 0;
    }
    std::string dir = m_db.substr(0, m_db.find_last_of('/'));
    if (m_db.find('/') != std::string::npos && !MakeDirectories(dir))
    {
        std::cerr << m_scenario << ": cannot create the directory of --db " << m_db << ": "
                  << std::strerror(errno) << std::endl;
        return 1;
    }
    std::vector<std::pair<std::string, std::string>> params;
    for (auto& p : m_params)
    {
        params.emplace_back(p.first, p.second());
    }
    params.insert(params.end(), m_attributeArgs.begin(), m_attributeArgs.end());
    std::vector<feroce_db_param> rowParams;
    for (auto& p : params)
    {
        rowParams.push_back({p.first.c_str(), p.second.c_str()});
    }
    std::vector<feroce_db_metric> rowMetrics;
    for (auto& m : metrics)
    {
        // the row holds what was printed: 10 significant digits
        rowMetrics.push_back(
            {m.first.c_str(), std::strtod(FormatNumber(m.second).c_str(), nullptr)});
    }
    feroce_db_run row{};
    row.scenario = m_scenario.c_str();
    row.version = feroce_version();
    row.seed = static_cast<int64_t>(RngSeedManager::GetRun());
    row.started_at = m_startedAt.c_str();
    row.wall_s = m_wallSeconds;
    row.sim_s = m_duration.GetSeconds();
    row.outdir = m_outdir.c_str();
    row.command = m_command.c_str();
    row.params = rowParams.data();
    row.n_params = rowParams.size();
    row.metrics = rowMetrics.data();
    row.n_metrics = rowMetrics.size();

    sqlite3* db = nullptr;
    char err[512];
    int64_t id = 0;
    if (feroce_db_open(m_db.c_str(), &db, err, sizeof err) != 0 ||
        feroce_db_insert_run(db, &row, &id, err, sizeof err) != 0)
    {
        std::cerr << m_scenario << ": results database " << m_db << ": " << err << std::endl;
        sqlite3_close(db);
        return 1;
    }
    sqlite3_close(db);
    std::cout << m_scenario << ": row " << id << " in " << m_db << std::endl;
    return 0;
}

} // namespace ns3
