/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_EVENTBUILDING_FLAGS_H
#define ADVCAM_EVENTBUILDING_FLAGS_H

#include "ns3/advcam-camera-fabric.h"
#include "ns3/data-rate.h"
#include "ns3/feroce-flag-groups.h"
#include "ns3/feroce-study.h"
#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup feroce
 * advcam-eventbuilding's flags (src/feroce/doc/eventbuilding.md): the event building's, the
 * failures' and the slow receiver's, beside the camera's (AdvcamCameraFlags) and PauseFlags.
 */
struct AdvcamEventBuildingFlags
{
    AdvcamCameraFlags camera;
    std::string assignment{"static"};
    Time eventTimeout{MilliSeconds(1)};
    uint32_t eventSlots{4};
    uint32_t creditBatch{1};
    Time creditInterval{MicroSeconds(100)};
    Time receiverTimeout{MicroSeconds(500)};
    uint32_t block{1};
    uint32_t announceLead{4};
    uint64_t creditExpiry{32};
    int32_t failReceiver{-1};
    Time failAt{0};
    Time returnAt{0};
    std::string failMode{"host"};
    Time mtbf{0};
    Time mttr{0};
    Time reconnectDelay{MicroSeconds(100)};
    Time ackTimeout{MilliSeconds(1)};
    uint32_t retryCount{7};
    // a slow receiver: Soft-RoCE (advcam-receiver's calibration)
    int32_t slowReceiver{-1};
    Time slowPacketCost{NanoSeconds(3200)};
    DataRate slowByteRate{"10Gbps"};
    uint64_t slowBuffer{1 << 20};
    PauseFlags pause;

    /// Credits decide (availability or board-rule), not n mod K.
    bool Availability() const
    {
        return assignment != "static";
    }

    /// An assigner node names the receivers.
    bool Assigner() const
    {
        return assignment == "availability";
    }

    /// Every board applies the rule to the receivers' announcements.
    bool BoardRule() const
    {
        return assignment == "board-rule";
    }

    void AddTo(FeroceStudy& study);
    /// The checks that need the duration or several flags: "" or the message.
    std::string Check(FeroceStudy& study) const;
};

} // namespace ns3

#endif /* ADVCAM_EVENTBUILDING_FLAGS_H */
