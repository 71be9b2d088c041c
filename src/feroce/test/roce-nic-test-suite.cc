/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-ring.h"
#include "ns3/icrc-trailer.h"
#include "ns3/node-container.h"
#include "ns3/pfc-header.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Two nodes, a NIC each, one link, one connected QP pair, a receiver app on b.
struct NicPair
{
    Ptr<RoceNic> a;
    Ptr<RoceNic> b;
    Ptr<RoceQueuePair> qa;
    Ptr<RoceQueuePair> qb;
    Ptr<RoceReceiverApp> rx;
    Ptr<RoceFrontEndApp> tx;
};

NicPair
MakePair(RoceHelper& helper, uint32_t receiveBuffers = 64)
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
    NicPair p;
    p.a = DynamicCast<RoceNic>(devs.Get(0));
    p.b = DynamicCast<RoceNic>(devs.Get(1));
    auto qps = helper.ConnectQueuePairs(p.a, p.b);
    p.qa = qps.first;
    p.qb = qps.second;
    p.rx = CreateObjectWithAttributes<RoceReceiverApp>("ReceiveBuffers",
                                                       UintegerValue(receiveBuffers));
    p.rx->AddQueuePair(p.qb);
    nodes.Get(1)->AddApplication(p.rx);
    return p;
}

/// A front-end source on a's QP (saturating 1 MiB WRITEs unless told otherwise).
void
AddSource(NicPair& p)
{
    p.tx = CreateObject<RoceFrontEndApp>();
    p.tx->SetQueuePair(p.qa);
    p.a->GetNode()->AddApplication(p.tx);
}

void
SampleBytes(Ptr<RoceReceiverApp> app, uint64_t* out)
{
    *out = app->GetBytesReceived();
}

void
SampleSent(Ptr<RoceQueuePair> qp, uint64_t* out)
{
    *out = qp->GetCounters().dataPacketsSent;
}

/// Drops the listed data frames (or ACK/NAK frames), counted from 1, by kind.
class DropFramesModel : public ErrorModel
{
  public:
    DropFramesModel(std::set<uint32_t> which, bool acks)
        : m_which(which),
          m_acks(acks),
          m_seen(0)
    {
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceHeader h;
        p->PeekHeader(h);
        if (h.GetError() != FEROCE_WIRE_OK || h.Fields().bth.opcode == FEROCE_OP_CNP)
        {
            return false;
        }
        bool isAck = h.Fields().bth.opcode == FEROCE_OP_ACK;
        return isAck == m_acks && m_which.count(++m_seen);
    }

    void DoReset() override
    {
        m_seen = 0;
    }

    std::set<uint32_t> m_which;
    bool m_acks;
    uint32_t m_seen;
};

/// One WRITE-only frame from qa's side, as the link would carry it.
Ptr<Packet>
MakeWriteFrame(const NicPair& p, uint32_t psn, uint8_t ecn)
{
    RoceHeader h(FEROCE_OP_WRITE_ONLY);
    feroce_roce& f = h.Fields();
    Mac48Address::ConvertFrom(p.a->GetAddress()).CopyTo(f.eth.src);
    Mac48Address::ConvertFrom(p.b->GetAddress()).CopyTo(f.eth.dst);
    f.ip.src = p.a->GetIpv4Address().Get();
    f.ip.dst = p.b->GetIpv4Address().Get();
    f.ip.ecn = ecn;
    f.bth.destqp = p.qb->GetQpn();
    f.bth.psn = psn;
    f.bth.ackreq = 1;
    f.reth.dmalen = 1000;
    f.payload_len = 1000;
    h.SetLengths();
    Ptr<Packet> frame = Create<Packet>(h.GetPayloadAndPad());
    frame->AddHeader(h);
    frame->AddTrailer(IcrcTrailer(h.ComputeIcrcZeroPayload()));
    return frame;
}

Ptr<Packet>
MakePfcFrame(uint8_t prio, uint16_t quanta)
{
    PfcHeader h;
    h.SetPause(prio, quanta);
    Ptr<Packet> frame = Create<Packet>(0);
    frame->AddHeader(h);
    return frame;
}

void
Deliver(Ptr<RoceNic> nic, Ptr<Packet> frame)
{
    nic->Receive(frame);
}

} // namespace

/**
 * \ingroup feroce
 * One QP, no congestion: RDMA WRITE goodput at each PMTU is the table of
 * src/feroce/doc/rocev2-wire.md (PMTU + 82 wire bytes per packet, 16 more for the
 * RETH of a message's first packet) within 0.5%.
 */
class RoceGoodputTestCase : public TestCase
{
  public:
    RoceGoodputTestCase(uint32_t pmtu, bool onePacket, double expectGbps)
        : TestCase("goodput at PMTU " + std::to_string(pmtu) +
                   (onePacket ? ", one packet per message" : ", 1 MiB messages")),
          m_pmtu(pmtu),
          m_onePacket(onePacket),
          m_expect(expectGbps)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(m_pmtu));
        NicPair p = MakePair(helper);
        AddSource(p);
        p.tx->SetAttribute("MessageSize", UintegerValue(m_onePacket ? m_pmtu : 1 << 20));
        p.tx->SetAttribute("MaxOutstanding", UintegerValue(256)); // never the limit
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        Simulator::Schedule(MilliSeconds(1), &SampleBytes, p.rx, &b1);
        Simulator::Schedule(MilliSeconds(9), &SampleBytes, p.rx, &b2);
        Simulator::Stop(MilliSeconds(9) + NanoSeconds(1));
        Simulator::Run();
        double gbps = double(b2 - b1) * 8 / 8e-3 / 1e9;
        std::cout << "PMTU " << m_pmtu << (m_onePacket ? " one-packet" : " 1MiB") << " goodput "
                  << gbps << " Gb/s (table " << m_expect << ")" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(gbps, m_expect, m_expect * 0.005, "goodput vs table");
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().retransmittedPackets, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().cnpsReceived, 0, "no congestion");
        Simulator::Destroy();
    }

    uint32_t m_pmtu;
    bool m_onePacket;
    double m_expect;
};

