/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoceHelper's reaction point from a preset and overrides at the NICs' rate, its
// AssignStreams, and the model's validation with attribute names.

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn-reaction-point.h"
#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/roce-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

DataRate
GetRateAi(Ptr<DcqcnReactionPoint> rp)
{
    DataRateValue v;
    rp->GetAttribute("RateAi", v);
    return v.Get();
}

/// The preset is scaled to the NICs' DataRate, not to 10 Gb/s; overrides go on top.
class RoceHelperPresetTestCase : public TestCase
{
  public:
    RoceHelperPresetTestCase()
        : TestCase("SetReactionPoint: the preset at the NICs' rate, then the overrides")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(DataRate("25Gbps")));
        NS_TEST_EXPECT_MSG_EQ(helper.GetDeviceDataRate(), DataRate("25Gbps"), "the NICs' rate");
        std::string error = helper.SetReactionPoint("hpcc", {{"G", Create<DoubleValue>(0.125)}});
        NS_TEST_ASSERT_MSG_EQ(error, "", "hpcc with G");
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.InstallLink(nodes.Get(0), nodes.Get(1));
        PointerValue p;
        devs.Get(0)->GetAttribute("ReactionPoint", p);
        Ptr<DcqcnReactionPoint> rp = p.Get<DcqcnReactionPoint>();
        Ptr<DcqcnReactionPoint> at25 = CreateObject<DcqcnReactionPoint>();
        at25->ApplyPreset("hpcc", DataRate("25Gbps"));
        Ptr<DcqcnReactionPoint> at10 = CreateObject<DcqcnReactionPoint>();
        at10->ApplyPreset("hpcc", DataRate("10Gbps"));
        NS_TEST_EXPECT_MSG_EQ(GetRateAi(rp), GetRateAi(at25), "R_AI of hpcc at 25 Gb/s");
        NS_TEST_EXPECT_MSG_NE(GetRateAi(at25), GetRateAi(at10), "hpcc's R_AI scales");
        DoubleValue g;
        rp->GetAttribute("G", g);
        NS_TEST_EXPECT_MSG_EQ(g.Get(), 0.125, "the override");
        NS_TEST_EXPECT_MSG_NE(helper.SetReactionPoint("fast").find("preset = fast"),
                              std::string::npos,
                              "an unknown preset is named");
        Simulator::Destroy();
    }
};

/// A default the user changed (--ns3::DcqcnReactionPoint::G) wins over the preset.
class RoceChangedDefaultTestCase : public TestCase
{
  public:
    RoceChangedDefaultTestCase()
        : TestCase("ApplyPreset keeps the defaults the user changed")
    {
    }

  private:
    void DoRun() override
    {
        TypeId::AttributeInformation info;
        DcqcnReactionPoint::GetTypeId().LookupAttributeByName("G", &info);
        Ptr<const AttributeValue> original = info.initialValue;
        Config::SetDefault("ns3::DcqcnReactionPoint::G", DoubleValue(0.5));
        Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
        rp->ApplyPreset("paper", DataRate("10Gbps"));
        DoubleValue g;
        rp->GetAttribute("G", g);
        Config::SetDefault("ns3::DcqcnReactionPoint::G", *original);
        NS_TEST_EXPECT_MSG_EQ(g.Get(), 0.5, "the command line's G");
        rp = CreateObject<DcqcnReactionPoint>();
        rp->ApplyPreset("paper", DataRate("10Gbps"));
        rp->GetAttribute("G", g);
        NS_TEST_EXPECT_MSG_EQ(g.Get(), 1.0 / 256, "the preset's G once the default is back");
    }
};

/// AssignStreams: switches then queue pairs, the count returned.
class RoceHelperStreamsTestCase : public TestCase
{
  public:
    RoceHelperStreamsTestCase()
        : TestCase("AssignStreams covers the switches and every queue pair")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        NodeContainer hosts;
        hosts.Create(3);
        Ptr<Node> sw = CreateObject<Node>();
        NetDeviceContainer nics = helper.InstallStar(sw, hosts);
        for (uint32_t i = 0; i < 2; i++)
        {
            helper.ConnectQueuePairs(DynamicCast<RoceNic>(nics.Get(i)),
                                     DynamicCast<RoceNic>(nics.Get(2)));
        }
        NS_TEST_EXPECT_MSG_EQ(helper.AssignStreams(7), 5, "1 switch + 4 queue pairs");
        Simulator::Destroy();
    }
};

/// Validation in the model, by attribute name.
class RoceValidationNamesTestCase : public TestCase
{
  public:
    RoceValidationNamesTestCase()
        : TestCase("Pmtu, Kmin and MinRate are validated in the model by attribute name")
    {
    }

  private:
    void DoRun() override
    {
        RoceHelper helper;
        helper.SetQueuePairAttribute("Pmtu", UintegerValue(1500));
        helper.SetSwitchAttribute("Kmin", UintegerValue(300000));
        helper.SetSwitchAttribute("Kmax", UintegerValue(200000));
        NodeContainer hosts;
        hosts.Create(2);
        Ptr<Node> swNode = CreateObject<Node>();
        NetDeviceContainer nics = helper.InstallStar(swNode, hosts);
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<RoceNic>(nics.Get(0))->Validate(),
                              "Pmtu = 1500 is not allowed: expected 256, 512, 1024, 2048 or 4096",
                              "Pmtu");
        std::string error = swNode->GetObject<FeroceSwitch>()->Validate();
        NS_TEST_EXPECT_MSG_EQ(error.rfind("Kmin = 300000 is not allowed", 0), 0, error);
        NS_TEST_EXPECT_MSG_NE(error.find("Kmax"), std::string::npos, error);
        Simulator::Destroy();
    }
};

class RoceHelperTestSuite : public TestSuite
{
  public:
    RoceHelperTestSuite()
        : TestSuite("feroce-roce-helper")
    {
        AddTestCase(new RoceHelperPresetTestCase);
        AddTestCase(new RoceChangedDefaultTestCase);
        AddTestCase(new RoceHelperStreamsTestCase);
        AddTestCase(new RoceValidationNamesTestCase);
    }
};

RoceHelperTestSuite g_roceHelperTestSuite;

} // namespace
