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
#include <dirent.h>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceStudy");

namespace
{

/// CPU seconds (user and system) of this process so far (the console's speed line).
double
ProcessCpuSeconds()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/// mkdir -p: every missing parent too, each one made listed in created.
bool
MakeDirectories(const std::string& path, std::vector<std::string>* created = nullptr)
{
    for (std::size_t i = 1; i <= path.size(); i++)
    {
        if (i == path.size() || path[i] == '/')
        {
            std::string part = path.substr(0, i);
            if (mkdir(part.c_str(), 0777) == 0)
            {
                if (created)
                {
                    created->push_back(part);
                }
            }
            else if (errno != EEXIST)
            {
                return false;
            }
        }
    }
    return true;
}

/// Why a run could not write into dir ("" if it can): an existing folder must be
/// writable, a missing one creatable in its nearest existing parent.
std::string
CheckOutdir(const std::string& dir)
{
    struct stat sb;
    std::string probe = dir;
    while (stat(probe.c_str(), &sb) != 0)
    {
        std::size_t slash = probe.find_last_of('/');
        probe = slash == std::string::npos ? "." : slash == 0 ? "/" : probe.substr(0, slash);
    }
    if (!S_ISDIR(sb.st_mode))
    {
        return probe == dir ? "it is not a folder" : probe + " is not a folder";
    }
    if (access(probe.c_str(), W_OK | X_OK) != 0)
    {
        return probe + " is not writable";
    }
    return "";
}

/// The output limit without --force: the CSVs of the windows (bytes).
const double kOutputLimitBytes = 200e6;

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
      m_cmd(scenario,
            scenario + ": a feroce study; outputs under --outdir, one row in --db "
                       "(src/feroce/doc/results.md)"),
      m_outdir(defaultOutdir),
      m_duration(defaultDuration),
      m_window(defaultWindow),
      m_warmup(defaultWarmup)
{
    AddFlag("outdir", "Directory of the run's outputs (created if missing)", m_outdir);
    AddFlag("duration", "Simulated time", m_duration);
    AddFlag("window", "Goodput averaging window", m_window);
    AddFlag("warmup", "Windows ending before this are left out of Jain's index", m_warmup);
    AddFlag("pcap", "Write a pcap per device into outdir", m_pcap);
    m_cmd.AddValue("db", "Results database (sqlite); none: write no row", m_db);
    m_cmd.AddValue("force", "Run even if the CSVs would pass 200 MB", m_force);
}

void
FeroceStudy::Owns(const std::string& attribute, const std::string& flag)
{
    m_cmd.Owns(attribute, flag);
}

bool
FeroceStudy::IsGiven(const std::string& name) const
{
    return m_cmd.IsGiven(name);
}

std::vector<std::pair<std::string, std::string>>
FeroceStudy::GetParameters() const
{
    std::vector<std::pair<std::string, std::string>> params;
    for (auto& v : m_cmd.GetValues())
    {
        if (v.first != "db" && v.first != "force")
        {
            params.push_back(v);
        }
    }
    for (auto& a : m_cmd.GetAttributes())
    {
        params.push_back(a);
    }
    return params;
}

bool
FeroceStudy::Parse(int argc, char** argv)
{
    std::string simulatorError = RoceHelper::CheckSimulatorArguments(argc, argv);
    if (!simulatorError.empty())
    {
        Reject(simulatorError);
        return false;
    }
    RoceHelper::SetDefaultSimulator(); // before Parse: the command line wins
    if (!m_cmd.Parse(argc, argv))
    {
        m_exitCode = m_cmd.GetExitCode();
        return false;
    }
    auto ms = [](Time t) { return FormatNumber(t.GetSeconds() * 1e3) + "ms"; };
    if (m_duration.IsStrictlyPositive() && m_window.IsStrictlyPositive() &&
        m_window <= m_duration && m_warmup + m_window > m_duration && !m_cmd.IsGiven("warmup"))
    {
        // a short run: the default warm-up would leave no window for Jain's index
        std::cerr << m_scenario << ": note: --warmup=0 (the default " << ms(m_warmup)
                  << " leaves no window of --duration=" << ms(m_duration) << ")" << std::endl;
        m_warmup = Time(0);
    }
    std::string error;
    if (!m_duration.IsStrictlyPositive())
    {
        error = "--duration=" + ms(m_duration) + " is not allowed: expected > 0";
    }
    else if (!m_window.IsStrictlyPositive() || m_window > m_duration)
    {
        error = "--window=" + ms(m_window) + " is not allowed: expected > 0 and <= --duration (" +
                ms(m_duration) + ")";
    }
    else if (m_warmup + m_window > m_duration)
    {
        error = "--warmup=" + ms(m_warmup) + " is not allowed: expected a window (" + ms(m_window) +
                ") or more before --duration (" + ms(m_duration) +
                "), or Jain's index has no window";
    }
    else if (m_outdir.empty())
    {
        error = "--outdir= is not allowed: expected a folder";
    }
    else if (std::string why = CheckOutdir(m_outdir); !why.empty())
    {
        error = "--outdir=" + m_outdir + " is not allowed: " + why;
    }
    else if (m_db != "none")
    {
        char why[512];
        if (feroce_db_check(m_db.c_str(), why, sizeof why) != 0)
        {
            error = "--db=" + m_db + " is not allowed: " + why + " (none: write no row)";
        }
    }
    if (!error.empty())
    {
        Reject(error);
        return false;
    }
    return true;
}

bool
FeroceStudy::ParseTime(const std::string& text, Time& t)
{
    return FeroceCommandLine::ParseText(text, t).empty();
}

int
FeroceStudy::Reject(const std::string& message)
{
    Cleanup();
    m_exitCode = m_cmd.Reject(message);
    return m_exitCode;
}

int
FeroceStudy::RejectFlag(const std::string& name, const std::string& allowed)
{
    return Reject("--" + name + "=" + m_cmd.GetText(name) + " is not allowed: expected " + allowed);
}

void
FeroceStudy::Cleanup()
{
    if (!m_tmpdir.empty())
    {
        if (DIR* d = opendir(m_tmpdir.c_str()))
        {
            while (dirent* e = readdir(d))
            {
                std::string name = e->d_name;
                if (name != "." && name != "..")
                {
                    std::remove((m_tmpdir + "/" + name).c_str());
                }
            }
            closedir(d);
        }
        rmdir(m_tmpdir.c_str());
        m_tmpdir.clear();
    }
    for (auto d = m_createdDirs.rbegin(); d != m_createdDirs.rend(); ++d)
    {
        rmdir(d->c_str()); // only if empty
    }
    m_createdDirs.clear();
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
FeroceStudy::GetPath(const std::string& name)
{
    if (m_tmpdir.empty())
    {
        std::string tmp = m_outdir + "/incomplete-run";
        if (!MakeDirectories(tmp, &m_createdDirs))
        {
            NS_FATAL_ERROR("cannot create " << tmp << ": " << std::strerror(errno));
        }
        m_tmpdir = tmp;
    }
    return m_tmpdir + "/" + name;
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
FeroceStudy::WatchSwitch(Ptr<FeroceSwitch> sw, uint32_t port)
{
    WatchSwitches({{"", sw}}, {{"queue_to_receiver_bytes", 0, port}});
}

void
FeroceStudy::WatchSwitches(const std::vector<WatchedSwitch>& switches,
                           const std::vector<WatchedQueue>& queues)
{
    m_switches = switches;
    m_probes.clear();
    for (const WatchedSwitch& s : switches)
    {
        m_probes.push_back(std::make_unique<FeroceSwitchProbe>(s.sw));
    }
    for (const WatchedQueue& q : queues)
    {
        FeroceSwitchProbe* probe = m_probes.at(q.sw).get();
        uint32_t port = q.port;
        AddGauge(q.gauge, [probe, port]() { return double(probe->TakeWindowMax(port)); });
    }
    for (const WatchedSwitch& s : switches)
    {
        Ptr<FeroceSwitch> sw = s.sw;
        AddGauge(s.name.empty() ? "buffer_bytes" : s.name + "_buffer_bytes",
                 [sw]() { return double(sw->GetBufferUsed()); });
    }
}

void
FeroceStudy::WriteSwitches()
{
    // one unnamed switch (WatchSwitch): no switches.csv, no switch column
    bool named = m_switches.size() > 1 || !m_switches[0].name.empty();
    std::ofstream table;
    if (named)
    {
        table = OpenOutput("switches.csv");
        table << "switch,ports,queue_max_bytes,buffer_peak_bytes,pause_frames,pause_time_ms,"
                 "ecn_marks,drops\n";
    }
    std::ofstream pauses = OpenOutput("pause.csv");
    pauses << (named ? "switch," : "") << "port,priority,start_ns,end_ns\n";
    FeroceSwitch::Counters sum{};
    uint64_t queueMax = 0;
    Time pauseTime;
    std::vector<std::pair<std::string, double>> perSwitch;
    for (std::size_t i = 0; i < m_switches.size(); i++)
    {
        const WatchedSwitch& s = m_switches[i];
        const FeroceSwitchProbe& probe = *m_probes[i];
        const FeroceSwitch::Counters& c = s.sw->GetCounters();
        Time swPause = probe.GetPauseTime(m_duration);
        if (named)
        {
            table << s.name << "," << s.sw->GetNPorts() << "," << probe.GetQueueMax() << ","
                  << c.bufferPeak << "," << c.pauseFramesSent << ","
                  << FormatNumber(swPause.GetSeconds() * 1e3) << "," << c.ecnMarks << ","
                  << c.TotalDrops() << "\n";
            std::ostringstream rows;
            probe.WritePauseIntervals(rows, m_duration);
            std::istringstream lines(rows.str());
            std::string line;
            while (std::getline(lines, line))
            {
                pauses << s.name << "," << line << "\n";
            }
            perSwitch.emplace_back(s.name + "_queue_max_bytes", double(probe.GetQueueMax()));
        }
        else
        {
            probe.WritePauseIntervals(pauses, m_duration);
        }
        sum.pauseFramesSent += c.pauseFramesSent;
        sum.resumeFramesSent += c.resumeFramesSent;
        sum.ecnMarks += c.ecnMarks;
        for (int cause = 0; cause < FeroceSwitch::DROP_CAUSES; cause++)
        {
            sum.drops[cause] += c.drops[cause];
        }
        sum.bufferPeak = std::max(sum.bufferPeak, c.bufferPeak);
        queueMax = std::max(queueMax, probe.GetQueueMax());
        pauseTime += swPause;
    }
    m_switchMetrics = {
        {"pause_frames", double(sum.pauseFramesSent)},
        {"resume_frames", double(sum.resumeFramesSent)},
        {"pause_time_ms", pauseTime.GetSeconds() * 1e3},
        {"ecn_marks", double(sum.ecnMarks)},
        {"drops", double(sum.TotalDrops())},
        {"drops_lossless", double(sum.drops[FeroceSwitch::DROP_LOSSLESS])},
        {"drops_lossy", double(sum.drops[FeroceSwitch::DROP_LOSSY_BUFFER_FULL])},
        {"queue_max_bytes", double(queueMax)},
        {"buffer_peak_bytes", double(sum.bufferPeak)},
    };
    m_switchMetrics.insert(m_switchMetrics.end(), perSwitch.begin(), perSwitch.end());
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

bool
FeroceStudy::Run()
{
    std::string error = m_cmd.CheckAttributesHonoured();
    if (!error.empty())
    {
        Reject(error);
        return false;
    }
    // a time (ns) and a number per flow and gauge per window, about 12 bytes each
    double rows = std::ceil(m_duration.GetSeconds() / m_window.GetSeconds());
    double bytes =
        rows * 12 * double(2 + m_flows.size() + (m_gauges.empty() ? 0 : 1 + m_gauges.size()));
    if (bytes > kOutputLimitBytes && !m_force)
    {
        std::ostringstream s;
        s.precision(3);
        s << "--duration/--window give " << rows << " windows, about " << bytes / 1e6
          << " MB of CSV: more than the 200 MB limit; a longer --window, or --force";
        Reject(s.str());
        return false;
    }
    char now[32];
    feroce_db_now(now, sizeof now);
    m_startedAt = now;
    std::ofstream params(GetPath("params.txt"));
    for (auto& p : GetParameters())
    {
        params << p.first << "=" << p.second << "\n";
    }
    params << "RngRun=" << RngSeedManager::GetRun() << "\n";
    params.close();
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
    double cpu0 = ProcessCpuSeconds();
    uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    m_wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m_runCpuSeconds = ProcessCpuSeconds() - cpu0;
    m_runEvents = Simulator::GetEventCount() - events0;
    for (Flow& f : m_flows)
    {
        f.total = f.bytes();
    }
    if (!m_switches.empty())
    {
        WriteSwitches();
    }
    return true;
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
    metrics.insert(metrics.end(), m_switchMetrics.begin(), m_switchMetrics.end());
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
        Cleanup();
        return 1;
    }
    std::cout << m_scenario << ": wall " << FormatNumber(m_wallSeconds) << " s (CPU "
              << FormatNumber(m_runCpuSeconds) << " s, " << m_runEvents << " events) for "
              << FormatNumber(m_duration.GetSeconds()) << " s simulated\n"
              << m_scenario << ": wrote " << m_outdir << "/{params.txt,flows.csv,goodput.csv"
              << (m_gauges.empty() ? "" : ",series.csv") << m_extraOutputs << ",metrics.txt}"
              << (m_pcap ? " and " + m_outdir + "/*.pcap" : "") << std::endl;

    if (m_db == "none")
    {
        return Publish() ? 0 : 1;
    }
    std::string dir = m_db.substr(0, m_db.find_last_of('/'));
    if (m_db.find('/') != std::string::npos && !MakeDirectories(dir))
    {
        std::cerr << m_scenario << ": cannot create the directory of --db " << m_db << ": "
                  << std::strerror(errno) << std::endl;
        Cleanup();
        return 1;
    }
    std::vector<std::pair<std::string, std::string>> params = GetParameters();
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
    row.command = m_cmd.GetCommand().c_str();
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
        Cleanup();
        return 1;
    }
    sqlite3_close(db);
    std::cout << m_scenario << ": row " << id << " in " << m_db << std::endl;
    return Publish() ? 0 : 1;
}

bool
FeroceStudy::Publish()
{
    bool ok = true;
    if (DIR* d = opendir(m_tmpdir.c_str()))
    {
        while (dirent* e = readdir(d))
        {
            std::string name = e->d_name;
            if (name != "." && name != ".." &&
                std::rename((m_tmpdir + "/" + name).c_str(), (m_outdir + "/" + name).c_str()) != 0)
            {
                std::cerr << m_scenario << ": cannot move " << name << " into " << m_outdir << ": "
                          << std::strerror(errno) << std::endl;
                ok = false;
            }
        }
        closedir(d);
    }
    if (ok)
    {
        rmdir(m_tmpdir.c_str());
        m_tmpdir.clear();
    }
    return ok;
}

} // namespace ns3
