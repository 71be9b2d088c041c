/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SWITCH_PORT_H
#define FEROCE_SWITCH_PORT_H

#include "feroce-net-device.h"

#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class FeroceSwitch;

/**
 * \ingroup feroce
 * \brief One port of a FeroceSwitch: eight egress queues and a control
 * queue over a FeroceNetDevice.
 *
 * Transmit order: PFC frames the switch generates, then the control queue
 * (ACK, NAK, CNP) by strict priority, then the data priorities by weighted
 * round robin (the switch's QueueWeights and WrrQuantum: a priority's turn
 * lasts its weight in frames, or in WrrQuantum bytes per unit of weight with
 * a deficit counter; all weights 1 in frames is plain round robin).
 * One event per frame that has to wait for the wire (a wake-up at the end
 * of the frame before it); a frame that finds the wire free starts at once.
 * A priority paused by a PFC frame from the peer is skipped until its pause
 * ends; the control class is never paused (it is lossy and tiny).
 */
class FeroceSwitchPort : public FeroceNetDevice
{
  public:
    static TypeId GetTypeId();

    FeroceSwitchPort();
    ~FeroceSwitchPort() override;

    static const uint8_t kControlQueue = 8; ///< index of the control queue

    /// A queued frame and where its buffer is accounted.
    struct Entry
    {
        Ptr<FeroceFrame> frame;
        uint32_t inPort;
        uint8_t priority; ///< ingress accounting class (0..7)
        uint8_t headroom; ///< its bytes were taken from the ingress headroom
    };

    void SetSwitch(FeroceSwitch* sw, uint32_t index);
    uint32_t GetPortIndex() const;
    FeroceSwitch* GetSwitch() const;
    void Enqueue(uint8_t queue, const Entry& e);
    /// Send a PFC frame ahead of everything else.
    void SendPfc(Ptr<FeroceFrame> frame);
    uint64_t GetQueueBytes(uint8_t queue) const;
    /// Time the switch has kept the upstream of this port paused for prio (XOFF to XON), so far.
    Time GetUpstreamPausedTime(uint8_t prio) const;
    uint64_t GetPauseFramesReceived() const;

    /// PFC counters of the port.
    struct Counters
    {
        uint64_t pauseFramesSent{0};     ///< PAUSE (quanta > 0) the switch sent upstream here
        uint64_t resumeFramesSent{0};    ///< XON (quanta 0) sent upstream here
        uint64_t pauseFramesReceived{0}; ///< PFC frames received from the peer (PAUSE or XON)
    };

    const Counters& GetCounters() const;

  protected:
    void DoDispose() override;
    void TrySend() override;
    void HandleFrame(Ptr<FeroceFrame> frame) override;

  private:
    friend class FeroceSwitch;

    static const uint8_t kData = 0;    ///< NextQueue: a data priority (PickDataQueue says which)
    static const uint8_t kPfcOut = 9;  ///< NextQueue: a PFC frame of the switch's own
    static const uint8_t kNone = 0xff; ///< NextQueue: nothing may be sent

    /// What to send next: kPfcOut, kControlQueue, kData (some unpaused data priority), or kNone.
    uint8_t NextQueue() const;
    /// The data priority whose turn it is (one must be sendable): weighted round robin.
    uint8_t PickDataQueue();
    void HandlePause(Ptr<FeroceFrame> frame);

    FeroceSwitch* m_switch;
    uint32_t m_index;
    std::deque<Entry> m_queue[9];
    uint64_t m_bytes[9];
    uint8_t m_nonEmpty; ///< bit q: data queue q holds a frame
    std::deque<Ptr<FeroceFrame>> m_pfcOut;
    uint8_t m_rrNext;      ///< the data priority whose turn it is
    bool m_turnStarted;    ///< its quantum has been added for this turn
    uint64_t m_deficit[8]; ///< weighted round robin credit (frames, or bytes)
    Counters m_counters;
};

} // namespace ns3

#endif /* FEROCE_SWITCH_PORT_H */
