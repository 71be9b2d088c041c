/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-camera-fabric.h"

#include "feroce-fabric-helper.h"
#include "roce-helper.h"

#include "ns3/feroce-channel.h"
#include "ns3/feroce-switch-port.h"
#include "ns3/node.h"
#include "ns3/roce-nic.h"

#include <algorithm>

namespace ns3
{

/// A topology file and the fabric built from it (which points into it), alive as long as the run.
struct AdvcamCameraFile
{
    feroce_topo topo{};
    bool read{false};
    FeroceFabric fabric;

    ~AdvcamCameraFile()
    {
        if (read)
        {
            feroce_topo_free(&topo);
        }
    }
};

AdvcamCameraFabric
InstallAdvcamCameraFabric(RoceHelper& helper,
                          uint32_t boards,
                          uint32_t boardsPerLeaf,
                          uint32_t receivers,
                          DataRate boardRate,
                          DataRate uplinkRate,
                          DataRate receiverRate,
                          bool assigner)
{
    AdvcamCameraFabric f;
    f.boardsPerLeaf = boardsPerLeaf;
    uint32_t leaves = (boards + boardsPerLeaf - 1) / boardsPerLeaf;
    f.boardNodes.Create(boards);
    f.rxNodes.Create(receivers);
    NodeContainer leafNodes;
    leafNodes.Create(leaves);
    Ptr<Node> aggNode = CreateObject<Node>();
    f.agg = helper.InstallSwitch(aggNode);
    helper.SetDeviceAttribute("DataRate", DataRateValue(boardRate));
    for (uint32_t l = 0; l < leaves; l++)
    {
        Ptr<FeroceSwitch> leaf = helper.InstallSwitch(leafNodes.Get(l));
        for (uint32_t b = l * boardsPerLeaf; b < std::min(boards, (l + 1) * boardsPerLeaf); b++)
        {
            f.boardNics.push_back(helper.AttachHost(leaf, f.boardNodes.Get(b)));
            f.boardLeaf.push_back(l);
        }
        helper.LinkSwitches(leaf, f.agg, uplinkRate);
        f.leaves.push_back(leaf);
    }
    helper.SetDeviceAttribute("DataRate", DataRateValue(receiverRate));
    for (uint32_t k = 0; k < receivers; k++)
    {
        f.rxNics.push_back(helper.AttachHost(f.agg, f.rxNodes.Get(k)));
        f.rxLinks.push_back(DynamicCast<FeroceChannel>(f.rxNics.back()->GetChannel()));
    }
    if (assigner)
    {
        f.assignerNic = helper.AttachHost(f.agg, CreateObject<Node>());
    }
    helper.PopulateRoutes();
    for (uint32_t l = 0; l < leaves; l++)
    {
        f.switches.push_back({"leaf" + std::to_string(l), f.leaves[l]});
    }
    f.switches.push_back({"agg", f.agg});
    for (uint32_t k = 0; k < receivers; k++)
    {
        f.queues.push_back({"agg_to_rx" + std::to_string(k) + "_queue_bytes", leaves, leaves + k});
    }
    for (uint32_t l = 0; l < leaves; l++)
    {
        f.queues.push_back(
            {"leaf" + std::to_string(l) + "_uplink_queue_bytes", l, f.leaves[l]->GetNPorts() - 1});
    }
    return f;
}

namespace
{

/// The switch end of a host's link: the switch's node and its port, or (UINT32_MAX, null).
std::pair<uint32_t, Ptr<FeroceSwitchPort>>
SwitchEnd(const FeroceFabric& fabric, uint32_t link)
{
    const feroce_topo_link& k = fabric.topo->links[link];
    for (int side = 0; side < 2; side++)
    {
        uint32_t node = side ? k.b : k.a;
        if (fabric.switches[node])
        {
            const auto& ends = fabric.ends[link];
            return {node, DynamicCast<FeroceSwitchPort>(side ? ends.second : ends.first)};
        }
    }
    return {UINT32_MAX, nullptr};
}

} // namespace

std::string
InstallAdvcamCameraFabric(FeroceStudy& study,
                          RoceHelper& helper,
                          const std::string& topology,
                          AdvcamCameraFabric* out)
{
    auto file = std::make_shared<AdvcamCameraFile>();
    const feroce_topo& t = file->topo;
    char err[1024];
    if (feroce_topo_read(topology.c_str(), &file->topo, err, sizeof err) != 0)
    {
        return err;
    }
    file->read = true;
    FeroceCommandLine& cmd = study.GetCommandLine();
    auto given = [&cmd](const std::string& a) { return cmd.GetSource(a) > FeroceSource::Scenario; };
    FeroceFabric& fabric = file->fabric;
    std::string error = FeroceFabricHelper::Build(helper, t, &fabric, given);
    if (!error.empty())
    {
        return error;
    }
    AdvcamCameraFabric& c = *out;
    c.file = file;
    std::vector<uint32_t> hostLink(t.n_nodes);
    feroce_topo_host_links(&t, hostLink.data());
    std::vector<uint32_t> index(t.n_nodes, UINT32_MAX); // a switch's index in c.switches
    std::vector<uint32_t> rxNodes;
    for (uint32_t n = 0; n < t.n_nodes; n++)
    {
        const feroce_topo_node& node = t.nodes[n];
        std::string where = std::string(t.path) + ":" + std::to_string(node.line) + ": ";
        if (node.role == FEROCE_ROLE_SWITCH)
        {
            continue;
        }
        if (node.role == FEROCE_ROLE_HOST)
        {
            return where + "host " + node.name +
                   " is not allowed: the camera's nodes are boards, receivers and switches";
        }
        auto sw = SwitchEnd(fabric, hostLink[n]);
        if (!sw.second)
        {
            return where + feroce_role_name(node.role) + " " + node.name +
                   " is not allowed: expected it linked to a switch";
        }
        if (node.role == FEROCE_ROLE_RECEIVER)
        {
            rxNodes.push_back(n);
            c.rxNodes.Add(fabric.nodes.Get(n));
            c.rxNics.push_back(fabric.nics[n]);
            c.rxLinks.push_back(fabric.channels[hostLink[n]]);
            continue;
        }
        if (index[sw.first] == UINT32_MAX)
        {
            index[sw.first] = uint32_t(c.leaves.size());
            c.leaves.push_back(fabric.switches[sw.first]);
            c.switches.push_back({t.nodes[sw.first].name, fabric.switches[sw.first]});
        }
        c.boardNodes.Add(fabric.nodes.Get(n));
        c.boardNics.push_back(fabric.nics[n]);
        c.boardLeaf.push_back(index[sw.first]);
    }
    if (c.boardNics.empty() || c.rxNics.empty())
    {
        return topology + " is not allowed: expected at least one board and one receiver";
    }
    for (uint32_t n = 0; n < t.n_nodes; n++)
    {
        if (fabric.switches[n] && index[n] == UINT32_MAX)
        {
            index[n] = uint32_t(c.switches.size());
            c.switches.push_back({t.nodes[n].name, fabric.switches[n]});
            c.agg = c.agg ? c.agg : fabric.switches[n];
        }
    }
    for (uint32_t rx : rxNodes)
    {
        auto sw = SwitchEnd(fabric, hostLink[rx]);
        c.queues.push_back(
            {std::string(t.nodes[sw.first].name) + "_to_" + t.nodes[rx].name + "_queue_bytes",
             index[sw.first],
             sw.second->GetPortIndex()});
    }
    // each leaf's uplinks: its links to switches, in link order
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> uplinks(c.leaves.size());
    for (uint32_t l = 0; l < t.n_links; l++)
    {
        const feroce_topo_link& k = t.links[l];
        if (!fabric.switches[k.a] || !fabric.switches[k.b])
        {
            continue;
        }
        for (int side = 0; side < 2; side++)
        {
            uint32_t node = side ? k.b : k.a;
            if (index[node] < c.leaves.size())
            {
                auto port = DynamicCast<FeroceSwitchPort>(side ? fabric.ends[l].second
                                                               : fabric.ends[l].first);
                uplinks[index[node]].push_back({side ? k.a : k.b, port->GetPortIndex()});
            }
        }
    }
    for (uint32_t leaf = 0; leaf < c.leaves.size(); leaf++)
    {
        for (const auto& up : uplinks[leaf])
        {
            std::string name =
                c.switches[leaf].name + (uplinks[leaf].size() == 1
                                             ? std::string("_uplink")
                                             : "_to_" + std::string(t.nodes[up.first].name));
            c.queues.push_back({name + "_queue_bytes", leaf, up.second});
        }
    }
    fabric.ScheduleOutages(helper);
    return "";
}

std::string
SetAdvcamCameraSizes(FeroceStudy& study, const std::string& topology)
{
    AdvcamCameraFile file;
    char err[1024];
    if (feroce_topo_read(topology.c_str(), &file.topo, err, sizeof err) != 0)
    {
        return err;
    }
    file.read = true;
    const feroce_topo& t = file.topo;
    std::vector<uint32_t> hostLink(t.n_nodes);
    feroce_topo_host_links(&t, hostLink.data());
    std::vector<uint32_t> onSwitch(t.n_nodes, 0);
    uint32_t boards = 0;
    uint32_t receivers = 0;
    for (uint32_t n = 0; n < t.n_nodes; n++)
    {
        if (t.nodes[n].role == FEROCE_ROLE_BOARD)
        {
            const feroce_topo_link& k = t.links[hostLink[n]];
            onSwitch[k.a == n ? k.b : k.a]++;
            boards++;
        }
        receivers += t.nodes[n].role == FEROCE_ROLE_RECEIVER;
    }
    uint32_t perLeaf = *std::max_element(onSwitch.begin(), onSwitch.end());
    FeroceCommandLine& cmd = study.GetCommandLine();
    std::string e;
    for (const auto& size : {std::make_pair("boards", boards),
                             std::make_pair("receivers", receivers),
                             std::make_pair("boardsPerLeaf", perLeaf)})
    {
        if (e.empty() && size.second > 0)
        {
            e = cmd.SetFlagFromFile(size.first, std::to_string(size.second), topology);
        }
    }
    return e;
}

std::string
AdvcamCameraFabric::Validate() const
{
    std::vector<Ptr<RoceNic>> assigners;
    if (assignerNic)
    {
        assigners.push_back(assignerNic);
    }
    for (const auto& nics : {boardNics, rxNics, assigners})
    {
        for (const auto& nic : nics)
        {
            std::string error = nic->Validate();
            if (!error.empty())
            {
                return error;
            }
        }
    }
    for (const auto& s : GetSwitches())
    {
        std::string error = s.sw->Validate();
        if (!error.empty())
        {
            return s.name + ": " + error;
        }
    }
    return "";
}

std::vector<FeroceStudy::WatchedSwitch>
AdvcamCameraFabric::GetSwitches() const
{
    return switches;
}

std::vector<FeroceStudy::WatchedQueue>
AdvcamCameraFabric::GetQueues() const
{
    return queues;
}

void
AdvcamCameraFlags::AddTo(FeroceStudy& study)
{
    study.AddFlag("boards", "Front-end boards", boards).Range(1, 2000);
    study.AddFlag("boardsPerLeaf", "Boards per leaf switch", boardsPerLeaf).Range(1, 256);
    study.AddFlag("receivers", "Event-building receivers on the aggregation switch", receivers)
        .Range(1, 64);
    const DataRate lo("1Mbps");
    const DataRate hi(1000000000000ULL);
    study.AddFlag("boardRate", "Link rate of a board", boardRate).Range(lo, hi);
    study.AddFlag("uplinkRate", "Link rate of a leaf's uplink to the aggregation", uplinkRate)
        .Range(lo, hi);
    study.AddFlag("receiverRate", "Link rate of a receiver", receiverRate).Range(lo, hi);
    study.Owns("ns3::FeroceNetDevice::DataRate", "boardRate");
    link.AddTo(study);
    study.AddFlag("fragmentSize", "Bytes of one board's fragment of an event", fragmentSize)
        .Range(1, 1ULL << 31)
        .Attribute("ns3::RoceFrontEndApp::MessageSize");
    study
        .AddFlag("triggerInterval",
                 "Time between camera triggers (the mean if Poisson)",
                 triggerInterval)
        .AtLeast(NanoSeconds(1))
        .Attribute("ns3::RoceFrontEndApp::TriggerInterval");
    triggerRate.AddTo(study);
    study.AddFlag("poisson", "Triggers at exponential gaps (common to all boards)", poisson)
        .Attribute("ns3::RoceFrontEndApp::Poisson");
    const uint64_t* fragment = &fragmentSize;
    study
        .AddFlag("boardBuffer",
                 "On-board buffer bytes; a fragment that does not fit is a lost event",
                 boardBuffer)
        .Check([fragment](const uint64_t& b) {
            return b >= *fragment
                       ? std::string()
                       : ">= fragmentSize = " + std::to_string(*fragment) + " (one fragment)";
        })
        .Attribute("ns3::RoceFrontEndApp::BufferSize");
    study
        .AddFlag("maxOutstanding",
                 "Fragments posted and unacknowledged per queue pair",
                 maxOutstanding)
        .Range(1, 256)
        .Attribute("ns3::RoceFrontEndApp::MaxOutstanding");
    study.AddFlag("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu)
        .Attribute("ns3::RoceQueuePair::Pmtu");
    fabric.AddTo(study);
    // a board sends a fragment per trigger, with the event number as immediate data
    study.Owns("ns3::RoceFrontEndApp::Mode");
    study.Owns("ns3::RoceFrontEndApp::WithImmediate");
}

} // namespace ns3
