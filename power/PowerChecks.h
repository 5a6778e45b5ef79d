#pragma once
/// \file PowerChecks.h
/// Power rules that need only the layout (the full Open Rack budget comes with the power solver).

#include "core/Rules.h"

namespace rdt::power {

/// Register `orv3.power.source`: a busbar-fed part in a rack without a power shelf.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::power
