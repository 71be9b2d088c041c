/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_SWITCH_PORT_H
#define FEROCE_SWITCH_PORT_H

#include "feroce-net-device.h"
#include "feroce-switch-buffer.h"

#include "ns3/event-id.h"
#include "ns3/feroce-cp.h"
#include "ns3/feroce-ring.h"
#include "ns3/traced-callback.h"

#include <cstring>

namespace ns3
{

class FeroceSwitch;
class FeroceUniformStream;

/**
 * \ingroup feroce
 * \brief One port of a FeroceSwitch: its eight egress queues and control
 * queue, their ECN marking, and the PFC it sends upstream, over a
 * FeroceNetDevice.
 *
 * A frame's trip: the port hands what it receives (other than a PFC frame
 * for itself) to its switch, which admits it into the switch's buffer and
 * enqueues it on the egress port.  The egress port marks it (at enqueue or
 * dequeue, by the core's congestion point), sends it when its turn comes,
 * and releases its bytes from the buffer; the PFC decision that release
 * returns is carried out by the frame's ingress port.  Switch and port do
 * not call each other back: the switch calls down (Enqueue, Pfc) and the
 * port calls up only with what it received.
 *
 * Transmit order: PFC frames the port sends upstream, then the control
 * queue (ACK, NAK, CNP) by strict priority, then the data priorities by
 * weighted round robin (Config::quantum: a priority's turn lasts its
 * weight in frames, or in bytes with a deficit counter; all weights 1 in
 * frames is plain round robin).  One event per frame that has to wait for
 * the wire (a wake-up at the end of the frame before it); a frame that
 * finds the wire free starts at once.  A priority paused by a PFC frame
 * from the peer is skipped until its pause ends; the control class is
 * never paused by PFC (it is lossy and tiny), but an 802.3x PAUSE from the
 * peer holds everything, the control queue included.  The PFC it sends
 * upstream can be 802.3x PAUSE instead, or both (Config).  Its PFC
 * watchdog (Config::watchdogDetect) finds a data queue held by its peer's
 * PAUSE too long and drops or forwards what it holds until the storm ends.
 */
class FeroceSwitchPort : public FeroceNetDevice
{
  public:
    static TypeId GetTypeId();

    FeroceSwitchPort();
    ~FeroceSwitchPort() override;

    static const uint8_t kControlQueue = 8; ///< index of the control queue

    /// How the port schedules, marks and pauses (set by its switch before frames flow).
    struct Config
    {
        uint64_t quantum[8]{1, 1, 1, 1, 1, 1, 1, 1}; ///< credit a data priority's turn adds
        bool byteQuantum{false};      ///< quantum in bytes (deficit round robin), not frames
        bool ecn{false};              ///< mark CE
        feroce_cp_params cp[8]{};     ///< each data priority's congestion point
        uint16_t pauseQuanta{0xffff}; ///< the pause time of the PAUSE frames it sends
        bool sendPfc{true};           ///< XOFF/XON of a class: a PFC frame
        bool sendLinkPause{false};    ///< and/or an 802.3x PAUSE while a class is in XOFF
        Time watchdogDetect;          ///< PFC watchdog: paused this long with frames (0: off)
        Time watchdogRestore;         ///< a storm ends after this long without a PAUSE
        bool watchdogDrop{true};      ///< in a storm: drop (else forward, ignoring the PAUSE)
    };

    /// A queued frame and where its buffer is accounted: 16 bytes, four to a cache line.
    struct Entry
    {
        FeroceFrame* frame;              ///< holds one reference, given up when the frame leaves
        uint32_t in;                     ///< its ingress port's index
        uint8_t priority;                ///< its ingress class (0..7)
        FeroceSwitchBuffer::Place place; ///< where the buffer admitted it
    };

    /// The port's switch (whose buffer, marking stream and traces it uses) and its index there.
    void SetSwitch(FeroceSwitch* sw, uint32_t index);
    void SetConfig(const Config& config);
    /// What the switch gave it at start (its quanta, ECN thresholds per priority...).
    const Config& GetConfig() const;

    uint32_t GetPortIndex() const
    {
        return m_index; // inline: the switch reads it for every frame
    }

    FeroceSwitch* GetSwitch() const;
    /// Queue a frame the switch forwards here (marking it CE if ECN says so at enqueue); e.frame
    /// is not yet referenced by the entry (the queue takes its reference).
    void Enqueue(uint8_t queue, const Entry& e);
    /**
     * Carry out the buffer's PFC decision for the class (this port, prio):
     * XOFF sends a PAUSE upstream and refreshes it at half its time while
     * XOFF lasts; XON sends the resume.
     */
    void Pfc(uint8_t prio, feroce_pfc_action action);
    uint64_t GetQueueBytes(uint8_t queue) const;
    /// Time the switch has kept the upstream of this port paused for prio (XOFF to XON), so far.
    Time GetUpstreamPausedTime(uint8_t prio) const;
    uint64_t GetPauseFramesReceived() const;

    /// Counters of the port.
    struct Counters
    {
        uint64_t pauseFramesSent{0};         ///< PAUSE (quanta > 0) the switch sent upstream here
        uint64_t resumeFramesSent{0};        ///< XON (quanta 0) sent upstream here
        uint64_t pauseFramesReceived{0};     ///< PFC frames received from the peer (PAUSE or XON)
        uint64_t ecnMarks{0};                ///< frames its egress queues marked CE
        uint64_t linkPauseFramesSent{0};     ///< 802.3x PAUSE (quanta > 0) sent upstream here
        uint64_t linkPauseFramesReceived{0}; ///< 802.3x frames received (PAUSE or resume)
        uint64_t watchdogStorms{0};          ///< storms its PFC watchdog found
        uint64_t watchdogDrops{0};           ///< frames its PFC watchdog discarded
    };

