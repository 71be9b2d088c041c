/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_FRAME_H
#define FEROCE_FRAME_H

#include "ns3/feroce-wire.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A frame inside the fabric: a RoCEv2 frame as its decoded header
 * fields and its size, a PFC or 802.3x PAUSE frame a device made as its
 * fields, or any other frame (malformed, from outside) as its bytes.
 *
 * NICs, switches and channels pass frames, not ns3::Packets: a RoCEv2
 * frame is encoded once, parsed never.  Its ns3::Packet, byte for byte what
 * the wire carries (headers, zero payload and pad, ICRC), is built only when
 * someone looks at it (a connected sniffer or drop trace, pcap, an error
 * model) and then kept.  A frame that came in as bytes keeps them.
 * Frames are allocated from a free list: nothing is freed to the heap
 * while a simulation runs.
 */
class FeroceFrame : public SimpleRefCount<FeroceFrame>
{
  public:
    /// A RoCEv2 frame of these fields; lengths are set from payload_len.
    static Ptr<FeroceFrame> MakeRoce(const feroce_roce& fields);
    /// A frame given as bytes: a RoCEv2 frame (IsRoce) if its headers decode.
    static Ptr<FeroceFrame> FromPacket(Ptr<Packet> packet);
    /// A frame given as bytes that is not RoCEv2 (PFC): not decoded.
    static Ptr<FeroceFrame> Other(Ptr<Packet> packet);
    /// A PFC frame of these fields; its bytes (a PfcHeader) built on first use.
    static Ptr<FeroceFrame> MakePfc(const feroce_pfc& pfc);
    /// An 802.3x PAUSE frame of these fields; its bytes built on first use.
    static Ptr<FeroceFrame> MakeLinkPause(const feroce_link_pause& pause);

    /// Its headers decoded (or made) as RoCEv2.
    bool IsRoce() const
    {
        return m_roce;
    }

    /// The header fields (IsRoce only).
    const feroce_roce& Fields() const
    {
        return m_f;
    }

    /// FEROCE_FRAME_PFC or FEROCE_FRAME_LINK_PAUSE for a frame made by MakePfc or
    /// MakeLinkPause (its fields in Pfc() or LinkPause()); FEROCE_FRAME_OTHER for any other
    /// (a MAC-control frame given as bytes is decoded from them).
    feroce_frame_kind MadeControl() const
    {
        return feroce_frame_kind(m_control);
    }

    /// The fields of a frame made by MakePfc.
    const feroce_pfc& Pfc() const
    {
        return m_pfc;
    }

    /// The fields of a frame made by MakeLinkPause.
    const feroce_link_pause& LinkPause() const
    {
        return m_linkPause;
    }

    /// Bytes without FCS, as ns3::Packet::GetSize of its packet.
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// Its bytes as an ns3::Packet, built on first use.
    Ptr<Packet> GetPacket() const;
    /// Mark congestion experienced (IPv4 ECN = CE; the ICRC masks it).
    void MarkCe();

    static void* operator new(std::size_t size);
    static void operator delete(void* p);

  private:
    FeroceFrame() = default;

    // first (with the reference count) and then the Ethernet and IPv4 fields: a switch reads
    // one cache line of a frame (the allocation is line-aligned), a NIC the next one too
    uint32_t m_size{0};                    ///< bytes
    bool m_roce{false};                    ///< m_f holds RoCEv2 fields
    uint8_t m_control{FEROCE_FRAME_OTHER}; ///< made as PFC or 802.3x PAUSE: m_pfc or m_linkPause
    bool m_fromBytes{false};               ///< came in as bytes: m_packet is the truth

    union {
        feroce_roce m_f;               ///< the header fields (RoCEv2, or zero: bytes)
        feroce_pfc m_pfc;              ///< the fields of a made PFC frame
        feroce_link_pause m_linkPause; ///< the fields of a made 802.3x PAUSE frame
    };

    mutable Ptr<Packet> m_packet; ///< its bytes, once built or given
};

} // namespace ns3

#endif /* FEROCE_FRAME_H */
