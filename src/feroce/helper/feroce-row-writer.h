/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_ROW_WRITER_H
#define FEROCE_ROW_WRITER_H

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace ns3
{

/**
 * \ingroup feroce
 * What a run records (src/feroce/doc/results.md): params.txt (the flags as used, the
 * attributes given, RngRun, and the warnings when there are), metrics.txt and the row of the
 * results database, which holds the same parameters, the metrics as printed and the warnings.
 */
class FeroceRowWriter
{
  public:
    typedef std::vector<std::pair<std::string, std::string>> Parameters;
    typedef std::vector<std::pair<std::string, double>> Metrics;

    /// The run's parameters (in their order), seed (RngRun) and warnings.
    FeroceRowWriter(const std::string& scenario,
                    const Parameters& params,
                    uint64_t seed,
                    const std::vector<std::string>& warnings);

    /// Writes params.txt; false if it cannot.
    bool WriteParams(const std::string& path) const;
    /// The metrics: mine first, then theirs; one of theirs named like one of mine replaces it.
    void SetMetrics(const Metrics& mine, const Metrics& theirs);
    const Metrics& GetMetrics() const;
    /// Writes metrics.txt and prints "<scenario>: name=value" per metric; false if it cannot.
    bool WriteMetrics(const std::string& path, std::ostream& console) const;

    /// When the run started (ISO 8601 UTC), its wall time, simulated time and output folder.
    void SetRun(const std::string& startedAt,
                double wallSeconds,
                double simSeconds,
                const std::string& outdir,
                const std::string& command);
    /**
     * Inserts the row into db, inside the transaction the caller holds; *id its rowid.  "" or
     * the message.
     */
    std::string InsertRow(sqlite3* db, int64_t* id) const;

  private:
    std::string m_scenario;
    Parameters m_params;
    uint64_t m_seed;
    std::vector<std::string> m_warnings;
    Metrics m_metrics;
    std::string m_startedAt;
    double m_wallSeconds{0};
    double m_simSeconds{0};
    std::string m_outdir;
    std::string m_command;
};

} // namespace ns3

#endif /* FEROCE_ROW_WRITER_H */
