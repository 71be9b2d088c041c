/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/feroce-frame.h"
#include "ns3/feroce-icrc.h"
#include "ns3/feroce-net-device.h"
#include "ns3/icrc-trailer.h"
#include "ns3/link-pause-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/test.h"

#include <cstring>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

std::vector<uint8_t>
FromHex(const char* hex)
{
    std::vector<uint8_t> b;
    for (std::size_t i = 0; hex[i] && hex[i + 1]; i += 2)
    {
        unsigned v;
        sscanf(hex + i, "%2x", &v);
        b.push_back(uint8_t(v));
    }
    return b;
}

/// A PFC frame from 00:00:00:00:00:07 pausing priority 3 (0xffff quanta), resuming 7.
Ptr<Packet>
SamplePfcFrame()
{
    PfcHeader h;
    h.SetSource(Mac48Address("00:00:00:00:00:07"));
    h.SetPause(3, 0xffff);
    h.SetPause(7, 0);
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(h);
    return p;
}

} // namespace

/**
 * \ingroup feroce
 * The ConnectX-4 Lx CNP of test data icrc.txt (V1), built from its fields by
 * RoceHeader and IcrcTrailer, is the captured frame byte for byte.
 */
class RoceHeaderCnpTestCase : public TestCase
{
  public:
    RoceHeaderCnpTestCase()
        : TestCase("RoceHeader and IcrcTrailer build the captured ConnectX CNP")
    {
    }

  private:
    void DoRun() override
    {
        RoceHeader h(FEROCE_OP_CNP);
        feroce_roce& f = h.Fields();
        const uint8_t dst[6] = {0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2};
        const uint8_t src[6] = {0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32};
        std::memcpy(f.eth.dst, dst, 6);
        std::memcpy(f.eth.src, src, 6);
        f.ip.dscp = 48;
        f.ip.ecn = FEROCE_ECN_ECT0;
        f.ip.id = 0x718c;
        f.ip.ttl = 64;
        f.ip.src = 0x0a001101;
        f.ip.dst = 0x0a001201;
        f.udp.sport = 0;
        f.bth.becn = 1;
        f.bth.destqp = 0x000118;
        f.bth.psn = 0;
        f.payload_len = 0;
        h.SetLengths();
        Ptr<Packet> p = Create<Packet>(0);
        p->AddHeader(h);
        p->AddTrailer(IcrcTrailer(h.ComputeIcrcZeroPayload()));
        std::vector<uint8_t> want = FromHex(
            "e41d2dab2bc27cfe90643b32080045c2003c718c4000401191610a0011010a001201000012b70028"
            "00008100ffff40000118000000000000000000000000000000000000000082fd002a");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), want.size(), "CNP frame length");
        NS_TEST_EXPECT_MSG_EQ((Bytes(p) == want), true, "CNP bytes equal the capture");

        RoceHeader back;
        p->RemoveHeader(back);
        NS_TEST_EXPECT_MSG_EQ(back.GetError(), FEROCE_WIRE_OK, "decodes");
        NS_TEST_EXPECT_MSG_EQ(back.Fields().bth.destqp, 0x118u, "DestQP");
        NS_TEST_EXPECT_MSG_EQ(unsigned(back.Fields().bth.becn), 1u, "BECN");
        IcrcTrailer t;
        p->RemoveTrailer(t);
        NS_TEST_EXPECT_MSG_EQ(t.GetIcrc(), 0x2a00fd82u, "ICRC as read back (LSB first)");
    }
};

/**
 * \ingroup feroce
 * Data frames of every RC opcode with payload: the ICRC computed from the
 * headers and a zero payload equals the ICRC of the whole serialized frame,
 * the frame decodes back to the same fields, and a CE mark keeps it valid.
 */
class RoceHeaderDataTestCase : public TestCase
{
  public:
    RoceHeaderDataTestCase()
        : TestCase("RoceHeader data frames: ICRC over a zero payload, round trip, CE keeps ICRC")
    {
    }

