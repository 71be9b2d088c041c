/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The event scheduler and the simulator implementation change how fast
// feroce runs, never what it computes: the same incast (DCQCN, ECN marks,
// CNPs, PFC pauses) gives the same counters and the same frames at the same
// instants on every scheduler and implementation RoceHelper::
// SetDefaultSimulator may pick and on ns-3's defaults; FeroceSimulatorImpl
// keeps DefaultSimulatorImpl's contract call for call.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/feroce-heap-scheduler.h"
#include "ns3/feroce-sim.h"
#include "ns3/feroce-simulator-impl.h"
#include "ns3/feroce-uniform-stream.h"
#include "ns3/global-value.h"
#include "ns3/map-scheduler.h"
#include "ns3/node-container.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-helper.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ns3;

namespace
{

/// What one run produced, as text: counters, then every frame the receiver's NIC saw.
struct Outcome
{
    std::ostringstream text;
    uint64_t frames{0};
    uint64_t marks{0};
    uint64_t pauses{0};
};

void
OnFrame(Outcome* o, Ptr<const Packet> p)
{
    // the IPv4 TOS byte (ECN) and BTH onwards (opcode, QP, PSN, AETH) without the ICRC: the
    // addresses (and the ICRC over them) differ from run to run (a process allocates new ones)
    uint8_t buf[80] = {};
    uint32_t n = std::min<uint32_t>(p->CopyData(buf, sizeof buf), p->GetSize() - 4);
    o->text << Simulator::Now().GetNanoSeconds() << ' ' << p->GetSize() << ' ';
    uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (uint32_t i = 0; i < n; i++)
    {
        if (i == 15 || i >= 42)
        {
            h = (h ^ buf[i]) * 1099511628211ULL;
        }
    }
    o->text << h << '\n';
    o->frames++;
}

/// Eight senders into one receiver for 3 ms: ECN marks, CNPs and (small buffer) PFC.
void
RunIncast(const std::string& scheduler, const std::string& impl, Outcome* o)
{
    GlobalValue::Bind("SchedulerType", TypeIdValue(TypeId::LookupByName(scheduler)));
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(3);
    RoceHelper helper;
    helper.SetDeviceAttribute("DcqcnPreset", StringValue("hpcc"));
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(1024));
    helper.SetSwitchAttribute("Kmin", UintegerValue(20000));
    helper.SetSwitchAttribute("Kmax", UintegerValue(80000));
    helper.SetSwitchAttribute("Pmax", DoubleValue(0.2));
    helper.SetSwitchAttribute("BufferSize", UintegerValue(200000));
    const uint32_t senders = 8;
    NodeContainer hosts;
    hosts.Create(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    NetDeviceContainer nics = helper.InstallStar(swNode, hosts);
    Ptr<FeroceSwitch> sw = swNode->GetObject<FeroceSwitch>();
    sw->AssignStreams(10);
    Ptr<RoceNic> receiver = DynamicCast<RoceNic>(nics.Get(senders));
    receiver->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&OnFrame, o));
    Ptr<RoceReceiverApp> rx = CreateObject<RoceReceiverApp>();
    hosts.Get(senders)->AddApplication(rx);
    std::vector<Ptr<RoceQueuePair>> local;
    std::vector<Ptr<RoceQueuePair>> remote;
    for (uint32_t i = 0; i < senders; i++)
    {
        auto qp = helper.ConnectQueuePairs(DynamicCast<RoceNic>(nics.Get(i)), receiver);
        rx->AddQueuePair(qp.second);
        local.push_back(qp.first);
        remote.push_back(qp.second);
        Ptr<RoceFrontEndApp> app = CreateObject<RoceFrontEndApp>();
        app->SetAttribute("MessageSize", UintegerValue(1000 + 500 * (i % 3)));
        app->SetAttribute("MaxOutstanding", UintegerValue(64));
        app->SetQueuePair(qp.first);
        hosts.Get(i)->AddApplication(app);
    }
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    for (uint32_t i = 0; i < senders; i++)
    {
        const auto& s = local[i]->GetCounters();
        const auto& r = remote[i]->GetCounters();
        o->text << "qp " << i << " sent " << s.dataPacketsSent << " cnps " << s.cnpsReceived
                << " delivered " << r.messagesDelivered << " ce " << r.ceMarksReceived << '\n';
    }
    o->marks = sw->GetCounters().ecnMarks;
    o->pauses = sw->GetCounters().pauseFramesSent;
    o->text << "marks " << o->marks << " pauses " << o->pauses << '\n';
    Simulator::Destroy();
}

