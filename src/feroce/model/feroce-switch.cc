/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-switch.h"

#include "feroce-attributes.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/feroce-check.h"
#include "ns3/feroce-text.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceSwitch");
NS_OBJECT_ENSURE_REGISTERED(FeroceSwitch);

namespace
{
uint64_t
MacKey(const uint8_t* mac)
{
    uint64_t k = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // the six bytes big-endian: one load and a byte swap per frame, not a loop of shifts
    std::memcpy(&k, mac, 6);
    k = __builtin_bswap64(k) >> 16;
#else
    for (int i = 0; i < 6; i++)
    {
        k = k << 8 | mac[i];
    }
#endif
    return k;
}

/// The fields of a list "a,b,c" (sep ',') or of an entry "a:b:c" (sep ':'); "" gives none.
std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    if (s.empty())
    {
        return out;
    }
    std::istringstream in(s);
    std::string item;
    while (std::getline(in, item, sep))
    {
        out.push_back(item);
    }
    if (s.back() == sep)
    {
        out.emplace_back(); // a trailing separator leaves an empty field
    }
    return out;
}

/// A decimal integer in [lo, hi], nothing else.
bool
ParseUint(const std::string& s, uint64_t lo, uint64_t hi, uint64_t* v)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19)
    {
        return false;
    }
    *v = std::strtoull(s.c_str(), nullptr, 10);
    return *v >= lo && *v <= hi;
}

/// A finite decimal number, nothing else.
bool
ParseDouble(const std::string& s, double* v)
{
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0' && std::isfinite(*v);
}
} // namespace

