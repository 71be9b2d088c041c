/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SWITCH_H
#define FEROCE_SWITCH_H

#include "feroce-switch-buffer.h"
#include "feroce-switch-port.h"

#include "ns3/feroce-cp.h"
#include "ns3/feroce-uniform-stream.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A store-and-forward Ethernet switch for RoCEv2: ECN marking by the
 * core's congestion point, a shared buffer with PFC, forwarding by
 * destination MAC with ECMP by flow hash.  Aggregated to its Node.
 *
 * Classification: ACK, NAK and CNP go to the strict-priority control queue;
 * data to the priority of its DSCP (DscpMap; DSCP / 8 for DSCPs it does not
 * list) or, with UsePcp, of its 802.1Q PCP.  Egress: the data priorities
 * share a port by weighted round robin (QueueWeights, WrrQuantum).  ECN: the
 * core's congestion point with Kmin, Kmax and Pmax, or a priority's own
 * values from EcnPerQueue.  Buffer: BufferSize bytes; each (ingress port, priority) has
 * ReservePerQueue bytes of its own and, if the priority is lossless,
 * Headroom bytes for the frames in flight after a PAUSE; the rest is
 * shared.  PFC (per ingress port and lossless priority): XOFF when the
 * class's shared bytes pass the core's threshold (static, or dynamic: alpha x
 * free shared buffer) or when it needs its headroom; PAUSE frames of
 * PauseQuanta are refreshed before they expire; XON when it drains to the
 * XON threshold.  Lossy priorities tail-drop when the shared buffer is full.
 * A drop in a lossless priority is counted apart: with a configuration that
 * Validate() accepts, it is a bug.
 *
 * Link-level PAUSE (PauseFrames): pfc sends PFC frames per lossless class;
 * 802.3x accounts all of an ingress port's traffic as one class (of the
 * first lossless priority) and sends IEEE 802.3x PAUSE for its decisions,
 * which stop everything the peer sends; both sends PFC per class and an
 * 802.3x PAUSE while any class of the port is in XOFF.  A port obeys both
 * kinds it receives; an 802.3x PAUSE holds its control queue too.
 *
 * PFC watchdog (WatchdogDetect > 0; as commercial switches have): an egress
 * data queue that holds frames while the peer keeps it paused for
 * WatchdogDetect is in a storm: WatchdogAction drop discards what it holds
 * and what comes for it, forward sends it as if not paused; the storm ends
 * when no PAUSE for it has come for WatchdogRestore.
 *
 * Who does what: the switch holds the attributes, classifies, routes and
 * admits each frame into its FeroceSwitchBuffer (the accounting and the
 * PFC decisions); each FeroceSwitchPort queues, schedules and marks what
 * leaves by it, releases it from the buffer, and sends the PFC frames the
 * buffer decides for the frames that came in by it.
 */
class FeroceSwitch : public Object
{
  public:
    static TypeId GetTypeId();

    FeroceSwitch();
    ~FeroceSwitch() override;

    /// Why frames were dropped.
    enum DropCause
    {
        DROP_LOSSY_BUFFER_FULL = 0, ///< lossy priority, shared buffer full
        DROP_LOSSLESS,              ///< lossless priority, headroom exhausted (a bug)
        DROP_NO_ROUTE,              ///< no port for the destination MAC
        DROP_MALFORMED,             ///< neither RoCEv2 nor PFC
        DROP_WATCHDOG,              ///< discarded by the PFC watchdog of a queue in a storm
        DROP_CAUSES
    };

    /// A new port on the switch's node (not yet linked).
    Ptr<FeroceSwitchPort> AddPort();
    uint32_t GetNPorts() const;
    Ptr<FeroceSwitchPort> GetPort(uint32_t i) const;
    /// Frames to `dst` leave by `port`; several ports for one address share by flow hash.
    void AddRoute(Mac48Address dst, uint32_t port);
    /// Forget every route (before they are computed again, around a link that went down).
    void ClearRoutes();

    /**
     * Check the configuration: ECN and PFC parameters, and a buffer that
     * holds every reserve and a headroom large enough for each port's link
     * (2 x delay x rate + 2 maximum frames + a PFC frame).  "" or a message
     * naming the parameter, its value and what is allowed.
     */
    std::string Validate();
    /// The headroom a lossless priority of this port needs, in bytes.
    uint64_t GetRequiredHeadroom(uint32_t port) const;
    /// The headroom of each lossless class of this port's ingress, in bytes (after Validate).
    uint64_t GetHeadroom(uint32_t port) const;
    /// The port a frame of this flow leaves by (ECMP included), or -1 without a route.
    int64_t GetEgressPort(Mac48Address dst,
                          Ipv4Address src,
                          Ipv4Address dstIp,
                          uint16_t sport) const;
    int64_t AssignStreams(int64_t stream);

    /// The first of the four cache lines a frame's visit reads (its ports' events fetch them
    /// ahead: FeroceEvent::ahead).
    const void* VisitHead() const
    {
        return &m_routeSlots;
    }

