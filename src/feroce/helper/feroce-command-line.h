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

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * Where the value of an ns-3 attribute came from, lowest first (precedence: a source never
 * replaces a value set by a higher one).  Presets sit between Default and Program: the model
 * applies a preset when it creates an object, then every default changed by a source above it
 * (ApplyChangedDefaults).
 */
enum class FeroceSource
{
    Default,  ///< the attribute's own initial value
    Program,  ///< a flag's default, FeroceCommandLine::SetBeneath: the program's own choice
    Scenario, ///< a scenario or topology file
    Flag,     ///< a study flag given on the command line
    User,     ///< --ns3::Type::Attribute=value on the command line
};

/// A time interval "start:stop" of a list flag (e.g. a board's schedule).
struct TimeSpan
{
    Time start;
    Time stop;
};

/**
 * \ingroup feroce
 * The front door of a feroce program (src/feroce/doc/input-grammar.md): every flag and every
 * --ns3:: value is parsed here, by one grammar, range-checked and applied as an attribute
 * default, by precedence, before any object exists.  Every bad input is one line on stderr
 * naming the flag, the value as typed and what is allowed, exit status 2, before anything is
 * simulated or written.
 *
 *   uint32_t boards = 3;
 *   cmd.AddValue("boards", "Front-end boards", boards).Range(1, 1000);
 *   uint64_t kmin = 5000;
 *   cmd.AddValue("kmin", "ECN Kmin bytes", kmin).Attribute("ns3::FeroceSwitch::Kmin");
 *   std::vector<uint32_t> depths;
 *   cmd.AddList("depths", "Send-queue depths", depths, "1:32").Range(1, 1024).Distinct();
 *   if (!cmd.Parse(argc, argv)) return cmd.GetExitCode();
 *
 * --help, --PrintHelp, --PrintAttributes=TYPE and the rest of ns-3's help go to ns-3's
 * CommandLine (after the front door checked their argument), which prints and exits 0.
 */
class FeroceCommandLine
{
    struct Flag;

  public:
    /// The handle AddValue returns: what the flag allows and what it sets (chainable).
    template <typename T>
    class Handle
    {
      public:
        Handle(FeroceCommandLine* cmd, std::size_t index, T* value)
            : m_cmd(cmd),
              m_index(index),
              m_value(value)
        {
        }

        /// Allowed: lo..hi (inclusive).
        Handle& Range(const T& lo, const T& hi);
        /// Allowed: >= lo.
        Handle& AtLeast(const T& lo);
        /// Allowed: one of these texts (string flags).
        Handle& OneOf(const std::vector<std::string>& names);
        /// Allowed when check returns "" (else what is allowed, as "expected ...").
        Handle& Check(std::function<std::string(const T&)> check);
        /// The flag's value is attribute's default (precedence: FeroceSource::Flag when given,
        /// Program otherwise); --ns3::attribute given instead of the flag is its value.
        Handle& Attribute(const std::string& attribute);
        /// This value of the flag sets nothing (e.g. 0: "the preset's").
        Handle& Unset(const T& value);
        /// A flag in other units: sets attribute through convert (the value as ns-3 text);
        /// --ns3::attribute is refused, naming the flag.
        Handle& Sets(const std::string& attribute, std::function<std::string(const T&)> convert);
        /// The program sets attribute per object from this flag: --ns3::attribute is refused.
        Handle& Owns(const std::string& attribute);
        /// The flag names a file the run reads (a topology, a configuration): its content decides
        /// the results, so a sweep point's key covers it (--PrintInputs).
        Handle& InputFile();

      private:
        Flag& Get();
        FeroceCommandLine* m_cmd;
        std::size_t m_index;
        T* m_value;
    };

    /// The handle AddList returns.
    template <typename T>
    class ListHandle
    {
      public:
        ListHandle(FeroceCommandLine* cmd, std::size_t index, std::vector<T>* out)
            : m_cmd(cmd),
              m_index(index),
              m_out(out)
        {
        }

        /// Every item within lo..hi.
        ListHandle& Range(const T& lo, const T& hi);
        /// No item twice.
        ListHandle& Distinct();
        /// Items sorted ascending after parsing.
        ListHandle& Sorted();
        /// Exactly n items (n computed when checked: a count another flag gives), named so.
        ListHandle& Count(std::function<std::size_t()> n,
                          const std::string& items = "comma-separated values");
        /// Each item allowed when check returns "" (else what is allowed).
        ListHandle& Check(std::function<std::string(const T&)> check);
        /// The whole list allowed when check returns "" (else what is allowed).
        ListHandle& CheckAll(std::function<std::string(const std::vector<T>&)> check);
        /// What is allowed, instead of the text the checks compose.
        ListHandle& Allowed(const std::string& allowed);

