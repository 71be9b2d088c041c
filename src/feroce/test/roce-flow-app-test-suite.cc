/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoceFlowApp on fabrics built from topologies: a flow alone takes its standalone FCT on a k=4
// fat-tree (the same edge, pod and across pods); queue pairs are released as flows end, so the
// queue pairs alive follow the flows in progress; released numbers wait QpnReuseDelay; SENDs,
// WRITEs with immediate and priorities complete; a flow whose retries run out ends as failed.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/feroce-fabric-helper.h"
#include "ns3/feroce-topo-gen.h"
#include "ns3/feroce-traffic.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-flow-app.h"
#include "ns3/roce-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <memory>

using namespace ns3;

namespace
{

/// A topology made by a generator, freed at the end of the test.
struct Topo
{
    feroce_topo t;

    explicit Topo(const char* what)
    {
        feroce_topo_init(&t, what);
    }

    ~Topo()
    {
        feroce_topo_free(&t);
    }
};

/// A source of flows from a list.
RoceFlowApp::Source
ListSource(std::shared_ptr<std::vector<feroce_flow>> flows)
{
    auto next = std::make_shared<size_t>(0);
    return [flows, next](feroce_flow& f) {
        if (*next == flows->size())
        {
            return false;
        }
        f = (*flows)[(*next)++];
        return true;
    };
}

void
Collect(std::vector<RoceFlowApp::Record>* done, const RoceFlowApp::Record& r)
{
    done->push_back(r);
}

feroce_flow
Flow(uint32_t src, uint32_t dst, uint64_t size, int64_t startNs)
{
    feroce_flow f{};
    f.src = src;
    f.dst = dst;
    f.size = size;
    f.start_ns = startNs;
    f.prio = 3;
    f.op = FEROCE_FLOW_WRITE;
    f.dport = FEROCE_FLOW_DPORT_BACKGROUND;
    return f;
}

/// One flow at a time on a k=4 fat-tree at 25 Gb/s: each takes its standalone FCT.
class FlowAloneTestCase : public TestCase
{
  public:
    FlowAloneTestCase()
        : TestCase("a flow alone on a k=4 fat-tree takes its standalone FCT")
    {
    }

  private:
    void DoRun() override
    {
        Topo topo("fat-tree k=4");
        char err[256];
        feroce_fattree p{4, 3, 1, 25000000000ULL, 25000000000ULL, 1000};
        NS_TEST_ASSERT_MSG_EQ(feroce_topo_fattree(&topo.t, &p, err, sizeof err), 0, err);
        RoceHelper helper;
        helper.SetDeviceAttribute("DcqcnPreset", StringValue("hpcc"));
        FeroceFabric fabric;
        NS_TEST_ASSERT_MSG_EQ(FeroceFabricHelper::Build(helper, topo.t, &fabric), "", "built");
        NS_TEST_ASSERT_MSG_EQ(fabric.Validate(), "", "valid");
        // hosts 0 -> 1 (same edge, 2 hops), 0 -> 2 (same pod, 4), 0 -> 15 (other pod, 6)
        auto flows = std::make_shared<std::vector<feroce_flow>>();
        int64_t t = 0;
        for (uint32_t dst : {1u, 2u, 15u})
        {
            for (uint64_t size : {1ULL, 1000ULL, 1024ULL, 1025ULL, 4096ULL, 100000ULL, 1000000ULL})
            {
                flows->push_back(Flow(0, dst, size, t));
                t += 1000000; // 1 ms apart: each alone
            }
        }
        Ptr<RoceFlowApp> app = CreateObject<RoceFlowApp>();
        app->SetNics(fabric.nics);
        app->SetSource(ListSource(flows));
        std::vector<RoceFlowApp::Record> done;
        app->SetDoneCallback(MakeBoundCallback(&Collect, &done));
        app->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), flows->size(), "every flow completed");
        for (const auto& r : done)
        {
            std::vector<feroce_hop> fwd;
            std::vector<feroce_hop> rev;
            fabric.Path(r.flow.src, r.flow.dst, r.sport, &fwd, &rev);
            double alone =
                feroce_fct_standalone_ns(&r.frames, fwd.data(), fwd.size(), rev.data(), rev.size());
            // each device rounds a frame's time to whole ns, carrying the rest: within a ns a hop
            NS_TEST_EXPECT_MSG_EQ_TOL(double(r.fct.GetNanoSeconds()),
                                      alone,
                                      double(fwd.size() + rev.size()),
                                      "flow of " << r.flow.size << " B to " << r.flow.dst);
            NS_TEST_EXPECT_MSG_EQ(r.status, ROCE_WC_SUCCESS, "completed");
        }
        // by hand, 1 B to the host on the same edge: its one frame through two 25 Gb/s hops
        // (store and forward), 2 x 1 us of links, and the ACK back the same way; each of the
        // four transmissions rounded down to whole ns
        const RoceFlowApp::Record& one = done[0];
        NS_TEST_EXPECT_MSG_EQ(one.frames.packets, 1, "one packet");
        double hand = 2 * one.frames.first * 8 / 25.0 + 2000 + 2 * one.frames.ack * 8 / 25.0 + 2000;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(one.fct.GetNanoSeconds()), hand, 4, "1 B by hand");
        Simulator::Destroy();
    }
};

