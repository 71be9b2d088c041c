/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_STUDY_H
#define FEROCE_STUDY_H

#include "ns3/feroce-command-line.h"
#include "ns3/feroce-goodput-meter.h"
#include "ns3/feroce-run-output.h"
#include "ns3/feroce-steady-state.h"
#include "ns3/feroce-switch-probe.h"
#include "ns3/nstime.h"

#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class RoceHelper;

/**
 * \ingroup feroce
 * The frame of a study program (a scenario run from the command line): its front door
 * (FeroceCommandLine: flags, --ns3:: attributes, precedence, warnings), its per-window view
 * (FeroceGoodputMeter: goodput, Jain's index, gauges), what it records (FeroceRowWriter:
 * params.txt, metrics.txt, the row) and where its files go (FeroceRunOutput: checked before the
 * run, published with the row or not at all).  src/feroce/doc/studies.md.
 *
 * Every study takes --outdir, --duration, --window, --warmup, --pcap, --steadyStart, --db and
 * --force, and ns-3's own --RngRun and --ns3::Type::Attribute=value.
 *
 * Every study also reports the steady state (FeroceSteadyState; results.md, "Steady state"):
 * goodput_gbps_ss and its interval, queue_max_bytes_ss when switches are watched, and NAME_ss
 * of each AddSteadyGauge, over the windows from ss_start_ms on, with one warning per judged
 * series that has not settled (printed and recorded with the run).
 *
 *   FeroceStudy study("advcam-incast", "results/advcam-incast", MilliSeconds(30));
 *   study.AddFlag("boards", "Front-end boards", boards).Range(1, 1000);
 *   DcqcnSwitchFlags fabric;
 *   fabric.AddTo(study);
 *   if (!study.Parse(argc, argv)) return study.GetExitCode();
 *   ... build the topology, AddFlow per flow, AddGauge per series, EnablePcap ...
 *   if (!study.Run()) return study.GetExitCode();
 *   study.AddMetric("drops", drops);
 *   Simulator::Destroy();
 *   return study.Finish();
 */
class FeroceStudy
{
  public:
    /// The defaults of --outdir, --duration, --window and --warmup.
    FeroceStudy(const std::string& scenario,
                const std::string& defaultOutdir,
                Time defaultDuration,
                Time defaultWindow = MilliSeconds(1),
                Time defaultWarmup = MilliSeconds(5));

    /// A program flag, its value recorded as a parameter (FeroceCommandLine::AddValue).
    template <typename T>
    FeroceCommandLine::Handle<T> AddFlag(const std::string& name,
                                         const std::string& help,
                                         T& value,
                                         const std::string& attribute = "");
    /// A list flag (FeroceCommandLine::AddList).
    template <typename T>
    FeroceCommandLine::ListHandle<T> AddList(const std::string& name,
                                             const std::string& help,
                                             std::vector<T>& out,
                                             const std::string& defaultText);
    /// The program sets attribute through flag, in other units: --ns3::attribute is refused.
    void Owns(const std::string& attribute, const std::string& flag);
    /// The program sets attribute itself: --ns3::attribute is refused.
    void Owns(const std::string& attribute);
    /// Whether the flag (or its attribute) was given on the command line.
    bool IsGiven(const std::string& name) const;
    /// The front door, for what the shortcuts here do not cover.
    FeroceCommandLine& GetCommandLine();

    /// Parses the command line and checks --outdir and --db (writing nothing); false
    /// (with the message printed) when the program must exit with GetExitCode().  With
    /// --batch=FILE --db=DB this process serves the batch's points (FeroceBatch): each goes on
    /// from here in a child of its own, and the server returns false once they have ended.
    bool Parse(int argc, char** argv);

    /// The program's own setting of an attribute, beneath the user's ("" or the message).
    std::string SetBeneath(const std::string& attribute, const std::string& text);
    /// Refuses an attribute of type the user gave (true: refused, the message printed), why: e.g.
    /// "without --loss this program builds no error model".
    bool RefuseType(const std::string& type, const std::string& why);
    /// An odd setting: printed (one line) when the run starts, recorded with it; after the run
    /// started (what the run found, e.g. that it has not settled), printed at once.
    void Warn(const std::string& text);

