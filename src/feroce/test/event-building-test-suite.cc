/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Links and hosts that fail and come back, and event building around them
// (src/feroce/doc/eventbuilding.md): a link down loses what is on it and what is sent into it;
// a queue pair reaches the error state only after its retries times its ACK timeout, and rides
// out a shorter outage; the connection manager replaces a broken connection by new queue pairs
// once both hosts are back; the ledger gives each lost event one cause; the identities add up.

#include "ns3/board-credit-rule.h"
#include "ns3/boolean.h"
#include "ns3/event-ledger.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-identities.h"
#include "ns3/node-container.h"
#include "ns3/roce-connection-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-host-failures.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>

using namespace ns3;

namespace
{

/// A board and a receiver on one switch, a saturating WRITE source over one connection made by
/// a connection manager (whose new pairs the applications take).
struct FailureBench
{
    Ptr<RoceNic> board;
    Ptr<RoceNic> receiver;
    Ptr<FeroceChannel> receiverLink;
    Ptr<RoceFrontEndApp> src;
    Ptr<RoceReceiverApp> sink;
    Ptr<RoceQueuePair> first; ///< the board's first queue pair
};

FailureBench
MakeFailureBench(RoceConnectionManager& manager, Time ackTimeout, uint32_t retries)
{
    FailureBench b;
    RoceHelper helper;
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(4096));
    helper.SetQueuePairAttribute("AckTimeout", TimeValue(ackTimeout));
    helper.SetQueuePairAttribute("RetryCount", UintegerValue(retries));
    NodeContainer nodes;
    nodes.Create(2);
    Ptr<FeroceSwitch> sw = helper.InstallSwitch(CreateObject<Node>());
    b.board = helper.AttachHost(sw, nodes.Get(0));
    b.receiver = helper.AttachHost(sw, nodes.Get(1));
    b.receiverLink = DynamicCast<FeroceChannel>(b.receiver->GetChannel());
    helper.PopulateRoutes();
    b.src = CreateObject<RoceFrontEndApp>();
    b.src->SetAttribute("MessageSize", UintegerValue(65536));
    b.sink = CreateObject<RoceReceiverApp>();
    Ptr<RoceFrontEndApp> src = b.src;
    Ptr<RoceReceiverApp> sink = b.sink;
    auto qp = manager.Connect(b.board,
                              b.receiver,
                              [src, sink](Ptr<RoceQueuePair> qa, Ptr<RoceQueuePair> qb) {
                                  src->ReplaceQueuePair(0, qa);
                                  sink->ReplaceQueuePair(0, qb);
                              });
    b.first = qp.first;
    b.src->SetQueuePair(qp.first);
    b.sink->AddQueuePair(qp.second);
    nodes.Get(0)->AddApplication(b.src);
    nodes.Get(1)->AddApplication(b.sink);
    return b;
}

void
RecordError(Time* at, uint32_t /* qpn */, RoceCompletionStatus /* why */)
{
    if (at->IsNegative())
    {
        *at = Simulator::Now();
    }
}

void
CountLinkChange(uint32_t* n)
{
    (*n)++;
}

void
SampleBytes(Ptr<RoceReceiverApp> app, uint64_t* out)
{
    *out = app->GetBytesReceived();
}

} // namespace

/**
 * \ingroup feroce
 * The receiver's link goes down for good: what is on it and what is sent into it is lost
 * (counted), both ends see the change, and the board's queue pair enters the error state
 * (retry exceeded) between RetryCount + 1 and RetryCount + 2 ACK timeouts after the last ACK.
 */
class LinkDownQpErrorTestCase : public TestCase
{
  public:
    LinkDownQpErrorTestCase(Time ackTimeout, uint32_t retries)
        : TestCase("a dead link: queue pair in error after " + std::to_string(retries + 1) +
                   " timeouts of " + std::to_string(ackTimeout.GetMicroSeconds()) + " us"),
          m_timeout(ackTimeout),
          m_retries(retries)
    {
    }

