/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The front door (FeroceCommandLine, src/feroce/doc/input-grammar.md): the grammar of values, a
// flag's range, lists, the precedence of the sources of an attribute's value (the user's value
// beats a flag, a flag beats the program's setting, and every one beats a preset), the refusals
// by name; and the window formula on feroce_wire's lengths (RoceDataFrameBytes, WindowFormula).

#include "ns3/config.h"
#include "ns3/dcqcn-reaction-point.h"
#include "ns3/double.h"
#include "ns3/feroce-command-line.h"
#include "ns3/feroce-switch.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-wire-time.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;

namespace
{

/// Parses args (after a program name) on cmd; its exit code.
int
ParseArgs(FeroceCommandLine& cmd, std::vector<std::string> args)
{
    args.insert(args.begin(), "front-door-test");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(&a[0]);
    }
    return cmd.Parse(int(argv.size()), argv.data()) ? 0 : cmd.GetExitCode();
}

class GrammarTestCase : public TestCase
{
  public:
    GrammarTestCase()
        : TestCase("The grammar: whole numbers with hex and exponents, decimal reals, units")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t u = 0;
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText("0x100", u), "", "hex");
        NS_TEST_EXPECT_MSG_EQ(u, 256, "0x100");
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText("1e3", u), "", "an exponent");
        NS_TEST_EXPECT_MSG_EQ(u, 1000, "1e3");
        for (const char* bad : {"1.5", "3x", "-1", "+1", "4294967296", " 1", ""})
        {
            NS_TEST_EXPECT_MSG_NE(FeroceCommandLine::ParseText(bad, u), "", bad);
        }
        double d = 0;
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText(".5", d), "", ".5");
        NS_TEST_EXPECT_MSG_EQ(d, 0.5, ".5");
        for (const char* bad : {"0x1p-4", "inf", "nan", "0.5abc", "1e400"})
        {
            NS_TEST_EXPECT_MSG_NE(FeroceCommandLine::ParseText(bad, d), "", bad);
        }
        Time t;
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText("1e3ns", t), "", "1e3ns");
        NS_TEST_EXPECT_MSG_EQ(t, MicroSeconds(1), "1e3ns");
        for (const char* bad : {"5", "-1ms", "0x1p-20s", "1 ms", "1mss"})
        {
            NS_TEST_EXPECT_MSG_NE(FeroceCommandLine::ParseText(bad, t), "", bad);
        }
        DataRate r;
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText("25Gb/s", r), "", "25Gb/s");
        NS_TEST_EXPECT_MSG_EQ(r.GetBitRate(), 25000000000ULL, "25Gb/s");
        NS_TEST_EXPECT_MSG_NE(FeroceCommandLine::ParseText("10gbps", r), "", "10gbps");
        TimeSpan s;
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::ParseText("1ms:2ms", s), "", "1ms:2ms");
        NS_TEST_EXPECT_MSG_NE(FeroceCommandLine::ParseText("2ms:1ms", s), "", "stop before start");
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::Canonical(MilliSeconds(30)), "30000000ns", "ns-3");
        NS_TEST_EXPECT_MSG_EQ(FeroceCommandLine::Printable("a\nb"), "a\\x0ab", "escaped");
    }
};

class FlagsTestCase : public TestCase
{
  public:
    FlagsTestCase()
        : TestCase("Flags: ranges, lists, a flag and its attribute, refusals by name")
    {
    }

