/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-uniform-stream.h"

#include "ns3/rng-seed-manager.h"

#include <array>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FeroceUniformStream);

namespace
{

/// A 3 x 3 matrix of integers modulo a component's modulus.
using Matrix = std::array<std::array<uint64_t, 3>, 3>;

constexpr uint64_t kModulus[2] = {4294967087u, 4294944443u};

/// x y modulo m (entries below m < 2^32: each product fits in 64 bits).
Matrix
Multiply(const Matrix& x, const Matrix& y, uint64_t m)
{
    Matrix r{};
    for (int i = 0; i < 3; i++)
    {
        for (int j = 0; j < 3; j++)
        {
            uint64_t sum = 0;
            for (int k = 0; k < 3; k++)
            {
                sum += x[i][k] * y[k][j] % m;
            }
            r[i][j] = sum % m;
        }
    }
    return r;
}

/// Each component's step as a matrix (the state a column of its last three values) raised to
/// 2^k, k < 192: a stream is 2^127 steps, and 2^63 streams are taken before the numbered ones.
struct PowersOfTwo
{
    static const int kCount = 192;
    Matrix p[2][kCount];

    PowersOfTwo()
    {
        // x_n = 1403580 x_{n-2} - 810728 x_{n-3} (mod m1), y_n = 527612 y_{n-1} - 1370589 y_{n-3}
        // (mod m2)
        p[0][0] = {{{0, 1, 0}, {0, 0, 1}, {kModulus[0] - 810728, 1403580, 0}}};
        p[1][0] = {{{0, 1, 0}, {0, 0, 1}, {kModulus[1] - 1370589, 0, 527612}}};
        for (int c = 0; c < 2; c++)
        {
            for (int k = 1; k < kCount; k++)
            {
                p[c][k] = Multiply(p[c][k - 1], p[c][k - 1], kModulus[c]);
            }
        }
    }
};

const PowersOfTwo&
Powers()
{
    static const PowersOfTwo powers;
    return powers;
}

/// Advance component c (its three values x) by nth x 2^by steps; its modulus a constant, so each
/// remainder is a multiplication (a jump over skipped values is on a switch's path).
template <int c>
void
AdvanceComponent(double* x, uint64_t nth, int by)
{
    const PowersOfTwo& powers = Powers();
    constexpr uint64_t m = kModulus[c];
    uint64_t v[3] = {uint64_t(x[0]), uint64_t(x[1]), uint64_t(x[2])};
    for (int bit = 0; bit < 64 && nth >> bit != 0; bit++)
    {
        if (nth >> bit & 1)
        {
            const Matrix& a = powers.p[c][by + bit];
            uint64_t w[3];
            for (int i = 0; i < 3; i++)
            {
                w[i] = (a[i][0] * v[0] % m + a[i][1] * v[1] % m + a[i][2] * v[2] % m) % m;
            }
            v[0] = w[0];
            v[1] = w[1];
            v[2] = w[2];
        }
    }
    for (int i = 0; i < 3; i++)
    {
        x[i] = double(v[i]);
    }
}

/// Advance each component of `s` by nth x 2^by steps.
void
Advance(double s[6], uint64_t nth, int by)
{
    AdvanceComponent<0>(s, nth, by);
    AdvanceComponent<1>(s + 3, nth, by);
}

} // namespace

void
FeroceUniformStream::Mrg32k3a::Start(uint32_t seed, uint64_t stream, uint64_t substream)
{
    for (double& v : s)
    {
        v = seed;
    }
    Advance(s, stream, 127);
    Advance(s, substream, 76);
}

void
FeroceUniformStream::Mrg32k3a::Jump(uint64_t n)
{
    Advance(s, n, 0);
}

TypeId
FeroceUniformStream::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FeroceUniformStream")
                            .SetParent<UniformRandomVariable>()
                            .SetGroupName("Feroce")
                            .AddConstructor<FeroceUniformStream>();
    return tid;
}

void
FeroceUniformStream::SetStream(int64_t stream)
{
    RandomVariableStream::SetStream(stream);
    m_noted = false; // the base class made a new generator
    m_skipped = 0;   // the skipped values were the old generator's
    m_own = stream >= 0;
    if (m_own)
    {
        // the state RandomVariableStream::SetStream gave its RngStream
        m_mrg.Start(RngSeedManager::GetSeed(),
                    (uint64_t(1) << 63) + uint64_t(stream),
                    RngSeedManager::GetRun());
    }
}

void
FeroceUniformStream::Note()
{
    m_rng = Peek();
    m_min = GetMin();
    m_max = GetMax();
    m_antithetic = IsAntithetic();
    m_unit = m_min == 0 && m_max == 1 && !m_antithetic;
    m_noted = true;
}

void
FeroceUniformStream::CatchUp()
{
    // a few values are stepped over (a step is a few dozen instructions); more are jumped, one
    // product of a matrix and the state per bit of their count
    if (m_skipped <= kStepped)
    {
        for (; m_skipped != 0; m_skipped--)
        {
            m_mrg.Next();
        }
        return;
    }
    m_mrg.Jump(m_skipped);
    m_skipped = 0;
}

} // namespace ns3
