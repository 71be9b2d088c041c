/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_CHAIN_H
#define ADVCAM_CHAIN_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FeroceStudy;
class FeroceSwitch;
class RoceFrontEndApp;
class RoceHelper;
class RoceNic;
class RoceQueuePair;
class RoceReceiverApp;

/**
 * \ingroup feroce
 * One AdvCam board -> its own switch -> one receiver, saturating RDMA WRITEs: what
 * the single-board studies (advcam-mtu, advcam-receiver) build once per point.
 */
struct AdvcamChain
{
    Ptr<FeroceSwitch> sw;
    Ptr<RoceNic> board;    ///< the board's NIC
    Ptr<RoceNic> receiver; ///< the receiver's NIC
    Ptr<RoceQueuePair> qp; ///< the board's queue pair
    Ptr<RoceReceiverApp> receiverApp;
    Ptr<RoceFrontEndApp> app; ///< the board's source
    /// Not empty: a NIC refused its attributes (Validate's message); the chain has no queue pair.
    std::string error;
};

/// Attributes (name, value) for a NIC.
typedef std::vector<std::pair<std::string, Ptr<AttributeValue>>> NicAttributes;

/**
 * A chain at pmtu: nodes board, receiver, switch; the receiver's NIC gets
 * receiverAttributes before its queue pair fixes its parameters (both NICs are
 * validated first: a refusal comes back in error, nothing connected); the board
 * posts WRITEs of messageSize bytes, maxOutstanding at a time, from 0 to stop.
 * Call helper.PopulateRoutes() once all are built.
 */
AdvcamChain InstallAdvcamChain(RoceHelper& helper,
                               uint32_t pmtu,
                               uint64_t messageSize,
                               uint32_t maxOutstanding,
                               Time stop,
                               const NicAttributes& receiverAttributes = {});

/**
 * The flags of a single-board study (advcam-mtu, advcam-receiver), in this order: --pmtus,
 * --messageSize, --maxOutstanding, --linkRate, --linkDelay, with their defaults and checks.
 */
struct AdvcamChainFlags
{
    std::string pmtuList{"256,512,1024,2048,4096"};
    uint64_t messageSize{1 << 20};
    uint32_t maxOutstanding{4};
    DataRate linkRate{"10Gbps"};
    Time linkDelay{MicroSeconds(1)};
    std::vector<uint32_t> pmtus; ///< parsed by Check

    /// Registers the flags (the ones that set an ns-3 attribute take its command-line value).
    void AddTo(FeroceStudy& study);
    /// Parses --pmtus and checks every range: "" or the message naming the flag and its value.
    std::string Check();
    /**
     * study.Parse, then Check; false (the message printed, the study's exit code set) when
     * the program must return study.GetExitCode().
     */
    bool Parse(FeroceStudy& study, int argc, char** argv);
    /// The links' Delay and the devices' DataRate of the helper from the flags.
    void Configure(RoceHelper& helper) const;
};

/// A value as the studies' CSVs print it: fixed, 6 decimals.
std::string FormatFixed(double v);

/**
 * "256,512,..." into distinct PMTUs of 256..4096; "" when it parses, else the message
 * naming flag and the text.
 */
std::string ParsePmtuList(const std::string& flag,
                          const std::string& text,
                          std::vector<uint32_t>& out);

/// The frames of one RDMA WRITE (no immediate) of message bytes at pmtu.
struct WriteFrames
{
    uint64_t packets;
    uint64_t frameBytes; ///< without FCS (at least 60 each)
    uint64_t wireBytes;  ///< with preamble, FCS and inter-frame gap
};

/**
 * A packet of p payload bytes is 14 Ethernet + 20 IPv4 + 8 UDP + 12 BTH (+ 16
 * RETH on the first) + p padded to 4 + 4 ICRC bytes, at least 60, plus 24 on
 * the wire (preamble 8, FCS 4, gap 12): src/feroce/doc/rocev2-wire.md.
 */
WriteFrames CountWriteFrames(uint64_t message, uint32_t pmtu);

/// Goodput of back-to-back WRITEs of message bytes at pmtu on a link of rateBps: payload
/// bits over wire bits.
double WriteWireGoodputGbps(uint64_t message, uint32_t pmtu, double rateBps);

/**
 * Goodput a software receiver's CPU allows (ReceiverModel software): a WRITE's bytes
 * over its packets x packetCost + frame bytes x 8 / byteRate.
 */
double SoftReceiverGoodputGbps(uint64_t message, uint32_t pmtu, Time packetCost, DataRate byteRate);

} // namespace ns3

#endif /* ADVCAM_CHAIN_H */
