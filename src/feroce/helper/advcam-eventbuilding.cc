/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-eventbuilding.h"

#include "ns3/boolean.h"
#include "ns3/feroce-study.h"
#include "ns3/roce-assigner-app.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{

// the applications' traces into the ledger (bound free functions: Callback::Bind needs 3.36)
void
OnTrigger(EventLedger* l, uint64_t e)
{
    l->Generated(e);
}

void
OnBoardLost(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_BOARD_BUFFER);
}

void
OnPosted(EventLedger* l, uint64_t e, uint32_t k)
{
    l->Posted(e, k);
}

void
OnFailed(EventLedger* l, RoceFrontEndApp* app, uint64_t e, uint32_t k)
{
    l->FragmentFailed(e, k, app->GetConnectedSince(k));
}

void
OnBuilt(EventLedger* l, uint32_t k, uint64_t e)
{
    l->Built(e, k);
}

void
OnTimedOut(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_PARTIAL_TIMEOUT);
}

void
OnCrashLost(EventLedger* l, uint64_t e)
{
    l->Lost(e, EVENT_LOST_RECEIVER_DEAD);
}

void
OnDropped(std::vector<Time>* dropped, uint32_t k)
{
    (*dropped)[k] = Simulator::Now();
}

} // namespace

AdvcamEventBuilding::AdvcamEventBuilding(const AdvcamEventBuildingFlags& flags)
    : m_flags(flags),
      m_manager(flags.reconnectDelay),
      m_failures(&m_manager, flags.failMode),
      m_ledger(&m_failures)
{
}

const AdvcamCameraFabric&
AdvcamEventBuilding::GetFabric() const
{
    return m_cam;
}

std::string
AdvcamEventBuilding::Install(RoceHelper& helper, Time duration)
{
    const AdvcamEventBuildingFlags& f = m_flags;
    const AdvcamCameraFlags& c = f.camera;
    m_duration = duration;
    m_cam = InstallAdvcamCameraFabric(helper,
                                      c.boards,
                                      c.boardsPerLeaf,
                                      c.receivers,
                                      c.boardRate,
                                      c.uplinkRate,
                                      c.receiverRate,
                                      f.Assigner());
    if (f.slowReceiver >= 0)
    {
        Ptr<RoceNic> slow = m_cam.rxNics[f.slowReceiver];
        slow->SetAttribute("ReceiverModel", StringValue("software"));
        slow->SetAttribute("RxPacketCost", TimeValue(f.slowPacketCost));
        slow->SetAttribute("RxProcessingRate", DataRateValue(f.slowByteRate));
        slow->SetAttribute("RxBufferSize", UintegerValue(f.slowBuffer));
        slow->SetAttribute("RxPfc", BooleanValue(true));
    }
    std::string error = m_cam.Validate();
    if (!error.empty())
    {
        return error;
    }

    // the receivers build events of one fragment per board
    for (uint32_t k = 0; k < c.receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
        rx->SetAttribute("FragmentsPerEvent", UintegerValue(c.boards));
        if (f.Availability())
        {
            rx->SetAttribute("EventSlots", UintegerValue(f.eventSlots));
            rx->SetAttribute("CreditBatch", UintegerValue(f.creditBatch));
            rx->SetAttribute("CreditInterval", TimeValue(f.creditInterval));
        }
        if (f.BoardRule())
        {
            rx->SetAttribute("AnnounceLead", UintegerValue(f.announceLead));
            rx->SetAttribute("TriggerInterval", TimeValue(c.triggerInterval));
            rx->SetAttribute("Poisson", BooleanValue(c.poisson));
        }
        error = rx->Validate();
        if (!error.empty())
        {
            return error;
        }
        m_cam.rxNodes.Get(k)->AddApplication(rx);
        m_rxApps.push_back(rx);
    }
    for (uint32_t b = 0; b < c.boards; b++)
    {
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("Mode", StringValue("trigger"));
        app->SetAttribute("WithImmediate", BooleanValue(true)); // the event number
        app->SetAttribute("LostMarkers", BooleanValue(true));
        app->SetAttribute("Assignment", StringValue(f.assignment));
        if (f.BoardRule())
        {
            app->SetAttribute("CreditExpiry", UintegerValue(f.creditExpiry));
        }
        m_apps.push_back(app);
    }

    // connections, in advcam-camera's order (receiver k's i-th queue pair is board i's); the
    // assigner's after them, so that the static rule's queue pairs and streams are the camera's
    for (uint32_t b = 0; b < c.boards; b++)
    {
        for (uint32_t k = 0; k < c.receivers; k++)
        {
            Ptr<RoceFrontEndApp> app = m_apps[b];
            Ptr<RoceReceiverApp> rx = m_rxApps[k];
            auto qp =
                m_manager.Connect(m_cam.boardNics[b],
                                  m_cam.rxNics[k],
                                  [app, rx, b, k](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                                      app->ReplaceQueuePair(k, qa);
                                      rx->ReplaceQueuePair(b, qb);
                                  });
            app->AddQueuePair(qp.first);
            rx->AddQueuePair(qp.second);
        }
        m_cam.boardNodes.Get(b)->AddApplication(m_apps[b]);
        m_apps[b]->SetStartTime(Time(0));
        m_apps[b]->SetStopTime(duration);
    }
    if (f.BoardRule())
    {
        ConnectAnnouncements();
        for (auto& rx : m_rxApps)
        {
            error = rx->Validate();
            if (!error.empty())
            {
                return error;
            }
        }
    }
    if (f.Assigner())
    {
        ConnectAssigner();
        error = m_assigner->Validate();
        if (!error.empty())
        {
            return error;
        }
        m_cam.assignerNic->GetNode()->AddApplication(m_assigner);
        m_assigner->SetStartTime(Time(0));
        m_assigner->SetStopTime(duration);
    }
    WatchFailures();
    ConnectLedger();
    return "";
}