      private:
        Flag& Get();
        FeroceCommandLine* m_cmd;
        std::size_t m_index;
        std::vector<T>* m_out;
    };

    FeroceCommandLine(const std::string& program, const std::string& usage);

    /// A program flag `--name=value` (a bool also `--name`).
    template <typename T>
    Handle<T> AddValue(const std::string& name, const std::string& help, T& value);
    /// The former form: AddValue(name, help, value).Attribute(attribute) when attribute is given.
    template <typename T>
    Handle<T> AddValue(const std::string& name,
                       const std::string& help,
                       T& value,
                       const std::string& attribute);
    /**
     * A list flag `--name=a,b,c` (whole numbers also `lo:hi`), parsed into out item by item
     * with the grammar of T; defaultText is parsed like a given value.
     */
    template <typename T>
    ListHandle<T> AddList(const std::string& name,
                          const std::string& help,
                          std::vector<T>& out,
                          const std::string& defaultText);

    /// The program sets attribute through flag (in other units): --ns3::attribute is refused.
    void Owns(const std::string& attribute, const std::string& flag);
    /// The program sets attribute itself: --ns3::attribute is refused ("not honoured").
    void Owns(const std::string& attribute);
    /// Whether the program sets attribute per object (Owns).
    bool IsOwned(const std::string& attribute) const;
    /// The model derives attribute from another value (why): --ns3::attribute is refused.
    void Derived(const std::string& attribute, const std::string& why);
    /**
     * The types of the objects the program creates (a type's attributes are accepted when it
     * or one of its children is listed); --ns3:: of any other type is refused.  Unset: all.
     */
    void Uses(const std::vector<std::string>& types);

    /// False (with the message printed) when the program must exit with GetExitCode().
    bool Parse(int argc, char** argv);
    int GetExitCode() const;
    /// Prints "<program>: <message>" on stderr; returns the exit code of a bad input (2).
    int Reject(const std::string& message);
    /// Reject("--NAME=VALUE is not allowed: expected ALLOWED"), the value as typed.
    int RejectFlag(const std::string& name, const std::string& allowed);

    /**
     * Sets attribute's default to text (checked by the grammar and the attribute's checker),
     * unless a source above source already set it.  "" when set or left to a higher source,
     * else the message.  who: the name a message gives the value (a flag's, "topology.txt:3");
     * typed: the value as the user wrote it (text otherwise).  An attribute a type inherits is
     * set on the type that declares it (ns-3 keeps one default per attribute).
     */
    std::string SetDefault(const std::string& attribute,
                           const std::string& text,
                           FeroceSource source,
                           const std::string& who = "",
                           const std::string& typed = "");
    /// The program's own setting, beneath anything the user gave (FeroceSource::Program).
    std::string SetBeneath(const std::string& attribute, const std::string& text);
    /// A scenario or topology file's value of attribute (FeroceSource::Scenario), where: how a
    /// message names it ("topology.txt:3").
    std::string SetFromFile(const std::string& attribute,
                            const std::string& text,
                            const std::string& where);
    /**
     * A scenario file's value of a program flag: taken unless the flag (or its attribute) is on
     * the command line, parsed and checked like a value typed there; a flag bound to an attribute
     * sets it as FeroceSource::Scenario.  Call it from the scenario reader.  "" or the message.
     */
    std::string SetFlagFromFile(const std::string& name,
                                const std::string& text,
                                const std::string& where);
    /**
     * reader runs inside Parse once the command line is read and before the flags are checked
     * and applied: it reads a scenario file (whose name a flag gave) and calls SetFlagFromFile and
     * SetFromFile; it returns "" or the message refusing the file.
     */
    void SetScenarioReader(std::function<std::string()> reader);
    /**
     * A file the run reads that a scenario file names (not a flag): the scenario reader declares
     * it, so that --PrintInputs lists it.  With --PrintInputFlags the program prints the names of
     * its InputFile() flags and exits 0; with --PrintInputs (and the other flags of a run) it
     * reads the scenario as a run would, prints every file the run would read, one a line (the
     * InputFile() flags' values, then the files declared here), and exits 0 without running.
     * feroce-sweep hashes those files' content into a point's key.
     */
    void AddInputFile(const std::string& path);
    /// The source that set attribute (Default if none).
    FeroceSource GetSource(const std::string& attribute) const;
    /// How the value of attribute was given ("--kmin=7000", "--ns3::FeroceSwitch::Kmin=7000").
    std::string GetGivenAs(const std::string& attribute) const;
    /// attribute's default now, as ns-3 text.
    static std::string GetDefault(const std::string& attribute);
    /// Refuses (true: message printed) an attribute of type the user gave: why, e.g. "this
    /// program builds no switch without --viaSwitch".
    bool RefuseType(const std::string& type, const std::string& why);

