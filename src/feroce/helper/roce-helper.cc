/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcqcn-reaction-point.h"
#include "ns3/feroce-attributes.h"
#include "ns3/feroce-channel.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-vector.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pointer.h"
#include "ns3/roce-queue-pair.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/string.h"

#include <cstdlib>
#include <cstring>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHelper");

uint32_t RoceHelper::s_nextAddress = 0x0a000001; // 10.0.0.1

const char* const RoceHelper::kDefaultScheduler = "ns3::FeroceHeapScheduler";
const char* const RoceHelper::kDefaultSimulatorImpl = "ns3::FeroceSimulatorImpl";

namespace
{
/// The global value's default, unless NS_GLOBAL_VALUE names it (the user's choice).
void
BindUnlessSet(const std::string& name, const AttributeValue& value)
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env && std::strstr(env, (name + "=").c_str()))
    {
        return;
    }
    GlobalValue::Bind(name, value);
}

/// "" if every --NAME=VALUE among the arguments names a constructible child of parent.
std::string
CheckTypeArgument(int argc,
                  char** argv,
                  const std::string& name,
                  const std::string& parent,
                  const std::string& allowed)
{
    const std::string key = "--" + name + "=";
    for (int i = 1; i < argc; i++)
    {
        std::string arg = argv[i];
        if (arg.rfind(key, 0) != 0)
        {
            continue;
        }
        std::string value = arg.substr(key.size());
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(value, &tid) ||
            !tid.IsChildOf(TypeId::LookupByName(parent)) || !tid.HasConstructor())
        {
            return name + " = " + value + " is not allowed: expected " + allowed;
        }
    }
    return "";
}
} // namespace

void
RoceHelper::SetDefaultSimulator()
{
    // ns-3 keeps the scheduler as a TypeId and the implementation as its name
    BindUnlessSet("SchedulerType", TypeIdValue(TypeId::LookupByName(kDefaultScheduler)));
    BindUnlessSet("SimulatorImplementationType", StringValue(kDefaultSimulatorImpl));
}

std::string
RoceHelper::CheckSimulatorArguments(int argc, char** argv)
{
    std::string error = CheckTypeArgument(argc,
                                          argv,
                                          "SchedulerType",
                                          "ns3::Scheduler",
                                          "ns3::MapScheduler, ns3::ListScheduler, "
                                          "ns3::HeapScheduler, ns3::CalendarScheduler, "
                                          "ns3::PriorityQueueScheduler or "
                                          "ns3::FeroceHeapScheduler (feroce's default)");
    if (error.empty())
    {
        // the realtime and distributed implementations need set-up feroce's programs do not do
        error = CheckTypeArgument(argc,
                                  argv,
                                  "SimulatorImplementationType",
                                  "ns3::SimulatorImpl",
                                  "ns3::DefaultSimulatorImpl or ns3::FeroceSimulatorImpl "
                                  "(feroce's default)");
    }
    return error;
}

std::string
RoceHelper::CheckSimulatorPair()
{
    TypeIdValue scheduler;
    StringValue impl;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    GlobalValue::GetValueByName("SimulatorImplementationType", impl);
    if (scheduler.Get().GetName() == "ns3::HeapScheduler" && impl.Get() == kDefaultSimulatorImpl)
    {
        return "SchedulerType = ns3::HeapScheduler is not allowed with "
               "SimulatorImplementationType = ns3::FeroceSimulatorImpl (it misorders the events "
               "the engine removes): expected ns3::MapScheduler, ns3::ListScheduler, "
               "ns3::CalendarScheduler, ns3::PriorityQueueScheduler or ns3::FeroceHeapScheduler, "
               "or --SimulatorImplementationType=ns3::DefaultSimulatorImpl";
    }
    return "";
}

RoceHelper::RoceHelper()
{
    m_deviceFactory.SetTypeId("ns3::RoceNic");
    m_channelFactory.SetTypeId("ns3::FeroceChannel");
    m_switchFactory.SetTypeId("ns3::FeroceSwitch");
}

