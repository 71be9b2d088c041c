/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-window-chain.h"

#include "roce-helper.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/roce-frontend-app.h"
#include "ns3/roce-receiver-app.h"
#include "ns3/uinteger.h"

namespace ns3
{

void
CompletionMeter::OnCompletion(const RoceCompletion& c, Time)
{
    if (c.status != ROCE_WC_SUCCESS || c.completed < from)
    {
        return;
    }
    if (first.IsNegative())
    {
        first = instant = c.completed;
        return;
    }
    if (c.completed == first)
    {
        return; // t_a's own completions start the count
    }
    if (c.completed != instant)
    {
        Close();
        instant = c.completed;
    }
    count++;
}

void
CompletionMeter::Close()
{
    if (instant > first && count % depth == 0)
    {
        last = instant;
        good = count;
    }
}

bool
CompletionMeter::HasTurns() const
{
    return last > first && !first.IsNegative();
}

double
CompletionMeter::GetGbps() const
{
    return double(good * message) * 8 / (last - first).GetSeconds() / 1e9;
}

double
WindowChain::GetGbps(Time from, Time duration) const
{
    if (meter.HasTurns())
    {
        return meter.GetGbps();
    }
    return double(rx->GetBytesReceived() - rxAtFrom) * 8 / (duration - from).GetSeconds() / 1e9;
}

std::unique_ptr<WindowChain>
InstallWindowChain(RoceHelper& helper,
                   bool write,
                   bool imm,
                   uint64_t message,
                   Time delay,
                   uint32_t depth,
                   bool viaSwitch,
                   double postRate,
                   Time from,
                   Time stop)
{
    auto c = std::make_unique<WindowChain>();
    c->write = write;
    c->message = message;
    c->delay = delay;
    c->depth = depth;
    c->meter.from = from;
    c->meter.depth = depth;
    c->meter.message = message;
    helper.SetChannelAttribute("Delay", TimeValue(delay));
    helper.SetQueuePairAttribute("SendQueueDepth", UintegerValue(depth));
    Ptr<Node> board = CreateObject<Node>();
    Ptr<Node> receiver = CreateObject<Node>();
    Ptr<RoceNic> tx;
    Ptr<RoceNic> rx;
    if (viaSwitch)
    {
        Ptr<Node> swNode = CreateObject<Node>();
        c->sw = helper.InstallSwitch(swNode);
        tx = helper.AttachHost(c->sw, board);
        rx = helper.AttachHost(c->sw, receiver);
    }
    else
    {
        NetDeviceContainer d = helper.InstallLink(board, receiver);
        tx = DynamicCast<RoceNic>(d.Get(0));
        rx = DynamicCast<RoceNic>(d.Get(1));
    }
    c->error = tx->Validate();
    c->error = c->error.empty() ? rx->Validate() : c->error;
    if (!c->error.empty())
    {
        return c;
    }
    auto qps = helper.ConnectQueuePairs(tx, rx);
    c->qp = qps.first;
    c->rx = CreateObject<RoceReceiverApp>();
    c->rx->SetAttribute("PostRate", DoubleValue(postRate));
    c->rx->AddQueuePair(qps.second);
    receiver->AddApplication(c->rx);
    c->app = CreateObject<RoceFrontEndApp>();
    c->app->SetAttribute("MessageSize", UintegerValue(message));
    c->app->SetAttribute("MaxOutstanding", UintegerValue(depth));
    c->app->SetAttribute("Write", BooleanValue(write));
    c->app->SetAttribute("WithImmediate", BooleanValue(imm));
    c->app->SetQueuePair(c->qp);
    board->AddApplication(c->app);
    c->app->SetStartTime(Time(0));
    c->app->SetStopTime(stop);
    c->qp->TraceConnectWithoutContext("Completion",
                                      MakeCallback(&CompletionMeter::OnCompletion, &c->meter));
    return c;
}

} // namespace ns3