TypeId
FeroceSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FeroceSwitch")
            .SetParent<Object>()
            .SetGroupName("Feroce")
            .AddConstructor<FeroceSwitch>()
            .AddAttribute("BufferSize",
                          "Packet buffer of the switch in bytes (reserves, headroom and shared)",
                          UintegerValue(12000000),
                          MakeUintegerAccessor(&FeroceSwitch::m_bufferSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReservePerQueue",
                          "Bytes reserved for each (ingress port, priority)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FeroceSwitch::m_reserve),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Headroom",
                          "Headroom bytes per (ingress port, lossless priority); 0: what the "
                          "largest port's link needs",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FeroceSwitch::m_headroom),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomCheck",
                          "Reject a Headroom below what the links need (false: accept it, to "
                          "study a switch configured with too little; its drops count as "
                          "DROP_LOSSLESS)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FeroceSwitch::m_headroomCheck),
                          MakeBooleanChecker())
            .AddAttribute("LosslessPriorities",
                          "Priorities protected by PFC, e.g. \"3\" or \"3,4\"",
                          StringValue("3"),
                          MakeStringAccessor(&FeroceSwitch::m_lossless),
                          MakeStringChecker())
            .AddAttribute("PfcEnabled",
                          "Send PFC PAUSE frames; false makes every priority lossy",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FeroceSwitch::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcMode",
                          "static (XoffBytes, XonBytes) or dynamic (PfcAlpha x free shared buffer)",
                          StringValue("dynamic"),
                          MakeStringAccessor(&FeroceSwitch::m_pfcMode),
                          MakeStringChecker())
            .AddAttribute("PfcAlpha",
                          "Dynamic threshold: XOFF when a class's shared bytes exceed alpha x free",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&FeroceSwitch::m_pfcAlpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("XoffBytes",
                          "Static threshold: XOFF above this many shared bytes of a class",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&FeroceSwitch::m_xoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonBytes",
                          "Static threshold: XON at or below this many shared bytes",
                          UintegerValue(50000),
                          MakeUintegerAccessor(&FeroceSwitch::m_xon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffset",
                          "Dynamic threshold: XON this many bytes below the XOFF threshold",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FeroceSwitch::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time of each PAUSE frame in 512-bit quanta (refreshed before it "
                          "ends)",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&FeroceSwitch::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PauseFrames",
                          "The pause frames the switch sends upstream: pfc (802.1Qbb, per "
                          "lossless class), 802.3x (link-level PAUSE: a port's traffic is one "
                          "class, the first lossless priority's, and its peer stops everything) "
                          "or both (PFC, and 802.3x while a class of the port is in XOFF)",
                          StringValue("pfc"),
                          MakeStringAccessor(&FeroceSwitch::m_pauseFrames),
                          MakeStringChecker())
            .AddAttribute("WatchdogDetect",
                          "PFC watchdog: an egress data queue holding frames while its peer "
                          "keeps it paused this long is in a storm; 0: no watchdog",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FeroceSwitch::m_watchdogDetect),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WatchdogRestore",
                          "PFC watchdog: a storm ends when no PAUSE for the queue has come for "
                          "this long",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&FeroceSwitch::m_watchdogRestore),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WatchdogAction",
                          "PFC watchdog: drop (discard what the queue holds and gets during the "
                          "storm) or forward (send it, ignoring the PAUSE)",
                          StringValue("drop"),
                          MakeStringAccessor(&FeroceSwitch::m_watchdogAction),
                          MakeStringChecker())
            .AddAttribute("EcnEnabled",
                          "Mark CE by the congestion point",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FeroceSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Kmin",
                          "Queue bytes below which nothing is marked",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&FeroceSwitch::m_kmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Kmax",
                          "Queue bytes at which the marking probability reaches Pmax (1 above)",
                          UintegerValue(200000),
                          MakeUintegerAccessor(&FeroceSwitch::m_kmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Pmax",
                          "Marking probability at Kmax",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&FeroceSwitch::m_pmax),
                          MakeDoubleChecker<double>())
            .AddAttribute("MarkPoint",
                          "dequeue (queue left behind a departing packet) or enqueue",
                          StringValue("dequeue"),
                          MakeStringAccessor(&FeroceSwitch::m_markPoint),
                          MakeStringChecker())
            .AddAttribute("UsePcp",
                          "Classify tagged frames by 802.1Q PCP instead of DscpMap",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FeroceSwitch::m_usePcp),
                          MakeBooleanChecker())
            .AddAttribute("DscpMap",
                          "Priority of data frames by DSCP, \"dscp:priority,...\" (e.g. "
                          "\"26:3,46:5\"); a DSCP not listed goes to DSCP / 8",
                          StringValue(""),
                          MakeStringAccessor(&FeroceSwitch::m_dscpMap),
                          MakeStringChecker())
            .AddAttribute("QueueWeights",
                          "Weighted round robin among the data priorities of a port: 8 weights "
                          "1..255 for priorities 0..7, \"w0,w1,...,w7\"",
                          StringValue("1,1,1,1,1,1,1,1"),
                          MakeStringAccessor(&FeroceSwitch::m_queueWeights),
                          MakeStringChecker())
            .AddAttribute("WrrQuantum",
                          "0: a priority's turn sends its weight in frames; > 0: its weight x "
                          "this many bytes (deficit round robin, byte-fair)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FeroceSwitch::m_wrrQuantum),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnPerQueue",
                          "ECN thresholds of some egress priorities instead of Kmin, Kmax and "
                          "Pmax, \"prio:kmin:kmax:pmax,...\" (bytes, bytes, probability), e.g. "
                          "\"3:20000:80000:0.1\"",
                          StringValue(""),
                          MakeStringAccessor(&FeroceSwitch::m_ecnPerQueue),
                          MakeStringChecker())
            .AddAttribute("EcnByRate",
                          "ECN thresholds by the egress port's link rate instead of Kmin, Kmax "
                          "and Pmax, \"rate:kmin:kmax:pmax,...\" (a rate with its unit, bytes, "
                          "bytes, probability), e.g. \"25Gbps:100000:400000:0.2,100Gbps:400000:"
                          "1600000:0.2\" (the HPCC simulator's KMIN_MAP, KMAX_MAP, PMAX_MAP); "
                          "EcnPerQueue's priorities keep their own",
                          StringValue(""),
                          MakeStringAccessor(&FeroceSwitch::m_ecnByRate),
                          MakeStringChecker())
            .AddAttribute("HeadroomPerPort",
                          "With Headroom 0: each port's lossless classes get what its own link "
                          "needs (2 x delay x rate + 2 frames + a PFC frame), not the longest "
                          "link's",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FeroceSwitch::m_headroomPerPort),
                          MakeBooleanChecker())
            .AddAttribute("HeadroomByRate",
                          "Headroom bytes by the port's link rate instead of Headroom, "
                          "\"rate:bytes,...\", e.g. \"100Gbps:60000,400Gbps:240000\"",
                          StringValue(""),
                          MakeStringAccessor(&FeroceSwitch::m_headroomByRate),
                          MakeStringChecker())
            .AddAttribute("EcmpSeed",
                          "Mixed into the ECMP hash of this switch: 0 hashes as before (every "
                          "switch alike, so stacked tiers pick alike: give each switch its own "
                          "seed, as the HPCC simulator seeds with the switch's id)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FeroceSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("QueueLength",
                            "Bytes in an egress queue (queue 8 = control) when it changes",
                            MakeTraceSourceAccessor(&FeroceSwitch::m_queueTrace),
                            "ns3::FeroceSwitch::QueueTracedCallback")
            .AddTraceSource("Drop",
                            "A dropped frame and why",
                            MakeTraceSourceAccessor(&FeroceSwitch::m_dropTrace),
                            "ns3::FeroceSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A frame marked CE",
                            MakeTraceSourceAccessor(&FeroceSwitch::m_ecnMarkTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Pause",
                            "A PAUSE (quanta > 0) or XON (0) sent upstream on a port",
                            MakeTraceSourceAccessor(&FeroceSwitch::m_pauseTrace),
                            "ns3::FeroceSwitch::PauseTracedCallback")
            .AddTraceSource("BufferOccupancy",
                            "Bytes in the buffer when it changes",
                            MakeTraceSourceAccessor(&FeroceSwitch::m_bufferTrace),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

FeroceSwitch::FeroceSwitch()
    : m_bufferSize(12000000),
      m_reserve(0),
      m_headroom(0),
      m_headroomCheck(true),
      m_pfcEnabled(true),
      m_pfcAlpha(1.0 / 8),
      m_xoff(100000),
      m_xon(50000),
      m_xonOffset(4096),
      m_pauseQuanta(0xffff),
      m_pauseFrames("pfc"),
      m_watchdogRestore(MilliSeconds(200)),
      m_watchdogAction("drop"),
      m_ecnEnabled(true),
      m_kmin(5000),
      m_kmax(200000),
      m_pmax(0.01),
      m_queueWeights("1,1,1,1,1,1,1,1"),
      m_wrrQuantum(0),
      m_losslessMask(0)
{
    m_uniform = CreateObject<FeroceUniformStream>();
    m_uniformStream = PeekPointer(m_uniform);
    for (uint8_t q = 0; q < 8; q++)
    {
        m_quantum[q] = 1;
    }
    uint8_t map[64];
    for (uint8_t d = 0; d < 64; d++)
    {
        map[d] = d >> 3;
    }
    SetDscpMap(map);
}

void
FeroceSwitch::SetDscpMap(const uint8_t* prio)
{
    for (int i = 0; i < 3; i++)
    {
        m_dscpBits[i] = 0;
        for (unsigned d = 0; d < 64; d++)
        {
            m_dscpBits[i] |= uint64_t(prio[d] >> i & 1) << d;
        }
    }
}

FeroceSwitch::~FeroceSwitch()
{
}

void
FeroceSwitch::DoInitialize()
{
    Start();
    Object::DoInitialize();
}

void
FeroceSwitch::DoDispose()
{
    m_ports.clear();
    m_portList = nullptr;
    m_uniform = nullptr;
    m_uniformStream = nullptr;
    Object::DoDispose();
}

Ptr<FeroceSwitchPort>
FeroceSwitch::AddPort()
{
    NS_ABORT_MSG_IF(m_started, "FeroceSwitch: ports must be added before the simulation starts");
    Ptr<FeroceSwitchPort> port = CreateObject<FeroceSwitchPort>();
    port->SetSwitch(this, uint32_t(m_ports.size()));
    m_ports.push_back(port);
    m_portList = m_ports.data();
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "FeroceSwitch: aggregate the switch to a Node before adding ports");
    node->AddDevice(port);
    return port;
}

uint32_t
FeroceSwitch::GetNPorts() const
{
    return uint32_t(m_ports.size());
}

Ptr<FeroceSwitchPort>
FeroceSwitch::GetPort(uint32_t i) const
{
    return i < m_ports.size() ? m_ports[i] : nullptr;
}

void
FeroceSwitch::AddRoute(Mac48Address dst, uint32_t port)
{
    uint8_t mac[6];
    dst.CopyTo(mac);
    std::vector<uint32_t>& ports = m_routes[MacKey(mac)];
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
    }
    m_routesChanged = true;
}