/// 2000 Poisson flows on a star: the queue pairs alive follow the flows in progress.
class FlowMemoryTestCase : public TestCase
{
  public:
    FlowMemoryTestCase()
        : TestCase("queue pairs are released as flows end")
    {
    }

  private:
    void DoRun() override
    {
        Topo topo("bench");
        char err[256];
        feroce_bench b{7, 10000000000ULL, 1000};
        NS_TEST_ASSERT_MSG_EQ(feroce_topo_bench(&topo.t, &b, err, sizeof err), 0, err);
        RoceHelper helper;
        FeroceFabric fabric;
        NS_TEST_ASSERT_MSG_EQ(FeroceFabricHelper::Build(helper, topo.t, &fabric), "", "built");
        uint64_t before = RoceQueuePair::GetLiveCount();
        // sizes 1000..3000 B at 30% of each host's link: a flow every 1.6 us per host
        feroce_cdf cdf{};
        double sizes[] = {1000, 3000};
        double probs[] = {0, 1};
        cdf.size = sizes;
        cdf.p = probs;
        cdf.n = 2;
        std::vector<uint32_t> hosts = fabric.Hosts();
        feroce_traffic* g =
            feroce_traffic_new(&topo.t, hosts.data(), hosts.size(), hosts.data(), hosts.size());
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(1);
        feroce_rng rng{
            [](void* ctx) { return static_cast<UniformRandomVariable*>(ctx)->GetValue(); },
            PeekPointer(u)};
        feroce_poisson pois{&cdf, 0.3, FEROCE_PAIRS_RANDOM, 0, 100000000, 3};
        NS_TEST_ASSERT_MSG_EQ(feroce_traffic_add_poisson(g, &pois, rng, err, sizeof err), 0, err);
        feroce_traffic_set_limit(g, 2000);
        Ptr<RoceFlowApp> app = CreateObject<RoceFlowApp>();
        app->SetNics(fabric.nics);
        app->SetSource([g](feroce_flow& f) { return feroce_traffic_next(g, &f) == 1; });
        app->Start();
        // the queue pairs alive, every microsecond
        uint64_t peakLive = 0;
        std::function<void()> sample = [&]() {
            peakLive = std::max(peakLive, RoceQueuePair::GetLiveCount() - before);
            if (app->GetCounters().completed + app->GetCounters().failed < 2000)
            {
                Simulator::Schedule(MicroSeconds(1), &FeroceCall, sample);
            }
        };
        Simulator::Schedule(Time(0), &FeroceCall, sample);
        Simulator::Run();
        const RoceFlowApp::Counters& c = app->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.started, 2000, "2000 flows");
        NS_TEST_EXPECT_MSG_EQ(c.completed, 2000, "all completed");
        NS_TEST_EXPECT_MSG_EQ(c.active, 0, "none left");
        NS_TEST_EXPECT_MSG_GT(c.peakActive, 1, "flows overlapped");
        NS_TEST_EXPECT_MSG_LT(c.peakActive, 100, "a few at a time");
        // two queue pairs a flow in progress, those of the flows ending at this instant, and the
        // prototype each NIC keeps (RoceNic::CreateQueuePair)
        uint64_t prototypes = hosts.size();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peakLive,
                                    2 * c.peakActive + 2 + prototypes,
                                    "alive ~ in progress");
        for (uint32_t h : hosts)
        {
            NS_TEST_EXPECT_MSG_EQ(fabric.nics[h]->GetNQueuePairs(), 0, "released");
        }
        NS_TEST_EXPECT_MSG_EQ(RoceQueuePair::GetLiveCount(), before + prototypes, "destroyed");
        feroce_traffic_free(g);
        Simulator::Destroy();
    }
};

