#pragma once
/// \file MechanicalChecks.h
/// Rack mechanics rules: OU overlap and range, bay width, frame depth, payload mass.

#include "core/Rules.h"

namespace rdt::core {

/// Register `orv3.slot.overlap`, `orv3.slot.range`, `orv3.part.width`, `orv3.part.depth`, `orv3.rack.mass`.
void registerChecks(CheckRegistry& registry);

} // namespace rdt::core
