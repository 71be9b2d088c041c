/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Feroce")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_error(FEROCE_WIRE_OK)
{
    std::memset(&m_pfc, 0, sizeof(m_pfc));
}

PfcHeader::PfcHeader(const feroce_pfc& fields)
    : m_pfc(fields),
      m_error(FEROCE_WIRE_OK)
{
}

const feroce_pfc&
PfcHeader::Fields() const
{
    return m_pfc;
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return FEROCE_PFC_FRAME_LEN;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    feroce_wire_err e = feroce_pfc_encode(&m_pfc, buf, sizeof(buf));
    NS_ABORT_MSG_IF(e != FEROCE_WIRE_OK, "PfcHeader: cannot encode: " << feroce_wire_err_name(e));
    start.Write(buf, sizeof(buf));
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    uint32_t n = std::min<uint32_t>(start.GetRemainingSize(), sizeof(buf));
    start.Read(buf, n);
    m_error = feroce_pfc_decode(&m_pfc, buf, n);
    return m_error == FEROCE_WIRE_OK ? FEROCE_PFC_FRAME_LEN : 0;
}

void
PfcHeader::PeekFrom(const Packet& frame)
{
    uint8_t buf[FEROCE_PFC_FRAME_LEN];
    uint32_t n = frame.CopyData(buf, sizeof(buf));
    m_error = feroce_pfc_decode(&m_pfc, buf, n);
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    for (uint8_t prio = 0; prio < 8; prio++)
    {
        if (IsEnabled(prio))
        {
            os << " p" << unsigned(prio) << "=" << m_pfc.quanta[prio];
        }
    }
}

void
PfcHeader::SetSource(Mac48Address src)
{
    src.CopyTo(m_pfc.src);
}

void
PfcHeader::SetPause(uint8_t priority, uint16_t quanta)
{
    NS_ABORT_MSG_IF(priority > 7,
                    "PfcHeader: priority " << unsigned(priority) << " is not in 0..7");
    m_pfc.enable |= uint8_t(1u << priority);
    m_pfc.quanta[priority] = quanta;
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    return priority < 8 && (m_pfc.enable >> priority) & 1;
}

uint16_t
PfcHeader::GetQuanta(uint8_t priority) const
{
    return priority < 8 ? m_pfc.quanta[priority] : 0;
}

feroce_wire_err
PfcHeader::GetError() const
{
    return m_error;
}

} // namespace ns3
