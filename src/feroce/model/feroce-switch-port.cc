/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-switch-port.h"

#include "feroce-switch.h"
#include "pfc-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceSwitchPort");
NS_OBJECT_ENSURE_REGISTERED(FeroceSwitchPort);

TypeId
FeroceSwitchPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FeroceSwitchPort")
                            .SetParent<FeroceNetDevice>()
                            .SetGroupName("Feroce")
                            .AddConstructor<FeroceSwitchPort>();
    return tid;
}

FeroceSwitchPort::FeroceSwitchPort()
    : m_switch(nullptr),
      m_index(0),
      m_bytes{},
      m_nonEmpty(0),
      m_rrNext(0),
      m_turnStarted(false),
      m_deficit{}
{
}

FeroceSwitchPort::~FeroceSwitchPort()
{
}

void
FeroceSwitchPort::DoDispose()
{
    for (auto& q : m_queue)
    {
        q.clear();
    }
    m_pfcOut.clear();
    m_nonEmpty = 0;
    m_switch = nullptr;
    FeroceNetDevice::DoDispose();
}

void
FeroceSwitchPort::SetSwitch(FeroceSwitch* sw, uint32_t index)
{
    m_switch = sw;
    m_index = index;
}

uint32_t
FeroceSwitchPort::GetPortIndex() const
{
    return m_index;
}

FeroceSwitch*
FeroceSwitchPort::GetSwitch() const
{
    return m_switch;
}

void
FeroceSwitchPort::Enqueue(uint8_t queue, const Entry& e)
{
    m_queue[queue].push_back(e);
    m_bytes[queue] += e.frame->GetSize();
    if (queue < kControlQueue)
    {
        m_nonEmpty |= uint8_t(1u << queue);
    }
    m_switch->NotifyQueue(m_index, queue, m_bytes[queue]);
    TrySend();
}

void
FeroceSwitchPort::SendPfc(Ptr<FeroceFrame> frame)
{
    m_pfcOut.push_back(frame);
    TrySend();
}

uint64_t
FeroceSwitchPort::GetQueueBytes(uint8_t queue) const
{
    return queue <= kControlQueue ? m_bytes[queue] : 0;
}

Time
FeroceSwitchPort::GetUpstreamPausedTime(uint8_t prio) const
{
    return m_switch ? m_switch->GetUpstreamPausedTime(m_index, prio) : Time(0);
}

uint64_t
FeroceSwitchPort::GetPauseFramesReceived() const
{
    return m_counters.pauseFramesReceived;
}

const FeroceSwitchPort::Counters&
FeroceSwitchPort::GetCounters() const
{
    return m_counters;
}

uint8_t
FeroceSwitchPort::NextQueue() const
{
    if (!m_pfcOut.empty())
    {
        return kPfcOut;
    }
    if (!m_queue[kControlQueue].empty())
    {
        return kControlQueue;
    }
    for (uint8_t q = 0; m_nonEmpty >> q; q++)
    {
        if ((m_nonEmpty >> q & 1) && !IsPaused(q))
        {
            return kData;
        }
    }
    return kNone; // empty, or every non-empty priority paused: a resume wakes us
}

uint8_t
FeroceSwitchPort::PickDataQueue()
{
    // deficit round robin (Shreedhar and Varghese, SIGCOMM 1995): a turn adds the priority's
    // quantum to its credit and lasts while the frame at its head fits in the credit; a frame
    // costs 1 (weights in frames) or its bytes (WrrQuantum > 0)
    bool bytes = m_switch->m_wrrQuantum > 0;
    for (;;)
    {
        uint8_t q = m_rrNext;
        if ((m_nonEmpty >> q & 1) && !IsPaused(q))
        {
            if (!m_turnStarted)
            {
                m_deficit[q] += m_switch->m_quantum[q];
                m_turnStarted = true;
            }
            uint64_t cost = bytes ? m_queue[q].front().frame->GetSize() : 1;
            if (cost <= m_deficit[q])
            {
                m_deficit[q] -= cost;
                return q;
            }
        }
        m_rrNext = (q + 1) & 7;
        m_turnStarted = false;
    }
}

void
FeroceSwitchPort::TrySend()
{
    uint8_t next = NextQueue();
    if (next != kNone && CanTransmit())
    {
        if (next == kPfcOut)
        {
            Ptr<FeroceFrame> frame = m_pfcOut.front();
            m_pfcOut.pop_front();
            TransmitStart(frame);
        }
        else
        {
            uint8_t queue = next == kControlQueue ? kControlQueue : PickDataQueue();
            Entry e = m_queue[queue].front();
            m_queue[queue].pop_front();
            m_bytes[queue] -= e.frame->GetSize();
            if (queue != kControlQueue && m_queue[queue].empty())
            {
                // an emptied priority loses its credit and ends its turn
                m_nonEmpty &= uint8_t(~(1u << queue));
                m_deficit[queue] = 0;
                if (m_rrNext == queue)
                {
                    m_rrNext = (queue + 1) & 7;
                    m_turnStarted = false;
                }
            }
            m_switch->NotifyQueue(m_index, queue, m_bytes[queue]);
            TransmitStart(m_switch->Dequeue(this, queue, e));
        }
        next = NextQueue();
    }
    // the next frame starts when this one ends
    WakeAt(next == kNone ? Time::Max() : GetTxFreeAt());
}

void
FeroceSwitchPort::HandleFrame(Ptr<FeroceFrame> frame)
{
    uint8_t head[FEROCE_ETH_LEN + 2]; // EtherType and MAC-control opcode
    if (!frame->IsRoce() && frame->GetSize() >= sizeof(head))
    {
        frame->GetPacket()->CopyData(head, sizeof(head));
        if (feroce_frame_classify(head, sizeof(head)) == FEROCE_FRAME_PFC)
        {
            HandlePause(frame);
            return;
        }
    }
    m_switch->Receive(this, frame);
}

void
FeroceSwitchPort::HandlePause(Ptr<FeroceFrame> frame)
{
    PfcHeader pfc;
    frame->GetPacket()->PeekHeader(pfc);
    if (pfc.GetError() != FEROCE_WIRE_OK)
    {
        m_switch->Drop(frame, FeroceSwitch::DROP_MALFORMED);
        return;
    }
    m_counters.pauseFramesReceived++;
    ApplyPause(pfc);
    TrySend();
}

} // namespace ns3
