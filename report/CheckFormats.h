#pragma once
/// \file CheckFormats.h
/// Machine-readable check results: the JSON of `rdt check --json`, SARIF 2.1.0 for code
/// review tools and JUnit XML for CI (`rdt validate --format`).

#include <nlohmann/json.hpp>

#include <string>

#include "analysis/Pipeline.h"

namespace rdt::report {

/// `summary` (counts of halls … links), `violations[]` (rule, severity, subject, message,
/// measured, limit, unit, location, waived) and `counts` by severity.
nlohmann::json checkJson(const analysis::RunResult& result);

/// `signal.links[]`: id, kind, length_m, il_nyquist_dB, com_dB, eye_height (V), verdict, lane_rate_Gbps.
nlohmann::json signalJson(const signal::SignalResult& result);
/// The `energy` section of `check --json` (analysis/Energy.h).
nlohmann::json energyJson(const analysis::EnergyResult& result);

/// One violation as JSON (NaN numbers become null).
nlohmann::json violationJson(const core::Violation& v);

/// What SARIF and JUnit output need: the violations, and which rules ran.
struct RuleRun {
    std::string name; ///< design name or part slug
    std::string file; ///< the input file
    const core::Profile* profile = nullptr;
    core::RuleTarget target = core::RuleTarget::Design;
    std::vector<core::Violation> violations;
    const analysis::ThroughputResult* throughput = nullptr; ///< its targets become rules `target.<id>`
    /// The design's waivers that waived nothing (SARIF: configuration notifications; JUnit: a
    /// `waivers` suite of passing cases that say so), as the text, JSON and HDF5 list them.
    std::vector<core::Waiver> unusedWaivers{};
};

/// The RuleRun of a design run.
RuleRun ruleRun(const analysis::RunResult& result);

/// SARIF 2.1.0 log: one run, the rules that ran as `tool.driver.rules`, one result per violation;
/// waived violations carry an in-source suppression with the justification.
nlohmann::json sarifLog(const RuleRun& run, const core::CheckRegistry& registry, const std::string& toolVersion);

/// JUnit XML: one test suite per rule, one test case per rule and subject that failed, plus one
/// passing case per rule without violations. Errors are failures; warnings are reported in system-out.
std::string junitXml(const RuleRun& run, const core::CheckRegistry& registry);

/// Escape text for XML attribute and element content.
std::string xmlEscape(const std::string& text);

} // namespace rdt::report
