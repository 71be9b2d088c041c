/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The switch's settings by link rate and its ECMP seed: ECN thresholds per egress port from
// EcnByRate (EcnPerQueue's priorities keep theirs, unlisted rates take Kmin/Kmax/Pmax), the
// headroom of each port from its own link (HeadroomPerPort) or from HeadroomByRate, bad maps
// refused by name; EcmpSeed 0 hashes as before, two seeds choose independently, and a flow keeps
// its port.

#include "ns3/boolean.h"
#include "ns3/feroce-channel.h"
#include "ns3/feroce-switch.h"
#include "ns3/roce-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

/// A switch with a host on each of these links (rate, delay).
Ptr<FeroceSwitch>
Star(RoceHelper& helper, const std::vector<std::pair<std::string, Time>>& links)
{
    Ptr<Node> swNode = CreateObject<Node>();
    Ptr<FeroceSwitch> sw = helper.InstallSwitch(swNode);
    for (const auto& l : links)
    {
        helper.SetDeviceAttribute("DataRate", DataRateValue(DataRate(l.first)));
        helper.SetChannelAttribute("Delay", TimeValue(l.second));
        helper.AttachHost(sw, CreateObject<Node>());
    }
    return sw;
}

class EcnByRateTestCase : public TestCase
{
  public:
    EcnByRateTestCase()
        : TestCase("EcnByRate: each port's ECN thresholds by its link rate")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        Ptr<FeroceSwitch> sw = Star(helper,
                                    {{"25Gbps", MicroSeconds(1)},
                                     {"100Gbps", MicroSeconds(1)},
                                     {"40Gbps", MicroSeconds(1)}});
        sw->SetAttribute("Kmin", UintegerValue(5000));
        sw->SetAttribute("Kmax", UintegerValue(200000));
        sw->SetAttribute("EcnByRate",
                         StringValue("25Gbps:100000:400000:0.2,100Gbps:400000:1600000:0.2"));
        sw->SetAttribute("EcnPerQueue", StringValue("5:1000:2000:1"));
        sw->SetAttribute("BufferSize", UintegerValue(32000000));
        NS_TEST_ASSERT_MSG_EQ(sw->Validate(), "", "valid");
        sw->Initialize();
        const feroce_cp_params* p25 = sw->GetPort(0)->GetConfig().cp;
        const feroce_cp_params* p100 = sw->GetPort(1)->GetConfig().cp;
        const feroce_cp_params* p40 = sw->GetPort(2)->GetConfig().cp;
        NS_TEST_EXPECT_MSG_EQ(p25[3].kmin_bytes, 100000, "25 G: its Kmin");
        NS_TEST_EXPECT_MSG_EQ(p25[3].kmax_bytes, 400000, "25 G: its Kmax");
        NS_TEST_EXPECT_MSG_EQ(p100[3].kmin_bytes, 400000, "100 G: its Kmin");
        NS_TEST_EXPECT_MSG_EQ(p100[0].kmax_bytes, 1600000, "100 G, every data priority");
        NS_TEST_EXPECT_MSG_EQ(p100[3].pmax, 0.2, "100 G: its Pmax");
        NS_TEST_EXPECT_MSG_EQ(p40[3].kmin_bytes, 5000, "40 G, not listed: Kmin");
        NS_TEST_EXPECT_MSG_EQ(p100[5].kmin_bytes, 1000, "EcnPerQueue keeps priority 5's");
        NS_TEST_EXPECT_MSG_EQ(p25[5].kmax_bytes, 2000, "EcnPerQueue keeps priority 5's");

        // bad maps: named, with what is allowed
        struct Bad
        {
            std::string value;
            std::string words;
        };

        for (const Bad& b : {Bad{"25G:1:2:0.1", "25G:1:2:0.1 has an unknown unit"},
                             Bad{"25Gbps:1:2", "25Gbps:1:2 has not the fields of an entry"},
                             Bad{"25Gbps:1:2:0.1,25Gbps:3:4:0.1", "25Gbps:3:4:0.1 is listed twice"},
                             Bad{"25Gbps:400:100:0.1", "EcnByRate = 25Gbps:400:100:0.1, rate"},
                             Bad{"25Gbps:x:100:0.1", "expected rate:kmin:kmax:pmax"}})
        {
            sw->SetAttribute("EcnByRate", StringValue(b.value));
            NS_TEST_EXPECT_MSG_NE(sw->Validate().find(b.words), std::string::npos, b.value);
        }
        Simulator::Destroy();
    }
};

