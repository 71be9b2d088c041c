/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FEROCE_IDENTITIES_H
#define FEROCE_IDENTITIES_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * Counters that must add up, checked in one place: each identity is a total
 * and the parts it is made of, counted independently (events generated =
 * built + lost by cause + in flight; a board's fragments = lost + delivered +
 * failed + held...).  A study adds its identities after the run, reports
 * them (Describe) and records the number that do not hold as the metric
 * identity_violations: 0, or a bug of the model.  Issue 24's counters (frames
 * lost anywhere = the sum of the places) go here too.
 */
class FeroceIdentities
{
  public:
    typedef std::vector<std::pair<std::string, uint64_t>> Parts;

    /// The identity name = sum of parts (names as the metrics name them).
    void Add(const std::string& name, uint64_t total, const Parts& parts);
    /// Identities that do not hold.
    uint32_t GetViolations() const;
    /// "" or the first identity that does not hold, with its numbers.
    std::string Check() const;
    /// One line per identity: "name = a + b: 10 = 7 + 3 (holds)".
    std::vector<std::string> Describe() const;

  private:
    struct Identity
    {
        std::string name;
        uint64_t total;
        Parts parts;
        bool Holds() const;
        std::string Text() const;
    };

    std::vector<Identity> m_identities;
};

} // namespace ns3

#endif /* FEROCE_IDENTITIES_H */
