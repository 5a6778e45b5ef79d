#pragma once
/// \file TextOutput.h
/// Human-readable text for the terminal: check summaries, violations grouped by rule,
/// catalog listings.

#include <cmath>
#include <string>
#include <vector>

#include "analysis/Pipeline.h"

namespace rdt::cli {

/// 24576 → "24,576".
std::string thousands(std::size_t n);
/// Summary of a run: layout counts, parts, links, rule counts, violations by rule.
std::string checkSummaryText(const analysis::RunResult& result, const core::CheckRegistry& registry);
/// The `power` summary line: basis, IT (with the modelled load beside it), facility AC, racks over
/// budget by failing rule and the cap that clears them.
std::string powerSummaryText(const power::PowerResult& power, const std::vector<core::Violation>& violations);
/// The `thermal` summary line: hottest GPU with its chassis, fan speed and margin to its limit.
/// `inletLimitK`: the allowable inlet the warmest chassis is judged against (its figure is then
/// printed to the digit that tells it from the limit: 35.01 read "35 degC"); NaN: none.
/// `fed` (per rack, the power budget's): the hottest GPU's rack said not fed where it is not.
std::string thermalSummaryText(const thermal::ThermalResult& thermal, double inletLimitK = NAN,
                               const std::vector<bool>* fed = nullptr);
/// One `liquid` line per coolant loop: CDUs running, heat, flow, supply and return, capacity, the
/// tray with the least flow per kW and the hottest plate case.
std::string liquidSummaryText(const liquid::LiquidResult& liquid);
/// Violations grouped by rule, at most `maxPerRule` subjects listed per rule.
std::string violationsText(const std::vector<core::Violation>& violations, const core::CheckRegistry& registry,
                           std::size_t maxPerRule);
/// One line per part: slug, kind, OU, manufacturer and model.
std::string catalogListText(const core::Catalog& catalog, const std::string& kind);
/// The rule list, as an aligned text table or a Markdown table.
std::string rulesText(const core::CheckRegistry& registry, bool markdown);
/// Every field of one part with its value, unit and provenance.
std::string partText(const core::Part& part);

} // namespace rdt::cli