/// The scheduler and simulator implementation chosen before a test case, bound again when it
/// ends (also when an assertion ends it early).
class SimulatorChoiceKept
{
  public:
    SimulatorChoiceKept()
    {
        GlobalValue::GetValueByName("SchedulerType", m_scheduler);
        GlobalValue::GetValueByName("SimulatorImplementationType", m_impl);
    }

    ~SimulatorChoiceKept()
    {
        GlobalValue::Bind("SchedulerType", m_scheduler);
        GlobalValue::Bind("SimulatorImplementationType", m_impl);
    }

  private:
    TypeIdValue m_scheduler;
    StringValue m_impl;
};

class SchedulerIdentityTestCase : public TestCase
{
  public:
    SchedulerIdentityTestCase()
        : TestCase("Map, List, Calendar and FeroceHeap schedulers, Default and Feroce "
                   "simulator implementations: identical runs")
    {
    }

  private:
    void DoRun() override
    {
        SimulatorChoiceKept kept;
        const std::string ns3Impl = "ns3::DefaultSimulatorImpl";
        Outcome reference;
        RunIncast("ns3::MapScheduler", ns3Impl, &reference);
        // the scenario exercises what tie order could change: marks, CNPs, pauses
        NS_TEST_ASSERT_MSG_GT(reference.frames, 1000, "the receiver saw frames");
        NS_TEST_ASSERT_MSG_GT(reference.marks, 0, "the switch marked CE");
        NS_TEST_ASSERT_MSG_GT(reference.pauses, 0, "the switch sent PFC pauses");
        const std::vector<std::pair<std::string, std::string>> runs = {
            {"ns3::ListScheduler", ns3Impl},
            {"ns3::CalendarScheduler", ns3Impl},
            {"ns3::FeroceHeapScheduler", ns3Impl},
            {"ns3::MapScheduler", "ns3::FeroceSimulatorImpl"},
            {RoceHelper::kDefaultScheduler, RoceHelper::kDefaultSimulatorImpl}};
        for (const auto& run : runs)
        {
            Outcome o;
            RunIncast(run.first, run.second, &o);
            std::string name = run.first + " on " + run.second;
            NS_TEST_EXPECT_MSG_EQ(o.frames, reference.frames, name << ": frames");
            NS_TEST_EXPECT_MSG_EQ((o.text.str() == reference.text.str()),
                                  true,
                                  name << ": the same frames at the same instants and counters");
        }
    }
};

/// What a script of Simulator calls observed, as text.
struct ContractLog
{
    std::ostringstream text;
    EventId doomed;      ///< removed before it runs
    EventId cancelled;   ///< cancelled before it runs
    EventId destroyGone; ///< a destroy event removed
    EventId ran;         ///< run before the script, then cancelled (FeroceSim::Cancel)
};

void
Note(ContractLog* log, std::string what)
{
    log->text << what << " t=" << Simulator::Now().GetTimeStep()
              << " ctx=" << Simulator::GetContext() << '\n';
}

void
Probe(ContractLog* log, EventId id, std::string name)
{
    log->text << name << " expired=" << Simulator::IsExpired(id)
              << " left=" << Simulator::GetDelayLeft(id).GetTimeStep() << '\n';
}

