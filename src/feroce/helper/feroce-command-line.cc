/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-command-line.h"

#include "feroce-input-rules.h"
#include "roce-helper.h"

#include "ns3/config.h"
#include "ns3/feroce-number.h"
#include "ns3/global-value.h"
#include "ns3/string.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <iostream>
#include <limits>
#include <map>
#include <set>

namespace ns3
{

namespace
{

const char* const kHelpPointer = " (see --help)";

/// The type and the attribute of "ns3::Type::Attr"; false if it does not name one.
bool
LookupAttribute(const std::string& name, TypeId& tid, TypeId::AttributeInformation& info)
{
    std::size_t sep = name.rfind("::");
    if (name.rfind("ns3::", 0) != 0 || sep == 3 ||
        !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
    {
        return false;
    }
    return tid.LookupAttributeByName(name.substr(sep + 2), &info);
}

/**
 * "ns3::Type::Attr" named by the type that declares the attribute (ns-3 keeps one default per
 * attribute, on that type: Config::SetDefault refuses the name of a type that inherits it); any
 * other name as it is.
 */
std::string
Declared(const std::string& name)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!LookupAttribute(name, tid, info))
    {
        return name;
    }
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); i++)
        {
            if (t.GetAttribute(i).name == info.name)
            {
                return t.GetName() + "::" + info.name;
            }
        }
        if (t == t.GetParent())
        {
            return name;
        }
    }
}

/// A global value by name, or nullptr.
GlobalValue*
FindGlobal(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return *it;
        }
    }
    return nullptr;
}

bool
IsMac48(const std::string& text)
{
    if (text.size() != 17)
    {
        return false;
    }
    for (std::size_t i = 0; i < text.size(); i++)
    {
        bool colon = i % 3 == 2;
        if (colon ? text[i] != ':' : !std::isxdigit(static_cast<unsigned char>(text[i])))
        {
            return false;
        }
    }
    return true;
}

} // namespace

FeroceCommandLine::FeroceCommandLine(const std::string& program, const std::string& usage)
    : m_program(program),
      m_help(program)
{
    m_help.Usage(usage);
}

std::size_t
FeroceCommandLine::AddFlag(Flag f)
{
    if (!f.check)
    {
        f.check = []() { return std::string(); };
    }
    m_flags.push_back(f);
    return m_flags.size() - 1;
}

void
FeroceCommandLine::Owns(const std::string& attribute, const std::string& flag)
{
    m_owned.emplace_back(Declared(attribute), flag);
}

void
FeroceCommandLine::Owns(const std::string& attribute)
{
    m_owned.emplace_back(Declared(attribute), "");
}

bool
FeroceCommandLine::IsOwned(const std::string& attribute) const
{
    for (auto& o : m_owned)
    {
        if (o.first == Declared(attribute))
        {
            return true;
        }
    }
    return false;
}

void
FeroceCommandLine::Derived(const std::string& attribute, const std::string& why)
{
    m_derived.emplace_back(Declared(attribute), why);
}

void
FeroceCommandLine::Uses(const std::vector<std::string>& types)
{
    m_uses.insert(m_uses.end(), types.begin(), types.end());
    m_usesDeclared = true;
}

// ---- flags ----------------------------------------------------------------------------------

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

const FeroceCommandLine::Flag*
FeroceCommandLine::FindFlag(const std::string& name) const
{
    for (const Flag& f : m_flags)
    {
        if (f.name == name)
        {
            return &f;
        }
    }
    return nullptr;
}

std::string
FeroceCommandLine::Bad(const std::string& name,
                       const std::string& value,
                       const std::string& why) const
{
    return "--" + name + "=" + Printable(value) + " is not allowed: expected " + why + kHelpPointer;
}

