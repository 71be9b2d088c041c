/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "advcam-eventbuilding-flags.h"

namespace ns3
{

namespace
{

/// "-1 (none) or a receiver 0..K-1", or "" when r is one.
std::string
CheckReceiver(int32_t r, uint32_t receivers)
{
    return r >= -1 && r < int32_t(receivers)
               ? std::string()
               : "-1 (none) or a receiver 0.." + std::to_string(receivers - 1);
}

} // namespace

void
AdvcamEventBuildingFlags::AddTo(FeroceStudy& study)
{
    camera.AddTo(study);
    const uint32_t* k = &camera.receivers;
    study
        .AddFlag("assignment",
                 "Which receiver builds each event: static (n mod K), availability (an "
                 "assigner, by the receivers' credits) or board-rule (every board, by the "
                 "credits the receivers announce to all)",
                 assignment)
        .OneOf({"static", "availability", "board-rule"});
    study
        .AddFlag("eventTimeout",
                 "A receiver closes an event still incomplete this long after its first fragment",
                 eventTimeout)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Attribute("ns3::RoceReceiverApp::EventTimeout");
    study
        .AddFlag("eventSlots",
                 "availability, board-rule: events a receiver takes at once (its credits)",
                 eventSlots)
        .Range(1, 1000000)
        .Owns("ns3::RoceReceiverApp::EventSlots");
    const uint32_t* slots = &eventSlots;
    study
        .AddFlag("creditBatch",
                 "availability, board-rule: events a receiver closes before it sends a credit "
                 "message",
                 creditBatch)
        .Check([slots](const uint32_t& b) {
            return b >= 1 && b <= *slots ? std::string()
                                         : "1..eventSlots = " + std::to_string(*slots);
        })
        .Owns("ns3::RoceReceiverApp::CreditBatch");
    study
        .AddFlag("creditInterval",
                 "availability, board-rule: a receiver's credits are sent again at least this "
                 "often",
                 creditInterval)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Owns("ns3::RoceReceiverApp::CreditInterval");
    study
        .AddFlag("receiverTimeout",
                 "availability: the assigner drops a receiver not heard for this long (0: only "
                 "missing credits)",
                 receiverTimeout)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; })
        .Owns("ns3::RoceAssignerApp::ReceiverTimeout");
    study
        .AddFlag("block",
                 "availability: consecutive events per assignment (one message per board)",
                 block)
        .Check([slots](const uint32_t& b) {
            return b >= 1 && b <= *slots ? std::string()
                                         : "1..eventSlots = " + std::to_string(*slots) +
                                               " (a receiver takes a whole block)";
        })
        .Owns("ns3::RoceAssignerApp::Block");
    study
        .AddFlag("announceLead",
                 "board-rule: an announcement is valid from the trigger its receiver has "
                 "counted + this - 1 (events: it must reach every board before then)",
                 announceLead)
        .Range(1, 32767)
        .Owns("ns3::RoceReceiverApp::AnnounceLead");
    study
        .AddFlag("creditExpiry",
                 "board-rule: a receiver not announcing for this many events is out of the rule "
                 "(0: only missing credits)",
                 creditExpiry)
        .Range(0, 1000000000)
        .Owns("ns3::RoceFrontEndApp::CreditExpiry");
    study.AddFlag("failReceiver", "The receiver that fails (-1: none)", failReceiver)
        .Check([k](const int32_t& r) { return CheckReceiver(r, *k); });
    study.AddFlag("failAt", "When it fails", failAt);
    study.AddFlag("returnAt", "When it comes back (0: not in the run)", returnAt);
    study
        .AddFlag("failMode",
                 "host (the host crashes: link down, its state and queue pairs lost) or link "
                 "(only its link goes down)",
                 failMode)
        .OneOf({"host", "link"});
    study
        .AddFlag("mtbf",
                 "Random failures of every receiver: mean time between failures (0: none)",
                 mtbf)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; });
    study.AddFlag("mttr", "Random failures: mean time to repair", mttr).Check([](const Time& t) {
        return t.IsNegative() && !t.IsZero() ? "a time >= 0" : "";
    });
    study
        .AddFlag("reconnectDelay",
                 "A broken connection is re-established (new queue pairs) this long after both "
                 "ends are up",
                 reconnectDelay)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; });
    study.AddFlag("ackTimeout", "Queue pairs' retransmission timeout", ackTimeout)
        .Check([](const Time& t) { return t.IsStrictlyPositive() ? "" : "a time > 0"; })
        .Attribute("ns3::RoceQueuePair::AckTimeout");
    study.AddFlag("retryCount", "Timeouts without progress before a queue pair fails", retryCount)
        .Range(0, 7)
        .Attribute("ns3::RoceQueuePair::RetryCount");
    study.AddFlag("slowReceiver", "The receiver that is a Soft-RoCE host (-1: none)", slowReceiver)
        .Check([k](const int32_t& r) { return CheckReceiver(r, *k); });
    study.AddFlag("slowPacketCost", "Soft-RoCE: CPU time per data frame", slowPacketCost)
        .Check([](const Time& t) { return t.IsNegative() && !t.IsZero() ? "a time >= 0" : ""; })
        .Owns("ns3::RoceNic::RxPacketCost");
    study.AddFlag("slowByteRate", "Soft-RoCE: the CPU's per-byte cost as a rate", slowByteRate)
        .Range(DataRate("1Mbps"), DataRate(1000000000000ULL))
        .Owns("ns3::RoceNic::RxProcessingRate");
    study.AddFlag("slowBuffer", "Soft-RoCE: receive buffer bytes (PFC from its NIC)", slowBuffer)
        .Range(1, 1ULL << 32)
        .Owns("ns3::RoceNic::RxBufferSize");
    pause.AddTo(study);
    // the receivers build events of one fragment per board; a board marks what it lost
    study.Owns("ns3::RoceReceiverApp::FragmentsPerEvent", "boards");
    study.Owns("ns3::RoceFrontEndApp::LostMarkers");
    study.Owns("ns3::RoceAssignerApp::TriggerInterval", "triggerInterval");
    study.Owns("ns3::RoceAssignerApp::Poisson", "poisson");
    study.Owns("ns3::RoceReceiverApp::TriggerInterval", "triggerInterval");
    study.Owns("ns3::RoceReceiverApp::Poisson", "poisson");
    study.Owns("ns3::RoceNic::ReceiverModel", "slowReceiver");
    study.Owns("ns3::RoceNic::RxPfc", "slowReceiver");
}

