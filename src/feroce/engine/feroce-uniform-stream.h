/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_UNIFORM_STREAM_H
#define FEROCE_UNIFORM_STREAM_H

#include "ns3/random-variable-stream.h"
#include "ns3/rng-stream.h"

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
 * generator, read through what it noted at its first draw: it is a
 * UniformRandomVariable, so it takes its automatic stream number when it is
 * created, as the one it replaces did.  Its owner changes the stream with
 * this class's SetStream (which notes the new generator) and leaves Min,
 * Max and Antithetic at what they were at the first draw.
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
        if (m_rng == nullptr)
        {
            Note();
        }
        double v = m_min + m_rng->RandU01() * (m_max - m_min);
        return m_antithetic ? m_min + (m_max - v) : v;
    }

  private:
    /// Read the generator, bounds and Antithetic once, through the base class's getters.
    void Note();

    RngStream* m_rng{nullptr};
    double m_min{0};
    double m_max{1};
    bool m_antithetic{false};
};

} // namespace ns3

#endif /* FEROCE_UNIFORM_STREAM_H */
