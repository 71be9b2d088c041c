/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The audit's own test: a program that overwrites the value --ns3::FeroceSwitch::Kmin gave
// (what the front door exists to prevent), run with and without the audit preloaded
// (audit-selftest.sh): with it, the program must fail with exit status 3 naming Kmin.

#include "ns3/feroce-command-line.h"
#include "ns3/feroce-switch.h"
#include "ns3/uinteger.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    bool overwrite = true;
    FeroceCommandLine cmd("feroce-audit-selftest", "the audit's own test");
    cmd.AddValue("overwrite", "Overwrite Kmin after creating the switch", overwrite);
    if (!cmd.Parse(argc, argv))
    {
        return cmd.GetExitCode();
    }
    Ptr<FeroceSwitch> sw = CreateObject<FeroceSwitch>();
    if (overwrite)
    {
        sw->SetAttribute("Kmin", UintegerValue(1234));
    }
    cmd.Audit("before the run");
    cmd.Audit("after the run");
    return 0;
}
