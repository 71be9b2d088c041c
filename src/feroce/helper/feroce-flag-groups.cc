/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-flag-groups.h"

#include "feroce-study.h"

#include "ns3/feroce-switch.h"

#include <cmath>

namespace ns3
{

void
DcqcnSwitchFlags::AddTo(FeroceStudy& study)
{
    AddDcqcnTo(study);
    AddSwitchTo(study);
}

void
DcqcnSwitchFlags::AddDcqcnTo(FeroceStudy& study)
{
    study.AddFlag("dcqcn", "DCQCN on the NICs", dcqcn).Attribute("ns3::RoceNic::DcqcnEnabled");
    study.AddFlag("preset", "DCQCN preset: paper, connectx or hpcc", preset)
        .OneOf({"paper", "connectx", "hpcc"})
        .Attribute("ns3::RoceNic::DcqcnPreset");
    study.AddFlag("g", "DCQCN alpha gain g (0: the preset's)", g)
        .Check([](const double& v) {
            return v >= 0 && v <= 1 ? std::string() : std::string("(0, 1], or 0 for the preset's");
        })
        .Unset(0)
        .Attribute("ns3::DcqcnReactionPoint::G");
    study.AddFlag("rai", "DCQCN additive increase R_AI in Mb/s (0: the preset's)", rai)
        .Range(0, 10000)
        .Unset(0)
        .Sets("ns3::DcqcnReactionPoint::RateAi", [](const double& mbps) {
            return FeroceCommandLine::Canonical(DataRate(uint64_t(mbps * 1e6)));
        });
    study.AddFlag("timer", "DCQCN rate-increase timer T (0: the preset's)", timer)
        .Unset(Time(0))
        .Attribute("ns3::DcqcnReactionPoint::IncreaseTimer");
}

void
DcqcnSwitchFlags::AddSwitchTo(FeroceStudy& study)
{
    study.AddFlag("pfc", "PFC on the switches", pfc).Attribute("ns3::FeroceSwitch::PfcEnabled");
    study.AddFlag("pfcHonour", "NICs obey PAUSE frames", pfcHonour)
        .Attribute("ns3::RoceNic::PfcHonour");
    study
        .AddFlag("headroom",
                 "Switch PFC headroom bytes per port and class (0: what the link needs)",
                 headroom)
        .Unset(0)
        .Attribute("ns3::FeroceSwitch::Headroom");
    study.AddFlag("ecn", "ECN marking on the switches", ecn)
        .Attribute("ns3::FeroceSwitch::EcnEnabled");
    study.AddFlag("kmin", "ECN Kmin bytes (every switch)", kmin)
        .Attribute("ns3::FeroceSwitch::Kmin");
    study.AddFlag("kmax", "ECN Kmax bytes (every switch)", kmax)
        .Attribute("ns3::FeroceSwitch::Kmax");
    study.AddFlag("pmax", "ECN Pmax (every switch)", pmax).Attribute("ns3::FeroceSwitch::Pmax");
    study.AddFlag("bufferSize", "Buffer bytes of each switch", bufferSize)
        .Attribute("ns3::FeroceSwitch::BufferSize");
}

void
DcqcnSwitchFlags::SetHeadroomCheck(FeroceStudy& study) const
{
    study.SetBeneath("ns3::FeroceSwitch::HeadroomCheck", headroom == 0 ? "true" : "false");
}

void
DcqcnSwitchFlags::WarnHeadroom(FeroceStudy& study, const FeroceSwitch& sw, uint32_t port) const
{
    if (pfc && headroom > 0 && headroom < sw.GetRequiredHeadroom(port))
    {
        study.Warn("--headroom=" + std::to_string(headroom) + " is below the " +
                   std::to_string(sw.GetRequiredHeadroom(port)) +
                   " bytes a link needs: frames in flight after a PAUSE will be lost");
    }
}

void
BoardTrafficFlags::AddTo(FeroceStudy& study)
{
    study.AddFlag("pmtu", "Path MTU: 256, 512, 1024, 2048 or 4096", pmtu)
        .Attribute("ns3::RoceQueuePair::Pmtu");
    study.AddFlag("messageSize", "Bytes per message", messageSize)
        .AtLeast(1)
        .Attribute("ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("write", "RDMA WRITE (1) or SEND (0)", write)
        .Attribute("ns3::RoceFrontEndApp::Write");
    study.AddFlag("imm", "Messages carry immediate data", imm)
        .Attribute("ns3::RoceFrontEndApp::WithImmediate");
    study.AddFlag("mode", "Board traffic: saturate or trigger (a message per trigger)", mode)
        .OneOf({"saturate", "trigger"})
        .Attribute("ns3::RoceFrontEndApp::Mode");
    study.AddFlag("triggerInterval", "Trigger mode: time between events", triggerInterval)
        .Attribute("ns3::RoceFrontEndApp::TriggerInterval");
    triggerRate.AddTo(study);
    study.AddFlag("boardBuffer", "Trigger mode: on-board buffer bytes", boardBuffer)
        .Attribute("ns3::RoceFrontEndApp::BufferSize");
    study.AddFlag("ackTimeout", "QP retransmission timeout", ackTimeout)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "> 0"; })
        .Attribute("ns3::RoceQueuePair::AckTimeout");
    study
        .AddFlag("ackJitter",
                 "Each timeout fires a uniform draw of up to this much after ackTimeout",
                 ackJitter)
        .Attribute("ns3::RoceQueuePair::AckTimeoutJitter");
}