/**
 * \ingroup feroce
 * PSNs wrap modulo 2^24 without loss, retransmission or NAK.
 */
class RocePsnWrapTestCase : public TestCase
{
  public:
    RocePsnWrapTestCase()
        : TestCase("PSN wrap-around")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("InitialPsn", UintegerValue(0xfffff0));
        NicPair p = MakePair(helper);
        for (uint64_t i = 0; i < 10; i++)
        {
            RoceWorkRequest wr;
            wr.id = i;
            wr.length = 4096; // 4 packets
            NS_TEST_ASSERT_MSG_EQ(p.qa->PostSend(wr), true, "posted");
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const auto& c = p.qa->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.completions, 10, "every request completed");
        NS_TEST_EXPECT_MSG_EQ(p.rx->GetBytesReceived(), 40960, "every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(c.retransmittedPackets, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_EQ(p.qb->GetCounters().naksSent, 0, "no NAK");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * A data frame lost on the link: the responder NAKs the gap once, the
 * requester goes back to the lost PSN, and every byte arrives once, in order.
 */
class RoceGoBackNTestCase : public TestCase
{
  public:
    RoceGoBackNTestCase()
        : TestCase("go-back-N after a lost data frame")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        NicPair p = MakePair(helper);
        Ptr<DropFramesModel> drop = CreateObject<DropFramesModel>(std::set<uint32_t>{50}, false);
        p.b->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        for (uint64_t i = 0; i < 5; i++)
        {
            RoceWorkRequest wr;
            wr.id = i;
            wr.length = 65536;
            NS_TEST_ASSERT_MSG_EQ(p.qa->PostSend(wr), true, "posted");
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const auto& ca = p.qa->GetCounters();
        const auto& cb = p.qb->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(p.b->GetRxErrorDrops(), 1, "one frame lost");
        NS_TEST_EXPECT_MSG_EQ(cb.naksSent, 1, "one NAK for the gap");
        NS_TEST_EXPECT_MSG_EQ(ca.naksReceived, 1, "the NAK arrived");
        NS_TEST_EXPECT_MSG_GT(ca.retransmittedPackets, 0, "went back");
        NS_TEST_EXPECT_MSG_EQ(ca.completions, 5, "every request completed");
        NS_TEST_EXPECT_MSG_EQ(ca.timeouts, 0, "no timeout needed");
        NS_TEST_EXPECT_MSG_EQ(cb.payloadBytesDelivered, 5 * 65536, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(cb.messagesDelivered, 5, "messages delivered");
        NS_TEST_EXPECT_MSG_EQ(p.rx->GetBytesReceived(), 5 * 65536, "application got every byte");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The ACK of a message's only packet is lost: the requester's timer
 * expires, the packet goes again, the responder re-acknowledges the
 * duplicate without delivering it twice.
 */
class RoceTimeoutTestCase : public TestCase
{
  public:
    RoceTimeoutTestCase()
        : TestCase("retransmission timeout after a lost ACK")
    {
    }

  private:
    void Completed(const RoceCompletion& c)
    {
        m_latency = c.completed - c.posted;
        m_status = c.status;
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("AckTimeout", TimeValue(MicroSeconds(100)));
        NicPair p = MakePair(helper);
        Ptr<DropFramesModel> drop = CreateObject<DropFramesModel>(std::set<uint32_t>{1}, true);
        p.a->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        p.qa->SetCompletionCallback(MakeCallback(&RoceTimeoutTestCase::Completed, this));
        RoceWorkRequest wr;
        wr.length = 1000;
        p.qa->PostSend(wr);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const auto& ca = p.qa->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(ca.timeouts, 1, "one timeout");
        NS_TEST_EXPECT_MSG_EQ(ca.retransmittedPackets, 1, "the packet went again");
        NS_TEST_EXPECT_MSG_EQ(p.qb->GetCounters().duplicatesReceived, 1, "a duplicate");
        NS_TEST_EXPECT_MSG_EQ(p.qb->GetCounters().acksSent, 2, "re-acknowledged");
        NS_TEST_EXPECT_MSG_EQ(p.rx->GetBytesReceived(), 1000, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(m_status, ROCE_WC_SUCCESS, "completed");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_latency, MicroSeconds(100), "after the timeout");
        NS_TEST_EXPECT_MSG_LT(m_latency, MicroSeconds(110), "right after the timeout");
        Simulator::Destroy();
    }

    Time m_latency;
    RoceCompletionStatus m_status{ROCE_WC_FLUSHED};
};

/**
 * \ingroup feroce
 * FeroceRing, the queue pair's FIFO, against std::deque through 20000 random pushes and pops
 * (growth while wrapped around included), and swap.
 */
class FeroceRingTestCase : public TestCase
{
  public:
    FeroceRingTestCase()
        : TestCase("FeroceRing behaves as std::deque")
    {
    }

  private:
    void DoRun() override
    {
        FeroceRing<uint64_t> ring;
        std::deque<uint64_t> ref;
        uint64_t lcg = 12345;
        for (uint64_t i = 0; i < 20000; i++)
        {
            lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
            // more pushes than pops in the first half, fewer in the second
            bool push = ref.empty() || (lcg >> 33) % 100 < (i < 10000 ? 60u : 40u);
            if (push)
            {
                ring.push_back(i);
                ref.push_back(i);
            }
            else
            {
                ring.pop_front();
                ref.pop_front();
            }
            NS_TEST_ASSERT_MSG_EQ(ring.size(), ref.size(), "size");
            NS_TEST_ASSERT_MSG_EQ(ring.empty(), ref.empty(), "empty");
            if (!ref.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(ring.front(), ref.front(), "front");
                std::size_t k = std::size_t(lcg >> 40) % ref.size();
                NS_TEST_ASSERT_MSG_EQ(ring[k], ref[k], "entry " << k);
            }
        }
        FeroceRing<uint64_t> other;
        other.swap(ring);
        NS_TEST_ASSERT_MSG_EQ(ring.size(), 0, "swapped out");
        NS_TEST_ASSERT_MSG_EQ(other.size(), ref.size(), "swapped in");
        for (std::size_t k = 0; k < ref.size(); k++)
        {
            NS_TEST_ASSERT_MSG_EQ(other[k], ref[k], "swapped entry " << k);
        }
    }
};

/**
 * \ingroup feroce
 * AckTimeoutJitter: the timeout after a lost ACK fires AckTimeout plus a
 * uniform draw below the jitter, taken from the QP's stream: over 200
 * streams the extra delays spread over [0, 50 us) with mean 25 us (within 4
 * standard errors); the same stream gives the same instant.
 */
class RoceTimeoutJitterTestCase : public TestCase
{
  public:
    RoceTimeoutJitterTestCase()
        : TestCase("retransmission timeout with AckTimeoutJitter")
    {
    }

  private:
    void Completed(const RoceCompletion& c)
    {
        m_latency = c.completed - c.posted;
    }

    /// Completion latency of one packet whose first ACK is lost.
    Time RunOnce(Time jitter, int64_t stream)
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("AckTimeout", TimeValue(MicroSeconds(100)));
        helper.SetQueuePairAttribute("AckTimeoutJitter", TimeValue(jitter));
        NicPair p = MakePair(helper);
        p.qa->AssignStreams(stream);
        Ptr<DropFramesModel> drop = CreateObject<DropFramesModel>(std::set<uint32_t>{1}, true);
        p.a->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        p.qa->SetCompletionCallback(MakeCallback(&RoceTimeoutJitterTestCase::Completed, this));
        RoceWorkRequest wr;
        wr.length = 1000;
        p.qa->PostSend(wr);
        m_latency = Time(0);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().timeouts, 1, "one timeout");
        Simulator::Destroy();
        return m_latency;
    }

    void DoRun() override
    {
        const Time jitter = MicroSeconds(50);
        Time base = RunOnce(Time(0), 1);
        NS_TEST_ASSERT_MSG_GT(base, MicroSeconds(100), "completed after the plain timeout");
        double sum = 0;
        double lo = 1e9;
        double hi = -1;
        const int n = 200;
        for (int i = 0; i < n; i++)
        {
            double extra = (RunOnce(jitter, i) - base).GetSeconds() * 1e6;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(extra, 0, "never before AckTimeout");
            NS_TEST_ASSERT_MSG_LT(extra, 50, "within the jitter");
            sum += extra;
            lo = std::min(lo, extra);
            hi = std::max(hi, extra);
        }
        std::cout << "AckTimeoutJitter 50 us: extra delay mean " << sum / n << " us, min " << lo
                  << ", max " << hi << " over " << n << " streams" << std::endl;
        // uniform on [0, 50): standard error of the mean 50 / sqrt(12 n)
        NS_TEST_EXPECT_MSG_EQ_TOL(sum / n, 25.0, 4 * 50 / std::sqrt(12.0 * n), "mean extra delay");
        NS_TEST_EXPECT_MSG_LT(lo, 5, "draws near 0");
        NS_TEST_EXPECT_MSG_GT(hi, 45, "draws near the jitter");
        NS_TEST_EXPECT_MSG_EQ(RunOnce(jitter, 7), RunOnce(jitter, 7), "same stream, same instant");
        NS_TEST_EXPECT_MSG_NE(RunOnce(jitter, 7), RunOnce(jitter, 8), "another stream, another");
        // the QP builds its generator lazily; the draw is still a UniformRandomVariable's on
        // the stream AssignStreams gave
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        Time expected =
            base + NanoSeconds(int64_t(u->GetValue(0, double(jitter.GetNanoSeconds()))));
        NS_TEST_EXPECT_MSG_EQ(RunOnce(jitter, 7), expected, "UniformRandomVariable's draw");
    }

    Time m_latency;
};

/**
 * \ingroup feroce
 * SENDs to a receiver with no buffer posted get RNR NAKs; with buffers
 * posted later they complete; with none ever and RnrRetry 2 the QP fails
 * with RNR retry exceeded and says so.
 */
class RoceRnrTestCase : public TestCase
{
  public:
    RoceRnrTestCase(bool postLater)
        : TestCase(postLater ? "RNR NAK, then receive buffers posted: SENDs complete"
                             : "RNR NAK and no buffer ever: the QP enters the error state"),
          m_postLater(postLater)
    {
    }

  private:
    void Completed(const RoceCompletion& c)
    {
        m_statuses.push_back(c.status);
    }

    void Error(uint32_t /* qpn */, RoceCompletionStatus why)
    {
        m_errors++;
        m_why = why;
    }

    static void Post(Ptr<RoceQueuePair> qp, uint32_t n)
    {
        for (uint32_t i = 0; i < n; i++)
        {
            qp->PostReceive(i);
        }
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("RnrTimerCode", UintegerValue(1)); // 10 us
        helper.SetQueuePairAttribute("RnrRetry", UintegerValue(m_postLater ? 7 : 2));
        NicPair p = MakePair(helper, 0);
        p.qa->SetCompletionCallback(MakeCallback(&RoceRnrTestCase::Completed, this));
        p.qa->TraceConnectWithoutContext("Error", MakeCallback(&RoceRnrTestCase::Error, this));
        for (uint64_t i = 0; i < 3; i++)
        {
            RoceWorkRequest wr;
            wr.id = i;
            wr.write = false;
            wr.withImm = true;
            wr.imm = uint32_t(i);
            wr.length = 3000;
            p.qa->PostSend(wr);
        }
        if (m_postLater)
        {
            Simulator::Schedule(MicroSeconds(200), &RoceRnrTestCase::Post, p.qb, 3);
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(p.qb->GetCounters().rnrNaksSent, 0, "RNR NAKs sent");
        NS_TEST_ASSERT_MSG_EQ(m_statuses.size(), 3, "three completions");
        if (m_postLater)
        {
            for (auto s : m_statuses)
            {
                NS_TEST_EXPECT_MSG_EQ(s, ROCE_WC_SUCCESS, "completed");
            }
            NS_TEST_EXPECT_MSG_EQ(p.rx->GetMessagesReceived(), 3, "three SENDs consumed");
            NS_TEST_EXPECT_MSG_EQ(p.rx->GetBytesReceived(), 9000, "their bytes, once");
            NS_TEST_EXPECT_MSG_EQ(m_errors, 0, "no error");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(m_statuses[0], ROCE_WC_RNR_RETRY_EXCEEDED, "first fails");
            NS_TEST_EXPECT_MSG_EQ(m_statuses[1], ROCE_WC_FLUSHED, "others flushed");
            NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().rnrNaksReceived, 3, "1 + RnrRetry tries");
            NS_TEST_EXPECT_MSG_EQ(m_errors, 1, "Error trace");
            NS_TEST_EXPECT_MSG_EQ(m_why, ROCE_WC_RNR_RETRY_EXCEEDED, "why");
            NS_TEST_EXPECT_MSG_EQ(p.qa->GetState(), RoceQueuePair::ERROR, "error state");
            NS_TEST_EXPECT_MSG_EQ(p.a->GetCounters().qpErrors, 1, "device counter");
            RoceWorkRequest wr;
            NS_TEST_EXPECT_MSG_EQ(p.qa->PostSend(wr), false, "no posting in error");
        }
        Simulator::Destroy();
    }

    bool m_postLater;
    std::vector<RoceCompletionStatus> m_statuses;
    uint32_t m_errors{0};
    RoceCompletionStatus m_why{ROCE_WC_SUCCESS};
};

/**
 * \ingroup feroce
 * A send queue of W one-packet messages on a long link: each message takes
 * L = data + ACK serialization + 2 x delay, so goodput is W x size / L.
 */
class RoceWindowTestCase : public TestCase
{
  public:
    RoceWindowTestCase(uint32_t depth)
        : TestCase("send-queue depth " + std::to_string(depth) +
                   " limits goodput to W x size over L"),
          m_depth(depth)
    {
    }

  private:
    void Latency(const RoceCompletion& /* c */, Time latency)
    {
        if (Simulator::Now() > MilliSeconds(1)) // past the first burst of W messages
        {
            m_latencySum += latency.GetSeconds();
            m_completions++;
        }
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(50)));
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
        helper.SetQueuePairAttribute("SendQueueDepth", UintegerValue(m_depth));
        NicPair p = MakePair(helper);
        AddSource(p);
        p.tx->SetAttribute("MessageSize", UintegerValue(4096));
        p.tx->SetAttribute("MaxOutstanding", UintegerValue(1000)); // the send queue is the limit
        p.qa->TraceConnectWithoutContext("Completion",
                                         MakeCallback(&RoceWindowTestCase::Latency, this));
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        Simulator::Schedule(MilliSeconds(1), &SampleBytes, p.rx, &b1);
        Simulator::Schedule(MilliSeconds(51), &SampleBytes, p.rx, &b2);
        Simulator::Stop(MilliSeconds(51) + NanoSeconds(1));
        Simulator::Run();
        // WRITE Only: 14+20+8+12+16 RETH + 4096 + 4 ICRC = 4170 B, 4194 on the wire; ACK 62 -> 86
        double latency = (4194 + 86) * 8 / 10e9 + 2 * 50e-6;
        double expect = m_depth * 4096 * 8 / latency;
        double measured = double(b2 - b1) * 8 / 50e-3;
        std::cout << "depth " << m_depth << ": " << measured / 1e9 << " Gb/s, formula "
                  << expect / 1e9 << " Gb/s; mean latency " << m_latencySum / m_completions * 1e6
                  << " us, formula " << latency * 1e6 << " us" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expect, expect * 0.005, "window-limited goodput");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_latencySum / m_completions,
                                  latency,
                                  latency * 0.001,
                                  "latency");
        Simulator::Destroy();
    }

    uint32_t m_depth;
    double m_latencySum{0};
    uint64_t m_completions{0};
};

