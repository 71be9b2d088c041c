/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "icrc-trailer.h"

#include "ns3/feroce-icrc.h"
#include "ns3/feroce-wire.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IcrcTrailer);

TypeId
IcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Feroce")
                            .AddConstructor<IcrcTrailer>();
    return tid;
}

TypeId
IcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

IcrcTrailer::IcrcTrailer()
    : m_icrc(0)
{
}

IcrcTrailer::IcrcTrailer(uint32_t icrc)
    : m_icrc(icrc)
{
}

uint32_t
IcrcTrailer::GetSerializedSize() const
{
    return FEROCE_ICRC_LEN;
}

void
IcrcTrailer::Serialize(Buffer::Iterator end) const
{
    uint8_t b[FEROCE_ICRC_LEN];
    feroce_icrc_put(b, m_icrc);
    end.Prev(FEROCE_ICRC_LEN);
    end.Write(b, FEROCE_ICRC_LEN);
}

uint32_t
IcrcTrailer::Deserialize(Buffer::Iterator end)
{
    uint8_t b[FEROCE_ICRC_LEN];
    end.Prev(FEROCE_ICRC_LEN);
    end.Read(b, FEROCE_ICRC_LEN);
    m_icrc = feroce_icrc_get(b);
    return FEROCE_ICRC_LEN;
}

void
IcrcTrailer::Print(std::ostream& os) const
{
    os << "icrc=0x" << std::hex << std::setw(8) << std::setfill('0') << m_icrc << std::dec
       << std::setfill(' ');
}

uint32_t
IcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

} // namespace ns3
