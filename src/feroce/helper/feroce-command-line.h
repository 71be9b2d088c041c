/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_COMMAND_LINE_H
#define FEROCE_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * The command line of a feroce program, strict: every bad input is one line on
 * stderr naming the flag, the value as typed and what is allowed, then a pointer
 * to --help, and exit status 2, before anything is simulated or written.
 *
 * - program flags `--name=value` (a bool also as `--name`), parsed by type:
 *   counts are whole numbers without sign, numbers are finite, times need a unit
 *   (`30ms`; units s, ms, us, ns, ps, min, h), rates a unit (`10Gbps`);
 * - ns-3 attributes `--ns3::Type::Attribute=value` and global values
 *   (`--RngRun=2`), checked like ns-3 would but without its aborts, and set as
 *   defaults (Config::SetDefault);
 * - a flag that sets an ns-3 attribute (AddValue's attribute) takes the
 *   attribute's value when the attribute is given instead of the flag; giving
 *   both is refused, and so is an attribute the program sets through a flag of
 *   another unit (Owns);
 * - --help, --PrintHelp, --PrintAttributes=... and the rest of ns-3's help go to
 *   ns-3's CommandLine, which prints and exits 0.
 */
class FeroceCommandLine
{
  public:
    FeroceCommandLine(const std::string& program, const std::string& usage);

    /**
     * A program flag.  attribute (e.g. "ns3::RoceQueuePair::AckTimeout"): the
     * ns-3 attribute this flag sets, whose command-line value the flag then takes.
     */
    template <typename T>
    void AddValue(const std::string& name,
                  const std::string& help,
                  T& value,
                  const std::string& attribute = "");

    /// The program sets attribute through flag (in other units): the attribute is refused.
    void Owns(const std::string& attribute, const std::string& flag);

    /// False (with the message printed) when the program must exit with GetExitCode().
    bool Parse(int argc, char** argv);
    int GetExitCode() const;
    /// Prints "<program>: <message>" on stderr; returns the exit code of a bad input (2).
    int Reject(const std::string& message);

    /// Whether the flag (or the attribute bound to it) was on the command line.
    bool IsGiven(const std::string& name) const;
    /// The flag's value as typed (or as used, when not given).
    std::string GetText(const std::string& name) const;
    /// The command line as typed.
    const std::string& GetCommand() const;
    /// Every flag and its value as used, in the order of AddValue.
    std::vector<std::pair<std::string, std::string>> GetValues() const;
    /// The ns-3 attributes and global values given, as typed ("ns3::Type::Attr", "20ms").
    const std::vector<std::pair<std::string, std::string>>& GetAttributes() const;

    /**
     * An empty string when every command-line attribute is what the objects of its
     * type in the simulation (reachable from the NodeList) hold; else the message
     * naming the first one the program overwrote.
     */
    std::string CheckAttributesHonoured() const;

    /// Parsers of flag values: "" when text is one, else what is allowed.
    static std::string ParseText(const std::string& text, bool& v);
    static std::string ParseText(const std::string& text, uint8_t& v);
    static std::string ParseText(const std::string& text, uint16_t& v);
    static std::string ParseText(const std::string& text, uint32_t& v);
    static std::string ParseText(const std::string& text, uint64_t& v);
    static std::string ParseText(const std::string& text, int32_t& v);
    static std::string ParseText(const std::string& text, int64_t& v);
    static std::string ParseText(const std::string& text, double& v);
    static std::string ParseText(const std::string& text, std::string& v);
    static std::string ParseText(const std::string& text, Time& v);
    static std::string ParseText(const std::string& text, DataRate& v);

    /// How a value is recorded (params.txt, the row): times in seconds, bools 0/1.
    static std::string Format(const Time& t);
    static std::string Format(const DataRate& r);
    static std::string Format(bool b);
    static std::string Format(uint8_t v);
    template <typename T>
    static std::string Format(const T& v);

  private:
    struct Flag
    {
        std::string name;
        std::string attribute;
        std::function<std::string(const std::string&)> parse;
        std::function<std::string()> format;
        std::string text; ///< as typed, when given
        bool isBool{false};
        bool given{false};
    };

    Flag* FindFlag(const std::string& name);
    /// Checks and sets an ns-3 attribute default or global value; "" or the message.
    std::string SetAttribute(const std::string& name, const std::string& value);
    /// Checks value for attribute (or global value) name; the message names flag; set: as default.
    std::string CheckAttribute(const std::string& name,
                               const std::string& value,
                               const std::string& flag,
                               bool set);
    std::string Bad(const std::string& name, const std::string& value, const std::string& why);

    std::string m_program;
    CommandLine m_help;
    std::vector<Flag> m_flags;
    std::vector<std::pair<std::string, std::string>> m_owned; ///< attribute, flag
    std::vector<std::pair<std::string, std::string>> m_attributes;
    std::string m_command;
    int m_exitCode{0};
};

template <typename T>
void
FeroceCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            T& value,
                            const std::string& attribute)
{
    m_help.AddValue(name, attribute.empty() ? help : help + " [" + attribute + "]", value);
    Flag f;
    f.name = name;
    f.attribute = attribute;
    f.isBool = std::is_same<T, bool>::value;
    f.parse = [&value](const std::string& text) {
        T parsed{};
        std::string why = ParseText(text, parsed);
        if (why.empty())
        {
            value = parsed;
        }
        return why;
    };
    f.format = [&value]() { return Format(value); };
    m_flags.push_back(f);
}

template <typename T>
std::string
FeroceCommandLine::Format(const T& v)
{
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

} // namespace ns3

#endif /* FEROCE_COMMAND_LINE_H */
