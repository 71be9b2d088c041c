/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-camera-fabric.h"

#include "roce-helper.h"

#include "ns3/feroce-channel.h"
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
                          DataRate receiverRate)
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
    }
    helper.PopulateRoutes();
    return f;
}

std::string
AdvcamCameraFabric::Validate() const
{
    for (const auto& nics : {boardNics, rxNics})
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

} // namespace ns3
