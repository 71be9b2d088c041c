/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ICRC_TRAILER_H
#define ICRC_TRAILER_H

#include "ns3/trailer.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief The 4-byte invariant CRC that ends a RoCEv2 frame, least significant
 * byte first (src/feroce/doc/rocev2-wire.md, "ICRC").  The NIC computes it once, where
 * the frame leaves; switches only change fields the ICRC masks.
 */
class IcrcTrailer : public Trailer
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IcrcTrailer();
    explicit IcrcTrailer(uint32_t icrc);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

    uint32_t GetIcrc() const;

  private:
    uint32_t m_icrc;
};

} // namespace ns3

#endif /* ICRC_TRAILER_H */