std::string
FeroceCommandLine::Refusal(const std::string& name, const std::string& value) const
{
    // globals nothing of feroce reads: given, they would change nothing
    std::string unread = name == "ChecksumEnabled"
                             ? "feroce's frames always carry their IPv4 checksum and ICRC"
                         : m_usesDeclared && m_uses.empty() &&
                                 (name == "SchedulerType" || name == "SimulatorImplementationType")
                             ? "this program runs no simulation"
                             : "";
    if (!unread.empty())
    {
        return "--" + name + "=" + Printable(value) + " is not allowed: " + unread + kHelpPointer;
    }
    std::string declared = Declared(name);
    for (auto& owned : m_owned)
    {
        if (owned.first != declared)
        {
            continue;
        }
        if (owned.second.empty())
        {
            std::size_t sep = name.rfind("::");
            return "--" + name + "=" + Printable(value) + " is not honoured: this program sets " +
                   name.substr(sep + 2) + " itself" + kHelpPointer;
        }
        return "--" + name + " is set by this program through --" + owned.second + ": use --" +
               owned.second + kHelpPointer;
    }
    for (auto& derived : m_derived)
    {
        if (derived.first == declared)
        {
            return "--" + name + "=" + Printable(value) + " is not allowed: it is " +
                   derived.second + kHelpPointer;
        }
    }
    TypeId tid;
    TypeId::AttributeInformation info;
    if (m_usesDeclared && LookupAttribute(name, tid, info))
    {
        for (const std::string& used : m_uses)
        {
            TypeId u;
            if (TypeId::LookupByNameFailSafe(used, &u) && (u == tid || u.IsChildOf(tid)))
            {
                return "";
            }
        }
        return "--" + name + "=" + Printable(value) + " is not allowed: this program builds no " +
               tid.GetName() + (m_uses.empty() ? " (no ns-3 object)" : "") + kHelpPointer;
    }
    return "";
}

std::string
FeroceCommandLine::CheckAttribute(const std::string& name,
                                  const std::string& value,
                                  const std::string& who,
                                  std::string* canonical) const
{
    Ptr<const AttributeChecker> checker;
    bool isAttribute = name.rfind("ns3::", 0) == 0;
    if (isAttribute)
    {
        TypeId tid;
        TypeId::AttributeInformation info;
        std::size_t sep = name.rfind("::");
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
        if (!(info.flags & TypeId::ATTR_CONSTRUCT) && !(info.flags & TypeId::ATTR_SET))
        {
            return "--" + name + " is not allowed: " + name.substr(sep + 2) + " cannot be set" +
                   kHelpPointer;
        }
        checker = info.checker;
    }
    else
    {
        GlobalValue* global = FindGlobal(name);
        if (!global)
        {
            return "unknown flag --" + Printable(name) + kHelpPointer;
        }
        checker = global->GetChecker();
    }
    if (name == "SchedulerType" || name == "SimulatorImplementationType")
    {
        std::string arg = "--" + name + "=" + value;
        char* args[] = {const_cast<char*>("x"), const_cast<char*>(arg.c_str())};
        std::string error = RoceHelper::CheckSimulatorArguments(2, args);
        if (!error.empty())
        {
            return error;
        }
    }
    // every value is read by the front door's grammar; ns-3 gets the canonical text
    // ns-3 names some "ns3::TimeValue", others "BooleanValue"
    std::string type = checker->GetValueTypeName();
    type = type.rfind("ns3::", 0) == 0 ? type : "ns3::" + type;
    std::string why;
    std::string text = value;
    if (type == "ns3::TimeValue")
    {
        Time t;
        why = ParseText(value, t);
        text = Canonical(t);
    }
    else if (type == "ns3::UintegerValue")
    {
        uint64_t u;
        why = ParseText(value, u);
        text = std::to_string(u);
    }
    else if (type == "ns3::IntegerValue")
    {
        int64_t i;
        why = ParseText(value, i);
        text = std::to_string(i);
    }
    else if (type == "ns3::DoubleValue")
    {
        double d;
        why = ParseText(value, d);
        text = Canonical(d);
    }
    else if (type == "ns3::DataRateValue")
    {
        DataRate r;
        why = ParseText(value, r);
        text = Canonical(r);
    }
    else if (type == "ns3::BooleanValue")
    {
        bool b;
        why = ParseText(value, b);
        text = Canonical(b);
    }
    else if (type == "ns3::TypeIdValue")
    {
        TypeId t;
        if (!TypeId::LookupByNameFailSafe(value, &t))
        {
            why = "the name of an ns-3 type (--PrintTypeIds lists them)";
        }
    }
    else if (type == "ns3::Ipv4AddressValue")
    {
        in_addr a;
        if (inet_pton(AF_INET, value.c_str(), &a) != 1)
        {
            why = "an IPv4 address, e.g. 10.0.0.1";
        }
    }
    else if (type == "ns3::Mac48AddressValue")
    {
        if (!IsMac48(value))
        {
            why = "a MAC address, e.g. 00:00:00:00:00:01";
        }
    }
    else if (type == "ns3::PointerValue" || type == "ns3::ObjectPtrContainerValue" ||
             type == "ns3::ObjectFactoryValue")
    {
        return "--" + name +
               " is not allowed: it holds an object; set the object's own "
               "attributes (--ns3::TYPE::ATTRIBUTE=...)" +
               kHelpPointer;
    }
    else if (type != "ns3::StringValue" && type != "ns3::EnumValue")
    {
        return "--" + name + " is not allowed: its values (" + type +
               ") cannot be given on the command line" + kHelpPointer;
    }
    if (!why.empty() && (type == "ns3::UintegerValue" || type == "ns3::IntegerValue"))
    {
        // what this one accepts, not the whole 64-bit range of the grammar
        std::string info = checker->GetUnderlyingTypeInformation();
        why = name == "RngSeed" ? "a whole number 1..4294944442"
              : info.empty()    ? why
                                : "a whole number " + name + " accepts (" + info + ")";
    }
    if (!why.empty())
    {
        return Bad(who, value, why);
    }
    if (text.find_first_of(std::string("\0\n\r", 3)) != std::string::npos)
    {
        return Bad(who, value, "one line of text");
    }
    Ptr<AttributeValue> v = checker->CreateValidValue(StringValue(text));
    if (!v)
    {
        std::string info = checker->GetUnderlyingTypeInformation();
        return Bad(who,
                   value,
                   "a value " + name + " accepts (" + (info.empty() ? type : info) + ")");
    }
    if (!isAttribute)
    {
        // the globals with rules of their own (ns-3 aborts or asserts on the rest)
        if (name == "RngSeed")
        {
            uint64_t s = 0;
            ParseText(value, s);
            // MRG32k3a's seeds: not 0, below m2 = 4294944443 (ns-3 sets all six to the seed)
            if (s < 1 || s > 4294944442ULL)
            {
                return Bad(who, value, "a whole number 1..4294944442");
            }
        }
    }
    if (canonical)
    {
        *canonical = text;
    }
    return "";
}

