/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-chain.h"

#include "feroce-study.h"
#include "roce-helper.h"

#include "ns3/node.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

AdvcamChain
InstallAdvcamChain(RoceHelper& helper,
                   uint32_t pmtu,
                   uint64_t messageSize,
                   uint32_t maxOutstanding,
                   Time stop,
                   const NicAttributes& receiverAttributes)
{
    AdvcamChain c;
    helper.SetQueuePairAttribute("Pmtu", UintegerValue(pmtu));
    Ptr<Node> board = CreateObject<Node>();
    Ptr<Node> receiver = CreateObject<Node>();
    Ptr<Node> swNode = CreateObject<Node>();
    c.sw = helper.InstallSwitch(swNode);
    c.board = helper.AttachHost(c.sw, board);
    c.receiver = helper.AttachHost(c.sw, receiver);
    for (const auto& a : receiverAttributes)
    {
        c.receiver->SetAttribute(a.first, *a.second);
    }
    c.error = c.board->Validate();
    if (c.error.empty())
    {
        c.error = c.receiver->Validate();
    }
    if (!c.error.empty())
    {
        return c;
    }
    auto qp = helper.ConnectQueuePairs(c.board, c.receiver);
    c.qp = qp.first;
    c.receiverApp = CreateObject<RoceReceiverApp>();
    c.receiverApp->AddQueuePair(qp.second);
    receiver->AddApplication(c.receiverApp);
    c.app = CreateObject<RoceFrontEndApp>();
    c.app->SetAttribute("MessageSize", UintegerValue(messageSize));
    c.app->SetAttribute("MaxOutstanding", UintegerValue(maxOutstanding));
    c.app->SetQueuePair(qp.first);
    board->AddApplication(c.app);
    c.app->SetStartTime(Time(0));
    c.app->SetStopTime(stop);
    return c;
}

void
AdvcamChainFlags::AddTo(FeroceStudy& study)
{
    study.AddFlag("pmtus", "Path MTUs, comma separated, of 256, 512, 1024, 2048, 4096", pmtuList);
    study.AddFlag("messageSize",
                  "Bytes per RDMA WRITE",
                  messageSize,
                  "ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("maxOutstanding",
                  "Messages posted and not yet acknowledged",
                  maxOutstanding,
                  "ns3::RoceFrontEndApp::MaxOutstanding");
    study.AddFlag("linkRate",
                  "Rate of the boards' and the receivers' links",
                  linkRate,
                  "ns3::FeroceNetDevice::DataRate");
    study.AddFlag("linkDelay",
                  "Propagation delay of each link",
                  linkDelay,
                  "ns3::FeroceChannel::Delay");
}

bool
AdvcamChainFlags::Parse(FeroceStudy& study, int argc, char** argv)
{
    if (!study.Parse(argc, argv))
    {
        return false;
    }
    std::string error = Check();
    if (!error.empty())
    {
        study.Reject(error);
        return false;
    }
    return true;
}

std::string
AdvcamChainFlags::Check()
{
    pmtus.clear();
    std::string error = ParsePmtuList("pmtus", pmtuList, pmtus);
    if (!error.empty())
    {
        return error;
    }
    if (messageSize < 1 || messageSize > (1ULL << 31))
    {
        return "messageSize = " + std::to_string(messageSize) +
               " is not allowed: expected 1..2147483648 bytes";
    }
    if (maxOutstanding < 1 || maxOutstanding > 256)
    {
        return "maxOutstanding = " + std::to_string(maxOutstanding) +
               " is not allowed: expected 1..256 (the send queue's depth)";
    }
    if (linkRate.GetBitRate() < 1000000 || linkRate.GetBitRate() > 1000000000000ULL)
    {
        return "linkRate = " + std::to_string(linkRate.GetBitRate()) +
               "bps is not allowed: expected 1Mbps..1Tbps";
    }
    if (linkDelay.IsStrictlyNegative())
    {
        return "linkDelay = " + std::to_string(linkDelay.GetNanoSeconds()) +
               "ns is not allowed: expected >= 0";
    }
    return "";
}

void
AdvcamChainFlags::Configure(RoceHelper& helper) const
{
    helper.SetChannelAttribute("Delay", TimeValue(linkDelay));
    helper.SetDeviceAttribute("DataRate", DataRateValue(linkRate));
}

std::string
FormatFixed(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << v;
    return s.str();
}

std::string
ParsePmtuList(const std::string& flag, const std::string& text, std::vector<uint32_t>& out)
{
    std::istringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        std::istringstream in(item);
        uint32_t pmtu = 0;
        std::string rest;
        if (!(in >> pmtu) || (in >> rest) ||
            (pmtu != 256 && pmtu != 512 && pmtu != 1024 && pmtu != 2048 && pmtu != 4096) ||
            std::count(out.begin(), out.end(), pmtu))
        {
            return flag + " = " + text + " is not allowed: expected distinct values of 256, 512, " +
                   "1024, 2048 and 4096, comma separated (e.g. 256,512,1024,2048,4096)";
        }
        out.push_back(pmtu);
    }
    if (out.empty())
    {
        return flag + " = " + text + " is not allowed: expected at least one PMTU";
    }
    return "";
}

WriteFrames
CountWriteFrames(uint64_t message, uint32_t pmtu)
{
    WriteFrames w{0, 0, 0};
    uint64_t left = message;
    bool first = true;
    do
    {
        uint64_t p = std::min<uint64_t>(left, pmtu);
        uint64_t frame = 14 + 20 + 8 + 12 + (first ? 16 : 0) + (p + 3) / 4 * 4 + 4;
        frame = std::max<uint64_t>(frame, 60);
        w.packets++;
        w.frameBytes += frame;
        w.wireBytes += frame + 24;
        left -= p;
        first = false;
    } while (left > 0);
    return w;
}

double
WriteWireGoodputGbps(uint64_t message, uint32_t pmtu, double rateBps)
{
    return rateBps * double(message) / double(CountWriteFrames(message, pmtu).wireBytes) / 1e9;
}

double
SoftReceiverGoodputGbps(uint64_t message, uint32_t pmtu, Time packetCost, DataRate byteRate)
{
    WriteFrames w = CountWriteFrames(message, pmtu);
    double seconds = double(w.packets) * packetCost.GetSeconds() +
                     double(w.frameBytes) * 8 / double(byteRate.GetBitRate());
    return double(message) * 8 / seconds / 1e9;
}

} // namespace ns3