/**
 * \ingroup feroce
 * The CNPs of the paper known-answer trace (test data rp-paper.txt),
 * injected into an idle QP of a NIC with DcqcnPreset paper, give the
 * trace's Rc, Rt and alpha at each row before its first large transmission.
 */
class RoceCnpScheduleTestCase : public TestCase
{
  public:
    RoceCnpScheduleTestCase()
        : TestCase("CNPs injected into a QP reproduce the core's rate trace (rp-paper)")
    {
    }

  private:
    struct Row
    {
        int64_t t;
        bool cnp;
        double rc;
        double rt;
        double alpha;
    };

    void Apply(Ptr<RoceQueuePair> qp, Row row)
    {
        if (row.cnp)
        {
            qp->ReceiveCnp();
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(qp->GetRateBps(), row.rc, 1e-3, "Rc at " << row.t);
        NS_TEST_EXPECT_MSG_EQ_TOL(qp->GetTargetRateBps(), row.rt, 1e-3, "Rt at " << row.t);
        NS_TEST_EXPECT_MSG_EQ_TOL(qp->GetAlpha(), row.alpha, 1e-9, "alpha at " << row.t);
        m_rows++;
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnPreset", StringValue("paper"));
        NicPair p = MakePair(helper);
        // rows of rp-paper.txt up to its "1000000 tx 20000000" (an idle QP transmits nothing)
        const Row rows[] = {{1000, true, 5000000000.0, 10000000000.0, 1.0},
                            {2000, false, 5000000000.0, 10000000000.0, 1.0},
                            {56000, false, 7500000000.0, 10000000000.0, 0.996093750},
                            {60000, true, 3764648437.5, 7500000000.0, 0.996109009},
                            {120000, false, 5632324218.75, 7500000000.0, 0.992217958},
                            {400000, false, 7461635131.835938, 7540000000.0, 0.972989511}};
        for (const Row& r : rows)
        {
            Simulator::Schedule(NanoSeconds(r.t), &RoceCnpScheduleTestCase::Apply, this, p.qa, r);
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_rows, 6, "every row checked");
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().cnpsReceived, 2, "two CNPs");
        Simulator::Destroy();
    }

