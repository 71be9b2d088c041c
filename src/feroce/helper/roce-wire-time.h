/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_WIRE_TIME_H
#define ROCE_WIRE_TIME_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/// Whether pmtu is one of RoCE's path MTUs (256, 512, 1024, 2048, 4096).
bool IsRocePmtu(uint32_t pmtu);

/**
 * \ingroup feroce
 * Bytes (without FCS) of the RoCEv2 frame that carries payload bytes of a message's packet:
 * the opcode's headers (RETH on a WRITE's first packet, ImmDt on the last with immediate),
 * the payload padded to 4, the ICRC, at least the Ethernet minimum (feroce_wire's lengths;
 * src/feroce/doc/rocev2-wire.md).
 */
uint32_t RoceDataFrameBytes(uint32_t payload, bool write, bool first, bool last, bool imm);
/// Bytes (without FCS) of an ACK frame (BTH + AETH).
uint32_t RoceAckFrameBytes();

/// The frames of one message of message bytes at pmtu.
struct WriteFrames
{
    uint64_t packets;
    uint64_t frameBytes; ///< without FCS (at least 60 each)
    uint64_t wireBytes;  ///< with preamble, FCS and inter-frame gap
    uint32_t lastFrameBytes;
};

/// A message's frames: RDMA WRITE (write) or SEND, with immediate data or not.
WriteFrames CountMessageFrames(uint64_t message,
                               uint32_t pmtu,
                               bool write = true,
                               bool imm = false);
/// CountMessageFrames of an RDMA WRITE without immediate.
WriteFrames CountWriteFrames(uint64_t message, uint32_t pmtu);

/// Goodput of back-to-back WRITEs of message bytes at pmtu on a link of rateBps: payload
/// bits over wire bits.
double WriteWireGoodputGbps(uint64_t message, uint32_t pmtu, double rateBps);

/**
 * The work-request window of one sender (src/feroce/doc/window.md): W requests of M bytes
 * outstanding, acknowledged K messages at a time (AckReq on every K-th), each completion C
 * after its ACK:
 *   goodput = min(line, W M / (K T_msg + T_loop)),
 *   T_loop  = 2 d + T_ack + C (+ T_last + T_ack + 2 d through a store-and-forward switch).
 */
struct WindowPath
{
    double rate;             ///< b/s
    double delayNs;          ///< per link
    bool viaSwitch;          ///< one store-and-forward switch between sender and receiver
    double completeNs;       ///< C
    uint32_t ackReqMessages; ///< K (0: one per window)
    uint32_t pmtu;
};

struct WindowGoodput
{
    double lineGbps;   ///< back-to-back messages
    double windowGbps; ///< W M / (K T_msg + T_loop)
    double gbps;       ///< the smaller
    double loopNs;     ///< T_loop
    bool exact;        ///< every ACK covers K messages (K = 1, or K divides W)
};

WindowGoodput WindowFormula(const WindowPath& p,
                            bool write,
                            bool imm,
                            uint64_t message,
                            uint32_t depth);

} // namespace ns3

#endif /* ROCE_WIRE_TIME_H */
