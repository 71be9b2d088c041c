/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_FLAG_GROUPS_H
#define FEROCE_FLAG_GROUPS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

class FeroceStudy;
class FeroceSwitch;

/**
 * \ingroup feroce
 * The DCQCN and switch flags of every study that builds NICs and switches, in this order:
 * --dcqcn --preset --g --rai --timer --pfc --pfcHonour --headroom --ecn --kmin --kmax --pmax
 * --bufferSize.  Each is its attribute's value (src/feroce/doc/input-grammar.md: a flag given
 * beats a preset, --ns3::attribute beats the flag); --g, --rai and --timer at 0 leave the
 * preset's value.  A program sets the defaults it wants before AddTo.
 */
struct DcqcnSwitchFlags
{
    bool dcqcn{true};
    std::string preset{"paper"};
    double g{0};
    double rai{0}; ///< Mb/s
    Time timer{0};
    bool pfc{true};
    bool pfcHonour{true};
    uint64_t headroom{0};
    bool ecn{true};
    uint64_t kmin{5000};
    uint64_t kmax{200000};
    double pmax{0.01};
    uint64_t bufferSize{12000000};

    /// Registers the flags on the study: AddDcqcnTo, then AddSwitchTo.
    void AddTo(FeroceStudy& study);
    /// --dcqcn --preset --g --rai --timer (a study that sets DCQCN per board takes the rest).
    void AddDcqcnTo(FeroceStudy& study);
    /// --pfc --pfcHonour --headroom --ecn --kmin --kmax --pmax --bufferSize.
    void AddSwitchTo(FeroceStudy& study);
    /**
     * After the switches are built: beneath the user, an explicit --headroom is taken as given
     * (HeadroomCheck off: too little of it is a configuration to study), with a warning when
     * it is below what a link of sw needs.  Call before the switches are validated.
     */
    void SetHeadroomCheck(FeroceStudy& study) const;
    /// The warning of a headroom below what sw's port needs (after the switch is built).
    void WarnHeadroom(FeroceStudy& study, const FeroceSwitch& sw, uint32_t port) const;
};

/**
 * \ingroup feroce
 * --triggerRate beside --triggerInterval: the camera's triggers per second (the mean if
 * Poisson), or the time between them; one or the other (both given: refused at Parse).
 *
 *   study.AddFlag("triggerInterval", ...).Attribute("ns3::RoceFrontEndApp::TriggerInterval");
 *   rate.AddTo(study);
 *   if (!study.Parse(argc, argv) || !rate.Apply(study, interval)) return study.GetExitCode();
 */
struct TriggerRateFlag
{
    double rate{0}; ///< per second; 0: not given (--triggerInterval's value holds)

    /// Registers --triggerRate (after --triggerInterval).
    void AddTo(FeroceStudy& study);
    /**
     * After Parse: with --triggerRate given, interval = 1 / rate (to the nanosecond), set as
     * ns3::RoceFrontEndApp::TriggerInterval's value by the flag.  False (message printed) when
     * the program must exit with study.GetExitCode().
     */
    bool Apply(FeroceStudy& study, Time& interval) const;
};

/**
 * \ingroup feroce
 * The boards' traffic and transport, in this order: --pmtu --messageSize --write --imm --mode
 * --triggerInterval --triggerRate --boardBuffer --ackTimeout --ackJitter, each its attribute's
 * value (ns3::RoceQueuePair::Pmtu, ns3::RoceFrontEndApp::MessageSize, Write, WithImmediate, Mode,
 * TriggerInterval, BufferSize, ns3::RoceQueuePair::AckTimeout, AckTimeoutJitter).
 */
struct BoardTrafficFlags
{
    uint32_t pmtu{4096};
    uint64_t messageSize{1 << 20};
    bool write{true};
    bool imm{false};
    std::string mode{"saturate"};
    Time triggerInterval{MicroSeconds(100)};
    TriggerRateFlag triggerRate; ///< Apply after Parse
    uint64_t boardBuffer{4 << 20};
    Time ackTimeout{MilliSeconds(1)};
    Time ackJitter{0};

    void AddTo(FeroceStudy& study);
};

/**
 * \ingroup feroce
 * Link-level PAUSE and the PFC watchdog, in this order: --pauseFrames (what the switches send:
 * pfc, 802.3x or both; ns3::FeroceSwitch::PauseFrames), --pauseHonour (what the NICs obey: pfc,
 * 802.3x, both or none, empty for --pfcHonour; ns3::RoceNic::PauseHonour), --watchdog
 * (ns3::FeroceSwitch::WatchdogDetect, 0: off), --watchdogRestore and --watchdogAction (drop or
 * forward).
 */
struct PauseFlags
{
    std::string pauseFrames{"pfc"};
    std::string pauseHonour;
    Time watchdog{0};
    Time watchdogRestore{MilliSeconds(200)};
    std::string watchdogAction{"drop"};

    void AddTo(FeroceStudy& study);
    /// --pauseHonour against a --pfcHonour given with it (pfcHonour: its value): "" or the
    /// message (a --pfcHonour equal to its default is not seen by the NIC's own check).
    std::string Check(const FeroceStudy& study, bool pfcHonour) const;
};

/**
 * \ingroup feroce
 * Link flags: --linkDelay (ns3::FeroceChannel::Delay) and, when rateName is given, a rate
 * flag for ns3::FeroceNetDevice::DataRate.
 */
struct LinkFlags
{
    Time linkDelay{MicroSeconds(1)};
    DataRate linkRate{"10Gbps"};

    void AddTo(FeroceStudy& study, const std::string& rateName = "");
};

} // namespace ns3

#endif /* FEROCE_FLAG_GROUPS_H */
