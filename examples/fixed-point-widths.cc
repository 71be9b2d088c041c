/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Design study of a firmware DCQCN rate limiter's register widths: for each preset and
// rounding, a few hundred random congestion scripts run through the double-precision reaction
// point and through the fixed-point one at each rate width (alpha kept wide) and each alpha
// width (rate kept wide); the largest relative deviation of the fixed Rc from the double Rc
// over every event of every script is the figure of merit.  The smallest widths that stay
// within --tolerance (0.1 %) are what a firmware specification can ask for.
//
//   fixed-point-widths --scripts=300 --outdir=results/fixed-point-widths
//
// Scripts: alternating congestion phases (CNPs at a random interval, as a notification point
// under a standing queue sends them) and recovery phases (no CNP); throughout, the QP sends
// what its double-precision rate allows, reported every few microseconds (the byte counter's
// input).  The clock is 1 GHz by default so that event times and timers are the same in both
// models and only the arithmetic differs; --clockHz=156250000 adds the firmware clock's timer
// rounding.  Writes OUTDIR/widths.csv (one row per preset, rounding and width pair) and
// OUTDIR/minimum.csv (the smallest widths), and prints the minimum table.

#include "ns3/core-module.h"
#include "ns3/feroce-module.h"
#include "ns3/feroce-run-output.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FixedPointWidths");

namespace
{

/// One line of a script.
struct Event
{
    int64_t t;      ///< ns
    bool cnp;       ///< a CNP, else transmitted bytes
    uint64_t bytes; ///< for a transmission
};

/// A script and the double model's Rc after each of its events.
struct Script
{
    std::vector<Event> events;
    std::vector<double> rc;
};

/// A congestion script of about `events` lines; bytes follow the double model's rate.
Script
MakeScript(const feroce_rp_params& rules, Ptr<UniformRandomVariable> u, uint32_t events)
{
    Script s;
    feroce_rp_state st;
    feroce_rp_init(&st, &rules, 0);
    int64_t t = 0;
    int64_t lastTx = 0;
    bool congested = true;
    int64_t phaseEnd = int64_t(u->GetValue(100e3, 2e6));
    int64_t cnpInterval = int64_t(u->GetValue(4e3, 100e3));
    int64_t nextCnp = 0;
    int64_t txEvery = int64_t(u->GetValue(1e3, 20e3));
    int64_t nextTx = txEvery;
    while (s.events.size() < events)
    {
        Event e{};
        if (congested && nextCnp <= nextTx)
        {
            e.t = nextCnp;
            e.cnp = true;
            // the NP's interval, jittered by the marking
            nextCnp += int64_t(cnpInterval * u->GetValue(0.8, 1.6));
        }
        else
        {
            e.t = nextTx;
            e.cnp = false;
            e.bytes = uint64_t(double(nextTx - lastTx) * st.cur.rc / 8e9);
            lastTx = nextTx;
            nextTx += txEvery;
        }
        t = e.t;
        if (t >= phaseEnd)
        {
            // next phase: recovery after congestion, congestion after recovery
            congested = !congested;
            phaseEnd = t + int64_t(congested ? u->GetValue(100e3, 2e6) : u->GetValue(300e3, 5e6));
            cnpInterval = int64_t(u->GetValue(4e3, 100e3));
            nextCnp = t + 1;
            txEvery = int64_t(u->GetValue(1e3, 20e3));
            continue;
        }
        if (e.cnp)
        {
            feroce_rp_cnp(&st, &rules, e.t);
        }
        else
        {
            feroce_rp_tx(&st, &rules, e.t, e.bytes);
        }
        s.events.push_back(e);
        s.rc.push_back(st.cur.rc);
    }
    return s;
}

/// Largest and mean relative deviation of the fixed Rc over the scripts.
struct Deviation
{
    bool built{false};
    std::string refused; ///< why the format cannot hold these rules
    double max{0};       ///< of |fixed Rc - double Rc| / double Rc
    double mean{0};      ///< of the same
    double maxLine{0};   ///< of |fixed Rc - double Rc| / line rate
};

Deviation
Measure(const feroce_rp_params& rules,
        const feroce_rp_fixed_format& fmt,
        const std::vector<Script>& scripts)
{
    Deviation d;
    feroce_rp_fixed_params p;
    feroce_check why;
    if (feroce_rp_fixed_build(&p, &rules, &fmt, &why) != FEROCE_OK)
    {
        char msg[512];
        feroce_check_message(&why, msg, sizeof msg);
        d.refused = msg;
        return d;
    }
    d.built = true;
    double sum = 0;
    uint64_t rows = 0;
    for (const Script& s : scripts)
    {
        feroce_rp_fixed_state st;
        feroce_rp_fixed_init(&st, &p, 0);
        for (size_t i = 0; i < s.events.size(); i++)
        {
            const Event& e = s.events[i];
            int64_t cycle = feroce_rp_fixed_cycle_at(&p, e.t);
            if (e.cnp)
            {
                feroce_rp_fixed_cnp(&st, &p, cycle);
            }
            else
            {
                feroce_rp_fixed_tx(&st, &p, cycle, e.bytes);
            }
            double diff = std::fabs(feroce_rp_fixed_rate(&st, &p) - s.rc[i]);
            double dev = diff / s.rc[i];
            d.max = std::max(d.max, dev);
            d.maxLine = std::max(d.maxLine, diff / rules.line_rate_bps);
            sum += dev;
            rows++;
        }
    }
    d.mean = rows ? sum / double(rows) : 0;
    return d;
}

/// The widths of one preset and rounding: rate or alpha narrowed, the other kept wide.
struct Widths
{
    feroce_rp_fixed_format f;
    uint32_t wideRate;
    uint32_t wideAlpha;
    double tolerance;

