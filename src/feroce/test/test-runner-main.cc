/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The ns-3 test runner for the standalone build: Debian's ns-3 ships the
// runner's code in libns3-core but no program around it.
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