  private:
    void DoRun() override
    {
        const uint8_t ops[] = {FEROCE_OP_SEND_FIRST,
                               FEROCE_OP_SEND_MIDDLE,
                               FEROCE_OP_SEND_LAST,
                               FEROCE_OP_SEND_LAST_IMM,
                               FEROCE_OP_SEND_ONLY,
                               FEROCE_OP_SEND_ONLY_IMM,
                               FEROCE_OP_WRITE_FIRST,
                               FEROCE_OP_WRITE_MIDDLE,
                               FEROCE_OP_WRITE_LAST,
                               FEROCE_OP_WRITE_LAST_IMM,
                               FEROCE_OP_WRITE_ONLY,
                               FEROCE_OP_WRITE_ONLY_IMM};
        for (uint8_t op : ops)
        {
            for (uint32_t len : {1u, 3u, 1024u, 4096u})
            {
                RoceHeader h(op);
                feroce_roce& f = h.Fields();
                f.eth.vlan = len == 3;
                f.eth.pcp = 3;
                f.bth.destqp = 0x123456;
                f.bth.psn = 0xfffffe;
                f.reth.va = 0x1122334455667788ULL;
                f.reth.rkey = 0xabcd;
                f.reth.dmalen = 1 << 20;
                f.immdt = 0xdeadbeef;
                f.payload_len = len;
                h.SetLengths();
                Ptr<Packet> p = Create<Packet>(h.GetPayloadAndPad());
                p->AddHeader(h);
                p->AddTrailer(IcrcTrailer(h.ComputeIcrcZeroPayload()));
                std::vector<uint8_t> b = Bytes(p);
                NS_TEST_EXPECT_MSG_EQ(feroce_icrc_check(b.data(), b.size(), nullptr, nullptr),
                                      1,
                                      "ICRC good for opcode " << unsigned(op) << " len " << len);

                RoceHeader back;
                p->PeekHeader(back);
                NS_TEST_EXPECT_MSG_EQ(back.GetError(), FEROCE_WIRE_OK, "decodes");
                NS_TEST_EXPECT_MSG_EQ(back.Fields().payload_len, len, "payload length");
                NS_TEST_EXPECT_MSG_EQ(back.Fields().bth.psn, 0xfffffeu, "PSN");

                // a switch marks CE: re-serialize with the new ECN, the ICRC stays valid
                p->RemoveHeader(back);
                back.Fields().ip.ecn = FEROCE_ECN_CE;
                p->AddHeader(back);
                b = Bytes(p);
                NS_TEST_EXPECT_MSG_EQ(feroce_icrc_check(b.data(), b.size(), nullptr, nullptr),
                                      1,
                                      "ICRC still good after CE");
                std::size_t ip = f.eth.vlan ? 18 : 14;
                NS_TEST_EXPECT_MSG_EQ(feroce_ipv4_checksum(b.data() + ip), 0, "IPv4 checksum");
                NS_TEST_EXPECT_MSG_EQ((b[ip + 1] & 3), 3, "CE on the wire");
            }
        }
    }
};

/**
 * \ingroup feroce
 * A PFC frame is 60 bytes to 01:80:c2:00:00:01 and decodes to what was set.
 */
class PfcHeaderTestCase : public TestCase
{
  public:
    PfcHeaderTestCase()
        : TestCase("PfcHeader round trip")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = SamplePfcFrame();
        std::vector<uint8_t> b = Bytes(p);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 60u, "frame size");
        NS_TEST_EXPECT_MSG_EQ(unsigned(b[0]), 0x01u, "multicast destination");
        NS_TEST_EXPECT_MSG_EQ(unsigned(b[5]), 0x01u, "01:80:c2:00:00:01");
        NS_TEST_EXPECT_MSG_EQ((b[12] << 8 | b[13]), 0x8808, "EtherType");
        NS_TEST_EXPECT_MSG_EQ((b[14] << 8 | b[15]), 0x0101, "PFC opcode");
        NS_TEST_EXPECT_MSG_EQ(unsigned(b[17]), 0x88u, "class-enable vector");
        PfcHeader back;
        p->RemoveHeader(back);
        NS_TEST_EXPECT_MSG_EQ(back.GetError(), FEROCE_WIRE_OK, "decodes");
        NS_TEST_EXPECT_MSG_EQ(back.IsEnabled(3), true, "priority 3");
        NS_TEST_EXPECT_MSG_EQ(back.IsEnabled(4), false, "priority 4");
        NS_TEST_EXPECT_MSG_EQ(back.GetQuanta(3), 0xffff, "quanta 3");
        NS_TEST_EXPECT_MSG_EQ(back.GetQuanta(7), 0, "XON 7");
    }
};