  private:
    void DoRun() override
    {
        {
            FeroceCommandLine cmd("t", "");
            uint32_t boards = 3;
            std::vector<uint32_t> depths;
            cmd.AddValue("boards", "", boards).Range(1, 1000);
            cmd.AddList("depths", "", depths, "1:4").Range(1, 8).Distinct().Sorted();
            NS_TEST_EXPECT_MSG_EQ(ParseArgs(cmd, {"--boards=0x10", "--depths=4,2,3"}), 0, "valid");
            NS_TEST_EXPECT_MSG_EQ(boards, 16, "hex");
            NS_TEST_EXPECT_MSG_EQ(depths.size(), 3, "three depths");
            NS_TEST_EXPECT_MSG_EQ(depths[0], 2, "sorted");
        }
        for (auto bad : std::vector<std::vector<std::string>>{{"--boards=0"},
                                                              {"--depths=1,1"},
                                                              {"--depths=9"},
                                                              {"--depths=4:1"},
                                                              {"--depths="},
                                                              {"--bogus=1"},
                                                              {"extra"},
                                                              {"--boards"}})
        {
            FeroceCommandLine cmd("t", "");
            uint32_t boards = 3;
            std::vector<uint32_t> depths;
            cmd.AddValue("boards", "", boards).Range(1, 1000);
            cmd.AddList("depths", "", depths, "1:4").Range(1, 8).Distinct();
            NS_TEST_EXPECT_MSG_EQ(ParseArgs(cmd, bad), 2, bad[0]);
        }
        Config::Reset();
    }
};

class PrecedenceTestCase : public TestCase
{
  public:
    PrecedenceTestCase()
        : TestCase("Precedence: --ns3:: beats a flag, a flag the program, all of them a preset")
    {
    }

  private:
    static uint64_t Kmin()
    {
        UintegerValue v;
        CreateObject<FeroceSwitch>()->GetAttribute("Kmin", v);
        return v.Get();
    }

