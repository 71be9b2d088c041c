/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The attribute audit of the tests (src/feroce/doc/input-grammar.md): preloaded into a feroce
// program (LD_PRELOAD), it records every ns3::Object constructed, by standing in front of
// ns-3's Object::Construct, which every CreateObject and ObjectFactory::Create calls (through
// the dynamic linker, so the first definition found is this one).  The program's front door
// (FeroceCommandLine::Audit) then checks that each object holds the value every attribute was
// given.  The objects are kept alive until the process ends, so that temporaries count too.

#include "ns3/object.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

namespace
{

std::vector<ns3::Object*>&
Objects()
{
    static auto* objects = new std::vector<ns3::Object*>(); // never destroyed: see above
    return *objects;
}

} // namespace

namespace ns3
{

void
Object::Construct(const AttributeConstructionList& attributes)
{
    using Real = void (*)(Object*, const AttributeConstructionList&);
    static Real real = reinterpret_cast<Real>(
        dlsym(RTLD_NEXT, "_ZN3ns36Object9ConstructERKNS_25AttributeConstructionListE"));
    if (!real)
    {
        std::abort(); // not ns-3's mangling: the audit cannot work here
    }
    real(this, attributes);
    Ref();
    Objects().push_back(this);
}

} // namespace ns3

extern "C"
{
    /// How many objects were constructed so far.
    std::size_t feroce_audit_count()
    {
        return Objects().size();
    }

    /// The i-th object constructed.
    ns3::Object* feroce_audit_object(std::size_t i)
    {
        return Objects()[i];
    }
}