void
AdvcamEventBuilding::ConnectAssigner()
{
    const AdvcamCameraFlags& c = m_flags.camera;
    m_assigner = CreateObject<RoceAssignerApp>();
    m_assigner->SetAttribute("TriggerInterval", TimeValue(c.triggerInterval));
    m_assigner->SetAttribute("Poisson", BooleanValue(c.poisson));
    m_assigner->SetAttribute("Block", UintegerValue(m_flags.block));
    m_assigner->SetAttribute("ReceiverTimeout", TimeValue(m_flags.receiverTimeout));
    Ptr<RoceAssignerApp> assigner = m_assigner;
    std::vector<QpPair>* credits = &m_controlQps[0];
    std::vector<QpPair>* assignments = &m_controlQps[1];
    for (uint32_t k = 0; k < c.receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        auto qp = m_manager.Connect(
            m_cam.rxNics[k],
            m_cam.assignerNic,
            [rx, assigner, k, credits](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                credits->emplace_back(qa, qb);
                assigner->ReplaceReceiver(k, qb);
                rx->SetCreditQueuePair(qa);
            });
        rx->SetCreditQueuePair(qp.first);
        assigner->AddReceiver(qp.second);
        credits->push_back(qp);
    }
    for (uint32_t b = 0; b < c.boards; b++)
    {
        Ptr<RoceFrontEndApp> app = m_apps[b];
        auto qp = m_manager.Connect(
            m_cam.assignerNic,
            m_cam.boardNics[b],
            [app, assigner, b, assignments](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                assignments->emplace_back(qa, qb);
                assigner->ReplaceBoard(b, qa);
                app->SetAssignmentQueuePair(qb);
            });
        assigner->AddBoard(qp.first);
        app->SetAssignmentQueuePair(qp.second);
        assignments->push_back(qp);
    }
}

void
AdvcamEventBuilding::ConnectAnnouncements()
{
    // receiver k -> every board, after every other connection (the static rule's are the
    // camera's)
    std::vector<QpPair>* announcements = &m_controlQps[0];
    for (uint32_t k = 0; k < m_rxApps.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        for (uint32_t b = 0; b < m_apps.size(); b++)
        {
            Ptr<RoceFrontEndApp> app = m_apps[b];
            auto qp = m_manager.Connect(
                m_cam.rxNics[k],
                m_cam.boardNics[b],
                [rx, app, k, b, announcements](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                    announcements->emplace_back(qa, qb);
                    app->SetAnnounceQueuePair(k, qb);
                    rx->ReplaceAnnounceQueuePair(b, qa);
                });
            rx->AddAnnounceQueuePair(qp.first);
            app->SetAnnounceQueuePair(k, qp.second);
            announcements->push_back(qp);
        }
    }
}

void
AdvcamEventBuilding::WatchFailures()
{
    for (uint32_t k = 0; k < m_flags.camera.receivers; k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        m_failures.AddHost(m_cam.rxNics[k], m_cam.rxLinks[k], [rx](bool up) {
            if (up)
            {
                rx->Restart();
            }
            else
            {
                rx->Fail();
            }
        });
    }
}

