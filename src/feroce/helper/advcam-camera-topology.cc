/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-camera-topology.h"

#include "roce-helper.h"

#include "ns3/feroce-channel.h"
#include "ns3/node.h"

#include <algorithm>

namespace ns3
{

AdvcamCamera
InstallAdvcamCamera(RoceHelper& helper,
                    uint32_t boards,
                    uint32_t boardsPerLeaf,
                    uint32_t receivers,
                    DataRate boardRate,
                    DataRate uplinkRate,
                    DataRate receiverRate,
                    bool assigner)
{
    AdvcamCamera c;
    c.leaves = (boards + boardsPerLeaf - 1) / boardsPerLeaf;
    // nodes 0..B-1 the boards, B..B+K-1 the receivers, then the leaves and the aggregation
    c.boardNodes.Create(boards);
    c.rxNodes.Create(receivers);
    c.leafNodes.Create(c.leaves);
    c.aggNode = CreateObject<Node>();

    c.switches.resize(c.leaves + 1);
    c.agg = helper.InstallSwitch(c.aggNode);
    helper.SetDeviceAttribute("DataRate", DataRateValue(boardRate));
    for (uint32_t l = 0; l < c.leaves; l++)
    {
        // leaf ports: its boards, then the uplink; aggregation ports: the leaves, then receivers
        Ptr<FeroceSwitch> leaf = helper.InstallSwitch(c.leafNodes.Get(l));
        for (uint32_t b = l * boardsPerLeaf; b < std::min(boards, (l + 1) * boardsPerLeaf); b++)
        {
            c.boardNics.push_back(helper.AttachHost(leaf, c.boardNodes.Get(b)));
        }
        helper.LinkSwitches(leaf, c.agg, uplinkRate);
        c.switches[l].name = "leaf" + std::to_string(l);
        c.switches[l].sw = leaf;
    }
    c.switches[c.leaves].name = "agg";
    c.switches[c.leaves].sw = c.agg;
    helper.SetDeviceAttribute("DataRate", DataRateValue(receiverRate));
    for (uint32_t k = 0; k < receivers; k++)
    {
        Ptr<RoceNic> nic = helper.AttachHost(c.agg, c.rxNodes.Get(k));
        c.rxNics.push_back(nic);
        c.rxLinks.push_back(DynamicCast<FeroceChannel>(nic->GetChannel()));
    }
    if (assigner)
    {
        c.assignerNic = helper.AttachHost(c.agg, CreateObject<Node>());
    }
    helper.PopulateRoutes();
    return c;
}

std::string
AdvcamCamera::Validate() const
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
    for (const auto& s : switches)
    {
        std::string error = s.sw->Validate();
        if (!error.empty())
        {
            return s.name + ": " + error;
        }
    }
    return "";
}

std::vector<FeroceStudy::WatchedQueue>
AdvcamCamera::GetQueues() const
{
    std::vector<FeroceStudy::WatchedQueue> queues;
    for (uint32_t k = 0; k < rxNics.size(); k++)
    {
        queues.push_back({"agg_to_rx" + std::to_string(k) + "_queue_bytes", leaves, leaves + k});
    }
    for (uint32_t l = 0; l < leaves; l++)
    {
        queues.push_back({"leaf" + std::to_string(l) + "_uplink_queue_bytes",
                          l,
                          switches[l].sw->GetNPorts() - 1});
    }
    return queues;
}

} // namespace ns3
