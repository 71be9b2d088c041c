/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SWITCH_BUFFER_H
#define FEROCE_SWITCH_BUFFER_H

#include "ns3/feroce-cp.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief The packet buffer of a FeroceSwitch: its ingress classes, shared
 * pool and headroom, and the PFC decision of each class.
 *
 * Mechanism, not policy (as Linux's include/net/red.h): the buffer admits
 * or refuses a frame, releases it, and answers what the class's PFC should
 * do (feroce_pfc_action); the switch and its ports act on that answer
 * (send the PAUSE or the XON, refresh it, time it).  It keeps no clock,
 * schedules nothing, draws nothing.
 *
 * Accounting follows IEEE 802.1Qbb ingress accounting.  A frame belongs
 * to the class (ingress port, priority) it came in by.  Each class has
 * `reserve` bytes of its own; beyond them it takes from the pool shared by
 * all classes; a lossless class (PFC on) also has `headroom[port]` bytes
 * for what arrives after it has sent XOFF.  A lossless class goes to XOFF
 * when its shared bytes pass the core's threshold (feroce_pfc_decide:
 * static, or dynamic = alpha x free shared bytes) or as soon as it needs
 * its headroom, and back to XON when it has drained to the XON threshold
 * with its headroom empty.  While in XOFF it takes no new shared bytes: what
 * still arrives goes to its headroom.  A lossy class is refused when the
 * pool is full.
 *
 * Parameters are per port where a switch may set them per port (the
 * headroom a port's link needs grows with its speed and length).  A port
 * flow-controlled by link-level PAUSE (802.3x) instead of PFC would account
 * all its priorities as one class and act on the same decisions with
 * PAUSE frames: the accounting does not change.
 */
class FeroceSwitchBuffer
{
  public:
    /// The buffer's configuration (validated by the switch).
    struct Params
    {
        uint64_t size{0};               ///< bytes of the whole buffer
        uint64_t reserve{0};            ///< bytes each (port, priority) has of its own
        uint8_t lossless{0};            ///< bit p: priority p is lossless (0 when PFC is off)
        feroce_pfc_params pfc{};        ///< the XOFF and XON thresholds
        std::vector<uint64_t> headroom; ///< per port: bytes each lossless class of it has
    };

    /// Where an arriving frame's bytes went.
    enum Place : uint8_t
    {
        SHARED = 0, ///< its class's reserve and the shared pool
        HEADROOM,   ///< its class's headroom
        REFUSED     ///< nowhere: the frame is dropped
    };

    /// The answer to an arriving frame: where it is kept, and what its class's PFC does now.
    struct Admission
    {
        Place place;
        feroce_pfc_action pfc;
    };

    FeroceSwitchBuffer() = default;
    // it points into its own tables
    FeroceSwitchBuffer(const FeroceSwitchBuffer&) = delete;
    FeroceSwitchBuffer& operator=(const FeroceSwitchBuffer&) = delete;

    /// Bytes that the reserves and headrooms of these parameters set apart from the pool.
    static uint64_t FixedBytes(const Params& p);
    /// Lossless priorities of these parameters.
    static int LosslessCount(const Params& p);

    /// Take these parameters (p.size >= FixedBytes(p)) and empty the buffer.
    void Configure(const Params& p);

    bool IsLossless(uint8_t prio) const
    {
        return m_lossless >> prio & 1;
    }

    /// A frame of `bytes` arrives at port `port` with priority `prio`.
    Admission Admit(uint32_t port, uint8_t prio, uint32_t bytes)
    {
        Class& c = m_class[port * 8 + prio];
        bool lossless = IsLossless(prio);
        uint64_t sharedNeed = SharedBytes(c.bytes + bytes) - SharedBytes(c.bytes);
        Place place;
        if (m_sharedUsed + sharedNeed <= m_sharedSize && !(lossless && c.xoff && sharedNeed > 0))
        {
            c.bytes += bytes;
            m_sharedUsed += sharedNeed;
            place = SHARED;
        }
        else if (lossless && c.headroom + bytes <= m_headroom[port])
        {
            c.headroom += bytes;
            place = HEADROOM;
        }
        else
        {
            return {REFUSED, FEROCE_PFC_HOLD};
        }
        m_used += bytes;
        m_peak = std::max(m_peak, m_used);
        return {place, lossless ? Decide(c) : FEROCE_PFC_HOLD};
    }

    /// A frame admitted at (port, prio) to `place` leaves the buffer: what that class's PFC does.
    feroce_pfc_action Release(uint32_t port, uint8_t prio, uint32_t bytes, Place place)
    {
        Class& c = m_class[port * 8 + prio];
        if (place == HEADROOM)
        {
            c.headroom -= bytes;
        }
        else
        {
            m_sharedUsed -= SharedBytes(c.bytes) - SharedBytes(c.bytes - bytes);
            c.bytes -= bytes;
        }
        m_used -= bytes;
        return IsLossless(prio) ? Decide(c) : FEROCE_PFC_HOLD;
    }

    /// The class is in XOFF (its PAUSE is to be refreshed while this lasts).
    bool IsXoff(uint32_t port, uint8_t prio) const
    {
        return m_class[port * 8 + prio].xoff;
    }

    /// Bytes held, all places.
    uint64_t GetUsed() const
    {
        return m_used;
    }

    /// The most bytes held at once.
    uint64_t GetPeak() const
    {
        return m_peak;
    }

    /// Bytes of the shared pool.
    uint64_t GetSharedSize() const
    {
        return m_sharedSize;
    }

  private:
    /// One (ingress port, priority), in one cache line (24 bytes on a stride of 24 would cross
    /// one in four).
    struct alignas(32) Class
    {
        uint64_t bytes{0};    ///< in reserve and shared
        uint64_t headroom{0}; ///< in headroom
        bool xoff{false};     ///< XOFF decided, XON not yet
    };

    /// Bytes of a class holding classBytes that lie beyond its reserve, in the shared pool.
    uint64_t SharedBytes(uint64_t classBytes) const
    {
        return std::max(classBytes, m_reserve) - m_reserve; // a max: GCC made ?: a branch, missed
    }

    /// The PFC of a lossless class after its bytes changed.
    feroce_pfc_action Decide(Class& c)
    {
        feroce_pfc_action a =
            feroce_pfc_decide(&m_pfc, c.xoff, SharedBytes(c.bytes), m_sharedSize - m_sharedUsed);
        if (!c.xoff && (a == FEROCE_PFC_XOFF || c.headroom > 0))
        {
            c.xoff = true;
            return FEROCE_PFC_XOFF;
        }
        if (c.xoff && a == FEROCE_PFC_XON && c.headroom == 0)
        {
            c.xoff = false;
            return FEROCE_PFC_XON;
        }
        return FEROCE_PFC_HOLD;
    }

    // What a frame's admission and release read, in two cache lines (the switch keeps them at
    // its head): the parameters as set (m_p) stay apart.
    Class* m_class{nullptr};             ///< m_classes' entries
    const uint64_t* m_headroom{nullptr}; ///< m_p.headroom's entries
    uint64_t m_sharedSize{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_used{0};
    uint64_t m_peak{0};
    uint64_t m_reserve{0};     ///< m_p.reserve
    uint8_t m_lossless{0};     ///< m_p.lossless
    feroce_pfc_params m_pfc{}; ///< m_p.pfc
    Params m_p;
    std::vector<Class> m_classes; ///< [port * 8 + prio]
};

} // namespace ns3

#endif /* FEROCE_SWITCH_BUFFER_H */