void
TriggerRateFlag::AddTo(FeroceStudy& study)
{
    FeroceStudy* s = &study;
    study
        .AddFlag("triggerRate",
                 "Triggers per second (the mean if Poisson), instead of --triggerInterval",
                 rate)
        .Check([s](const double& r) {
            if (!s->IsGiven("triggerRate"))
            {
                return std::string();
            }
            if (s->IsGiven("triggerInterval"))
            {
                return std::string("no --triggerInterval beside it (give one of the two)");
            }
            // an interval of 1 ns at most 1e9 triggers per second
            return r > 0 && r <= 1e9 ? std::string() : std::string("> 0 and <= 1e9 per second");
        });
}

bool
TriggerRateFlag::Apply(FeroceStudy& study, Time& interval) const
{
    if (!study.IsGiven("triggerRate"))
    {
        return true;
    }
    interval = NanoSeconds(int64_t(std::llround(1e9 / rate)));
    std::string error =
        study.GetCommandLine().SetDefault("ns3::RoceFrontEndApp::TriggerInterval",
                                          FeroceCommandLine::Canonical(interval),
                                          FeroceSource::Flag,
                                          "triggerRate",
                                          study.GetCommandLine().GetText("triggerRate"));
    if (!error.empty())
    {
        study.Reject(error);
        return false;
    }
    return true;
}

void
PauseFlags::AddTo(FeroceStudy& study)
{
    study.AddFlag("pauseFrames", "Pause frames the switches send: pfc, 802.3x or both", pauseFrames)
        .OneOf({"pfc", "802.3x", "both"})
        .Attribute("ns3::FeroceSwitch::PauseFrames");
    study
        .AddFlag("pauseHonour",
                 "Pause frames the NICs obey: pfc, 802.3x, both or none (empty: --pfcHonour)",
                 pauseHonour)
        .Check([](const std::string& v) {
            return v.empty() || v == "pfc" || v == "802.3x" || v == "both" || v == "none"
                       ? std::string()
                       : std::string("pfc, 802.3x, both or none");
        })
        .Attribute("ns3::RoceNic::PauseHonour");
    study
        .AddFlag("watchdog",
                 "PFC watchdog: a switch queue paused this long with frames is in a storm (0: off)",
                 watchdog)
        .Attribute("ns3::FeroceSwitch::WatchdogDetect");
    study
        .AddFlag("watchdogRestore",
                 "PFC watchdog: a storm ends after this long without a PAUSE",
                 watchdogRestore)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "> 0"; })
        .Attribute("ns3::FeroceSwitch::WatchdogRestore");
    study.AddFlag("watchdogAction", "PFC watchdog in a storm: drop or forward", watchdogAction)
        .OneOf({"drop", "forward"})
        .Attribute("ns3::FeroceSwitch::WatchdogAction");
}

std::string
PauseFlags::Check(const FeroceStudy& study, bool pfcHonour) const
{
    bool pfcIn = pauseHonour == "pfc" || pauseHonour == "both";
    if (pauseHonour.empty() || !study.IsGiven("pfcHonour") || pfcIn == pfcHonour)
    {
        return "";
    }
    return "--pauseHonour=" + pauseHonour +
           " is not allowed with --pfcHonour=" + (pfcHonour ? "1" : "0") +
           ": they contradict each other; expected one of them, or a --pfcHonour that agrees (1 "
           "with pfc or both, 0 with 802.3x or none)";
}

void
LinkFlags::AddTo(FeroceStudy& study, const std::string& rateName)
{
    study.AddFlag("linkDelay", "Propagation delay of each link", linkDelay)
        .Attribute("ns3::FeroceChannel::Delay");
    if (!rateName.empty())
    {
        study.AddFlag(rateName, "Rate of every link", linkRate)
            .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
            .Attribute("ns3::FeroceNetDevice::DataRate");
    }
}

} // namespace ns3
