/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-channel.h"

#include "feroce-net-device.h"

#include "ns3/abort.h"
#include "ns3/feroce-event.h"
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
/// A frame's arrival at the far end, from a free list (frames in flight are few).
struct FrameArrival : FeroceEvent
{
    FeroceNetDevice* device;
    FeroceFrame* frame; ///< a reference, held until it arrives
    FrameArrival* next; ///< in the free list
    static FrameArrival* s_free;

    static FrameArrival* Make(FeroceNetDevice* device, Ptr<FeroceFrame> frame)
    {
        FrameArrival* a = s_free;
        if (a)
        {
            s_free = a->next;
        }
        else
        {
            a = new FrameArrival; // never freed: reused by later frames
            a->run = &Run;
            a->drop = &Drop;
        }
        a->device = device;
        a->frame = PeekPointer(frame);
        a->frame->Ref();
        return a;
    }

    /// Back to the free list; the caller takes the frame's reference.
    Ptr<FeroceFrame> Release()
    {
        Ptr<FeroceFrame> f(frame, false);
        next = s_free;
        s_free = this;
        return f;
    }

    static void Run(FeroceEvent* e)
    {
        FrameArrival* a = static_cast<FrameArrival*>(e);
        FeroceNetDevice* device = a->device;
        device->ReceiveFrame(a->Release());
    }

    static void Drop(FeroceEvent* e)
    {
        static_cast<FrameArrival*>(e)->Release();
    }
};

FrameArrival* FrameArrival::s_free = nullptr;
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
                                   FrameArrival::Make(peer, std::move(frame)));
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
