#include "cli/Commands.h"

#include "core/AtomicFile.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "analysis/CheckFormats.h"
#include "analysis/Pipeline.h"
#include "analysis/ReportWriter.h"
#include "cli/Guarded.h"
#include "cli/TerminalProgress.h"
#include "cli/TextOutput.h"
#include "core/Version.h"

namespace rdt::cli {

namespace {

int exitFor(const std::vector<core::Violation>& violations)
{
    return core::countViolations(violations).errors > 0 ? kExitViolations : kExitOk;
}

/// Writes to a file (atomically: temp + rename) or to stdout.
void emit(const std::string& text, const std::string& output)
{
    if (output.empty()) {
        std::cout << text;
        return;
    }
    core::writeFileAtomic(output, text);
}

/// Run options from the command line; bad scenario text is bad input (exit 2).
analysis::RunOptions runOptions(const std::string& design, const std::string& profile, const ScenarioArgs& w)
{
    analysis::RunOptions o;
    o.designPath = design;
    o.profile = profile;
    o.targetsPath = w.targets;
    if (!w.scenario.empty()) {
        const std::string fan = "fan-fail=", feed = "feed-loss=";
        int n = -1;
        if (w.scenario.rfind(fan, 0) == 0) {
            try {
                n = std::stoi(w.scenario.substr(fan.size()));
            } catch (const std::exception&) {
                n = -1;
            }
            if (n >= 0 && n <= 64)
                o.failedRotors = n;
        } else if (w.scenario == feed + "A" || w.scenario == feed + "B") {
            o.lostFeed = w.scenario.substr(feed.size());
            n = 0;
        }
        if (n < 0 || n > 64)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--scenario"},
                                   "unknown scenario \"" + w.scenario +
                                       "\" (use fan-fail=N, N failed rotors per chassis, or feed-loss=A|B)");
    }
    auto quantity = [](const std::string& text, core::Dimension dim, core::Range range, const char* option) {
        const core::ParsedQuantity p = core::parseQuantity(text, dim, range);
        if (!p.value)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, option}, p.error);
        return *p.value;
    };
    if (!w.inlet.empty())
        o.inletK = quantity(w.inlet, core::Dimension::Temperature, {223.15, 373.15}, "--inlet");
    if (!w.altitude.empty())
        o.altitudeM = quantity(w.altitude, core::Dimension::Length, {-500, 6000}, "--altitude");
    if (!w.gpuCap.empty())
        o.gpuCapW = quantity(w.gpuCap, core::Dimension::Power, {1, 5000}, "--gpu-cap");
    if (!w.powerBasis.empty())
        o.powerBasis = core::parsePowerBasis(w.powerBasis);
    if (!w.thermal.empty())
        o.thermalModel = core::parseThermalModel(w.thermal);
    return o;
}

bool looksLikePart(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    const YAML::Node doc = core::parseYaml(text, path);
    return doc.IsMap() && doc["slug"] && !doc["layout"];
}

std::string formatRuleRun(const analysis::RuleRun& run, const core::CheckRegistry& registry, const std::string& format)
{
    if (format == "sarif")
        return analysis::sarifLog(run, registry, core::version()).dump(2) + "\n";
    if (format == "junit")
        return analysis::junitXml(run, registry);
    if (format == "json") {
        nlohmann::json v = nlohmann::json::array();
        for (const auto& x : run.violations)
            v.push_back(analysis::violationJson(x));
        return nlohmann::json{{"target", run.name}, {"profile", run.profile->name}, {"violations", v}}.dump(2) + "\n";
    }
    return violationsText(run.violations, registry, 20);
}

} // namespace

int runCheck(const CheckArgs& args)
{
    return guarded([&] {
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.design, args.profile, args.what), progress);
        if (args.json)
            std::cout << analysis::checkJson(result).dump(2) << "\n";
        else
            std::cout << checkSummaryText(result, analysis::makeRegistry());
        return exitFor(result.violations);
    });
}

int runValidate(const ValidateArgs& args)
{
    return guarded([&] {
        const core::CheckRegistry registry = analysis::makeRegistry();
        if (looksLikePart(args.target)) {
            core::Catalog reference;
            reference.loadDirectory(analysis::dataDir() + "/catalog");
            core::Catalog single;
            const core::Part& part = single.loadText(core::readTextFile(args.target), args.target);
            const core::Profile profile = core::Profile::load(analysis::profilePath(args.profile), registry);
            analysis::RuleRun run{part.slug, args.target, &profile, core::RuleTarget::Part,
                                  core::runPartChecks(part, reference, registry, profile)};
            emit(formatRuleRun(run, registry, args.format), args.output);
            return exitFor(run.violations);
        }
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.target, args.profile, args.what), progress);
        emit(formatRuleRun(analysis::ruleRun(result), registry, args.format), args.output);
        return exitFor(result.violations);
    });
}

int runReport(const ReportArgs& args)
{
    return guarded([&] {
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.design, args.profile, args.what), progress);
        progress.update(0.95, "writing " + args.output);
        analysis::writeReport(result, args.output, core::version());
        std::cout << checkSummaryText(result, analysis::makeRegistry());
        std::cout << "report   " << args.output << "\n";
        return exitFor(result.violations);
    });
}

int runCatalogList(const std::string& kind)
{
    return guarded([&] {
        core::Catalog catalog;
        catalog.loadDirectory(analysis::dataDir() + "/catalog");
        std::cout << catalogListText(catalog, kind);
        return kExitOk;
    });
}

int runRules(bool markdown)
{
    std::cout << rulesText(analysis::makeRegistry(), markdown);
    return kExitOk;
}

int runCatalogShow(const std::string& slug)
{
    return guarded([&] {
        core::Catalog catalog;
        catalog.loadDirectory(analysis::dataDir() + "/catalog");
        const core::Part& part = catalog.require(slug, core::SourceLoc{"catalog", 0, 0, "slug"});
        std::cout << partText(part);
        return kExitOk;
    });
}

} // namespace rdt::cli