    void DoRun() override
    {
        {
            // the flag's default is the program's; beneath it the attribute's default
            FeroceCommandLine cmd("t", "");
            uint64_t kmin = 7000;
            cmd.AddValue("kmin", "", kmin).Attribute("ns3::FeroceSwitch::Kmin");
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {}), 0, "no flag");
            NS_TEST_EXPECT_MSG_EQ(Kmin(), 7000, "the flag's default");
            NS_TEST_EXPECT_MSG_EQ(int(cmd.GetSource("ns3::FeroceSwitch::Kmin")),
                                  int(FeroceSource::Program),
                                  "set by the program");
            // a program's setting below the flag's default does not apply over it
            NS_TEST_EXPECT_MSG_EQ(cmd.SetBeneath("ns3::FeroceSwitch::Kmin", "1000"), "", "beneath");
            NS_TEST_EXPECT_MSG_EQ(Kmin(), 1000, "the program's own setting, at the same level");
            Config::Reset();
        }
        {
            FeroceCommandLine cmd("t", "");
            uint64_t kmin = 7000;
            cmd.AddValue("kmin", "", kmin).Attribute("ns3::FeroceSwitch::Kmin");
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {"--kmin=9000"}), 0, "the flag given");
            NS_TEST_EXPECT_MSG_EQ(cmd.SetBeneath("ns3::FeroceSwitch::Kmin", "1000"), "", "beneath");
            NS_TEST_EXPECT_MSG_EQ(Kmin(), 9000, "the flag given stays over the program's setting");
            Config::Reset();
        }
        {
            FeroceCommandLine cmd("t", "");
            uint64_t kmin = 7000;
            cmd.AddValue("kmin", "", kmin).Attribute("ns3::FeroceSwitch::Kmin");
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {"--ns3::FeroceSwitch::Kmin=11000"}),
                                  0,
                                  "attribute");
            NS_TEST_EXPECT_MSG_EQ(kmin, 11000, "the flag shows the attribute's value");
            NS_TEST_EXPECT_MSG_EQ(Kmin(), 11000, "the user's value");
            Config::Reset();
        }
        {
            FeroceCommandLine cmd("t", "");
            uint64_t kmin = 7000;
            cmd.AddValue("kmin", "", kmin).Attribute("ns3::FeroceSwitch::Kmin");
            NS_TEST_EXPECT_MSG_EQ(ParseArgs(cmd, {"--kmin=1", "--ns3::FeroceSwitch::Kmin=2"}),
                                  2,
                                  "a flag and its attribute both given");
            Config::Reset();
        }
        {
            // a scenario file: beneath the command line, above the program's defaults
            FeroceCommandLine cmd("t", "");
            uint64_t kmin = 7000;
            Time duration = MilliSeconds(1);
            cmd.AddValue("kmin", "", kmin).Attribute("ns3::FeroceSwitch::Kmin");
            cmd.AddValue("duration", "", duration);
            cmd.SetScenarioReader([&cmd]() {
                std::string e = cmd.SetFlagFromFile("duration", "4s", "config.txt:1");
                e = e.empty() ? cmd.SetFlagFromFile("kmin", "8000", "config.txt:2") : e;
                return e.empty()
                           ? cmd.SetFromFile("ns3::FeroceSwitch::Kmax", "90000", "config.txt:3")
                           : e;
            });
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {"--kmin=9000"}), 0, "a file and a flag");
            NS_TEST_EXPECT_MSG_EQ(duration, Seconds(4), "the file's duration");
            NS_TEST_EXPECT_MSG_EQ(kmin, 9000, "the command line's kmin over the file's");
            NS_TEST_EXPECT_MSG_EQ(int(cmd.GetSource("ns3::FeroceSwitch::Kmax")),
                                  int(FeroceSource::Scenario),
                                  "Kmax from the file");
            NS_TEST_EXPECT_MSG_EQ(cmd.SetBeneath("ns3::FeroceSwitch::Kmax", "1"), "", "beneath");
            NS_TEST_EXPECT_MSG_EQ(cmd.GetDefault("ns3::FeroceSwitch::Kmax"), "90000", "file stays");
            Config::Reset();
        }
        {
            FeroceCommandLine cmd("t", "");
            Time duration = MilliSeconds(1);
            cmd.AddValue("duration", "", duration);
            cmd.SetScenarioReader([&cmd]() { return cmd.SetFlagFromFile("duration", "4", "f:1"); });
            NS_TEST_EXPECT_MSG_EQ(ParseArgs(cmd, {}), 2, "a file's bad value refused");
            Config::Reset();
        }
        {
            // a preset is beneath every value set: G given, the rest the preset's
            FeroceCommandLine cmd("t", "");
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {"--ns3::DcqcnReactionPoint::G=0.5"}), 0, "G");
            Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
            rp->ApplyPreset("hpcc", DataRate("10Gbps"));
            DoubleValue g;
            rp->GetAttribute("G", g);
            NS_TEST_EXPECT_MSG_EQ(g.Get(), 0.5, "the user's G over the preset's");
            Config::Reset();
        }
        {
            // an inherited attribute is set on the type that declares it
            FeroceCommandLine cmd("t", "");
            NS_TEST_ASSERT_MSG_EQ(ParseArgs(cmd, {"--ns3::RoceNic::DataRate=25Gbps"}),
                                  0,
                                  "inherited");
            NS_TEST_EXPECT_MSG_EQ(cmd.GetDefault("ns3::FeroceNetDevice::DataRate"),
                                  "25000000000bps",
                                  "on FeroceNetDevice");
            Config::Reset();
        }
        for (const char* bad : {"--ns3::RoceNic::ReactionPoint=0",
                                "--ns3::RoceNic::QueuePairs=x",
                                "--ns3::Bogus::X=1",
                                "--ns3::FeroceSwitch::Bogus=1",
                                "--RngSeed=0",
                                "--ns3::FeroceSwitch::Pmax=0x1p-4",
                                "--ns3::DcqcnReactionPoint::LineRate=1Gbps",
                                "--ns3::RoceFrontEndApp::Mode=bogus"})
        {
            FeroceCommandLine cmd("t", "");
            cmd.Derived("ns3::DcqcnReactionPoint::LineRate", "the NIC's DataRate");
            NS_TEST_EXPECT_MSG_EQ(ParseArgs(cmd, {bad}), 2, bad);
            Config::Reset();
        }
    }
};