    uint32_t m_rows{0};
};

/**
 * \ingroup feroce
 * A PFC PAUSE for the data priority stops new data frames for its quanta
 * (51.2 ns each at 10 Gb/s) until an XON; a NIC with PfcHonour false goes on.
 */
class RocePfcPauseTestCase : public TestCase
{
  public:
    RocePfcPauseTestCase(bool honour)
        : TestCase(honour ? "PFC PAUSE honoured per priority until XON"
                          : "PFC PAUSE ignored when PfcHonour is false"),
          m_honour(honour)
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("PfcHonour", BooleanValue(m_honour));
        NicPair p = MakePair(helper);
        AddSource(p);
        // pause priority 3 (the QPs' default) for 65535 quanta = 3.355 ms, XON at 1 ms
        Simulator::Schedule(MicroSeconds(100), &Deliver, p.a, MakePfcFrame(3, 0xffff));
        Simulator::Schedule(MicroSeconds(1000), &Deliver, p.a, MakePfcFrame(3, 0));
        // a pause of another priority changes nothing for priority 3
        Simulator::Schedule(MicroSeconds(1500), &Deliver, p.a, MakePfcFrame(5, 0xffff));
        uint64_t s1 = 0;
        uint64_t s2 = 0;
        uint64_t s3 = 0;
        Simulator::Schedule(MicroSeconds(101), &SampleSent, p.qa, &s1);
        Simulator::Schedule(MicroSeconds(999), &SampleSent, p.qa, &s2);
        Simulator::Schedule(MicroSeconds(2000), &SampleSent, p.qa, &s3);
        Simulator::Stop(MicroSeconds(2000) + NanoSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(p.a->GetCounters().pauseFramesReceived, 3, "PFC frames seen");
        if (m_honour)
        {
            NS_TEST_EXPECT_MSG_EQ(s2, s1, "nothing sent while paused");
            NS_TEST_EXPECT_MSG_GT(s3 - s2, 800, "sending again after XON");
            NS_TEST_EXPECT_MSG_EQ_TOL(p.a->GetPausedTime(3).GetMicroSeconds(),
                                      900,
                                      1,
                                      "paused time");
            NS_TEST_EXPECT_MSG_EQ(p.a->IsPaused(5), true, "priority 5 paused");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(s2 - s1, 800, "sending through the pause");
            NS_TEST_EXPECT_MSG_EQ(p.a->GetCounters().pauseFramesIgnored, 3, "ignored");
            NS_TEST_EXPECT_MSG_EQ(p.a->GetPausedTime(3), Time(0), "never paused");
        }
        Simulator::Destroy();
    }

