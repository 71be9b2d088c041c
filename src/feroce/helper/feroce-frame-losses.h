/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_FRAME_LOSSES_H
#define FEROCE_FRAME_LOSSES_H

#include "ns3/node-container.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * Frames lost anywhere among some nodes, by the place that lost them: the
 * parts of the metric `drops` (src/feroce/doc/results.md, "Metric names").
 * Every place where the model discards a frame it has received, or a link
 * that is down loses it, is one of these; a place added later gets a field,
 * its name in Parts and a count in Add, and the identity test
 * (feroce-counters: frames sent = received + lost, place by place) then
 * covers it.
 *
 *   FeroceFrameLosses lost = FeroceFrameLosses::Of(NodeContainer::GetGlobal());
 *   study.AddMetric("drops", double(lost.Total()));
 */
struct FeroceFrameLosses
{
    uint64_t switchDrops{0}; ///< drops_switch: dropped by a switch, every cause of FeroceSwitch
    uint64_t rxBuffer{0};    ///< drops_rx_buffer: a software receiver's buffer was full
    uint64_t errorModel{0};  ///< drops_error_model: a device's ReceiveErrorModel (NIC or port)
    uint64_t unknown{
        0}; ///< drops_unknown: a NIC had no queue pair for it (or it was not RoCEv2 nor PFC)
    uint64_t qpError{0}; ///< drops_qp_error: its queue pair was in the error state
    /// drops_link_down: lost on a link that was down (FeroceChannel::SetUp), counted at the
    /// node the frame was going to
    uint64_t linkDown{0};

    /// Adds the losses of one node: its switch (if it is one) and every device.
    void Add(Ptr<Node> node);
    /// The losses of these nodes.
    static FeroceFrameLosses Of(const NodeContainer& nodes);
    /// Frames lost at all these places.
    uint64_t Total() const;
    /// (metric name, count) of each place, in the order above: drops = the sum.
    std::vector<std::pair<std::string, uint64_t>> Parts() const;
};

} // namespace ns3

#endif /* FEROCE_FRAME_LOSSES_H */
