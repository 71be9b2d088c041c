/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The front door's values (src/feroce/doc/input-grammar.md): how a flag's text is read (numbers
// by the core's feroce-number.h), recorded (params.txt, the row), given to ns-3 and described in
// a message.

#include "feroce-command-line.h"

#include "ns3/feroce-number.h"

#include <cmath>

namespace ns3
{

namespace
{

/// A finite decimal number at the head of text (feroce-number.h); the rest (a unit) in *rest,
/// or nothing left.
bool
ParseNumber(const std::string& text, double& v, std::string* rest)
{
    const char* after = nullptr;
    if (feroce_number_real(text.c_str(), &v, rest ? &after : nullptr) != 0)
    {
        return false;
    }
    if (rest)
    {
        *rest = after;
    }
    return true;
}

/// A whole number by the grammar (feroce-number.h): decimal, 0x hex, or an exponent that is
/// whole.  *negative for a '-'.
bool
ParseWhole(const std::string& text, uint64_t& magnitude, bool& negative)
{
    int minus = 0;
    bool ok = text.find('\0') == std::string::npos &&
              feroce_number_whole(text.c_str(), &magnitude, &minus) == 0;
    negative = minus != 0;
    return ok;
}

template <typename U>
std::string
ParseUnsigned(const std::string& text, U& v)
{
    std::string allowed = "a whole number 0.." + std::to_string(std::numeric_limits<U>::max());
    uint64_t x = 0;
    bool negative = false;
    if (!ParseWhole(text, x, negative) || (negative && x != 0) || x > std::numeric_limits<U>::max())
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
    uint64_t x = 0;
    bool negative = false;
    if (!ParseWhole(text, x, negative))
    {
        return allowed;
    }
    uint64_t limit = negative ? uint64_t(std::numeric_limits<S>::max()) + 1
                              : uint64_t(std::numeric_limits<S>::max());
    if (x > limit)
    {
        return allowed;
    }
    v = negative ? static_cast<S>(-static_cast<int64_t>(x - 1) - 1) : static_cast<S>(x);
    return "";
}

/// The best unit for t: the largest in which it is whole.
std::string
TimeText(const Time& t)
{
    int64_t ns = t.GetNanoSeconds();
    if (ns == 0)
    {
        return "0";
    }
    static const std::pair<int64_t, const char*> units[] = {{1000000000, "s"},
                                                            {1000000, "ms"},
                                                            {1000, "us"},
                                                            {1, "ns"}};
    for (auto& u : units)
    {
        if (ns % u.first == 0)
        {
            return std::to_string(ns / u.first) + u.second;
        }
    }
    return std::to_string(ns) + "ns";
}

} // namespace

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
    return ParseNumber(text, v, nullptr) ? "" : "a finite decimal number";
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
FeroceCommandLine::ParseText(const std::string& text, TimeSpan& v)
{
    std::size_t colon = text.find(':');
    if (colon == std::string::npos || !ParseText(text.substr(0, colon), v.start).empty() ||
        !ParseText(text.substr(colon + 1), v.stop).empty() || v.stop <= v.start)
    {
        return "start:stop with 0 <= start < stop (e.g. 0ms:30ms)";
    }
    return "";
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

std::string
FeroceCommandLine::Format(const TimeSpan& s)
{
    return TimeText(s.start) + ":" + TimeText(s.stop);
}

std::string
FeroceCommandLine::Canonical(const Time& t)
{
    return std::to_string(t.GetNanoSeconds()) + "ns";
}

std::string
FeroceCommandLine::Canonical(const DataRate& r)
{
    return std::to_string(r.GetBitRate()) + "bps";
}

std::string
FeroceCommandLine::Canonical(bool b)
{
    return b ? "true" : "false";
}

std::string
FeroceCommandLine::Canonical(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string
FeroceCommandLine::Canonical(uint8_t v)
{
    return std::to_string(v);
}

std::string
FeroceCommandLine::Describe(const Time& t)
{
    return TimeText(t);
}

std::string
FeroceCommandLine::Describe(const DataRate& r)
{
    uint64_t bps = r.GetBitRate();
    static const std::pair<uint64_t, const char*> units[] = {{1000000000000ULL, "Tbps"},
                                                             {1000000000ULL, "Gbps"},
                                                             {1000000ULL, "Mbps"},
                                                             {1000ULL, "kbps"}};
    for (auto& u : units)
    {
        if (bps != 0 && bps % u.first == 0)
        {
            return std::to_string(bps / u.first) + u.second;
        }
    }
    return std::to_string(bps) + "bps";
}

std::string
FeroceCommandLine::Describe(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string
FeroceCommandLine::Describe(uint8_t v)
{
    return std::to_string(v);
}

std::string
FeroceCommandLine::Printable(const std::string& text)
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

} // namespace ns3