class HeadroomByPortTestCase : public TestCase
{
  public:
    HeadroomByPortTestCase()
        : TestCase("HeadroomPerPort and HeadroomByRate: each port's headroom for its own link")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        Ptr<FeroceSwitch> sw = Star(helper,
                                    {{"10Gbps", MicroSeconds(1)},
                                     {"100Gbps", MicroSeconds(1)},
                                     {"100Gbps", MicroSeconds(10)}});
        sw->SetAttribute("BufferSize", UintegerValue(32000000));
        NS_TEST_ASSERT_MSG_EQ(sw->Validate(), "", "valid");
        uint64_t longest = sw->GetRequiredHeadroom(2);
        NS_TEST_EXPECT_MSG_GT(longest, sw->GetRequiredHeadroom(1), "10 us needs more than 1 us");
        NS_TEST_EXPECT_MSG_GT(sw->GetRequiredHeadroom(1),
                              sw->GetRequiredHeadroom(0),
                              "100 G > 10 G");
        for (uint32_t p = 0; p < 3; p++)
        {
            NS_TEST_EXPECT_MSG_EQ(sw->GetHeadroom(p), longest, "by default: the longest link's");
        }
        sw->SetAttribute("HeadroomPerPort", BooleanValue(true));
        NS_TEST_ASSERT_MSG_EQ(sw->Validate(), "", "valid");
        for (uint32_t p = 0; p < 3; p++)
        {
            NS_TEST_EXPECT_MSG_EQ(sw->GetHeadroom(p), sw->GetRequiredHeadroom(p), "its own link's");
        }
        sw->SetAttribute("HeadroomByRate", StringValue("10Gbps:50000"));
        NS_TEST_ASSERT_MSG_EQ(sw->Validate(), "", "valid");
        NS_TEST_EXPECT_MSG_EQ(sw->GetHeadroom(0), 50000, "the rate's");
        NS_TEST_EXPECT_MSG_EQ(sw->GetHeadroom(1), sw->GetRequiredHeadroom(1), "others: their own");
        sw->SetAttribute("HeadroomByRate", StringValue("100Gbps:1000"));
        NS_TEST_EXPECT_MSG_NE(sw->Validate().find("port 1 (100000000000 bps) needs >= "),
                              std::string::npos,
                              "too little for the port's link, named");
        sw->SetAttribute("HeadroomByRate", StringValue("100Gbps:lots"));
        NS_TEST_EXPECT_MSG_NE(sw->Validate().find("lots is not a number of bytes"),
                              std::string::npos,
                              "not a number");
        Simulator::Destroy();
    }
};