    /// An odd setting: one line on stderr ("<program>: warning: text") when PrintWarnings runs,
    /// recorded with the run (params.txt, the row's warnings column).
    void Warn(const std::string& text);
    const std::vector<std::string>& GetWarnings() const;
    /// Prints the warnings (once every check has passed).
    void PrintWarnings();

    /// Whether the flag (or the attribute bound to it) was on the command line.
    bool IsGiven(const std::string& name) const;
    /// The flag's value as typed (or as used, when not given).
    std::string GetText(const std::string& name) const;
    /// The command line as typed.
    const std::string& GetCommand() const;
    const std::string& GetProgram() const;
    /// Every flag and its value as used, in the order of AddValue.
    std::vector<std::pair<std::string, std::string>> GetValues() const;
    /// The ns-3 attributes and global values given, as typed ("ns3::Type::Attr", "20ms").
    const std::vector<std::pair<std::string, std::string>>& GetAttributes() const;

    /**
     * The test-time check that every object the program created holds the value each attribute
     * it was given (by the user, a flag or the program) unless the program owns it: active only
     * when the audit library is loaded (tests: FEROCE_AUDIT, src/feroce/test/audit).  A failure
     * prints one line and exits with status 3.  FeroceStudy calls it before and after the run.
     */
    void Audit(const std::string& when) const;

    /// Parsers of flag values by the one grammar: "" when text is one, else what is allowed.
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
    static std::string ParseText(const std::string& text, TimeSpan& v);

    /// How a value is recorded (params.txt, the row): times in seconds, bools 0/1.
    static std::string Format(const Time& t);
    static std::string Format(const DataRate& r);
    static std::string Format(bool b);
    static std::string Format(uint8_t v);
    static std::string Format(const TimeSpan& s);
    template <typename T>
    static std::string Format(const T& v);
    /// How a value is given to ns-3 (an attribute's text): times in ns, rates in bps.
    static std::string Canonical(const Time& t);
    static std::string Canonical(const DataRate& r);
    static std::string Canonical(bool b);
    static std::string Canonical(double v);
    static std::string Canonical(uint8_t v);
    template <typename T>
    static std::string Canonical(const T& v);
    /// How a bound in an "expected lo..hi" reads: a time with its unit, a rate in bps.
    static std::string Describe(const Time& t);
    static std::string Describe(const DataRate& r);
    static std::string Describe(double v);
    static std::string Describe(uint8_t v);
    template <typename T>
    static std::string Describe(const T& v);

    /// The value as typed, control characters escaped (one line, nothing raw).
    static std::string Printable(const std::string& text);

  private:
    struct Flag
    {
        std::string name;
        std::string attribute; ///< Attribute(): the value is this attribute's default
        std::string sets;      ///< Sets(): the attribute set in other units
        std::function<std::string(const std::string&)> parse; ///< text into the value
        std::function<std::string()> check;                   ///< range: "" or allowed
        std::function<std::string()> format;                  ///< as recorded
        std::function<std::string()> canonical;               ///< as ns-3 text, "" if unset
        std::string defaultText;                              ///< a list's default, parsed at Parse
        std::string wholeRange; ///< Range() of a whole-number flag: said when the text is not one
        std::string text;       ///< as typed, when given
        bool isBool{false};
        bool isList{false};
        bool fromFile{false}; ///< SetFlagFromFile gave it
        bool given{false};
        bool inputFile{false}; ///< InputFile(): names a file the run reads
    };

    Flag* FindFlag(const std::string& name);
    const Flag* FindFlag(const std::string& name) const;
    std::size_t AddFlag(Flag f);
    /// Checks value for attribute or global name, into *canonical (ns-3 text); "" or the
    /// message naming the flag who.
    std::string CheckAttribute(const std::string& name,
                               const std::string& value,
                               const std::string& who,
                               std::string* canonical) const;
    /// The refusal of --ns3::name=value (owned, derived, a type not built), or "".
    std::string Refusal(const std::string& name, const std::string& value) const;
    std::string Bad(const std::string& name,
                    const std::string& value,
                    const std::string& why) const;
    /// ns-3's help, after its argument (a type name) was checked.
    bool Help(int argc, char** argv);
    /// The argument list into flags and attributes; false (rejected) on a bad one.
    bool ParseArguments(int argc, char** argv);
    /// The sources applied: attributes given, flags, flags' defaults.
    bool ApplySources();

