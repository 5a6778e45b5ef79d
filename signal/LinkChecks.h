#pragma once
/// \file LinkChecks.h
/// Link rules that need only the layout: both ends present, and a passive cable long
/// enough for the placement yet within its reach. (COM and eye come with the SI solver.)

#include "core/Rules.h"

namespace rdt::signal {

/// Folder of the COM parameter tables: `si-profiles` in core::dataDir().
std::string siProfileDir();

/// Register `link.endpoint.missing`, `signal.cable.reach`, `signal.link.close`, `signal.link.rate`.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::signal
