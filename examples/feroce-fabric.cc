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

#include "ns3/core-module.h"
#include "ns3/feroce-cdf.h"
#include "ns3/feroce-fabric-helper.h"
#include "ns3/feroce-fct-recorder.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-flows.h"
#include "ns3/feroce-hpcc-config.h"
#include "ns3/feroce-study.h"
#include "ns3/feroce-topo.h"
#include "ns3/feroce-traffic.h"
#include "ns3/network-module.h"
#include "ns3/roce-flow-app.h"
#include "ns3/roce-helper.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// The study's own flags (the NICs' and switches' are DcqcnSwitchFlags').
struct FabricFlags
{
    std::string topology;
    std::string flows;
    std::string config;
    std::string cdf;
    double load{0};
    std::string pairs{"random"};
    Time trafficStart{0};
    Time trafficStop{0};
    uint64_t maxFlows{0};
    std::string senders{"host,board,receiver"};
    std::string receivers{"host,board,receiver"};
    uint32_t incast{0};
    uint64_t incastSize{65536};
    Time incastPeriod{MicroSeconds(100)};
    double incastLoad{0};
    std::string incastReceiver;
    bool incastPoisson{false};
    Time incastStart{0};
    Time incastStop{0};
    uint32_t pmtu{1024};
    uint64_t ecmpSeed{1};
    bool paths{false};
    uint32_t fctStep{5};
    std::string saveFlows{"none"};
    DcqcnSwitchFlags fabric;

    void AddTo(FeroceStudy& study);
};

/// "" if roles is a comma-separated list of host, board and receiver.
std::string
CheckRoles(const std::string& roles)
{
    std::stringstream in(roles);
    std::string role;
    while (std::getline(in, role, ','))
    {
        if (role != "host" && role != "board" && role != "receiver")
        {
            return "host, board or receiver, comma-separated";
        }
    }
    return roles.empty() ? "host, board or receiver, comma-separated" : "";
}