    std::string m_program;
    CommandLine m_help;
    std::vector<Flag> m_flags;
    std::vector<std::pair<std::string, std::string>> m_owned;   ///< attribute, flag ("" itself)
    std::vector<std::pair<std::string, std::string>> m_derived; ///< attribute, why
    std::vector<std::string> m_uses;
    bool m_usesDeclared{false};
    std::vector<std::pair<std::string, std::string>> m_attributes; ///< given, as typed

    struct Source
    {
        FeroceSource source{FeroceSource::Default};
        std::string givenAs;
        std::string canonical;
    };

    std::map<std::string, Source> m_sources; ///< by attribute name
    std::vector<std::string> m_warnings;
    std::function<std::string()> m_scenarioReader;
    std::vector<std::string> m_inputFiles; ///< AddInputFile's
    /// --PrintInputFlags or --PrintInputs (taken out of the arguments): prints, exits 0.
    bool PrintInputs(int argc, char** argv);
    std::deque<std::string> m_helpTexts; ///< what --help shows of the lists
    bool m_warningsPrinted{false};
    std::size_t m_auditFrom{0}; ///< objects created before Parse are not the program's
    std::string m_command;
    int m_exitCode{0};
};

template <typename T>
typename FeroceCommandLine::Handle<T>
FeroceCommandLine::AddValue(const std::string& name, const std::string& help, T& value)
{
    m_help.AddValue(name, help, value);
    Flag f;
    f.name = name;
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
    f.canonical = [&value]() { return Canonical(value); };
    return Handle<T>(this, AddFlag(f), &value);
}

template <typename T>
typename FeroceCommandLine::Handle<T>
FeroceCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            T& value,
                            const std::string& attribute)
{
    Handle<T> h = AddValue(name, attribute.empty() ? help : help + " [" + attribute + "]", value);
    if (!attribute.empty())
    {
        h.Attribute(attribute);
    }
    return h;
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>
FeroceCommandLine::AddList(const std::string& name,
                           const std::string& help,
                           std::vector<T>& out,
                           const std::string& defaultText)
{
    m_helpTexts.push_back(defaultText);
    m_help.AddValue(name, help, m_helpTexts.back());
    Flag f;
    f.name = name;
    f.isList = true;
    f.defaultText = defaultText;
    f.text = defaultText;
    f.parse = [&out](const std::string& text) {
        std::vector<T> items;
        std::string why;
        std::istringstream list(text);
        std::string item;
        if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value)
        {
            std::size_t colon = text.find(':');
            if (colon != std::string::npos && text.find(',') == std::string::npos)
            {
                // lo:hi, every whole number between
                T lo{};
                T hi{};
                if (!ParseText(text.substr(0, colon), lo).empty() ||
                    !ParseText(text.substr(colon + 1), hi).empty() || lo > hi ||
                    uint64_t(hi) - uint64_t(lo) >= 1000000)
                {
                    return std::string("lo:hi with lo <= hi (at most 1000000 values), or a "
                                       "comma list");
                }
                for (T v = lo;; v++)
                {
                    items.push_back(v);
                    if (v == hi)
                    {
                        break;
                    }
                }
                out = items;
                return std::string();
            }
        }
        if (text.empty())
        {
            out.clear(); // none
            return std::string();
        }
        if (text.back() == ',')
        {
            return std::string("a comma-separated list without empty items");
        }
        while (std::getline(list, item, ','))
        {
            T v{};
            why = item.empty() ? "a comma-separated list without empty items" : ParseText(item, v);
            if (!why.empty())
            {
                return item.empty() ? why : "items " + why + " (" + Printable(item) + " is not)";
            }
            items.push_back(v);
        }
        out = items;
        return std::string();
    };
    f.format = [this, name]() { return FindFlag(name)->text; };
    f.canonical = []() { return std::string(); };
    f.check = []() { return std::string(); };
    return ListHandle<T>(this, AddFlag(f), &out);
}