    bool m_honour;
};

/**
 * \ingroup feroce
 * CE-marked data arriving every 5 us: the notification point sends one CNP
 * per CnpInterval (20 us: 3 for 10 packets) or one per mark (0); the CNPs
 * are real frames (DSCP 48) that reach the requester and cut its rate.
 */
class RoceNotificationPointTestCase : public TestCase
{
  public:
    RoceNotificationPointTestCase(Time interval, uint32_t expectCnps)
        : TestCase("notification point, CNP interval " +
                   std::to_string(interval.GetMicroSeconds()) + " us"),
          m_interval(interval),
          m_expect(expectCnps)
    {
    }

  private:
    void Sniff(Ptr<const Packet> p)
    {
        RoceHeader h;
        p->PeekHeader(h);
        if (h.GetError() == FEROCE_WIRE_OK && h.Fields().bth.opcode == FEROCE_OP_CNP)
        {
            m_cnpFrames++;
            m_cnpDscp = h.Fields().ip.dscp;
            m_cnpBecn = h.Fields().bth.becn;
        }
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("CnpInterval", TimeValue(m_interval));
        NicPair p = MakePair(helper);
        p.b->TraceConnectWithoutContext("Sniffer",
                                        MakeCallback(&RoceNotificationPointTestCase::Sniff, this));
        for (uint32_t i = 0; i < 10; i++)
        {
            Simulator::Schedule(MicroSeconds(5 * i),
                                &Deliver,
                                p.b,
                                MakeWriteFrame(p, i, FEROCE_ECN_CE));
        }
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(p.qb->GetCounters().ceMarksReceived, 10, "CE marks seen");
        NS_TEST_EXPECT_MSG_EQ(p.qb->GetCounters().cnpsSent, m_expect, "CNPs sent");
        NS_TEST_EXPECT_MSG_EQ(m_cnpFrames, m_expect, "CNP frames on the wire");
        NS_TEST_EXPECT_MSG_EQ(unsigned(m_cnpDscp), 48u, "CNP DSCP");
        NS_TEST_EXPECT_MSG_EQ(unsigned(m_cnpBecn), 1u, "BECN");
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().cnpsReceived, m_expect, "CNPs reached the QP");
        NS_TEST_EXPECT_MSG_EQ(p.a->GetCounters().cnpsReceived, m_expect, "device counter");
        NS_TEST_EXPECT_MSG_LT(p.qa->GetRateBps(), 10e9, "rate cut");
        NS_TEST_EXPECT_MSG_EQ(p.rx->GetBytesReceived(), 10000, "the data itself delivered");
        Simulator::Destroy();
    }

    Time m_interval;
    uint32_t m_expect;
    uint32_t m_cnpFrames{0};
    uint8_t m_cnpDscp{0};
    uint8_t m_cnpBecn{0};
};