void
FeroceSwitch::ClearRoutes()
{
    m_routes.clear();
    m_routesChanged = true;
}

void
FeroceSwitch::BuildRouteTable() const
{
    unsigned bits = 2;
    while ((std::size_t(1) << bits) < 2 * m_routes.size())
    {
        bits++;
    }
    m_routeShift = uint8_t(64 - bits);
    m_routeMask = uint32_t((std::size_t(1) << bits) - 1);
    m_routeTable.assign(std::size_t(m_routeMask) + 1, RouteSlot{0, 0, 0});
    m_routePorts.clear();
    for (const auto& route : m_routes)
    {
        if (route.second.empty())
        {
            continue;
        }
        std::size_t i = RouteHome(route.first);
        while (m_routeTable[i].n != 0)
        {
            i = (i + 1) & m_routeMask;
        }
        uint32_t n = uint32_t(route.second.size());
        bool packs = n == 1 || n == 2 || n == 4;
        uint32_t packed = 0;
        for (uint32_t k = 0; k < n && packs; k++)
        {
            packs = route.second[k] < 256;
            packed |= (route.second[k] & 0xff) << (8 * k);
        }
        if (packs)
        {
            m_routeTable[i] = {route.first, packed, n | kPacked};
            continue;
        }
        m_routeTable[i] = {route.first, uint32_t(m_routePorts.size()), n};
        m_routePorts.insert(m_routePorts.end(), route.second.begin(), route.second.end());
    }
    m_routeSlots = m_routeTable.data();
    m_routePortList = m_routePorts.data();
    m_routesChanged = false;
}

