/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-header.h"

#include "icrc-trailer.h"

#include "ns3/abort.h"
#include "ns3/feroce-icrc.h"

#include <algorithm>
#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

TypeId
RoceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Feroce")
                            .AddConstructor<RoceHeader>();
    return tid;
}

TypeId
RoceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceHeader::RoceHeader()
    : RoceHeader(FEROCE_OP_SEND_ONLY)
{
}

RoceHeader::RoceHeader(uint8_t opcode)
    : m_error(FEROCE_WIRE_OK),
      m_encoded(nullptr)
{
    feroce_roce_init(&m_f, opcode);
}

RoceHeader::RoceHeader(const feroce_roce& fields)
    : m_f(fields),
      m_error(FEROCE_WIRE_OK),
      m_encoded(nullptr)
{
}

RoceHeader::RoceHeader(const Packet& frame)
    : m_encoded(nullptr)
{
    Parse(frame); // the decoder clears every field first
}

uint32_t
RoceHeader::GetSerializedSize() const
{
    return feroce_roce_header_len(&m_f);
}

void
RoceHeader::Serialize(Buffer::Iterator start) const
{
    if (m_encoded)
    {
        start.Write(m_encoded, feroce_roce_header_len(&m_f));
        return;
    }
    uint8_t buf[FEROCE_ROCE_HDR_MAX];
    feroce_roce f = m_f;
    feroce_wire_err e = feroce_roce_encode(&f, buf, sizeof(buf));
    NS_ABORT_MSG_IF(e != FEROCE_WIRE_OK, "RoceHeader: cannot encode: " << feroce_wire_err_name(e));
    start.Write(buf, feroce_roce_header_len(&f));
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t buf[FEROCE_ROCE_HDR_MAX];
    uint32_t frameLen = start.GetRemainingSize();
    uint32_t avail = std::min<uint32_t>(frameLen, sizeof(buf));
    start.Read(buf, avail);
    return Decode(buf, avail, frameLen);
}

uint32_t
RoceHeader::Parse(const Packet& frame)
{
    uint8_t buf[FEROCE_ROCE_HDR_MAX];
    uint32_t frameLen = frame.GetSize();
    uint32_t avail = std::min<uint32_t>(frameLen, sizeof(buf));
    frame.CopyData(buf, avail);
    return Decode(buf, avail, frameLen);
}

uint32_t
RoceHeader::Decode(const uint8_t* buf, uint32_t avail, uint32_t frameLen)
{
    size_t hdrLen = 0;
    m_error = feroce_roce_decode(&m_f, buf, avail, frameLen, &hdrLen);
    return m_error == FEROCE_WIRE_OK ? uint32_t(hdrLen) : 0;
}

void
RoceHeader::Print(std::ostream& os) const
{
    const feroce_bth& b = m_f.bth;
    os << feroce_opcode_name(b.opcode) << " dqp=0x" << std::hex << std::setw(6) << std::setfill('0')
       << b.destqp << std::dec << std::setfill(' ') << " psn=" << b.psn;
    if (b.ackreq)
    {
        os << " A";
    }
    if (b.becn)
    {
        os << " BECN";
    }
    unsigned flags = GetOpFlags();
    if (flags & FEROCE_OPF_RETH)
    {
        os << " dmalen=" << m_f.reth.dmalen;
    }
    if (flags & FEROCE_OPF_AETH)
    {
        os << " syndrome=0x" << std::hex << unsigned(m_f.aeth.syndrome) << std::dec
           << " msn=" << m_f.aeth.msn;
    }
    if (flags & FEROCE_OPF_IMMDT)
    {
        os << " imm=" << m_f.immdt;
    }
    os << " len=" << m_f.payload_len << " dscp=" << unsigned(m_f.ip.dscp)
       << " ecn=" << unsigned(m_f.ip.ecn);
}

feroce_roce&
RoceHeader::Fields()
{
    return m_f;
}

const feroce_roce&
RoceHeader::Fields() const
{
    return m_f;
}

void
RoceHeader::SetLengths()
{
    feroce_roce_set_lengths(&m_f);
}

feroce_wire_err
RoceHeader::GetError() const
{
    return m_error;
}

unsigned
RoceHeader::GetOpFlags() const
{
    return feroce_opcode_flags(m_f.bth.opcode);
}

uint32_t
RoceHeader::GetPayloadAndPad() const
{
    return m_f.payload_len + feroce_roce_pad(m_f.payload_len);
}

uint32_t
RoceHeader::ComputeIcrcZeroPayload() const
{
    uint8_t buf[FEROCE_ROCE_HDR_MAX];
    feroce_roce f = m_f;
    feroce_wire_err e = feroce_roce_encode(&f, buf, sizeof(buf));
    NS_ABORT_MSG_IF(e != FEROCE_WIRE_OK, "RoceHeader: cannot encode: " << feroce_wire_err_name(e));
    return IcrcZeroPayload(buf);
}

uint32_t
RoceHeader::IcrcZeroPayload(const uint8_t* buf) const
{
    size_t ipOffset = m_f.eth.vlan ? FEROCE_ETH_LEN + FEROCE_VLAN_LEN : FEROCE_ETH_LEN;
    size_t hdrLen = feroce_roce_header_len(&m_f);
    uint32_t crc = feroce_icrc_begin(buf + ipOffset, hdrLen - ipOffset);
    uint32_t zeros = GetPayloadAndPad();
    if (zeros == 0)
    {
        return crc;
    }
    // frames of one simulation mostly carry one payload size: keep its multiplier
    thread_local uint32_t lastZeros = 0;
    thread_local uint32_t lastOp = 0;
    if (zeros != lastZeros)
    {
        lastZeros = zeros;
        lastOp = feroce_crc32_zeros_op(zeros);
    }
    return feroce_crc32_zeros_apply(crc, lastOp);
}

Ptr<Packet>
RoceHeader::MakeFrame()
{
    SetLengths();
    uint8_t buf[FEROCE_ROCE_HDR_MAX];
    feroce_wire_err e = feroce_roce_encode(&m_f, buf, sizeof(buf));
    NS_ABORT_MSG_IF(e != FEROCE_WIRE_OK, "RoceHeader: cannot encode: " << feroce_wire_err_name(e));
    Ptr<Packet> p = Create<Packet>(GetPayloadAndPad());
    m_encoded = buf;
    p->AddHeader(*this);
    m_encoded = nullptr;
    p->AddTrailer(IcrcTrailer(IcrcZeroPayload(buf)));
    return p;
}

} // namespace ns3