void
Script(ContractLog* log)
{
    Note(log, "first");
    // ties at one instant: three events scheduled in this order must run in this order
    for (int i = 0; i < 3; i++)
    {
        Simulator::Schedule(NanoSeconds(5), &Note, log, "tie" + std::to_string(i));
    }
    Simulator::ScheduleWithContext(7, NanoSeconds(5), &Note, log, "tie-with-context");
    Simulator::ScheduleNow(&Note, log, "now");
    log->doomed = Simulator::Schedule(NanoSeconds(3), &Note, log, "doomed");
    log->cancelled = Simulator::Schedule(NanoSeconds(4), &Note, log, "cancelled");
    Probe(log, log->doomed, "doomed");
    Simulator::Remove(log->doomed);
    Simulator::Cancel(log->cancelled);
    Probe(log, log->doomed, "doomed-after-remove");
    Probe(log, log->cancelled, "cancelled-after-cancel");
    // FeroceSim::Cancel: as Simulator::Cancel, before an event runs and after
    EventId viaSim = Simulator::Schedule(NanoSeconds(4), &Note, log, "cancelled-via-FeroceSim");
    FeroceSim::Cancel(viaSim);
    Probe(log, viaSim, "cancelled-via-FeroceSim");
    FeroceSim::Cancel(log->ran);
    Probe(log, log->ran, "ran-then-cancelled");
    FeroceSim::Cancel(EventId());
    Simulator::ScheduleDestroy(&Note, log, "destroy-kept");
    log->destroyGone = Simulator::ScheduleDestroy(&Note, log, "destroy-removed");
    Probe(log, log->destroyGone, "destroy");
    Simulator::Remove(log->destroyGone);
    Probe(log, log->destroyGone, "destroy-after-remove");
    // an event from another thread is taken in between events, its delay counted from then
    std::thread other([log]() {
        Simulator::ScheduleWithContext(9,
                                       NanoSeconds(2),
                                       MakeEvent(&Note, log, std::string("from-thread")));
    });
    other.join();
    EventId later = Simulator::Schedule(MicroSeconds(1), &Note, log, "after-stop");
    Probe(log, later, "later");
    Simulator::Stop(NanoSeconds(20));
}

std::string
RunContract(const std::string& impl)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    ContractLog log;
    log.ran = Simulator::Schedule(NanoSeconds(5), &Note, &log, "ran");
    Simulator::Schedule(NanoSeconds(10), &Script, &log);
    Simulator::Run();
    log.text << "stopped at " << Simulator::Now().GetTimeStep() << " events "
             << Simulator::GetEventCount() << " finished " << Simulator::IsFinished() << " max "
             << Simulator::GetMaximumSimulationTime().GetTimeStep() << '\n';
    Simulator::Run(); // resumes: the event left after the stop
    log.text << "resumed to " << Simulator::Now().GetTimeStep() << " events "
             << Simulator::GetEventCount() << '\n';
    Simulator::Destroy();
    return log.text.str();
}

class SimulatorImplContractTestCase : public TestCase
{
  public:
    SimulatorImplContractTestCase()
        : TestCase("FeroceSimulatorImpl: DefaultSimulatorImpl's contract, call for call")
    {
    }

  private:
    void DoRun() override
    {
        StringValue before;
        GlobalValue::GetValueByName("SimulatorImplementationType", before);
        std::string ns3 = RunContract("ns3::DefaultSimulatorImpl");
        std::string feroce = RunContract("ns3::FeroceSimulatorImpl");
        GlobalValue::Bind("SimulatorImplementationType", before);
        // the script must have exercised what it claims
        for (const char* seen : {"tie2 t=15",
                                 "tie-with-context t=15 ctx=7",
                                 "from-thread",
                                 "after-stop",
                                 "destroy-kept"})
        {
            NS_TEST_EXPECT_MSG_NE(ns3.find(seen), std::string::npos, "ns-3's run shows " << seen);
        }
        NS_TEST_EXPECT_MSG_EQ(ns3.find("doomed t="),
                              std::string::npos,
                              "a removed event never runs");
        NS_TEST_EXPECT_MSG_EQ(ns3.find("cancelled-via-FeroceSim t="),
                              std::string::npos,
                              "an event FeroceSim::Cancel cancelled never runs");
        NS_TEST_EXPECT_MSG_NE(ns3.find("ran t=5"), std::string::npos, "the early event ran");
        NS_TEST_EXPECT_MSG_EQ(ns3.find("destroy-removed t="),
                              std::string::npos,
                              "nor a removed destroy event");
        NS_TEST_EXPECT_MSG_EQ(feroce, ns3, "the same log under both implementations");
    }
};