/**
 * \ingroup feroce
 * A lossy link with Poisson triggers: the same RngRun gives identical
 * counters, another RngRun different ones.
 */
class RoceDeterminismTestCase : public TestCase
{
  public:
    RoceDeterminismTestCase()
        : TestCase("determinism: same RngRun, same counters")
    {
    }

  private:
    std::vector<uint64_t> RunOnce(uint32_t run)
    {
        RngSeedManager::SetRun(run);
        RoceHelper helper;
        NicPair p = MakePair(helper);
        AddSource(p);
        p.tx->SetAttribute("Mode", StringValue("trigger"));
        p.tx->SetAttribute("Poisson", BooleanValue(true));
        p.tx->SetAttribute("MessageSize", UintegerValue(8192));
        p.tx->SetAttribute("TriggerInterval", TimeValue(MicroSeconds(8)));
        p.tx->AssignStreams(10);
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(1e-3));
        em->AssignStreams(11);
        p.b->SetAttribute("ReceiveErrorModel", PointerValue(em));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const auto& c = p.qa->GetCounters();
        std::vector<uint64_t> v = {p.tx->GetEventsGenerated(),
                                   p.tx->GetMessagesCompleted(),
                                   c.dataPacketsSent,
                                   c.retransmittedPackets,
                                   c.naksReceived,
                                   p.rx->GetBytesReceived(),
                                   p.b->GetRxErrorDrops()};
        Simulator::Destroy();
        return v;
    }

    void DoRun() override
    {
        std::vector<uint64_t> first = RunOnce(1);
        std::vector<uint64_t> again = RunOnce(1);
        std::vector<uint64_t> other = RunOnce(2);
        RngSeedManager::SetRun(1);
        NS_TEST_EXPECT_MSG_EQ((first == again), true, "same RngRun, same counters");
        NS_TEST_EXPECT_MSG_EQ((first != other), true, "another RngRun, other counters");
        NS_TEST_EXPECT_MSG_GT(first[6], 0, "losses happened");
        NS_TEST_EXPECT_MSG_GT(first[3], 0, "and were recovered by retransmission");
    }
};

/**
 * \ingroup feroce
 * The queue pair's trace sources are made at the first connection: a Rate trace connected in
 * the middle of a run (after another source made them) reports, as its first old value, the
 * rate the QP had then, and every later old value is the previous new one; CnpReceived fires
 * for the CNPs after the connection only, and nothing after a disconnection; Config::Connect
 * reaches them with their context.
 * The queue pair itself is cache-line aligned.
 */
class RoceLazyTraceTestCase : public TestCase
{
  public:
    RoceLazyTraceTestCase()
        : TestCase("QP trace sources connected mid-run: first old value, CNPs, disconnection")
    {
    }

  private:
    void Rate(double oldRate, double newRate)
    {
        m_rates.emplace_back(oldRate, newRate);
    }

    void Cnp()
    {
        m_cnps++;
    }

    void CnpWithContext(std::string context)
    {
        m_contexts.push_back(context);
    }

    void Completion(const RoceCompletion&, Time)
    {
    }

    /// Another source first: the traces exist before the CNP at 10 us, the DCQCN ones not
    /// connected (their values are not reported until Connect).
    void ConnectEarly(Ptr<RoceQueuePair> qp)
    {
        qp->TraceConnectWithoutContext("Completion",
                                       MakeCallback(&RoceLazyTraceTestCase::Completion, this));
    }

    void Connect(Ptr<RoceQueuePair> qp)
    {
        m_rateAtConnect = qp->GetRateBps();
        qp->TraceConnectWithoutContext("Rate", MakeCallback(&RoceLazyTraceTestCase::Rate, this));
        qp->TraceConnectWithoutContext("CnpReceived",
                                       MakeCallback(&RoceLazyTraceTestCase::Cnp, this));
        // and through the Config namespace, with its context (node 0's NIC, its queue pairs)
        Config::Connect("/NodeList/" + std::to_string(m_node) +
                            "/DeviceList/*/$ns3::RoceNic/QueuePairs/*/CnpReceived",
                        MakeCallback(&RoceLazyTraceTestCase::CnpWithContext, this));
    }

    void Disconnect(Ptr<RoceQueuePair> qp)
    {
        qp->TraceDisconnectWithoutContext("CnpReceived",
                                          MakeCallback(&RoceLazyTraceTestCase::Cnp, this));
    }

    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnPreset", StringValue("paper"));
        NicPair p = MakePair(helper);
        AddSource(p);
        m_node = p.a->GetNode()->GetId();
        NS_TEST_EXPECT_MSG_EQ(reinterpret_cast<uintptr_t>(PeekPointer(p.qa)) % 64,
                              0,
                              "a queue pair starts on a cache line");
        for (int64_t us : {10, 60, 120, 200})
        {
            Simulator::Schedule(MicroSeconds(us), &RoceQueuePair::ReceiveCnp, p.qa);
        }
        Simulator::Schedule(MicroSeconds(5), &RoceLazyTraceTestCase::ConnectEarly, this, p.qa);
        Simulator::Schedule(MicroSeconds(30), &RoceLazyTraceTestCase::Connect, this, p.qa);
        Simulator::Schedule(MicroSeconds(150), &RoceLazyTraceTestCase::Disconnect, this, p.qa);
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_LT(m_rateAtConnect, 10e9, "the first CNP cut the rate before");
        NS_TEST_ASSERT_MSG_GT(m_rates.size(), 2, "Rc moved after the connection");
        NS_TEST_EXPECT_MSG_EQ(m_rates[0].first, m_rateAtConnect, "first old value: Rc then");
        for (std::size_t i = 1; i < m_rates.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_rates[i].first, m_rates[i - 1].second, "continuous");
        }
        NS_TEST_EXPECT_MSG_EQ(m_cnps, 2, "the CNPs at 60 and 120 us only");
        NS_TEST_ASSERT_MSG_EQ(m_contexts.size(), 3, "Config::Connect: the CNPs after 30 us");
        bool named = m_contexts[0].find("/QueuePairs/0/CnpReceived") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, "the context names the queue pair: " << m_contexts[0]);
        NS_TEST_EXPECT_MSG_EQ(p.qa->GetCounters().cnpsReceived, 4, "all four arrived");
        Simulator::Destroy();
    }

    double m_rateAtConnect{0};
    std::vector<std::pair<double, double>> m_rates;
    uint32_t m_cnps{0};
    uint32_t m_node{0};
    std::vector<std::string> m_contexts;
};