int64_t
FeroceSwitch::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
FeroceSwitch::GetHeadroom(uint32_t port) const
{
    return port < m_bufferParams.headroom.size() ? m_bufferParams.headroom[port] : 0;
}

uint64_t
FeroceSwitch::GetRequiredHeadroom(uint32_t port) const
{
    return m_ports[port]->GetPfcHeadroom();
}

std::string
FeroceSwitch::Validate()
{
    std::ostringstream err;
    m_losslessMask = 0;
    std::istringstream list(m_lossless);
    std::string item;
    while (std::getline(list, item, ','))
    {
        char* end = nullptr;
        long prio = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || prio < 0 || prio > 7)
        {
            return "LosslessPriorities = " + m_lossless +
                   " is not allowed: expected priorities 0..7 separated by commas";
        }
        m_losslessMask |= uint8_t(1u << prio);
    }
    feroce_check why{};
    feroce_pfc_params pfc{};
    m_cp.kmin_bytes = m_kmin;
    m_cp.kmax_bytes = m_kmax;
    m_cp.pmax = m_pmax;
    if (m_markPoint == "dequeue")
    {
        m_cp.point = FEROCE_MARK_DEQUEUE;
    }
    else if (m_markPoint == "enqueue")
    {
        m_cp.point = FEROCE_MARK_ENQUEUE;
    }
    else
    {
        return "MarkPoint = " + m_markPoint + " is not allowed: expected dequeue or enqueue";
    }
    if (feroce_cp_validate(&m_cp, &why) != FEROCE_OK)
    {
        return AttributeCheckMessage(why);
    }
    std::string error = ParseEcnPerQueue();
    if (error.empty())
    {
        error = ParseEcnByRate();
    }
    if (error.empty())
    {
        error = ParseQueueWeights();
    }
    if (error.empty())
    {
        error = ParseDscpMap();
    }
    if (!error.empty())
    {
        return error;
    }
    if (m_pfcMode == "static")
    {
        pfc.mode = FEROCE_PFC_STATIC;
    }
    else if (m_pfcMode == "dynamic")
    {
        pfc.mode = FEROCE_PFC_DYNAMIC;
    }
    else
    {
        return "PfcMode = " + m_pfcMode + " is not allowed: expected static or dynamic";
    }
    pfc.xoff_bytes = m_xoff;
    pfc.xon_bytes = m_xon;
    pfc.alpha = m_pfcAlpha;
    pfc.xon_offset_bytes = m_xonOffset;
    if (feroce_pfc_validate(&pfc, &why) != FEROCE_OK)
    {
        return AttributeCheckMessage(why);
    }
    if (m_pauseFrames != "pfc" && m_pauseFrames != "802.3x" && m_pauseFrames != "both")
    {
        return "PauseFrames = " + m_pauseFrames + " is not allowed: expected pfc, 802.3x or both";
    }
    if (m_pauseFrames != "pfc" && !(m_pfcEnabled && m_losslessMask))
    {
        return "PauseFrames = " + m_pauseFrames +
               " is not allowed with PfcEnabled = false or no LosslessPriorities: they "
               "contradict each other (no class sends PAUSE); expected PfcEnabled = true and a "
               "lossless priority";
    }
    // 802.3x alone: a port's traffic, every priority, is the class of the first lossless one
    m_linkClass = 0xff;
    if (m_pauseFrames == "802.3x")
    {
        m_linkClass = uint8_t(__builtin_ctz(m_losslessMask));
    }
    if (m_watchdogAction != "drop" && m_watchdogAction != "forward")
    {
        return "WatchdogAction = " + m_watchdogAction + " is not allowed: expected drop or forward";
    }
    if (m_watchdogDetect.IsStrictlyPositive() && !m_watchdogRestore.IsStrictlyPositive())
    {
        return "WatchdogRestore = 0 is not allowed with WatchdogDetect > 0: expected > 0";
    }
    uint64_t need = 0;
    for (uint32_t i = 0; i < m_ports.size(); i++)
    {
        need = std::max(need, GetRequiredHeadroom(i));
    }
    if (m_headroomCheck && m_headroom && m_pfcEnabled && m_losslessMask && m_headroom < need)
    {
        err << "Headroom = " << m_headroom << " is not allowed: expected >= " << need
            << " (2 x delay x rate + 2 frames + a PFC frame of the longest link) or 0 for that";
        return err.str();
    }
    FeroceSwitchBuffer::Params& b = m_bufferParams;
    b.size = m_bufferSize;
    b.reserve = m_reserve;
    b.lossless = m_pfcEnabled ? m_losslessMask : 0;
    b.pfc = pfc;
    b.headroom.assign(m_ports.size(), m_headroom ? m_headroom : need);
    std::vector<std::pair<uint64_t, std::vector<std::string>>> byRate;
    std::string rateError = ParseRateList(m_headroomByRate,
                                          "HeadroomByRate",
                                          1,
                                          "rate:bytes,... e.g. 100Gbps:60000",
                                          &byRate);
    for (auto& r : byRate)
    {
        uint64_t bytes = 0;
        if (rateError.empty() && !ParseUint(r.second[0], 0, UINT64_MAX / 2, &bytes))
        {
            rateError = "HeadroomByRate = " + m_headroomByRate + " is not allowed: " + r.second[0] +
                        " is not a number of bytes";
        }
        r.second[0] = std::to_string(bytes);
    }
    if (!rateError.empty())
    {
        return rateError;
    }
    for (uint32_t i = 0; i < m_ports.size(); i++)
    {
        if (!m_headroom && m_headroomPerPort)
        {
            b.headroom[i] = GetRequiredHeadroom(i);
        }
        for (const auto& r : byRate)
        {
            uint64_t bytes = std::stoull(r.second[0]);
            if (r.first == m_ports[i]->GetDataRate().GetBitRate())
            {
                b.headroom[i] = bytes;
                if (m_headroomCheck && m_pfcEnabled && m_losslessMask &&
                    bytes < GetRequiredHeadroom(i))
                {
                    err << "HeadroomByRate = " << m_headroomByRate << " is not allowed: port " << i
                        << " (" << m_ports[i]->GetDataRate().GetBitRate()
                        << " bps) needs >= " << GetRequiredHeadroom(i)
                        << " (2 x delay x rate + 2 frames + a PFC frame of its link)";
                    return err.str();
                }
            }
        }
    }
    int lossless = FeroceSwitchBuffer::LosslessCount(b);
    // the shared pool must hold at least one frame per port, or PFC cannot work
    uint64_t minimum =
        FeroceSwitchBuffer::FixedBytes(b) + m_ports.size() * FeroceNetDevice::WireBytes(4200);
    if (m_bufferSize < minimum)
    {
        err << "BufferSize = " << m_bufferSize << " is not allowed: expected >= " << minimum << " ("
            << m_ports.size() << " ports x (8 x ReservePerQueue + " << lossless
            << " lossless x headroom " << (m_headroom ? m_headroom : need)
            << ") + a frame per port)";
        return err.str();
    }
    return "";
}