  private:
    void DoRun() override
    {
        RoceConnectionManager manager(MicroSeconds(10));
        FailureBench b = MakeFailureBench(manager, m_timeout, m_retries);
        Time errorAt = NanoSeconds(-1);
        b.first->TraceConnectWithoutContext("Error", MakeBoundCallback(&RecordError, &errorAt));
        uint32_t changes = 0;
        b.receiver->AddLinkChangeCallback(MakeBoundCallback(&CountLinkChange, &changes));
        Time down = MilliSeconds(1);
        b.receiverLink->ScheduleDown(down);
        Simulator::Stop(down + m_timeout * int64_t(m_retries + 4));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.receiverLink->IsUp(), false, "down");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->IsLinkUp(), false, "the NIC sees it");
        NS_TEST_ASSERT_MSG_EQ(changes, 1, "one change");
        NS_TEST_ASSERT_MSG_GT(b.receiverLink->GetFramesLost(), 0, "frames lost on the dead link");
        NS_TEST_ASSERT_MSG_EQ(b.first->GetState(), RoceQueuePair::ERROR, "the QP gave up");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(errorAt,
                                    down + m_timeout * int64_t(m_retries + 1) - MicroSeconds(50),
                                    "not before its retries");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(errorAt,
                                    down + m_timeout * int64_t(m_retries + 2),
                                    "right after them");
        NS_TEST_ASSERT_MSG_EQ(b.first->GetCounters().timeouts, m_retries + 1, "its timeouts");
        NS_TEST_ASSERT_MSG_EQ(b.src->GetFailureStatus(),
                              ROCE_WC_RETRY_EXCEEDED,
                              "the application sees retry exceeded");
        NS_TEST_ASSERT_MSG_EQ(manager.GetReconnections(), 0, "the receiver never came back");
        Simulator::Destroy();
    }

    Time m_timeout;
    uint32_t m_retries;
};

/**
 * \ingroup feroce
 * An outage shorter than the retries: the queue pair rides it out by retransmission (RC), no
 * error, no reconnection, and the data flows again.  Longer: the queue pair fails and the
 * connection manager replaces it when the link is back: new queue pairs, numbered after the
 * old ones, and the data flows again on them.
 */
class LinkFlapTestCase : public TestCase
{
  public:
    LinkFlapTestCase(Time outage, bool survives)
        : TestCase(std::string("a link down for ") + std::to_string(outage.GetMicroSeconds()) +
                   " us: " + (survives ? "retransmission" : "new queue pairs")),
          m_outage(outage),
          m_survives(survives)
    {
    }

  private:
    void DoRun() override
    {
        RoceConnectionManager manager(MicroSeconds(100));
        FailureBench b = MakeFailureBench(manager, MicroSeconds(200), 3); // 0.8 ms of retries
        Time down = MilliSeconds(1);
        b.receiverLink->ScheduleDown(down, down + m_outage);
        uint64_t before = 0;
        uint64_t end = 0;
        Simulator::Schedule(down + m_outage, &SampleBytes, b.sink, &before);
        Simulator::Schedule(down + m_outage + MilliSeconds(3), &SampleBytes, b.sink, &end);
        Simulator::Stop(down + m_outage + MilliSeconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.receiverLink->IsUp(), true, "back");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.receiverLink->GetDownTime().GetSeconds(),
                                  m_outage.GetSeconds(),
                                  1e-12,
                                  "down for the outage");
        NS_TEST_ASSERT_MSG_GT(end, before + 2000000, "the data flows again");
        if (m_survives)
        {
            NS_TEST_ASSERT_MSG_EQ(b.first->GetState(), RoceQueuePair::RTS, "rode it out");
            NS_TEST_ASSERT_MSG_EQ(manager.GetReconnections(), 0, "no new connection");
            NS_TEST_ASSERT_MSG_EQ(b.src->GetQueuePair(0), b.first, "the same queue pair");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(b.first->GetState(), RoceQueuePair::ERROR, "failed");
            NS_TEST_ASSERT_MSG_EQ(manager.GetReconnections(), 1, "one new connection");
            NS_TEST_ASSERT_MSG_GT(b.src->GetQueuePair(0)->GetQpn(),
                                  b.first->GetQpn(),
                                  "new queue pairs after the old ones");
            NS_TEST_ASSERT_MSG_EQ(b.src->GetQueuePair(0)->GetState(), RoceQueuePair::RTS, "up");
        }
        Simulator::Destroy();
    }

    Time m_outage;
    bool m_survives;
};

