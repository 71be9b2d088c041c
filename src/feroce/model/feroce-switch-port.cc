/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-switch-port.h"

#include "feroce-switch.h"
#include "link-pause-header.h"
#include "pfc-header.h"

#include "ns3/feroce-sim.h"
#include "ns3/feroce-uniform-stream.h"
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
{
}

FeroceSwitchPort::~FeroceSwitchPort()
{
    for (uint8_t q = 0; q <= kControlQueue; q++)
    {
        Clear(q);
    }
}

void
FeroceSwitchPort::DoDispose()
{
    for (uint8_t q = 0; q <= kControlQueue; q++)
    {
        Clear(q);
    }
    m_upstream.Cancel();
    for (auto& w : m_watch)
    {
        w.check.Cancel();
    }
    m_pfcOut.clear();
    m_nonEmpty = 0;
    m_waiting = 0;
    m_switch = nullptr;
    SetAheadOwner(nullptr);
    FeroceNetDevice::DoDispose();
}

void
FeroceSwitchPort::SetSwitch(FeroceSwitch* sw, uint32_t index)
{
    m_switch = sw;
    m_index = index;
    SetAheadOwner(sw ? sw->VisitHead() : nullptr); // fetched ahead of a frame's visit
}

const FeroceSwitchPort::Config&
FeroceSwitchPort::GetConfig() const
{
    return m_config;
}

static_assert(FEROCE_MARK_DEQUEUE == 0 && FEROCE_MARK_ENQUEUE == 1,
              "FeroceSwitchPort::m_marks is indexed by the marking point");

void
FeroceSwitchPort::SetConfig(const Config& config)
{
    m_config = config;
    m_byteQuantum = config.byteQuantum;
    m_marks[FEROCE_MARK_DEQUEUE] = 0;
    m_marks[FEROCE_MARK_ENQUEUE] = 0;
    for (uint8_t q = 0; q < 8; q++)
    {
        m_queue[q].quantum = config.quantum[q];
        m_queue[q].kmin = config.cp[q].kmin_bytes;
        if (config.ecn)
        {
            feroce_mark_point at = config.cp[q].point == FEROCE_MARK_DEQUEUE ? FEROCE_MARK_DEQUEUE
                                                                             : FEROCE_MARK_ENQUEUE;
            m_marks[at] |= uint8_t(1u << q);
        }
    }
}

FeroceSwitchPort::Entry
FeroceSwitchPort::PopFront(uint8_t q)
{
    FeroceRing<Entry>& ring = m_queue[q].ring;
    Entry e = ring.front();
    ring.pop_front();
    return e;
}

void
FeroceSwitchPort::Clear(uint8_t q)
{
    while (!m_queue[q].ring.empty())
    {
        PopFront(q).frame->Unref();
    }
    m_queue[q].bytes = 0;
}

FeroceSwitch*
FeroceSwitchPort::GetSwitch() const
{
    return m_switch;
}

void
FeroceSwitchPort::Enqueue(uint8_t queue, const Entry& e)
{
    if (m_stormDrop >> queue & 1)
    {
        WatchdogDrop(e); // a queue in a storm: what comes for it is discarded
        return;
    }
    // with ECN (Config::ecn), a draw whether or not the marking point is enqueue: the switch's
    // one stream sees two draws per data frame in dequeue mode, as it always has (where the queue
    // does not mark at enqueue, a data frame's draw is a place taken, without a branch on the
    // frame's kind: data and control frames alternate)
    if (Ecn())
    {
        if (m_marks[FEROCE_MARK_ENQUEUE] >> queue & 1) // (the control queue's bit 8 is outside it)
        {
            Mark(queue, e.frame, FEROCE_MARK_ENQUEUE);
        }
        else
        {
            m_switch->m_uniformStream->Skip(queue != kControlQueue);
        }
    }
    e.frame->Ref(); // the queue's reference, given to the wire when the frame leaves
    Queue& q = m_queue[queue];
    if ((m_nonEmpty | m_waiting | MaybePaused()) == 0 && CanTransmit())
    {
        // an idle port, nothing waiting, no pause: the frame leaves as TrySend would take it,
        // without its queue's ring (and its bytes, 0 again) or the round robin's choice, which
        // ends as a turn that emptied its priority (more than half a fabric's frames)
        m_switch->m_queueTrace(m_index, queue, q.bytes + e.frame->GetSize());
        if (queue != kControlQueue)
        {
            q.deficit = 0;
            m_rrNext = (queue + 1) & 7;
            m_turnStarted = false;
        }
        Depart(queue, e);
        uint8_t next = NextQueue();
        WakeAt(next == kNone ? kNever : TxFreeStep());
        return;
    }
    q.ring.push_back(e);
    q.bytes += e.frame->GetSize();
    // without a branch (data and control frames alternate): the control queue's bit 8 falls
    // outside m_nonEmpty, its own is kControlWaits
    m_nonEmpty |= uint8_t(1u << queue);
    m_waiting |= uint8_t(kControlWaits * (queue == kControlQueue));
    m_switch->m_queueTrace(m_index, queue, q.bytes);
    TrySend();
}

