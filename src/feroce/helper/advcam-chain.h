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
#include "ns3/roce-wire-time.h"

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
 * posts WRITEs (of the RoceFrontEndApp defaults' size and depth) from 0 to stop.
 * Call helper.PopulateRoutes() once all are built.
 */
AdvcamChain InstallAdvcamChain(RoceHelper& helper,
                               uint32_t pmtu,
                               Time stop,
                               const NicAttributes& receiverAttributes = {});

/**
 * The flags of a single-board study (advcam-mtu, advcam-receiver), in this order: --pmtus,
 * --messageSize, --maxOutstanding, --linkRate, --linkDelay, with their defaults and ranges;
 * all but --pmtus are their attributes' values (ns3::RoceFrontEndApp::MessageSize,
 * MaxOutstanding, ns3::FeroceNetDevice::DataRate, ns3::FeroceChannel::Delay).
 */
struct AdvcamChainFlags
{
    std::vector<uint32_t> pmtus;
    uint64_t messageSize{1 << 20};
    uint32_t maxOutstanding{4};
    DataRate linkRate{"10Gbps"};
    Time linkDelay{MicroSeconds(1)};

    /// Registers the flags.
    void AddTo(FeroceStudy& study);
};

/// A value as the studies' CSVs print it: fixed, 6 decimals.
std::string FormatFixed(double v);

/**
 * Goodput a software receiver's CPU allows (ReceiverModel software): a WRITE's bytes
 * over its packets x packetCost + frame bytes x 8 / byteRate.
 */
double SoftReceiverGoodputGbps(uint64_t message, uint32_t pmtu, Time packetCost, DataRate byteRate);

} // namespace ns3

#endif /* ADVCAM_CHAIN_H */
