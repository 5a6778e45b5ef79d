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
#include "liquid/LiquidDesign.h"
#include "power/Budget.h"
#include "thermal/Thermal.h"

namespace rdt::analysis {

/// Every field the results allow (a null result contributes none), in a stable order, each with
/// its rule's limits (core::PartField::limit, nearLimit: the scale the studio anchors to).
/// `minExhaustDtK`: the profile's thermal.exhaust.dt target (exhaustDtTarget()).
std::vector<core::PartField> resultFields(const core::Design& design, const power::PowerResult* power,
                                          const thermal::ThermalResult* thermal, const ThroughputResult* throughput,
                                          const signal::SignalResult* signal = nullptr, double minExhaustDtK = NAN);

/// The coolant loops' fields (docs/liquid.md), appended to `out`; none without liquid loops. Each
/// liquid-cooled part: "Coolant out temperature" against its connector's maximum
/// (liquid.connector.temperature), "Coolant flow vs allocation" in % of its liquid heat times the
/// profile's flow_per_kw (liquid.tray.flow: below 100 % fails), "Connector pressure vs rating" in %
/// (liquid.connector.pressure), "CDU load vs capacity" in % of its loop's (liquid.cdu.heat).
void appendLiquidFields(const core::Design& design, const liquid::LiquidResult& liquid, const core::Profile* profile,
                        std::vector<core::PartField>& out);

/// The profile's min_exhaust_dt of thermal.exhaust.dt (K): the rule's default for a null profile.
double exhaustDtTarget(const core::Profile* profile);

} // namespace rdt::analysis