class WindowFormulaTestCase : public TestCase
{
  public:
    WindowFormulaTestCase()
        : TestCase("The window formula on feroce_wire's frame lengths")
    {
    }

  private:
    void DoRun() override
    {
        // rocev2-wire.md: Ethernet 14, IPv4 20, UDP 8, BTH 12 (+ RETH 16 on a WRITE's first
        // packet, + ImmDt 4 on the last with immediate), payload padded to 4, ICRC 4, >= 60
        NS_TEST_EXPECT_MSG_EQ(RoceDataFrameBytes(4096, true, true, true, false),
                              4170,
                              "WRITE only");
        NS_TEST_EXPECT_MSG_EQ(RoceDataFrameBytes(4096, false, true, true, false),
                              4154,
                              "SEND only");
        NS_TEST_EXPECT_MSG_EQ(RoceDataFrameBytes(1021, false, false, true, true),
                              1086,
                              "pad, ImmDt");
        NS_TEST_EXPECT_MSG_EQ(RoceDataFrameBytes(1, false, true, true, false), 62, "one byte");
        NS_TEST_EXPECT_MSG_EQ(RoceAckFrameBytes(), 62, "ACK: BTH + AETH");
        WriteFrames w = CountWriteFrames(10000, 4096);
        NS_TEST_EXPECT_MSG_EQ(w.packets, 3, "three packets");
        NS_TEST_EXPECT_MSG_EQ(w.frameBytes, 4170 + 4154 + 1866, "their bytes");
        NS_TEST_EXPECT_MSG_EQ(w.wireBytes, w.frameBytes + 3 * 24, "preamble, FCS, gap");
        // one 4096-B SEND per window at 10 Gb/s over 1 us links, completion 2.5 us, K = 1:
        // T_msg = (4154 + 24) x 8 / 10 ns, T_loop = 2 x 1000 + (62 + 24) x 8 / 10 + 2500 ns
        WindowPath p{10e9, 1000, false, 2500, 1, 4096};
        WindowGoodput a = WindowFormula(p, false, false, 4096, 1);
        double msg = (4154 + 24) * 8 / 10.0;
        double loop = 2000 + (62 + 24) * 8 / 10.0 + 2500;
        NS_TEST_EXPECT_MSG_EQ_TOL(a.loopNs, loop, 1e-9, "T_loop");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.windowGbps, 4096 * 8 / (msg + loop), 1e-9, "W M / (K T + L)");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.lineGbps, 4096 * 8 / msg, 1e-9, "the line");
        NS_TEST_EXPECT_MSG_EQ(a.gbps, std::min(a.lineGbps, a.windowGbps), "the smaller");
        NS_TEST_EXPECT_MSG_EQ(a.exact, true, "K = 1");
        // deep enough, the line limits; K = 4 does not divide W = 6: a lower bound
        p.ackReqMessages = 4;
        WindowGoodput deep = WindowFormula(p, false, false, 4096, 64);
        NS_TEST_EXPECT_MSG_EQ(deep.gbps, deep.lineGbps, "line-limited");
        NS_TEST_EXPECT_MSG_EQ(WindowFormula(p, false, false, 4096, 6).exact, false, "K = 4, W = 6");
        // through a switch the loop grows by the last frame, an ACK and two delays
        p.viaSwitch = true;
        p.ackReqMessages = 1;
        NS_TEST_EXPECT_MSG_EQ_TOL(WindowFormula(p, false, false, 4096, 1).loopNs,
                                  loop + msg + (62 + 24) * 8 / 10.0 + 2000,
                                  1e-9,
                                  "store and forward");
    }
};

class FrontDoorTestSuite : public TestSuite
{
  public:
    FrontDoorTestSuite()
        : TestSuite("feroce-front-door")
    {
        AddTestCase(new GrammarTestCase);
        AddTestCase(new FlagsTestCase);
        AddTestCase(new PrecedenceTestCase);
        AddTestCase(new WindowFormulaTestCase);
    }
};

FrontDoorTestSuite g_frontDoorTestSuite;

} // namespace