    /// The smallest width (of the rate when rate, else of alpha) from which every wider one
    /// stays within the tolerance; a row per width into widths.
    uint32_t Smallest(std::ostream& widths,
                      const std::string& name,
                      const char* rname,
                      const feroce_rp_params& p,
                      const std::vector<Script>& set,
                      bool rate,
                      uint32_t lo,
                      uint32_t hi)
    {
        uint32_t smallest = 0;
        bool allPass = true;
        for (uint32_t w = hi + 1; w-- > lo;)
        {
            f.rate_bits = rate ? w : wideRate;
            f.alpha_bits = rate ? wideAlpha : w;
            if (f.rate_bits + f.alpha_bits > 62)
            {
                continue;
            }
            Deviation d = Measure(p, f, set);
            widths << name << ',' << rname << ',' << (rate ? "rate" : "alpha") << ',' << f.rate_bits
                   << ',' << f.alpha_bits << ',';
            if (d.built)
            {
                widths << std::setprecision(6) << d.max << ',' << d.mean << ',' << d.maxLine
                       << ",\n";
            }
            else
            {
                widths << ",,,\"" << d.refused << "\"\n";
            }
            allPass = allPass && d.built && d.max <= tolerance;
            if (allPass)
            {
                smallest = w;
            }
        }
        return smallest;
    }

