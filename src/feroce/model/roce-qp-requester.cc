/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The requester side of a queue pair (as Linux's rxe_req.c): pacing by the DCQCN rate
// limiter, the next data packet of the send queue, and the CNPs that drive the reaction point.

#include "roce-nic.h"
#include "roce-queue-pair.h"

#include "ns3/feroce-sim.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

double
RoceQueuePair::GetRateBps()
{
    if (!m_nic->IsDcqcnEnabled())
    {
        return double(m_nic->GetDataRate().GetBitRate());
    }
    m_rl.Advance(m_nic->NowNs());
    ReportRates();
    return m_rl.Rc();
}

double
RoceQueuePair::GetTargetRateBps()
{
    GetRateBps();
    return m_nic->IsDcqcnEnabled() ? m_rl.Rt() : double(m_nic->GetDataRate().GetBitRate());
}

double
RoceQueuePair::GetAlpha()
{
    GetRateBps();
    return m_rl.Alpha();
}

const feroce_rp_fixed_regs*
RoceQueuePair::GetFixedRegisters()
{
    GetRateBps();
    return m_rl.GetFixedRegisters();
}

void
RoceQueuePair::ReportRates()
{
    if (!(m_traced & Traces::DCQCN))
    {
        return; // no DCQCN trace connected: Connecting() takes the values when one is
    }
    Traces& t = *m_traces;
    double rc = m_rl.Rc();
    double rt = m_rl.Rt();
    double alpha = m_rl.Alpha();
    if (rc != t.reportedRc)
    {
        t.rate(t.reportedRc, rc);
        t.reportedRc = rc;
    }
    if (rt != t.reportedRt)
    {
        t.targetRate(t.reportedRt, rt);
        t.reportedRt = rt;
    }
    if (alpha != t.reportedAlpha)
    {
        t.alpha(t.reportedAlpha, alpha);
        t.reportedAlpha = alpha;
    }
}

Time
RoceQueuePair::NextSendTime(Time now) const
{
    if (m_state != RTS || m_sendIdx >= m_sq.size())
    {
        return Time::Max();
    }
    int32_t inFlight = feroce_psn_diff(m_nextPsn, m_unackedPsn);
    if (inFlight >= 0x7fffff ||
        (m_maxUnackedBytes && uint64_t(inFlight) * m_pmtu >= m_maxUnackedBytes))
    {
        return Time::Max(); // the window is full: an ACK reopens it
    }
    Time t = m_rnrUntil > now ? m_rnrUntil : now;
    // pacing, rounded down to the nanosecond grid of the wire
    Time paced = m_nic->FromNs(int64_t(std::floor(m_nextSendNs + 1e-6)));
    return paced > t ? paced : t;
}

Ptr<FeroceFrame>
RoceQueuePair::BuildDataPacket()
{
    NS_ASSERT(m_sendIdx < m_sq.size());
    const SendEntry& e = m_sq[m_sendIdx];
    uint64_t offset = uint64_t(m_sendPkt) * m_pmtu;
    uint32_t payload =
        uint32_t(std::min<uint64_t>(m_pmtu, e.wr.length - std::min(offset, e.wr.length)));
    bool first = m_sendPkt == 0;
    bool last = m_sendPkt + 1 == e.npkts;

    feroce_roce f = Header();
    f.bth.opcode = feroce_opcode_for(e.wr.write, first, last, e.wr.withImm);
    f.bth.psn = m_nextPsn;
    // AckReq: a message's last packet (every AckReqMessages-th message's, and the last one of a
    // full send queue's, so that a full window never waits for an ACK nobody asked for), and
    // every AckReqInterval packets
    bool full = m_sendIdx + 1 >= m_sq.size() && m_sq.size() + m_retiring.size() >= m_sendQueueDepth;
    bool signaled = m_ackReqMessages == 1 || full ||
                    (m_ackReqMessages > 1 && (e.seq + 1) % m_ackReqMessages == 0);
    f.bth.ackreq =
        (last && signaled) || (m_ackReqInterval && (m_sendPkt + 1) % m_ackReqInterval == 0);
    unsigned flags = feroce_opcode_flags(f.bth.opcode);
    if (flags & FEROCE_OPF_RETH)
    {
        f.reth.va = e.wr.remoteAddr;
        f.reth.rkey = e.wr.rkey;
        f.reth.dmalen = uint32_t(e.wr.length);
    }
    if (flags & FEROCE_OPF_IMMDT)
    {
        f.immdt = e.wr.imm;
    }
    f.payload_len = payload;
    Ptr<FeroceFrame> p = FeroceFrame::MakeRoce(f);

    bool hadUnacked = HasUnacked();
    m_counters.dataPacketsSent++;
    m_counters.payloadBytesSent += payload;
    if (feroce_psn_diff(m_nextPsn, m_sentEnd) < 0)
    {
        m_counters.retransmittedPackets++;
        if (m_traced & Traces::RETRANSMIT)
        {
            m_traces->retransmit(m_nextPsn);
        }
    }
    m_nextPsn = feroce_psn_add(m_nextPsn, 1);
    if (feroce_psn_diff(m_nextPsn, m_sentEnd) > 0)
    {
        m_sentEnd = m_nextPsn;
    }
    if (++m_sendPkt == e.npkts)
    {
        m_sendIdx++;
        m_sendPkt = 0;
    }

    // rate limiter: the next packet may start one wire time at Rc later
    int64_t now = m_nic->NowNs();
    m_lastStartNs = double(now);
    m_lastWireBits = FeroceNetDevice::WireBytes(p->GetSize()) * 8;
    if (m_nic->IsDcqcnEnabled())
    {
        m_rl.Tx(now, p->GetSize());
        m_nextSendNs = m_lastStartNs + m_lastWireBits * 1e9 / m_rl.Rc();
        ReportRates();
    }
    else
    {
        m_nextSendNs = m_lastStartNs;
    }
    if (!hadUnacked)
    {
        ArmRetransmitTimer();
    }
    return p;
}

void
RoceQueuePair::ReceiveCnp()
{
    m_counters.cnpsReceived++;
    if (m_traced & Traces::CNP_RECEIVED)
    {
        m_traces->cnpReceived();
    }
    if (!m_nic->IsDcqcnEnabled())
    {
        return;
    }
    m_rl.Cnp(m_nic->NowNs());
    if (m_lastWireBits)
    {
        // a lower rate pushes the pending send later (never earlier than now)
        m_nextSendNs = m_lastStartNs + m_lastWireBits * 1e9 / m_rl.Rc();
    }
    ReportRates();
    m_nic->TrySend();
}

} // namespace ns3
