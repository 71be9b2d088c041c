/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Any fabric, any workload: the flows of a flow file, or drawn from a size CDF at a load (and an
// incast overlay), on a topology file, each flow on its own queue pair; what each flow's
// completion time is against its time alone on its path (the slowdown), by flow size.
//
//   feroce-topo fat-tree --k=4 > fat_k4.topo
//   feroce-fabric --topology=fat_k4.topo --cdf=examples/cdf/WebSearch.txt --load=0.5
//       --duration=20ms --trafficStop=10ms --preset=hpcc
//   feroce-fabric --config=mix/config_fat_k4_ws50_dcqcn.txt       (the HPCC simulator's run)
//
// Writes into --outdir: fct.csv (every flow that ended: nodes, size, start, FCT, standalone FCT,
// slowdown), fct.txt (the HPCC simulator's columns, for its scripts), fct-bins.csv (slowdown
// p50/p95/p99 per size bin: the peers' bins of a share of the flows, and decades of size, for
// background and incast flows apart), unfinished.csv (flows still running at the end), pfc.csv
// and pfc.txt (every PAUSE and XON a switch sent), goodput.csv, metrics.txt; one row into --db.
// The picture: plots/fabric-slowdown.gp.  Formats and rules: src/feroce/doc/fabric.md.

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/feroce-cdf.h"
#include "ns3/feroce-fabric-helper.h"
#include "ns3/feroce-fct-recorder.h"
#include "ns3/feroce-flows.h"
#include "ns3/feroce-hpcc-config.h"
#include "ns3/feroce-study.h"
#include "ns3/feroce-text.h"
#include "ns3/feroce-topo.h"
#include "ns3/feroce-traffic.h"
#include "ns3/network-module.h"
#include "ns3/roce-flow-app.h"
#include "ns3/roce-helper.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// The value of --NAME= among the arguments ("" if absent): a file that sets other flags' values
/// beneath them (the configuration's stop time is --duration's) is read before the flags are.
std::string
Peek(int argc, char** argv, const std::string& name)
{
    std::string key = "--" + name + "=";
    std::string value;
    for (int i = 1; i < argc; i++)
    {
        if (std::strncmp(argv[i], key.c_str(), key.size()) == 0)
        {
            value = argv[i] + key.size();
        }
    }
    return value;
}

/// Whether the user gave the attribute (--ns3::T::A=) on the command line.
bool
AttributeGiven(int argc, char** argv, const std::string& attribute)
{
    std::string key = "--" + attribute + "=";
    for (int i = 1; i < argc; i++)
    {
        if (std::strncmp(argv[i], key.c_str(), key.size()) == 0)
        {
            return true;
        }
    }
    return false;
}

/// The nodes of these roles ("host,board,receiver"), in order; "" or what is wrong.
std::string
NodesOfRoles(const feroce_topo& t, const std::string& roles, std::vector<uint32_t>* nodes)
{
    bool want[FEROCE_ROLE_COUNT] = {};
    std::stringstream in(roles);
    std::string role;
    while (std::getline(in, role, ','))
    {
        int r = 0;
        while (r < FEROCE_ROLE_SWITCH && role != feroce_role_name(feroce_role(r)))
        {
            r++;
        }
        if (r == FEROCE_ROLE_SWITCH)
        {
            return "role " + role + " is not allowed: expected host, board or receiver";
        }
        want[r] = true;
    }
    for (uint32_t n = 0; n < t.n_nodes; n++)
    {
        if (want[t.nodes[n].role])
        {
            nodes->push_back(n);
        }
    }
    return nodes->empty() ? "no node of " + std::string(t.path) + " has the role " + roles : "";
}

/// HPCC's window: the largest bandwidth-delay product over host pairs, its base RTT counting one
/// payload's serialization per hop (third.cc: maxBdp).
uint64_t
LargestBdp(const FeroceFabric& fabric, uint32_t payload)
{
    std::vector<uint32_t> hosts = fabric.Hosts();
    uint64_t best = 0;
    std::vector<feroce_hop> fwd;
    std::vector<feroce_hop> rev;
    for (uint32_t a : hosts)
    {
        for (uint32_t b : hosts)
        {
            if (a == b)
            {
                continue;
            }
            fabric.Path(a, b, 0xc000, &fwd, &rev);
            double rtt = 0;
            uint64_t bw = UINT64_MAX;
            for (const feroce_hop& h : fwd)
            {
                rtt += 2.0 * double(h.delay_ns) + double(payload) * 8e9 / double(h.bps);
                bw = std::min(bw, h.bps);
            }
            best = std::max(best, uint64_t(rtt * double(bw) / 8e9));
        }
    }
    return best;
}

/// Writes each switch's PAUSE and XON into pfc.csv (by name) and pfc.txt (the HPCC simulator's
/// "time_ns node_id node_type if_index type": type 1 pause, 0 resume).
struct PfcLog
{
    std::ofstream* csv;
    std::ofstream* txt;
    const feroce_topo* topo;
    uint64_t pauses{0};
};

void
PauseSent(PfcLog* log, uint32_t node, uint32_t port, uint8_t prio, uint16_t quanta)
{
    int64_t now = Simulator::Now().GetNanoSeconds();
    *log->csv << now << "," << log->topo->nodes[node].name << "," << port << "," << unsigned(prio)
              << "," << quanta << "\n";
    *log->txt << now << " " << node << " 1 " << port << " " << (quanta ? 1 : 0) << "\n";
    log->pauses += quanta ? 1 : 0;
}

/// One uniform stream of the run for a random source of the traffic.
double
Uniform(void* ctx)
{
    return static_cast<UniformRandomVariable*>(ctx)->GetValue();
}

} // namespace