/// A released number waits QpnReuseDelay before a new queue pair takes it.
class QpnReuseTestCase : public TestCase
{
  public:
    QpnReuseTestCase()
        : TestCase("a released queue pair number is reused after QpnReuseDelay")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("QpnReuseDelay", TimeValue(MicroSeconds(100)));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        Ptr<RoceNic> nic = DynamicCast<RoceNic>(devs.Get(0));
        Ptr<RoceQueuePair> a = nic->CreateQueuePair();
        Ptr<RoceQueuePair> b = nic->CreateQueuePair();
        uint32_t qpnA = a->GetQpn();
        nic->ReleaseQueuePair(a);
        NS_TEST_EXPECT_MSG_EQ(nic->GetNQueuePairs(), 1, "one alive");
        NS_TEST_EXPECT_MSG_EQ(nic->GetQueuePair(qpnA), nullptr, "released");
        NS_TEST_EXPECT_MSG_EQ(nic->GetQueuePairByIndex(0), b, "the one alive");
        Ptr<RoceQueuePair> c = nic->CreateQueuePair();
        NS_TEST_EXPECT_MSG_NE(c->GetQpn(), qpnA, "not yet");
        uint32_t later = 0;
        Simulator::Schedule(MicroSeconds(100), &FeroceCall, [&]() {
            later = nic->CreateQueuePair()->GetQpn();
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(later, qpnA, "reused after the delay");
        Simulator::Destroy();
    }
};

/// SEND, WRITE with immediate and another priority complete; a flow into a dead link fails.
class FlowOpsTestCase : public TestCase
{
  public:
    FlowOpsTestCase()
        : TestCase("SEND, WRITE with immediate and priorities complete; exhausted retries fail")
    {
    }

  private:
    void DoRun() override
    {
        Topo topo("bench");
        char err[256];
        feroce_bench b{2, 10000000000ULL, 1000};
        NS_TEST_ASSERT_MSG_EQ(feroce_topo_bench(&topo.t, &b, err, sizeof err), 0, err);
        RoceHelper helper;
        helper.SetQueuePairAttribute("AckTimeout", TimeValue(MicroSeconds(100)));
        FeroceFabric fabric;
        NS_TEST_ASSERT_MSG_EQ(FeroceFabricHelper::Build(helper, topo.t, &fabric), "", "built");
        auto flows = std::make_shared<std::vector<feroce_flow>>();
        flows->push_back(Flow(0, 2, 5000, 0));
        flows->back().op = FEROCE_FLOW_SEND;
        flows->push_back(Flow(1, 2, 3000, 0));
        flows->back().op = FEROCE_FLOW_WRITE_IMM;
        flows->push_back(Flow(2, 0, 7000, 1000));
        flows->back().prio = 5;
        flows->push_back(Flow(0, 1, 7000, 100000)); // node 1 stops receiving at 50 us
        Ptr<RateErrorModel> dead = CreateObject<RateErrorModel>();
        dead->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
        dead->SetAttribute("ErrorRate", DoubleValue(1.0));
        Simulator::Schedule(MicroSeconds(50), &FeroceCall, [&]() {
            fabric.nics[1]->SetAttribute("ReceiveErrorModel", PointerValue(dead));
        });
        Ptr<RoceFlowApp> app = CreateObject<RoceFlowApp>();
        app->SetNics(fabric.nics);
        app->SetSource(ListSource(flows));
        std::vector<RoceFlowApp::Record> done;
        app->SetDoneCallback(MakeBoundCallback(&Collect, &done));
        app->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 4, "four ended");
        NS_TEST_EXPECT_MSG_EQ(app->GetCounters().completed, 3, "three completed");
        NS_TEST_EXPECT_MSG_EQ(app->GetCounters().failed, 1, "one failed");
        NS_TEST_EXPECT_MSG_EQ(done[3].status, ROCE_WC_RETRY_EXCEEDED, "retries exhausted");
        NS_TEST_EXPECT_MSG_EQ(done[3].flow.dst, 1, "the dead one");
        for (uint32_t h : fabric.Hosts())
        {
            NS_TEST_EXPECT_MSG_EQ(fabric.nics[h]->GetNQueuePairs(), 0, "released");
        }
        Simulator::Destroy();
    }
};

class RoceFlowAppTestSuite : public TestSuite
{
  public:
    RoceFlowAppTestSuite()
        : TestSuite("feroce-flow-app")
    {
        AddTestCase(new FlowAloneTestCase);
        AddTestCase(new FlowMemoryTestCase);
        AddTestCase(new QpnReuseTestCase);
        AddTestCase(new FlowOpsTestCase);
    }
};

RoceFlowAppTestSuite g_roceFlowAppTestSuite;

} // namespace
