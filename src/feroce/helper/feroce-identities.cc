/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-identities.h"

#include <sstream>

namespace ns3
{

void
FeroceIdentities::Add(const std::string& name, uint64_t total, const Parts& parts)
{
    m_identities.push_back({name, total, parts});
}

bool
FeroceIdentities::Identity::Holds() const
{
    uint64_t sum = 0;
    for (const auto& p : parts)
    {
        sum += p.second;
    }
    return sum == total;
}

std::string
FeroceIdentities::Identity::Text() const
{
    std::ostringstream names;
    std::ostringstream values;
    names << name << " =";
    values << total << " =";
    for (std::size_t i = 0; i < parts.size(); i++)
    {
        names << (i ? " + " : " ") << parts[i].first;
        values << (i ? " + " : " ") << parts[i].second;
    }
    return names.str() + ": " + values.str() + (Holds() ? " (holds)" : " (DOES NOT HOLD)");
}

uint32_t
FeroceIdentities::GetViolations() const
{
    uint32_t n = 0;
    for (const Identity& i : m_identities)
    {
        n += !i.Holds();
    }
    return n;
}

std::string
FeroceIdentities::Check() const
{
    for (const Identity& i : m_identities)
    {
        if (!i.Holds())
        {
            return i.Text();
        }
    }
    return "";
}

std::vector<std::string>
FeroceIdentities::Describe() const
{
    std::vector<std::string> out;
    for (const Identity& i : m_identities)
    {
        out.push_back(i.Text());
    }
    return out;
}

} // namespace ns3