/**
 * \ingroup feroce
 * PeekFrom (the devices' fast read of a MAC-control frame) decodes as PeekHeader does, for
 * PFC and 802.3x PAUSE frames, whole or cut short, and each header on the other kind's frame.
 */
class MacControlPeekFromTestCase : public TestCase
{
  public:
    MacControlPeekFromTestCase()
        : TestCase("PfcHeader and LinkPauseHeader: PeekFrom decodes as PeekHeader")
    {
    }

  private:
    /// Both reads of `frame` cut to each length: the same error, and the same fields (by
    /// `fields`, a string of them) when whole; the whole frame decodes iff `valid`.
    template <typename H, typename Fields>
    void Check(Ptr<Packet> frame, bool valid, Fields fields, const std::string& what)
    {
        for (uint32_t keep : {60u, 59u, 20u, 0u})
        {
            Ptr<Packet> part = frame->CreateFragment(0, keep);
            H viaHeader;
            H viaCopy;
            part->PeekHeader(viaHeader);
            viaCopy.PeekFrom(*part);
            NS_TEST_EXPECT_MSG_EQ(viaCopy.GetError(), viaHeader.GetError(), what << keep);
            NS_TEST_EXPECT_MSG_EQ((viaCopy.GetError() == FEROCE_WIRE_OK),
                                  (valid && keep == 60),
                                  what << keep);
            if (keep == 60 && valid)
            {
                NS_TEST_EXPECT_MSG_EQ(fields(viaCopy), fields(viaHeader), what << keep);
            }
        }
    }

    void DoRun() override
    {
        Ptr<Packet> pfcFrame = SamplePfcFrame();
        LinkPauseHeader pause;
        pause.SetSource(Mac48Address("00:00:00:00:00:08"));
        pause.SetQuanta(0x1234);
        Ptr<Packet> pauseFrame = Create<Packet>(0);
        pauseFrame->AddHeader(pause);

        auto pfcFields = [](const PfcHeader& h) {
            std::ostringstream os;
            for (uint8_t prio = 0; prio < 8; prio++)
            {
                os << h.IsEnabled(prio) << ':' << h.GetQuanta(prio) << ' ';
            }
            return os.str();
        };
        auto pauseFields = [](const LinkPauseHeader& h) { return h.GetQuanta(); };
        Check<PfcHeader>(pfcFrame, true, pfcFields, "PFC (opcode 0x0101), bytes kept: ");
        Check<LinkPauseHeader>(pauseFrame, true, pauseFields, "PAUSE (0x0001), bytes kept: ");
        Check<PfcHeader>(pauseFrame, false, pfcFields, "PfcHeader on a PAUSE, bytes kept: ");
        Check<LinkPauseHeader>(pfcFrame, false, pauseFields, "LinkPauseHeader on PFC, kept: ");
    }
};

/**
 * \ingroup feroce
 * A PFC or PAUSE frame a device makes travels as its fields (FeroceFrame::MakePfc,
 * MakeLinkPause): its bytes are the header's on an empty packet, and ReadMacControl reads
 * from its fields what it reads from those bytes.
 */
class MadeMacControlTestCase : public TestCase
{
  public:
    MadeMacControlTestCase()
        : TestCase("FeroceFrame: a made PFC or PAUSE frame is its header's bytes, read alike")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        pfc.SetSource(Mac48Address("00:00:00:00:00:07"));
        pfc.SetPause(3, 0xffff);
        pfc.SetPause(7, 0);
        LinkPauseHeader pause;
        pause.SetSource(Mac48Address("00:00:00:00:00:08"));
        pause.SetQuanta(0x1234);
        Ptr<Packet> pfcBytes = SamplePfcFrame();
        Ptr<Packet> pauseBytes = Create<Packet>(0);
        pauseBytes->AddHeader(pause);

