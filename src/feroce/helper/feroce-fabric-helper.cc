/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "feroce-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/feroce-command-line.h"
#include "ns3/feroce-switch-port.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FeroceFabricHelper");

namespace
{

std::string
Where(const feroce_topo& t, int line)
{
    return std::string(t.path) + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
}

/// The type that defines the attribute (tid or a parent): the name --ns3:: uses.
std::string
DefiningType(TypeId tid, const std::string& name)
{
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); i++)
        {
            if (t.GetAttribute(i).name == name)
            {
                return t.GetName();
            }
        }
        if (t == t.GetParent())
        {
            return tid.GetName();
        }
    }
}

/// The text as a value of the attribute's type (parsed by FeroceCommandLine's parsers), or null.
Ptr<AttributeValue>
ParseValue(const TypeId::AttributeInformation& info, const std::string& text)
{
    Ptr<const AttributeValue> initial = info.initialValue;
    if (DynamicCast<const BooleanValue>(initial))
    {
        bool v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<BooleanValue>(v) : nullptr;
    }
    if (DynamicCast<const UintegerValue>(initial))
    {
        uint64_t v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<UintegerValue>(v) : nullptr;
    }
    if (DynamicCast<const IntegerValue>(initial))
    {
        int64_t v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<IntegerValue>(v) : nullptr;
    }
    if (DynamicCast<const DoubleValue>(initial))
    {
        double v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<DoubleValue>(v) : nullptr;
    }
    if (DynamicCast<const TimeValue>(initial))
    {
        Time v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<TimeValue>(v) : nullptr;
    }
    if (DynamicCast<const DataRateValue>(initial))
    {
        DataRate v;
        return FeroceCommandLine::ParseText(text, v).empty() ? Create<DataRateValue>(v) : nullptr;
    }
    if (DynamicCast<const StringValue>(initial))
    {
        return Create<StringValue>(text);
    }
    return nullptr; // pointers, objects, enums...: not settable from a file
}

/// Sets one setting of the file on obj: "" or why not.
std::string
Apply(const feroce_topo& t,
      Ptr<Object> obj,
      const feroce_setting& s,
      const FeroceFabricHelper::GivenPredicate& given)
{
    TypeId tid = obj->GetInstanceTypeId();
    std::string key = s.key;
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(key, &info))
    {
        return Where(t, s.line) + key + "=" + s.value + " is not allowed: " + key +
               " is not an attribute of " + tid.GetName();
    }
    if (key == "DataRate")
    {
        return Where(t, s.line) + key + "=" + s.value +
               " is not allowed: a device's DataRate is its link's rate (the link line)";
    }
    if (given && given(DefiningType(tid, key) + "::" + key))
    {
        return ""; // the user's explicit value wins over the file's
    }
    // parsed here, never by ns-3's parsers (which abort on a malformed number)
    Ptr<AttributeValue> value = ParseValue(info, s.value);
    if (!value || !obj->SetAttributeFailSafe(key, *value))
    {
        return Where(t, s.line) + key + "=" + s.value + " is not allowed: not a value of " +
               DefiningType(tid, key) + "::" + key;
    }
    return "";
}

/// The node's model's settings, then its own.
std::string
ApplyAll(const feroce_topo& t,
         uint32_t node,
         Ptr<Object> obj,
         const FeroceFabricHelper::GivenPredicate& given)
{
    const feroce_topo_node& n = t.nodes[node];
    if (n.model >= 0)
    {
        const feroce_topo_model& m = t.models[n.model];
        for (size_t i = 0; i < m.n_settings; i++)
        {
            std::string error = Apply(t, obj, m.settings[i], given);
            if (!error.empty())
            {
                return error;
            }
        }
    }
    for (size_t i = 0; i < n.n_settings; i++)
    {
        std::string error = Apply(t, obj, n.settings[i], given);
        if (!error.empty())
        {
            return error;
        }
    }
    return "";
}

} // namespace

std::string
FeroceFabricHelper::Build(RoceHelper& helper,
                          const feroce_topo& t,
                          FeroceFabric* out,
                          GivenPredicate given,
                          uint64_t ecmpSeed)
{
    out->topo = &t;
    out->nodes.Create(uint32_t(t.n_nodes));
    out->nics.assign(t.n_nodes, nullptr);
    out->switches.assign(t.n_nodes, nullptr);
    for (size_t n = 0; n < t.n_nodes; n++)
    {
        if (t.nodes[n].role == FEROCE_ROLE_SWITCH)
        {
            out->switches[n] = helper.InstallSwitch(out->nodes.Get(uint32_t(n)));
            out->switchNode[PeekPointer(out->switches[n])] = uint32_t(n);
            if (ecmpSeed && !(given && given("ns3::FeroceSwitch::EcmpSeed")))
            {
                // SplitMix64 of (seed, node): a seed of its own, never 0
                uint64_t z = ecmpSeed + 0x9e3779b97f4a7c15ULL * (n + 1);
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                z ^= z >> 31;
                out->switches[n]->SetAttribute("EcmpSeed", UintegerValue(z ? z : 1));
            }
            std::string error = ApplyAll(t, uint32_t(n), out->switches[n], given);
            if (!error.empty())
            {
                return error;
            }
        }
    }
    for (size_t l = 0; l < t.n_links; l++)
    {
        const feroce_topo_link& k = t.links[l];
        DataRate rate(k.rate_bps);
        std::pair<Ptr<FeroceNetDevice>, Ptr<FeroceNetDevice>> ends;
        for (int side = 0; side < 2; side++)
        {
            uint32_t node = side ? k.b : k.a;
            Ptr<FeroceNetDevice> dev;
            if (out->switches[node])
            {
                Ptr<FeroceSwitchPort> port = out->switches[node]->AddPort();
                port->SetAttribute("DataRate", DataRateValue(rate));
                dev = port;
            }
            else
            {
                Ptr<RoceNic> nic = helper.Install(out->nodes.Get(node));
                nic->SetAttribute("DataRate", DataRateValue(rate));
                std::string error = ApplyAll(t, node, nic, given);
                if (!error.empty())
                {
                    return error;
                }
                out->nics[node] = nic;
                dev = nic;
            }
            (side ? ends.second : ends.first) = dev;
        }
        Ptr<FeroceChannel> channel = helper.Link(ends.first, ends.second);
        channel->SetAttribute("Delay", TimeValue(NanoSeconds(k.delay_ns)));
        if (k.error_rate > 0)
        {
            for (Ptr<FeroceNetDevice> dev : {ends.first, ends.second})
            {
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
                em->SetAttribute("ErrorRate", DoubleValue(k.error_rate));
                dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
                out->errorModels.push_back(em);
            }
        }
        out->channels.push_back(channel);
        out->ends.push_back(ends);
    }
    helper.PopulateRoutes();
    return "";
}

