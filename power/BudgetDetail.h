#pragma once
/// \file BudgetDetail.h
/// Inside the power library: one rack's budget at a given GPU cap, and the cap advice built on
/// it (CapAdvice.cpp). Not part of the library's interface.

#include <string>
#include <vector>

#include "power/Budget.h"

namespace rdt::power::detail {

/// The rack budgeted with every GPU capped at `capW` (≤ 0: the design's caps), judged.
RackPower evaluate(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, double capW);
/// Busbar load on the basis with every GPU capped at `capW`: one pass over the slots, what the
/// rules that judge the load alone need (no bus network, no AC side). W.
double busbarLoadAt(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, double capW);
/// The worst shelf's whip current over its own derated breaker, less one (≤ 0: within): every
/// feed up only (`normalOnly`), else the worst of that and the other feed lost.
double whipExcess(const RackPower& out, const PowerOptions& o, bool normalOnly);
/// Add `note` to the rack's notes unless it is there already.
void noteOnce(RackPower& out, const std::string& note);
/// Figures a power rule needs but the catalog lacks, and the value taken without them, as notes
/// (reported by power.figure.missing): never another part's figure (BudgetNotes.cpp).
void missingFigures(const core::Design& d, const core::Rack& r, const std::vector<const core::Slot*>& shelfSlots,
                    RackPower& out);
/// Cap advice for every failing rule, the named limits and normal operation (docs/power.md).
void adviseCaps(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, RackPower& out);
/// Each liquid loop's CDUs into `res.cdus` and their shares onto its racks (CduPower.cpp).
void addCdus(const core::Design& d, const PowerOptions& o, PowerResult& res);

} // namespace rdt::power::detail