    /// The PFC watchdog finds data queue prio in a storm now.
    bool IsInStorm(uint8_t prio) const;

    Counters GetCounters() const;

  protected:
    void DoDispose() override;
    void TrySend() override;
    void HandleFrame(const Ptr<FeroceFrame>& frame) override;

  private:
    static const uint8_t kData = 0;     ///< NextQueue: a data priority (PickDataQueue says which)
    static const uint8_t kPfcOut = 9;   ///< NextQueue: a PFC frame of the port's own
    static const uint8_t kNone = 0xff;  ///< NextQueue: nothing may be sent
    static const uint8_t kPfcWaits = 1; ///< m_waiting: m_pfcOut holds a frame
    static const uint8_t kControlWaits = 2; ///< m_waiting: the control queue holds a frame

    /// What to send next: kPfcOut, kControlQueue, kData (some unpaused data priority), or kNone.
    uint8_t NextQueue() const;
    /// Bit q: data priority q holds a frame and is not held by the peer (Held).
    uint8_t Sendable() const;
    /// The data priority whose turn it is (one must be sendable): weighted round robin.
    uint8_t PickDataQueue();
    /// The frame taken from queue `queue` (whose bytes no longer count it) goes on the wire: the
    /// queue's trace, its buffer released, its mark at dequeue, its transmission.
    void Depart(uint8_t queue, const Entry& e);
    /// The congestion point of a data queue that marks at `at` (one draw of the switch's
    /// stream): mark CE?
    void Mark(uint8_t queue, FeroceFrame* frame, feroce_mark_point at);
    /// A PFC frame for prio, or for PauseSender::kLink an 802.3x PAUSE, refreshed while in XOFF.
    void SendPause(uint8_t prio, uint16_t quanta);
    void RefreshPause(uint8_t prio);

    /// ECN is on (Config::ecn): some data queue marks, at one point or the other.
    bool Ecn() const
    {
        uint16_t both; // both points' bits in one load
        std::memcpy(&both, m_marks, sizeof both);
        return both != 0;
    }

    /// Data queue q is held by its peer's pause (and no watchdog storm forwards it).
    bool Held(uint8_t q) const
    {
        return IsPaused(q) && !(m_stormForward >> q & 1);
    }

    /// PFC watchdog: a PAUSE (or resume) from the peer for prio.
    void WatchPause(uint8_t prio, bool pause);
    void WatchCheck(uint8_t prio);
    /// Discard an entry the watchdog drops: its bytes leave the buffer.
    void WatchdogDrop(const Entry& e);

    /// One egress queue: its frames, their bytes, its round robin credit and quantum.
    struct alignas(64) Queue
    {
        FeroceRing<Entry> ring;
        uint64_t bytes{0};
        uint64_t deficit{0}; ///< weighted round robin credit (frames, or bytes); data only
        uint64_t quantum{1}; ///< credit a turn adds (Config::quantum); data only
        /// Config::cp's Kmin, beside the bytes Mark compares with it (the usual case: a queue
        /// up to Kmin is not marked); data only
        uint64_t kmin{0};
    };

    /// Pop the entry at the head of queue q (its reference goes with it).
    Entry PopFront(uint8_t q);
    /// Give up the frames queue q holds (their buffer bytes are not released).
    void Clear(uint8_t q);

    // What a frame's visit reads is in one cache line at the port's head (a large switch's
    // ports are visited in turn, each visit starting cold), then its queue's line and its
    // priority's marking parameters: the configuration as set (m_config) stays apart.
    alignas(64) FeroceSwitch* m_switch{nullptr};
    uint32_t m_index{0};
    uint8_t m_nonEmpty{0};     ///< bit q: data queue q holds a frame
    uint8_t m_rrNext{0};       ///< the data priority whose turn it is
    bool m_turnStarted{false}; ///< its quantum has been added for this turn
    uint8_t m_stormDrop{0};    ///< bit q: data queue q in a storm, its frames dropped
    uint8_t m_stormForward{0}; ///< bit q: data queue q in a storm, sent despite the PAUSE
    /// Bit q of [point]: data queue q marks at that feroce_mark_point; with ECN (Config::ecn)
    /// each data queue marks at one of the two, without it at neither (Ecn).
    uint8_t m_marks[2]{};
    bool m_byteQuantum{false}; ///< Config::byteQuantum
    uint8_t m_waiting{0};      ///< kPfcWaits | kControlWaits: what the other queues hold
    uint64_t m_ecnMarks{0};    ///< Counters::ecnMarks (written per marked frame)
    FeroceRing<Ptr<FeroceFrame>> m_pfcOut;
    Queue m_queue[9];
    Counters m_counters;
    Config m_config;
    /// The XOFF of this port's ingress classes (PFC) and, at kLink, of its 802.3x PAUSE
    PauseSender m_upstream;
    uint32_t m_linkXoff{0}; ///< classes of this port in XOFF (802.3x PAUSE sent while > 0)

    /// The PFC watchdog's view of a data queue.
    struct Watch
    {
        Time pausedSince{Time::Max()}; ///< held by its peer since (Max: not held)
        Time lastPause;                ///< the last PAUSE for it
        EventId check;
    };

    Watch m_watch[8];
};

} // namespace ns3

#endif /* FEROCE_SWITCH_PORT_H */
