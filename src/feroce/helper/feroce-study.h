/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_STUDY_H
#define FEROCE_STUDY_H

#include "ns3/feroce-command-line.h"
#include "ns3/feroce-switch-probe.h"
#include "ns3/nstime.h"

#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * The frame of a study program (a scenario run from the command line):
 * flags, output directory, per-flow goodput in fixed windows with Jain's
 * index, sampled time series, metrics, and the run's row in the results
 * database (src/feroce/doc/results.md).
 *
 * Every study takes --outdir, --duration, --window, --warmup, --pcap, --db and
 * --force, and ns-3's own --RngRun and --ns3::Type::Attribute=value; AddFlag
 * registers the program's own flags, whose parsed values all go into the row's
 * params with the attributes given (FeroceCommandLine: every bad input one
 * line and exit status 2, before anything is simulated or written).
 *
 * Outputs go into OUTDIR/incomplete-run/ while the run lasts (a killed run
 * leaves them there, marked) and move into OUTDIR when the row is written; a
 * run that fails leaves no file and no row.
 *
 *   FeroceStudy study("advcam-incast", "results/advcam-incast", MilliSeconds(30));
 *   study.AddFlag("boards", "Front-end boards", boards);
 *   if (!study.Parse(argc, argv)) return study.GetExitCode();
 *   ... build the topology, AddFlow per flow, AddGauge per series ...
 *   study.Run();
 *   study.AddMetric("drops", drops);
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

    /**
     * A program flag, its parsed value recorded as a parameter.  attribute: the
     * ns-3 attribute the flag sets, whose command-line value it then takes
     * (FeroceCommandLine::AddValue).
     */
    template <typename T>
    void AddFlag(const std::string& name,
                 const std::string& help,
                 T& value,
                 const std::string& attribute = "");
    /// The program sets attribute through flag, in other units: --ns3::attribute is refused.
    void Owns(const std::string& attribute, const std::string& flag);
    /// Whether the flag (or its attribute) was given on the command line.
    bool IsGiven(const std::string& name) const;

    /// Parses the command line and checks --outdir and --db (writing nothing); false
    /// (with the message printed) when the program must exit with GetExitCode().
    bool Parse(int argc, char** argv);

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
    const std::string& GetOutdir() const;
    bool GetPcap() const;
    /// Where output name goes while the run lasts (OUTDIR/incomplete-run/name; creates the
    /// folders); it moves to OUTDIR/name when the run finishes.
    std::string GetPath(const std::string& name);

    /// Opens OUTDIR/name for a program's own output, listed with the study's.
    std::ofstream OpenOutput(const std::string& name);

    /// A flow whose delivered payload bytes are read at the end of each window;
    /// it counts in Jain's index of the windows it spans entirely within [start, stop).
    void AddFlow(const std::string& name,
                 std::function<uint64_t()> deliveredBytes,
                 Time start,
                 Time stop);
    /// A time series read at the end of each window into series.csv.
    void AddGauge(const std::string& name, std::function<double()> value);
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
     * Checks that every --ns3:: attribute given is what the simulation's objects hold
     * and that the CSVs stay under the output limit (200 MB unless --force); then
     * schedules the sampling, runs the simulation for the duration, and measures
     * wall time.  False (with the message printed) when the program must exit with
     * GetExitCode().
     */
    bool Run();

    /// A metric of the run (also for the database's metric columns; see results.md).
    /// A metric named like one the study computes (goodput_gbps, jain_min, a flow's
    /// NAME_gbps...) replaces it, e.g. when the flows are not the ones to sum or to compare.
    void AddMetric(const std::string& name, double value);

    /// Writes metrics.txt, the row into the database, and prints the metrics and
    /// where the outputs went; returns the program's exit code.
    int Finish();

  private:
    struct Flow
    {
        std::string name;
        std::function<uint64_t()> bytes;
        Time start;
        Time stop;
        uint64_t last{0};
        uint64_t total{0};
    };

    void Sample();
    /// Who had the link in a window after the warm-up in which two or more flows were meant to
    /// send: nobody, one flow (>= 90% of the bytes) or several.
    void CountHolder(uint64_t windowBytes, uint64_t topBytes, int top);
    /// Removes the files of this run and the folders it created.
    void Cleanup();
    /// Moves the run's files from the temporary folder into OUTDIR.
    bool Publish();
    /// The row's and params.txt's parameters: the flags, then the attributes given.
    std::vector<std::pair<std::string, std::string>> GetParameters() const;
    /// Writes pause.csv (and switches.csv when the switches have names) and the switch metrics.
    void WriteSwitches();

    std::string m_scenario;
    FeroceCommandLine m_cmd;
    std::string m_outdir;
    std::string m_tmpdir;
    std::vector<std::string> m_createdDirs;
    bool m_force{false};
    Time m_duration;
    Time m_window;
    Time m_warmup;
    bool m_pcap{false};
    std::string m_db{"results/feroce.db"};
    int m_exitCode{0};
    std::vector<Flow> m_flows;
    std::vector<std::pair<std::string, std::function<double()>>> m_gauges;
    std::vector<double> m_latenciesUs;
    std::vector<double> m_jain; ///< per qualifying window
    // who has the link in each qualifying window (solo: one flow carries >= 90% of its bytes)
    uint32_t m_contendedWindows{0};
    uint32_t m_idleWindows{0};
    uint32_t m_soloWindows{0};
    uint32_t m_handovers{0};
    int m_lastSolo{-1};
    std::vector<std::pair<std::string, double>> m_metrics;
    std::vector<WatchedSwitch> m_switches; ///< WatchSwitch's (one, no name) or WatchSwitches'
    std::vector<std::unique_ptr<FeroceSwitchProbe>> m_probes; ///< one per switch
    std::vector<std::pair<std::string, double>> m_switchMetrics;
    std::ofstream m_goodputCsv;
    std::ofstream m_seriesCsv;
    std::string m_extraOutputs;
    std::string m_startedAt;
    double m_wallSeconds{0};
    double m_runCpuSeconds{0}; ///< CPU (user + system) of Simulator::Run
    uint64_t m_runEvents{0};   ///< events Simulator::Run executed
};

template <typename T>
void
FeroceStudy::AddFlag(const std::string& name,
                     const std::string& help,
                     T& value,
                     const std::string& attribute)
{
    m_cmd.AddValue(name, help, value, attribute);
}

} // namespace ns3

#endif /* FEROCE_STUDY_H */
