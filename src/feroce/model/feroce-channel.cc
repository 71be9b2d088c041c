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

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceChannel");
NS_OBJECT_ENSURE_REGISTERED(FeroceChannel);

namespace
{
/// Some link of the simulation went down once: arrivals check their link's epoch from then on.
bool g_anyLinkDown = false;
} // namespace

/// A frame's arrival at the far end, from a free list (frames in flight are few). Line-aligned:
/// its turn reads the event's first line only (the device and the frame are its ahead[0] and
/// ahead[2]; a free arrival is linked through `next`).
struct alignas(64) FeroceChannelArrival : FeroceEvent
{
    /// The channel's epoch when the frame started, kept once a link has gone down (until then
    /// every epoch is 0: ForgetEpochs), so a run whose links stay up writes no second line.
    uint32_t epoch{0};
    static FeroceChannelArrival* s_free;

    /// Every arrival made, in flight or free.
    static std::vector<FeroceChannelArrival*>& All()
    {
        static std::vector<FeroceChannelArrival*> all;
        return all;
    }

    /// The first link goes down: every arrival made so far started its frame in epoch 0.
    static void ForgetEpochs()
    {
        for (FeroceChannelArrival* a : All())
        {
            a->epoch = 0;
        }
    }

    static FeroceChannelArrival* Make(FeroceNetDevice* device,
                                      const void* owner,
                                      FeroceFrame* frame,
                                      uint32_t epoch)
    {
        FeroceChannelArrival* a = s_free;
        if (a)
        {
            s_free = static_cast<FeroceChannelArrival*>(a->next);
        }
        else
        {
            a = new FeroceChannelArrival; // never freed: reused by later frames
            a->run = &Run;
            a->drop = &Drop;
            All().push_back(a);
        }
        a->ahead[0] = device;
        a->ahead[1] = device->SubclassHead();
        a->ahead[2] = frame; // a reference, held until it arrives
        a->ahead[3] = owner;
        frame->Ref();
        if (g_anyLinkDown)
        {
            a->epoch = epoch;
        }
        return a;
    }

    FeroceNetDevice* Device() const
    {
        return static_cast<FeroceNetDevice*>(const_cast<void*>(ahead[0]));
    }

    /// Back to the free list; the caller takes the frame's reference.
    Ptr<FeroceFrame> Release()
    {
        Ptr<FeroceFrame> f(static_cast<FeroceFrame*>(const_cast<void*>(ahead[2])), false);
        next = s_free;
        s_free = this;
        return f;
    }

    static void Run(FeroceEvent* e)
    {
        FeroceChannelArrival* a = static_cast<FeroceChannelArrival*>(e);
        FeroceNetDevice* device = a->Device();
        // (a run whose links never go down reads neither the epoch nor the channel)
        bool check = g_anyLinkDown;
        uint32_t epoch = check ? a->epoch : 0;
        Ptr<FeroceFrame> frame = a->Release();
        if (check &&
            !DynamicCast<FeroceChannel>(device->GetChannel())->Arrives(epoch, frame, device))
        {
            return;
        }
        device->ReceiveFrame(frame);
    }

    static void Drop(FeroceEvent* e)
    {
        static_cast<FeroceChannelArrival*>(e)->Release();
    }
};

FeroceChannelArrival* FeroceChannelArrival::s_free = nullptr;

TypeId
FeroceChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FeroceChannel")
            .SetParent<Channel>()
            .SetGroupName("Feroce")
            .AddConstructor<FeroceChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the link, each way",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FeroceChannel::SetDelay, &FeroceChannel::GetDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("LinkState",
                            "The link went down (false) or came back (true)",
                            MakeTraceSourceAccessor(&FeroceChannel::m_linkStateTrace),
                            "ns3::FeroceChannel::LinkStateTracedCallback")
            .AddTraceSource("Drop",
                            "A frame lost because the link was down",
                            MakeTraceSourceAccessor(&FeroceChannel::m_dropTrace),
                            "ns3::Packet::TracedCallback");
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
    std::size_t i = m_end[0] ? 1 : 0;
    m_end[i] = device;
    UpdateFarEnds();
}

void
FeroceChannel::UpdateFarEnds()
{
    for (std::size_t i = 0; i < 2; i++)
    {
        if (!m_end[i])
        {
            continue;
        }
        FeroceFarEnd far;
        if (FeroceNetDevice* peer = PeekPointer(m_end[1 - i]))
        {
            far.device = peer;
            far.owner = peer->AheadOwner();
            far.delaySteps = m_delay.GetTimeStep();
            far.node = peer->GetNodeId();
            far.epoch = m_epoch;
        }
        m_end[i]->SetFarEnd(far);
    }
}

void
FeroceChannel::Send(const FeroceFarEnd& far, const Ptr<FeroceFrame>& frame, int64_t txSteps)
{
    // a frame started while the link is down is lost when it arrives (Arrives);
    // the devices outlive the simulation's events: no reference counted per frame
    FeroceSim::ScheduleStepsWithContext(
        far.node,
        uint64_t(txSteps + far.delaySteps),
        FeroceChannelArrival::Make(far.device, far.owner, PeekPointer(frame), far.epoch));
}

bool
FeroceChannel::Arrives(uint32_t epoch, const Ptr<FeroceFrame>& frame, const FeroceNetDevice* to)
{
    if (epoch == m_epoch && m_up)
    {
        return true;
    }
    Lose(frame, to); // on the wire when the link went down, or started while it was down
    return false;
}

void
FeroceChannel::Lose(const Ptr<FeroceFrame>& frame, const FeroceNetDevice* to)
{
    m_lost++;
    m_lostTo[PeekPointer(m_end[1]) == to ? 1 : 0]++;
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(frame->GetPacket());
    }
}

void
FeroceChannel::SetUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    m_epoch++; // what is on the wire now is lost, and so is what starts while it is down
    UpdateFarEnds();
    if (up)
    {
        m_downTotal += Simulator::Now() - m_downSince;
    }
    else
    {
        if (!g_anyLinkDown)
        {
            FeroceChannelArrival::ForgetEpochs();
            g_anyLinkDown = true;
        }
        m_downSince = Simulator::Now();
    }
    m_linkStateTrace(up);
    for (auto& end : m_end)
    {
        if (end)
        {
            end->NotifyLinkChange();
        }
    }
}

bool
FeroceChannel::IsUp() const
{
    return m_up;
}

void
FeroceChannel::ScheduleDown(Time at, Time until)
{
    NS_ABORT_MSG_IF(at.IsStrictlyNegative() || until <= at,
                    "FeroceChannel::ScheduleDown: expected 0 <= at < until");
    Simulator::Schedule(at, &FeroceChannel::SetUp, this, false);
    if (until != Time::Max())
    {
        Simulator::Schedule(until, &FeroceChannel::SetUp, this, true);
    }
}

uint64_t
FeroceChannel::GetFramesLost() const
{
    return m_lost;
}

uint64_t
FeroceChannel::GetFramesLostTo(const FeroceNetDevice* device) const
{
    return PeekPointer(m_end[0]) == device   ? m_lostTo[0]
           : PeekPointer(m_end[1]) == device ? m_lostTo[1]
                                             : 0;
}

Time
FeroceChannel::GetDownTime() const
{
    return m_up ? m_downTotal : m_downTotal + (Simulator::Now() - m_downSince);
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

void
FeroceChannel::SetDelay(Time delay)
{
    m_delay = delay;
    UpdateFarEnds(); // frames on the wire keep the delay they left with
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
