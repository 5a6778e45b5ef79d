#pragma once
/// \file LiquidChecks.h
/// The liquid rules (`liquid.*`): tray flow and its spread, starved plates, connector flow,
/// pressure and temperature, manifold velocity, CDU heat and flow, dew point and GPU junctions
/// from the cold plates; each reads the design's solved loops (liquid/LiquidDesign.h).

#include "core/Rules.h"

namespace rdt::liquid {

void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::liquid