template <typename T>
typename FeroceCommandLine::Flag&
FeroceCommandLine::Handle<T>::Get()
{
    return m_cmd->m_flags[m_index];
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Check(std::function<std::string(const T&)> check)
{
    T* value = m_value;
    std::function<std::string()> before = Get().check;
    Get().check = [before, check, value]() {
        std::string why = before ? before() : "";
        return why.empty() ? check(*value) : why;
    };
    return *this;
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Range(const T& lo, const T& hi)
{
    if (std::is_integral<T>::value && !std::is_same<T, bool>::value)
    {
        Get().wholeRange = "a whole number " + Describe(lo) + ".." + Describe(hi);
    }
    return Check([lo, hi](const T& v) {
        return lo <= v && v <= hi ? std::string() : Describe(lo) + ".." + Describe(hi);
    });
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::AtLeast(const T& lo)
{
    return Check([lo](const T& v) { return lo <= v ? std::string() : ">= " + Describe(lo); });
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::OneOf(const std::vector<std::string>& names)
{
    return Check([names](const T& v) {
        std::ostringstream s;
        s << v;
        std::string allowed;
        for (std::size_t i = 0; i < names.size(); i++)
        {
            if (names[i] == s.str())
            {
                return std::string();
            }
            allowed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
        }
        return allowed;
    });
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Attribute(const std::string& attribute)
{
    Get().attribute = attribute;
    return *this;
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Unset(const T& unset)
{
    T* value = m_value;
    Get().canonical = [value, unset]() {
        return *value == unset ? std::string() : Canonical(*value);
    };
    return *this;
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Sets(const std::string& attribute,
                                   std::function<std::string(const T&)> convert)
{
    T* value = m_value;
    std::function<std::string()> unset = Get().canonical;
    Get().sets = attribute;
    Get().canonical = [value, unset, convert]() {
        return unset().empty() ? std::string() : convert(*value);
    };
    m_cmd->Owns(attribute, Get().name);
    return *this;
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::Owns(const std::string& attribute)
{
    m_cmd->Owns(attribute, Get().name);
    return *this;
}

template <typename T>
typename FeroceCommandLine::Handle<T>&
FeroceCommandLine::Handle<T>::InputFile()
{
    Get().inputFile = true;
    return *this;
}

template <typename T>
typename FeroceCommandLine::Flag&
FeroceCommandLine::ListHandle<T>::Get()
{
    return m_cmd->m_flags[m_index];
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::CheckAll(std::function<std::string(const std::vector<T>&)> check)
{
    std::vector<T>* out = m_out;
    std::function<std::string()> before = Get().check;
    Get().check = [before, check, out]() {
        std::string why = before();
        return why.empty() ? check(*out) : why;
    };
    return *this;
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Check(std::function<std::string(const T&)> check)
{
    return CheckAll([check](const std::vector<T>& items) {
        for (const T& v : items)
        {
            std::string why = check(v);
            if (!why.empty())
            {
                return why + " for each item (" + Describe(v) + " is not)";
            }
        }
        return std::string();
    });
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Range(const T& lo, const T& hi)
{
    return Check([lo, hi](const T& v) {
        return lo <= v && v <= hi ? std::string() : Describe(lo) + ".." + Describe(hi);
    });
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Distinct()
{
    return CheckAll([](const std::vector<T>& items) {
        for (std::size_t i = 0; i < items.size(); i++)
        {
            for (std::size_t j = 0; j < i; j++)
            {
                if (!(items[i] < items[j]) && !(items[j] < items[i]))
                {
                    return std::string("distinct items");
                }
            }
        }
        return std::string();
    });
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Sorted()
{
    std::vector<T>* out = m_out;
    return CheckAll([out](const std::vector<T>&) {
        std::sort(out->begin(), out->end());
        return std::string();
    });
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Count(std::function<std::size_t()> n, const std::string& noun)
{
    return CheckAll([n, noun](const std::vector<T>& items) {
        std::size_t want = n();
        return items.size() == want
                   ? std::string()
                   : std::to_string(want) + " " + noun + ", got " + std::to_string(items.size());
    });
}

template <typename T>
typename FeroceCommandLine::ListHandle<T>&
FeroceCommandLine::ListHandle<T>::Allowed(const std::string& allowed)
{
    std::function<std::string()> before = Get().check;
    Get().check = [before, allowed]() { return before().empty() ? std::string() : allowed; };
    // a parse error reads the same
    std::function<std::string(const std::string&)> parse = Get().parse;
    Get().parse = [parse, allowed](const std::string& text) {
        return parse(text).empty() ? std::string() : allowed;
    };
    return *this;
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

template <typename T>
std::string
FeroceCommandLine::Canonical(const T& v)
{
    return Format(v);
}

template <typename T>
std::string
FeroceCommandLine::Describe(const T& v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace ns3

#endif /* FEROCE_COMMAND_LINE_H */