    /// Counters.
    struct Counters
    {
        uint64_t framesForwarded{0};
        uint64_t ecnMarks{0};
        uint64_t drops[DROP_CAUSES]{};
        uint64_t pauseFramesSent{0};     ///< PAUSE frames (quanta > 0), PFC and 802.3x
        uint64_t resumeFramesSent{0};    ///< XON frames (quanta 0), PFC and 802.3x
        uint64_t linkPauseFramesSent{0}; ///< of which 802.3x PAUSE (PauseFrames 802.3x, both)
        uint64_t watchdogStorms{0};      ///< queues the PFC watchdog found in a storm
        uint64_t bufferPeak{0};

        /// Frames dropped, of every cause.
        uint64_t TotalDrops() const
        {
            uint64_t total = 0;
            for (uint64_t d : drops)
            {
                total += d;
            }
            return total;
        }
    };

    /// The switch's counters, its ports' summed in.
    Counters GetCounters() const;
    uint64_t GetBufferUsed() const;
    /// The priority (0..7) of a data frame with this DSCP (DscpMap).
    uint8_t GetDscpPriority(uint8_t dscp) const;
    /// The ECN marking parameters of an egress priority (Kmin/Kmax/Pmax or EcnPerQueue).
    const feroce_cp_params& GetEcnParameters(uint8_t prio) const;
    /// Time the switch has kept the upstream of a port paused for prio (XOFF to XON), so far.
    Time GetUpstreamPausedTime(uint32_t port, uint8_t prio) const;

