/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-switch-buffer.h"

namespace ns3
{

int
FeroceSwitchBuffer::LosslessCount(const Params& p)
{
    int n = 0;
    for (uint8_t prio = 0; prio < 8; prio++)
    {
        n += p.lossless >> prio & 1;
    }
    return n;
}

uint64_t
FeroceSwitchBuffer::FixedBytes(const Params& p)
{
    uint64_t fixed = 0;
    for (uint64_t headroom : p.headroom)
    {
        fixed += 8 * p.reserve + LosslessCount(p) * headroom;
    }
    return fixed;
}

void
FeroceSwitchBuffer::Configure(const Params& p)
{
    m_p = p;
    m_sharedSize = p.size - FixedBytes(p);
    m_sharedUsed = 0;
    m_used = 0;
    m_peak = 0;
    m_classes.assign(p.headroom.size() * 8, Class());
    m_class = m_classes.data();
    m_headroom = m_p.headroom.data();
    m_reserve = p.reserve;
    m_lossless = p.lossless;
    m_pfc = p.pfc;
}

} // namespace ns3