class SchedulerDefaultTestCase : public TestCase
{
  public:
    SchedulerDefaultTestCase()
        : TestCase("SetDefaultSimulator sets SchedulerType and SimulatorImplementationType; a "
                   "later Bind (the command line) wins")
    {
    }

  private:
    void DoRun() override
    {
        TypeIdValue before;
        GlobalValue::GetValueByName("SchedulerType", before);
        StringValue implBefore;
        GlobalValue::GetValueByName("SimulatorImplementationType", implBefore);
        RoceHelper::SetDefaultSimulator();
        TypeIdValue v;
        GlobalValue::GetValueByName("SchedulerType", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get().GetName(),
                              std::string(RoceHelper::kDefaultScheduler),
                              "feroce's default");
        StringValue impl;
        GlobalValue::GetValueByName("SimulatorImplementationType", impl);
        NS_TEST_EXPECT_MSG_EQ(impl.Get(),
                              std::string(RoceHelper::kDefaultSimulatorImpl),
                              "feroce's default implementation");
        GlobalValue::Bind("SimulatorImplementationType", implBefore);
        char prog[] = "study";
        char good[] = "--SchedulerType=ns3::ListScheduler";
        char bad[] = "--SchedulerType=ns3::Node";
        char* goodArgs[] = {prog, good};
        char* badArgs[] = {prog, bad};
        NS_TEST_EXPECT_MSG_EQ(RoceHelper::CheckSimulatorArguments(2, goodArgs), "", "a scheduler");
        NS_TEST_EXPECT_MSG_EQ(RoceHelper::CheckSimulatorArguments(2, badArgs)
                                  .rfind("SchedulerType = ns3::Node is not allowed: expected", 0),
                              0,
                              "not a scheduler: refused by name");
        char badImpl[] = "--SimulatorImplementationType=ns3::MapScheduler";
        char* badImplArgs[] = {prog, badImpl};
        NS_TEST_EXPECT_MSG_EQ(RoceHelper::CheckSimulatorArguments(2, badImplArgs)
                                  .rfind("SimulatorImplementationType = ns3::MapScheduler is not "
                                         "allowed: expected",
                                         0),
                              0,
                              "not a simulator implementation: refused by name");
        GlobalValue::Bind("SchedulerType", StringValue("ns3::MapScheduler")); // as Parse does
        GlobalValue::GetValueByName("SchedulerType", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get().GetName(), std::string("ns3::MapScheduler"), "user's");
        GlobalValue::Bind("SchedulerType", before);
    }
};

/// FeroceHeapScheduler against MapScheduler, operation by operation: inserts with many ties,
/// removals of the next event, of near events and of far ones (lazy), RemoveNext; phases that
/// fill the near events past SortedMax (the calendar) and drain them (sorted again). With a
/// spread of the whole horizon, the calendar's ring goes round many times and the horizon
/// changes while events wait (narrower, then wider).
class HeapSchedulerOrderTestCase : public TestCase
{
  public:
    /// near events due within `spread` steps of the last one taken
    HeapSchedulerOrderTestCase(std::string name, uint64_t spread)
        : TestCase("FeroceHeapScheduler: the map's order, " + name),
          m_spread(spread)
    {
    }

  private:
    uint64_t m_spread;