void
RoceHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
    if (name == "DataRate")
    {
        m_deviceRate = value.Copy();
    }
}

DataRate
RoceHelper::GetDeviceDataRate() const
{
    if (m_deviceRate)
    {
        DataRateValue v;
        v.DeserializeFromString(m_deviceRate->SerializeToString(MakeDataRateChecker()),
                                MakeDataRateChecker());
        return v.Get();
    }
    TypeId::AttributeInformation info;
    RoceNic::GetTypeId().LookupAttributeByName("DataRate", &info);
    return DynamicCast<const DataRateValue>(info.initialValue)->Get();
}

Ptr<DcqcnReactionPoint>
RoceHelper::CreateReactionPoint(
    const std::string& preset,
    DataRate lineRate,
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& overrides,
    std::string* error)
{
    Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
    *error = rp->ApplyPreset(preset, lineRate);
    if (!error->empty())
    {
        *error = "preset = " + preset + " is not allowed: " + *error;
        return nullptr;
    }
    for (const auto& o : overrides)
    {
        if (!rp->SetAttributeFailSafe(o.first, *o.second))
        {
            *error = o.first + " = " + o.second->SerializeToString(MakeStringChecker()) +
                     " is not allowed";
            return nullptr;
        }
    }
    *error = rp->Validate();
    return error->empty() ? rp : nullptr;
}

std::string
RoceHelper::SetReactionPoint(
    const std::string& preset,
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& overrides)
{
    std::string error;
    Ptr<DcqcnReactionPoint> rp =
        CreateReactionPoint(preset, GetDeviceDataRate(), overrides, &error);
    if (!rp)
    {
        return error;
    }
    if (overrides.empty())
    {
        // the NIC applies the preset itself (with the defaults the user changed)
        SetDeviceAttribute("DcqcnPreset", StringValue(preset));
        return "";
    }
    SetDeviceAttribute("DcqcnPreset", StringValue(""));
    SetDeviceAttribute("ReactionPoint", PointerValue(rp));
    // the notification point of the preset, as the NIC's DcqcnPreset sets it
    if ((preset == "paper" || preset == "hpcc") &&
        !IsAttributeDefaultChanged(RoceNic::GetTypeId(), "CnpInterval"))
    {
        SetDeviceAttribute("CnpInterval", TimeValue(preset == "hpcc" ? Time(0) : MicroSeconds(50)));
    }
    return "";
}

void
RoceHelper::RecomputeRoutes()
{
    for (const Ptr<FeroceSwitch>& sw : m_switches)
    {
        sw->ClearRoutes();
    }
    PopulateRoutes();
}

int64_t
RoceHelper::AssignStreams(int64_t stream)
{
    int64_t n = 0;
    for (Ptr<FeroceSwitch> sw : m_switches)
    {
        n += sw->AssignStreams(stream + n);
    }
    for (Ptr<RoceNic> nic : m_nics)
    {
        ObjectVectorValue qps;
        nic->GetAttribute("QueuePairs", qps);
        for (auto it = qps.Begin(); it != qps.End(); ++it)
        {
            n += DynamicCast<RoceQueuePair>(it->second)->AssignStreams(stream + n);
        }
    }
    return n;
}

void
RoceHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
RoceHelper::SetQueuePairAttribute(std::string name, const AttributeValue& value)
{
    m_qpAttributes.emplace_back(name, value.Copy());
}

Ptr<RoceNic>
RoceHelper::Install(Ptr<Node> node)
{
    Ptr<RoceNic> nic = m_deviceFactory.Create<RoceNic>();
    nic->SetAddress(Mac48Address::Allocate());
    nic->SetIpv4Address(Ipv4Address(s_nextAddress++));
    for (const auto& attr : m_qpAttributes)
    {
        nic->SetQueuePairAttribute(attr.first, *attr.second);
    }
    node->AddDevice(nic);
    m_nics.push_back(nic);
    return nic;
}

