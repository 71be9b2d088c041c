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
    c.app->SetQueuePair(qp.first);
    board->AddApplication(c.app);
    c.app->SetStartTime(Time(0));
    c.app->SetStopTime(stop);
    return c;
}

void
AdvcamChainFlags::AddTo(FeroceStudy& study)
{
    study
        .AddList("pmtus",
                 "Path MTUs, comma separated, of 256, 512, 1024, 2048, 4096",
                 pmtus,
                 "256,512,1024,2048,4096")
        .Check([](const uint32_t& p) { return IsRocePmtu(p) ? "" : "RoCE path MTUs"; })
        .Distinct()
        .Allowed("distinct values of 256, 512, 1024, 2048 and 4096, comma separated (e.g. "
                 "256,512,1024,2048,4096)");
    study.Owns("ns3::RoceQueuePair::Pmtu", "pmtus");
    study.AddFlag("messageSize", "Bytes per RDMA WRITE", messageSize)
        .Range(1, 1ULL << 31)
        .Attribute("ns3::RoceFrontEndApp::MessageSize");
    study.AddFlag("maxOutstanding", "Messages posted and not yet acknowledged", maxOutstanding)
        .Range(1, 256)
        .Attribute("ns3::RoceFrontEndApp::MaxOutstanding");
    study.AddFlag("linkRate", "Rate of the boards' and the receivers' links", linkRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
        .Attribute("ns3::FeroceNetDevice::DataRate");
    study.AddFlag("linkDelay", "Propagation delay of each link", linkDelay)
        .Attribute("ns3::FeroceChannel::Delay");
}

std::string
FormatFixed(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << v;
    return s.str();
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