void
AdvcamEventBuilding::ConnectLedger()
{
    EventLedger* l = &m_ledger;
    m_apps[0]->TraceConnectWithoutContext("Trigger", MakeBoundCallback(&OnTrigger, l));
    for (auto& app : m_apps)
    {
        app->TraceConnectWithoutContext("EventLost", MakeBoundCallback(&OnBoardLost, l));
        app->TraceConnectWithoutContext("FragmentPosted", MakeBoundCallback(&OnPosted, l));
        app->TraceConnectWithoutContext("FragmentFailed",
                                        MakeBoundCallback(&OnFailed, l, PeekPointer(app)));
    }
    for (uint32_t k = 0; k < m_rxApps.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        rx->TraceConnectWithoutContext("EventBuilt", MakeBoundCallback(&OnBuilt, l, k));
        rx->TraceConnectWithoutContext("EventTimedOut", MakeBoundCallback(&OnTimedOut, l));
        rx->TraceConnectWithoutContext("EventLost", MakeBoundCallback(&OnCrashLost, l));
        rx->TraceConnectWithoutContext("EventIncomplete", MakeBoundCallback(&OnBoardLost, l));
    }
    m_droppedAt.assign(m_rxApps.size(), Time::Max());
    if (m_assigner)
    {
        m_assigner->TraceConnectWithoutContext("ReceiverDropped",
                                               MakeBoundCallback(&OnDropped, &m_droppedAt));
    }
    else if (m_flags.BoardRule())
    {
        // every board lapses a receiver at the same event: board 0 speaks for them
        m_apps[0]->TraceConnectWithoutContext("ReceiverLapsed",
                                              MakeBoundCallback(&OnDropped, &m_droppedAt));
    }
}

void
AdvcamEventBuilding::Watch(FeroceStudy& study)
{
    for (uint32_t k = 0; k < m_rxApps.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        study.AddFlow(
            "rx" + std::to_string(k),
            [rx]() { return rx->GetBytesReceived(); },
            Time(0),
            m_duration);
    }
    study.WatchSwitches(m_cam.GetSwitches(), m_cam.GetQueues());
    const std::vector<Ptr<RoceFrontEndApp>>* apps = &m_apps;
    study.AddGauge("events_lost", [apps]() {
        uint64_t lost = 0;
        for (auto& a : *apps)
        {
            lost += a->GetEventsLost();
        }
        return double(lost);
    });
    study.AddGauge("board_buffer_max_bytes", [apps]() {
        uint64_t most = 0;
        for (auto& a : *apps)
        {
            most = std::max(most, a->GetBufferBytes());
        }
        return double(most);
    });
    study.AddGauge("board_unassigned_max", [apps]() {
        std::size_t most = 0;
        for (auto& a : *apps)
        {
            most = std::max(most, a->GetUnassigned());
        }
        return double(most);
    });
    if (m_assigner)
    {
        Ptr<RoceAssignerApp> assigner = m_assigner;
        study.AddGauge("assigner_pending_blocks",
                       [assigner]() { return double(assigner->GetPendingBlocks()); });
    }
    for (uint32_t k = 0; k < m_rxApps.size(); k++)
    {
        Ptr<RoceReceiverApp> rx = m_rxApps[k];
        study.AddGauge("rx" + std::to_string(k) + "_events_partial",
                       [rx]() { return double(rx->GetPartialEvents()); });
    }
}

void
AdvcamEventBuilding::ScheduleFailures(RoceHelper& helper)
{
    int64_t trigger = 1 + helper.AssignStreams(1);
    for (Ptr<RoceFrontEndApp> app : m_apps)
    {
        app->AssignStreams(trigger);
    }
    if (m_assigner)
    {
        m_assigner->AssignStreams(trigger);
    }
    if (m_flags.BoardRule())
    {
        for (auto& rx : m_rxApps)
        {
            rx->AssignStreams(trigger); // they count the boards' triggers
        }
    }
    m_failures.AssignStreams(trigger + 1);
    if (m_flags.failReceiver >= 0)
    {
        m_failures.Schedule(uint32_t(m_flags.failReceiver),
                            m_flags.failAt,
                            m_flags.returnAt.IsZero() ? Time::Max() : m_flags.returnAt);
    }
    else if (m_flags.mtbf.IsStrictlyPositive())
    {
        m_failures.Random(m_flags.mtbf, m_flags.mttr, m_duration);
    }
}

} // namespace ns3