NetDeviceContainer
RoceHelper::Install(NodeContainer nodes)
{
    NetDeviceContainer devices;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        devices.Add(Install(*it));
    }
    return devices;
}

Ptr<FeroceChannel>
RoceHelper::Link(Ptr<FeroceNetDevice> a, Ptr<FeroceNetDevice> b)
{
    Ptr<FeroceChannel> channel = m_channelFactory.Create<FeroceChannel>();
    a->Attach(channel);
    b->Attach(channel);
    return channel;
}

NetDeviceContainer
RoceHelper::InstallLink(Ptr<Node> a, Ptr<Node> b)
{
    Ptr<RoceNic> na = Install(a);
    Ptr<RoceNic> nb = Install(b);
    Link(na, nb);
    NetDeviceContainer devices(na);
    devices.Add(nb);
    return devices;
}

void
RoceHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

Ptr<FeroceSwitch>
RoceHelper::InstallSwitch(Ptr<Node> node)
{
    Ptr<FeroceSwitch> sw = m_switchFactory.Create<FeroceSwitch>();
    node->AggregateObject(sw);
    m_switches.push_back(sw);
    return sw;
}

Ptr<RoceNic>
RoceHelper::AttachHost(Ptr<FeroceSwitch> sw, Ptr<Node> host)
{
    Ptr<RoceNic> nic = Install(host);
    Ptr<FeroceSwitchPort> port = sw->AddPort();
    port->SetAttribute("DataRate", DataRateValue(nic->GetDataRate()));
    Link(nic, port);
    return nic;
}

Ptr<FeroceChannel>
RoceHelper::LinkSwitches(Ptr<FeroceSwitch> a, Ptr<FeroceSwitch> b, DataRate rate)
{
    Ptr<FeroceSwitchPort> pa = a->AddPort();
    Ptr<FeroceSwitchPort> pb = b->AddPort();
    pa->SetAttribute("DataRate", DataRateValue(rate));
    pb->SetAttribute("DataRate", DataRateValue(rate));
    return Link(pa, pb);
}

NetDeviceContainer
RoceHelper::InstallStar(Ptr<Node> switchNode, NodeContainer hosts)
{
    Ptr<FeroceSwitch> sw = InstallSwitch(switchNode);
    NetDeviceContainer nics;
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        nics.Add(AttachHost(sw, *it));
    }
    PopulateRoutes();
    return nics;
}

