#pragma once
/// \file LinkChecks.h
/// Link rules that need only the layout: both ends present, and a passive cable long
/// enough for the placement yet within its reach. (COM and eye come with the SI solver.)

#include "core/Rules.h"

namespace rdt::signal {

/// Cable length (m) a rack-scope link between two slots needs: the vertical distance between
/// the middles of the two parts' OU spans plus `slackM` for routing to the ports.
double requiredCableLengthM(const core::Slot& a, const core::Slot& b, double ouPitchM, double slackM);

/// Folder of the COM parameter tables: `$RDT_DATA_DIR/si-profiles`, else the source tree's.
std::string siProfileDir();

/// Register `link.endpoint.missing`, `signal.cable.reach`, `signal.link.close`, `signal.link.rate`.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::signal
