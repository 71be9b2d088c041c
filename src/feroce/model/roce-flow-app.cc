/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-flow-app.h"

#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFlowApp");
NS_OBJECT_ENSURE_REGISTERED(RoceFlowApp);

TypeId
RoceFlowApp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceFlowApp")
                            .SetParent<Object>()
                            .SetGroupName("Feroce")
                            .AddConstructor<RoceFlowApp>()
                            .AddTraceSource("FlowDone",
                                            "A flow ended (completed or failed), with its FCT",
                                            MakeTraceSourceAccessor(&RoceFlowApp::m_doneTrace),
                                            "ns3::RoceFlowApp::FlowTracedCallback");
    return tid;
}

RoceFlowApp::RoceFlowApp() = default;

RoceFlowApp::~RoceFlowApp() = default;

void
RoceFlowApp::DoDispose()
{
    m_active.clear();
    m_nics.clear();
    m_source = nullptr;
    Object::DoDispose();
}

void
RoceFlowApp::SetNics(const std::vector<Ptr<RoceNic>>& nics)
{
    m_nics = nics;
}

void
RoceFlowApp::SetSource(Source next)
{
    m_source = std::move(next);
}

void
RoceFlowApp::SetDoneCallback(DoneCallback cb)
{
    m_doneCb = cb;
}

const RoceFlowApp::Counters&
RoceFlowApp::GetCounters() const
{
    return m_counters;
}

void
RoceFlowApp::Start()
{
    m_hasNext = m_source && m_source(m_next);
    if (m_hasNext)
    {
        Simulator::Schedule(NanoSeconds(m_next.start_ns) - FeroceSim::Now(),
                            &RoceFlowApp::StartDue,
                            this);
    }
}

void
RoceFlowApp::StartDue()
{
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    while (m_hasNext && m_next.start_ns <= now)
    {
        Open(m_next);
        m_hasNext = m_source(m_next);
    }
    if (m_hasNext)
    {
        Simulator::Schedule(NanoSeconds(m_next.start_ns - now), &RoceFlowApp::StartDue, this);
    }
}

void
RoceFlowApp::Open(const feroce_flow& f)
{
    NS_ASSERT_MSG(f.src < m_nics.size() && f.dst < m_nics.size() && m_nics[f.src] && m_nics[f.dst],
                  "RoceFlowApp: a flow between nodes without a NIC");
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = uint32_t(m_active.size());
        m_active.emplace_back();
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    Active& a = m_active[slot];
    a.flow = f;
    a.id = m_counters.started++;
    Ptr<RoceNic> src = m_nics[f.src];
    Ptr<RoceNic> dst = m_nics[f.dst];
    a.tx = src->CreateQueuePair();
    a.rx = dst->CreateQueuePair();
    uint16_t k = m_pairFlows[uint64_t(f.src) << 32 | f.dst]++;
    a.tx->SetUdpSourcePort(uint16_t(0xc000 | (k & 0x3fff)));
    if (f.prio != a.tx->GetPriority())
    {
        a.tx->SetPriority(f.prio);
        a.rx->SetPriority(f.prio);
    }
    a.tx->Connect(Mac48Address::ConvertFrom(dst->GetAddress()),
                  dst->GetIpv4Address(),
                  a.rx->GetQpn(),
                  a.rx->GetInitialPsn());
    a.rx->Connect(Mac48Address::ConvertFrom(src->GetAddress()),
                  src->GetIpv4Address(),
                  a.tx->GetQpn(),
                  a.tx->GetInitialPsn());
    a.tx->SetCompletionCallback(MakeCallback(&RoceFlowApp::Completed, this));
    RoceWorkRequest wr;
    wr.id = slot;
    wr.length = f.size;
    wr.write = f.op != FEROCE_FLOW_SEND;
    wr.withImm = f.op == FEROCE_FLOW_WRITE_IMM;
    if (!wr.write)
    {
        a.rx->PostReceive(a.id);
    }
    bool posted = a.tx->PostSend(wr);
    NS_ASSERT_MSG(posted, "RoceFlowApp: a new queue pair refused its first request");
    (void)posted;
    m_counters.active++;
    m_counters.peakActive = std::max(m_counters.peakActive, m_counters.active);
}

void
RoceFlowApp::Completed(const RoceCompletion& c)
{
    uint32_t slot = uint32_t(c.id);
    Active& a = m_active[slot];
    Record r;
    r.id = a.id;
    r.flow = a.flow;
    r.sport = a.tx->GetUdpSourcePort();
    r.fct = FeroceSim::Now() - NanoSeconds(a.flow.start_ns);
    r.status = c.status;
    r.frames = a.tx->GetMessageFrames(a.flow.size, c.write, a.flow.op == FEROCE_FLOW_WRITE_IMM);
    if (c.status == ROCE_WC_SUCCESS)
    {
        m_counters.completed++;
    }
    else
    {
        m_counters.failed++;
    }
    m_counters.active--;
    // the queue pair is in its own callback: release it (and its peer) after it returns
    if (m_ended.empty())
    {
        Simulator::ScheduleNow(&RoceFlowApp::Reap, this);
    }
    m_ended.push_back(slot);
    m_doneTrace(r);
    if (!m_doneCb.IsNull())
    {
        m_doneCb(r);
    }
}

void
RoceFlowApp::Reap()
{
    for (uint32_t slot : m_ended)
    {
        Active& a = m_active[slot];
        m_nics[a.flow.src]->ReleaseQueuePair(a.tx);
        m_nics[a.flow.dst]->ReleaseQueuePair(a.rx);
        a.tx = nullptr;
        a.rx = nullptr;
        m_freeSlots.push_back(slot);
    }
    m_ended.clear();
}

void
RoceFlowApp::ForEachActive(const ActiveVisitor& visit) const
{
    std::vector<const Active*> live;
    for (const Active& a : m_active)
    {
        if (a.tx && std::find(m_ended.begin(), m_ended.end(), uint32_t(&a - m_active.data())) ==
                        m_ended.end())
        {
            live.push_back(&a);
        }
    }
    std::sort(live.begin(), live.end(), [](const Active* x, const Active* y) {
        return x->id < y->id;
    });
    for (const Active* a : live)
    {
        visit(a->id, a->flow, a->rx->GetCounters().payloadBytesDelivered);
    }
}

} // namespace ns3
