/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-frame.h"

#include "link-pause-header.h"
#include "pfc-header.h"
#include "roce-header.h"

#include <cstring>
#include <new>
#include <vector>

namespace ns3
{

namespace
{
/// Freed frames, reused by the next ones (a simulation's frames in flight are few).
std::vector<void*>&
FreeFrames()
{
    static std::vector<void*> free;
    return free;
}
} // namespace

void*
FeroceFrame::operator new(std::size_t size)
{
    std::vector<void*>& free = FreeFrames();
    if (size == sizeof(FeroceFrame) && !free.empty())
    {
        void* p = free.back();
        free.pop_back();
        return p;
    }
    // on a cache line of its own: its head and its Ethernet and IPv4 fields in one line
    return ::operator new(size, std::align_val_t(64));
}

void
FeroceFrame::operator delete(void* p)
{
    FreeFrames().push_back(p);
}

Ptr<FeroceFrame>
FeroceFrame::MakeRoce(const feroce_roce& fields)
{
    Ptr<FeroceFrame> frame = Ptr<FeroceFrame>(new FeroceFrame, false);
    feroce_roce& f = frame->m_f;
    f = fields;
    feroce_roce_set_lengths(&f);
    // what a decoder would give: nothing of the headers the opcode does not carry
    unsigned flags = feroce_opcode_flags(f.bth.opcode);
    if (!(flags & FEROCE_OPF_RETH))
    {
        std::memset(&f.reth, 0, sizeof f.reth);
    }
    if (!(flags & FEROCE_OPF_AETH))
    {
        std::memset(&f.aeth, 0, sizeof f.aeth);
    }
    if (!(flags & FEROCE_OPF_IMMDT))
    {
        f.immdt = 0;
    }
    if (!f.eth.vlan)
    {
        f.eth.pcp = 0;
        f.eth.dei = 0;
        f.eth.vid = 0;
    }
    frame->m_size = uint32_t(feroce_roce_header_len(&f)) + f.payload_len +
                    feroce_roce_pad(f.payload_len) + FEROCE_ICRC_LEN;
    frame->m_roce = true;
    return frame;
}

Ptr<FeroceFrame>
FeroceFrame::FromPacket(Ptr<Packet> packet)
{
    Ptr<FeroceFrame> frame = Other(packet);
    RoceHeader h(*packet);
    if (h.GetError() == FEROCE_WIRE_OK)
    {
        frame->m_f = h.Fields();
        frame->m_roce = true;
    }
    return frame;
}

Ptr<FeroceFrame>
FeroceFrame::Other(Ptr<Packet> packet)
{
    Ptr<FeroceFrame> frame = Ptr<FeroceFrame>(new FeroceFrame, false);
    std::memset(&frame->m_f, 0, sizeof frame->m_f);
    frame->m_size = packet->GetSize();
    frame->m_fromBytes = true;
    frame->m_packet = packet;
    return frame;
}

Ptr<FeroceFrame>
FeroceFrame::MakePfc(const feroce_pfc& pfc)
{
    Ptr<FeroceFrame> frame = Ptr<FeroceFrame>(new FeroceFrame, false);
    frame->m_pfc = pfc;
    frame->m_size = FEROCE_PFC_FRAME_LEN;
    frame->m_control = FEROCE_FRAME_PFC;
    return frame;
}

Ptr<FeroceFrame>
FeroceFrame::MakeLinkPause(const feroce_link_pause& pause)
{
    Ptr<FeroceFrame> frame = Ptr<FeroceFrame>(new FeroceFrame, false);
    frame->m_linkPause = pause;
    frame->m_size = FEROCE_PFC_FRAME_LEN; // the same 60 bytes as a PFC frame
    frame->m_control = FEROCE_FRAME_LINK_PAUSE;
    return frame;
}

Ptr<Packet>
FeroceFrame::GetPacket() const
{
    if (!m_packet)
    {
        // as a header on an empty packet, as these frames were always built
        if (m_control == FEROCE_FRAME_PFC)
        {
            m_packet = Create<Packet>(0);
            m_packet->AddHeader(PfcHeader(m_pfc));
        }
        else if (m_control == FEROCE_FRAME_LINK_PAUSE)
        {
            m_packet = Create<Packet>(0);
            m_packet->AddHeader(LinkPauseHeader(m_linkPause));
        }
        else
        {
            RoceHeader h(m_f);
            m_packet = h.MakeFrame();
        }
    }
    return m_packet;
}

void
FeroceFrame::MarkCe()
{
    m_f.ip.ecn = FEROCE_ECN_CE;
    if (!m_fromBytes)
    {
        m_packet = nullptr; // built again, with CE, when someone looks
        return;
    }
    // bytes from outside: only the ECN bits and the IPv4 checksum change
    Ptr<Packet> p = m_packet->Copy();
    RoceHeader h(*p);
    p->RemoveAtStart(h.GetSerializedSize());
    h.Fields().ip.ecn = FEROCE_ECN_CE;
    p->AddHeader(h);
    m_packet = p;
}

} // namespace ns3