std::string
FeroceSwitch::ParseQueueWeights()
{
    std::vector<std::string> w = Split(m_queueWeights, ',');
    uint64_t weight[8];
    bool ok = w.size() == 8;
    for (std::size_t q = 0; ok && q < 8; q++)
    {
        ok = ParseUint(w[q], 1, 255, &weight[q]);
    }
    if (!ok)
    {
        return "QueueWeights = " + m_queueWeights +
               " is not allowed: expected 8 weights 1..255 (priorities 0..7) separated by commas";
    }
    for (uint8_t q = 0; q < 8; q++)
    {
        m_quantum[q] = weight[q] * (m_wrrQuantum ? m_wrrQuantum : 1);
    }
    return "";
}

std::string
FeroceSwitch::ParseDscpMap()
{
    uint8_t map[64];
    bool listed[64] = {};
    for (uint8_t d = 0; d < 64; d++)
    {
        map[d] = d >> 3;
    }
    for (const std::string& entry : Split(m_dscpMap, ','))
    {
        std::vector<std::string> f = Split(entry, ':');
        uint64_t dscp = 0;
        uint64_t prio = 0;
        if (f.size() != 2 || !ParseUint(f[0], 0, 63, &dscp) || !ParseUint(f[1], 0, 7, &prio) ||
            listed[dscp])
        {
            return "DscpMap = " + m_dscpMap +
                   " is not allowed: expected dscp:priority pairs (dscp 0..63 each listed once, "
                   "priority 0..7) separated by commas, e.g. 26:3,46:5";
        }
        listed[dscp] = true;
        map[dscp] = uint8_t(prio);
    }
    SetDscpMap(map);
    return "";
}

