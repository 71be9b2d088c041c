/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_CHANNEL_H
#define FEROCE_CHANNEL_H

#include "feroce-frame.h"

#include "ns3/channel.h"
#include "ns3/feroce-event.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class FeroceNetDevice;
struct FeroceFarEnd;

/**
 * \ingroup feroce
 * \brief A full-duplex point-to-point Ethernet link between two feroce
 * devices (NIC or switch port) with a propagation delay.
 *
 * The sender serializes (FeroceNetDevice computes the time from its rate and
 * the frame's wire bytes); the channel hands the whole frame to the peer at
 * the end of its last bit: one event per frame.
 *
 * A link can go down and come back (SetUp, ScheduleDown): both directions
 * at once, as a cable, a port or a powered-off host.  A frame on the wire
 * when the link goes down is lost, and so is every frame started while it
 * is down (GetFramesLost, the Drop trace); the devices keep serializing, so
 * a port toward a dead link drains into it and a NIC's queue pairs see no
 * ACK.  Both ends' link-change callbacks run at each change.
 */
class FeroceChannel : public Channel
{
  public:
    static TypeId GetTypeId();

    FeroceChannel();

    /// Attach one of the two ends; aborts on a third.
    void Attach(Ptr<FeroceNetDevice> device);
    /// A frame that takes txSteps time steps to serialize started now toward `far`, the far end
    /// its sender holds (FeroceNetDevice::SetFarEnd).
    static void Send(const FeroceFarEnd& far, const Ptr<FeroceFrame>& frame, int64_t txSteps);
    /// The other end of the link from `device` (null if not attached).
    Ptr<FeroceNetDevice> GetPeer(const FeroceNetDevice* device) const;
    void SetDelay(Time delay);
    Time GetDelay() const;

    /// Take the link down (false) or bring it back (true), now.
    void SetUp(bool up);
    bool IsUp() const;
    /// Down at `at` (from now), up again at `until` (Time::Max(): for good).
    void ScheduleDown(Time at, Time until = Time::Max());
    /// Frames lost because the link was down (on the wire then, or started while down).
    uint64_t GetFramesLost() const;
    /// Of those, the frames that were on their way to `device` (0 if it is no end).
    uint64_t GetFramesLostTo(const FeroceNetDevice* device) const;
    /// Tell each end its far end as it is now (FeroceNetDevice::SetFarEnd): after an end has a
    /// new node id (the context of the frames that arrive at it) or a new owner
    /// (FeroceNetDevice::AheadOwner, fetched ahead of their arrival).
    void UpdateFarEnds();
    /// Time the link has been down, so far.
    Time GetDownTime() const;

    typedef void (*LinkStateTracedCallback)(bool up);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    friend struct FeroceChannelArrival; // checks m_epoch when a frame arrives

    /// A frame that arrives now was sent in epoch `epoch`: false (and counted lost) if the link
    /// went down since.
    bool Arrives(uint32_t epoch, const Ptr<FeroceFrame>& frame, const FeroceNetDevice* to);
    void Lose(const Ptr<FeroceFrame>& frame, const FeroceNetDevice* to);

    Ptr<FeroceNetDevice> m_end[2];
    Time m_delay;
    uint32_t m_epoch{0}; ///< changes of state: a frame sent in another epoch is lost
    bool m_up{true};
    uint64_t m_lost{0};
    uint64_t m_lostTo[2]{}; ///< per end (as m_end): the frames lost on their way to it
    Time m_downSince;
    Time m_downTotal;
    TracedCallback<bool> m_linkStateTrace;
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif /* FEROCE_CHANNEL_H */
