#include "report/CheckFormats.h"

#include "core/JsonNumber.h"

#include "report/PowerOutput.h"
#include "report/DynamicsOutput.h"
#include "report/LiquidOutput.h"
#include "report/ThermalOutput.h"
#include "report/ThroughputOutput.h"

#include <cmath>
#include <map>
#include <sstream>

using rdt::core::jsonNumber;

namespace rdt::report {

using nlohmann::json;

// What analysis computed, by its own names.
using analysis::EnergyGroup;
using analysis::EnergyLevel;
using analysis::EnergyResult;
using analysis::RunResult;
using analysis::TargetResult;

namespace {

std::string sarifLevel(core::Severity s)
{
    switch (s) {
    case core::Severity::Error: return "error";
    case core::Severity::Warning: return "warning";
    case core::Severity::Info: return "note";
    }
    return "error";
}

} // namespace

json violationJson(const core::Violation& v)
{
    json j = {
        {"rule", v.rule},
        {"severity", std::string(core::severityName(v.severity))},
        {"subject", v.subject},
        {"message", v.message},
        {"measured", jsonNumber(v.measured)},
        {"limit", jsonNumber(v.limit)},
        {"unit", v.unit},
        {"location", {{"file", v.loc.file}, {"line", v.loc.line}, {"column", v.loc.column}, {"path", v.loc.path}}},
        {"waived", v.waived}};
    if (v.waived)
        j["justification"] = v.justification;
    return j;
}

json checkJson(const RunResult& result)
{
    const core::Summary s = result.design.summary();
    const core::CheckCounts c = core::countViolations(result.violations);
    json violations = json::array();
    for (const auto& v : result.violations)
        violations.push_back(violationJson(v));
    json unusedWaivers = json::array();
    for (const core::Waiver& w : result.unusedWaivers)
        unusedWaivers.push_back(
            {{"rule", w.rule},
             {"subject", w.subject},
             {"location", {{"file", w.loc.file}, {"line", w.loc.line}, {"column", w.loc.column}}}});
    return {{"design", {{"name", result.design.name}, {"file", result.design.file}}},
            {"profile", result.profile.name},
            {"profile_file", result.profile.file},
            {"summary",
             {{"halls", s.halls},
              {"pods", s.pods},
              {"rows", s.rows},
              {"racks", s.racks},
              {"chassis", s.chassis},
              {"gpus", s.gpus},
              {"switches", s.switches},
              {"power_shelves", s.powerShelves},
              {"bbu_shelves", s.bbuShelves},
              {"links", s.links}}},
            {"counts", {{"errors", c.errors}, {"warnings", c.warnings}, {"infos", c.infos}, {"waived", c.waived}}},
            {"violations", violations},
            {"unused_waivers", unusedWaivers},
            {"scenario", result.design.scenario.name.empty() ? json("as designed") : json(result.design.scenario.name)},
            {"power", result.power ? powerJson(*result.power) : json(nullptr)},
            {"thermal", result.thermal ? thermalJson(*result.thermal) : json(nullptr)},
            {"liquid", result.liquid ? liquidJson(*result.liquid) : json(nullptr)},
            {"signal", result.signal ? signalJson(*result.signal) : json(nullptr)},
            {"throughput", result.throughput ? throughputJson(*result.throughput) : json(nullptr)},
            {"energy", result.energy ? energyJson(*result.energy) : json(nullptr)},
            {"dynamics", result.dynamics ? dynamicsJson(*result.dynamics) : json(nullptr)}};
}

json energyJson(const EnergyResult& e)
{
    auto group = [&](const EnergyGroup& g) {
        return json{{"id", g.id},
                    {"it_modelled_W", jsonNumber(g.itModelledW)},
                    {"it_basis_W", jsonNumber(g.itBasisW)},
                    {"cdu_modelled_W", jsonNumber(g.cduModelledW)},
                    {"cdu_basis_W", jsonNumber(g.cduBasisW)},
                    {"facility_W", jsonNumber(g.facilityW)},
                    {"facility_peak_W", jsonNumber(g.facilityPeakW)},
                    {"annual_MWh", jsonNumber(g.annualMWh)},
                    {"co2_t", jsonNumber(g.co2Tonnes)}};
    };
    json halls = json::array();
    for (const EnergyGroup& g : e.halls)
        halls.push_back(group(g));
    json model = nullptr;
    if (e.model)
        model = {{"cooling", e.model->cooling},   {"size", e.model->size},   {"system", e.model->system},
                 {"climate_zone", e.model->zone}, {"case", e.model->caseNo}, {"percentile", e.model->percentile},
                 {"pue_p05", e.model->p05},       {"pue_p95", e.model->p95}, {"source", e.model->source}};
    json profile = json::array();
    for (const EnergyLevel& l : e.profile)
        profile.push_back({{"hours_share", l.share}, {"load", l.load}, {"it_W", l.itW}, {"cdu_W", l.cduW}, {"facility_W", l.facilityW}});
    return {{"pue", e.pue},
            {"pue_source", e.pueSource},
            {"pue_model", model},
            {"utilisation_profile", profile},
            {"load_factor", e.loadFactor},
            {"hours_per_year", e.hoursPerYear},
            {"grid_kg_co2_per_kWh", jsonNumber(e.gridKgPerKWh)},
            {"grid_source", e.gridSource},
            {"peak_basis", std::string(core::powerBasisName(e.basis))},
            {"total", group(e.total)},
            {"halls", halls}};
}

json signalJson(const signal::SignalResult& s)
{
    json links = json::array();
    for (const signal::LinkVerdict& v : s.links)
        links.push_back({{"id", v.id},
                         {"kind", v.kind},
                         {"links", v.count},
                         {"length_m", jsonNumber(v.lengthM)},
                         {"placement_length_m", jsonNumber(v.placementLengthM)},
                         {"il_nyquist_dB", jsonNumber(v.ilNyquistDb)},
                         {"com_dB", jsonNumber(v.comDb)},
                         {"eye_height", jsonNumber(v.eyeHeightV)},
                         {"eye_width_UI", jsonNumber(v.eyeWidthUi)},
                         {"verdict", v.verdict},
                         {"lane_rate_Gbps", jsonNumber(v.laneRateGbps)},
                         {"port_rate_Gbps", jsonNumber(v.portRateGbps)},
                         {"negotiated_lane_Gbps", jsonNumber(v.negotiatedLaneGbps)},
                         {"from_port", v.fromPort},
                         {"to_port", v.toPort},
                         {"downgraded", v.downgraded}});
    json ports = json::array();
    for (const signal::PartPorts& p : s.ports)
        ports.push_back({{"id", p.id},
                         {"part", p.part},
                         {"rack", p.rack},
                         {"switch", p.isSwitch},
                         {"available", p.available},
                         {"used", p.used},
                         {"downlinks", p.downlinks},
                         {"uplinks", p.uplinks},
                         {"down_Gbps", jsonNumber(p.downGbps)},
                         {"up_Gbps", jsonNumber(p.upGbps)},
                         {"oversubscription", jsonNumber(p.oversubscription)},
                         {"by_class", p.byClass}});
    return {{"links", links}, {"ports", ports}};
}

RuleRun ruleRun(const RunResult& result)
{
    return RuleRun{result.design.name,       result.design.file, &result.profile,
                   core::RuleTarget::Design, result.violations,  result.throughput.get(),
                   result.unusedWaivers};
}

json sarifLog(const RuleRun& run, const core::CheckRegistry& registry, const std::string& toolVersion)
{
    json rules = json::array();
    std::map<std::string, int> ruleIndex;
    for (const auto& e : registry.entries()) {
        const core::RuleConfig cfg = run.profile->configFor(e.info);
        if (!cfg.enabled || e.info.target != run.target)
            continue;
        ruleIndex[e.info.id] = static_cast<int>(rules.size());
        rules.push_back({{"id", e.info.id},
                         {"name", e.info.id},
                         {"shortDescription", {{"text", e.info.title}}},
                         {"fullDescription", {{"text", e.info.description + " Source: " + e.info.spec}}},
                         {"defaultConfiguration", {{"level", sarifLevel(cfg.severity)}}}});
    }
    if (run.throughput)
        for (const TargetResult& t : run.throughput->targets) {
            ruleIndex["target." + t.id] = static_cast<int>(rules.size());
            rules.push_back({{"id", "target." + t.id},
                             {"name", "target." + t.id},
                             {"shortDescription", {{"text", "Throughput target " + t.id + " (" + t.metric + ")"}}},
                             {"fullDescription", {{"text", "Throughput target from " + t.loc.file}}},
                             {"defaultConfiguration", {{"level", "error"}}}});
        }
    json results = json::array();
    for (const auto& v : run.violations) {
        json physical = {{"artifactLocation", {{"uri", v.loc.file.empty() ? run.file : v.loc.file}}}};
        if (v.loc.line > 0) {
            physical["region"] = {{"startLine", v.loc.line}};
            if (v.loc.column > 0)
                physical["region"]["startColumn"] = v.loc.column;
        }
        json r = {
            {"ruleId", v.rule},
            {"level", sarifLevel(v.severity)},
            {"message", {{"text", v.message}}},
            {"locations", json::array({{{"physicalLocation", physical},
                                        {"logicalLocations",
                                         json::array({{{"fullyQualifiedName", v.subject}, {"kind", "object"}}})}}})},
            {"properties", {{"measured", jsonNumber(v.measured)}, {"limit", jsonNumber(v.limit)}, {"unit", v.unit}}}};
        if (const auto it = ruleIndex.find(v.rule); it != ruleIndex.end())
            r["ruleIndex"] = it->second;
        if (v.waived)
            r["suppressions"] = json::array({{{"kind", "inSource"}, {"justification", v.justification}}});
        results.push_back(r);
    }
    // A waiver that waived nothing (a mistyped subject, a rack gone from the layout): a note on the
    // run's configuration, where the design file wrote it.
    json notes = json::array();
    for (const core::Waiver& w : run.unusedWaivers) {
        json physical = {{"artifactLocation", {{"uri", w.loc.file.empty() ? run.file : w.loc.file}}}};
        if (w.loc.line > 0)
            physical["region"] = {{"startLine", w.loc.line}};
        notes.push_back({{"level", "note"},
                         {"message", {{"text", "waiver " + w.rule + " on " + w.subject + " waived nothing"}}},
                         {"locations", json::array({{{"physicalLocation", physical}}})}});
    }
    json sarifRun = {{"tool",
                      {{"driver",
                        {{"name", "rdt"},
                         {"version", toolVersion},
                         {"informationUri", "https://github.com/rdt-toolkit/rdt"},
                         {"rules", rules}}}}},
                     {"results", results}};
    // Which rule set ran: the profile's name is its own word, its file is what was read.
    if (run.profile)
        sarifRun["properties"] = {{"profile", run.profile->name}, {"profile_file", run.profile->file}};
    if (!notes.empty())
        sarifRun["invocations"] =
            json::array({{{"executionSuccessful", true}, {"toolConfigurationNotifications", notes}}});
    return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", json::array({sarifRun})}};
}

std::string xmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            // XML 1.0 forbids most control characters even when escaped.
            if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t' || ch == '\r')
                out += ch;
        }
    }
    return out;
}

