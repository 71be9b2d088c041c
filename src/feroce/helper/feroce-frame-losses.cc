/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-frame-losses.h"

#include "ns3/feroce-channel.h"
#include "ns3/feroce-switch.h"
#include "ns3/roce-nic.h"

namespace ns3
{

void
FeroceFrameLosses::Add(Ptr<Node> node)
{
    if (Ptr<FeroceSwitch> sw = node->GetObject<FeroceSwitch>())
    {
        switchDrops += sw->GetCounters().TotalDrops();
    }
    for (uint32_t i = 0; i < node->GetNDevices(); i++)
    {
        Ptr<FeroceNetDevice> dev = DynamicCast<FeroceNetDevice>(node->GetDevice(i));
        if (!dev)
        {
            continue;
        }
        errorModel += dev->GetRxErrorDrops();
        if (Ptr<FeroceChannel> link = DynamicCast<FeroceChannel>(dev->GetChannel()))
        {
            linkDown += link->GetFramesLostTo(PeekPointer(dev));
        }
        if (Ptr<RoceNic> nic = DynamicCast<RoceNic>(dev))
        {
            rxBuffer += nic->GetCounters().rxOverflowDrops;
            unknown += nic->GetCounters().unknownFrames;
            qpError += nic->GetCounters().qpErrorDrops;
        }
    }
}

FeroceFrameLosses
FeroceFrameLosses::Of(const NodeContainer& nodes)
{
    FeroceFrameLosses lost;
    for (auto n = nodes.Begin(); n != nodes.End(); n++)
    {
        lost.Add(*n);
    }
    return lost;
}

uint64_t
FeroceFrameLosses::Total() const
{
    uint64_t total = 0;
    for (const auto& part : Parts())
    {
        total += part.second;
    }
    return total;
}

std::vector<std::pair<std::string, uint64_t>>
FeroceFrameLosses::Parts() const
{
    return {{"drops_switch", switchDrops},
            {"drops_rx_buffer", rxBuffer},
            {"drops_error_model", errorModel},
            {"drops_unknown", unknown},
            {"drops_qp_error", qpError},
            {"drops_link_down", linkDown}};
}

} // namespace ns3
