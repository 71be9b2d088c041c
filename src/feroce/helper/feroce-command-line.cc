/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-command-line.h"

#include "ns3/channel.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/object-ptr-container.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <set>

namespace ns3
{

namespace
{

const char* const kHelpPointer = " (see --help)";

/// The value as typed, with control characters escaped (one line, nothing raw).
std::string
Printable(const std::string& text)
{
    std::string out;
    for (unsigned char c : text)
    {
        if (c < 0x20 || c >= 0x7f)
        {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
        else
        {
            out += char(c);
        }
    }
    return out;
}

/// A finite number filling the whole of text (no blanks); the rest after it in *rest.
bool
ParseNumber(const std::string& text, double& v, std::string* rest)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !std::isfinite(v) || errno == ERANGE)
    {
        return false;
    }
    if (rest)
    {
        *rest = end;
    }
    else if (*end != '\0')
    {
        return false;
    }
    return true;
}

template <typename U>
std::string
ParseUnsigned(const std::string& text, U& v)
{
    std::string allowed = "a whole number 0.." + std::to_string(std::numeric_limits<U>::max());
    if (text.empty() || text.size() > 20 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return allowed;
    }
    errno = 0;
    unsigned long long x = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || x > std::numeric_limits<U>::max())
    {
        return allowed;
    }
    v = static_cast<U>(x);
    return "";
}

template <typename S>
std::string
ParseSigned(const std::string& text, S& v)
{
    std::string allowed = "a whole number " + std::to_string(std::numeric_limits<S>::min()) + ".." +
                          std::to_string(std::numeric_limits<S>::max());
    std::string digits = !text.empty() && text[0] == '-' ? text.substr(1) : text;
    if (digits.empty() || digits.size() > 19 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return allowed;
    }
    errno = 0;
    long long x = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE || x < std::numeric_limits<S>::min() || x > std::numeric_limits<S>::max())
    {
        return allowed;
    }
    v = static_cast<S>(x);
    return "";
}

} // namespace

FeroceCommandLine::FeroceCommandLine(const std::string& program, const std::string& usage)
    : m_program(program),
      m_help(program)
{
    m_help.Usage(usage);
}

void
FeroceCommandLine::Owns(const std::string& attribute, const std::string& flag)
{
    m_owned.emplace_back(attribute, flag);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, bool& v)
{
    if (text == "1" || text == "true")
    {
        v = true;
    }
    else if (text == "0" || text == "false")
    {
        v = false;
    }
    else
    {
        return "0, 1, true or false";
    }
    return "";
}

std::string
FeroceCommandLine::ParseText(const std::string& text, uint8_t& v)
{
    return ParseUnsigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, uint16_t& v)
{
    return ParseUnsigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, uint32_t& v)
{
    return ParseUnsigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, uint64_t& v)
{
    return ParseUnsigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, int32_t& v)
{
    return ParseSigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, int64_t& v)
{
    return ParseSigned(text, v);
}

std::string
FeroceCommandLine::ParseText(const std::string& text, double& v)
{
    return ParseNumber(text, v, nullptr) ? "" : "a finite number";
}

std::string
FeroceCommandLine::ParseText(const std::string& text, std::string& v)
{
    v = text;
    return "";
}

std::string
FeroceCommandLine::ParseText(const std::string& text, Time& v)
{
    const char* allowed = "a time >= 0 with a unit, e.g. 30ms (units s, ms, us, ns, ps, min, h)";
    if (text == "0")
    {
        v = Time(0);
        return "";
    }
    double x;
    std::string unit;
    if (!ParseNumber(text, x, &unit) || x < 0)
    {
        return allowed;
    }
    double ns = unit == "h"     ? 3600e9
                : unit == "min" ? 60e9
                : unit == "s"   ? 1e9
                : unit == "ms"  ? 1e6
                : unit == "us"  ? 1e3
                : unit == "ns"  ? 1
                : unit == "ps"  ? 1e-3
                                : 0;
    // Time holds int64 nanoseconds (ns-3's default resolution): about 292 years
    if (ns == 0 || x * ns > 9.2e18)
    {
        return allowed;
    }
    v = NanoSeconds(int64_t(std::llround(x * ns)));
    return "";
}