std::string
AdvcamEventBuildingFlags::Check(FeroceStudy& study) const
{
    Time duration = study.GetDuration();

    // each policy's flags mean nothing to the others: refused rather than ignored
    struct Owner
    {
        const char* flag;
        bool assigner;  ///< availability's
        bool boardRule; ///< board-rule's
    };

    for (const Owner& o : {Owner{"eventSlots", true, true},
                           Owner{"creditBatch", true, true},
                           Owner{"creditInterval", true, true},
                           Owner{"receiverTimeout", true, false},
                           Owner{"block", true, false},
                           Owner{"announceLead", false, true},
                           Owner{"creditExpiry", false, true}})
    {
        if (study.IsGiven(o.flag) && !(Assigner() ? o.assigner : BoardRule() && o.boardRule))
        {
            std::string owners = o.assigner && o.boardRule ? "availability or board-rule"
                                 : o.assigner              ? "availability"
                                                           : "board-rule";
            return std::string("--") + o.flag + " is not allowed with --assignment=" + assignment +
                   ": expected --assignment=" + owners + " (a flag of that policy)";
        }
    }
    if (BoardRule() && eventSlots > 32767)
    {
        return "--eventSlots=" + std::to_string(eventSlots) +
               " is not allowed with --assignment=board-rule: expected 1..32767 (an "
               "announcement carries 15 bits)";
    }
    if (failReceiver >= 0)
    {
        if (failAt.IsStrictlyNegative() || failAt >= duration)
        {
            return "--failAt=" + study.GetCommandLine().GetText("failAt") +
                   " is not allowed: expected a time in [0, duration = " +
                   std::to_string(duration.GetMilliSeconds()) + "ms)";
        }
        if (!returnAt.IsZero() && returnAt <= failAt)
        {
            return "--returnAt=" + study.GetCommandLine().GetText("returnAt") +
                   " is not allowed: expected a time after --failAt = " +
                   std::to_string(failAt.GetMicroSeconds()) + "us, or 0 (not back in the run)";
        }
    }
    else if (study.IsGiven("failAt") || study.IsGiven("returnAt"))
    {
        return "--failAt and --returnAt are not allowed without --failReceiver: expected "
               "--failReceiver=K (0.." +
               std::to_string(camera.receivers - 1) + ")";
    }
    if (mtbf.IsStrictlyPositive() != mttr.IsStrictlyPositive())
    {
        bool m = mtbf.IsStrictlyPositive();
        return std::string("--") + (m ? "mttr" : "mtbf") +
               "=0 is not allowed: expected a time > 0 with --" + (m ? "mtbf" : "mttr");
    }
    if (mtbf.IsStrictlyPositive() && failReceiver >= 0)
    {
        return "--mtbf is not allowed with --failReceiver: expected one of a set failure or "
               "random ones";
    }
    std::string pauseError = pause.Check(study, camera.fabric.pfcHonour);
    if (!pauseError.empty())
    {
        return pauseError;
    }
    if (slowReceiver < 0)
    {
        for (const char* f : {"slowPacketCost", "slowByteRate", "slowBuffer"})
        {
            if (study.IsGiven(f))
            {
                return std::string("--") + f +
                       " is not allowed without --slowReceiver: expected --slowReceiver=K";
            }
        }
    }
    return "";
}

} // namespace ns3
