/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_INPUT_RULES_H
#define FEROCE_INPUT_RULES_H

#include <string>

namespace ns3
{

class FeroceCommandLine;

/**
 * \ingroup feroce
 * The physics a user cannot mean, over the attributes as every source set them (the one rule
 * for every program, src/feroce/doc/input-grammar.md): a setting given for a mechanism that is
 * off (DCQCN parameters with DCQCN off, PFC thresholds with PFC off or of the other PFC mode,
 * ECN thresholds with ECN off) or that no queue can reach (Kmin above the buffer) is refused;
 * an odd one (Kmax above the buffer) is warned (cmd.Warn).  "" or the refusal.
 */
std::string CheckInputRules(FeroceCommandLine& cmd);

/**
 * \ingroup feroce
 * The values given (by the user, a flag or a file) that only the model can judge (a string such as
 * a mode, a map, a preset): an object of each feroce type with a value given is made from the
 * defaults and validated.  "" or its message.
 */
std::string ValidateGivenDefaults(const FeroceCommandLine& cmd);

} // namespace ns3

#endif /* FEROCE_INPUT_RULES_H */
