/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_UNIFORM_STREAM_H
#define FEROCE_UNIFORM_STREAM_H

#include "ns3/random-variable-stream.h"
#include "ns3/rng-stream.h"

#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A UniformRandomVariable with an inline draw for a hot path.
 *
 * GetValue() reaches the number through two virtual calls and two logging
 * checks in libns3-core, and so would the getters of the stream, bounds
 * and Antithetic flag: about 130 instructions around the generator's 48,
 * once per data frame at a switch.  Draw() returns what GetValue() would
 * (min + u x (max - min), mirrored when Antithetic) from the same
 * sequence.  After this class's SetStream (a stream number, as the
 * switches' AssignStreams give) it runs the generator itself: ns-3's
 * RngStream is MRG32k3a, whose state for a seed, stream and run is known
 * (Mrg32k3a), and its step here takes no branch (RngStream::RandU01's
 * three branches are coin tosses).  On an automatic stream (no SetStream)
 * it draws from the base class's generator, read once.  Its owner changes
 * the stream with this class's SetStream, leaves Min, Max and Antithetic
 * at what they were at the first draw, and draws only with Draw() (the
 * base class's generator does not advance with it).
 */
class FeroceUniformStream : public UniformRandomVariable
{
  public:
    static TypeId GetTypeId();

    /// Use stream `stream` (as RandomVariableStream::SetStream) from the next draw on.
    void SetStream(int64_t stream);

    /// The next value of the stream, as GetValue().
    double Draw()
    {
        if (!m_noted)
        {
            Note();
        }
        if (m_skipped != 0)
        {
            CatchUp();
        }
        double u = m_own ? m_mrg.Next() : m_rng->RandU01();
        double v = m_min + u * (m_max - m_min);
        return m_antithetic ? m_min + (m_max - v) : v;
    }

    /**
     * Draw() < p, the value drawn only where it can decide: a value of (0, 1)
     * (Min 0, Max 1, not Antithetic: the defaults) is never below p <= 0 and
     * always below p >= 1, and there the value's place in the stream is taken
     * without computing it (on a numbered stream, counted; the next Draw()
     * jumps over the values skipped).  A switch draws for every data frame,
     * and nearly every draw meets a queue below Kmin (p = 0).
     */
    bool Below(double p)
    {
        if (!m_noted)
        {
            Note();
        }
        if (m_unit && m_own && (p <= 0.0 || p >= 1.0))
        {
            m_skipped++;
            return p >= 1.0;
        }
        return Draw() < p;
    }

    /// Take the places of n values whose values go unused, as n Draw()s (on a numbered stream
    /// only counted, without a branch on n).
    void Skip(uint64_t n)
    {
        if (m_own)
        {
            m_skipped += n;
            return;
        }
        for (; n != 0; n--)
        {
            Draw();
        }
    }

    /**
     * MRG32k3a (P. L'Ecuyer, "Good parameters and implementations for
     * combined multiple recursive random number generators", Operations
     * Research 47(1), 1999), with streams 2^127 steps apart and substreams
     * 2^76 (L'Ecuyer, Simard, Chen and Kelton, Operations Research 50(6),
     * 2002), as ns-3's RngStream: the same numbers for the same seed, stream
     * and substream (ns-3 gives a stream number n the stream 2^63 + n, and
     * the run number as the substream).
     */
    struct Mrg32k3a
    {
        double s[6]; ///< the two components' last three values each

        /// The state of (seed, stream, substream): every value the seed, then advanced.
        void Start(uint32_t seed, uint64_t stream, uint64_t substream);

        /// Advance by n values (as n calls of Next), by the generator's matrices.
        void Jump(uint64_t n);

        /// The next number in (0, 1), as RngStream::RandU01.
        double Next()
        {
            constexpr double m1 = 4294967087.0;
            double p1 = Step<2>(s, 1403580.0, 810728.0, m1);
            double p2 = Step<1>(s + 3, 527612.0, 1370589.0, 4294944443.0);
            return AddWhen(p1 - p2, m1, p1 <= p2) * 2.328306549295727688e-10;
        }

        /// One component, x its last three values (oldest first): the next, a x_{n-lag} - b
        /// x_{n-3} mod m, shifted in. Every product and difference is an integer below 2^53:
        /// exact in a double.
        template <int lag>
        static double Step(double* x, double a, double b, double m)
        {
            double p = a * x[3 - lag] - b * x[0];
            p -= double(int32_t(p / m)) * m;
            p = AddWhen(p, m, p < 0.0);
            x[0] = x[1];
            x[1] = x[2];
            x[2] = p;
            return p;
        }

        /// x, or x + add when `when` (x is not -0): through a mask, as the compiler would
        /// otherwise branch on a coin toss.
        static double AddWhen(double x, double add, bool when)
        {
            uint64_t bits;
            std::memcpy(&bits, &add, sizeof bits);
            bits &= uint64_t(0) - uint64_t(when);
            double masked;
            std::memcpy(&masked, &bits, sizeof masked);
            return x + masked;
        }
    };

  private:
    /// Read the bounds, Antithetic and the base class's generator once.
    void Note();

    /// Advance the generator over the values Below skipped.
    void CatchUp();

    /// Up to this many skipped values are stepped over, more are jumped (by estimate, 16 steps
    /// cost about what a jump's products do).
    static constexpr uint64_t kStepped = 16;

    // what Skip and Below read where the value does not decide: 16 bytes on their own 16, so
    // in one cache line however the object is placed (a switch takes a place per data frame)
    RngStream* m_rng{nullptr};
    alignas(16) uint64_t m_skipped{0}; ///< values of m_mrg skipped by Below, not yet stepped over
    bool m_noted{false};
    bool m_own{false};  ///< SetStream was called: m_mrg draws
    bool m_unit{false}; ///< values in (0, 1): Min 0, Max 1, not Antithetic
    bool m_antithetic{false};
    double m_min{0};
    double m_max{1};
    Mrg32k3a m_mrg; ///< started by SetStream
};

} // namespace ns3

#endif /* FEROCE_UNIFORM_STREAM_H */