    void DoRun() override
    {
        Ptr<FeroceHeapScheduler> heap = CreateObject<FeroceHeapScheduler>();
        Ptr<MapScheduler> map = CreateObject<MapScheduler>();
        std::mt19937 rng(14); // the operations only: no simulation draws from it
        std::vector<Scheduler::Event> pending;
        uint32_t uid = 4;
        uint64_t now = 0;
        uint32_t removedDeep = 0;
        uint32_t removedTop = 0;
        uint32_t popped = 0;
        uint32_t farPopped = 0;
        uint32_t sortedSteps = 0;
        uint32_t heapSteps = 0;
        std::set<uint32_t> farUids; // inserted beyond NearHorizon (100 us, 100000 ns steps)
        for (int step = 0; step < 40000; step++)
        {
            // phases of 4000 steps: balanced, growing (the near events go into the calendar),
            // draining
            uint32_t inserts = (step / 4000) % 3 == 1 ? 8 : (step / 4000) % 3 == 2 ? 3 : 5;
            uint32_t op = rng() % 10;
            if (op < inserts || pending.empty())
            {
                Scheduler::Event ev;
                ev.impl = nullptr; // never dereferenced by either scheduler
                // few distinct times (ties), and one in four beyond the heap's near horizon
                bool far = rng() % 4 == 0;
                ev.key.m_ts = now + (far ? 200000 + rng() % 16 : rng() % m_spread);
                ev.key.m_uid = uid++;
                if (far)
                {
                    farUids.insert(ev.key.m_uid);
                }
                ev.key.m_context = rng() % 3;
                heap->Insert(ev);
                map->Insert(ev);
                pending.push_back(ev);
            }
            else if (op < inserts + 2)
            {
                std::size_t i = rng() % pending.size();
                Scheduler::Event ev = pending[i];
                bool top = map->PeekNext().key.m_uid == ev.key.m_uid;
                (top ? removedTop : removedDeep)++;
                heap->Remove(ev);
                map->Remove(ev);
                pending.erase(pending.begin() + i);
            }
            else
            {
                Scheduler::Event a = heap->RemoveNext();
                Scheduler::Event b = map->RemoveNext();
                NS_TEST_ASSERT_MSG_EQ(a.key.m_uid, b.key.m_uid, "step " << step << ": same next");
                NS_TEST_ASSERT_MSG_EQ(a.key.m_ts, b.key.m_ts, "step " << step << ": same time");
                NS_TEST_ASSERT_MSG_EQ(a.key.m_context,
                                      b.key.m_context,
                                      "step " << step << ": context");
                now = a.key.m_ts;
                popped++;
                farPopped += farUids.count(a.key.m_uid);
                pending.erase(
                    std::find_if(pending.begin(), pending.end(), [&a](const Scheduler::Event& e) {
                        return e.key.m_uid == a.key.m_uid;
                    }));
            }
            NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), map->IsEmpty(), "step " << step << ": empty");
            (heap->IsNearSorted() ? sortedSteps : heapSteps)++;
            if (m_spread > 16 && (step == 15000 || step == 25000))
            {
                // narrower than the events waiting, then wider: none may fall off the ring
                heap->SetAttribute("NearHorizon",
                                   TimeValue(NanoSeconds(step == 15000 ? 1000 : 10000000)));
            }
            if (!map->IsEmpty())
            {
                NS_TEST_ASSERT_MSG_EQ(heap->PeekNext().key.m_uid,
                                      map->PeekNext().key.m_uid,
                                      "step " << step << ": same peek");
            }
        }
        while (!map->IsEmpty())
        {
            uint32_t next = map->RemoveNext().key.m_uid;
            NS_TEST_ASSERT_MSG_EQ(heap->RemoveNext().key.m_uid, next, "draining: same order");
            farPopped += farUids.count(next);
        }
        NS_TEST_EXPECT_MSG_EQ(heap->IsEmpty(), true, "drained together");
        NS_TEST_EXPECT_MSG_GT(removedTop, 10, "removals of the next event were tried");
        NS_TEST_EXPECT_MSG_GT(removedDeep, 1000, "lazy removals were tried");
        NS_TEST_EXPECT_MSG_GT(popped, 5000, "events were taken");
        NS_TEST_EXPECT_MSG_GT(farPopped, 1000, "events were taken from the far heap");
        NS_TEST_EXPECT_MSG_GT(sortedSteps, 1000, "the near events were sorted");
        NS_TEST_EXPECT_MSG_GT(heapSteps, 1000, "the near events were in the calendar");
        if (m_spread > 16)
        {
            NS_TEST_EXPECT_MSG_GT(now, 20 * m_spread, "the calendar's ring went round");
        }
    }
};

