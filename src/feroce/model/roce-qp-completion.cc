/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The completer of a queue pair (as Linux's rxe_comp.c): ACKs and NAKs from the responder,
// the retransmission timer and go-back-N, completions in order, and the error state.

#include "roce-nic.h"
#include "roce-queue-pair.h"

#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceQueuePairCompletion");

namespace
{

/*
 * RNR NAK timer codes in units of 10 us (InfiniBand Architecture Specification
 * vol. 1, "Encoding for RNR NAK Timer Field"; the same table as min_rnr_timer
 * in ibv_modify_qp(3)).  Code 0 is the longest, 655.36 ms.
 */
const uint32_t kRnrTimer10us[32] = {65536, 1,    2,    3,     4,     6,     8,     12,
                                    16,    24,   32,   48,    64,    96,    128,   192,
                                    256,   384,  512,  768,   1024,  1536,  2048,  3072,
                                    4096,  6144, 8192, 12288, 16384, 24576, 32768, 49152};

} // namespace

bool
RoceQueuePair::HasUnacked() const
{
    return m_unackedPsn != m_sentEnd;
}

void
RoceQueuePair::ArmRetransmitTimer()
{
    // one event per QP; later progress only moves the deadline
    m_retransmitDeadline = FeroceSim::Now() + m_ackTimeout;
    m_jitterDrawn = false;
    // (what m_retransmitEvent.IsExpired() says, without touching the event)
    if (!m_retransmitPending)
    {
        m_retransmitEvent =
            Simulator::Schedule(m_ackTimeout, &RoceQueuePair::RetransmitTimeout, this);
        m_retransmitPending = true;
    }
}

void
RoceQueuePair::RetransmitTimeout()
{
    m_retransmitPending = false;
    if (m_state != RTS || !HasUnacked())
    {
        return;
    }
    Time now = FeroceSim::Now();
    if (now < m_retransmitDeadline)
    {
        m_retransmitEvent = Simulator::Schedule(m_retransmitDeadline - now,
                                                &RoceQueuePair::RetransmitTimeout,
                                                this);
        m_retransmitPending = true;
        return;
    }
    if (!m_jitterDrawn && m_ackTimeoutJitter.IsStrictlyPositive())
    {
        // one draw per expiry (none per ACK); progress before it fires starts over
        m_jitterDrawn = true;
        Time extra = NanoSeconds(int64_t(DrawJitterNs()));
        m_retransmitDeadline = now + extra;
        m_retransmitEvent = Simulator::Schedule(extra, &RoceQueuePair::RetransmitTimeout, this);
        m_retransmitPending = true;
        return;
    }
    NS_LOG_INFO("QP " << m_qpn << " timeout at PSN " << m_unackedPsn);
    m_counters.timeouts++;
    if (m_traced & Traces::TIMEOUT)
    {
        m_traces->timeout(m_unackedPsn);
    }
    if (++m_retries > m_retryCount)
    {
        EnterError(ROCE_WC_RETRY_EXCEEDED);
        return;
    }
    RewindTo(m_unackedPsn);
    ArmRetransmitTimer();
    m_nic->TrySend();
}

void
RoceQueuePair::RewindTo(uint32_t psn)
{
    m_nextPsn = psn;
    m_nic->NotifySendable(m_qpn);
    for (std::size_t i = 0; i < m_sq.size(); i++)
    {
        int32_t d = feroce_psn_diff(psn, m_sq[i].firstPsn);
        if (d >= 0 && uint32_t(d) < m_sq[i].npkts)
        {
            m_sendIdx = i;
            m_sendPkt = uint32_t(d);
            return;
        }
    }
    m_sendIdx = m_sq.size();
    m_sendPkt = 0;
}

void
RoceQueuePair::AcknowledgeUpTo(uint32_t psn)
{
    uint32_t acked = feroce_psn_add(psn, 1);
    if (feroce_psn_diff(acked, m_unackedPsn) <= 0 || feroce_psn_diff(acked, m_sentEnd) > 0)
    {
        return; // nothing new, or a PSN never sent
    }
    m_unackedPsn = acked;
    m_retries = 0;
    m_rnrRetries = 0;
    // completions go out once the state is consistent; the NIC's vector is reused (and a
    // completion callback that acknowledges more meanwhile finds it taken, and uses its own)
    std::vector<RoceCompletion> done;
    done.swap(m_nic->m_completedScratch);
    done.clear();
    bool delayed = m_completionLatency.IsStrictlyPositive();
    while (!m_sq.empty() &&
           feroce_psn_diff(m_unackedPsn,
                           feroce_psn_add(m_sq.front().firstPsn, m_sq.front().npkts)) >= 0)
    {
        if (delayed)
        {
            // the engine retires it later; its slot stays taken until then
            Retiring r;
            r.completion = MakeCompletion(m_sq.front(), ROCE_WC_SUCCESS);
            r.due = FeroceSim::Now() + m_completionLatency;
            m_retiring.push_back(r);
        }
        else
        {
            done.push_back(MakeCompletion(m_sq.front(), ROCE_WC_SUCCESS));
        }
        m_sq.pop_front();
        if (m_sendIdx > 0)
        {
            m_sendIdx--;
        }
        else
        {
            m_sendPkt = 0;
        }
    }
    if (feroce_psn_diff(m_nextPsn, m_unackedPsn) < 0)
    {
        RewindTo(m_unackedPsn); // acknowledged beyond a rewind: skip what arrived
    }
    if (HasUnacked())
    {
        ArmRetransmitTimer();
    }
    if (!m_retiring.empty() && FeroceSim::IsExpired(m_retireEvent))
    {
        m_retireEvent = Simulator::Schedule(m_retiring.front().due - FeroceSim::Now(),
                                            &RoceQueuePair::RetireDue,
                                            this);
    }
    for (const RoceCompletion& c : done)
    {
        Complete(c);
    }
    done.swap(m_nic->m_completedScratch);
}

void
RoceQueuePair::Complete(const RoceCompletion& c)
{
    m_counters.completions++;
    if (m_traced & Traces::COMPLETION)
    {
        m_traces->completion(c, c.completed - c.posted);
    }
    if (m_completionFn)
    {
        m_completionFn(m_completionContext, m_completionIndex, c);
    }
}

void
RoceQueuePair::RetireDue()
{
    Time now = FeroceSim::Now();
    // the requests the completions post go out in one TrySend, as after an ACK
    m_nic->m_holdTrySend = true;
    while (!m_retiring.empty() && m_retiring.front().due <= now)
    {
        RoceCompletion c = m_retiring.front().completion;
        c.completed = now;
        m_retiring.pop_front();
        Complete(c);
    }
    m_nic->m_holdTrySend = false;
    if (!m_retiring.empty())
    {
        m_retireEvent =
            Simulator::Schedule(m_retiring.front().due - now, &RoceQueuePair::RetireDue, this);
    }
    m_nic->TrySend();
}

RoceCompletion
RoceQueuePair::MakeCompletion(const SendEntry& e, RoceCompletionStatus status) const
{
    RoceCompletion c;
    c.id = e.wr.id;
    c.qpn = m_qpn;
    c.write = e.wr.write;
    c.length = e.wr.length;
    c.status = status;
    c.posted = e.posted;
    c.completed = FeroceSim::Now();
    return c;
}

void
RoceQueuePair::EnterError(RoceCompletionStatus why)
{
    NS_LOG_WARN("QP " << m_qpn << " enters the error state: " << RoceCompletionStatusName(why));
    m_state = ERROR;
    m_retransmitEvent.Cancel();
    m_retransmitPending = false;
    // the requests already acknowledged complete successfully, before the failed ones
    m_retireEvent.Cancel();
    FeroceRing<Retiring> retiring;
    retiring.swap(m_retiring);
    for (std::size_t i = 0; i < retiring.size(); i++)
    {
        Complete(retiring[i].completion);
    }
    FeroceRing<SendEntry> flushed;
    flushed.swap(m_sq);
    m_sendIdx = 0;
    m_sendPkt = 0;
    if (m_traced & Traces::ERROR)
    {
        m_traces->error(m_qpn, why);
    }
    m_nic->NotifyQpError(m_qpn);
    bool firstEntry = true;
    for (std::size_t i = 0; i < flushed.size(); i++)
    {
        RoceCompletion c = MakeCompletion(flushed[i], firstEntry ? why : ROCE_WC_FLUSHED);
        firstEntry = false;
        if (m_completionFn)
        {
            m_completionFn(m_completionContext, m_completionIndex, c);
        }
    }
}

void
RoceQueuePair::ReceiveAck(const feroce_roce& f)
{
    uint8_t syndrome = f.aeth.syndrome;
    uint32_t psn = f.bth.psn;
    switch (FEROCE_AETH_KIND(syndrome))
    {
    case 0:
        m_counters.acksReceived++;
        // requests the completions post go out in the one TrySend below (same instant, same
        // state): not one TrySend per post
        m_nic->m_holdTrySend = true;
        AcknowledgeUpTo(psn);
        m_nic->m_holdTrySend = false;
        break;
    case 1: {
        m_counters.rnrNaksReceived++;
        if (m_traced & Traces::NAK)
        {
            m_traces->nak(psn);
        }
        AcknowledgeUpTo(feroce_psn_add(psn, FEROCE_PSN_MASK));
        if (m_rnrRetry != 7 && uint32_t(++m_rnrRetries) > m_rnrRetry)
        {
            EnterError(ROCE_WC_RNR_RETRY_EXCEEDED);
            return;
        }
        Time wait = MicroSeconds(10) * int64_t(kRnrTimer10us[FEROCE_AETH_VALUE(syndrome)]);
        m_rnrUntil = FeroceSim::Now() + wait;
        RewindTo(psn); // TrySend below wakes the NIC at m_rnrUntil
        break;
    }
    case 3:
        m_counters.naksReceived++;
        if (m_traced & Traces::NAK)
        {
            m_traces->nak(psn);
        }
        if (FEROCE_AETH_VALUE(syndrome) != FEROCE_NAK_PSN_SEQ_ERR)
        {
            EnterError(ROCE_WC_REMOTE_ERROR);
            return;
        }
        AcknowledgeUpTo(feroce_psn_add(psn, FEROCE_PSN_MASK));
        if (feroce_psn_diff(psn, m_unackedPsn) == 0 && ++m_retries > m_retryCount)
        {
            EnterError(ROCE_WC_RETRY_EXCEEDED);
            return;
        }
        RewindTo(psn); // go-back-N
        break;
    default:
        return; // reserved syndrome: ignored
    }
    m_nic->TrySend();
}

} // namespace ns3
