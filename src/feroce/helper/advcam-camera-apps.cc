/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-camera-apps.h"

#include "roce-helper.h"

#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/roce-nic.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

uint64_t
AdvcamCameraApps::GetBoardDelivered(uint32_t board) const
{
    uint64_t bytes = 0;
    for (const auto& r : receivers)
    {
        bytes += r->GetBytesReceived(board);
    }
    return bytes;
}

uint64_t
AdvcamCameraApps::GetEventsLost() const
{
    uint64_t lost = 0;
    for (const auto& a : boards)
    {
        lost += a->GetEventsLost();
    }
    return lost;
}

std::unique_ptr<AdvcamCameraApps>
InstallAdvcamCameraApps(RoceHelper& helper, const AdvcamCameraFabric& camera, Time stop)
{
    auto apps = std::make_unique<AdvcamCameraApps>();
    uint32_t receivers = uint32_t(camera.rxNics.size());
    for (uint32_t k = 0; k < receivers; k++)
    {
        apps->receivers.push_back(CreateObject<RoceReceiverApp>());
        camera.rxNodes.Get(k)->AddApplication(apps->receivers.back());
    }
    apps->boardQps.resize(camera.boardNics.size());
    for (uint32_t b = 0; b < camera.boardNics.size(); b++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("Mode", StringValue("trigger"));
        app->SetAttribute("WithImmediate", BooleanValue(true)); // the event number
        for (uint32_t k = 0; k < receivers; k++)
        {
            // receiver k's i-th queue pair is board i's
            auto qp = helper.ConnectQueuePairs(camera.boardNics[b], camera.rxNics[k]);
            app->AddQueuePair(qp.first);
            apps->receivers[k]->AddQueuePair(qp.second);
            apps->boardQps[b].push_back(qp.first);
        }
        camera.boardNodes.Get(b)->AddApplication(app);
        app->SetStartTime(Time(0));
        app->SetStopTime(stop);
        apps->boards.push_back(app);
    }
    return apps;
}

void
WatchAdvcamCamera(FeroceStudy& study,
                  RoceHelper& helper,
                  const AdvcamCameraFabric& camera,
                  AdvcamCameraApps& apps)
{
    Time duration = study.GetDuration();
    for (uint32_t k = 0; k < apps.receivers.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = apps.receivers[k];
        study.AddFlow(
            "rx" + std::to_string(k),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            duration);
    }
    // series: the queues where the camera's traffic meets, most bytes per window, and every
    // switch's buffer; after the run switches.csv, pause.csv and the switches' metrics
    study.WatchSwitches(camera.GetSwitches(), camera.GetQueues());
    AdvcamCameraApps* a = &apps;
    study.AddGauge("events_lost", [a]() { return double(a->GetEventsLost()); });
    // the camera's steady state: its events, the boards' buffers, frames lost
    apps.tally = std::make_unique<AdvcamEventTally>(apps.boards, uint32_t(apps.receivers.size()));
    const AdvcamEventTally* tally = apps.tally.get();
    study.AddSteadyGauge(
        "camera_events_generated",
        [tally]() { return double(tally->GetGenerated()); },
        FeroceSteadyState::COUNTER,
        false);
    study.AddSteadyGauge(
        "camera_events_lost",
        [tally]() { return double(tally->GetLost()); },
        FeroceSteadyState::COUNTER,
        true);
    // the share of this window's camera events that were lost (0 in a window without one)
    study.AddSteadyGauge(
        "camera_events_lost_fraction",
        [tally, seenGenerated = uint64_t(0), seenLost = uint64_t(0)]() mutable {
            uint64_t generated = tally->GetGenerated() - seenGenerated;
            uint64_t lost = tally->GetLost() - seenLost;
            seenGenerated = tally->GetGenerated();
            seenLost = tally->GetLost();
            return generated ? double(lost) / double(generated) : 0.0;
        },
        FeroceSteadyState::MEAN,
        false);
    study.AddSteadyGauge(
        "board_buffer_max_bytes",
        [a]() {
            uint64_t most = 0;
            for (auto& b : a->boards)
            {
                most = std::max(most, b->TakeBufferWindowPeak());
            }
            return double(most);
        },
        FeroceSteadyState::MAX,
        false);
    study.AddSteadyGauge(
        "board_buffer_mean_bytes",
        [a]() {
            double sum = 0;
            for (auto& b : a->boards)
            {
                sum += double(b->GetBufferBytes());
            }
            return sum / double(a->boards.size());
        },
        FeroceSteadyState::MEAN,
        true); // judged: buffers that fill for ever (an overload) have no steady state
    study.AddDropsGauge();
    int64_t trigger = 1 + helper.AssignStreams(1);
    for (Ptr<RoceFrontEndApp> app : apps.boards)
    {
        app->AssignStreams(trigger);
    }
}

} // namespace ns3