/// The order test's script: a pool of FeroceEvents that, as they run, schedule (again),
/// remove and add ns-3 events, each move drawn from one generator in the order events run.
struct OrderScript
{
    struct Scripted : FeroceEvent
    {
        OrderScript* script;
        uint32_t id;
        FeroceEventId where;
        bool pending{false};
        bool removable{false}; ///< scheduled with an id (ScheduleSteps)
    };

    std::mt19937 rng{21}; // the moves only: no simulation draws from it
    std::ostringstream log;
    std::vector<Scripted> pool = std::vector<Scripted>(64);
    uint64_t horizonSteps{
        uint64_t(NanoSeconds(FeroceSimulatorImpl::kCalendarSpanNs).GetTimeStep())};
    uint32_t runs{0};
    uint32_t ns3Runs{0};
    uint32_t removed{0};
    uint32_t beyond{0};
    uint32_t ties{0};

    uint64_t Delay()
    {
        uint32_t kind = rng() % 8;
        if (kind == 0)
        {
            ties++;
            return 0; // due now, after the events due now already waiting
        }
        if (kind < 3)
        {
            ties++;
            return NanoSeconds(rng() % 4).GetTimeStep(); // few times: ties
        }
        if (kind < 7)
        {
            return rng() % horizonSteps; // within the calendar's horizon
        }
        beyond++;
        // in the heap: its near events (within NearHorizon, 100 us) and its far ones
        return horizonSteps + 1 + rng() % (20 * horizonSteps);
    }

    void Schedule(Scripted& e)
    {
        e.pending = true;
        e.removable = rng() % 4 != 0;
        if (e.removable)
        {
            FeroceSim::ScheduleSteps(Delay(), &e, e.where);
        }
        else
        {
            FeroceSim::ScheduleStepsWithContext(rng() % 5, Delay(), &e);
        }
    }

    void Note(const char* what, uint32_t id)
    {
        log << what << id << " t=" << Simulator::Now().GetTimeStep()
            << " ctx=" << Simulator::GetContext() << '\n';
    }

    static void Run(FeroceEvent* self)
    {
        Scripted& e = *static_cast<Scripted*>(self);
        OrderScript& s = *e.script;
        e.pending = false;
        s.runs++;
        s.Note("e", e.id);
        for (int move = 0; move < 3; move++)
        {
            Scripted& other = s.pool[s.rng() % s.pool.size()];
            uint32_t kind = s.rng() % 8;
            if (!other.pending && kind < 5)
            {
                s.Schedule(other);
            }
            else if (other.pending && other.removable && kind == 5)
            {
                FeroceSim::RemoveEvent(other.where, &other);
                other.pending = false;
                s.removed++;
            }
            else if (kind == 6)
            {
                uint32_t id = s.rng() % 1000;
                Simulator::Schedule(TimeStep(s.Delay()), [&s, id]() {
                    s.ns3Runs++;
                    s.Note("n", id);
                });
            }
        }
    }
};

std::string
RunOrderScript(const std::string& impl, OrderScript& s)
{
    GlobalValue::Bind("SchedulerType", TypeIdValue(FeroceHeapScheduler::GetTypeId()));
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    for (uint32_t i = 0; i < s.pool.size(); i++)
    {
        OrderScript::Scripted& e = s.pool[i];
        e.run = &OrderScript::Run;
        e.script = &s;
        e.id = i;
    }
    Simulator::Schedule(Seconds(0), [&s]() {
        for (OrderScript::Scripted& e : s.pool)
        {
            s.Schedule(e);
        }
    });
    Simulator::Stop(MilliSeconds(60));
    Simulator::Run();
    s.log << "stopped at " << Simulator::Now().GetTimeStep() << " events "
          << Simulator::GetEventCount() << '\n';
    Simulator::Destroy(); // with events still waiting in the calendar and the heap
    return s.log.str();
}