std::string
FeroceCommandLine::ParseText(const std::string& text, DataRate& v)
{
    const char* allowed = "a rate >= 0 with a unit, e.g. 10Gbps (bps, kbps, Mbps, Gbps, Tbps, "
                          "or b/s, Mb/s...; Bps, MBps... for bytes)";
    double x;
    std::string unit;
    if (!ParseNumber(text, x, &unit) || x < 0)
    {
        return allowed;
    }
    static const std::vector<std::pair<std::string, double>> units = {{"bps", 1},
                                                                      {"b/s", 1},
                                                                      {"kbps", 1e3},
                                                                      {"kb/s", 1e3},
                                                                      {"Kbps", 1e3},
                                                                      {"Kb/s", 1e3},
                                                                      {"Mbps", 1e6},
                                                                      {"Mb/s", 1e6},
                                                                      {"Gbps", 1e9},
                                                                      {"Gb/s", 1e9},
                                                                      {"Tbps", 1e12},
                                                                      {"Tb/s", 1e12},
                                                                      {"Bps", 8},
                                                                      {"B/s", 8},
                                                                      {"kBps", 8e3},
                                                                      {"KBps", 8e3},
                                                                      {"MBps", 8e6},
                                                                      {"GBps", 8e9}};
    for (auto& u : units)
    {
        if (unit == u.first && x * u.second < 1.8e19)
        {
            v = DataRate(uint64_t(std::llround(x * u.second)));
            return "";
        }
    }
    return allowed;
}

std::string
FeroceCommandLine::Format(const Time& t)
{
    // seconds, so that the database sorts and compares times as numbers
    std::ostringstream s;
    s.precision(17);
    s << t.GetSeconds();
    return s.str();
}

std::string
FeroceCommandLine::Format(const DataRate& r)
{
    return std::to_string(r.GetBitRate()) + "bps";
}

std::string
FeroceCommandLine::Format(bool b)
{
    return b ? "1" : "0";
}

std::string
FeroceCommandLine::Format(uint8_t v)
{
    return std::to_string(v);
}

FeroceCommandLine::Flag*
FeroceCommandLine::FindFlag(const std::string& name)
{
    for (Flag& f : m_flags)
    {
        if (f.name == name)
        {
            return &f;
        }
    }
    return nullptr;
}

std::string
FeroceCommandLine::Bad(const std::string& name, const std::string& value, const std::string& why)
{
    return "--" + name + "=" + Printable(value) + " is not allowed: expected " + why + kHelpPointer;
}

std::string
FeroceCommandLine::SetAttribute(const std::string& name, const std::string& value)
{
    return CheckAttribute(name, value, name, true);
}

