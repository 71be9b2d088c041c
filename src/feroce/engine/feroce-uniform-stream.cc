/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-uniform-stream.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FeroceUniformStream);

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
    m_rng = nullptr; // the base class made a new generator
}

void
FeroceUniformStream::Note()
{
    m_rng = Peek();
    m_min = GetMin();
    m_max = GetMax();
    m_antithetic = IsAntithetic();
}

} // namespace ns3