/**
 * \ingroup feroce
 * A queue pair's plain handlers: completions and receptions reach the function with the
 * context and index given; a Callback set later replaces the handler, a null one leaves none.
 */
class RoceHandlerTestCase : public TestCase
{
  public:
    RoceHandlerTestCase()
        : TestCase("QP completion and receive handlers: context, index, replaced by a callback")
    {
    }

  private:
    struct Seen
    {
        uint32_t index{0};
        uint32_t calls{0};
        uint64_t bytes{0};
    };

    static void OnCompletion(void* context, uint32_t index, const RoceCompletion& c)
    {
        auto seen = static_cast<Seen*>(context);
        seen->index = index;
        seen->calls++;
        seen->bytes += c.length;
    }

    static void OnReceive(void* context, uint32_t index, const RoceReceive& r)
    {
        auto seen = static_cast<Seen*>(context);
        seen->index = index;
        seen->calls++;
        seen->bytes += r.bytes;
    }

    void Late(const RoceCompletion& c)
    {
        m_late += c.length;
    }

    static void Post(Ptr<RoceQueuePair> qp, uint64_t id)
    {
        RoceWorkRequest wr;
        wr.id = id;
        wr.length = 3000; // three packets of the default Pmtu (1024)
        qp->PostSend(wr);
    }

    void Replace(Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb)
    {
        qa->SetCompletionCallback(MakeCallback(&RoceHandlerTestCase::Late, this));
        qb->SetReceiveHandler(nullptr, nullptr, 0);
    }

    void DoRun() override
    {
        RoceHelper helper;
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        auto qps = helper.ConnectQueuePairs(DynamicCast<RoceNic>(devs.Get(0)),
                                            DynamicCast<RoceNic>(devs.Get(1)));
        qps.first->SetCompletionHandler(&OnCompletion, &m_completions, 7);
        qps.second->SetReceiveHandler(&OnReceive, &m_receptions, 9);
        Simulator::Schedule(MicroSeconds(1), &Post, qps.first, 1);
        Simulator::Schedule(MicroSeconds(1), &Post, qps.first, 2);
        Simulator::Schedule(MicroSeconds(100),
                            &RoceHandlerTestCase::Replace,
                            this,
                            qps.first,
                            qps.second);
        Simulator::Schedule(MicroSeconds(101), &Post, qps.first, 3);
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_completions.calls, 2, "two completions before the callback");
        NS_TEST_EXPECT_MSG_EQ(m_completions.index, 7, "with the index given");
        NS_TEST_EXPECT_MSG_EQ(m_completions.bytes, 6000, "of both requests");
        NS_TEST_EXPECT_MSG_EQ(m_late, 3000, "the third request's completion: the callback's");
        NS_TEST_EXPECT_MSG_EQ(m_receptions.calls, 6, "a reception per packet, two messages");
        NS_TEST_EXPECT_MSG_EQ(m_receptions.index, 9, "with the index given");
        NS_TEST_EXPECT_MSG_EQ(m_receptions.bytes, 6000, "none after the null handler");
        NS_TEST_EXPECT_MSG_EQ(qps.second->GetCounters().payloadBytesDelivered,
                              9000,
                              "the third message delivered all the same");
        Simulator::Destroy();
    }

    Seen m_completions;
    Seen m_receptions;
    uint64_t m_late{0};
};

/**
 * \ingroup feroce
 * Two NICs attached to their link before Node::AddDevice gives them their
 * nodes (FeroceChannel::UpdateFarEnds): each arrival still runs in the
 * receiving node's context, the WRITE's packets at b and their ACK at a.
 */
class RoceLateNodeTestCase : public TestCase
{
  public:
    RoceLateNodeTestCase()
        : TestCase("NICs linked before they have their nodes: arrivals run in the receiving "
                   "node's context")
    {
    }

  private:
    /// The context of a reception (at b) or a completion (at a: its ACK's arrival).
    static void OnReceive(void* contexts, uint32_t /* index */, const RoceReceive& /* r */)
    {
        static_cast<std::vector<uint32_t>*>(contexts)->push_back(Simulator::GetContext());
    }

    static void OnCompletion(void* contexts, uint32_t /* index */, const RoceCompletion& /* c */)
    {
        static_cast<std::vector<uint32_t>*>(contexts)->push_back(Simulator::GetContext());
    }