    /// The two minima together, bumped until they pass (within the studied widths): the
    /// deviation, or NaN.
    double Combined(const feroce_rp_params& p,
                    const std::vector<Script>& set,
                    uint32_t& rateMin,
                    uint32_t& alphaMin,
                    uint32_t rateHi,
                    uint32_t alphaHi)
    {
        if (!rateMin || !alphaMin)
        {
            return NAN;
        }
        for (;;)
        {
            f.rate_bits = rateMin;
            f.alpha_bits = alphaMin;
            Deviation d = Measure(p, f, set);
            if (d.built && d.max <= tolerance)
            {
                return d.max;
            }
            if (rateMin >= rateHi && alphaMin >= alphaHi)
            {
                return NAN;
            }
            rateMin = std::min(rateMin + 1, rateHi);
            alphaMin = std::min(alphaMin + 1, alphaHi);
        }
    }
};

/// A width flag: lo:hi within min:max (the front door expands it; a list must be one run).
void
AddWidths(FeroceCommandLine& cmd,
          const std::string& name,
          const std::string& help,
          std::vector<uint32_t>& widths,
          const std::string& lohi,
          uint32_t min,
          uint32_t max)
{
    cmd.AddList(name, help, widths, lohi)
        .Range(min, max)
        .CheckAll([](const std::vector<uint32_t>& w) {
            bool run = !w.empty() && w.back() - w.front() + 1 == w.size();
            for (std::size_t i = 1; run && i < w.size(); i++)
            {
                run = w[i] == w[i - 1] + 1;
            }
            return run ? "" : "lo:hi";
        })
        .Allowed("lo:hi within " + std::to_string(min) + ":" + std::to_string(max));
}

/// Every preset's rules, each valid in the format at its widest: "" or why not.
std::string
PresetRules(const std::vector<std::string>& presets,
            DataRate lineRate,
            const feroce_rp_fixed_format& base,
            uint32_t wideRate,
            uint32_t wideAlpha,
            std::vector<std::pair<std::string, feroce_rp_params>>& rules)
{
    for (const std::string& name : presets)
    {
        feroce_rp_params p;
        feroce_check why;
        feroce_rp_preset(&p, name.c_str(), double(lineRate.GetBitRate()), &why);
        feroce_rp_fixed_format wide = base;
        wide.rate_bits = wideRate;
        wide.alpha_bits = wideAlpha;
        feroce_rp_fixed_params fp;
        if (feroce_rp_fixed_build(&fp, &p, &wide, &why) != FEROCE_OK)
        {
            char msg[512];
            feroce_check_message(&why, msg, sizeof msg);
            return std::string("--wideRate/--wideAlpha/--clockHz for ") + name + ": " + msg;
        }
        rules.emplace_back(name, p);
    }
    return "";
}

} // namespace