/**
 * \ingroup feroce
 * The receiver's host crashes (RoceHostFailures, mode host): its queue pairs are in the error
 * state at once, the board's only after its retries; when the host is back, after the
 * reconnect delay, both ends have new queue pairs and the data flows again, even though the
 * board's old queue pair had not yet given up (the CM tells it).
 */
class HostFailureTestCase : public TestCase
{
  public:
    HostFailureTestCase()
        : TestCase("a receiver host crashes and comes back: new queue pairs on both ends")
    {
    }

  private:
    void DoRun() override
    {
        RoceConnectionManager manager(MicroSeconds(100));
        FailureBench b = MakeFailureBench(manager, MilliSeconds(1), 7); // 8 ms of retries
        Ptr<RoceReceiverApp> sink = b.sink;
        RoceHostFailures failures(&manager, "host");
        failures.AddHost(b.receiver, b.receiverLink, [sink](bool up) {
            up ? sink->Restart() : sink->Fail();
        });
        Ptr<RoceQueuePair> oldReceiverQp = b.receiver->GetQueuePair(0x100);
        failures.Schedule(0, MilliSeconds(1), MilliSeconds(3));
        uint64_t back = 0;
        uint64_t end = 0;
        Simulator::Schedule(MilliSeconds(3), &SampleBytes, b.sink, &back);
        Simulator::Schedule(MilliSeconds(6), &SampleBytes, b.sink, &end);
        Simulator::Stop(MilliSeconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(failures.WasDown(0, MilliSeconds(2), MilliSeconds(2)), true, "down");
        NS_TEST_ASSERT_MSG_EQ(failures.WasDown(0, MilliSeconds(4), MilliSeconds(5)), false, "up");
        NS_TEST_ASSERT_MSG_EQ(oldReceiverQp->GetState(), RoceQueuePair::ERROR, "contexts lost");
        NS_TEST_ASSERT_MSG_EQ(b.first->GetState(), RoceQueuePair::ERROR, "told by the CM");
        NS_TEST_ASSERT_MSG_LT(b.first->GetCounters().timeouts, 7, "before its retries");
        NS_TEST_ASSERT_MSG_EQ(manager.GetReconnections(), 1, "one new connection");
        NS_TEST_ASSERT_MSG_EQ(b.receiver->GetNQueuePairs(), 2, "a new queue pair on the host");
        NS_TEST_ASSERT_MSG_GT(end, back + 2000000, "the data flows again");
        NS_TEST_ASSERT_MSG_EQ(b.src->GetFailureStatus(), ROCE_WC_SUCCESS, "only flushed requests");
        NS_TEST_ASSERT_MSG_GT(b.src->GetMessagesFailed(), 0, "the requests in flight failed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * The ledger: one fate per event, the first cause wins, a fragment failed while its receiver
 * was down, or on a connection made before it went down, is receiver_dead (else
 * retries_exhausted), a late build counts as built; the
 * identities of a run add up, and one that does not is named.
 */
class EventLedgerTestCase : public TestCase
{
  public:
    EventLedgerTestCase()
        : TestCase("the event ledger's causes and the identities")
    {
    }

  private:
    void DoRun() override
    {
        RoceConnectionManager manager(MicroSeconds(100));
        FailureBench b = MakeFailureBench(manager, MilliSeconds(1), 7);
        Ptr<RoceReceiverApp> sink = b.sink;
        RoceHostFailures failures(&manager, "link");
        failures.AddHost(b.receiver, b.receiverLink, [](bool) {});
        failures.Schedule(0, MilliSeconds(2), MilliSeconds(3));
        EventLedger ledger(&failures);
        // events 0..5 triggered at 0, 1, 2... ms; fates given at 4 ms
        for (uint64_t e = 0; e < 6; e++)
        {
            Simulator::Schedule(MilliSeconds(e), &EventLedger::Generated, &ledger, e);
        }
        Time at = MilliSeconds(5) + MicroSeconds(1);
        Simulator::Schedule(at, &EventLedger::Built, &ledger, uint64_t(0), uint32_t(0));
        Time never = Time::Max(); // the fragment's connection: no older than the event
        Simulator::Schedule(at,
                            &EventLedger::FragmentFailed,
                            &ledger,
                            uint64_t(1),
                            uint32_t(0),
                            never);
        Simulator::Schedule(at, &EventLedger::Lost, &ledger, uint64_t(1), EVENT_LOST_BOARD_BUFFER);
        Simulator::Schedule(at, &EventLedger::Lost, &ledger, uint64_t(2), EVENT_LOST_BOARD_BUFFER);
        Simulator::Schedule(at,
                            &EventLedger::Lost,
                            &ledger,
                            uint64_t(3),
                            EVENT_LOST_PARTIAL_TIMEOUT);
        Simulator::Schedule(at, &EventLedger::Built, &ledger, uint64_t(3), uint32_t(1));
        Simulator::Schedule(at,
                            &EventLedger::FragmentFailed,
                            &ledger,
                            uint64_t(4),
                            uint32_t(0),
                            never);
        // 6: triggered after the outage, but failed on a connection made before it
        Simulator::Schedule(MicroSeconds(4500), &EventLedger::Generated, &ledger, uint64_t(6));
        Simulator::Schedule(at,
                            &EventLedger::FragmentFailed,
                            &ledger,
                            uint64_t(6),
                            uint32_t(0),
                            MilliSeconds(0));
        Simulator::Stop(MilliSeconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ledger.GetGenerated(), 7, "generated");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetBuilt(), 2, "0 and 3 (built after its timeout)");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetLost(EVENT_LOST_RECEIVER_DEAD),
                              2,
                              "1: triggered at 1 ms, its receiver down at 2 ms; and 6");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetFragmentsFailed(EVENT_LOST_RECEIVER_DEAD), 2, "1 and 6");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetLost(EVENT_LOST_BOARD_BUFFER), 1, "2 (1's came later)");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetLost(EVENT_LOST_RETRIES_EXHAUSTED),
                              1,
                              "4: triggered after the receiver was back");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetInFlight(), 1, "5");
        NS_TEST_ASSERT_MSG_EQ(ledger.GetBuiltAt(1), 1, "3 at receiver 1");
        FeroceIdentities ids;
        ids.Add("events_generated",
                ledger.GetGenerated(),
                {{"built", ledger.GetBuilt()},
                 {"lost", ledger.GetLost()},
                 {"in_flight", ledger.GetInFlight()}});
        NS_TEST_ASSERT_MSG_EQ(ids.GetViolations(), 0, ids.Check());
        ids.Add("fragments", 10, {{"a", 3}, {"b", 4}});
        NS_TEST_ASSERT_MSG_EQ(ids.GetViolations(), 1, "10 = 3 + 4 does not hold");
        NS_TEST_ASSERT_MSG_EQ(ids.Check(),
                              "fragments = a + b: 10 = 3 + 4 (DOES NOT HOLD)",
                              "named");
        Simulator::Destroy();
    }
};