    static void Post(Ptr<RoceQueuePair> qp)
    {
        RoceWorkRequest wr;
        wr.length = 2000; // two packets of the default Pmtu (1024)
        qp->PostSend(wr);
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3); // the NICs' nodes are 1 and 2: no context is theirs by chance
        Ptr<RoceNic> a = CreateObject<RoceNic>();
        Ptr<RoceNic> b = CreateObject<RoceNic>();
        a->SetAddress(Mac48Address::Allocate());
        b->SetAddress(Mac48Address::Allocate());
        a->SetIpv4Address(Ipv4Address("10.9.0.1"));
        b->SetIpv4Address(Ipv4Address("10.9.0.2"));
        Ptr<FeroceChannel> link = CreateObject<FeroceChannel>();
        a->Attach(link);
        b->Attach(link);
        nodes.Get(1)->AddDevice(a);
        nodes.Get(2)->AddDevice(b);
        auto qps = RoceHelper().ConnectQueuePairs(a, b);
        std::vector<uint32_t> atA;
        std::vector<uint32_t> atB;
        qps.first->SetCompletionHandler(&OnCompletion, &atA, 0);
        qps.second->SetReceiveHandler(&OnReceive, &atB, 0);
        Simulator::ScheduleWithContext(nodes.Get(1)->GetId(), MicroSeconds(1), &Post, qps.first);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atB.size(), 2, "both packets received at b");
        NS_TEST_EXPECT_MSG_EQ(atA.size(), 1, "the WRITE completed at a");
        for (uint32_t context : atB)
        {
            NS_TEST_EXPECT_MSG_EQ(context, nodes.Get(2)->GetId(), "a packet arrived in b's node");
        }
        for (uint32_t context : atA)
        {
            NS_TEST_EXPECT_MSG_EQ(context, nodes.Get(1)->GetId(), "the ACK arrived in a's node");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * A link's Delay set after both NICs attached (each keeps its far end,
 * FeroceChannel::UpdateFarEnds) delays every arrival as one set before: the
 * receptions at b come at the same times, and later than over the default
 * delay by the difference.
 */
class RoceLateDelayTestCase : public TestCase
{
  public:
    RoceLateDelayTestCase()
        : TestCase("a link's delay set after its ends attached delays their frames as one set "
                   "before")
    {
    }

  private:
    static void OnReceive(void* times, uint32_t /* index */, const RoceReceive& /* r */)
    {
        static_cast<std::vector<Time>*>(times)->push_back(Simulator::Now());
    }

    static void Post(Ptr<RoceQueuePair> qp)
    {
        RoceWorkRequest wr;
        wr.length = 3000; // three packets of the default Pmtu (1024)
        qp->PostSend(wr);
    }

    /// The receptions at b, with the link's delay set (if not zero) as the link is made, before
    /// its ends attach, or after.
    static std::vector<Time> Receptions(Time delay, bool setAfterAttach)
    {
        RoceHelper helper;
        if (!delay.IsZero() && !setAfterAttach)
        {
            helper.SetChannelAttribute("Delay", TimeValue(delay));
        }
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        Ptr<RoceNic> a = DynamicCast<RoceNic>(devs.Get(0));
        Ptr<RoceNic> b = DynamicCast<RoceNic>(devs.Get(1));
        if (!delay.IsZero() && setAfterAttach)
        {
            a->GetChannel()->SetAttribute("Delay", TimeValue(delay));
        }
        auto qps = helper.ConnectQueuePairs(a, b);
        std::vector<Time> times;
        qps.second->SetReceiveHandler(&OnReceive, &times, 0);
        Simulator::Schedule(MicroSeconds(1), &Post, qps.first);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();
        return times;
    }

    void DoRun() override
    {
        Time usualDelay = CreateObject<FeroceChannel>()->GetDelay();
        std::vector<Time> usual = Receptions(Time(0), false);
        std::vector<Time> before = Receptions(MicroSeconds(7), false);
        std::vector<Time> after = Receptions(MicroSeconds(7), true);
        NS_TEST_ASSERT_MSG_EQ(usual.size(), 3, "three packets received over the default delay");
        NS_TEST_ASSERT_MSG_EQ(after.size(), before.size(), "as many packets received");
        for (std::size_t i = 0; i < usual.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(after[i],
                                  before[i],
                                  "packet " << i << " arrived as when set before");
            NS_TEST_EXPECT_MSG_EQ(after[i] - usual[i],
                                  MicroSeconds(7) - usualDelay,
                                  "packet " << i << " arrived later by the delays' difference");
        }
    }
};

/**
 * \ingroup feroce
 * The RoCE NIC over one link: goodput, PSNs, recovery, RNR, windows,
 * DCQCN reaction and notification points, PFC, determinism.
 */
class RoceNicTestSuite : public TestSuite
{
  public:
    RoceNicTestSuite()
        : TestSuite("feroce-roce-nic")
    {
        // src/feroce/doc/rocev2-wire.md, "Goodput on 10 GbE"
        const struct
        {
            uint32_t pmtu;
            double mib;
            double one;
        } table[] = {{256, 7.574, 7.232},
                     {512, 8.619, 8.393},
                     {1024, 9.258, 9.127},
                     {2048, 9.615, 9.543},
                     {4096, 9.804, 9.766}};

        for (const auto& row : table)
        {
            AddTestCase(new RoceGoodputTestCase(row.pmtu, false, row.mib));
            AddTestCase(new RoceGoodputTestCase(row.pmtu, true, row.one));
        }
        AddTestCase(new RocePsnWrapTestCase);
        AddTestCase(new RoceGoBackNTestCase);
        AddTestCase(new RoceTimeoutTestCase);
        AddTestCase(new RoceTimeoutJitterTestCase);
        AddTestCase(new FeroceRingTestCase);
        AddTestCase(new RoceRnrTestCase(true));
        AddTestCase(new RoceRnrTestCase(false));
        AddTestCase(new RoceWindowTestCase(4));
        AddTestCase(new RoceWindowTestCase(16));
        AddTestCase(new RoceCnpScheduleTestCase);
        AddTestCase(new RocePfcPauseTestCase(true));
        AddTestCase(new RocePfcPauseTestCase(false));
        AddTestCase(new RoceNotificationPointTestCase(MicroSeconds(20), 3));
        AddTestCase(new RoceNotificationPointTestCase(Time(0), 10));
        AddTestCase(new RoceDeterminismTestCase);
        AddTestCase(new RoceLazyTraceTestCase);
        AddTestCase(new RoceHandlerTestCase);
        AddTestCase(new RoceLateNodeTestCase);
        AddTestCase(new RoceLateDelayTestCase);
    }
};

static RoceNicTestSuite g_roceNicTestSuite;