        Ptr<FeroceFrame> madePfc = FeroceFrame::MakePfc(pfc.Fields());
        Ptr<FeroceFrame> madePause = FeroceFrame::MakeLinkPause(pause.Fields());
        NS_TEST_EXPECT_MSG_EQ(madePfc->MadeControl(), FEROCE_FRAME_PFC, "made PFC");
        NS_TEST_EXPECT_MSG_EQ(madePause->MadeControl(), FEROCE_FRAME_LINK_PAUSE, "made PAUSE");
        NS_TEST_EXPECT_MSG_EQ(madePfc->IsRoce(), false, "PFC is not RoCEv2");
        NS_TEST_EXPECT_MSG_EQ(madePfc->GetSize(), pfcBytes->GetSize(), "PFC size");
        NS_TEST_EXPECT_MSG_EQ(madePause->GetSize(), pauseBytes->GetSize(), "PAUSE size");
        NS_TEST_EXPECT_MSG_EQ((Bytes(madePfc->GetPacket()) == Bytes(pfcBytes)), true, "PFC bytes");
        NS_TEST_EXPECT_MSG_EQ((Bytes(madePause->GetPacket()) == Bytes(pauseBytes)),
                              true,
                              "PAUSE bytes");

        Ptr<FeroceFrame> pfcFrames[] = {madePfc, FeroceFrame::Other(pfcBytes)};
        for (const Ptr<FeroceFrame>& frame : pfcFrames)
        {
            PfcHeader h;
            LinkPauseHeader unused;
            NS_TEST_EXPECT_MSG_EQ(FeroceNetDevice::ReadMacControl(*frame, h, unused),
                                  FEROCE_FRAME_PFC,
                                  "a PFC frame");
            NS_TEST_EXPECT_MSG_EQ(h.GetError(), FEROCE_WIRE_OK, "decodes");
            for (uint8_t prio = 0; prio < 8; prio++)
            {
                NS_TEST_EXPECT_MSG_EQ(h.IsEnabled(prio), pfc.IsEnabled(prio), "enable " << +prio);
                NS_TEST_EXPECT_MSG_EQ(h.GetQuanta(prio), pfc.GetQuanta(prio), "quanta " << +prio);
            }
            NS_TEST_EXPECT_MSG_EQ(std::memcmp(h.Fields().src, pfc.Fields().src, 6), 0, "source");
        }
        Ptr<FeroceFrame> pauseFrames[] = {madePause, FeroceFrame::Other(pauseBytes)};
        for (const Ptr<FeroceFrame>& frame : pauseFrames)
        {
            PfcHeader unused;
            LinkPauseHeader h;
            NS_TEST_EXPECT_MSG_EQ(FeroceNetDevice::ReadMacControl(*frame, unused, h),
                                  FEROCE_FRAME_LINK_PAUSE,
                                  "a PAUSE frame");
            NS_TEST_EXPECT_MSG_EQ(h.GetError(), FEROCE_WIRE_OK, "decodes");
            NS_TEST_EXPECT_MSG_EQ(h.GetQuanta(), 0x1234, "quanta");
            NS_TEST_EXPECT_MSG_EQ(std::memcmp(h.Fields().src, pause.Fields().src, 6), 0, "source");
        }
        // shorter than an EtherType and opcode: nothing to classify
        PfcHeader h;
        LinkPauseHeader p;
        NS_TEST_EXPECT_MSG_EQ(
            FeroceNetDevice::ReadMacControl(*FeroceFrame::Other(Create<Packet>(15)), h, p),
            FEROCE_FRAME_OTHER,
            "15 bytes");
    }
};

/**
 * \ingroup feroce
 * ns-3 headers over the core's RoCEv2 codec.
 */
class RoceHeaderTestSuite : public TestSuite
{
  public:
    RoceHeaderTestSuite()
        : TestSuite("feroce-roce-header")
    {
        AddTestCase(new RoceHeaderCnpTestCase);
        AddTestCase(new RoceHeaderDataTestCase);
        AddTestCase(new PfcHeaderTestCase);
        AddTestCase(new MacControlPeekFromTestCase);
        AddTestCase(new MadeMacControlTestCase);
    }
};

static RoceHeaderTestSuite g_roceHeaderTestSuite;
