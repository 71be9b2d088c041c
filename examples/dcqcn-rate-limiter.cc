/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One DCQCN reaction point in simulated time: a QP sends MTU packets paced at
// its rate Rc while CNPs arrive every --cnpInterval during a congestion episode;
// Rc, Rt and alpha are sampled every --sample into OUTDIR/rate-limiter.csv.
//
//   dcqcn-rate-limiter --preset=connectx --congestion=2ms --duration=10ms --outdir=results/rl

#include "ns3/core-module.h"
#include "ns3/feroce-module.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/stat.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DcqcnRateLimiterExample");

namespace
{

/// The QP, the CNP source and the sampler of the example.
class RateLimiterRun
{
  public:
    RateLimiterRun(Ptr<DcqcnReactionPoint> rp,
                   uint32_t mtu,
                   Time cnpInterval,
                   Time congestionEnd,
                   std::ostream& out)
        : m_rp(rp),
          m_mtu(mtu),
          m_cnpInterval(cnpInterval),
          m_congestionEnd(congestionEnd),
          m_out(out)
    {
    }

    void Send()
    {
        m_rp->NotifyTransmitted(m_mtu);
        m_bytes += m_mtu;
        // the gap of one packet at the current rate
        Simulator::Schedule(Seconds(m_mtu * 8.0 / m_rp->GetRateBps()), &RateLimiterRun::Send, this);
    }

    void Cnp()
    {
        m_rp->ReceiveCnp();
        m_cnps++;
        if (Simulator::Now() + m_cnpInterval < m_congestionEnd)
        {
            Simulator::Schedule(m_cnpInterval, &RateLimiterRun::Cnp, this);
        }
    }

    void Sample(Time every)
    {
        const feroce_rp_vars& v = m_rp->GetState();
        m_out << Simulator::Now().GetNanoSeconds() << std::fixed << std::setprecision(3) << ','
              << v.rc << ',' << v.rt << ',' << std::setprecision(9) << v.alpha << ',' << m_bytes
              << '\n';
        Simulator::Schedule(every, &RateLimiterRun::Sample, this, every);
    }

    uint64_t m_bytes{0};
    uint32_t m_cnps{0};

  private:
    Ptr<DcqcnReactionPoint> m_rp;
    uint32_t m_mtu;
    Time m_cnpInterval;
    Time m_congestionEnd;
    std::ostream& m_out;
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string preset = "paper";
    DataRate lineRate("10Gbps");
    uint32_t mtu = 4096;
    Time cnpInterval = MicroSeconds(50);
    Time congestion = MilliSeconds(2);
    Time duration = MilliSeconds(10);
    Time sample = MicroSeconds(5);
    std::string outdir = "results/dcqcn-rate-limiter";
    bool pcap = false;

    bool force = false;

    FeroceCommandLine cmd("dcqcn-rate-limiter",
                          "dcqcn-rate-limiter: one DCQCN reaction point under a train of CNPs");
    cmd.AddValue("preset", "DCQCN preset: paper, connectx or hpcc", preset);
    cmd.AddValue("lineRate", "Line rate of the QP", lineRate, "ns3::DcqcnReactionPoint::LineRate");
    cmd.AddValue("mtu", "Bytes per packet", mtu).Range(1, 9000);
    auto positive = [](const Time& t) { return t.IsStrictlyPositive() ? "" : "> 0"; };
    cmd.AddValue("cnpInterval", "Time between CNPs during the congestion episode", cnpInterval)
        .Check(positive);
    cmd.AddValue("congestion", "Length of the congestion episode (CNPs from t = 0)", congestion);
    cmd.AddValue("duration", "Simulated time", duration).Check(positive);
    cmd.AddValue("sample", "Sampling interval of the CSV", sample).Check(positive);
    cmd.AddValue("outdir", "Output directory", outdir);
    cmd.AddValue("pcap",
                 "Accepted for uniformity with the other examples; nothing to capture here",
                 pcap);
    cmd.AddValue("force", "Write the CSV even if it would pass 200 MB", force);
    cmd.Uses({"ns3::DcqcnReactionPoint"});
    if (!cmd.Parse(argc, argv))
    {
        return cmd.GetExitCode();
    }

    auto reject = [&cmd](const std::string& what) { return cmd.Reject(what); };
    if (congestion > duration)
    {
        cmd.Warn("--congestion is longer than --duration: the run ends during the episode");
    }
    // about 60 bytes a line
    double bytes = std::ceil(duration.GetSeconds() / sample.GetSeconds()) * 60;
    if (bytes > 200e6 && !force)
    {
        std::ostringstream m;
        m.precision(3);
        m << "--duration/--sample give about " << bytes / 1e6
          << " MB of CSV: more than the 200 MB limit; a longer --sample, or --force";
        return reject(m.str());
    }
    std::string outdirError =
        FeroceRunOutput("dcqcn-rate-limiter", outdir, "none").Check({"rate-limiter.csv"});
    if (!outdirError.empty())
    {
        return reject(outdirError);
    }

    Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
    std::string error = rp->ApplyPreset(preset, lineRate);
    if (error.empty())
    {
        error = rp->Validate();
    }
    if (!error.empty())
    {
        return reject(error);
    }

    struct stat sb;
    errno = 0;
    // the folder and its parents, like the studies' --outdir
    for (std::size_t slash = outdir.find('/', 1); slash != std::string::npos;
         slash = outdir.find('/', slash + 1))
    {
        std::string parent = outdir.substr(0, slash);
        if (stat(parent.c_str(), &sb) != 0 && mkdir(parent.c_str(), 0777) != 0)
        {
            break;
        }
    }
    if (stat(outdir.c_str(), &sb) == 0 ? !S_ISDIR(sb.st_mode) : mkdir(outdir.c_str(), 0777) != 0)
    {
        return reject("--outdir=" + outdir +
                      " is not allowed: " + (errno ? std::strerror(errno) : "not a folder"));
    }
    // written under a temporary name, renamed when complete
    std::string csv = outdir + "/rate-limiter.csv";
    std::string partial = csv + ".partial";
    std::ofstream out(partial);
    if (!out)
    {
        return reject("--outdir=" + outdir + " is not allowed: cannot write " + partial);
    }
    out << "t_ns,rc_bps,rt_bps,alpha,tx_bytes\n";

    cmd.PrintWarnings();
    cmd.Audit("before the run");
    RateLimiterRun run(rp, mtu, cnpInterval, congestion, out);
    Simulator::Schedule(Seconds(0), &RateLimiterRun::Send, &run);
    Simulator::Schedule(Seconds(0), &RateLimiterRun::Sample, &run, sample);
    if (congestion.IsStrictlyPositive())
    {
        Simulator::Schedule(Seconds(0), &RateLimiterRun::Cnp, &run);
    }
    Simulator::Stop(duration);
    Simulator::Run();
    cmd.Audit("after the run");
    Simulator::Destroy();
    out.close();
    if (!out || std::rename(partial.c_str(), csv.c_str()) != 0)
    {
        std::cerr << "dcqcn-rate-limiter: cannot write " << csv << std::endl;
        std::remove(partial.c_str());
        return 1;
    }

    std::cout << "preset " << preset << ", " << run.m_cnps << " CNPs, "
              << run.m_bytes * 8.0 / duration.GetSeconds() / 1e9 << " Gb/s average\n"
              << "wrote " << csv << std::endl;
    return 0;
}