/**
 * \ingroup feroce
 * An assignment's 24 bits of event number, unwrapped near the board's count, and its receiver.
 */
class AssignmentCodeTestCase : public TestCase
{
  public:
    AssignmentCodeTestCase()
        : TestCase("assignment messages' immediate data: event and receiver")
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t e :
             {0ULL, 1ULL, 77ULL, 0xffffffULL, 0x1000000ULL, 0x1000005ULL, 0x5abcdefULL})
        {
            for (int64_t d : {-100, 0, 3, 1000})
            {
                uint64_t near = uint64_t(std::max<int64_t>(0, int64_t(e) + d));
                uint32_t imm = EncodeAssignment(e, 200);
                NS_TEST_EXPECT_MSG_EQ(DecodeAssignmentEvent(imm, near), e, "event " << e);
                uint32_t receiver = imm & 0xff;
                NS_TEST_EXPECT_MSG_EQ(receiver, 200u, "receiver");
            }
        }
    }
};

/**
 * \ingroup feroce
 * An announcement's 16 bits of event, unwrapped near the board's next event, and its 15-bit
 * count, unwrapped forward from the last (or taken as is when fresh).
 */
class AnnouncementCodeTestCase : public TestCase
{
  public:
    AnnouncementCodeTestCase()
        : TestCase("announcements' immediate data: event, count, epoch")
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t e : {0ULL, 5ULL, 0xffffULL, 0x10000ULL, 0x10003ULL, 0x5abcdULL})
        {
            for (int64_t d : {-1000, -1, 0, 4, 1000})
            {
                uint64_t near = uint64_t(std::max<int64_t>(0, int64_t(e) + d));
                for (uint32_t last : {0u, 7u, 32760u, 40000u, 100000u})
                {
                    uint32_t granted = last + 9;
                    uint32_t imm = EncodeAnnouncement(e, granted, false);
                    NS_TEST_EXPECT_MSG_EQ(DecodeAnnouncementEvent(imm, near), e, "event " << e);
                    NS_TEST_EXPECT_MSG_EQ(DecodeAnnouncementGranted(imm, last), granted, "count");
                    NS_TEST_EXPECT_MSG_EQ(IsFreshAnnouncement(imm), false, "not fresh");
                }
            }
        }
        uint32_t fresh = EncodeAnnouncement(12, 4, true);
        NS_TEST_EXPECT_MSG_EQ(IsFreshAnnouncement(fresh), true, "fresh");
        NS_TEST_EXPECT_MSG_EQ(DecodeAnnouncementGranted(fresh, 5000), 4u, "a fresh count as is");
    }
};