class CalendarOrderTestCase : public TestCase
{
  public:
    CalendarOrderTestCase()
        : TestCase("FeroceSimulatorImpl's calendar: FeroceEvents due within its horizon and "
                   "beyond, ties, removals and ns-3 events between, in DefaultSimulatorImpl's "
                   "order")
    {
    }

  private:
    void DoRun() override
    {
        SimulatorChoiceKept kept;
        OrderScript ns3;
        OrderScript feroce;
        std::string expected = RunOrderScript("ns3::DefaultSimulatorImpl", ns3);
        std::string got = RunOrderScript("ns3::FeroceSimulatorImpl", feroce);
        NS_TEST_EXPECT_MSG_GT(ns3.runs, 20000u, "FeroceEvents ran");
        NS_TEST_EXPECT_MSG_GT(ns3.ns3Runs, 2000u, "ns-3 events ran between them");
        NS_TEST_EXPECT_MSG_GT(ns3.removed, 2000u, "waiting FeroceEvents were removed");
        NS_TEST_EXPECT_MSG_GT(ns3.beyond, 5000u, "FeroceEvents were due beyond the horizon");
        NS_TEST_EXPECT_MSG_GT(ns3.ties, 10000u, "FeroceEvents were due at the same instants");
        NS_TEST_EXPECT_MSG_EQ(feroce.runs, ns3.runs, "as many FeroceEvents ran");
        NS_TEST_EXPECT_MSG_EQ((got == expected), true, "the same events at the same instants");
    }
};

// The switch's inline draw gives what UniformRandomVariable::GetValue() gives on the same
// stream: bounds, Antithetic, a stream changed after the first draws, its own generator's
// state for other seeds, runs and stream numbers (the jump ahead), an automatic stream, and
// Below's draws whose value is not computed.
class UniformStreamTestCase : public TestCase
{
  public:
    UniformStreamTestCase()
        : TestCase("FeroceUniformStream draws as UniformRandomVariable")
    {
    }

