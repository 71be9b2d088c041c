/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_CPU_TIME_H
#define FEROCE_CPU_TIME_H

namespace ns3
{

/**
 * \ingroup feroce
 * CPU seconds (user and system) of this process so far: what the studies' speed line and
 * feroce-bench report, less sensitive than the wall time to other programs sharing the machine.
 */
double FeroceCpuSeconds();

/// The peak resident memory of this process so far, in kB.
long FerocePeakRssKb();

} // namespace ns3

#endif /* FEROCE_CPU_TIME_H */
