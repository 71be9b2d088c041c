/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "ns3/feroce-wire.h"
#include "ns3/header.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief The headers of a RoCEv2 frame: Ethernet II (optionally 802.1Q tagged),
 * IPv4, UDP, BTH and the opcode's extended headers (RETH, AETH, ImmDt, or the
 * 16 reserved bytes of a CNP), as one ns-3 header over the core's codec.
 *
 * The payload and pad follow in the packet; the ICRC is an IcrcTrailer.
 * Fields are those of struct feroce_roce (src/feroce/doc/rocev2-wire.md); Serialize
 * recomputes the IPv4 header checksum.  A buffer that is not a valid RoCEv2
 * frame deserializes to GetError() != FEROCE_WIRE_OK and 0 bytes.
 */
class RoceHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RoceHeader();
    /// Defaults of feroce_roce_init for this opcode.
    explicit RoceHeader(uint8_t opcode);
    /// These fields (payload_len set; MakeFrame sets the lengths).
    explicit RoceHeader(const feroce_roce& fields);
    /// The headers at the start of a frame, as Parse decodes them (check GetError()).
    explicit RoceHeader(const Packet& frame);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * Decode the headers at the start of a frame without going through a
     * Buffer::Iterator (which reads byte by byte): what PeekHeader does, for
     * the per-hop hot paths.  Returns the header length, 0 on error (GetError()).
     */
    uint32_t Parse(const Packet& frame);
    void Print(std::ostream& os) const override;

    /// The decoded fields; set payload_len and call SetLengths() before adding.
    feroce_roce& Fields();
    const feroce_roce& Fields() const;
    /// Set IPv4 total length, UDP length and BTH pad count from opcode and payload.
    void SetLengths();
    /// Why the last Deserialize failed (FEROCE_WIRE_OK when it did not).
    feroce_wire_err GetError() const;

    /// The opcode's flags (enum feroce_op_flag).
    unsigned GetOpFlags() const;
    /// Payload plus pad: the bytes between the headers and the ICRC.
    uint32_t GetPayloadAndPad() const;
    /// The ICRC of a frame with these headers and a zero payload and pad.
    uint32_t ComputeIcrcZeroPayload() const;
    /**
     * The whole frame: SetLengths(), these headers, a zero payload and pad
     * of payload_len bytes, and the ICRC trailer.  The headers are encoded
     * once, for the ICRC and the packet alike.
     */
    Ptr<Packet> MakeFrame();

  private:
    /// Decode from the first `avail` bytes of a frame of frameLen bytes.
    uint32_t Decode(const uint8_t* buf, uint32_t avail, uint32_t frameLen);
    /// The ICRC of a frame whose headers are encoded in buf, with a zero payload and pad.
    uint32_t IcrcZeroPayload(const uint8_t* buf) const;

    feroce_roce m_f;
    feroce_wire_err m_error;
    const uint8_t* m_encoded; ///< MakeFrame: these headers already encoded, for Serialize
};

} // namespace ns3

#endif /* ROCE_HEADER_H */