class EcmpSeedTestCase : public TestCase
{
  public:
    EcmpSeedTestCase()
        : TestCase("EcmpSeed: 0 hashes as before, two seeds choose independently")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        Ptr<FeroceSwitch> sw = Star(helper,
                                    {{"10Gbps", MicroSeconds(1)},
                                     {"10Gbps", MicroSeconds(1)},
                                     {"10Gbps", MicroSeconds(1)}});
        Mac48Address dst("00:00:00:00:00:99");
        sw->AddRoute(dst, 0);
        sw->AddRoute(dst, 1);
        auto choices = [&](uint64_t seed) {
            sw->SetAttribute("EcmpSeed", UintegerValue(seed));
            std::vector<int64_t> c;
            for (uint32_t f = 0; f < 2000; f++)
            {
                c.push_back(sw->GetEgressPort(dst,
                                              Ipv4Address(0x0a000001 + f % 16),
                                              Ipv4Address(0x0a000100 + f / 16),
                                              uint16_t(0xc000 + f)));
            }
            return c;
        };
        std::vector<int64_t> none = choices(0);
        // seed 0: the hash before EcmpSeed existed
        bool asBefore = true;
        for (uint32_t f = 0; f < 2000; f++)
        {
            uint64_t key = (uint64_t(0x0a000001 + f % 16) << 32 | (0x0a000100 + f / 16)) ^
                           (uint64_t(0xc000 + f) * 0x9e3779b97f4a7c15ULL);
            key ^= key >> 29;
            asBefore &= none[f] == int64_t(key % 2);
        }
        NS_TEST_EXPECT_MSG_EQ(asBefore, true, "seed 0 keeps the old hash");
        std::vector<int64_t> a = choices(11);
        std::vector<int64_t> b = choices(12);
        NS_TEST_EXPECT_MSG_EQ((a == choices(11)), true, "a flow keeps its port");
        uint32_t same = 0;
        uint32_t ones = 0;
        for (uint32_t f = 0; f < 2000; f++)
        {
            same += a[f] == b[f];
            ones += a[f] == 1;
        }
        // independent choices agree half the time: 1000 +- 4 sigma (sigma 22)
        NS_TEST_EXPECT_MSG_EQ_TOL(double(same), 1000.0, 90.0, "two seeds choose independently");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(ones), 1000.0, 90.0, "both ports used");
        NS_TEST_EXPECT_MSG_EQ(
            sw->GetEgressPort(Mac48Address("00:00:00:00:00:98"), Ipv4Address(1), Ipv4Address(2), 1),
            -1,
            "no route");
        Simulator::Destroy();
    }
};

// A route's ports are kept in its slot (one, two or four ports below 256) or in the list (any
// other): either way a flow takes the port the hash picks among them, in the order added.
class RouteTableTestCase : public TestCase
{
  public:
    RouteTableTestCase()
        : TestCase("Routes of 1 to 5 ports, below and above 255: the hash's port")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        Ptr<FeroceSwitch> sw = Star(helper, {{"10Gbps", MicroSeconds(1)}});
        sw->SetAttribute("EcmpSeed", UintegerValue(0));
        const std::vector<std::vector<uint32_t>> routes =
            {{7}, {3, 200}, {1, 2, 4}, {9, 8, 255, 6}, {300}, {5, 256}, {1, 2, 3, 4, 5}};
        for (std::size_t r = 0; r < routes.size(); r++)
        {
            for (uint32_t port : routes[r])
            {
                sw->AddRoute(Mac48Address::Allocate(), 0); // other destinations around it
                sw->AddRoute(Mac48Address(("00:00:00:00:01:" + std::to_string(10 + r)).c_str()),
                             port);
            }
        }
        for (std::size_t r = 0; r < routes.size(); r++)
        {
            Mac48Address dst(("00:00:00:00:01:" + std::to_string(10 + r)).c_str());
            const std::vector<uint32_t>& ports = routes[r];
            for (uint32_t f = 0; f < 64; f++)
            {
                uint32_t src = 0x0a000001 + f;
                uint32_t dstIp = 0x0a000100 + f / 4;
                uint16_t sport = uint16_t(0xc000 + 7 * f);
                // the hash of seed 0 (EcmpSeedTestCase)
                uint64_t key =
                    (uint64_t(src) << 32 | dstIp) ^ (uint64_t(sport) * 0x9e3779b97f4a7c15ULL);
                key ^= key >> 29;
                NS_TEST_EXPECT_MSG_EQ(
                    sw->GetEgressPort(dst, Ipv4Address(src), Ipv4Address(dstIp), sport),
                    int64_t(ports[key % ports.size()]),
                    "route " << r << ", flow " << f);
            }
        }
        Simulator::Destroy();
    }
};

class FeroceSwitchRatesTestSuite : public TestSuite
{
  public:
    FeroceSwitchRatesTestSuite()
        : TestSuite("feroce-switch-rates")
    {
        AddTestCase(new EcnByRateTestCase);
        AddTestCase(new HeadroomByPortTestCase);
        AddTestCase(new RouteTableTestCase);
        AddTestCase(new EcmpSeedTestCase);
    }
};

FeroceSwitchRatesTestSuite g_feroceSwitchRatesTestSuite;

} // namespace