std::string
FeroceSwitch::ParseEcnPerQueue()
{
    feroce_cp_params cp[8];
    bool listed[8] = {};
    std::fill(cp, cp + 8, m_cp);
    for (const std::string& entry : Split(m_ecnPerQueue, ','))
    {
        std::vector<std::string> f = Split(entry, ':');
        uint64_t prio = 0;
        feroce_cp_params p = m_cp;
        if (f.size() != 4 || !ParseUint(f[0], 0, 7, &prio) || listed[prio] ||
            !ParseUint(f[1], 0, UINT64_MAX / 2, &p.kmin_bytes) ||
            !ParseUint(f[2], 0, UINT64_MAX / 2, &p.kmax_bytes) || !ParseDouble(f[3], &p.pmax))
        {
            return "EcnPerQueue = " + m_ecnPerQueue +
                   " is not allowed: expected prio:kmin:kmax:pmax entries (priority 0..7 each "
                   "listed once, bytes, bytes, probability) separated by commas, e.g. "
                   "3:20000:80000:0.1";
        }
        feroce_check why{};
        if (feroce_cp_validate(&p, &why) != FEROCE_OK)
        {
            char msg[512];
            feroce_check_message(&why, msg, sizeof msg);
            return "EcnPerQueue = " + m_ecnPerQueue + ", priority " + f[0] + ": " + msg;
        }
        listed[prio] = true;
        cp[prio] = p;
    }
    std::copy(cp, cp + 8, m_cpQueue);
    std::copy(listed, listed + 8, m_ecnListed);
    return "";
}

