/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-study.h"

#include "feroce-batch.h"
#include "feroce-cpu-time.h"
#include "feroce-frame-losses.h"
#include "feroce-input-rules.h"
#include "feroce-row-writer.h"
#include "roce-helper.h"

#include "ns3/abort.h"
#include "ns3/feroce-db.h"
#include "ns3/feroce-net-device.h"
#include "ns3/feroce-stats.h"
#include "ns3/node-list.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// The output limit without --force: CSVs and pcaps (bytes).
const double kOutputLimitBytes = 200e6;

/// The files every study may write, checked in OUTDIR before the run.
const std::vector<std::string> kStudyFiles = {"params.txt",
                                              "flows.csv",
                                              "goodput.csv",
                                              "series.csv",
                                              "pause.csv",
                                              "switches.csv",
                                              "metrics.txt"};

} // namespace

FeroceStudy::FeroceStudy(const std::string& scenario,
                         const std::string& defaultOutdir,
                         Time defaultDuration,
                         Time defaultWindow,
                         Time defaultWarmup)
    : m_scenario(scenario),
      m_cmd(scenario,
            scenario +
                ": a feroce study; outputs under --outdir, one row in --db "
                "(src/feroce/doc/results.md). " +
                scenario +
                " --batch=FILE --db=FILE runs the points of FILE (one a line, "
                "feroce-sweep's batches) in one process (src/feroce/doc/"
                "sweep-reference.md)"),
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
    AddFlag("steadyStart",
            "Where the steady state starts: auto (after --warmup, where MSER-5 ends the judged "
            "series' transients) or warmup (at --warmup)",
            m_steadyStart)
        .OneOf({"auto", "warmup"});
    m_cmd.AddValue("db", "Results database (sqlite); none: write no row", m_db);
    m_cmd.AddValue("force", "Run even if the outputs would pass 200 MB", m_force);
    // what every study's helpers set per object, or derive
    m_cmd.Derived("ns3::DcqcnReactionPoint::LineRate",
                  "the NIC's DataRate (--ns3::FeroceNetDevice::DataRate or the program's rate "
                  "flag)");
    m_cmd.Owns("ns3::RoceNic::Ipv4Address");
    // availability-driven assignment needs an assigner and its queue pairs wired by the program
    m_cmd.Derived("ns3::RoceFrontEndApp::Assignment",
                  "how the program wires its boards (advcam-eventbuilding: --assignment)");
    // the objects a study builds (a program that builds others adds them: GetCommandLine().Uses)
    m_cmd.Uses({"ns3::Node",
                "ns3::RoceNic",
                "ns3::FeroceSwitch",
                "ns3::FeroceSwitchPort",
                "ns3::FeroceChannel",
                "ns3::RoceQueuePair",
                "ns3::DcqcnReactionPoint",
                "ns3::RoceFrontEndApp",
                "ns3::RoceReceiverApp",
                "ns3::FeroceHeapScheduler"});
}

void
FeroceStudy::Owns(const std::string& attribute, const std::string& flag)
{
    m_cmd.Owns(attribute, flag);
}

void
FeroceStudy::Owns(const std::string& attribute)
{
    m_cmd.Owns(attribute);
}

bool
FeroceStudy::IsGiven(const std::string& name) const
{
    return m_cmd.IsGiven(name);
}

FeroceCommandLine&
FeroceStudy::GetCommandLine()
{
    return m_cmd;
}

std::string
FeroceStudy::SetBeneath(const std::string& attribute, const std::string& text)
{
    return m_cmd.SetBeneath(attribute, text);
}

bool
FeroceStudy::RefuseType(const std::string& type, const std::string& why)
{
    if (!m_cmd.RefuseType(type, why))
    {
        return false;
    }
    m_exitCode = m_cmd.GetExitCode();
    return true;
}