    /// A time a program reads from a list flag: "<number><unit>" (unit s, ms, us or ns) or "0";
    /// false if it is not one (ranges are the caller's).
    static bool ParseTime(const std::string& text, Time& t);

    /// Prints "<scenario>: <message>" on stderr, removes what the run wrote, and
    /// returns the exit code for a bad input (2).
    int Reject(const std::string& message);
    /// Reject("--NAME=VALUE is not allowed: expected ALLOWED"), the value as typed.
    int RejectFlag(const std::string& name, const std::string& allowed);
    /// The exit code after Parse or Reject failed.
    int GetExitCode() const;

    Time GetDuration() const;
    Time GetWindow() const;
    Time GetWarmup() const;
    /// Where a program's own measurements start: the end of the warm-up, or 0 when the warm-up
    /// is as long as the run.
    Time GetMeasureFrom() const;
    const std::string& GetOutdir() const;
    bool GetPcap() const;
    /// Where output name goes while the run lasts (OUTDIR/incomplete-run/name); it moves to
    /// OUTDIR/name when the run is published.  Valid once Run has begun.
    std::string GetPath(const std::string& name);
    /// Opens OUTDIR/name for a program's own output, listed with the study's.
    std::ofstream OpenOutput(const std::string& name);
    /// With --pcap: a pcap per device of the helper, PREFIX-NODE-DEVICE.pcap, once the run's
    /// size is checked (line rate x duration x 2 directions per device, in the output limit).
    void EnablePcap(RoceHelper& helper, const std::string& prefix);

    /// A flow (FeroceGoodputMeter::AddFlow).
    void AddFlow(const std::string& name,
                 std::function<uint64_t()> deliveredBytes,
                 Time start,
                 Time stop);
    /// A time series read at the end of each window into series.csv.
    void AddGauge(const std::string& name, std::function<double()> value);
    /**
     * A gauge whose steady-state variant is a metric: NAME_ss, reduced over the steady windows
     * as how says (a counter's value: its increase), NAME_ss_ci95 for a MEAN; judged: the
     * convergence check looks at it and it takes part in choosing where the steady state
     * starts (--steadyStart=auto).
     */
    void AddSteadyGauge(const std::string& name,
                        std::function<double()> value,
                        FeroceSteadyState::Reduce how,
                        bool judged);
    /// The steady gauge drops: frames lost anywhere so far (FeroceFrameLosses of every node).
    void AddDropsGauge();
    /**
     * Watches a switch (FeroceSwitchProbe): gauges queue_to_receiver_bytes (the most
     * bytes queued on port per window) and buffer_bytes; after the run pause.csv and
     * the metrics pause_frames, resume_frames, pause_time_ms, ecn_marks, drops (the
     * switch's; a program adds its own losses by AddMetric("drops", ...)),
     * drops_lossless, drops_lossy, queue_max_bytes and buffer_peak_bytes.
     */
    void WatchSwitch(Ptr<FeroceSwitch> sw, uint32_t port);

    /// A switch among several watched together: its name in the outputs.
    struct WatchedSwitch
    {
        std::string name;
        Ptr<FeroceSwitch> sw;
    };

    /// A queue followed in series.csv: the gauge's name, the switch (its index in the list
    /// given to WatchSwitches) and the egress port.
    struct WatchedQueue
    {
        std::string gauge;
        uint32_t sw;
        uint32_t port;
    };

    /**
     * Watches several switches as WatchSwitch watches one: gauges the queues (the most
     * bytes queued per window), then NAME_buffer_bytes of each switch; after the run
     * switches.csv (per switch: ports, queue_max_bytes, buffer_peak_bytes, pause_frames,
     * pause_time_ms, ecn_marks, drops), pause.csv with the switch's name first, WatchSwitch's
     * metrics over all of them (summed; queue_max_bytes and buffer_peak_bytes the largest)
     * and NAME_queue_max_bytes per switch.
     */
    void WatchSwitches(const std::vector<WatchedSwitch>& switches,
                       const std::vector<WatchedQueue>& queues);