void
FeroceSwitchPort::Depart(uint8_t queue, const Entry& e)
{
    FeroceSwitch* sw = m_switch;
    sw->m_queueTrace(m_index, queue, m_queue[queue].bytes);
    feroce_pfc_action pfc = sw->m_buffer.Release(e.in, e.priority, e.frame->GetSize(), e.place);
    if (!sw->m_bufferTrace.IsEmpty())
    {
        sw->m_bufferTrace(sw->m_buffer.GetUsed());
    }
    if (pfc != FEROCE_PFC_HOLD)
    {
        sw->PortAt(e.in)->Pfc(e.priority, pfc);
    }
    if (m_marks[FEROCE_MARK_DEQUEUE] >> queue & 1) // (the control queue's bit 8 is outside it)
    {
        Mark(queue, e.frame, FEROCE_MARK_DEQUEUE);
    }
    TransmitStart(Ptr<FeroceFrame>(e.frame, false)); // the queue's reference goes on
}

void
FeroceSwitchPort::Mark(uint8_t queue, FeroceFrame* frame, feroce_mark_point at)
{
    // one draw, its value computed only where it decides (feroce_cp_mark: u < the probability,
    // of which a queue up to Kmin has 0: the usual case, told before the frame's header is read)
    if (m_queue[queue].bytes <= m_queue[queue].kmin)
    {
        m_switch->m_uniformStream->Below(0.0);
        return;
    }
    double p = feroce_cp_mark_probability(&m_config.cp[queue],
                                          at,
                                          feroce_ecn(frame->Fields().ip.ecn),
                                          m_queue[queue].bytes);
    if (!m_switch->m_uniformStream->Below(p))
    {
        return;
    }
    // only the ECN bits and the IPv4 checksum change; the ICRC masks both
    frame->MarkCe();
    m_ecnMarks++;
    if (!m_switch->m_ecnMarkTrace.IsEmpty())
    {
        m_switch->m_ecnMarkTrace(frame->GetPacket());
    }
}

void
FeroceSwitchPort::Pfc(uint8_t prio, feroce_pfc_action action)
{
    if (action == FEROCE_PFC_XOFF)
    {
        m_upstream.Xoff(prio);
        if (m_config.sendPfc)
        {
            SendPause(prio, m_config.pauseQuanta);
        }
        else
        {
            m_switch->m_pauseTrace(m_index, prio, m_config.pauseQuanta);
        }
        if (m_config.sendLinkPause && m_linkXoff++ == 0)
        {
            m_upstream.Xoff(PauseSender::kLink);
            SendPause(PauseSender::kLink, m_config.pauseQuanta);
        }
    }
    else if (action == FEROCE_PFC_XON)
    {
        m_upstream.Xon(prio);
        if (m_config.sendPfc)
        {
            SendPause(prio, 0);
        }
        else
        {
            m_switch->m_pauseTrace(m_index, prio, 0);
        }
        if (m_config.sendLinkPause && --m_linkXoff == 0)
        {
            m_upstream.Xon(PauseSender::kLink);
            SendPause(PauseSender::kLink, 0);
        }
    }
}

bool
FeroceSwitchPort::IsInStorm(uint8_t prio) const
{
    return prio < 8 && ((m_stormDrop | m_stormForward) >> prio & 1);
}

void
FeroceSwitchPort::WatchPause(uint8_t prio, bool pause)
{
    Watch& w = m_watch[prio];
    bool storm = IsInStorm(prio);
    if (!pause)
    {
        if (!storm)
        {
            w.pausedSince = Time::Max(); // resumed: the watch starts over at the next PAUSE
        }
        return;
    }
    Time now = FeroceSim::Now();
    w.lastPause = now;
    if (!storm && w.pausedSince == Time::Max())
    {
        w.pausedSince = now;
        if (FeroceSim::IsExpired(w.check))
        {
            w.check = Simulator::Schedule(m_config.watchdogDetect,
                                          &FeroceSwitchPort::WatchCheck,
                                          this,
                                          prio);
        }
    }
}

