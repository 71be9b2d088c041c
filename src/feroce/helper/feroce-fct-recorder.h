/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_FCT_RECORDER_H
#define FEROCE_FCT_RECORDER_H

#include "feroce-fabric-helper.h"

#include "ns3/roce-flow-app.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * Flow completion times of a fabric's flows (RoceFlowApp), written as the flows end:
 *
 * - fct.csv: id,src,dst,kind,op,prio,size_bytes,start_ns,fct_ns,standalone_ns,slowdown,
 *   sport,status (nodes by name; status ok or the completion's error);
 * - fct.txt: the HPCC simulator's columns, "sip dip sport dport size start_ns fct_ns
 *   standalone_fct_ns" with its addresses (node i is 0x0b000001 + (i / 256) << 16 + (i % 256) << 8,
 *   in hex), so that its analysis scripts read it; completed flows only, as it writes them.
 *
 * The standalone FCT is feroce_fct_standalone_ns over the flow's path (as the switches route it,
 * FeroceFabric::Path) with its frames as its queue pair builds them; slowdown = FCT / standalone,
 * at least 1.  After the run, the slowdowns by size: the peers' bins (each a share of the flows, by
 * size) and decade bins of size (below 1 KB, 10 KB, 100 KB, 1 MB, 10 MB, and above), for background
 * and incast flows apart; and the metrics of the run's row.
 */
class FeroceFctRecorder
{
  public:
    /// Outputs may be null (not written).  paths: fct.csv gets a last column, path, the switches
    /// the flow's data crossed ("edge0>agg1>core2>agg5>edge6").
    FeroceFctRecorder(const FeroceFabric& fabric,
                      std::ostream* csv,
                      std::ostream* txt,
                      bool paths = false);
    /// fct.csv's header line: once its stream is open (a study opens it when the run begins).
    void WriteHeader();

    /// Record the flows app ends (its done callback).
    void Attach(Ptr<RoceFlowApp> app);
    void Record(const RoceFlowApp::Record& r);

    /// The standalone FCT of a flow with these frames on the path its source port takes, in ns
    /// (and the switches it crosses, if asked).
    double Standalone(uint32_t src,
                      uint32_t dst,
                      uint16_t sport,
                      const feroce_message_frames& frames,
                      std::vector<uint32_t>* crossed = nullptr);

    /// Payload bytes of the flows completed so far.
    uint64_t GetCompletedBytes() const;

    /// fct-bins.csv (feroce_fct_write_bins) for each kind that has flows; false if it cannot be
    /// written.
    bool WriteBins(const std::string& path, unsigned stepPct);

    /// The metrics of the row: flows by outcome, slowdown percentiles of each kind, and per
    /// decade bin of background flows (size_10k_slowdown_p99: flows of 1 KB to 10 KB...).
    std::vector<std::pair<std::string, double>> GetMetrics() const;

  private:
    const FeroceFabric& m_fabric;
    std::ostream* m_csv;
    std::ostream* m_txt;
    Ptr<RoceFlowApp> m_app;
    /// Completed flows, by kind.  Their order is not part of the state: the outputs sort them in
    /// place (by size, then slowdown: a total order), since a copy of 10^6 samples would add its
    /// 16 MB to the run's peak.
    mutable std::vector<feroce_fct_sample> m_samples[FEROCE_FLOW_KINDS];
    uint64_t m_completed{0};
    uint64_t m_failed{0};
    uint64_t m_completedBytes{0};
    bool m_paths;
    std::vector<feroce_hop> m_fwd; ///< scratch of Standalone
    std::vector<feroce_hop> m_rev;
    std::vector<uint32_t> m_crossed;
};

} // namespace ns3

#endif /* FEROCE_FCT_RECORDER_H */
