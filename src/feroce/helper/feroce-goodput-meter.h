/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_GOODPUT_METER_H
#define FEROCE_GOODPUT_METER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * A study's per-window view of a run: each flow's goodput and Jain's index among the flows
 * meant to send the whole window (goodput.csv), who held the link in contended windows, and
 * gauges read at each window's end (series.csv).  The windows end at window, 2 window, ...
 * up to the duration; the last one stops the simulation.
 */
class FeroceGoodputMeter
{
  public:
    /// A flow whose delivered payload bytes are read at the end of each window; it counts in
    /// Jain's index of the windows it spans entirely within [start, stop).
    void AddFlow(const std::string& name,
                 std::function<uint64_t()> deliveredBytes,
                 Time start,
                 Time stop);
    /// A time series read at the end of each window into series.csv.
    void AddGauge(const std::string& name, std::function<double()> value);

    std::size_t GetFlowCount() const;
    std::size_t GetGaugeCount() const;
    /// Called at the end of each window with the flows' Gb/s in it and the gauges' values, in
    /// the order they were added (a study's steady state is made of these).
    void OnWindow(std::function<void(const std::vector<double>& flowGbps,
                                     const std::vector<double>& gauges)> observer);

    /**
     * Opens goodput.csv (and series.csv if there are gauges) at these paths and schedules the
     * windows; windows ending before warmup + window are left out of Jain's index.  False when
     * a file cannot be opened.
     */
    bool Start(Time window,
               Time warmup,
               Time duration,
               const std::string& goodputPath,
               const std::string& seriesPath);
    /// Writes flows.csv (name, start, stop per flow).
    bool WriteFlows(const std::string& path) const;
    /// Reads each flow's total once the run is over.
    void Stop();
    /// Closes the CSVs; false if one could not be written.
    bool Close();

    /// goodput_gbps (all flows), jain_min, jain_mean, jain_windows, then solo_fraction,
    /// idle_fraction and handovers when windows were contended.
    std::vector<std::pair<std::string, double>> GetMetrics() const;
    /// NAME_gbps per flow (over the whole run).
    std::vector<std::pair<std::string, double>> GetFlowMetrics() const;

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

    std::vector<Flow> m_flows;
    std::vector<std::pair<std::string, std::function<double()>>> m_gauges;
    std::function<void(const std::vector<double>&, const std::vector<double>&)> m_observer;
    std::vector<double> m_windowGbps;   ///< this window's, for the observer
    std::vector<double> m_windowGauges; ///< this window's, for the observer
    Time m_window;
    Time m_warmup;
    Time m_duration;
    std::ofstream m_goodputCsv;
    std::ofstream m_seriesCsv;
    std::vector<double> m_jain; ///< per qualifying window
    uint32_t m_contendedWindows{0};
    uint32_t m_idleWindows{0};
    uint32_t m_soloWindows{0};
    uint32_t m_handovers{0};
    int m_lastSolo{-1};
};

/// A number as the studies print and store it: 10 significant digits, "nan" if not finite.
std::string FeroceFormatNumber(double v);

} // namespace ns3

#endif /* FEROCE_GOODPUT_METER_H */
