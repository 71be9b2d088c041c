/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINK_PAUSE_HEADER_H
#define LINK_PAUSE_HEADER_H

#include "ns3/feroce-wire.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A whole IEEE 802.3x link-level PAUSE frame (60 bytes without FCS):
 * to 01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0001 and one pause time
 * in quanta of 512 bit times for everything the link carries but MAC
 * control; 0 resumes.  What the AdvCam boards' MAC obeys (PFC it does not).
 */
class LinkPauseHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    LinkPauseHeader();
    /// A header of these fields (as the setters would make it).
    explicit LinkPauseHeader(const feroce_link_pause& fields);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    /// What PeekHeader gives, read from a copy of the frame's first bytes (as
    /// PfcHeader::PeekFrom: no byte-by-byte Buffer::Iterator::Read).
    void PeekFrom(const Packet& frame);
    void Print(std::ostream& os) const override;

    void SetSource(Mac48Address src);
    /// The pause time in quanta (0 = resume).
    void SetQuanta(uint16_t quanta);
    uint16_t GetQuanta() const;
    /// The fields, as set or decoded.
    const feroce_link_pause& Fields() const;
    /// Why the last Deserialize failed (FEROCE_WIRE_OK when it did not).
    feroce_wire_err GetError() const;

  private:
    feroce_link_pause m_pause;
    feroce_wire_err m_error;
};

} // namespace ns3

#endif /* LINK_PAUSE_HEADER_H */