void
FeroceStudy::Warn(const std::string& text)
{
    m_cmd.Warn(text);
    if (m_startedAt.empty())
    {
        return; // printed when the run starts
    }
    // after the run's start (what the run found): printed now, params.txt written again
    std::cerr << m_cmd.GetProgram() << ": warning: " << text << std::endl;
    m_lateWarnings = true;
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
    // --batch=FILE --db=DB: this process serves the batch and ends here; each point goes on from
    // here in a child of its own, with the point's command line (FeroceBatch)
    if (!FeroceBatch::Serve(m_scenario, argc, argv, &m_exitCode))
    {
        return false;
    }
    RoceHelper::SetDefaultSimulator(); // before Parse: the command line wins
    if (!m_cmd.Parse(argc, argv))
    {
        m_exitCode = m_cmd.GetExitCode();
        return false;
    }
    auto ms = [](Time t) { return FeroceFormatNumber(t.GetSeconds() * 1e3) + "ms"; };
    if (m_duration.IsStrictlyPositive() && m_window.IsStrictlyPositive() &&
        m_window <= m_duration && m_warmup + m_window > m_duration && !m_cmd.IsGiven("warmup"))
    {
        // a short run: the default warm-up would leave no window for Jain's index
        Warn("--warmup=0 (the default " + ms(m_warmup) +
             " leaves no window of --duration=" + ms(m_duration) + ")");
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
    if (error.empty())
    {
        m_output = std::make_unique<FeroceRunOutput>(m_scenario, m_outdir, m_db);
        error = m_output->Check(kStudyFiles);
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
    if (m_output)
    {
        m_output->Cleanup();
    }
    m_exitCode = m_cmd.Reject(message);
    return m_exitCode;
}

int
FeroceStudy::RejectFlag(const std::string& name, const std::string& allowed)
{
    return Reject("--" + name + "=" + m_cmd.GetText(name) + " is not allowed: expected " + allowed);
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

Time
FeroceStudy::GetMeasureFrom() const
{
    return m_warmup < m_duration ? m_warmup : Time(0);
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

bool
FeroceStudy::BeginOutput()
{
    if (m_output->HasBegun())
    {
        return true;
    }
    std::string leftover;
    std::string error = m_output->Begin(&leftover);
    if (!error.empty())
    {
        Reject(error);
        return false;
    }
    if (!leftover.empty())
    {
        Warn(leftover + " holds the files of a run that did not finish (killed, or still "
                        "running); they stay there");
    }
    return true;
}

std::string
FeroceStudy::GetPath(const std::string& name)
{
    NS_ABORT_MSG_IF(!m_output || !m_output->HasBegun(),
                    "FeroceStudy::GetPath before Run: use EnablePcap for pcaps");
    return m_output->GetPath(name);
}

std::ofstream
FeroceStudy::OpenOutput(const std::string& name)
{
    m_extraOutputs += "," + name;
    return std::ofstream(GetPath(name));
}

void
FeroceStudy::EnablePcap(RoceHelper& helper, const std::string& prefix)
{
    m_pcaps.emplace_back(&helper, prefix);
}

void
FeroceStudy::AddFlow(const std::string& name,
                     std::function<uint64_t()> deliveredBytes,
                     Time start,
                     Time stop)
{
    m_meter.AddFlow(name, deliveredBytes, start, stop);
}

void
FeroceStudy::AddGauge(const std::string& name, std::function<double()> value)
{
    m_meter.AddGauge(name, value);
}

void
FeroceStudy::AddSteadyGauge(const std::string& name,
                            std::function<double()> value,
                            FeroceSteadyState::Reduce how,
                            bool judged)
{
    m_steadyGauges.push_back({m_meter.GetGaugeCount(), name, how, judged});
    m_meter.AddGauge(name, value);
}

void
FeroceStudy::AddDropsGauge()
{
    NodeContainer everyNode = NodeContainer::GetGlobal();
    AddSteadyGauge(
        "drops",
        [everyNode]() { return double(FeroceFrameLosses::Of(everyNode).Total()); },
        FeroceSteadyState::COUNTER,
        false);
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
    m_queueGauges.clear();
    for (const WatchedSwitch& s : switches)
    {
        m_probes.push_back(std::make_unique<FeroceSwitchProbe>(s.sw));
    }
    for (const WatchedQueue& q : queues)
    {
        FeroceSwitchProbe* probe = m_probes.at(q.sw).get();
        uint32_t port = q.port;
        m_queueGauges.push_back(m_meter.GetGaugeCount());
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
                  << FeroceFormatNumber(swPause.GetSeconds() * 1e3) << "," << c.ecnMarks << ","
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
FeroceStudy::StartSteadyState()
{
    m_steady.AddSeries("goodput_gbps", FeroceSteadyState::MEAN, true);
    if (!m_queueGauges.empty())
    {
        m_steady.AddSeries("queue_max_bytes", FeroceSteadyState::MAX, false);
    }
    for (const SteadyGauge& g : m_steadyGauges)
    {
        m_steady.AddSeries(g.name, g.how, g.judged);
    }
    m_meter.OnWindow([this](const std::vector<double>& gbps, const std::vector<double>& gauges) {
        std::vector<double> values;
        double sum = 0;
        for (double g : gbps)
        {
            sum += g;
        }
        values.push_back(sum);
        if (!m_queueGauges.empty())
        {
            double most = 0;
            for (std::size_t i : m_queueGauges)
            {
                most = std::max(most, gauges[i]);
            }
            values.push_back(most);
        }
        for (const SteadyGauge& g : m_steadyGauges)
        {
            values.push_back(gauges[g.gauge]);
        }
        m_steady.AddWindow(values);
    });
}

std::vector<std::pair<std::string, double>>
FeroceStudy::FinishSteadyState()
{
    // the first window that starts at or after the warm-up (Jain's index's first)
    int64_t w = m_window.GetTimeStep();
    std::size_t first = std::size_t((m_warmup.GetTimeStep() + w - 1) / w);
    m_steady.Finish(first, m_steadyStart == "auto", m_window);
    for (const std::string& warning : m_steady.GetWarnings())
    {
        Warn(warning);
    }
    return m_steady.GetMetrics();
}

void
FeroceStudy::AddMetric(const std::string& name, double value)
{
    m_metrics.emplace_back(name, value);
}

double
FeroceStudy::EstimateOutputBytes(std::string* what) const
{
    // a time (ns) and a number per flow and gauge per window, about 12 bytes each
    double rows = std::ceil(m_duration.GetSeconds() / m_window.GetSeconds());
    std::size_t gauges = m_meter.GetGaugeCount();
    double csv = rows * 12 * double(2 + m_meter.GetFlowCount() + (gauges ? 1 + gauges : 0));
    std::ostringstream s;
    s.precision(3);
    s << "--duration/--window give " << rows << " windows, about " << csv / 1e6 << " MB of CSV";
    double pcap = 0;
    if (m_pcap && !m_pcaps.empty())
    {
        // a pcap record (16 bytes + the frame without FCS) is shorter than the frame on the
        // wire (+ preamble, FCS, gap: 24): a device's pcap holds at most its line rate x the
        // duration, each way
        uint32_t devices = 0;
        for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
        {
            for (uint32_t d = 0; d < (*n)->GetNDevices(); d++)
            {
                if (Ptr<FeroceNetDevice> dev = (*n)->GetDevice(d)->GetObject<FeroceNetDevice>())
                {
                    pcap += 24 + 2 * double(dev->GetDataRate().GetBitRate()) / 8 *
                                     m_duration.GetSeconds();
                    devices++;
                }
            }
        }
        s << " and up to " << pcap / 1e6 << " MB of pcap (" << devices
          << " devices at line rate both ways for --duration)";
    }
    *what = s.str();
    return csv + pcap;
}

bool
FeroceStudy::Run()
{
    std::string refused = CheckInputRules(m_cmd);
    if (!refused.empty())
    {
        Reject(refused);
        return false;
    }
    m_cmd.Audit("before the run");
    std::string what;
    if (EstimateOutputBytes(&what) > kOutputLimitBytes && !m_force)
    {
        Reject(what + ": more than the 200 MB limit; a longer --window, a shorter --duration, "
                      "or --force");
        return false;
    }
    if (!BeginOutput())
    {
        return false;
    }
    m_cmd.PrintWarnings();
    char now[32];
    feroce_db_now(now, sizeof now);
    m_startedAt = now;
    FeroceRowWriter params(m_scenario,
                           GetParameters(),
                           RngSeedManager::GetRun(),
                           m_cmd.GetWarnings());
    bool ok = params.WriteParams(GetPath("params.txt")) &&
              m_meter.WriteFlows(GetPath("flows.csv")) &&
              m_meter.Start(m_window,
                            m_warmup,
                            m_duration,
                            GetPath("goodput.csv"),
                            GetPath("series.csv"));
    if (!ok)
    {
        std::cerr << m_scenario << ": cannot write into " << m_outdir << std::endl;
        m_output->Cleanup();
        m_exitCode = 1;
        return false;
    }
    StartSteadyState();
    if (m_pcap)
    {
        for (auto& p : m_pcaps)
        {
            p.first->EnablePcapAll(GetPath(p.second));
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    double cpu0 = FeroceCpuSeconds();
    uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    m_wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m_runCpuSeconds = FeroceCpuSeconds() - cpu0;
    m_runEvents = Simulator::GetEventCount() - events0;
    m_meter.Stop();
    if (!m_switches.empty())
    {
        WriteSwitches();
    }
    m_cmd.Audit("after the run");
    return true;
}

int
FeroceStudy::Finish()
{
    // the study's own metrics first, then the program's
    std::vector<std::pair<std::string, double>> metrics = m_meter.GetMetrics();
    if (!m_latenciesUs.empty())
    {
        struct feroce_summary lat;
        feroce_summarize(m_latenciesUs.data(), m_latenciesUs.size(), &lat);
        metrics.emplace_back("latency_p50_us", lat.p50);
        metrics.emplace_back("latency_p99_us", lat.p99);
        metrics.emplace_back("latency_max_us", lat.max);
    }
    for (auto& m : m_meter.GetFlowMetrics())
    {
        metrics.push_back(m);
    }
    metrics.insert(metrics.end(), m_switchMetrics.begin(), m_switchMetrics.end());
    // the program's metrics, then the steady state's (after every whole-run metric)
    std::vector<std::pair<std::string, double>> theirs = m_metrics;
    for (auto& m : FinishSteadyState())
    {
        theirs.push_back(m);
    }
    FeroceRowWriter row(m_scenario, GetParameters(), RngSeedManager::GetRun(), m_cmd.GetWarnings());
    row.SetMetrics(metrics, theirs);
    // params.txt was written before the run: again, with the warnings found since
    bool written = row.WriteMetrics(GetPath("metrics.txt"), std::cout) &&
                   (!m_lateWarnings || row.WriteParams(GetPath("params.txt")));
    if (!m_meter.Close() || !written)
    {
        std::cerr << m_scenario << ": cannot write into " << m_outdir << std::endl;
        m_output->Cleanup();
        return 1;
    }
    std::cout << m_scenario << ": wall " << FeroceFormatNumber(m_wallSeconds) << " s (CPU "
              << FeroceFormatNumber(m_runCpuSeconds) << " s, " << m_runEvents << " events) for "
              << FeroceFormatNumber(m_duration.GetSeconds()) << " s simulated" << std::endl;
    row.SetRun(m_startedAt, m_wallSeconds, m_duration.GetSeconds(), m_outdir, m_cmd.GetCommand());
    int64_t id = 0;
    std::string error =
        m_output->Publish([&row](sqlite3* db, int64_t* rowId) { return row.InsertRow(db, rowId); },
                          &id);
    if (!error.empty())
    {
        std::cerr << m_scenario << ": " << error << std::endl;
        m_output->Cleanup();
        return 1;
    }
    std::cout << m_scenario << ": wrote " << m_outdir << "/{params.txt,flows.csv,goodput.csv"
              << (m_meter.GetGaugeCount() == 0 ? "" : ",series.csv") << m_extraOutputs
              << ",metrics.txt}" << (m_pcap ? " and " + m_outdir + "/*.pcap" : "") << std::endl;
    if (m_db != "none")
    {
        std::cout << m_scenario << ": row " << id << " in " << m_db << std::endl;
    }
    FeroceBatch::ReportRow(m_db, id);
    return 0;
}

} // namespace ns3