bool
FeroceCommandLine::Help(int argc, char** argv)
{
    static const std::set<std::string> help = {"--help",
                                               "--PrintHelp",
                                               "--PrintGlobals",
                                               "--PrintGroups",
                                               "--PrintTypeIds",
                                               "--PrintVersion",
                                               "--version"};
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        bool attributes = arg.rfind("--PrintAttributes=", 0) == 0;
        bool group = arg.rfind("--PrintGroup=", 0) == 0;
        if (!help.count(arg) && !attributes && !group)
        {
            continue;
        }
        std::string value = arg.substr(arg.find('=') + 1);
        TypeId tid;
        if (attributes && !TypeId::LookupByNameFailSafe(value, &tid))
        {
            Reject(Bad("PrintAttributes",
                       value,
                       "the name of an ns-3 type, e.g. ns3::FeroceSwitch (--PrintTypeIds lists "
                       "them)"));
            return true;
        }
        if (group)
        {
            bool found = false;
            for (uint16_t t = 0; t < TypeId::GetRegisteredN() && !found && !value.empty(); t++)
            {
                found = TypeId::GetRegistered(t).GetGroupName() == value;
            }
            if (!found)
            {
                Reject(Bad("PrintGroup", value, "a group name (--PrintGroups lists them)"));
                return true;
            }
        }
        char* args[] = {argv[0], argv[i]};
        m_help.Parse(2, args); // prints and exits
        return true;
    }
    return false;
}

bool
FeroceCommandLine::ParseArguments(int argc, char** argv)
{
    // each flag and attribute once: a value given twice would leave one of them unused
    std::map<std::string, std::string> seen; // flag or declared attribute -> the first given
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
            Reject((name.rfind("ns3::", 0) == 0 || FindGlobal(name)
                        ? "--" + Printable(name) + " needs a value"
                        : "unknown flag --" + Printable(name)) +
                   kHelpPointer);
            return false;
        }
        std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        auto first = seen.emplace(flag ? flag->name : Declared(name), arg);
        if (!first.second)
        {
            Reject(Bad(name,
                       value,
                       "one value (" + Printable(first.first->second) + " is given too)"));
            return false;
        }
        if (!flag)
        {
            std::string error = Refusal(name, value);
            if (error.empty())
            {
                error = CheckAttribute(name, value, name, nullptr);
            }
            if (!error.empty())
            {
                Reject(error);
                return false;
            }
            m_attributes.emplace_back(name, value);
            continue;
        }
        if (eq == std::string::npos)
        {
            if (!flag->isBool)
            {
                Reject(Bad(name, "", "a value: --" + name + "=..."));
                return false;
            }
            value = "1"; // --pcap alone means --pcap=1
        }
        std::string why = flag->parse(value);
        if (!why.empty())
        {
            Reject(Bad(name, value, flag->wholeRange.empty() ? why : flag->wholeRange));
            return false;
        }
        flag->given = true;
        flag->text = value;
    }
    return true;
}

