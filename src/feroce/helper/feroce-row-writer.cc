/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-row-writer.h"

#include "feroce-goodput-meter.h"

#include "ns3/feroce-db.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace ns3
{

FeroceRowWriter::FeroceRowWriter(const std::string& scenario,
                                 const Parameters& params,
                                 uint64_t seed,
                                 const std::vector<std::string>& warnings)
    : m_scenario(scenario),
      m_params(params),
      m_seed(seed),
      m_warnings(warnings)
{
}

bool
FeroceRowWriter::WriteParams(const std::string& path) const
{
    std::ofstream params(path);
    for (auto& p : m_params)
    {
        params << p.first << "=" << p.second << "\n";
    }
    params << "RngRun=" << m_seed << "\n";
    if (!m_warnings.empty())
    {
        params << "warnings=";
        for (std::size_t i = 0; i < m_warnings.size(); i++)
        {
            params << (i ? "; " : "") << m_warnings[i];
        }
        params << "\n";
    }
    params.close();
    return bool(params);
}

void
FeroceRowWriter::SetMetrics(const Metrics& mine, const Metrics& theirs)
{
    m_metrics = mine;
    for (auto& m : theirs)
    {
        auto same = std::find_if(m_metrics.begin(), m_metrics.end(), [&m](const auto& my) {
            return my.first == m.first;
        });
        if (same != m_metrics.end())
        {
            same->second = m.second; // the program knows better
        }
        else
        {
            m_metrics.push_back(m);
        }
    }
}

const FeroceRowWriter::Metrics&
FeroceRowWriter::GetMetrics() const
{
    return m_metrics;
}

bool
FeroceRowWriter::WriteMetrics(const std::string& path, std::ostream& console) const
{
    std::ofstream out(path);
    for (auto& m : m_metrics)
    {
        out << m.first << "=" << FeroceFormatNumber(m.second) << "\n";
        console << m_scenario << ": " << m.first << "=" << FeroceFormatNumber(m.second) << "\n";
    }
    out.close();
    return bool(out);
}

void
FeroceRowWriter::SetRun(const std::string& startedAt,
                        double wallSeconds,
                        double simSeconds,
                        const std::string& outdir,
                        const std::string& command)
{
    m_startedAt = startedAt;
    m_wallSeconds = wallSeconds;
    m_simSeconds = simSeconds;
    m_outdir = outdir;
    m_command = command;
}

std::string
FeroceRowWriter::InsertRow(sqlite3* db, int64_t* id) const
{
    std::vector<feroce_db_param> rowParams;
    for (auto& p : m_params)
    {
        rowParams.push_back({p.first.c_str(), p.second.c_str()});
    }
    std::vector<feroce_db_metric> rowMetrics;
    for (auto& m : m_metrics)
    {
        // the row holds what was printed: 10 significant digits
        rowMetrics.push_back(
            {m.first.c_str(), std::strtod(FeroceFormatNumber(m.second).c_str(), nullptr)});
    }
    // the warnings as a JSON array of strings
    std::string warnings;
    for (const std::string& w : m_warnings)
    {
        warnings += warnings.empty() ? "[\"" : ",\"";
        for (unsigned char c : w)
        {
            if (c == '"' || c == '\\')
            {
                warnings += '\\';
            }
            if (c < 0x20)
            {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                warnings += buf;
                continue;
            }
            warnings += char(c);
        }
        warnings += '"';
    }
    if (!warnings.empty())
    {
        warnings += "]";
    }
    feroce_db_run row{};
    row.scenario = m_scenario.c_str();
    row.version = feroce_version();
    row.seed = static_cast<int64_t>(m_seed);
    row.started_at = m_startedAt.c_str();
    row.wall_s = m_wallSeconds;
    row.sim_s = m_simSeconds;
    row.outdir = m_outdir.c_str();
    row.command = m_command.c_str();
    row.params = rowParams.data();
    row.n_params = rowParams.size();
    row.metrics = rowMetrics.data();
    row.n_metrics = rowMetrics.size();
    row.warnings = warnings.empty() ? nullptr : warnings.c_str();
    char err[512];
    if (feroce_db_insert_run(db, &row, id, err, sizeof err) != 0)
    {
        return err;
    }
    return "";
}

} // namespace ns3
