/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-wire-time.h"

#include "ns3/feroce-wire.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Nanoseconds a frame of frame bytes holds a link of rate b/s (preamble, FCS, gap included).
double
WireNs(uint32_t frame, double rate)
{
    return double(feroce_wire_bytes(frame)) * 8 * 1e9 / rate;
}

} // namespace

bool
IsRocePmtu(uint32_t pmtu)
{
    return pmtu == 256 || pmtu == 512 || pmtu == 1024 || pmtu == 2048 || pmtu == 4096;
}

uint32_t
RoceDataFrameBytes(uint32_t payload, bool write, bool first, bool last, bool imm)
{
    struct feroce_roce f;
    feroce_roce_init(&f, feroce_opcode_for(write, first, last, imm));
    f.payload_len = payload;
    return uint32_t(feroce_roce_frame_len(&f));
}

uint32_t
RoceAckFrameBytes()
{
    struct feroce_roce f;
    feroce_roce_init(&f, FEROCE_OP_ACK);
    return uint32_t(feroce_roce_frame_len(&f));
}

WriteFrames
CountMessageFrames(uint64_t message, uint32_t pmtu, bool write, bool imm)
{
    WriteFrames w{0, 0, 0, 0};
    uint64_t left = message;
    bool first = true;
    do
    {
        uint32_t p = uint32_t(std::min<uint64_t>(left, pmtu));
        left -= p;
        uint32_t frame = RoceDataFrameBytes(p, write, first, left == 0, imm);
        w.packets++;
        w.frameBytes += frame;
        w.wireBytes += feroce_wire_bytes(frame);
        w.lastFrameBytes = frame;
        first = false;
    } while (left > 0);
    return w;
}

WriteFrames
CountWriteFrames(uint64_t message, uint32_t pmtu)
{
    return CountMessageFrames(message, pmtu, true, false);
}

double
WriteWireGoodputGbps(uint64_t message, uint32_t pmtu, double rateBps)
{
    return rateBps * double(message) / double(CountWriteFrames(message, pmtu).wireBytes) / 1e9;
}

WindowGoodput
WindowFormula(const WindowPath& p, bool write, bool imm, uint64_t message, uint32_t depth)
{
    // a message's time on the wire, frame by frame (the last one's time for the switch)
    double msgNs = 0;
    double lastNs = 0;
    uint64_t left = message;
    bool first = true;
    do
    {
        uint32_t payload = uint32_t(std::min<uint64_t>(left, p.pmtu));
        left -= payload;
        lastNs = WireNs(RoceDataFrameBytes(payload, write, first, left == 0, imm), p.rate);
        msgNs += lastNs;
        first = false;
    } while (left > 0);
    double ackNs = WireNs(RoceAckFrameBytes(), p.rate);
    double loop = 2 * p.delayNs + ackNs + p.completeNs;
    if (p.viaSwitch)
    {
        loop += lastNs + ackNs + 2 * p.delayNs; // the switch stores each frame before it forwards
    }
    uint32_t k = p.ackReqMessages == 0 ? depth : std::min(p.ackReqMessages, depth);
    WindowGoodput a;
    a.lineGbps = double(message) * 8 / msgNs;
    a.windowGbps = double(depth) * double(message) * 8 / (k * msgNs + loop);
    a.gbps = std::min(a.lineGbps, a.windowGbps);
    a.loopNs = loop;
    // exact when every ACK covers K messages; otherwise (K does not divide W) some ACKs cover
    // fewer and free slots sooner: the formula is then a lower bound
    a.exact = p.ackReqMessages == 0 || k == 1 || (depth >= p.ackReqMessages && depth % k == 0);
    return a;
}

} // namespace ns3