std::string junitXml(const RuleRun& run, const core::CheckRegistry& registry)
{
    std::map<std::string, std::vector<const core::Violation*>> byRule;
    for (const auto& v : run.violations)
        byRule[v.rule].push_back(&v);

    std::ostringstream body;
    std::size_t totalTests = 0, totalFailures = 0;
    for (const auto& e : registry.entries()) {
        if (!run.profile->configFor(e.info).enabled || e.info.target != run.target)
            continue;
        const auto& vs = byRule[e.info.id];
        std::size_t failures = 0;
        std::ostringstream cases;
        if (vs.empty())
            cases << "    <testcase name=\"" << xmlEscape(e.info.id) << "\" classname=\"" << xmlEscape(e.info.id)
                  << "\"/>\n";
        for (const auto* v : vs) {
            cases << "    <testcase name=\"" << xmlEscape(v->subject) << "\" classname=\"" << xmlEscape(e.info.id)
                  << "\"";
            if (v->waived) {
                cases << ">\n      <skipped message=\"waived: " << xmlEscape(v->justification)
                      << "\"/>\n    </testcase>\n";
            } else if (v->severity == core::Severity::Error) {
                ++failures;
                cases << ">\n      <failure message=\"" << xmlEscape(v->message) << "\" type=\"" << xmlEscape(v->rule)
                      << "\">" << xmlEscape(v->loc.position() + ": " + v->message) << "</failure>\n    </testcase>\n";
            } else {
                cases << ">\n      <system-out>"
                      << xmlEscape(std::string(core::severityName(v->severity)) + ": " + v->message)
                      << "</system-out>\n    </testcase>\n";
            }
        }
        const std::size_t tests = vs.empty() ? 1 : vs.size();
        totalTests += tests;
        totalFailures += failures;
        body << "  <testsuite name=\"" << xmlEscape(e.info.id) << "\" tests=\"" << tests << "\" failures=\"" << failures
             << "\" errors=\"0\">\n"
             << cases.str() << "  </testsuite>\n";
    }
    if (run.throughput && !run.throughput->targets.empty()) {
        // One test per target, passing or failing, so CI dashboards show the met ones too.
        std::ostringstream cases;
        std::size_t failures = 0;
        for (const TargetResult& t : run.throughput->targets) {
            const std::string id = "target." + t.id;
            cases << "    <testcase name=\"" << xmlEscape(id) << "\" classname=\"targets\"";
            if (!t.applicable) {
                cases << ">\n      <skipped message=\"not applicable: the target asks for more GPUs than the design "
                         "has\"/>\n    </testcase>\n";
                continue;
            }
            const auto it = byRule.find(id);
            if (it == byRule.end() || it->second.empty()) {
                cases << "/>\n";
                continue;
            }
            ++failures;
            const core::Violation& v = *it->second.front();
            cases << ">\n      <failure message=\"" << xmlEscape(v.message) << "\" type=\"" << xmlEscape(id) << "\">"
                  << xmlEscape(v.loc.position() + ": " + v.message) << "</failure>\n    </testcase>\n";
        }
        totalTests += run.throughput->targets.size();
        totalFailures += failures;
        body << "  <testsuite name=\"targets\" tests=\"" << run.throughput->targets.size() << "\" failures=\""
             << failures << "\" errors=\"0\">\n"
             << cases.str() << "  </testsuite>\n";
    }
    if (!run.unusedWaivers.empty()) {
        // Not failures (a waiver may be for another scenario's violation), but never silent.
        std::ostringstream cases;
        for (const core::Waiver& w : run.unusedWaivers)
            cases << "    <testcase name=\"" << xmlEscape(w.rule + " on " + w.subject) << "\" classname=\"waivers\">\n"
                  << "      <system-out>" << xmlEscape(w.loc.position() + ": waiver waived nothing") << "</system-out>\n"
                  << "    </testcase>\n";
        totalTests += run.unusedWaivers.size();
        body << "  <testsuite name=\"waivers\" tests=\"" << run.unusedWaivers.size() << "\" failures=\"0\" errors=\"0\">\n"
             << cases.str() << "  </testsuite>\n";
    }
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<testsuites name=\"rdt validate " << xmlEscape(run.name) << "\" tests=\"" << totalTests << "\" failures=\""
        << totalFailures << "\" errors=\"0\">\n"
        << body.str() << "</testsuites>\n";
    return out.str();
}

} // namespace rdt::report