    /// An operation's latency (e.g. a message's completion), summarised as percentiles.
    void AddLatency(Time latency);

    /**
     * Checks that the outputs stay under the output limit (200 MB of CSV and pcap unless
     * --force), prints the warnings, then schedules the sampling, runs the simulation for the
     * duration, and measures wall and CPU time.  False (with the message printed) when the
     * program must exit with GetExitCode().
     */
    bool Run();

    /// A metric of the run (also for the database's metric columns; see results.md).
    /// A metric named like one the study computes (goodput_gbps, jain_min, a flow's
    /// NAME_gbps...) replaces it, e.g. when the flows are not the ones to sum or to compare.
    void AddMetric(const std::string& name, double value);

    /// Writes metrics.txt, then publishes the files and the row together; prints the metrics
    /// and where the outputs went; returns the program's exit code.
    int Finish();

  private:
    /// The row's and params.txt's parameters: the flags, then the attributes given.
    std::vector<std::pair<std::string, std::string>> GetParameters() const;
    /// Writes pause.csv (and switches.csv when the switches have names) and the switch metrics.
    void WriteSwitches();
    /// The bytes the run's CSVs and pcaps can reach; what makes them up, for a refusal.
    double EstimateOutputBytes(std::string* what) const;
    /// Creates the run's folder (once); false after a refusal.
    bool BeginOutput();
    /// Declares the steady state's series and feeds it each window (before the run).
    void StartSteadyState();
    /// The steady-state metrics (their warnings given by Warn).
    std::vector<std::pair<std::string, double>> FinishSteadyState();

    std::string m_scenario;
    FeroceCommandLine m_cmd;
    std::string m_outdir;
    bool m_force{false};
    Time m_duration;
    Time m_window;
    Time m_warmup;
    bool m_pcap{false};
    std::string m_steadyStart{"auto"};
    std::string m_db{"results/feroce.db"};
    int m_exitCode{0};
    std::unique_ptr<FeroceRunOutput> m_output;
    FeroceGoodputMeter m_meter;
    std::vector<std::pair<RoceHelper*, std::string>> m_pcaps;
    std::vector<double> m_latenciesUs;
    std::vector<std::pair<std::string, double>> m_metrics;
    std::vector<WatchedSwitch> m_switches; ///< WatchSwitch's (one, no name) or WatchSwitches'
    std::vector<std::unique_ptr<FeroceSwitchProbe>> m_probes; ///< one per switch
    std::vector<std::pair<std::string, double>> m_switchMetrics;
    FeroceSteadyState m_steady;
    std::vector<std::size_t> m_queueGauges; ///< the meter's gauges that are watched queues

    struct SteadyGauge
    {
        std::size_t gauge; ///< the meter's index
        std::string name;
        FeroceSteadyState::Reduce how;
        bool judged;
    };

    std::vector<SteadyGauge> m_steadyGauges;
    bool m_lateWarnings{false}; ///< warnings since the run started: params.txt again
    std::string m_extraOutputs;
    std::string m_startedAt;
    double m_wallSeconds{0};
    double m_runCpuSeconds{0}; ///< CPU (user + system) of Simulator::Run
    uint64_t m_runEvents{0};   ///< events Simulator::Run executed
};

template <typename T>
FeroceCommandLine::Handle<T>
FeroceStudy::AddFlag(const std::string& name,
                     const std::string& help,
                     T& value,
                     const std::string& attribute)
{
    return m_cmd.AddValue(name, help, value, attribute);
}

template <typename T>
FeroceCommandLine::ListHandle<T>
FeroceStudy::AddList(const std::string& name,
                     const std::string& help,
                     std::vector<T>& out,
                     const std::string& defaultText)
{
    return m_cmd.AddList(name, help, out, defaultText);
}

} // namespace ns3

#endif /* FEROCE_STUDY_H */