bool
FeroceCommandLine::ApplySources()
{
    // lists not given: their default text
    for (Flag& f : m_flags)
    {
        if (!f.given && !f.fromFile && !f.defaultText.empty())
        {
            f.parse(f.defaultText);
        }
    }
    // attributes given: over a flag bound to the same one (both given: refused)
    for (auto& a : m_attributes)
    {
        for (Flag& f : m_flags)
        {
            if (f.attribute.empty() || Declared(f.attribute) != Declared(a.first))
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
    // every flag within its range (a bound flag's value may have come from its attribute); an
    // empty list whose default is empty means none, unchecked
    for (Flag& f : m_flags)
    {
        if (f.isList && f.defaultText.empty() && (!f.given || f.text.empty()))
        {
            continue;
        }
        if (f.isList && f.given && f.text.empty())
        {
            Reject(Bad(f.name, "", "at least one item"));
            return false;
        }
        std::string why = f.check();
        if (!why.empty())
        {
            std::string as = f.given || f.fromFile ? f.text : f.format();
            for (auto& a : m_attributes)
            {
                if (!f.attribute.empty() && Declared(a.first) == Declared(f.attribute))
                {
                    Reject(Bad(a.first, a.second, why));
                    return false;
                }
            }
            Reject(Bad(f.name, as, why));
            return false;
        }
    }
    // the sources, highest last so that each applies where nothing higher did
    for (auto& a : m_attributes)
    {
        std::string error = SetDefault(a.first, a.second, FeroceSource::User);
        if (!error.empty())
        {
            Reject(error);
            return false;
        }
    }
    for (Flag& f : m_flags)
    {
        std::string attribute = !f.attribute.empty() ? f.attribute : f.sets;
        std::string text = f.canonical();
        if (attribute.empty() || text.empty())
        {
            continue;
        }
        FeroceSource source = f.given      ? FeroceSource::Flag
                              : f.fromFile ? FeroceSource::Scenario
                                           : FeroceSource::Program;
        std::string error = SetDefault(attribute,
                                       text,
                                       source,
                                       f.name,
                                       f.given || f.fromFile ? f.text : f.format());
        if (!error.empty())
        {
            Reject(error);
            return false;
        }
    }
    std::string error = RoceHelper::CheckSimulatorPair();
    if (error.empty())
    {
        error = ValidateGivenDefaults(*this);
    }
    if (!error.empty())
    {
        Reject(error + kHelpPointer);
        return false;
    }
    return true;
}

void
FeroceCommandLine::AddInputFile(const std::string& path)
{
    m_inputFiles.push_back(path);
}

bool
FeroceCommandLine::PrintInputs(int argc, char** argv)
{
    std::vector<char*> args;
    bool inputs = false;
    for (int i = 0; i < argc; i++)
    {
        std::string arg = argv[i];
        if (arg == "--PrintInputFlags")
        {
            for (const Flag& f : m_flags)
            {
                std::cout << (f.inputFile ? f.name + "\n" : "");
            }
            std::cout << std::flush;
            std::exit(0);
        }
        if (arg == "--PrintInputs")
        {
            inputs = true;
        }
        else
        {
            args.push_back(argv[i]);
        }
    }
    if (!inputs)
    {
        return false;
    }
    // the run's reading of its scenario, and no more
    std::function<std::string()> reader = m_scenarioReader;
    if (!ParseArguments(int(args.size()), args.data()) || (reader && !reader().empty()))
    {
        std::exit(2); // the run itself says why
    }
    std::set<std::string> printed;
    for (const Flag& f : m_flags)
    {
        std::string value = f.inputFile ? f.format() : "";
        if (!value.empty() && printed.insert(value).second)
        {
            std::cout << value << "\n";
        }
    }
    for (const std::string& path : m_inputFiles)
    {
        if (printed.insert(path).second)
        {
            std::cout << path << "\n";
        }
    }
    std::cout << std::flush;
    std::exit(0);
}

bool
FeroceCommandLine::Parse(int argc, char** argv)
{
    PrintInputs(argc, argv);
    for (int i = 0; i < argc; i++)
    {
        m_command += (i ? " " : "") + std::string(argv[i]);
    }
    if (Help(argc, argv) || !ParseArguments(argc, argv))
    {
        if (m_exitCode == 0)
        {
            m_exitCode = 2;
        }
        return false;
    }
    // a scenario file beneath the command line, before every value is checked and applied
    if (m_scenarioReader)
    {
        std::string error = m_scenarioReader();
        if (!error.empty())
        {
            Reject(error);
            return false;
        }
    }
    if (!ApplySources())
    {
        if (m_exitCode == 0)
        {
            m_exitCode = 2;
        }
        return false;
    }
    using CountFn = std::size_t (*)();
    if (auto count = reinterpret_cast<CountFn>(dlsym(RTLD_DEFAULT, "feroce_audit_count")))
    {
        m_auditFrom = count();
    }
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

int
FeroceCommandLine::RejectFlag(const std::string& name, const std::string& allowed)
{
    return Reject(Bad(name, GetText(name), allowed));
}

// ---- precedence -----------------------------------------------------------------------------

std::string
FeroceCommandLine::SetDefault(const std::string& attribute,
                              const std::string& text,
                              FeroceSource source,
                              const std::string& who,
                              const std::string& typed)
{
    std::string declared = Declared(attribute);
    Source& held = m_sources[declared];
    if (held.source > source)
    {
        return ""; // a higher source set it: the user's value stays
    }
    std::string canonical;
    std::string name = who.empty() ? attribute : who;
    std::string error = CheckAttribute(attribute, text, name, &canonical);
    if (!error.empty())
    {
        return error;
    }
    TypeId tid;
    TypeId::AttributeInformation info;
    bool ok = false;
    if (LookupAttribute(declared, tid, info))
    {
        Ptr<AttributeValue> v = info.checker->CreateValidValue(StringValue(canonical));
        ok = v && Config::SetDefaultFailSafe(declared, *v);
    }
    else if (GlobalValue* global = FindGlobal(attribute))
    {
        Ptr<AttributeValue> v = global->GetChecker()->CreateValidValue(StringValue(canonical));
        ok = v && global->SetValue(*v);
    }
    if (!ok)
    {
        return "--" + attribute + "=" + Printable(text) + " is not allowed" + kHelpPointer;
    }
    held.source = source;
    held.givenAs = "--" + name + "=" + Printable(typed.empty() ? text : typed);
    held.canonical = canonical;
    return "";
}

std::string
FeroceCommandLine::SetBeneath(const std::string& attribute, const std::string& text)
{
    return SetDefault(attribute, text, FeroceSource::Program);
}

std::string
FeroceCommandLine::SetFromFile(const std::string& attribute,
                               const std::string& text,
                               const std::string& where)
{
    return SetDefault(attribute, text, FeroceSource::Scenario, where);
}

std::string
FeroceCommandLine::SetFlagFromFile(const std::string& name,
                                   const std::string& text,
                                   const std::string& where)
{
    Flag* f = FindFlag(name);
    if (!f)
    {
        return where + ": " + name + " is not a flag of this program" + kHelpPointer;
    }
    if (f->given)
    {
        return ""; // the command line's value stays
    }
    std::string why = f->parse(text);
    if (!why.empty())
    {
        return where + ": " + name + " = " + Printable(text) + " is not allowed: expected " + why;
    }
    f->fromFile = true;
    f->text = text;
    return "";
}

void
FeroceCommandLine::SetScenarioReader(std::function<std::string()> reader)
{
    m_scenarioReader = reader;
}

FeroceSource
FeroceCommandLine::GetSource(const std::string& attribute) const
{
    auto it = m_sources.find(Declared(attribute));
    return it == m_sources.end() ? FeroceSource::Default : it->second.source;
}

std::string
FeroceCommandLine::GetGivenAs(const std::string& attribute) const
{
    auto it = m_sources.find(Declared(attribute));
    return it == m_sources.end() ? "" : it->second.givenAs;
}

std::string
FeroceCommandLine::GetDefault(const std::string& attribute)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (LookupAttribute(Declared(attribute), tid, info))
    {
        return info.initialValue->SerializeToString(info.checker);
    }
    return "";
}

bool
FeroceCommandLine::RefuseType(const std::string& type, const std::string& why)
{
    TypeId refused;
    if (!TypeId::LookupByNameFailSafe(type, &refused))
    {
        return false;
    }
    auto isRefused = [&refused](const std::string& attribute) {
        TypeId tid;
        TypeId::AttributeInformation info;
        return LookupAttribute(attribute, tid, info) && (tid == refused || refused.IsChildOf(tid));
    };
    for (auto& a : m_attributes)
    {
        if (isRefused(a.first))
        {
            Reject("--" + a.first + "=" + Printable(a.second) + " is not allowed: " + why +
                   kHelpPointer);
            return true;
        }
    }
    // a flag bound to an attribute of the type would be as silently ignored
    for (auto& f : m_flags)
    {
        if (f.given && (isRefused(f.attribute) || isRefused(f.sets)))
        {
            Reject("--" + f.name + (f.text.empty() ? "" : "=" + Printable(f.text)) +
                   " is not allowed: " + why + kHelpPointer);
            return true;
        }
    }
    return false;
}

// ---- warnings -------------------------------------------------------------------------------

void
FeroceCommandLine::Warn(const std::string& text)
{
    m_warnings.push_back(Printable(text));
}

const std::vector<std::string>&
FeroceCommandLine::GetWarnings() const
{
    return m_warnings;
}

void
FeroceCommandLine::PrintWarnings()
{
    if (m_warningsPrinted)
    {
        return;
    }
    m_warningsPrinted = true;
    for (const std::string& w : m_warnings)
    {
        std::cerr << m_program << ": warning: " << w << std::endl;
    }
}

// ---- what was given -------------------------------------------------------------------------

bool
FeroceCommandLine::IsGiven(const std::string& name) const
{
    const Flag* f = FindFlag(name);
    return f && f->given;
}

std::string
FeroceCommandLine::GetText(const std::string& name) const
{
    const Flag* f = FindFlag(name);
    return !f ? "" : f->given ? Printable(f->text) : f->format();
}

const std::string&
FeroceCommandLine::GetCommand() const
{
    return m_command;
}

const std::string&
FeroceCommandLine::GetProgram() const
{
    return m_program;
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

// ---- the audit (tests) ----------------------------------------------------------------------

void
FeroceCommandLine::Audit(const std::string& when) const
{
    using CountFn = std::size_t (*)();
    using ObjectFn = Object* (*)(std::size_t);
    auto count = reinterpret_cast<CountFn>(dlsym(RTLD_DEFAULT, "feroce_audit_count"));
    auto object = reinterpret_cast<ObjectFn>(dlsym(RTLD_DEFAULT, "feroce_audit_object"));
    if (!count || !object)
    {
        return; // not a test run
    }
    std::size_t n = count();
    auto fail = [this](const std::string& what) {
        std::cerr << m_program << ": audit: " << what << std::endl;
        std::exit(3);
    };
    if (n <= m_auditFrom)
    {
        fail("no object was created " + when + ": the audit sees nothing");
    }
    for (auto& s : m_sources)
    {
        const std::string& attribute = s.first;
        bool owned = IsOwned(attribute);
        TypeId tid;
        TypeId::AttributeInformation info;
        if (owned || s.second.source == FeroceSource::Default ||
            !LookupAttribute(attribute, tid, info) || !(info.flags & TypeId::ATTR_GET) ||
            !info.accessor->HasGetter())
        {
            continue;
        }
        Ptr<AttributeValue> want = info.checker->CreateValidValue(StringValue(s.second.canonical));
        std::string wanted = want->SerializeToString(info.checker);
        std::size_t holders = 0;
        for (std::size_t i = m_auditFrom; i < n; i++)
        {
            Object* o = object(i);
            TypeId type = o->GetInstanceTypeId();
            if (type != tid && !type.IsChildOf(tid))
            {
                continue;
            }
            holders++;
            Ptr<AttributeValue> have = info.checker->Create();
            o->GetAttribute(info.name, *have);
            std::string held = have->SerializeToString(info.checker);
            if (held != wanted)
            {
                fail(s.second.givenAs + " is not honoured " + when + ": a " + type.GetName() +
                     " holds " + info.name + " = " + held + " (expected " + wanted + ")");
            }
        }
        if (holders == 0 && s.second.source >= FeroceSource::Flag && when == "after the run")
        {
            fail(s.second.givenAs + " is not honoured: the program created no " + tid.GetName());
        }
    }
}

} // namespace ns3
