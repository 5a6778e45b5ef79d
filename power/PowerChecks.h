#pragma once
/// \file PowerChecks.h
/// Power rules that need only the layout (the full Open Rack budget comes with the power solver).

#include <map>
#include <string>
#include <vector>

#include "core/Rules.h"
#include "power/Budget.h"

namespace rdt::power {

/// A power rule's failing racks, and how many of them are failing it only under waivers.
struct RuleFailures {
    std::size_t racks = 0;
    std::size_t waived = 0; ///< racks whose every violation of the rule is waived
};

/// Per rule, the racks that fail it (RackPower::failures) and of those the waived ones: the
/// summaries' "N racks over budget" say which failures a waiver accepted, as the verdicts do.
std::map<std::string, RuleFailures> failuresByRule(const PowerResult& power, const std::vector<core::Violation>& all);

/// Register `orv3.power.source`: a busbar-fed part in a rack without a power shelf.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::power
