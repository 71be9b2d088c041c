/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/feroce-wire.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A whole IEEE 802.1Qbb PFC frame (60 bytes without FCS): to
 * 01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0101, class-enable vector and
 * eight pause times in quanta of 512 bit times; 0 resumes (XON).
 */
class PfcHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfcHeader();
    /// A header of these fields (as the setters would make it).
    explicit PfcHeader(const feroce_pfc& fields);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    /// What PeekHeader gives, read from a copy of the frame's first bytes: Deserialize's
    /// Buffer::Iterator::Read takes about a thousand instructions, byte by byte, per PFC frame.
    void PeekFrom(const Packet& frame);
    void Print(std::ostream& os) const override;

    void SetSource(Mac48Address src);
    /// Address priority (0..7) with a pause of `quanta` (0 = resume).
    void SetPause(uint8_t priority, uint16_t quanta);
    bool IsEnabled(uint8_t priority) const;
    uint16_t GetQuanta(uint8_t priority) const;
    /// The fields, as set or decoded.
    const feroce_pfc& Fields() const;
    /// Why the last Deserialize failed (FEROCE_WIRE_OK when it did not).
    feroce_wire_err GetError() const;

  private:
    feroce_pfc m_pfc;
    feroce_wire_err m_error;
};

} // namespace ns3

#endif /* PFC_HEADER_H */