  private:
    void DoRun() override
    {
        struct Setting
        {
            double min;
            double max;
            bool antithetic;
        };

        for (const Setting& s : {Setting{0, 1, false}, Setting{-3, 5, false}, Setting{2, 7, true}})
        {
            Ptr<UniformRandomVariable> ref = CreateObject<UniformRandomVariable>();
            Ptr<FeroceUniformStream> fast = CreateObject<FeroceUniformStream>();
            for (Ptr<UniformRandomVariable> v : {ref, Ptr<UniformRandomVariable>(fast)})
            {
                v->SetAttribute("Min", DoubleValue(s.min));
                v->SetAttribute("Max", DoubleValue(s.max));
                v->SetAttribute("Antithetic", BooleanValue(s.antithetic));
            }
            ref->SetStream(11);
            fast->SetStream(11);
            for (int i = 0; i < 1000; i++)
            {
                NS_TEST_ASSERT_MSG_EQ(fast->Draw(), ref->GetValue(), "draw " << i);
            }
            // Below(p) is a draw below p, whether its value is computed (p in (0, 1)) or only
            // its place taken: runs of skipped places short (stepped over) and long (jumped),
            // each followed by draws
            for (uint64_t run : {1, 2, 16, 17, 100, 4095, 70000})
            {
                for (double p : {0.0, -1.0, 1.0, 2.0})
                {
                    for (uint64_t i = 0; i < run; i++)
                    {
                        bool below = ref->GetValue() < p;
                        NS_TEST_ASSERT_MSG_EQ(fast->Below(p), below, "p " << p << ", run " << run);
                    }
                    bool half = ref->GetValue() < 0.5;
                    NS_TEST_ASSERT_MSG_EQ(fast->Below(0.5),
                                          half,
                                          "after a run of " << run << " at p " << p);
                    NS_TEST_ASSERT_MSG_EQ(fast->Draw(),
                                          ref->GetValue(),
                                          "after a run of " << run << " at p " << p);
                }
                // Skip(n): n places, whatever the bounds
                fast->Skip(run);
                fast->Skip(0);
                for (uint64_t i = 0; i < run; i++)
                {
                    ref->GetValue();
                }
                NS_TEST_ASSERT_MSG_EQ(fast->Draw(), ref->GetValue(), "after Skip(" << run << ")");
            }
            // a new stream after draws and skipped places: the generator noted at the first draw
            // is dropped, and so are the places skipped on it
            fast->Below(0.0);
            ref->SetStream(12);
            fast->SetStream(12);
            for (int i = 0; i < 1000; i++)
            {
                NS_TEST_ASSERT_MSG_EQ(fast->Draw(), ref->GetValue(), "after SetStream, draw " << i);
            }
        }
        uint32_t seed = RngSeedManager::GetSeed();
        uint64_t run = RngSeedManager::GetRun();
        for (uint32_t s : {1u, 7u, 4294944442u})
        {
            for (uint64_t r : {1ull, 2ull, 123456789ull})
            {
                for (int64_t stream : {int64_t(0), int64_t(5000), int64_t(1) << 40})
                {
                    RngSeedManager::SetSeed(s);
                    RngSeedManager::SetRun(r);
                    Ptr<UniformRandomVariable> ref = CreateObject<UniformRandomVariable>();
                    Ptr<FeroceUniformStream> fast = CreateObject<FeroceUniformStream>();
                    ref->SetStream(stream);
                    fast->SetStream(stream);
                    for (int i = 0; i < 1000; i++)
                    {
                        NS_TEST_ASSERT_MSG_EQ(fast->Draw(),
                                              ref->GetValue(),
                                              "seed " << s << ", run " << r << ", stream " << stream
                                                      << ", draw " << i);
                    }
                    for (int i = 0; i < 5000; i++)
                    {
                        fast->Below(0.0);
                        ref->GetValue();
                    }
                    NS_TEST_ASSERT_MSG_EQ(fast->Draw(),
                                          ref->GetValue(),
                                          "seed " << s << ", run " << r << ", stream " << stream
                                                  << ", after 5000 places skipped");
                }
            }
        }
        RngSeedManager::SetSeed(seed);
        RngSeedManager::SetRun(run);
        // an automatic stream draws from the base class's generator: the stream index it was
        // given is the one before the next
        Ptr<FeroceUniformStream> automatic = CreateObject<FeroceUniformStream>();
        RngStream ref(seed, RngSeedManager::GetNextStreamIndex() - 1, run);
        for (int i = 0; i < 1000; i++)
        {
            NS_TEST_ASSERT_MSG_EQ(automatic->Draw(), ref.RandU01(), "automatic stream, draw " << i);
        }
        // on it too, a skipped place is a value drawn (Below at 0 and Skip)
        automatic->Below(0.0);
        automatic->Skip(2);
        ref.RandU01();
        ref.RandU01();
        ref.RandU01();
        NS_TEST_ASSERT_MSG_EQ(automatic->Draw(), ref.RandU01(), "automatic stream, after skips");
    }
};

class FeroceSchedulerTestSuite : public TestSuite
{
  public:
    FeroceSchedulerTestSuite()
        : TestSuite("feroce-scheduler")
    {
        // the heap's order on its own first: a broken heap would derail the simulations below
        AddTestCase(new HeapSchedulerOrderTestCase("with ties and removals", 16));
        AddTestCase(new HeapSchedulerOrderTestCase("with events spread over the horizon", 100000));
        AddTestCase(new SchedulerDefaultTestCase);
        AddTestCase(new CalendarOrderTestCase);
        AddTestCase(new SchedulerIdentityTestCase);
        AddTestCase(new SimulatorImplContractTestCase);
        AddTestCase(new UniformStreamTestCase);
    }
};

FeroceSchedulerTestSuite g_feroceSchedulerTestSuite;

} // namespace