std::string
FeroceSwitch::ParseRateList(const std::string& text,
                            const std::string& name,
                            std::size_t fields,
                            const std::string& allowed,
                            std::vector<std::pair<uint64_t, std::vector<std::string>>>* out)
{
    out->clear();
    if (text.empty())
    {
        return "";
    }
    for (const std::string& entry : Split(text, ','))
    {
        std::vector<std::string> f = Split(entry, ':');
        uint64_t bps = 0;
        const char* why = f.size() == fields + 1 ? feroce_parse_rate(f[0].c_str(), &bps)
                                                 : "has not the fields of an entry";
        for (const auto& seen : *out)
        {
            if (!why && seen.first == bps)
            {
                why = "is listed twice";
            }
        }
        if (why)
        {
            return name + " = " + text + " is not allowed: " + entry + " " + why + ": expected " +
                   allowed;
        }
        out->emplace_back(bps, std::vector<std::string>(f.begin() + 1, f.end()));
    }
    return "";
}

std::string
FeroceSwitch::ParseEcnByRate()
{
    std::vector<std::pair<uint64_t, std::vector<std::string>>> list;
    const std::string allowed = "rate:kmin:kmax:pmax entries (bytes, bytes, probability), e.g. "
                                "25Gbps:100000:400000:0.2";
    std::string error = ParseRateList(m_ecnByRate, "EcnByRate", 3, allowed, &list);
    m_ecnRates.clear();
    for (const auto& e : list)
    {
        if (!error.empty())
        {
            break;
        }
        RateEcn r{e.first, m_cp};
        feroce_check why{};
        if (!ParseUint(e.second[0], 0, UINT64_MAX / 2, &r.cp.kmin_bytes) ||
            !ParseUint(e.second[1], 0, UINT64_MAX / 2, &r.cp.kmax_bytes) ||
            !ParseDouble(e.second[2], &r.cp.pmax))
        {
            error = "EcnByRate = " + m_ecnByRate + " is not allowed: expected " + allowed;
        }
        else if (feroce_cp_validate(&r.cp, &why) != FEROCE_OK)
        {
            char msg[512];
            feroce_check_message(&why, msg, sizeof msg);
            error =
                "EcnByRate = " + m_ecnByRate + ", rate " + std::to_string(e.first) + " bps: " + msg;
        }
        m_ecnRates.push_back(r);
    }
    return error;
}

uint8_t
FeroceSwitch::GetDscpPriority(uint8_t dscp) const
{
    return DscpPriority(dscp);
}

const feroce_cp_params&
FeroceSwitch::GetEcnParameters(uint8_t prio) const
{
    return m_cpQueue[prio & 7];
}

Time
FeroceSwitch::GetUpstreamPausedTime(uint32_t port, uint8_t prio) const
{
    return port < m_ports.size() ? m_ports[port]->GetUpstreamPausedTime(prio) : Time(0);
}

void
FeroceSwitch::Start()
{
    if (m_started)
    {
        return;
    }
    std::string error = Validate();
    if (!error.empty())
    {
        NS_FATAL_ERROR("FeroceSwitch: " << error);
    }
    m_buffer.Configure(m_bufferParams);
    FeroceSwitchPort::Config config;
    std::copy(m_quantum, m_quantum + 8, config.quantum);
    config.byteQuantum = m_wrrQuantum > 0;
    config.ecn = m_ecnEnabled;
    std::copy(m_cpQueue, m_cpQueue + 8, config.cp);
    config.pauseQuanta = m_pauseQuanta;
    config.sendPfc = m_pauseFrames != "802.3x";
    config.sendLinkPause = m_pauseFrames != "pfc";
    config.watchdogDetect = m_watchdogDetect;
    config.watchdogRestore = m_watchdogRestore;
    config.watchdogDrop = m_watchdogAction == "drop";
    for (auto& port : m_ports)
    {
        // a port of a listed rate: its thresholds, but for EcnPerQueue's priorities
        FeroceSwitchPort::Config own = config;
        for (const RateEcn& r : m_ecnRates)
        {
            if (r.bps == port->GetDataRate().GetBitRate())
            {
                for (int q = 0; q < 8; q++)
                {
                    own.cp[q] = m_ecnListed[q] ? m_cpQueue[q] : r.cp;
                }
            }
        }
        port->SetConfig(own);
    }
    m_started = true;
}

