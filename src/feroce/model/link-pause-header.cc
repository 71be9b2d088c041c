/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-pause-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LinkPauseHeader);

TypeId
LinkPauseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinkPauseHeader")
                            .SetParent<Header>()
                            .SetGroupName("Feroce")
                            .AddConstructor<LinkPauseHeader>();
    return tid;
}

TypeId
LinkPauseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

LinkPauseHeader::LinkPauseHeader()
    : m_error(FEROCE_WIRE_OK)
{
    std::memset(&m_pause, 0, sizeof(m_pause));
}

LinkPauseHeader::LinkPauseHeader(const feroce_link_pause& fields)
    : m_pause(fields),
      m_error(FEROCE_WIRE_OK)
{
}

const feroce_link_pause&
LinkPauseHeader::Fields() const
{
    return m_pause;
}

uint32_t
LinkPauseHeader::GetSerializedSize() const
{
    return FEROCE_PFC_FRAME_LEN;
}

void
LinkPauseHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    feroce_wire_err e = feroce_link_pause_encode(&m_pause, buf, sizeof(buf));
    NS_ABORT_MSG_IF(e != FEROCE_WIRE_OK,
                    "LinkPauseHeader: cannot encode: " << feroce_wire_err_name(e));
    start.Write(buf, sizeof(buf));
}

uint32_t
LinkPauseHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    uint32_t n = std::min<uint32_t>(start.GetRemainingSize(), sizeof(buf));
    start.Read(buf, n);
    m_error = feroce_link_pause_decode(&m_pause, buf, n);
    return m_error == FEROCE_WIRE_OK ? FEROCE_PFC_FRAME_LEN : 0;
}

void
LinkPauseHeader::PeekFrom(const Packet& frame)
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    uint32_t n = frame.CopyData(buf, sizeof(buf));
    m_error = feroce_link_pause_decode(&m_pause, buf, n);
}

void
LinkPauseHeader::Print(std::ostream& os) const
{
    os << "PAUSE " << m_pause.quanta;
}

void
LinkPauseHeader::SetSource(Mac48Address src)
{
    src.CopyTo(m_pause.src);
}

void
LinkPauseHeader::SetQuanta(uint16_t quanta)
{
    m_pause.quanta = quanta;
}

uint16_t
LinkPauseHeader::GetQuanta() const
{
    return m_pause.quanta;
}

feroce_wire_err
LinkPauseHeader::GetError() const
{
    return m_error;
}

} // namespace ns3