std::string
FeroceCommandLine::CheckAttribute(const std::string& name,
                                  const std::string& value,
                                  const std::string& flag,
                                  bool set)
{
    Ptr<const AttributeChecker> checker;
    std::size_t sep = name.rfind("::");
    bool isAttribute = name.rfind("ns3::", 0) == 0;
    GlobalValue* global = nullptr;
    if (isAttribute)
    {
        TypeId tid;
        TypeId::AttributeInformation info;
        if (sep == 3 || !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
        {
            return "--" + Printable(name) + ": no such ns-3 type" + kHelpPointer;
        }
        if (!tid.LookupAttributeByName(name.substr(sep + 2), &info))
        {
            return "--" + Printable(name) + ": " + tid.GetName() + " has no attribute " +
                   Printable(name.substr(sep + 2)) + " (--PrintAttributes=" + tid.GetName() +
                   " lists them)";
        }
        checker = info.checker;
    }
    else
    {
        for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
        {
            if ((*it)->GetName() == name)
            {
                global = *it;
                checker = global->GetChecker();
            }
        }
        if (!global)
        {
            return "unknown flag --" + Printable(name) + kHelpPointer;
        }
    }
    // ns-3 aborts on some unparseable strings (a Time): check the form first
    std::string type = checker->GetValueTypeName();
    std::string why;
    if (type == "ns3::TimeValue")
    {
        Time t;
        why = ParseText(value, t);
    }
    else if (type == "ns3::UintegerValue")
    {
        uint64_t u;
        why = ParseText(value, u);
    }
    else if (type == "ns3::IntegerValue")
    {
        int64_t i;
        why = ParseText(value, i);
    }
    else if (type == "ns3::DoubleValue")
    {
        double d;
        why = ParseText(value, d);
    }
    else if (type == "ns3::DataRateValue")
    {
        DataRate r;
        why = ParseText(value, r);
    }
    else if (type == "ns3::BooleanValue")
    {
        bool b;
        why = ParseText(value, b);
    }
    if (!why.empty())
    {
        return Bad(flag, value, why);
    }
    Ptr<AttributeValue> v = checker->CreateValidValue(StringValue(value));
    if (!v)
    {
        std::string info = checker->GetUnderlyingTypeInformation();
        return Bad(flag,
                   value,
                   "a value " + name + " accepts (" + (info.empty() ? type : info) + ")");
    }
    if (!set)
    {
        return "";
    }
    bool ok = isAttribute ? Config::SetDefaultFailSafe(name, *v) : global->SetValue(*v);
    return ok ? "" : Bad(flag, value, "a value " + name + " accepts");
}

bool
FeroceCommandLine::Parse(int argc, char** argv)
{
    static const std::set<std::string> help = {"--help",
                                               "--PrintHelp",
                                               "--PrintGlobals",
                                               "--PrintGroups",
                                               "--PrintTypeIds",
                                               "--PrintVersion",
                                               "--version"};
    for (int i = 0; i < argc; i++)
    {
        m_command += (i ? " " : "") + std::string(argv[i]);
    }
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        if (help.count(arg) || arg.rfind("--PrintGroup=", 0) == 0 ||
            arg.rfind("--PrintAttributes=", 0) == 0)
        {
            char* args[] = {argv[0], argv[i]};
            m_help.Parse(2, args); // prints and exits
            return false;
        }
    }
    std::vector<std::pair<std::string, std::string>> attributes;
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        if (arg.size() < 3 || arg.rfind("--", 0) != 0)
        {
            Reject("unexpected argument " + Printable(arg) + ": flags are --name=value" +
                   kHelpPointer);
            return false;
        }
        std::size_t eq = arg.find('=');
        std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        Flag* flag = FindFlag(name);
        if (!flag && eq == std::string::npos)
        {
            Reject((name.rfind("ns3::", 0) == 0 ? "--" + Printable(name) + " needs a value"
                                                : "unknown flag --" + Printable(name)) +
                   kHelpPointer);
            return false;
        }
        std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (flag)
        {
            bool boolean = flag->isBool;
            if (eq == std::string::npos && boolean)
            {
                value = "1"; // --pcap alone means --pcap=1
            }
            std::string why = eq == std::string::npos && !boolean ? "a value: --" + name + "=..."
                                                                  : flag->parse(value);
            if (!why.empty())
            {
                Reject(Bad(name, value, why));
                return false;
            }
            if (!flag->attribute.empty())
            {
                // what the program will set the attribute to must be a value it accepts
                std::string error = CheckAttribute(flag->attribute, value, name, false);
                if (!error.empty())
                {
                    Reject(error);
                    return false;
                }
            }
            flag->given = true;
            flag->text = value;
            continue;
        }
        std::string error = SetAttribute(name, value);
        if (!error.empty())
        {
            Reject(error);
            return false;
        }
        attributes.emplace_back(name, value);
    }
    for (auto& a : attributes)
    {
        for (auto& owned : m_owned)
        {
            if (owned.first == a.first)
            {
                Reject("--" + a.first + " is set by this program through --" + owned.second +
                       ": use --" + owned.second + kHelpPointer);
                return false;
            }
        }
        for (Flag& f : m_flags)
        {
            if (f.attribute != a.first)
            {
                continue;
            }
            if (f.given)
            {
                Reject("--" + f.name + " and --" + a.first + " set the same thing: give one" +
                       kHelpPointer);
                return false;
            }
            std::string why = f.parse(a.second);
            if (!why.empty())
            {
                Reject(Bad(a.first, a.second, why));
                return false;
            }
            f.given = true;
            f.text = a.second;
        }
    }
    m_attributes = attributes;
    return true;
}