    typedef void (*QueueTracedCallback)(uint32_t port, uint8_t queue, uint64_t bytes);
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, DropCause cause);
    typedef void (*PauseTracedCallback)(uint32_t port, uint8_t priority, uint16_t quanta);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    friend class FeroceSwitchPort; // Receive, and the buffer, stream and traces its ports use

    void Start();
    /// A frame from a port (not a valid PFC frame for the port itself).
    void Receive(FeroceSwitchPort* in, const Ptr<FeroceFrame>& frame);
    void Drop(Ptr<FeroceFrame> frame, DropCause cause);
    /// Parse QueueWeights, DscpMap and EcnPerQueue into the tables below: "" or the error.
    std::string ParseQueueWeights();
    std::string ParseDscpMap();
    std::string ParseEcnPerQueue();
    std::string ParseEcnByRate();
    /// "rate:f1:...,..." entries of `fields` fields after a rate with its unit, each rate once.
    static std::string ParseRateList(
        const std::string& text,
        const std::string& name,
        std::size_t fields,
        const std::string& allowed,
        std::vector<std::pair<uint64_t, std::vector<std::string>>>* out);
    /// Which of n ECMP ports a flow takes (0..n-1).
    uint64_t EcmpIndex(uint32_t srcIp, uint32_t dstIp, uint16_t sport, uint64_t n) const;

    /// A destination's entry in the flat route table: its ports are m_routePorts[first, first + n),
    /// or, with kPacked, the bytes of `first` from the lowest.
    struct RouteSlot
    {
        uint64_t mac;   ///< the destination's address (MacKey)
        uint32_t first; ///< its ports, a byte each (kPacked), or its first port in m_routePorts
        uint32_t n;     ///< its number of ports, with kPacked; 0: an empty slot
    };

    /// In RouteSlot::n: the ports are in `first`, a byte each (one, two or four ports below 256).
    static constexpr uint32_t kPacked = 1u << 31;

    /// An address's first slot to look at (Fibonacci hashing).
    std::size_t RouteHome(uint64_t mac) const
    {
        return std::size_t((mac * 0x9e3779b97f4a7c15ULL) >> m_routeShift);
    }

    /// The route of this address (n == 0: none). The flat table is made again from m_routes at
    /// the first lookup after a change; it always has a free slot, where a search ends.
    const RouteSlot& FindRoute(uint64_t mac) const
    {
        if (m_routesChanged)
        {
            BuildRouteTable();
        }
        const RouteSlot* table = m_routeSlots;
        std::size_t i = RouteHome(mac);
        while (table[i].mac != mac && table[i].n != 0)
        {
            i = (i + 1) & m_routeMask;
        }
        return table[i];
    }

    /// A port by its index, without a Ptr copy: a frame's egress (Receive) and its ingress (the
    /// ports, for its PFC decision), through the pointer in the line a frame's visit reads.
    FeroceSwitchPort* PortAt(uint32_t i) const
    {
        return PeekPointer(m_portList[i]);
    }

    /// The port a flow to this address leaves by (ECMP among several), -1 without a route.
    int64_t RoutePort(uint64_t mac, uint32_t srcIp, uint32_t dstIp, uint16_t sport) const
    {
        const RouteSlot& route = FindRoute(mac);
        if (route.n == 0)
        {
            return -1;
        }
        uint32_t n = route.n & ~kPacked;
        if (route.n & kPacked)
        {
            // the ports in the slot: no second line, and one path for one port or several (a
            // fabric's routes up and down alternate)
            return route.first >> (8 * EcmpIndex(srcIp, dstIp, sport, n)) & 0xff;
        }
        return m_routePortList[route.first + EcmpIndex(srcIp, dstIp, sport, n)];
    }

    /// The priority of a data frame's DSCP, from the map's three bit planes.
    uint8_t DscpPriority(uint8_t dscp) const
    {
        unsigned d = dscp & 63;
        return uint8_t((m_dscpBits[0] >> d & 1) | (m_dscpBits[1] >> d & 1) << 1 |
                       (m_dscpBits[2] >> d & 1) << 2);
    }

    /// The DSCP map: the priority (0..7) of each of the 64 DSCPs.
    void SetDscpMap(const uint8_t* prio);
    /// m_routes into the flat table: open addressing, at most half full.
    void BuildRouteTable() const;

    // What a frame's visit reads, in four cache lines at the object's head (a fabric's switches
    // are visited in turn, each visit starting cold): the route table's, the ports' and the
    // marking stream's pointers, the flags and the DSCP map, the two traces fired per frame and
    // the buffer's accounting; its ports read the last three through their switch.  Attributes
    // and tables as set stay apart, after them.
    alignas(64) mutable const RouteSlot* m_routeSlots{nullptr}; ///< m_routeTable's slots
    mutable const uint32_t* m_routePortList{nullptr};           ///< m_routePorts' entries
    const Ptr<FeroceSwitchPort>* m_portList{nullptr};           ///< m_ports' entries
    FeroceUniformStream* m_uniformStream{nullptr}; ///< m_uniform: the ports' marking draws
    uint64_t m_ecmpSeed{0};
    uint64_t m_framesForwarded{0};    ///< Counters::framesForwarded
    mutable uint32_t m_routeMask{0};  ///< table size - 1
    mutable uint8_t m_routeShift{64}; ///< 64 - log2(table size)
    mutable bool m_routesChanged{true};
    bool m_started{false};
    bool m_usePcp{false};
    /// 802.3x only: the priority whose class accounts all of a port's traffic (none: 0xff)
    uint8_t m_linkClass{0xff};
    uint64_t m_dscpBits[3]{}; ///< DscpMap: bit d of [i] is bit i of DSCP d's priority
    TracedCallback<uint32_t, uint8_t, uint64_t> m_queueTrace;
    TracedCallback<uint64_t> m_bufferTrace;
    FeroceSwitchBuffer m_buffer;

    // attributes
    uint64_t m_bufferSize;
    uint64_t m_reserve;
    uint64_t m_headroom;
    bool m_headroomCheck;
    std::string m_lossless;
    bool m_pfcEnabled;
    std::string m_pfcMode;
    double m_pfcAlpha;
    uint64_t m_xoff;
    uint64_t m_xon;
    uint64_t m_xonOffset;
    uint16_t m_pauseQuanta;
    std::string m_pauseFrames;
    Time m_watchdogDetect;
    Time m_watchdogRestore;
    std::string m_watchdogAction;
    bool m_ecnEnabled;
    uint64_t m_kmin;
    uint64_t m_kmax;
    double m_pmax;
    std::string m_markPoint;
    std::string m_queueWeights;
    uint32_t m_wrrQuantum; ///< 0: weights count frames; > 0: bytes per unit of weight
    std::string m_dscpMap;
    std::string m_ecnPerQueue;
    std::string m_ecnByRate;
    bool m_headroomPerPort{false};
    std::string m_headroomByRate;

    uint8_t m_losslessMask;
    feroce_cp_params m_cp;         ///< Kmin, Kmax, Pmax, MarkPoint
    feroce_cp_params m_cpQueue[8]; ///< per egress priority: m_cp or its EcnPerQueue entry
    bool m_ecnListed[8]{};         ///< the priority has an EcnPerQueue entry

    /// An EcnByRate entry: the thresholds of the ports of a link rate.
    struct RateEcn
    {
        uint64_t bps;
        feroce_cp_params cp;
    };

    std::vector<RateEcn> m_ecnRates;
    uint64_t m_quantum[8];                     ///< round robin credit a priority's turn adds
    FeroceSwitchBuffer::Params m_bufferParams; ///< what Validate found
    Ptr<FeroceUniformStream> m_uniform;
    std::vector<Ptr<FeroceSwitchPort>> m_ports;

    std::unordered_map<uint64_t, std::vector<uint32_t>> m_routes; ///< as added (the table's source)
    // the routes as a frame looks them up: a hash map's lookup divides and chases two pointers
    // per hop (cold in a fabric of many switches), this table one slot and its ports' line
    mutable std::vector<RouteSlot> m_routeTable;
    mutable std::vector<uint32_t> m_routePorts;
    Counters m_counters; ///< but framesForwarded (m_framesForwarded)
    TracedCallback<Ptr<const Packet>, DropCause> m_dropTrace;
    TracedCallback<Ptr<const Packet>> m_ecnMarkTrace;
    TracedCallback<uint32_t, uint8_t, uint16_t> m_pauseTrace;
};

} // namespace ns3

#endif /* FEROCE_SWITCH_H */
