/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-input-rules.h"

#include "feroce-command-line.h"

#include "ns3/dcqcn-reaction-point.h"
#include "ns3/feroce-switch.h"
#include "ns3/global-value.h"
#include "ns3/object.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <vector>

namespace ns3
{

namespace
{

/// Settings that mean nothing while a switch attribute has a value.
struct WhileOff
{
    const char* control; ///< the attribute that turns the mechanism off
    const char* off;     ///< its value (as ns-3 text) that does
    const char* what;    ///< the mechanism, for the message
    std::vector<std::string> settings;
};

const std::vector<WhileOff>&
Rules()
{
    static const std::vector<WhileOff> rules = {
        {"ns3::RoceNic::DcqcnEnabled",
         "false",
         "DCQCN is off",
         {"ns3::RoceNic::DcqcnPreset",
          "ns3::RoceNic::FixedPointFormat",
          "ns3::RoceNic::CnpInterval",
          "ns3::RoceNic::CnpScope",
          "ns3::DcqcnReactionPoint::MinRate",
          "ns3::DcqcnReactionPoint::G",
          "ns3::DcqcnReactionPoint::InitialAlpha",
          "ns3::DcqcnReactionPoint::AlphaMode",
          "ns3::DcqcnReactionPoint::AlphaPeriod",
          "ns3::DcqcnReactionPoint::DecreasePeriod",
          "ns3::DcqcnReactionPoint::IncreaseTimer",
          "ns3::DcqcnReactionPoint::ByteCounter",
          "ns3::DcqcnReactionPoint::FastRecoveryStages",
          "ns3::DcqcnReactionPoint::RateAi",
          "ns3::DcqcnReactionPoint::RateHai",
          "ns3::DcqcnReactionPoint::HaiMode",
          "ns3::DcqcnReactionPoint::Clamp",
          "ns3::DcqcnReactionPoint::FirstCnpRate",
          "ns3::DcqcnReactionPoint::FixedPointFormat"}},
        {"ns3::FeroceSwitch::PfcEnabled",
         "false",
         "PFC is off",
         {"ns3::FeroceSwitch::Headroom",
          "ns3::FeroceSwitch::HeadroomCheck",
          "ns3::FeroceSwitch::PfcMode",
          "ns3::FeroceSwitch::PfcAlpha",
          "ns3::FeroceSwitch::XoffBytes",
          "ns3::FeroceSwitch::XonBytes",
          "ns3::FeroceSwitch::XonOffset",
          "ns3::FeroceSwitch::PauseQuanta"}},
        {"ns3::FeroceSwitch::PfcMode",
         "dynamic",
         "PfcMode is dynamic (static thresholds are not used)",
         {"ns3::FeroceSwitch::XoffBytes", "ns3::FeroceSwitch::XonBytes"}},
        {"ns3::FeroceSwitch::PfcMode",
         "static",
         "PfcMode is static (the dynamic threshold is not used)",
         {"ns3::FeroceSwitch::PfcAlpha", "ns3::FeroceSwitch::XonOffset"}},
        {"ns3::RoceFrontEndApp::Mode",
         "saturate",
         "the boards saturate",
         {"ns3::RoceFrontEndApp::TriggerInterval",
          "ns3::RoceFrontEndApp::Poisson",
          "ns3::RoceFrontEndApp::BufferSize"}},
        {"ns3::FeroceSwitch::EcnEnabled",
         "false",
         "ECN marking is off",
         {"ns3::FeroceSwitch::Kmin",
          "ns3::FeroceSwitch::Kmax",
          "ns3::FeroceSwitch::Pmax",
          "ns3::FeroceSwitch::MarkPoint",
          "ns3::FeroceSwitch::EcnPerQueue"}},
    };
    return rules;
}

bool
Given(const FeroceCommandLine& cmd, const std::string& attribute)
{
    return cmd.GetSource(attribute) >= FeroceSource::Scenario;
}

uint64_t
Number(const std::string& attribute)
{
    return std::strtoull(FeroceCommandLine::GetDefault(attribute).c_str(), nullptr, 10);
}

} // namespace

std::string
ValidateGivenDefaults(const FeroceCommandLine& cmd)
{
    // the types whose attributes a source above the program's set
    auto given = [&cmd](const std::string& type) {
        TypeId tid = TypeId::LookupByName(type);
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); i++)
            {
                if (Given(cmd, t.GetName() + "::" + t.GetAttribute(i).name))
                {
                    return true;
                }
            }
            if (t == t.GetParent() || t.GetName() == "ns3::Object")
            {
                return false;
            }
        }
    };
    std::string error;
    if (error.empty() && given("ns3::DcqcnReactionPoint"))
    {
        error = CreateObject<DcqcnReactionPoint>()->Validate();
    }
    if (error.empty() && given("ns3::RoceNic"))
    {
        error = CreateObject<RoceNic>()->Validate();
    }
    if (error.empty() && given("ns3::FeroceSwitch"))
    {
        error = CreateObject<FeroceSwitch>()->Validate();
    }
    if (error.empty() && given("ns3::RoceReceiverApp"))
    {
        error = CreateObject<RoceReceiverApp>()->Validate();
    }
    if (error.empty() && given("ns3::RoceFrontEndApp"))
    {
        error = CreateObject<RoceFrontEndApp>()->Validate();
    }
    return error;
}

std::string
CheckInputRules(FeroceCommandLine& cmd)
{
    for (const WhileOff& rule : Rules())
    {
        if (cmd.IsOwned(rule.control) || FeroceCommandLine::GetDefault(rule.control) != rule.off)
        {
            continue; // on, or the program switches it per object
        }
        for (const std::string& setting : rule.settings)
        {
            if (Given(cmd, setting))
            {
                std::string control = cmd.GetSource(rule.control) == FeroceSource::Default
                                          ? ""
                                          : " (" + cmd.GetGivenAs(rule.control) + ")";
                return cmd.GetGivenAs(setting) + " is not allowed: " + rule.what + control +
                       ", so it would be ignored (see --help)";
            }
        }
    }
    // feroce's heap is the scheduler only when SchedulerType names it
    const std::string horizon = "ns3::FeroceHeapScheduler::NearHorizon";
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    if (Given(cmd, horizon) && scheduler.Get().GetName() != "ns3::FeroceHeapScheduler")
    {
        return cmd.GetGivenAs(horizon) + " is not allowed: the scheduler is " +
               scheduler.Get().GetName() + ", not ns3::FeroceHeapScheduler (see --help)";
    }
    const std::string kmin = "ns3::FeroceSwitch::Kmin";
    const std::string kmax = "ns3::FeroceSwitch::Kmax";
    const std::string buffer = "ns3::FeroceSwitch::BufferSize";
    bool ecn = FeroceCommandLine::GetDefault("ns3::FeroceSwitch::EcnEnabled") == "true";
    if (ecn && (Given(cmd, kmin) || Given(cmd, buffer)) && Number(kmin) > Number(buffer))
    {
        return "Kmin = " + std::to_string(Number(kmin)) +
               " is not allowed: above BufferSize = " + std::to_string(Number(buffer)) +
               ", no queue can reach it (see --help)";
    }
    if (ecn && (Given(cmd, kmax) || Given(cmd, buffer)) && Number(kmax) > Number(buffer))
    {
        cmd.Warn("Kmax = " + std::to_string(Number(kmax)) + " is above BufferSize = " +
                 std::to_string(Number(buffer)) + ": the marking probability never reaches Pmax");
    }
    return "";
}

} // namespace ns3
