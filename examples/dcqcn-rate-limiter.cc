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

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/feroce-module.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
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

    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "DCQCN preset: paper, connectx or hpcc", preset);
    cmd.AddValue("lineRate", "Line rate of the QP", lineRate);
    cmd.AddValue("mtu", "Bytes per packet", mtu);
    cmd.AddValue("cnpInterval", "Time between CNPs during the congestion episode", cnpInterval);
    cmd.AddValue("congestion", "Length of the congestion episode (CNPs from t = 0)", congestion);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("sample", "Sampling interval of the CSV", sample);
    cmd.AddValue("outdir", "Output directory", outdir);
    cmd.AddValue("pcap",
                 "Accepted for uniformity with the other examples; nothing to capture here",
                 pcap);
    cmd.Parse(argc, argv);

    auto reject = [](const std::string& what) {
        std::cerr << "dcqcn-rate-limiter: " << what << std::endl;
        return 2;
    };
    if (mtu == 0 || mtu > 9000)
    {
        return reject("mtu = " + std::to_string(mtu) + " is not allowed: expected [1, 9000] bytes");
    }
    if (!cnpInterval.IsStrictlyPositive() || !sample.IsStrictlyPositive() ||
        !duration.IsStrictlyPositive())
    {
        return reject("cnpInterval, sample and duration must be > 0");
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

    if (mkdir(outdir.c_str(), 0777) != 0 && errno != EEXIST)
    {
        return reject("cannot create --outdir " + outdir + ": " + std::strerror(errno));
    }
    std::string csv = outdir + "/rate-limiter.csv";
    std::ofstream out(csv);
    if (!out)
    {
        return reject("cannot write " + csv);
    }
    out << "t_ns,rc_bps,rt_bps,alpha,tx_bytes\n";

    RateLimiterRun run(rp, mtu, cnpInterval, congestion, out);
    Simulator::Schedule(Seconds(0), &RateLimiterRun::Send, &run);
    Simulator::Schedule(Seconds(0), &RateLimiterRun::Sample, &run, sample);
    if (congestion.IsStrictlyPositive())
    {
        Simulator::Schedule(Seconds(0), &RateLimiterRun::Cnp, &run);
    }
    Simulator::Stop(duration);
    Simulator::Run();
    Simulator::Destroy();
    out.close();

    std::cout << "preset " << preset << ", " << run.m_cnps << " CNPs, "
              << run.m_bytes * 8.0 / duration.GetSeconds() / 1e9 << " Gb/s average\n"
              << "wrote " << csv << std::endl;
    return out ? 0 : 1;
}