int
FeroceCommandLine::GetExitCode() const
{
    return m_exitCode;
}

int
FeroceCommandLine::Reject(const std::string& message)
{
    std::cerr << m_program << ": " << message << std::endl;
    m_exitCode = 2;
    return m_exitCode;
}

bool
FeroceCommandLine::IsGiven(const std::string& name) const
{
    for (const Flag& f : m_flags)
    {
        if (f.name == name)
        {
            return f.given;
        }
    }
    return false;
}

std::string
FeroceCommandLine::GetText(const std::string& name) const
{
    for (const Flag& f : m_flags)
    {
        if (f.name == name)
        {
            return f.given ? Printable(f.text) : f.format();
        }
    }
    return "";
}

const std::string&
FeroceCommandLine::GetCommand() const
{
    return m_command;
}

std::vector<std::pair<std::string, std::string>>
FeroceCommandLine::GetValues() const
{
    std::vector<std::pair<std::string, std::string>> values;
    for (const Flag& f : m_flags)
    {
        values.emplace_back(f.name, f.format());
    }
    return values;
}

const std::vector<std::pair<std::string, std::string>>&
FeroceCommandLine::GetAttributes() const
{
    return m_attributes;
}

namespace
{

/// Every object reachable from o: its aggregates and the objects its attributes hold.
void
Collect(Ptr<Object> o, std::set<Object*>& seen, std::vector<Ptr<Object>>& out)
{
    if (!o || !seen.insert(PeekPointer(o)).second)
    {
        return;
    }
    out.push_back(o);
    if (Ptr<NetDevice> dev = DynamicCast<NetDevice>(o))
    {
        Collect(dev->GetChannel(), seen, out);
    }
    Object::AggregateIterator it = o->GetAggregateIterator();
    while (it.HasNext())
    {
        Collect(ConstCast<Object>(it.Next()), seen, out);
    }
    for (TypeId t = o->GetInstanceTypeId();; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); i++)
        {
            TypeId::AttributeInformation info = t.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            Ptr<AttributeValue> v = info.checker->Create();
            if (Ptr<PointerValue> p = DynamicCast<PointerValue>(v))
            {
                o->GetAttribute(info.name, *p);
                Collect(p->GetObject(), seen, out);
            }
            else if (Ptr<ObjectPtrContainerValue> c = DynamicCast<ObjectPtrContainerValue>(v))
            {
                o->GetAttribute(info.name, *c);
                for (auto j = c->Begin(); j != c->End(); ++j)
                {
                    Collect(j->second, seen, out);
                }
            }
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
}

} // namespace

std::string
FeroceCommandLine::CheckAttributesHonoured() const
{
    if (m_attributes.empty())
    {
        return "";
    }
    std::set<Object*> seen;
    std::vector<Ptr<Object>> objects;
    for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        Collect(*n, seen, objects);
    }
    for (auto& a : m_attributes)
    {
        if (a.first.rfind("ns3::", 0) != 0)
        {
            continue; // a global value
        }
        std::size_t sep = a.first.rfind("::");
        TypeId tid = TypeId::LookupByName(a.first.substr(0, sep));
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(a.first.substr(sep + 2), &info);
        if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
        {
            continue;
        }
        std::string want = info.initialValue->SerializeToString(info.checker);
        for (Ptr<Object> o : objects)
        {
            if (!o->GetInstanceTypeId().IsChildOf(tid) && o->GetInstanceTypeId() != tid)
            {
                continue;
            }
            Ptr<AttributeValue> have = info.checker->Create();
            o->GetAttribute(info.name, *have);
            std::string got = have->SerializeToString(info.checker);
            if (got != want)
            {
                return "--" + a.first + "=" + Printable(a.second) +
                       " is not honoured: this program sets " + info.name + " itself (to " + got +
                       "); use its own flag" + kHelpPointer;
            }
        }
    }
    return "";
}

} // namespace ns3