void
FabricFlags::AddTo(FeroceStudy& study)
{
    study
        .AddFlag("topology",
                 "Topology file: feroce's (feroce-topology 1) or the HPCC simulator's (N S L)",
                 topology)
        .InputFile();
    study
        .AddFlag("flows",
                 "Flow file: feroce's (feroce-flows 1) or the HPCC simulator's (count, then src "
                 "dst pg dport size start_s)",
                 flows)
        .InputFile();
    study
        .AddFlag("config",
                 "The HPCC simulator's configuration (KEY value): its topology, flows, DCQCN, ECN "
                 "and buffer settings, beneath the flags",
                 config)
        .InputFile();
    study.AddFlag("cdf", "Flow sizes for drawn flows: a CDF file (SIZE P per line)", cdf)
        .InputFile();
    study
        .AddFlag("load",
                 "Drawn flows: Poisson arrivals at this fraction of each sender's link (0: none)",
                 load)
        .Range(0, 1);
    study.AddFlag("pairs", "Drawn flows' destinations: random or permutation", pairs)
        .OneOf({"random", "permutation"});
    study.AddFlag("trafficStart", "Drawn flows start at or after this time", trafficStart);
    study.AddFlag("trafficStop", "... and before this time (0: --duration)", trafficStop);
    study.AddFlag("maxFlows", "At most this many flows in all (0: no limit)", maxFlows);
    study.AddFlag("senders", "Roles that send drawn and incast flows", senders).Check(CheckRoles);
    study.AddFlag("receivers", "Roles that receive them", receivers).Check(CheckRoles);
    study.AddFlag("incast", "Incast overlay: senders per incast (0: none)", incast);
    study.AddFlag("incastSize", "Incast: bytes each sender sends", incastSize).Range(1, 1ULL << 31);
    study.AddFlag("incastPeriod", "Incast: time between incasts", incastPeriod)
        .AtLeast(NanoSeconds(1));
    study
        .AddFlag("incastLoad",
                 "Incast: the period that loads the receiver's link to this fraction (0: "
                 "--incastPeriod)",
                 incastLoad)
        .Range(0, 1);
    study.AddFlag("incastReceiver",
                  "Incast: the receiving node (empty: drawn for each incast)",
                  incastReceiver);
    study.AddFlag("incastPoisson", "Incast: exponential gaps of mean the period", incastPoisson);
    study.AddFlag("incastStart", "Incast: the first at this time", incastStart);
    study.AddFlag("incastStop", "Incast: none from this time (0: --duration)", incastStop);
    study.AddFlag("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu)
        .Attribute("ns3::RoceQueuePair::Pmtu");
    study.AddFlag("ecmpSeed",
                  "ECMP: each switch hashes with a seed of its own drawn from this one (0: every "
                  "switch alike)",
                  ecmpSeed);
    study.AddFlag("paths", "fct.csv: the switches each flow's data crossed", paths);
    study.AddFlag("fctStep", "Slowdown bins: percent of the flows in each", fctStep).Range(1, 100);
    study
        .AddFlag("saveFlows",
                 "Write the flows as they start into flows.txt: none, feroce or hpcc (format)",
                 saveFlows)
        .OneOf({"none", "feroce", "hpcc"});
    fabric.AddTo(study);
    // the program sets these per switch or per queue pair, from the files and --ecmpSeed
    study.Owns("ns3::FeroceSwitch::EcmpSeed", "ecmpSeed");
    // each link's rate, delay and loss are the topology's
    study.Owns("ns3::FeroceNetDevice::DataRate", "topology");
    study.Owns("ns3::FeroceChannel::Delay", "topology");
    study.Owns("ns3::RateErrorModel::ErrorRate", "topology");
    // each flow's priority is its own (the flow file's prio= or pg column; drawn flows 3)
    study.Owns("ns3::RoceQueuePair::Priority", "flows");
}

/// The files of a scenario, read inside the front door's Parse (beneath the command line).
struct ScenarioFiles
{
    feroce_hpcc_config config{};
    feroce_topo topo{};
    bool topoRead{false};
    feroce_flow_list flows{};
    feroce_cdf cdf{};

    ~ScenarioFiles()
    {
        feroce_hpcc_config_free(&config);
        if (topoRead)
        {
            feroce_topo_free(&topo);
        }
        feroce_flow_list_free(&flows);
        feroce_cdf_free(&cdf);
    }

    std::string Read(FeroceStudy& study, FabricFlags& f);

    /// Every outage within the run: "" or the first that is not, by its line.
    std::string CheckOutages(Time duration) const;

  private:
    int linkDownOutage{-1}; ///< the configuration's LINK_DOWN among topo's outages

    std::string ReadConfig(FeroceStudy& study, const std::string& path);
    std::string AddLinkDown();
    std::string SetRateMaps(FeroceStudy& study);
};

std::string
ScenarioFiles::ReadConfig(FeroceStudy& study, const std::string& path)
{
    FeroceCommandLine& cmd = study.GetCommandLine();
    char err[1024];
    if (feroce_hpcc_config_read(path.c_str(), &config, err, sizeof err) != 0)
    {
        return err;
    }
    auto at = [&](int line) { return path + ":" + std::to_string(line); };
    // its stop time, files and DCQCN (the hpcc preset beneath its keys) sit beneath the flags
    std::string e;
    if (config.stop_ns >= 0)
    {
        e = cmd.SetFlagFromFile("duration",
                                std::to_string(config.stop_ns) + "ns",
                                at(config.stop_line));
    }
    if (e.empty() && config.topology)
    {
        e = cmd.SetFlagFromFile("topology", config.topology, at(config.topology_line));
    }
    if (e.empty() && config.flows)
    {
        e = cmd.SetFlagFromFile("flows", config.flows, at(config.flows_line));
    }
    if (e.empty())
    {
        e = cmd.SetFlagFromFile("preset", "hpcc", path);
    }
    for (std::size_t i = 0; e.empty() && i < config.n_settings; i++)
    {
        const feroce_setting& s = config.settings[i];
        e = cmd.SetFromFile(s.key, s.value, at(s.line));
    }
    for (std::size_t i = 0; e.empty() && i < config.n_warnings; i++)
    {
        study.Warn(config.warnings[i]);
    }
    return e;
}

/// The configuration's LINK_DOWN as an outage of the topology's link (for good, as the peer's).
std::string
ScenarioFiles::AddLinkDown()
{
    if (!config.link_down_line)
    {
        return "";
    }
    std::string where = std::string(config.path) + ":" + std::to_string(config.link_down_line) +
                        ": LINK_DOWN " +
                        std::to_string((config.link_down_ns - 2000000000LL) / 1000) + " " +
                        std::to_string(config.link_down_a) + " " +
                        std::to_string(config.link_down_b) + " is not allowed: ";
    uint32_t a = config.link_down_a;
    uint32_t b = config.link_down_b;
    int link = a < topo.n_nodes && b < topo.n_nodes ? feroce_topo_find_link(&topo, a, b) : -1;
    if (link < 0)
    {
        return where + "expected two nodes of " + topo.path + " joined by a link";
    }
    char err[1024];
    if (feroce_topo_add_outage(&topo,
                               link,
                               config.link_down_ns,
                               -1,
                               config.link_down_line,
                               err,
                               sizeof err) != 0)
    {
        return where + "the link is down then already (an outage of " + topo.path + ")";
    }
    linkDownOutage = int(topo.n_outages) - 1;
    return "";
}

std::string
ScenarioFiles::CheckOutages(Time duration) const
{
    for (std::size_t i = 0; i < topo.n_outages; i++)
    {
        const feroce_topo_outage& o = topo.outages[i];
        const feroce_topo_link& k = topo.links[o.link];
        int64_t last = o.up_ns < 0 ? o.down_ns : o.up_ns;
        if (last < duration.GetNanoSeconds())
        {
            continue;
        }
        std::string where =
            int(i) == linkDownOutage
                ? std::string(config.path) + ":" + std::to_string(o.line) + ": LINK_DOWN"
                : std::string(topo.path) + ":" + std::to_string(o.line) + ": down " +
                      topo.nodes[k.a].name + " " + topo.nodes[k.b].name;
        return where + " at " + std::to_string(last) + " ns is not allowed: the run ends at " +
               std::to_string(duration.GetNanoSeconds()) +
               " ns (--duration): expected a time within the run";
    }
    return "";
}

/// KMIN_MAP, KMAX_MAP, PMAX_MAP: each switch port takes its link rate's thresholds
/// (FeroceSwitch::EcnByRate); every rate of a switch port needs its entry in each map.  Given
/// --kmin, --kmax or --pmax, the flags' thresholds hold for every port instead.
std::string
ScenarioFiles::SetRateMaps(FeroceStudy& study)
{
    const feroce_rate_map* maps[] = {&config.kmin, &config.kmax, &config.pmax};
    const char* names[] = {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"};
    if (!config.kmin.line && !config.kmax.line && !config.pmax.line)
    {
        return "";
    }
    FeroceCommandLine& cmd = study.GetCommandLine();
    for (const char* flag : {"kmin", "kmax", "pmax"})
    {
        if (cmd.IsGiven(flag))
        {
            study.Warn(std::string(config.path) +
                       ": KMIN_MAP, KMAX_MAP and PMAX_MAP are not used: --" + flag +
                       " sets every port's threshold");
            return "";
        }
    }
    std::set<uint64_t> rates;
    for (std::size_t l = 0; l < topo.n_links; l++)
    {
        if (feroce_topo_is_switch(&topo, topo.links[l].a) ||
            feroce_topo_is_switch(&topo, topo.links[l].b))
        {
            rates.insert(topo.links[l].rate_bps);
        }
    }
    std::ostringstream byRate;
    byRate.precision(17);
    for (uint64_t rate : rates)
    {
        double v[3];
        for (int m = 0; m < 3; m++)
        {
            if (!feroce_rate_map_get(maps[m], rate, &v[m]))
            {
                return std::string(config.path) + ":" + std::to_string(maps[m]->line) + ": " +
                       names[m] + " has no entry for the switch ports of " + std::to_string(rate) +
                       " bps: expected one for every link rate of the topology";
            }
        }
        byRate << (byRate.tellp() > 0 ? "," : "") << rate << "bps:" << uint64_t(v[0]) << ":"
               << uint64_t(v[1]) << ":" << v[2];
    }
    return cmd.SetFromFile("ns3::FeroceSwitch::EcnByRate", byRate.str(), config.path);
}

std::string
ScenarioFiles::Read(FeroceStudy& study, FabricFlags& f)
{
    char err[1024];
    std::string e = f.config.empty() ? "" : ReadConfig(study, f.config);
    if (!e.empty())
    {
        return e;
    }
    if (f.topology.empty())
    {
        return "--topology= is not allowed: expected a topology file (or --config= naming one)";
    }
    if (feroce_topo_read(f.topology.c_str(), &topo, err, sizeof err) != 0)
    {
        return err;
    }
    topoRead = true;
    if (config.error_rate > 0)
    {
        for (std::size_t l = 0; l < topo.n_links; l++)
        {
            topo.links[l].error_rate =
                topo.links[l].error_rate ? topo.links[l].error_rate : config.error_rate;
        }
    }
    e = AddLinkDown();
    e = e.empty() ? SetRateMaps(study) : e;
    if (e.empty() && !f.flows.empty() &&
        feroce_flows_read(f.flows.c_str(), &topo, &flows, err, sizeof err) != 0)
    {
        e = err;
    }
    if (e.empty() && !f.cdf.empty() && feroce_cdf_read(f.cdf.c_str(), &cdf, err, sizeof err) != 0)
    {
        e = err;
    }
    return e;
}

/// The nodes of these roles ("host,board,receiver"), in order; "" or what is wrong.
std::string
NodesOfRoles(const feroce_topo& t, const std::string& roles, std::vector<uint32_t>* nodes)
{
    std::set<std::string> want;
    std::stringstream in(roles);
    std::string role;
    while (std::getline(in, role, ','))
    {
        want.insert(role);
    }
    for (uint32_t n = 0; n < t.n_nodes; n++)
    {
        if (want.count(feroce_role_name(feroce_role(t.nodes[n].role))))
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

/// HPCC's window on every NIC's queue pairs (its configuration's HAS_WIN).
void
SetWindow(const FeroceFabric& fabric, uint64_t bytes)
{
    for (Ptr<RoceNic> nic : fabric.nics)
    {
        if (nic)
        {
            nic->SetQueuePairAttribute("MaxUnackedBytes", UintegerValue(bytes));
        }
    }
}

/// The scenario's own rules, after Parse: 0, or the exit code of its refusal (printed).
int
RefuseScenario(FeroceStudy& study, const FabricFlags& f, const ScenarioFiles& files)
{
    const std::string apps = "its flows are the flow file's and the drawn ones, each on queue "
                             "pairs of its own (RoceFlowApp)";
    if (study.RefuseType("ns3::RoceFrontEndApp", apps) ||
        study.RefuseType("ns3::RoceReceiverApp", apps))
    {
        return study.GetExitCode();
    }
    if (f.flows.empty() && f.load == 0 && f.incast == 0)
    {
        return study.Reject("no flows: expected --flows=FILE, --cdf=FILE with --load=F, or "
                            "--incast=N");
    }
    if (f.load > 0 && f.cdf.empty())
    {
        return study.RejectFlag("load", "0 without --cdf (drawn flows need their sizes)");
    }
    if (f.trafficStart.IsStrictlyNegative() ||
        (!f.trafficStop.IsZero() && f.trafficStop < f.trafficStart))
    {
        return study.RejectFlag("trafficStop", "at or after --trafficStart, which is >= 0");
    }
    std::string outages = files.CheckOutages(study.GetDuration());
    if (!outages.empty())
    {
        return study.Reject(outages);
    }
    return 0;
}

/// One uniform stream of the run for a random source of the traffic.
double
Uniform(void* ctx)
{
    return static_cast<UniformRandomVariable*>(ctx)->GetValue();
}

/// The traffic: the file's flows, drawn flows and incasts, merged in start order; each random
/// source a stream of the run's, after the fabric's, so an incast leaves the background as it was.
struct Traffic
{
    feroce_traffic* traffic{nullptr};
    Ptr<UniformRandomVariable> background = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> incasts = CreateObject<UniformRandomVariable>();

    ~Traffic()
    {
        feroce_traffic_free(traffic);
    }

    std::string Build(const FabricFlags& f, ScenarioFiles& s, Time duration);
};

std::string
Traffic::Build(const FabricFlags& f, ScenarioFiles& s, Time duration)
{
    const feroce_topo& topo = s.topo;
    std::vector<uint32_t> senders;
    std::vector<uint32_t> receivers;
    std::string error;
    if (f.load > 0 || f.incast > 0)
    {
        error = NodesOfRoles(topo, f.senders, &senders);
        error = error.empty() ? NodesOfRoles(topo, f.receivers, &receivers) : error;
        if (!error.empty())
        {
            return error;
        }
    }
    traffic = feroce_traffic_new(&topo,
                                 senders.data(),
                                 senders.size(),
                                 receivers.data(),
                                 receivers.size());
    if (s.flows.n)
    {
        feroce_traffic_add_list(traffic, &s.flows);
    }
    char err[1024];
    if (f.load > 0)
    {
        Time stop = f.trafficStop.IsZero() ? duration : f.trafficStop;
        feroce_poisson p{&s.cdf,
                         f.load,
                         f.pairs == "permutation" ? FEROCE_PAIRS_PERMUTATION : FEROCE_PAIRS_RANDOM,
                         f.trafficStart.GetNanoSeconds(),
                         stop.GetNanoSeconds(),
                         3};
        if (feroce_traffic_add_poisson(traffic,
                                       &p,
                                       {Uniform, PeekPointer(background)},
                                       err,
                                       sizeof err))
        {
            return err;
        }
    }
    if (f.incast > 0)
    {
        int receiver = -1;
        if (!f.incastReceiver.empty() &&
            (receiver = feroce_topo_find(&topo, f.incastReceiver.c_str())) < 0)
        {
            return "--incastReceiver=" + f.incastReceiver + " is not allowed: expected a node of " +
                   f.topology;
        }
        int64_t period = f.incastPeriod.GetNanoSeconds();
        if (f.incastLoad > 0)
        {
            // the receiver's link (the drawn one's: the first receiver's rate)
            std::vector<uint32_t> links(topo.n_nodes);
            feroce_topo_host_links(&topo, links.data());
            uint32_t rx = receiver >= 0 ? uint32_t(receiver) : receivers[0];
            double bps = double(topo.links[links[rx]].rate_bps);
            period = int64_t(double(f.incast) * double(f.incastSize) * 8e9 / (f.incastLoad * bps));
        }
        Time stop = f.incastStop.IsZero() ? duration : f.incastStop;
        feroce_incast in{f.incast,
                         f.incastSize,
                         period,
                         f.incastPoisson,
                         f.incastStart.GetNanoSeconds(),
                         stop.GetNanoSeconds(),
                         receiver,
                         3};
        if (feroce_traffic_add_incast(traffic,
                                      &in,
                                      {Uniform, PeekPointer(incasts)},
                                      err,
                                      sizeof err))
        {
            return err;
        }
    }
    feroce_traffic_set_limit(traffic, f.maxFlows);
    return "";
}

/// Writes each switch's PAUSE and XON into pfc.csv (by name) and pfc.txt (the HPCC simulator's
/// "time_ns node_id node_type if_index type": type 1 pause, 0 resume).
struct PfcLog
{
    std::ofstream csv;
    std::ofstream txt;
    const feroce_topo* topo;
    uint64_t pauses{0};
};

void
PauseSent(PfcLog* log, uint32_t node, uint32_t port, uint8_t prio, uint16_t quanta)
{
    int64_t now = Simulator::Now().GetNanoSeconds();
    log->csv << now << "," << log->topo->nodes[node].name << "," << port << "," << unsigned(prio)
             << "," << quanta << "\n";
    log->txt << now << " " << node << " 1 " << port << " " << (quanta ? 1 : 0) << "\n";
    log->pauses += quanta ? 1 : 0;
}

/// Every PAUSE a switch sends into log.
void
WatchPause(const FeroceFabric& fabric, PfcLog* log)
{
    for (uint32_t n = 0; n < fabric.switches.size(); n++)
    {
        if (fabric.switches[n])
        {
            fabric.switches[n]->TraceConnectWithoutContext("Pause",
                                                           MakeBoundCallback(&PauseSent, log, n));
        }
    }
}

/// --saveFlows: the flows as they start, in flows.txt (the HPCC format's count, which goes
/// first, is known at the end: the body is written aside and joined then).
struct SavedFlows
{
    FILE* file{nullptr};
    std::string format;
    uint64_t count{0};

    std::string path;
    bool failed{false};

    /// false (said on stderr) if the file cannot be written
    bool Open(FeroceStudy& study, const std::string& fmt)
    {
        format = fmt;
        path = study.GetPath(format == "hpcc" ? "flows-body.tmp" : "flows.txt");
        file = std::fopen(path.c_str(), "w");
        if (!file)
        {
            std::cerr << "feroce-fabric: cannot write " << path << ": " << std::strerror(errno)
                      << std::endl;
            failed = true;
            return false;
        }
        if (format == "feroce")
        {
            feroce_flows_write_header(file, FEROCE_FLOWS_FEROCE, 0);
        }
        return true;
    }

    void Write(const feroce_topo& topo, const feroce_flow& f)
    {
        feroce_flows_write(file,
                           format == "hpcc" ? FEROCE_FLOWS_HPCC : FEROCE_FLOWS_FEROCE,
                           &topo,
                           &f);
        count++;
    }

    void Close(FeroceStudy& study)
    {
        std::fclose(file);
        if (format == "hpcc")
        {
            std::ifstream in(path);
            std::ofstream out = study.OpenOutput("flows.txt");
            out << count << "\n" << in.rdbuf();
            std::remove(path.c_str());
        }
    }
};

/// After the run: the flows still in progress, the bins, the row's metrics.
bool
WriteResults(FeroceStudy& study,
             const FeroceFabric& fabric,
             Ptr<RoceFlowApp> app,
             FeroceFctRecorder& recorder,
             const PfcLog& pfc,
             uint32_t fctStep)
{
    uint64_t events = Simulator::GetEventCount();
    std::ofstream unfinished = study.OpenOutput("unfinished.csv");
    unfinished << "id,src,dst,kind,size_bytes,start_ns,received_bytes\n";
    const feroce_topo& topo = *fabric.topo;
    app->ForEachActive([&](uint64_t id, const feroce_flow& f, uint64_t received) {
        unfinished << id << "," << topo.nodes[f.src].name << "," << topo.nodes[f.dst].name << ","
                   << feroce_flow_kind_name(feroce_flow_kind(f.kind)) << "," << f.size << ","
                   << f.start_ns << "," << received << "\n";
    });
    study.OpenOutput("fct-bins.csv").close(); // listed with the outputs, written by the recorder
    if (!recorder.WriteBins(study.GetPath("fct-bins.csv"), fctStep))
    {
        return false;
    }
    for (const auto& m : recorder.GetMetrics())
    {
        study.AddMetric(m.first, m.second);
    }
    uint64_t drops = 0;
    uint64_t marks = 0;
    for (Ptr<FeroceSwitch> sw : fabric.switches)
    {
        drops += sw ? sw->GetCounters().TotalDrops() : 0;
        marks += sw ? sw->GetCounters().ecnMarks : 0;
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    study.AddMetric("pause_frames", double(pfc.pauses));
    study.AddMetric("drops", double(drops));
    study.AddMetric("ecn_marks", double(marks));
    study.AddMetric("sim_events", double(events));
    study.AddMetric("peak_rss_mb", double(ru.ru_maxrss) / 1024);
    if (topo.n_outages)
    {
        study.AddMetric("link_outages", double(topo.n_outages));
        study.AddMetric("link_down_frames_lost", double(fabric.GetFramesLostOnDownLinks()));
    }
    return true;
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricFlags f;
    FeroceStudy study("feroce-fabric",
                      "results/feroce-fabric",
                      MilliSeconds(10),
                      MilliSeconds(1),
                      Time(0));
    f.AddTo(study);
    ScenarioFiles files;
    study.GetCommandLine().SetScenarioReader([&]() { return files.Read(study, f); });
    if (!study.Parse(argc, argv))
    {
        return study.GetExitCode();
    }
    if (int refused = RefuseScenario(study, f, files))
    {
        return refused;
    }
    Time duration = study.GetDuration();
    // a switch of several link rates: each port's headroom for its own link
    study.SetBeneath("ns3::FeroceSwitch::HeadroomPerPort", "true");
    f.fabric.SetHeadroomCheck(study);

    // the fabric: the topology's settings beneath the command line's
    FeroceCommandLine& cmd = study.GetCommandLine();
    auto given = [&cmd](const std::string& a) { return cmd.GetSource(a) > FeroceSource::Scenario; };
    RoceHelper helper;
    FeroceFabric fabric;
    std::string error = FeroceFabricHelper::Build(helper, files.topo, &fabric, given, f.ecmpSeed);
    error = error.empty() ? fabric.Validate() : error;
    Traffic traffic;
    error = error.empty() ? traffic.Build(f, files, duration) : error;
    if (!error.empty())
    {
        return study.Reject(error);
    }
    if (files.config.has_window && !given("ns3::RoceQueuePair::MaxUnackedBytes"))
    {
        SetWindow(fabric, LargestBdp(fabric, files.config.payload ? files.config.payload : 1000));
    }
    fabric.ScheduleOutages(helper);
    int64_t stream = 1 + helper.AssignStreams(1);
    stream += fabric.AssignStreams(stream);
    traffic.background->SetStream(stream++);
    traffic.incasts->SetStream(stream++);

    // the outputs, written as the run goes: opened when it begins, with the first flow's start
    std::ofstream fctCsv;
    std::ofstream fctTxt;
    PfcLog pfc{std::ofstream(), std::ofstream(), &files.topo};
    SavedFlows saved;
    Ptr<RoceFlowApp> app = CreateObject<RoceFlowApp>();
    FeroceFctRecorder recorder(fabric, &fctCsv, &fctTxt, f.paths);
    Simulator::ScheduleNow(&FeroceCall, [&]() {
        fctCsv = study.OpenOutput("fct.csv");
        recorder.WriteHeader();
        fctTxt = study.OpenOutput("fct.txt");
        pfc.csv = study.OpenOutput("pfc.csv");
        pfc.txt = study.OpenOutput("pfc.txt");
        pfc.csv << "t_ns,switch,port,priority,quanta\n";
        if (f.saveFlows != "none" && !saved.Open(study, f.saveFlows))
        {
            Simulator::Stop();
            return;
        }
        app->Start();
    });
    WatchPause(fabric, &pfc);
    app->SetNics(fabric.nics);
    app->SetSource([&](feroce_flow& flow) {
        if (feroce_traffic_next(traffic.traffic, &flow) != 1)
        {
            return false;
        }
        if (saved.file)
        {
            saved.Write(files.topo, flow);
        }
        return true;
    });
    recorder.Attach(app);
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
    study.EnablePcap(helper, "feroce-fabric");
    if (!study.Run())
    {
        return study.GetExitCode();
    }
    if (saved.failed)
    {
        return 1;
    }
    if (!WriteResults(study, fabric, app, recorder, pfc, f.fctStep))
    {
        std::cerr << "feroce-fabric: cannot write fct-bins.csv" << std::endl;
        return 1;
    }
    fctCsv.close();
    fctTxt.close();
    pfc.csv.close();
    pfc.txt.close();
    if (saved.file)
    {
        saved.Close(study);
    }
    Simulator::Destroy();
    return study.Finish();
}