std::vector<uint32_t>
FeroceFabric::Hosts() const
{
    std::vector<uint32_t> hosts;
    for (uint32_t n = 0; n < nics.size(); n++)
    {
        if (nics[n])
        {
            hosts.push_back(n);
        }
    }
    return hosts;
}

void
FeroceFabric::Path(uint32_t src,
                   uint32_t dst,
                   uint16_t sport,
                   std::vector<feroce_hop>* fwd,
                   std::vector<feroce_hop>* rev,
                   std::vector<uint32_t>* switchesCrossed) const
{
    fwd->clear();
    rev->clear();
    if (switchesCrossed)
    {
        switchesCrossed->clear();
    }
    Ptr<RoceNic> from = nics[src];
    Ptr<RoceNic> to = nics[dst];
    Mac48Address mac = Mac48Address::ConvertFrom(to->GetAddress());
    Ptr<FeroceNetDevice> dev = from;
    // at most every switch once: a route that loops stops there
    for (std::size_t hop = 0; dev && hop <= switchNode.size() + 1; hop++)
    {
        Ptr<FeroceChannel> ch = DynamicCast<FeroceChannel>(dev->GetChannel());
        if (!ch)
        {
            break;
        }
        fwd->push_back({dev->GetDataRate().GetBitRate(), ch->GetDelay().GetNanoSeconds()});
        Ptr<FeroceSwitchPort> port = DynamicCast<FeroceSwitchPort>(ch->GetPeer(PeekPointer(dev)));
        if (!port)
        {
            break; // a NIC: the destination
        }
        FeroceSwitch* sw = port->GetSwitch();
        if (switchesCrossed)
        {
            switchesCrossed->push_back(switchNode.at(sw));
        }
        int64_t out = sw->GetEgressPort(mac, from->GetIpv4Address(), to->GetIpv4Address(), sport);
        dev = out < 0 ? nullptr : Ptr<FeroceNetDevice>(sw->GetPort(uint32_t(out)));
    }
    rev->assign(fwd->rbegin(), fwd->rend());
}

std::string
FeroceFabric::Validate() const
{
    for (uint32_t n = 0; n < nics.size(); n++)
    {
        std::string error = nics[n] ? nics[n]->Validate() : "";
        if (!error.empty())
        {
            return std::string(topo->nodes[n].name) + ": " + error;
        }
    }
    for (uint32_t n = 0; n < switches.size(); n++)
    {
        std::string error = switches[n] ? switches[n]->Validate() : "";
        if (!error.empty())
        {
            return std::string(topo->nodes[n].name) + ": " + error;
        }
    }
    return "";
}

int64_t
FeroceFabric::AssignStreams(int64_t stream)
{
    int64_t n = 0;
    for (Ptr<RateErrorModel> em : errorModels)
    {
        n += em->AssignStreams(stream + n);
    }
    return n;
}

void
FeroceFabric::ScheduleOutages(RoceHelper& helper)
{
    m_routing = &helper;
    std::vector<bool> watched(channels.size(), false);
    for (std::size_t i = 0; i < topo->n_outages; i++)
    {
        const feroce_topo_outage& o = topo->outages[i];
        Ptr<FeroceChannel> ch = channels[o.link];
        ch->ScheduleDown(NanoSeconds(o.down_ns), o.up_ns < 0 ? Time::Max() : NanoSeconds(o.up_ns));
        if (!watched[o.link])
        {
            watched[o.link] = true;
            ch->TraceConnectWithoutContext("LinkState",
                                           MakeCallback(&FeroceFabric::LinkChanged, this));
        }
    }
}

void
FeroceFabric::LinkChanged(bool up)
{
    NS_LOG_INFO("a link went " << (up ? "up" : "down") << ": routes computed again");
    m_routing->RecomputeRoutes();
}

uint64_t
FeroceFabric::GetFramesLostOnDownLinks() const
{
    uint64_t lost = 0;
    for (Ptr<FeroceChannel> ch : channels)
    {
        lost += ch->GetFramesLost();
    }
    return lost;
}

void
FeroceCall(std::function<void()> f)
{
    f();
}

} // namespace ns3