FeroceSwitch::Counters
FeroceSwitch::GetCounters() const
{
    Counters c = m_counters;
    c.framesForwarded = m_framesForwarded;
    for (const auto& port : m_ports)
    {
        FeroceSwitchPort::Counters p = port->GetCounters();
        c.ecnMarks += p.ecnMarks;
        c.pauseFramesSent += p.pauseFramesSent;
        c.resumeFramesSent += p.resumeFramesSent;
        c.linkPauseFramesSent += p.linkPauseFramesSent;
        c.watchdogStorms += p.watchdogStorms;
        c.drops[DROP_WATCHDOG] += p.watchdogDrops;
    }
    c.bufferPeak = m_buffer.GetPeak();
    return c;
}

uint64_t
FeroceSwitch::GetBufferUsed() const
{
    return m_buffer.GetUsed();
}

void
FeroceSwitch::Drop(Ptr<FeroceFrame> frame, DropCause cause)
{
    m_counters.drops[cause]++;
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(frame->GetPacket(), cause);
    }
}

uint64_t
FeroceSwitch::EcmpIndex(uint32_t srcIp, uint32_t dstIp, uint16_t sport, uint64_t n) const
{
    // the flow's addresses and UDP source port, so a flow keeps its path
    uint64_t key = (uint64_t(srcIp) << 32 | dstIp) ^ (uint64_t(sport) * 0x9e3779b97f4a7c15ULL);
    if (m_ecmpSeed)
    {
        // a bijection of the key per seed, so two switches choose independently
        key = (key ^ m_ecmpSeed) * 0xff51afd7ed558ccdULL;
        key ^= key >> 33;
    }
    key ^= key >> 29;
    return (n & (n - 1)) == 0 ? key & (n - 1) : key % n; // a mask where it equals the remainder
}

int64_t
FeroceSwitch::GetEgressPort(Mac48Address dst,
                            Ipv4Address src,
                            Ipv4Address dstIp,
                            uint16_t sport) const
{
    uint8_t mac[6];
    dst.CopyTo(mac);
    return RoutePort(MacKey(mac), src.Get(), dstIp.Get(), sport);
}

void
FeroceSwitch::Receive(FeroceSwitchPort* in, const Ptr<FeroceFrame>& frame)
{
    if (!m_started)
    {
        Start();
    }
    const FeroceFrame* fr = PeekPointer(frame);
    if (!fr->IsRoce())
    {
        Drop(frame, DROP_MALFORMED);
        return;
    }
    const feroce_roce& f = fr->Fields();
    int64_t outIndex = RoutePort(MacKey(f.eth.dst), f.ip.src, f.ip.dst, f.udp.sport);
    if (outIndex < 0)
    {
        Drop(frame, DROP_NO_ROUTE);
        return;
    }
    FeroceSwitchPort* out = PortAt(uint32_t(outIndex));

    // data and control frames alternate: the queue is selected, not branched to
    bool control = (f.bth.opcode == FEROCE_OP_ACK) | (f.bth.opcode == FEROCE_OP_CNP);
    uint8_t prio = (m_usePcp && f.eth.vlan) ? f.eth.pcp : DscpPriority(f.ip.dscp);
    uint8_t queue = uint8_t(prio ^ ((prio ^ FeroceSwitchPort::kControlQueue) & -uint8_t(control)));
    if (m_linkClass != 0xff)
    {
        prio = m_linkClass; // 802.3x: the port's traffic is one class (its queue stays its own)
    }
    uint32_t size = fr->GetSize();

    // admission into the buffer; the ingress port carries out the PFC decision
    FeroceSwitchBuffer::Admission a = m_buffer.Admit(in->GetPortIndex(), prio, size);
    if (a.place == FeroceSwitchBuffer::REFUSED)
    {
        Drop(frame, m_buffer.IsLossless(prio) ? DROP_LOSSLESS : DROP_LOSSY_BUFFER_FULL);
        return;
    }
    if (!m_bufferTrace.IsEmpty())
    {
        m_bufferTrace(m_buffer.GetUsed());
    }
    if (a.pfc != FEROCE_PFC_HOLD)
    {
        in->Pfc(prio, a.pfc);
    }
    m_framesForwarded++;
    out->Enqueue(queue, {PeekPointer(frame), in->GetPortIndex(), prio, a.place});
}

} // namespace ns3
