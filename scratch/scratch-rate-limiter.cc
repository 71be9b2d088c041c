/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A starting point for your own program: every .cc in scratch/ (or folder of
// them) is built into build/scratch/NAME, linked with feroce and ns-3.

#include "ns3/core-module.h"
#include "ns3/feroce-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string preset = "connectx";
    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "DCQCN preset: paper, connectx or hpcc", preset);
    cmd.Parse(argc, argv);

    Ptr<DcqcnReactionPoint> rp = CreateObject<DcqcnReactionPoint>();
    std::string error = rp->ApplyPreset(preset, DataRate("10Gbps"));
    if (!error.empty())
    {
        std::cerr << error << std::endl;
        return 2;
    }
    rp->ReceiveCnp();
    std::cout << preset << ": Rc after one CNP and its first cut: ";
    Simulator::Schedule(MicroSeconds(10), [rp]() { std::cout << rp->GetRate() << std::endl; });
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
