/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The responder side of a queue pair (as Linux's rxe_resp.c): the PSN check of arriving
// requests, delivery, ACKs and NAKs, and the notification point's CNPs.

#include "roce-nic.h"
#include "roce-queue-pair.h"

#include "ns3/feroce-sim.h"

namespace ns3
{

void
RoceQueuePair::ReceiveData(const feroce_roce& f)
{
    unsigned flags = feroce_opcode_flags(f.bth.opcode);
    uint32_t psn = f.bth.psn;
    m_counters.dataPacketsReceived++;

    if (f.ip.ecn == FEROCE_ECN_CE)
    {
        m_counters.ceMarksReceived++;
        if (m_nic->IsDcqcnEnabled() &&
            feroce_np_on_ce(m_np,
                            feroce_np_select(m_np, &m_npState, m_nic->GetPortNpState()),
                            FeroceSim::Now().GetNanoSeconds()))
        {
            SendCnp();
        }
    }

    int32_t d = feroce_psn_diff(psn, m_ePsn);
    if (d < 0)
    {
        m_counters.duplicatesReceived++;
        if (!m_dupAcked || f.bth.ackreq)
        {
            SendAck(feroce_psn_add(m_ePsn, FEROCE_PSN_MASK),
                    FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE));
            m_dupAcked = true;
        }
        return;
    }
    if (d > 0)
    {
        m_counters.outOfOrderReceived++;
        if (!m_nakSent)
        {
            SendAck(m_ePsn, FEROCE_AETH_NAK(FEROCE_NAK_PSN_SEQ_ERR));
            m_counters.naksSent++;
            m_nakSent = true;
        }
        return;
    }

    bool isSend = flags & FEROCE_OPF_SEND;
    if (isSend && (flags & FEROCE_OPF_FIRST) && !m_inSend)
    {
        if (m_rq.empty())
        {
            SendAck(psn, FEROCE_AETH_RNR_NAK(m_rnrTimerCode));
            m_counters.rnrNaksSent++;
            m_nakSent = true; // the rest of the message is dropped silently until the retry
            return;
        }
        m_sendRecvId = m_rq.front();
        m_rq.pop_front();
        m_inSend = true;
    }
    m_ePsn = feroce_psn_add(m_ePsn, 1);
    m_nakSent = false;
    m_dupAcked = false;
    bool last = flags & FEROCE_OPF_LAST;
    if (last)
    {
        m_msn = (m_msn + 1) & FEROCE_PSN_MASK;
        m_counters.messagesDelivered++;
    }
    m_counters.payloadBytesDelivered += f.payload_len;

    RoceReceive r;
    r.qpn = m_qpn;
    r.bytes = f.payload_len;
    r.write = !isSend;
    r.last = last;
    r.withImm = flags & FEROCE_OPF_IMMDT;
    r.imm = f.immdt;
    r.recvId = isSend ? m_sendRecvId : 0;
    if (isSend && last)
    {
        m_inSend = false;
    }
    if (m_receiveFn)
    {
        m_receiveFn(m_receiveContext, m_receiveIndex, r);
    }

    if (f.bth.ackreq || ++m_unackedReceived >= m_ackInterval)
    {
        SendAck(psn, FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE));
        m_unackedReceived = 0;
    }
}

void
RoceQueuePair::SendAck(uint32_t psn, uint8_t syndrome)
{
    feroce_roce f = Header();
    f.bth.opcode = FEROCE_OP_ACK;
    f.bth.psn = psn;
    f.aeth.syndrome = syndrome;
    f.aeth.msn = m_msn;
    f.ip.ecn = FEROCE_ECN_NOT_ECT;
    f.payload_len = 0;
    if (FEROCE_AETH_KIND(syndrome) == 0)
    {
        m_counters.acksSent++;
    }
    m_nic->SendControl(FeroceFrame::MakeRoce(f), m_priority);
}

void
RoceQueuePair::SendCnp()
{
    feroce_roce f = Header();
    f.bth.opcode = FEROCE_OP_CNP;
    f.bth.becn = 1;
    f.bth.psn = 0;
    f.ip.dscp = m_nic->m_cnpDscp;
    f.eth.pcp = m_nic->m_cnpPriority;
    f.payload_len = 0;
    m_counters.cnpsSent++;
    if (m_traced & Traces::CNP_SENT)
    {
        m_traces->cnpSent();
    }
    m_nic->m_counters.cnpsSent++;
    m_nic->SendControl(FeroceFrame::MakeRoce(f), m_nic->m_cnpPriority);
}

} // namespace ns3