void
FeroceSwitchPort::WatchCheck(uint8_t prio)
{
    Watch& w = m_watch[prio];
    Time now = FeroceSim::Now();
    uint8_t bit = uint8_t(1u << prio);
    if (IsInStorm(prio))
    {
        if (now - w.lastPause >= m_config.watchdogRestore)
        {
            // no PAUSE for a while: the queue is flow-controlled again
            m_stormDrop &= uint8_t(~bit);
            m_stormForward &= uint8_t(~bit);
            w.pausedSince = Time::Max();
            TrySend();
            return;
        }
        w.check = Simulator::Schedule(w.lastPause + m_config.watchdogRestore - now,
                                      &FeroceSwitchPort::WatchCheck,
                                      this,
                                      prio);
        return;
    }
    if (w.pausedSince == Time::Max())
    {
        return;
    }
    if (!IsPaused(prio))
    {
        w.pausedSince = Time::Max(); // the pause ran out by itself
        return;
    }
    if (now - w.pausedSince < m_config.watchdogDetect || m_queue[prio].ring.empty())
    {
        // held, but not long enough yet, or with nothing waiting: look again
        Time next = now - w.pausedSince < m_config.watchdogDetect
                        ? w.pausedSince + m_config.watchdogDetect - now
                        : m_config.watchdogDetect;
        w.check = Simulator::Schedule(next, &FeroceSwitchPort::WatchCheck, this, prio);
        return;
    }
    // a storm: the peer has held this queue, with frames in it, for WatchdogDetect
    m_counters.watchdogStorms++;
    NS_LOG_INFO("port " << m_index << " priority " << unsigned(prio) << ": PFC storm, "
                        << (m_config.watchdogDrop ? "dropping" : "forwarding"));
    if (m_config.watchdogDrop)
    {
        m_stormDrop |= bit;
        Queue& q = m_queue[prio];
        while (!q.ring.empty())
        {
            Entry e = PopFront(prio);
            q.bytes -= e.frame->GetSize();
            WatchdogDrop(e);
            e.frame->Unref();
        }
        m_nonEmpty &= uint8_t(~bit);
        q.deficit = 0;
        m_switch->m_queueTrace(m_index, prio, q.bytes);
    }
    else
    {
        m_stormForward |= bit;
        TrySend();
    }
    w.check = Simulator::Schedule(w.lastPause + m_config.watchdogRestore - now,
                                  &FeroceSwitchPort::WatchCheck,
                                  this,
                                  prio);
}

void
FeroceSwitchPort::WatchdogDrop(const Entry& e)
{
    FeroceSwitch* sw = m_switch;
    feroce_pfc_action pfc = sw->m_buffer.Release(e.in, e.priority, e.frame->GetSize(), e.place);
    if (!sw->m_bufferTrace.IsEmpty())
    {
        sw->m_bufferTrace(sw->m_buffer.GetUsed());
    }
    if (pfc != FEROCE_PFC_HOLD)
    {
        sw->PortAt(e.in)->Pfc(e.priority, pfc);
    }
    m_counters.watchdogDrops++;
}

void
FeroceSwitchPort::SendPause(uint8_t prio, uint16_t quanta)
{
    bool link = prio == PauseSender::kLink;
    m_pfcOut.push_back(link ? MakeLinkPauseFrame(quanta) : MakePfcFrame(prio, quanta));
    m_waiting |= kPfcWaits;
    TrySend();
    if (!link)
    {
        m_switch->m_pauseTrace(m_index, prio, quanta);
    }
    if (quanta == 0)
    {
        m_counters.resumeFramesSent++;
        return;
    }
    m_counters.pauseFramesSent++;
    m_counters.linkPauseFramesSent += link;
    // refresh at half the pause time while the class stays in XOFF
    m_upstream.ScheduleRefresh(prio,
                               GetPfcRefreshInterval(quanta),
                               &FeroceSwitchPort::RefreshPause,
                               this);
}

void
FeroceSwitchPort::RefreshPause(uint8_t prio)
{
    if (m_upstream.IsXoff(prio))
    {
        SendPause(prio, m_config.pauseQuanta);
    }
}

uint64_t
FeroceSwitchPort::GetQueueBytes(uint8_t queue) const
{
    return queue <= kControlQueue ? m_queue[queue].bytes : 0;
}

Time
FeroceSwitchPort::GetUpstreamPausedTime(uint8_t prio) const
{
    if (prio >= 8)
    {
        return Time(0);
    }
    return m_upstream.GetXoffTime(prio);
}

uint64_t
FeroceSwitchPort::GetPauseFramesReceived() const
{
    return m_counters.pauseFramesReceived;
}

FeroceSwitchPort::Counters
FeroceSwitchPort::GetCounters() const
{
    Counters c = m_counters;
    c.ecnMarks = m_ecnMarks;
    return c;
}

