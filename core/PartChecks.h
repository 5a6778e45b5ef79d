#pragma once
/// \file PartChecks.h
/// Rules on one catalog part (`rdt validate PART.yaml`): provenance of every number,
/// fit in the ORv3 bay and frame, and the data other rules need (weight, power).

#include "core/Rules.h"

namespace rdt::core {

/// Register the `catalog.*` rules (RuleTarget::Part).
void registerPartChecks(CheckRegistry& registry);

} // namespace rdt::core
