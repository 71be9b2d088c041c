/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-channel.h"

#include "feroce-net-device.h"

#include "ns3/abort.h"
#include "ns3/feroce-pooled-event.h"
#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceChannel");
NS_OBJECT_ENSURE_REGISTERED(FeroceChannel);

namespace
{
/// A frame's arrival at the far end (what MakeEvent would build, from a free list).
class FrameArrival : public FerocePooledEvent<FrameArrival>
{
  public:
    FrameArrival(FeroceNetDevice* device, Ptr<FeroceFrame> frame)
        : m_device(device),
          m_frame(std::move(frame))
    {
    }

  protected:
    void Notify() override
    {
        m_device->ReceiveFrame(m_frame);
    }

  private:
    FeroceNetDevice* m_device;
    Ptr<FeroceFrame> m_frame;
};
} // namespace

TypeId
FeroceChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FeroceChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Feroce")
                            .AddConstructor<FeroceChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link, each way",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&FeroceChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

FeroceChannel::FeroceChannel()
{
    NS_LOG_FUNCTION(this);
}

void
FeroceChannel::Attach(Ptr<FeroceNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_end[1], "FeroceChannel: a link has two ends; a third device cannot attach");
    m_end[m_end[0] ? 1 : 0] = device;
}

void
FeroceChannel::Transmit(Ptr<FeroceFrame> frame, const FeroceNetDevice* src, Time txTime) const
{
    FeroceNetDevice* peer = PeekPointer(m_end[0]) == src   ? PeekPointer(m_end[1])
                            : PeekPointer(m_end[1]) == src ? PeekPointer(m_end[0])
                                                           : nullptr;
    if (!peer)
    {
        return; // an unconnected end: the frame goes nowhere
    }
    // the devices outlive the simulation's events: no reference counted per frame
    FeroceSim::ScheduleWithContext(peer->GetNodeId(),
                                   txTime + m_delay,
                                   new FrameArrival(peer, std::move(frame)));
}

Ptr<FeroceNetDevice>
FeroceChannel::GetPeer(const FeroceNetDevice* device) const
{
    if (PeekPointer(m_end[0]) == device)
    {
        return m_end[1];
    }
    return PeekPointer(m_end[1]) == device ? m_end[0] : nullptr;
}

Time
FeroceChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
FeroceChannel::GetNDevices() const
{
    return m_end[1] ? 2 : (m_end[0] ? 1 : 0);
}

Ptr<NetDevice>
FeroceChannel::GetDevice(std::size_t i) const
{
    return i < 2 ? m_end[i] : nullptr;
}

} // namespace ns3