int
main(int argc, char* argv[])
{
    std::vector<std::string> presets;
    std::vector<std::string> roundings;
    DataRate lineRate("10Gbps");
    uint32_t scripts = 300;
    uint32_t events = 400;
    std::vector<uint32_t> rateBits;
    std::vector<uint32_t> alphaBits;
    uint32_t wideRate = 32;
    uint32_t wideAlpha = 28;
    double tolerance = 1e-3;
    uint64_t clockHz = 1000000000;
    std::string outdir = "results/fixed-point-widths";

    FeroceCommandLine cmd("fixed-point-widths",
                          "fixed-point-widths: the register widths a firmware DCQCN needs");
    cmd.AddList("presets",
                "Comma-separated DCQCN presets: paper, connectx, hpcc",
                presets,
                "paper,connectx,hpcc")
        .Check([](const std::string& p) {
            return p == "paper" || p == "connectx" || p == "hpcc" ? "" : "paper, connectx or hpcc";
        });
    cmd.AddList("roundings",
                "Comma-separated roundings: truncate, nearest",
                roundings,
                "truncate,nearest")
        .Check([](const std::string& r) {
            return r == "truncate" || r == "nearest" ? "" : "truncate or nearest";
        });
    cmd.AddValue("lineRate", "Line rate of the QP", lineRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL));
    cmd.AddValue("scripts", "Random scripts per preset", scripts).Range(1, 100000);
    cmd.AddValue("events", "Events per script", events).Range(1, 1000000);
    AddWidths(cmd, "rateBits", "Rate widths to study, lo:hi", rateBits, "8:34", 2, 48);
    AddWidths(cmd, "alphaBits", "Alpha widths to study, lo:hi", alphaBits, "4:30", 1, 31);
    cmd.AddValue("wideRate", "Rate width while alpha widths are studied", wideRate).Range(2, 48);
    cmd.AddValue("wideAlpha", "Alpha width while rate widths are studied", wideAlpha).Range(1, 31);
    cmd.AddValue("tolerance", "Largest relative deviation of Rc accepted", tolerance)
        .Check([](const double& t) { return t > 0 && t < 1 ? "" : "(0, 1)"; });
    cmd.AddValue("clockHz", "Clock of the fixed-point rate limiter", clockHz)
        .Range(1, 100000000000ULL);
    cmd.AddValue("outdir", "Output directory", outdir).Check([](const std::string& d) {
        return d.empty() ? "a folder" : "";
    });
    cmd.Uses({}); // builds no ns-3 object: every --ns3:: is refused
    if (!cmd.Parse(argc, argv))
    {
        return cmd.GetExitCode();
    }
    auto reject = [&cmd](const std::string& what) { return cmd.Reject(what); };
    uint32_t rateLo = rateBits.front();
    uint32_t rateHi = rateBits.back();
    uint32_t alphaLo = alphaBits.front();
    uint32_t alphaHi = alphaBits.back();
    std::vector<feroce_rounding> modes;
    for (const std::string& r : roundings)
    {
        modes.push_back(r == "nearest" ? FEROCE_ROUND_NEAREST : FEROCE_ROUND_TRUNCATE);
    }
    feroce_rp_fixed_format base;
    feroce_rp_fixed_format_preset(&base, "default", nullptr);
    base.clock_hz = clockHz;
    std::vector<std::pair<std::string, feroce_rp_params>> rules;
    std::string error = PresetRules(presets, lineRate, base, wideRate, wideAlpha, rules);
    if (!error.empty())
    {
        return reject(error);
    }

    // the files are published together at the end: a failed run leaves none
    FeroceRunOutput output(cmd.GetProgram(), outdir, "none");
    std::string leftover;
    error = output.Check({"widths.csv", "minimum.csv"});
    error = error.empty() ? output.Begin(&leftover) : error;
    if (!error.empty())
    {
        return reject(error);
    }
    std::ofstream widths(output.GetPath("widths.csv"));
    std::ofstream minimum(output.GetPath("minimum.csv"));
    widths << "preset,rounding,sweep,rate_bits,alpha_bits,max_rel_dev,mean_rel_dev,max_dev_of_line,"
              "refused\n";
    minimum << "preset,rounding,min_rate_bits,min_alpha_bits,combined_max_rel_dev,tolerance\n";
    std::cout << std::left << std::setw(10) << "preset" << std::setw(10) << "rounding"
              << std::setw(11) << "rate_bits" << std::setw(12) << "alpha_bits"
              << "max |dev| at both minima\n";

    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(0);
    for (const auto& [name, p] : rules)
    {
        std::vector<Script> set;
        set.reserve(scripts);
        for (uint32_t i = 0; i < scripts; i++)
        {
            set.push_back(MakeScript(p, u, events));
        }
        for (feroce_rounding mode : modes)
        {
            const char* rname = feroce_rounding_name(mode);
            feroce_rp_fixed_format f = base;
            f.rate_rounding = mode;
            f.alpha_rounding = mode;
            Widths w{f, wideRate, wideAlpha, tolerance};
            uint32_t rateMin = w.Smallest(widths, name, rname, p, set, true, rateLo, rateHi);
            uint32_t alphaMin = w.Smallest(widths, name, rname, p, set, false, alphaLo, alphaHi);
            double combined = w.Combined(p, set, rateMin, alphaMin, rateHi, alphaHi);
            minimum << name << ',' << rname << ',' << rateMin << ',' << alphaMin << ','
                    << std::setprecision(6) << combined << ',' << tolerance << '\n';
            std::cout << std::left << std::setw(10) << name << std::setw(10) << rname
                      << std::setw(11) << rateMin << std::setw(12) << alphaMin
                      << std::setprecision(3) << combined << '\n';
        }
    }
    widths.close();
    minimum.close();
    int64_t id = 0;
    error = widths && minimum ? output.Publish(nullptr, &id) : "cannot write into " + outdir;
    if (!error.empty())
    {
        std::cerr << "fixed-point-widths: " << error << std::endl;
        output.Cleanup();
        return 1;
    }
    std::cout << "wrote " << outdir << "/{widths.csv,minimum.csv}" << std::endl;
    return 0;
}
