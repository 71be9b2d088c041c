/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-attributes.h"

#include <cctype>

namespace ns3
{

namespace
{

bool
Changed(const TypeId::AttributeInformation& info)
{
    return info.initialValue->SerializeToString(info.checker) !=
           info.originalInitialValue->SerializeToString(info.checker);
}

/// The core's parameter names and the ns-3 attributes that set them.
const std::pair<const char*, const char*> kCoreNames[] = {
    {"line_rate_bps", "LineRate"},
    {"min_rate_bps", "MinRate"},
    {"g", "G"},
    {"initial_alpha", "InitialAlpha"},
    {"alpha_mode", "AlphaMode"},
    {"alpha_period_ns", "AlphaPeriod"},
    {"decrease_period_ns", "DecreasePeriod"},
    {"increase_timer_ns", "IncreaseTimer"},
    {"byte_counter_bytes", "ByteCounter"},
    {"F", "FastRecoveryStages"},
    {"rai_bps", "RateAi"},
    {"rhai_bps", "RateHai"},
    {"hai_mode", "HaiMode"},
    {"clamp", "Clamp"},
    {"first_cnp_rate_bps", "FirstCnpRate"},
    {"np_interval_ns", "CnpInterval"},
    {"np_scope", "CnpScope"},
    {"kmin_bytes", "Kmin"},
    {"kmax_bytes", "Kmax"},
    {"pmax", "Pmax"},
    {"mark_point", "MarkPoint"},
    {"pfc_mode", "PfcMode"},
    {"pfc_alpha", "PfcAlpha"},
    {"pfc_xoff_bytes", "XoffBytes"},
    {"pfc_xon_bytes", "XonBytes"},
};

bool
IsWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

std::string
AttributeCheckMessage(const feroce_check& why)
{
    char buf[512];
    feroce_check_message(&why, buf, sizeof buf);
    std::string msg = buf;
    std::string out;
    for (std::size_t i = 0; i < msg.size();)
    {
        std::size_t j = i;
        while (j < msg.size() && IsWordChar(msg[j]))
        {
            j++;
        }
        if (j == i)
        {
            out += msg[i++];
            continue;
        }
        std::string word = msg.substr(i, j - i);
        for (const auto& n : kCoreNames)
        {
            if (word == n.first)
            {
                word = n.second;
                break;
            }
        }
        out += word;
        i = j;
    }
    return out;
}

bool
IsAttributeDefaultChanged(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    return tid.LookupAttributeByName(name, &info) && Changed(info);
}

void
ApplyChangedDefaults(Ptr<Object> object, TypeId tid, const std::set<std::string>& except)
{
    for (std::size_t i = 0; i < tid.GetAttributeN(); i++)
    {
        TypeId::AttributeInformation info = tid.GetAttribute(i);
        if ((info.flags & TypeId::ATTR_SET) && !except.count(info.name) && Changed(info))
        {
            object->SetAttribute(info.name, *info.initialValue);
        }
    }
}

} // namespace ns3
