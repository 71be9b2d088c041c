/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-camera-fabric.h"

#include "roce-helper.h"

#include "ns3/feroce-channel.h"
#include "ns3/node.h"
#include "ns3/roce-nic.h"

#include <algorithm>

namespace ns3
{

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
    return f;
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
    std::vector<FeroceStudy::WatchedSwitch> switches;
    for (uint32_t l = 0; l < leaves.size(); l++)
    {
        switches.push_back({"leaf" + std::to_string(l), leaves[l]});
    }
    switches.push_back({"agg", agg});
    return switches;
}

std::vector<FeroceStudy::WatchedQueue>
AdvcamCameraFabric::GetQueues() const
{
    uint32_t n = uint32_t(leaves.size());
    std::vector<FeroceStudy::WatchedQueue> queues;
    for (uint32_t k = 0; k < rxNics.size(); k++)
    {
        queues.push_back({"agg_to_rx" + std::to_string(k) + "_queue_bytes", n, n + k});
    }
    for (uint32_t l = 0; l < n; l++)
    {
        queues.push_back(
            {"leaf" + std::to_string(l) + "_uplink_queue_bytes", l, leaves[l]->GetNPorts() - 1});
    }
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