RoceIncast
RoceHelper::InstallIncast(uint32_t senders)
{
    RoceIncast incast;
    incast.hosts.Create(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    NetDeviceContainer nics = InstallStar(swNode, incast.hosts);
    incast.sw = swNode->GetObject<FeroceSwitch>();
    for (uint32_t i = 0; i < senders; i++)
    {
        incast.senders.push_back(DynamicCast<RoceNic>(nics.Get(i)));
    }
    incast.receiver = DynamicCast<RoceNic>(nics.Get(senders));
    incast.receiverApp = CreateObject<RoceReceiverApp>();
    incast.hosts.Get(senders)->AddApplication(incast.receiverApp);
    return incast;
}

void
RoceHelper::ConnectIncast(RoceIncast& incast)
{
    for (const Ptr<RoceNic>& nic : incast.senders)
    {
        auto qp = ConnectQueuePairs(nic, incast.receiver);
        incast.qps.push_back(qp.first);
        incast.receiverQps.push_back(qp.second);
        incast.receiverApp->AddQueuePair(qp.second);
    }
}

uint32_t
RoceIncast::GetReceiverPort() const
{
    return static_cast<uint32_t>(senders.size());
}

std::string
RoceIncast::Validate() const
{
    for (const Ptr<RoceNic>& nic : senders)
    {
        std::string error = nic->Validate();
        if (!error.empty())
        {
            return error;
        }
    }
    std::string error = receiver->Validate();
    return error.empty() ? sw->Validate() : error;
}

void
RoceHelper::PopulateRoutes()
{
    // breadth-first from each NIC over the links; a switch routes to the NIC
    // through every port whose peer is one hop closer
    for (const Ptr<RoceNic>& nic : m_nics)
    {
        Mac48Address dst = Mac48Address::ConvertFrom(nic->GetAddress());
        std::map<FeroceSwitch*, uint32_t> dist;
        std::vector<FeroceSwitch*> frontier;
        Ptr<FeroceChannel> ch = DynamicCast<FeroceChannel>(nic->GetChannel());
        Ptr<FeroceNetDevice> first = ch ? ch->GetPeer(PeekPointer(nic)) : nullptr;
        Ptr<FeroceSwitchPort> firstPort = DynamicCast<FeroceSwitchPort>(first);
        if (!firstPort || !ch->IsUp())
        {
            continue; // a NIC linked straight to another NIC needs no route; a dead link has none
        }
        dist[firstPort->GetSwitch()] = 1;
        firstPort->GetSwitch()->AddRoute(dst, firstPort->GetPortIndex());
        frontier.push_back(firstPort->GetSwitch());
        while (!frontier.empty())
        {
            std::vector<FeroceSwitch*> next;
            for (FeroceSwitch* sw : frontier)
            {
                for (uint32_t i = 0; i < sw->GetNPorts(); i++)
                {
                    Ptr<FeroceSwitchPort> port = sw->GetPort(i);
                    Ptr<FeroceChannel> link = DynamicCast<FeroceChannel>(port->GetChannel());
                    Ptr<FeroceSwitchPort> peer =
                        link ? DynamicCast<FeroceSwitchPort>(link->GetPeer(PeekPointer(port)))
                             : nullptr;
                    if (!peer || !link->IsUp())
                    {
                        continue;
                    }
                    FeroceSwitch* other = peer->GetSwitch();
                    auto known = dist.find(other);
                    if (known == dist.end())
                    {
                        dist[other] = dist[sw] + 1;
                        next.push_back(other);
                    }
                    if (dist[other] == dist[sw] + 1)
                    {
                        other->AddRoute(dst, peer->GetPortIndex()); // one hop closer: a route
                    }
                }
            }
            frontier.swap(next);
        }
    }
}

std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>
RoceHelper::ConnectQueuePairs(Ptr<RoceNic> a, Ptr<RoceNic> b)
{
    Ptr<RoceQueuePair> qa = a->CreateQueuePair();
    Ptr<RoceQueuePair> qb = b->CreateQueuePair();
    qa->Connect(Mac48Address::ConvertFrom(b->GetAddress()),
                b->GetIpv4Address(),
                qb->GetQpn(),
                qb->GetInitialPsn());
    qb->Connect(Mac48Address::ConvertFrom(a->GetAddress()),
                a->GetIpv4Address(),
                qa->GetQpn(),
                qa->GetInitialPsn());
    return {qa, qb};
}

void
RoceHelper::EnablePcapInternal(std::string prefix,
                               Ptr<NetDevice> nd,
                               bool /* promiscuous: a port sees only its link */,
                               bool explicitFilename)
{
    Ptr<FeroceNetDevice> device = nd->GetObject<FeroceNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("RoceHelper::EnablePcap: " << nd->GetInstanceTypeId().GetName()
                                               << " is not a feroce device; skipped");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // nanosecond timestamps: a 10 Gb/s frame lasts tens of ns
    Ptr<PcapFileWrapper> file =
        CreateObjectWithAttributes<PcapFileWrapper>("NanosecMode", BooleanValue(true));
    file->Open(filename, std::ios::out | std::ios::binary);
    NS_ABORT_MSG_IF(file->Fail(), "RoceHelper: cannot open pcap file " << filename);
    file->Init(PcapHelper::DLT_EN10MB, 65535, 0);
    pcapHelper.HookDefaultSink<FeroceNetDevice>(device, "Sniffer", file);
}

} // namespace ns3