uint8_t
FeroceSwitchPort::Sendable() const
{
    uint8_t sendable = m_nonEmpty;
    // only a priority the peer may have paused can be held (none in a run without PAUSE)
    uint16_t maybe = MaybePaused();
    for (unsigned rest = m_nonEmpty & (maybe >> 8 ? 0xffu : maybe); rest != 0; rest &= rest - 1)
    {
        uint8_t q = uint8_t(__builtin_ctz(rest));
        if (Held(q))
        {
            sendable &= uint8_t(~(1u << q));
        }
    }
    return sendable;
}

uint8_t
FeroceSwitchPort::NextQueue() const
{
    if (m_waiting & kPfcWaits)
    {
        return kPfcOut;
    }
    if ((m_waiting & kControlWaits) && !IsLinkPaused())
    {
        return kControlQueue;
    }
    // empty, or every non-empty priority held: a resume wakes us
    return Sendable() != 0 ? kData : kNone;
}

uint8_t
FeroceSwitchPort::PickDataQueue()
{
    // deficit round robin (Shreedhar and Varghese, SIGCOMM 1995): a turn adds the priority's
    // quantum to its credit and lasts while the frame at its head fits in the credit; a frame
    // costs 1 (weights in frames) or its bytes (byteQuantum)
    unsigned sendable = Sendable(); // not 0: NextQueue said kData
    for (;;)
    {
        // the priorities from m_rrNext to the next sendable one pass their turns
        unsigned rotated = (sendable >> m_rrNext | sendable << (8 - m_rrNext)) & 0xff;
        uint8_t q = uint8_t((m_rrNext + __builtin_ctz(rotated)) & 7);
        if (q != m_rrNext)
        {
            m_rrNext = q;
            m_turnStarted = false;
        }
        Queue& queue = m_queue[q];
        if (!m_turnStarted)
        {
            queue.deficit += queue.quantum;
            m_turnStarted = true;
        }
        uint64_t cost = m_byteQuantum ? queue.ring.front().frame->GetSize() : 1;
        if (cost <= queue.deficit)
        {
            queue.deficit -= cost;
            return q;
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
            if (m_pfcOut.empty())
            {
                m_waiting &= uint8_t(~kPfcWaits);
            }
            TransmitStart(frame);
        }
        else
        {
            uint8_t queue = next == kControlQueue ? kControlQueue : PickDataQueue();
            Entry e = PopFront(queue);
            Queue& q = m_queue[queue];
            q.bytes -= e.frame->GetSize();
            if (q.ring.empty())
            {
                if (queue == kControlQueue)
                {
                    m_waiting &= uint8_t(~kControlWaits);
                }
                else
                {
                    // an emptied priority loses its credit and ends its turn
                    m_nonEmpty &= uint8_t(~(1u << queue));
                    q.deficit = 0;
                    if (m_rrNext == queue)
                    {
                        m_rrNext = (queue + 1) & 7;
                        m_turnStarted = false;
                    }
                }
            }
            Depart(queue, e);
        }
        next = NextQueue();
    }
    // the next frame starts when this one ends
    WakeAt(next == kNone ? kNever : TxFreeStep());
}

void
FeroceSwitchPort::HandleFrame(const Ptr<FeroceFrame>& frame)
{
    if (!frame->IsRoce())
    {
        PfcHeader pfc;
        LinkPauseHeader pause;
        feroce_frame_kind kind = ReadMacControl(*frame, pfc, pause);
        if (kind == FEROCE_FRAME_PFC && pfc.GetError() == FEROCE_WIRE_OK)
        {
            m_counters.pauseFramesReceived++;
            ApplyPause(pfc);
            if (m_config.watchdogDetect.IsStrictlyPositive())
            {
                for (uint8_t prio = 0; prio < 8; prio++)
                {
                    if (pfc.IsEnabled(prio))
                    {
                        WatchPause(prio, pfc.GetQuanta(prio) > 0);
                    }
                }
            }
            TrySend();
            return;
        }
        if (kind == FEROCE_FRAME_LINK_PAUSE && pause.GetError() == FEROCE_WIRE_OK)
        {
            // a switch port obeys the link-level PAUSE of its peer: it holds everything
            m_counters.linkPauseFramesReceived++;
            ApplyLinkPause(pause.GetQuanta());
            if (m_config.watchdogDetect.IsStrictlyPositive())
            {
                for (uint8_t prio = 0; prio < 8; prio++)
                {
                    WatchPause(prio, pause.GetQuanta() > 0);
                }
            }
            TrySend();
            return;
        }
    }
    // RoCEv2 to forward, or a frame the switch drops as malformed
    m_switch->Receive(this, frame);
}

} // namespace ns3
