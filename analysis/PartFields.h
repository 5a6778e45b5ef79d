#pragma once
/// \file PartFields.h
/// The solver results as per-part fields for the studio's colourings (core/PartField.h): thermal
/// (inlet, GPU junction and margin, exhaust rise, fan speed), power (part draw, rack load against
/// N+1 and feed loss, busbar current against its rating, battery hold-up), throughput (GPU clock)
/// and signal (each part's worst link margin: COM or insertion-loss budget). Racks stamped from one template share results, but every rack gets its own values.

#include <cmath>
#include <vector>

#include "analysis/Throughput.h"
#include "core/PartField.h"
#include "core/Rules.h"
#include "power/Budget.h"
#include "thermal/Thermal.h"

namespace rdt::analysis {

/// Every field the results allow (a null result contributes none), in a stable order, each with
/// its rule's limits (core::PartField::limit, nearLimit: the scale the studio anchors to).
/// `minExhaustDtK`: the profile's thermal.exhaust.dt target (exhaustDtTarget()).
std::vector<core::PartField> resultFields(const core::Design& design, const power::PowerResult* power,
                                          const thermal::ThermalResult* thermal, const ThroughputResult* throughput,
                                          const signal::SignalResult* signal = nullptr, double minExhaustDtK = NAN);

/// The profile's min_exhaust_dt of thermal.exhaust.dt (K): the rule's default for a null profile.
double exhaustDtTarget(const core::Profile* profile);

} // namespace rdt::analysis
