#pragma once
/// \file ThermalChecksDetail.h
/// The thermal rules' registration split across files (ThermalChecks.cpp registers them all).

#include "core/Rules.h"

namespace rdt::thermal {

/// thermal.inlet.switch and thermal.row.rci_lo (InletChecks.cpp).
void registerInletChecks(core::CheckRegistry& registry);

} // namespace rdt::thermal
