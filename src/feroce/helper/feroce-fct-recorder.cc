/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-fct-recorder.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace ns3
{

namespace
{

/// The peers' address of node i (their third.cc, node_id_to_ip).
uint32_t
PeerAddress(uint32_t node)
{
    return 0x0b000001u + ((node / 256) << 16) + ((node % 256) << 8);
}

/// sorted[floor(n p)], the peers' nearest rank.
double
Rank(const std::vector<double>& sorted, double p)
{
    return sorted.empty() ? NAN : sorted[std::size_t(double(sorted.size()) * p)];
}

std::string
Number(double v)
{
    if (std::isnan(v))
    {
        return "";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

FeroceFctRecorder::FeroceFctRecorder(const FeroceFabric& fabric,
                                     std::ostream* csv,
                                     std::ostream* txt,
                                     bool paths)
    : m_fabric(fabric),
      m_csv(csv),
      m_txt(txt),
      m_paths(paths)
{
}

void
FeroceFctRecorder::WriteHeader()
{
    if (m_csv)
    {
        *m_csv << "id,src,dst,kind,op,prio,size_bytes,start_ns,fct_ns,standalone_ns,slowdown,sport,"
                  "status"
               << (m_paths ? ",path\n" : "\n");
    }
}

void
FeroceFctRecorder::Attach(Ptr<RoceFlowApp> app)
{
    m_app = app;
    app->SetDoneCallback(MakeCallback(&FeroceFctRecorder::Record, this));
}

double
FeroceFctRecorder::Standalone(uint32_t src,
                              uint32_t dst,
                              uint16_t sport,
                              const feroce_message_frames& frames,
                              std::vector<uint32_t>* crossed)
{
    m_fabric.Path(src, dst, sport, &m_fwd, &m_rev, crossed);
    return feroce_fct_standalone_ns(&frames,
                                    m_fwd.data(),
                                    m_fwd.size(),
                                    m_rev.data(),
                                    m_rev.size());
}

void
FeroceFctRecorder::Record(const RoceFlowApp::Record& r)
{
    const feroce_flow& f = r.flow;
    bool ok = r.status == ROCE_WC_SUCCESS;
    double alone = Standalone(f.src, f.dst, r.sport, r.frames, m_paths ? &m_crossed : nullptr);
    double fct = double(r.fct.GetNanoSeconds());
    double slowdown = feroce_slowdown(fct, alone);
    if (ok)
    {
        m_completed++;
        m_completedBytes += f.size;
        m_samples[f.kind].push_back({f.size, slowdown});
    }
    else
    {
        m_failed++;
    }
    const feroce_topo& t = *m_fabric.topo;
    if (m_csv)
    {
        char line[512];
        std::snprintf(line,
                      sizeof line,
                      "%" PRIu64 ",%s,%s,%s,%s,%u,%" PRIu64 ",%" PRId64 ",%" PRId64
                      ",%.0f,%s,%u,%s\n",
                      r.id,
                      t.nodes[f.src].name,
                      t.nodes[f.dst].name,
                      feroce_flow_kind_name(feroce_flow_kind(f.kind)),
                      feroce_flow_op_name(feroce_flow_op(f.op)),
                      unsigned(f.prio),
                      f.size,
                      f.start_ns,
                      int64_t(fct),
                      alone,
                      Number(slowdown).c_str(),
                      unsigned(r.sport),
                      ok ? "ok" : RoceCompletionStatusName(r.status));
        if (m_paths)
        {
            line[std::strlen(line) - 1] = ','; // the path after the status
            *m_csv << line;
            for (std::size_t i = 0; i < m_crossed.size(); i++)
            {
                *m_csv << (i ? ">" : "") << t.nodes[m_crossed[i]].name;
            }
            *m_csv << "\n";
        }
        else
        {
            *m_csv << line;
        }
    }
    if (m_txt && ok)
    {
        char line[160];
        std::snprintf(line,
                      sizeof line,
                      "%08x %08x %u %u %" PRIu64 " %" PRId64 " %" PRId64 " %.0f\n",
                      PeerAddress(f.src),
                      PeerAddress(f.dst),
                      unsigned(r.sport),
                      unsigned(f.dport),
                      f.size,
                      f.start_ns,
                      int64_t(fct),
                      alone);
        *m_txt << line;
    }
}

uint64_t
FeroceFctRecorder::GetCompletedBytes() const
{
    return m_completedBytes;
}

bool
FeroceFctRecorder::WriteBins(const std::string& path, unsigned stepPct)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    feroce_fct_write_bins_header(f);
    for (int kind = 0; kind < FEROCE_FLOW_KINDS; kind++)
    {
        std::vector<feroce_fct_sample>& s = m_samples[kind]; // sorted in place by the bins
        if (!s.empty())
        {
            feroce_fct_write_bins(f,
                                  feroce_flow_kind_name(feroce_flow_kind(kind)),
                                  s.data(),
                                  s.size(),
                                  stepPct);
        }
    }
    return std::fclose(f) == 0;
}

std::vector<std::pair<std::string, double>>
FeroceFctRecorder::GetMetrics() const
{
    std::vector<std::pair<std::string, double>> m;
    const RoceFlowApp::Counters* c = m_app ? &m_app->GetCounters() : nullptr;
    m.emplace_back("flows_started", c ? double(c->started) : NAN);
    m.emplace_back("flows_completed", double(m_completed));
    m.emplace_back("flows_failed", double(m_failed));
    m.emplace_back("flows_in_flight", c ? double(c->active) : NAN);
    m.emplace_back("flows_active_max", c ? double(c->peakActive) : NAN);
    for (int kind = 0; kind < FEROCE_FLOW_KINDS; kind++)
    {
        std::string prefix = kind == FEROCE_FLOW_INCAST ? "incast_" : "";
        std::vector<double> all;
        for (const feroce_fct_sample& x : m_samples[kind])
        {
            all.push_back(x.slowdown);
        }
        std::sort(all.begin(), all.end());
        m.emplace_back(prefix + "slowdown_p50", Rank(all, 0.5));
        m.emplace_back(prefix + "slowdown_p95", Rank(all, 0.95));
        m.emplace_back(prefix + "slowdown_p99", Rank(all, 0.99));
        if (kind != FEROCE_FLOW_BACKGROUND)
        {
            continue;
        }
        std::vector<feroce_fct_sample>& samples = m_samples[kind]; // sorted in place
        feroce_fct_bin bins[FEROCE_FCT_DECADES];
        feroce_fct_decades(samples.data(), samples.size(), bins);
        for (int d = 0; d < FEROCE_FCT_DECADES; d++)
        {
            std::string name = feroce_fct_decade_name[d];
            m.emplace_back(name + "_flows", double(bins[d].n));
            m.emplace_back(name + "_slowdown_p50", bins[d].p50);
            m.emplace_back(name + "_slowdown_p95", bins[d].p95);
            m.emplace_back(name + "_slowdown_p99", bins[d].p99);
        }
    }
    return m;
}

} // namespace ns3
