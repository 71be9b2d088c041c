/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_ATTRIBUTES_H
#define FEROCE_ATTRIBUTES_H

#include "ns3/feroce-check.h"
#include "ns3/object.h"

#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup feroce
 * Whether the default of tid's attribute name was changed from its original
 * (Config::SetDefault, or --ns3::Type::Attribute=... on a command line).
 */
bool IsAttributeDefaultChanged(TypeId tid, const std::string& name);

/**
 * \ingroup feroce
 * Sets on object every attribute of tid whose default was changed, but those in
 * except: what a preset overwrote, the user's defaults win again.
 */
void ApplyChangedDefaults(Ptr<Object> object, TypeId tid, const std::set<std::string>& except = {});

/**
 * \ingroup feroce
 * The core's message for a bad parameter (feroce_check_message) with the core's
 * names (kmin_bytes, min_rate_bps...) replaced by the attributes' (Kmin, MinRate...).
 */
std::string AttributeCheckMessage(const feroce_check& why);

} // namespace ns3

#endif /* FEROCE_ATTRIBUTES_H */