int
main(int argc, char* argv[])
{
    // inputs
    std::string topologyFile;
    std::string flowsFile;
    std::string configFile;
    std::string cdfFile;
    double load = 0;
    std::string pairs = "random";
    Time trafficStart(0);
    Time trafficStop(0);
    uint64_t maxFlows = 0;
    std::string senderRoles = "host,board,receiver";
    std::string receiverRoles = "host,board,receiver";
    uint32_t incast = 0;
    uint64_t incastSize = 65536;
    Time incastPeriod = MicroSeconds(100);
    double incastLoad = 0;
    std::string incastReceiver;
    bool incastPoisson = false;
    Time incastStart(0);
    Time incastStop(0);
    // the NICs and switches
    bool dcqcn = true;
    std::string preset = "paper";
    bool pfc = true;
    bool ecn = true;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    uint64_t bufferSize = 12000000;
    uint32_t pmtu = 1024;
    // outputs
    uint32_t fctStep = 5;
    std::string saveFlows = "none";
    bool paths = false;
    uint64_t ecmpSeed = 1;

    // a configuration's stop time is --duration's default
    std::string durationDefault = "10ms";
    feroce_hpcc_config config{};
    std::string configError;
    std::string configPath = Peek(argc, argv, "config");
    char err[1024];
    if (!configPath.empty())
    {
        if (feroce_hpcc_config_read(configPath.c_str(), &config, err, sizeof err) != 0)
        {
            configError = err;
        }
        else if (config.stop_ns >= 0)
        {
            durationDefault = std::to_string(config.stop_ns) + "ns";
        }
    }
    Time duration;
    FeroceStudy::ParseTime(durationDefault, duration);
    FeroceStudy study("feroce-fabric", "results/feroce-fabric", duration, MilliSeconds(1), Time(0));
    study.AddFlag("topology",
                  "Topology file: feroce's (feroce-topology 1) or the HPCC simulator's (N S L)",
                  topologyFile);
    study.AddFlag(
        "flows",
        "Flow file: feroce's (feroce-flows 1) or the HPCC simulator's (count, then src dst "
        "pg dport size start_s)",
        flowsFile);
    study.AddFlag("config",
                  "The HPCC simulator's configuration (KEY value): its topology, flows, DCQCN, ECN "
                  "and buffer settings, beneath the flags",
                  configFile);
    study.AddFlag("cdf", "Flow sizes for drawn flows: a CDF file (SIZE P per line)", cdfFile);
    study.AddFlag("load",
                  "Drawn flows: Poisson arrivals at this fraction of each sender's link (0: none)",
                  load);
    study.AddFlag("pairs", "Drawn flows' destinations: random or permutation", pairs);
    study.AddFlag("trafficStart", "Drawn flows start at or after this time", trafficStart);
    study.AddFlag("trafficStop", "... and before this time (0: --duration)", trafficStop);
    study.AddFlag("maxFlows", "At most this many flows in all (0: no limit)", maxFlows);
    study.AddFlag("senders",
                  "Roles that send drawn and incast flows (host, board, receiver)",
                  senderRoles);
    study.AddFlag("receivers", "Roles that receive them", receiverRoles);
    study.AddFlag("incast", "Incast overlay: senders per incast (0: none)", incast);
    study.AddFlag("incastSize", "Incast: bytes each sender sends", incastSize);
    study.AddFlag("incastPeriod", "Incast: time between incasts", incastPeriod);
    study.AddFlag("incastLoad",
                  "Incast: the period that loads the receiver's link to this fraction (0: "
                  "--incastPeriod)",
                  incastLoad);
    study.AddFlag("incastReceiver",
                  "Incast: the receiving node (empty: drawn for each incast)",
                  incastReceiver);
    study.AddFlag("incastPoisson", "Incast: exponential gaps of mean the period", incastPoisson);
    study.AddFlag("incastStart", "Incast: the first at this time", incastStart);
    study.AddFlag("incastStop", "Incast: none from this time (0: --duration)", incastStop);
    study.AddFlag("dcqcn", "DCQCN on the NICs", dcqcn, "ns3::RoceNic::DcqcnEnabled");
    study.AddFlag("preset",
                  "DCQCN preset: paper, connectx or hpcc",
                  preset,
                  "ns3::RoceNic::DcqcnPreset");
    study.AddFlag("pfc", "PFC on the switches", pfc, "ns3::FeroceSwitch::PfcEnabled");
    study.AddFlag("ecn", "ECN marking on the switches", ecn, "ns3::FeroceSwitch::EcnEnabled");
    study.AddFlag("kmin", "ECN Kmin bytes (every switch)", kmin, "ns3::FeroceSwitch::Kmin");
    study.AddFlag("kmax", "ECN Kmax bytes (every switch)", kmax, "ns3::FeroceSwitch::Kmax");
    study.AddFlag("pmax", "ECN Pmax (every switch)", pmax, "ns3::FeroceSwitch::Pmax");
    study.AddFlag("bufferSize",
                  "Buffer bytes of each switch",
                  bufferSize,
                  "ns3::FeroceSwitch::BufferSize");
    study.AddFlag("pmtu",
                  "Path MTU: 256, 512, 1024, 2048 or 4096",
                  pmtu,
                  "ns3::RoceQueuePair::Pmtu");
    study.AddFlag("ecmpSeed",
                  "ECMP: each switch hashes with a seed of its own drawn from this one (0: every "
                  "switch alike, as before FeroceSwitch's EcmpSeed)",
                  ecmpSeed);
    study.AddFlag("paths", "fct.csv: the switches each flow's data crossed", paths);
    study.AddFlag("fctStep", "Slowdown bins: percent of the flows in each (1..100)", fctStep);
    study.AddFlag("saveFlows",
                  "Write the flows as they start into flows.txt: none, feroce or hpcc (format)",
                  saveFlows);
    if (!study.Parse(argc, argv))
    {
        feroce_hpcc_config_free(&config);
        return study.GetExitCode();
    }
    std::unique_ptr<feroce_hpcc_config, void (*)(feroce_hpcc_config*)> configGuard(
        &config,
        feroce_hpcc_config_free);
    if (!configError.empty())
    {
        return study.Reject(configError);
    }
    duration = study.GetDuration();
    if (trafficStop.IsZero())
    {
        trafficStop = duration;
    }
    if (incastStop.IsZero())
    {
        incastStop = duration;
    }

    // the topology and the flows: the flags' files, else the configuration's
    if (topologyFile.empty() && config.topology)
    {
        topologyFile = config.topology;
    }
    if (flowsFile.empty() && config.flows)
    {
        flowsFile = config.flows;
    }
    if (topologyFile.empty())
    {
        return study.Reject("--topology= is not allowed: expected a topology file (or --config= "
                            "naming one)");
    }
    if (flowsFile.empty() && load == 0 && incast == 0)
    {
        return study.Reject("no flows: expected --flows=FILE, --cdf=FILE with --load=F, or "
                            "--incast=N");
    }
    if (!(load >= 0 && load <= 1))
    {
        return study.RejectFlag("load", "0 <= load <= 1 (a fraction of each sender's link)");
    }
    if (load > 0 && cdfFile.empty())
    {
        return study.RejectFlag("load", "0 without --cdf (drawn flows need their sizes)");
    }
    if (pairs != "random" && pairs != "permutation")
    {
        return study.RejectFlag("pairs", "random or permutation");
    }
    if (fctStep < 1 || fctStep > 100)
    {
        return study.RejectFlag("fctStep", "1..100 (percent of the flows per bin)");
    }
    if (saveFlows != "none" && saveFlows != "feroce" && saveFlows != "hpcc")
    {
        return study.RejectFlag("saveFlows", "none, feroce or hpcc");
    }
    if (preset != "paper" && preset != "connectx" && preset != "hpcc")
    {
        return study.RejectFlag("preset", "paper, connectx or hpcc");
    }
    if (!(incastLoad >= 0 && incastLoad <= 1))
    {
        return study.RejectFlag("incastLoad",
                                "0 <= incastLoad <= 1 (a fraction of the receiver's link)");
    }
    if (trafficStart.IsStrictlyNegative() || trafficStop < trafficStart)
    {
        return study.RejectFlag("trafficStop", "at or after --trafficStart, which is >= 0");
    }
    feroce_topo topo;
    if (feroce_topo_read(topologyFile.c_str(), &topo, err, sizeof err) != 0)
    {
        return study.Reject(err);
    }
    std::unique_ptr<feroce_topo, void (*)(feroce_topo*)> topoGuard(&topo, feroce_topo_free);
    feroce_flow_list fileFlows{};
    std::unique_ptr<feroce_flow_list, void (*)(feroce_flow_list*)> flowsGuard(
        &fileFlows,
        feroce_flow_list_free);
    if (!flowsFile.empty() &&
        feroce_flows_read(flowsFile.c_str(), &topo, &fileFlows, err, sizeof err) != 0)
    {
        return study.Reject(err);
    }
    feroce_cdf cdf{};
    std::unique_ptr<feroce_cdf, void (*)(feroce_cdf*)> cdfGuard(&cdf, feroce_cdf_free);
    if (!cdfFile.empty() && feroce_cdf_read(cdfFile.c_str(), &cdf, err, sizeof err) != 0)
    {
        return study.Reject(err);
    }
    if (config.link_down_line)
    {
        return study.Reject(
            std::string(config.path) + ":" + std::to_string(config.link_down_line) +
            ": LINK_DOWN is not allowed yet: feroce's links go down with issue 27's "
            "FeroceChannel::ScheduleDown; expected 0 0 0");
    }
    for (std::size_t i = 0; i < config.n_warnings; i++)
    {
        std::cerr << "feroce-fabric: warning: " << config.warnings[i] << std::endl;
    }

    // every setting beneath the user's: a flag or --ns3:: given wins over the files, which win
    // over the program's defaults
    std::map<std::string, std::string> flagOf = {
        {"ns3::RoceNic::DcqcnEnabled", "dcqcn"},
        {"ns3::RoceNic::DcqcnPreset", "preset"},
        {"ns3::FeroceSwitch::PfcEnabled", "pfc"},
        {"ns3::FeroceSwitch::EcnEnabled", "ecn"},
        {"ns3::FeroceSwitch::Kmin", "kmin"},
        {"ns3::FeroceSwitch::Kmax", "kmax"},
        {"ns3::FeroceSwitch::Pmax", "pmax"},
        {"ns3::FeroceSwitch::BufferSize", "bufferSize"},
        {"ns3::RoceQueuePair::Pmtu", "pmtu"},
    };
    auto given = [&](const std::string& attribute) {
        auto flag = flagOf.find(attribute);
        return AttributeGiven(argc, argv, attribute) ||
               (flag != flagOf.end() && study.IsGiven(flag->second));
    };
    std::map<std::string, std::pair<std::string, std::string>> fromFile; // attr -> value, where
    for (std::size_t i = 0; i < config.n_settings; i++)
    {
        const feroce_setting& s = config.settings[i];
        fromFile[s.key] = {s.value, std::string(config.path) + ":" + std::to_string(s.line)};
    }
    if (configPath.size())
    {
        // a DCQCN run of the HPCC simulator: its reaction point, beneath the keys
        fromFile["ns3::RoceNic::DcqcnPreset"] = {"hpcc", configPath};
    }
    // ECN thresholds by link rate (KMIN_MAP, KMAX_MAP, PMAX_MAP): each switch port takes its
    // rate's (FeroceSwitch::EcnByRate); every rate of a switch port needs its entry in each map
    const feroce_rate_map* maps[] = {&config.kmin, &config.kmax, &config.pmax};
    const char* mapNames[] = {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"};
    if (config.kmin.line || config.kmax.line || config.pmax.line)
    {
        std::set<uint64_t> switchRates;
        for (std::size_t l = 0; l < topo.n_links; l++)
        {
            if (feroce_topo_is_switch(&topo, topo.links[l].a) ||
                feroce_topo_is_switch(&topo, topo.links[l].b))
            {
                switchRates.insert(topo.links[l].rate_bps);
            }
        }
        std::ostringstream byRate;
        byRate.precision(17);
        for (uint64_t rate : switchRates)
        {
            double v[3];
            for (int m = 0; m < 3; m++)
            {
                if (!feroce_rate_map_get(maps[m], rate, &v[m]))
                {
                    return study.Reject(std::string(config.path) + ":" +
                                        std::to_string(maps[m]->line ? maps[m]->line : 0) + ": " +
                                        mapNames[m] + " has no entry for the switch ports of " +
                                        std::to_string(rate) +
                                        " bps: expected one for every link rate of the topology");
                }
            }
            byRate << (byRate.tellp() > 0 ? "," : "") << rate << "bps:" << uint64_t(v[0]) << ":"
                   << uint64_t(v[1]) << ":" << v[2];
        }
        fromFile["ns3::FeroceSwitch::EcnByRate"] = {byRate.str(), config.path};
    }
    // the program's defaults, then the files', then the user's
    std::map<std::string, std::string> mine = {
        {"ns3::RoceNic::DcqcnEnabled", dcqcn ? "true" : "false"},
        {"ns3::RoceNic::DcqcnPreset", preset},
        {"ns3::FeroceSwitch::PfcEnabled", pfc ? "true" : "false"},
        {"ns3::FeroceSwitch::EcnEnabled", ecn ? "true" : "false"},
        {"ns3::FeroceSwitch::Kmin", std::to_string(kmin)},
        {"ns3::FeroceSwitch::Kmax", std::to_string(kmax)},
        {"ns3::FeroceSwitch::Pmax", FeroceCommandLine::Format(pmax)},
        {"ns3::FeroceSwitch::BufferSize", std::to_string(bufferSize)},
        {"ns3::RoceQueuePair::Pmtu", std::to_string(pmtu)},
        // a switch of several link rates: each port's headroom for its own link
        {"ns3::FeroceSwitch::HeadroomPerPort", "true"},
    };
    for (const auto& f : fromFile)
    {
        if (!given(f.first))
        {
            mine[f.first] = f.second.first;
        }
    }
    for (const auto& m : mine)
    {
        if (AttributeGiven(argc, argv, m.first))
        {
            continue; // already the default, from the command line
        }
        if (!Config::SetDefaultFailSafe(m.first, StringValue(m.second)))
        {
            auto f = fromFile.find(m.first);
            std::string where = f != fromFile.end() ? f->second.second + ": " : "";
            return study.Reject(where + m.first + " = " + m.second + " is not allowed");
        }
    }
    if (config.error_rate > 0)
    {
        for (std::size_t l = 0; l < topo.n_links; l++)
        {
            if (topo.links[l].error_rate == 0)
            {
                topo.links[l].error_rate = config.error_rate;
            }
        }
    }

    // the fabric
    RoceHelper helper;
    FeroceFabric fabric;
    std::string error = FeroceFabricHelper::Build(helper, topo, &fabric, given, ecmpSeed);
    if (error.empty())
    {
        error = fabric.Validate();
    }
    if (!error.empty())
    {
        return study.Reject(error);
    }
    if (config.has_window && !given("ns3::RoceQueuePair::MaxUnackedBytes"))
    {
        uint64_t bdp = LargestBdp(fabric, config.payload ? config.payload : 1000);
        for (Ptr<RoceNic> nic : fabric.nics)
        {
            if (nic)
            {
                nic->SetQueuePairAttribute("MaxUnackedBytes", UintegerValue(bdp));
            }
        }
    }

    // the traffic: the file's flows, drawn flows, incasts, merged in start order
    std::vector<uint32_t> senders;
    std::vector<uint32_t> receivers;
    if (load > 0 || incast > 0)
    {
        error = NodesOfRoles(topo, senderRoles, &senders);
        if (error.empty())
        {
            error = NodesOfRoles(topo, receiverRoles, &receivers);
        }
        if (!error.empty())
        {
            return study.Reject(error);
        }
    }
    feroce_traffic* traffic = feroce_traffic_new(&topo,
                                                 senders.data(),
                                                 senders.size(),
                                                 receivers.data(),
                                                 receivers.size());
    std::unique_ptr<feroce_traffic, void (*)(feroce_traffic*)> trafficGuard(traffic,
                                                                            feroce_traffic_free);
    if (fileFlows.n)
    {
        feroce_traffic_add_list(traffic, &fileFlows);
    }
    // a stream each, after the fabric's: the background stays when an incast is added
    Ptr<UniformRandomVariable> background = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> incasts = CreateObject<UniformRandomVariable>();
    if (load > 0)
    {
        feroce_poisson p{&cdf,
                         load,
                         pairs == "permutation" ? FEROCE_PAIRS_PERMUTATION : FEROCE_PAIRS_RANDOM,
                         trafficStart.GetNanoSeconds(),
                         trafficStop.GetNanoSeconds(),
                         3};
        if (feroce_traffic_add_poisson(traffic,
                                       &p,
                                       {Uniform, PeekPointer(background)},
                                       err,
                                       sizeof err) != 0)
        {
            return study.Reject(err);
        }
    }
    if (incast > 0)
    {
        int receiver = -1;
        if (!incastReceiver.empty())
        {
            receiver = feroce_topo_find(&topo, incastReceiver.c_str());
            if (receiver < 0)
            {
                return study.RejectFlag("incastReceiver", "a node of " + topologyFile);
            }
        }
        int64_t period = incastPeriod.GetNanoSeconds();
        if (incastLoad > 0)
        {
            // the receiver's link (the drawn one's: the first receiver's rate)
            std::vector<uint32_t> links(topo.n_nodes);
            feroce_topo_host_links(&topo, links.data());
            uint32_t rx = receiver >= 0 ? uint32_t(receiver) : receivers[0];
            double bps = double(topo.links[links[rx]].rate_bps);
            period = int64_t(double(incast) * double(incastSize) * 8e9 / (incastLoad * bps));
        }
        feroce_incast in{incast,
                         incastSize,
                         period,
                         incastPoisson,
                         incastStart.GetNanoSeconds(),
                         incastStop.GetNanoSeconds(),
                         receiver,
                         3};
        if (feroce_traffic_add_incast(traffic,
                                      &in,
                                      {Uniform, PeekPointer(incasts)},
                                      err,
                                      sizeof err) != 0)
        {
            return study.Reject(err);
        }
    }
    feroce_traffic_set_limit(traffic, maxFlows);
    int64_t stream = 1 + helper.AssignStreams(1);
    stream += fabric.AssignStreams(stream);
    background->SetStream(stream++);
    incasts->SetStream(stream++);

    // the outputs, written as the run goes
    std::ofstream fctCsv = study.OpenOutput("fct.csv");
    std::ofstream fctTxt = study.OpenOutput("fct.txt");
    std::ofstream pfcCsv = study.OpenOutput("pfc.csv");
    std::ofstream pfcTxt = study.OpenOutput("pfc.txt");
    pfcCsv << "t_ns,switch,port,priority,quanta\n";
    PfcLog pfcLog{&pfcCsv, &pfcTxt, &topo};
    for (uint32_t n = 0; n < fabric.switches.size(); n++)
    {
        if (fabric.switches[n])
        {
            fabric.switches[n]->TraceConnectWithoutContext(
                "Pause",
                MakeBoundCallback(&PauseSent, &pfcLog, n));
        }
    }
    // the flows as they start (the HPCC format's count goes first: written at the end)
    FILE* savedFile = nullptr;
    std::string savedPath = study.GetPath(saveFlows == "hpcc" ? "flows-body.tmp" : "flows.txt");
    if (saveFlows != "none")
    {
        savedFile = std::fopen(savedPath.c_str(), "w");
        if (!savedFile)
        {
            return study.Reject("cannot write " + savedPath + ": " + std::strerror(errno));
        }
        if (saveFlows == "feroce")
        {
            feroce_flows_write_header(savedFile, FEROCE_FLOWS_FEROCE, 0);
        }
    }
    uint64_t savedCount = 0;
    feroce_flows_format savedFormat = saveFlows == "hpcc" ? FEROCE_FLOWS_HPCC : FEROCE_FLOWS_FEROCE;

    Ptr<RoceFlowApp> app = CreateObject<RoceFlowApp>();
    app->SetNics(fabric.nics);
    app->SetSource([&](feroce_flow& f) {
        if (feroce_traffic_next(traffic, &f) != 1)
        {
            return false;
        }
        if (savedFile)
        {
            feroce_flows_write(savedFile, savedFormat, &topo, &f);
            savedCount++;
        }
        return true;
    });
    FeroceFctRecorder recorder(fabric, &fctCsv, &fctTxt, paths);
    recorder.Attach(app);
    app->Start();
    study.AddFlow(
        "fabric",
        [&recorder, app]() {
            uint64_t bytes = recorder.GetCompletedBytes();
            app->ForEachActive(
                [&bytes](uint64_t, const feroce_flow&, uint64_t received) { bytes += received; });
            return bytes;
        },
        Time(0),
        duration);
    if (study.GetPcap())
    {
        helper.EnablePcapAll(study.GetPath("feroce-fabric"));
    }
    if (!study.Run())
    {
        return study.GetExitCode();
    }
    uint64_t events = Simulator::GetEventCount();

    // after the run: the flows still running, the bins, the metrics
    std::ofstream unfinished = study.OpenOutput("unfinished.csv");
    unfinished << "id,src,dst,kind,size_bytes,start_ns,received_bytes\n";
    app->ForEachActive([&](uint64_t id, const feroce_flow& f, uint64_t received) {
        unfinished << id << "," << topo.nodes[f.src].name << "," << topo.nodes[f.dst].name << ","
                   << feroce_flow_kind_name(feroce_flow_kind(f.kind)) << "," << f.size << ","
                   << f.start_ns << "," << received << "\n";
    });
    study.OpenOutput("fct-bins.csv").close(); // listed with the outputs, written by the recorder
    if (!recorder.WriteBins(study.GetPath("fct-bins.csv"), fctStep))
    {
        std::cerr << "feroce-fabric: cannot write fct-bins.csv" << std::endl;
        return 1;
    }
    fctCsv.close();
    fctTxt.close();
    pfcCsv.close();
    pfcTxt.close();
    if (savedFile)
    {
        std::fclose(savedFile);
        if (saveFlows == "hpcc")
        {
            // the count first, as the peer reads it
            std::ifstream body(savedPath);
            std::ofstream out = study.OpenOutput("flows.txt");
            out << savedCount << "\n" << body.rdbuf();
            body.close();
            std::remove(savedPath.c_str());
        }
    }
    for (const auto& m : recorder.GetMetrics())
    {
        study.AddMetric(m.first, m.second);
    }
    uint64_t drops = 0;
    uint64_t marks = 0;
    for (Ptr<FeroceSwitch> sw : fabric.switches)
    {
        if (sw)
        {
            drops += sw->GetCounters().TotalDrops();
            marks += sw->GetCounters().ecnMarks;
        }
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    study.AddMetric("pause_frames", double(pfcLog.pauses));
    study.AddMetric("drops", double(drops));
    study.AddMetric("ecn_marks", double(marks));
    study.AddMetric("sim_events", double(events));
    study.AddMetric("peak_rss_mb", double(ru.ru_maxrss) / 1024);
    Simulator::Destroy();
    return study.Finish();
}