/**
 * \ingroup feroce
 * BoardCreditRule: two boards that see the same announcements in time name the same receiver
 * for every event; an event no receiver has credit for waits and goes when credit comes; a
 * receiver that stops announcing runs out of credit (and lapses after the expiry); a fresh
 * announcement starts its account over; a late announcement is reported, and the board that
 * got it late names other receivers than the one that got it in time.
 */
class BoardCreditRuleTestCase : public TestCase
{
  public:
    BoardCreditRuleTestCase()
        : TestCase("the per-board assignment rule: same announcements, same receivers")
    {
    }

  private:
    typedef std::vector<std::pair<uint64_t, uint32_t>> Assigned;

    /// Events [from, to): what the rule assigned, and the receivers that lapsed.
    static Assigned Run(BoardCreditRule& rule, uint64_t from, uint64_t to, uint32_t* lapsed)
    {
        Assigned out;
        std::vector<uint32_t> gone;
        for (uint64_t n = from; n < to; n++)
        {
            rule.Advance(n, out, gone);
        }
        *lapsed = gone.empty() ? 99 : gone.front();
        return out;
    }

    void DoRun() override
    {
        BoardCreditRule a;
        BoardCreditRule b;
        a.Reset(3, 10);
        b.Reset(3, 10);
        // receivers 0..2 grant 2 slots from event 2; board b hears them in another order
        for (uint32_t k = 0; k < 3; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(a.Announce(k, 2, 2, true), false, "in time");
            NS_TEST_EXPECT_MSG_EQ(b.Announce(2 - k, 2, 2, true), false, "in time");
        }
        uint32_t lapsed;
        Assigned ra = Run(a, 0, 4, &lapsed);
        Assigned rb = Run(b, 0, 4, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(ra.size(), 4u, "events 0, 1 waited for event 2's credit");
        NS_TEST_EXPECT_MSG_EQ((ra == rb), true, "same announcements, same receivers");
        NS_TEST_EXPECT_MSG_EQ(ra[0].first, 0u, "oldest first");
        NS_TEST_EXPECT_MSG_EQ(ra[0].second, 0u, "event 0 to receiver 0 (0 mod 3)");
        NS_TEST_EXPECT_MSG_EQ(ra[1].second, 1u, "event 1 to receiver 1");
        NS_TEST_EXPECT_MSG_EQ(ra[3].second, 0u, "event 3 to receiver 0");
        // 6 slots, 4 used: 2 more events, then none until a receiver announces again
        ra = Run(a, 4, 8, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(ra.size(), 2u, "credit runs out");
        NS_TEST_EXPECT_MSG_EQ(a.GetWaiting(), 2u, "events 6, 7 wait");
        // receiver 2 frees 2 slots from event 9: the waiting events go to it at event 9
        a.Announce(2, 9, 4, false);
        ra = Run(a, 8, 10, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(ra.size(), 2u, "two of the four waiting go");
        NS_TEST_EXPECT_MSG_EQ(ra[0].first, 6u, "the oldest");
        NS_TEST_EXPECT_MSG_EQ(ra[0].second, 2u, "to the receiver with credit");
        // receivers 0 and 1 fall silent: they lapse 10 events after their last announcement
        ra = Run(a, 10, 14, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(lapsed, 0u, "receiver 0 lapsed at event 13 (2 + 10 + 1)");
        NS_TEST_EXPECT_MSG_EQ(a.IsIn(0), false, "out");
        NS_TEST_EXPECT_MSG_EQ(a.IsIn(2), true, "receiver 2 heard at event 9: in");
        // a fresh announcement (a return): its account starts over
        a.Announce(0, 14, 3, true);
        ra = Run(a, 13, 15, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(a.IsIn(0), true, "back");
        NS_TEST_EXPECT_MSG_EQ(a.GetCredit(0) + int64_t(ra.size()), 3, "its 3 slots");

        // a late announcement: c hears receiver 1's grant after event 5, d in time
        BoardCreditRule c;
        BoardCreditRule d;
        c.Reset(2, 0);
        d.Reset(2, 0);
        for (BoardCreditRule* r : {&c, &d})
        {
            r->Announce(0, 0, 1, true);
            r->Announce(1, 0, 1, true);
        }
        Assigned rc = Run(c, 0, 5, &lapsed);
        Assigned rd = Run(d, 0, 5, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(rc.size(), 2u, "c: events 0, 1; 2..4 wait");
        NS_TEST_EXPECT_MSG_EQ((rc == rd), true, "in time: the same");
        // receiver 1 frees 2 slots from event 5: d hears it in time, c after event 5
        NS_TEST_EXPECT_MSG_EQ(d.Announce(1, 5, 3, false), false, "d: in time");
        rd = Run(d, 5, 6, &lapsed);
        rc = Run(c, 5, 6, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(c.Announce(1, 5, 3, false), true, "c: late");
        NS_TEST_EXPECT_MSG_EQ(rd.size(), 2u, "d: events 2, 3 to receiver 1 at event 5");
        NS_TEST_EXPECT_MSG_EQ(rc.size(), 0u, "c: nothing yet");
        // receiver 0 frees a slot from event 6, both in time: event 2 is receiver 0's at c
        for (BoardCreditRule* r : {&c, &d})
        {
            NS_TEST_EXPECT_MSG_EQ(r->Announce(0, 6, 2, false), false, "in time");
        }
        rc = Run(c, 6, 7, &lapsed);
        NS_TEST_EXPECT_MSG_EQ(rd[0].first, 2u, "d: event 2 ...");
        NS_TEST_EXPECT_MSG_EQ(rd[0].second, 1u, "... to receiver 1");
        NS_TEST_EXPECT_MSG_EQ(rc[0].first, 2u, "c: event 2 ...");
        NS_TEST_EXPECT_MSG_EQ(rc[0].second, 0u, "... to receiver 0: they disagree");
    }
};

/// \ingroup feroce
class EventBuildingTestSuite : public TestSuite
{
  public:
    EventBuildingTestSuite()
        : TestSuite("feroce-event-building")
    {
        AddTestCase(new LinkDownQpErrorTestCase(MilliSeconds(1), 7));
        AddTestCase(new LinkDownQpErrorTestCase(MicroSeconds(100), 2));
        AddTestCase(new LinkFlapTestCase(MicroSeconds(500), true));
        AddTestCase(new LinkFlapTestCase(MilliSeconds(2), false));
        AddTestCase(new HostFailureTestCase);
        AddTestCase(new EventLedgerTestCase);
        AddTestCase(new AssignmentCodeTestCase);
        AddTestCase(new AnnouncementCodeTestCase);
        AddTestCase(new BoardCreditRuleTestCase);
    }
};

static EventBuildingTestSuite g_eventBuildingTestSuite;
