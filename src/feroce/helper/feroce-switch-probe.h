/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SWITCH_PROBE_H
#define FEROCE_SWITCH_PROBE_H

#include "ns3/feroce-switch.h"
#include "ns3/nstime.h"

#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * What a study watches on a switch, from its trace sources: the data bytes
 * queued per egress port (the maximum since the last read, and of the whole
 * run), the buffer's peak, and the intervals during which each (port,
 * priority) held its upstream paused, from the PAUSE to the XON.
 */
class FeroceSwitchProbe
{
  public:
    explicit FeroceSwitchProbe(Ptr<FeroceSwitch> sw);

    /// Most data bytes queued on the port since the last call (then reset to the current bytes).
    uint64_t TakeWindowMax(uint32_t port);
    /// Most data bytes queued on any port during the run.
    uint64_t GetQueueMax() const;
    /// Most data bytes queued on the port during the run.
    uint64_t GetQueueMax(uint32_t port) const;
    /// Total time during which the port held a priority of its upstream paused (closing
    /// intervals still open at `now`).
    Time GetPauseTime(Time now) const;
    /// The pause intervals as CSV rows "port,priority,start_ns,end_ns" (still-open ones end at
    /// now).
    void WritePauseIntervals(std::ostream& out, Time now) const;

  private:
    void QueueChanged(uint32_t port, uint8_t queue, uint64_t bytes);
    void PauseSent(uint32_t port, uint8_t priority, uint16_t quanta);

    struct Interval
    {
        uint32_t port;
        uint8_t priority;
        Time start;
        Time end;
    };

    Ptr<FeroceSwitch> m_switch;
    std::vector<uint64_t> m_queueBytes; ///< per (port, data queue)
    std::vector<uint64_t> m_portBytes;
    std::vector<uint64_t> m_windowMax;
    std::vector<uint64_t> m_runMax;
    std::vector<Time> m_pausedSince; ///< per (port, priority); negative: not paused
    std::vector<Interval> m_intervals;
};

} // namespace ns3

#endif /* FEROCE_SWITCH_PROBE_H */
