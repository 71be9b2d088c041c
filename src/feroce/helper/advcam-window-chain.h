/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADVCAM_WINDOW_CHAIN_H
#define ADVCAM_WINDOW_CHAIN_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/roce-wire-time.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

class FeroceSwitch;
class RoceFrontEndApp;
class RoceHelper;
class RoceQueuePair;
class RoceReceiverApp;
struct RoceCompletion;

/**
 * \ingroup feroce
 * Goodput over whole turns of a send-queue window, from a queue pair's completions: from the
 * first completion instant after `from`, t_a, to the last instant t_b by which a multiple of W
 * requests completed after t_a.  In a steady state where each of the W slots turns once per
 * period (requests completed alone or K at a time), t_b - t_a is a whole number of periods,
 * and the goodput is exact rather than off by a message at either end (doc/window.md).
 */
struct CompletionMeter
{
    Time from;
    uint32_t depth{1};
    uint64_t message{0};
    Time first{-1};    ///< t_a
    Time instant{-1};  ///< the instant being counted
    uint64_t count{0}; ///< completions after t_a, up to and including `instant`
    Time last{-1};     ///< t_b
    uint64_t good{0};  ///< completions in (t_a, t_b]

    /// A completion of the queue pair (connect to its Completion trace).
    void OnCompletion(const RoceCompletion& c, Time latency);
    /// The instant counted is complete: is it a t_b?
    void Close();
    /// Whether two completion instants fell after `from` (else the goodput is the receiver's).
    bool HasTurns() const;
    /// Gb/s over (t_a, t_b].
    double GetGbps() const;
};

/// One point of the window study: a board saturating one receiver with W requests of M bytes.
struct WindowChain
{
    bool write;
    uint64_t message;
    Time delay;
    uint32_t depth;
    bool bench; ///< one of the hardware bench's chains
    Ptr<RoceQueuePair> qp;
    Ptr<RoceReceiverApp> rx;
    Ptr<RoceFrontEndApp> app;
    Ptr<FeroceSwitch> sw; ///< through a switch, or null
    CompletionMeter meter;
    uint64_t rxAtFrom{0}; ///< bytes received at the end of the warm-up
    /// Not empty: a NIC refused its attributes (Validate's message); nothing connected.
    std::string error;

    /// The chain's goodput: whole turns of the window, else the receiver's bytes since from.
    double GetGbps(Time from, Time duration) const;
};

/**
 * A chain: board -> receiver on one link (or through a store-and-forward switch), W = depth
 * requests of message bytes (WRITE or SEND, immediate or not) from 0 to stop, on links of
 * delay; the receiver posts one buffer every 1/postRate s (0: it keeps its pool posted).
 * Measured from `from`.
 */
std::unique_ptr<WindowChain> InstallWindowChain(RoceHelper& helper,
                                                bool write,
                                                bool imm,
                                                uint64_t message,
                                                Time delay,
                                                uint32_t depth,
                                                bool viaSwitch,
                                                double postRate,
                                                Time from,
                                                Time stop);

} // namespace ns3

#endif /* ADVCAM_WINDOW_CHAIN_H */
