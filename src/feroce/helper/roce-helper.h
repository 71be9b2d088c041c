/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_HELPER_H
#define ROCE_HELPER_H

#include "ns3/feroce-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/roce-nic.h"
#include "ns3/trace-helper.h"

#include <utility>
#include <vector>

namespace ns3
{

class FeroceNetDevice;
class RoceReceiverApp;
class DcqcnReactionPoint;

/**
 * \ingroup feroce
 * N senders -> one switch -> one receiver, as RoceHelper::InstallIncast builds it:
 * hosts 0..N-1 the senders, host N the receiver (the switch's port i faces host i).
 */
struct RoceIncast
{
    NodeContainer hosts;
    Ptr<FeroceSwitch> sw;
    std::vector<Ptr<RoceNic>> senders;
    Ptr<RoceNic> receiver;
    Ptr<RoceReceiverApp> receiverApp;    ///< on the receiver, with every receiving queue pair
    std::vector<Ptr<RoceQueuePair>> qps; ///< sender i's queue pair (ConnectIncast)
    std::vector<Ptr<RoceQueuePair>> receiverQps; ///< its peer on the receiver
    /// The switch port toward the receiver.
    uint32_t GetReceiverPort() const;
    /// Every NIC's Validate, then the switch's: "" or the first message.
    std::string Validate() const;
};

/**
 * \ingroup feroce
 * \brief Installs RoCE NICs, links them with FeroceChannels, connects queue
 * pairs and writes pcaps.
 *
 * Pcaps are DLT_EN10MB with nanosecond timestamps: each frame as it is on
 * the wire without FCS, sent and received, through the usual EnablePcap and
 * EnablePcapAll; they work for every FeroceNetDevice (switch ports too).
 * Each NIC gets the next IPv4 address of 10.0.0.0/8 (10.0.0.1, 10.0.0.2...).
 */
class RoceHelper : public PcapHelperForDevice
{
  public:
    RoceHelper();

    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /// The DataRate of the NICs to install: what SetDeviceAttribute gave, else the default.
    DataRate GetDeviceDataRate() const;
    /**
     * DCQCN on the NICs to install: the preset (paper, connectx or hpcc) scaled to
     * their DataRate, then the defaults the user changed (--ns3::DcqcnReactionPoint::...),
     * then overrides (attribute of DcqcnReactionPoint, value).  Returns "" or the
     * message naming the bad preset or attribute value.
     */
    /**
     * A reaction point: the preset scaled to lineRate, the defaults the user changed,
     * then overrides; validated.  Null with *error set when something is wrong.
     */
    static Ptr<DcqcnReactionPoint> CreateReactionPoint(
        const std::string& preset,
        DataRate lineRate,
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& overrides,
        std::string* error);
    std::string SetReactionPoint(
        const std::string& preset,
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& overrides = {});
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /// Attributes of every queue pair the installed NICs create.
    void SetQueuePairAttribute(std::string name, const AttributeValue& value);

    /// One NIC on each node, not linked.
    NetDeviceContainer Install(NodeContainer nodes);
    Ptr<RoceNic> Install(Ptr<Node> node);
    /// A NIC on each of two nodes, linked by one channel.
    NetDeviceContainer InstallLink(Ptr<Node> a, Ptr<Node> b);
    /// Link two devices (NICs or switch ports) with a new channel of the channel attributes.
    Ptr<FeroceChannel> Link(Ptr<FeroceNetDevice> a, Ptr<FeroceNetDevice> b);

    /// Attributes of the switches InstallSwitch creates.
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    /// A switch aggregated to the node (ports come with AttachHost and LinkSwitches).
    Ptr<FeroceSwitch> InstallSwitch(Ptr<Node> node);
    /// A NIC on the host linked to a new port of the switch.
    Ptr<RoceNic> AttachHost(Ptr<FeroceSwitch> sw, Ptr<Node> host);
    /// A new port on each switch, linked (the link's rate: the device DataRate unless given).
    Ptr<FeroceChannel> LinkSwitches(Ptr<FeroceSwitch> a, Ptr<FeroceSwitch> b, DataRate rate);
    /**
     * A switch on switchNode (then switchNode->GetObject<FeroceSwitch>())
     * with a NIC on each host linked to it, and the routes filled.  Returns
     * the NICs in the order of the hosts.
     */
    NetDeviceContainer InstallStar(Ptr<Node> switchNode, NodeContainer hosts);
    /**
     * Fill every switch's forwarding table with the shortest paths (in hops)
     * to every NIC this helper installed; ties are kept, for ECMP.  Links that
     * are down (FeroceChannel::IsUp) carry no route.
     */
    void PopulateRoutes();
    /**
     * Every switch's routes computed again over the links that are up now, as the
     * HPCC simulator does when a link goes down: call it when a link goes down or
     * comes back (with every link up, the routes PopulateRoutes gave).
     */
    void RecomputeRoutes();

    /**
     * Fixes the random streams of everything this helper installed (switches, then
     * the queue pairs of the NICs, in order of creation), from stream on; returns
     * the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * An incast: senders hosts and a receiver host on a new star switch, and a
     * RoceReceiverApp on the receiver.  The NICs have no queue pair yet (their DCQCN
     * parameters are fixed by the first): ConnectIncast adds them.
     */
    RoceIncast InstallIncast(uint32_t senders);
    /// A queue pair from each sender to the receiver, the receiver's given to its app.
    void ConnectIncast(RoceIncast& incast);

    /// A queue pair on each NIC, connected to each other (first: on a, second: on b).
    static std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> ConnectQueuePairs(Ptr<RoceNic> a,
                                                                               Ptr<RoceNic> b);

    /// The event scheduler feroce's programs run on unless the user picks another.
    static const char* const kDefaultScheduler;
    /// The simulator implementation feroce's programs run on unless the user picks another.
    static const char* const kDefaultSimulatorImpl;
    /**
     * Make kDefaultScheduler and kDefaultSimulatorImpl the defaults of ns-3's
     * SchedulerType and SimulatorImplementationType.  Every ns-3 scheduler
     * orders events by time, then by insertion, and FeroceSimulatorImpl
     * numbers events as DefaultSimulatorImpl does, so results are
     * identical; the speed is not (src/feroce/doc/performance.md).  Call it
     * before CommandLine::Parse, so that --SchedulerType=... and
     * --SimulatorImplementationType=... still win; a value given in
     * NS_GLOBAL_VALUE is kept.  FeroceStudy::Parse and feroce-bench call it.
     */
    static void SetDefaultSimulator();
    /**
     * Check a --SchedulerType=... or --SimulatorImplementationType=... among
     * the arguments before ns-3's CommandLine sees it (which would print its
     * help and exit 1, or abort later): the message naming the value and
     * what is allowed, or "" when each names a type of the right kind (or is
     * absent).
     */
    static std::string CheckSimulatorArguments(int argc, char** argv);
    /**
     * The scheduler and the simulator implementation set (global values) work together:
     * ns-3's HeapScheduler misorders events FeroceSimulatorImpl removes.  "" or the message.
     */
    static std::string CheckSimulatorPair();

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;
    Ptr<AttributeValue> m_deviceRate; ///< DataRate given to SetDeviceAttribute
    ObjectFactory m_channelFactory;
    ObjectFactory m_switchFactory;
    std::vector<Ptr<RoceNic>> m_nics;
    std::vector<Ptr<FeroceSwitch>> m_switches;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_qpAttributes;
    static uint32_t s_nextAddress;
};

} // namespace ns3

#endif /* ROCE_HELPER_H */
