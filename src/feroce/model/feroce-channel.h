/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_CHANNEL_H
#define FEROCE_CHANNEL_H

#include "feroce-frame.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{

class FeroceNetDevice;

/**
 * \ingroup feroce
 * \brief A full-duplex point-to-point Ethernet link between two feroce
 * devices (NIC or switch port) with a propagation delay.
 *
 * The sender serializes (FeroceNetDevice computes the time from its rate and
 * the frame's wire bytes); the channel hands the whole frame to the peer at
 * the end of its last bit: one event per frame.
 */
class FeroceChannel : public Channel
{
  public:
    static TypeId GetTypeId();

    FeroceChannel();

    /// Attach one of the two ends; aborts on a third.
    void Attach(Ptr<FeroceNetDevice> device);
    /// `src` started a frame that takes txTime to serialize.
    void Transmit(Ptr<FeroceFrame> frame, const FeroceNetDevice* src, Time txTime) const;
    /// The other end of the link from `device` (null if not attached).
    Ptr<FeroceNetDevice> GetPeer(const FeroceNetDevice* device) const;
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    Time m_delay;
    Ptr<FeroceNetDevice> m_end[2];
};

} // namespace ns3

#endif /* FEROCE_CHANNEL_H */
