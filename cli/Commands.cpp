#include "cli/Commands.h"
#include "report/FieldOutput.h"
#include "report/OpenFoamOutput.h"
#include "room/OpenFoamExport.h"
#include "room/OpenFoamResult.h"
#include "room/VtkExport.h"

#include "core/AtomicFile.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "analysis/Compare.h"
#include "analysis/Pipeline.h"
#include "cli/Guarded.h"
#include "cli/TerminalProgress.h"
#include "cli/TextOutput.h"
#include "core/Version.h"
#include "report/CheckFormats.h"
#include "report/ReportWriter.h"

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
    // Several what-ifs at once: `--scenario fan-fail=2 --scenario feed-loss=A`, or comma-separated
    // (one --scenario only was taken, with CLI11's own "At Most 1" message; trust trial, 2026-12-07).
    // Items are trimmed (the summary echoes "fan-fail=1, feed-loss=A"), and empty ones skipped
    // (`--scenario ""` from a script's empty variable means none).
    std::vector<std::string> items;
    for (const std::string& given : w.scenarios)
        for (std::size_t from = 0;;) {
            const std::size_t comma = given.find(',', from);
            std::string item = given.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            const std::size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
            if (a != std::string::npos)
                items.push_back(item.substr(a, b - a + 1));
            if (comma == std::string::npos)
                break;
            from = comma + 1;
        }
    std::set<std::string> seen;
    for (const std::string& sc : items) {
        if (!seen.insert(sc.substr(0, sc.find('='))).second)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--scenario"},
                                   "\"" + core::clipped(sc.substr(0, sc.find('='))) +
                                       "\" is given twice: one value per what-if");
        // The words only; what the design accepts (rotors per chassis, shelves on a feed) is checked
        // against it by analysis::applyScenario, in the design file's words (core/WhatIf.h).
        const core::SourceLoc at{"command line", 0, 0, "--scenario"};
        const std::string fan = "fan-fail=", feed = "feed-loss=";
        if (sc.rfind(fan, 0) == 0) {
            const std::string n = sc.substr(fan.size());
            long long v = 0;
            const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
            if (ec != std::errc() || end != n.data() + n.size() || n.empty())
                throw core::InputError(at, core::clipped(sc) + ": \"" + core::clipped(n) +
                                               "\" is not a whole number (failed rotors per chassis)");
            if (v < -1000000 || v > 1000000) // far beyond any chassis' rotors; the exact range: applyScenario
                throw core::InputError(at, core::clipped(sc) + ": value " + core::clipped(n) +
                                               " is outside the allowed range of failed rotors per chassis");
            o.failedRotors = static_cast<int>(v);
        } else if (sc.rfind("pump-fail=", 0) == 0 || sc.rfind("cdu-fail=", 0) == 0) {
            const bool pump = sc[0] == 'p';
            const std::string n = sc.substr(sc.find('=') + 1);
            long long v = 0;
            const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
            if (ec != std::errc() || end != n.data() + n.size() || n.empty() || v < -1000 || v > 1000)
                throw core::InputError(at, core::clipped(sc) + ": \"" + core::clipped(n) +
                                               "\" is not a whole number of failed " + (pump ? "pumps" : "CDUs") +
                                               " per liquid loop");
            (pump ? o.failedPumps : o.failedCdus) = static_cast<int>(v);
        } else if (sc.rfind("facility-water=", 0) == 0) {
            const std::string q = sc.substr(std::string("facility-water=").size());
            const core::ParsedQuantity p =
                core::parseQuantity(q, core::Dimension::TemperatureDelta, core::Range{-30.0, 30.0});
            if (!p.value)
                throw core::InputError(at, core::clipped(sc) + ": " + p.error +
                                               " (a change of the facility water's temperature, e.g. +5K)");
            o.facilityWaterDeltaK = *p.value;
        } else if (sc.rfind("power-floor=", 0) == 0 || sc.rfind("gpu-ramp=", 0) == 0 ||
                   sc.rfind("psu-storage=", 0) == 0) {
            // Power dynamics (docs/dynamics.md): a floor as a share of TDP, a ramp per GPU, storage per GPU.
            const std::string word = sc.substr(0, sc.find('='));
            const std::string q = sc.substr(word.size() + 1);
            const bool floor = word == "power-floor", ramp = word == "gpu-ramp";
            const core::ParsedQuantity p = core::parseQuantity(q,
                                                               floor  ? core::Dimension::Ratio
                                                               : ramp ? core::Dimension::PowerRate
                                                                      : core::Dimension::Energy,
                                                               floor  ? core::Range{0.0, 1.0}
                                                               : ramp ? core::Range{1e-3, 1e9}
                                                                      : core::Range{1e-3, 1e6});
            if (!p.value)
                throw core::InputError(at, core::clipped(sc) + ": " + p.error +
                                               (floor  ? " (a share of the GPUs' TDP, e.g. 90%)"
                                                : ramp ? " (a GPU's ramp limit, e.g. 2000W/s)"
                                                       : " (storage per GPU, e.g. 65J)"));
            (floor ? o.powerFloorShare : ramp ? o.gpuRampWps : o.psuStorageJ) = *p.value;
        } else if (sc.rfind("smoothing=", 0) == 0) {
            o.smoothing = sc.substr(std::string("smoothing=").size()); // checked against the design
        } else if (sc.rfind(feed, 0) == 0) {
            o.lostFeed = sc.substr(feed.size());
            if (o.lostFeed.empty())
                throw core::InputError(at, "feed-loss=: feed must be A or B");
        } else {
            throw core::InputError(at,
                                   "unknown scenario \"" + core::clipped(sc) +
                                       "\" (use fan-fail=N, N failed rotors per chassis; feed-loss=A|B; pump-fail=N or "
                                       "cdu-fail=N per liquid loop; facility-water=+5K; power-floor=90%, "
                                       "gpu-ramp=2000W/s, psu-storage=65J, smoothing=none|bbu)");
        }
    }
    auto quantity = [](const std::string& text, core::Dimension dim, core::Range range, const char* option) {
        const core::ParsedQuantity p = core::parseQuantity(text, dim, range);
        if (!p.value)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, option}, p.error);
        return *p.value;
    };
    if (!w.inlet.empty())
        o.inletK = quantity(w.inlet, core::Dimension::Temperature, analysis::RunOptions::kInletRange, "--inlet");
    if (!w.altitude.empty())
        o.altitudeM = quantity(w.altitude, core::Dimension::Length, analysis::RunOptions::kAltitudeRange, "--altitude");
    if (!w.gpuCap.empty())
        o.gpuCapW = quantity(w.gpuCap, core::Dimension::Power, core::Range{}, "--gpu-cap"); // range: the GPUs'
    if (!w.powerBasis.empty())
        o.powerBasis = core::parsePowerBasis(w.powerBasis);
    if (!w.thermal.empty())
        o.thermalModel = core::parseThermalModel(w.thermal);
    o.intakesFrom = w.intakesFrom;
    return o;
}

/// A fraction as "12.5 %".
std::string percent(double fraction)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %%", 100.0 * fraction);
    return b;
}

/// "; started from …": the coarser grids a room's solve began on (grid sequencing), or nothing.
std::string sequenceNote(const room::RoomField& r)
{
    std::string note;
    for (const room::RoomField::Step& step : r.sequence) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s%zu cells (%d iterations, %d passes)", note.empty() ? "" : ", then ",
                      step.cells, step.iterations, step.couplings);
        note += buf;
    }
    if (note.empty())
        return note;
    char total[96];
    std::snprintf(total, sizeof total, "; %.1f s of it", r.sequence.back().seconds);
    return "\n  started from coarser grids: " + note + total;
}

bool looksLikePart(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    const core::Cursor doc = core::Cursor::parse(text, path);
    return doc.isMap() && doc.has("slug") && !doc.has("layout");
}

std::string formatRuleRun(const report::RuleRun& run, const core::CheckRegistry& registry, const std::string& format)
{
    if (format == "sarif")
        return report::sarifLog(run, registry, core::version()).dump(2) + "\n";
    if (format == "junit")
        return report::junitXml(run, registry);
    // The rules of this target the profile runs, and the counts: what every other output says too.
    std::size_t rules = 0;
    for (const auto& e : registry.entries())
        rules += e.info.target == run.target && run.profile->configFor(e.info).enabled ? 1 : 0;
    const core::CheckCounts counts = core::countViolations(run.violations);
    if (format == "json") {
        nlohmann::json v = nlohmann::json::array(), unused = nlohmann::json::array();
        for (const auto& x : run.violations)
            v.push_back(report::violationJson(x));
        for (const core::Waiver& w : run.unusedWaivers) // a waiver that waived nothing, as check --json says
            unused.push_back({{"rule", w.rule},
                              {"subject", w.subject},
                              {"location", {{"file", w.loc.file}, {"line", w.loc.line}, {"column", w.loc.column}}}});
        return nlohmann::json{{"target", run.name},
                              {"profile", run.profile->name},
                              {"profile_file", run.profile->file},
                              {"rules", rules},
                              {"errors", counts.errors},
                              {"warnings", counts.warnings},
                              {"waived", counts.waived},
                              {"violations", v},
                              {"unused_waivers", unused}}
                   .dump(2) +
               "\n";
    }
    std::string out = violationsText(run.violations, registry, 20);
    for (const core::Waiver& w : run.unusedWaivers)
        out += "waiver   " + w.rule + " on " + w.subject + " (" + w.loc.position() + ") waived nothing\n";
    out += std::to_string(rules) + " rules, profile " + run.profile->name + ": " + std::to_string(counts.errors) +
           " errors, " + std::to_string(counts.warnings) + " warnings, " + std::to_string(counts.waived) + " waived\n";
    return out;
}

} // namespace

int runCheck(const CheckArgs& args)
{
    return guarded([&] {
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.design, args.profile, args.what), progress);
        if (args.json)
            std::cout << report::checkJson(result).dump(2) << "\n";
        else
            std::cout << checkSummaryText(result, analysis::makeRegistry());
        return exitFor(result.violations);
    });
}

int runCompare(const CompareArgs& args)
{
    return guarded([&] {
        if (args.markdown && args.json)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--json"},
                                   "choose one of --markdown and --json");
        std::vector<analysis::CompareRow> rows;
        for (const std::string& design : args.designs) {
            TerminalProgress progress;
            ScenarioArgs what;
            what.targets = args.targets;
            rows.push_back(analysis::compareRow(analysis::run(runOptions(design, "", what), progress)));
        }
        std::cout << (args.json       ? analysis::compareJson(rows)
                      : args.markdown ? analysis::compareMarkdown(rows)
                                      : analysis::compareText(rows));
        return kExitOk;
    });
}

int runField(const FieldArgs& args)
{
    return guarded([&] {
        TerminalProgress progress;
        analysis::RunOptions o = runOptions(args.design, args.profile, args.what);
        o.thermalModel = core::ThermalModel::Field;
        if (!o.intakesFrom.empty())
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--intakes-from"},
                                   "rdt field solves, exports and compares rdt's own room field: give an OpenFOAM "
                                   "case to compare with as --from-openfoam DIR (--intakes-from is for check, "
                                   "report and validate)");
        o.ownIntakes = true;
        if (!args.h5.empty() && args.fromOpenFoam.empty())
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--h5"},
                                   "--h5 writes the comparison with an OpenFOAM run: give --from-openfoam DIR");
        // The case is read, and its racks matched to the design's, before the room is solved: a case
        // not run or from another design is refused at once, not after a whole hall's solve.
        std::optional<report::OpenFoamComparison> reference;
        std::vector<std::size_t> caseRack; // each case rack's index among the design's racks
        if (!args.fromOpenFoam.empty()) {
            report::OpenFoamComparison c;
            c.result = room::readOpenFoamResult(args.fromOpenFoam);
            const core::Design d = core::loadDesign(args.design, analysis::dataDir() + "/catalog");
            for (const room::OpenFoamIntake& r : c.result.racks) {
                std::size_t at = d.racks.size();
                for (std::size_t i = 0; i < d.racks.size(); ++i)
                    if (d.racks[i].id == r.id)
                        at = i;
                if (at == d.racks.size()) {
                    std::vector<std::string> known;
                    for (const core::Rack& k : d.racks)
                        known.push_back(k.id);
                    throw core::InputError(core::SourceLoc{args.fromOpenFoam + "/rdt-racks.txt", 0, 0, r.patch},
                                           "rack \"" + r.id + "\" is not in " + args.design +
                                               " (was the case exported from another design?)" +
                                               core::didYouMean(r.id, known));
                }
                caseRack.push_back(at);
            }
            reference = std::move(c);
        }
        const analysis::RunResult result = analysis::run(o, progress);
        const room::FieldThermal& field = *room::fieldOf(*result.thermal);
        const room::RoomField* chosen = field.rooms.empty() ? nullptr : &field.rooms.front();
        if (!args.room.empty()) {
            chosen = nullptr;
            std::vector<std::string> ids;
            for (const room::RoomField& r : field.rooms) {
                ids.push_back(r.geometry.id);
                if (r.geometry.id == args.room ||
                    std::find(r.sameAs.begin(), r.sameAs.end(), args.room) != r.sameAs.end())
                    chosen = &r;
            }
            if (!chosen)
                throw core::InputError(core::SourceLoc{"command line", 0, 0, "--room"},
                                       "no room \"" + args.room + "\" in " + args.design +
                                           core::didYouMean(args.room, ids));
        }
        if (!args.vtkDir.empty()) {
            std::filesystem::create_directories(args.vtkDir);
            for (const room::RoomField& r : field.rooms) {
                std::string name = r.geometry.id;
                std::replace(name.begin(), name.end(), '/', '-');
                room::writeFieldVtr(*r.solver, args.vtkDir + "/" + name + ".vtr");
            }
        }
        std::size_t exported = 0;
        if (!args.openFoamDir.empty() && chosen) {
            room::OpenFoamOptions fo;
            fo.iterations = args.iterations;
            fo.ranks = args.ranks;
            const auto time = [](const std::string& text, const char* option) {
                const core::ParsedQuantity q = core::parseQuantity(text, core::Dimension::Time, {1.0, 1e6});
                if (!q.value)
                    throw core::InputError(core::SourceLoc{"command line", 0, 0, option}, q.error);
                return *q.value;
            };
            if (!args.transient.empty())
                fo.transientS = time(args.transient, "--transient");
            if (!args.averageFrom.empty()) {
                if (args.transient.empty())
                    throw core::InputError(core::SourceLoc{"command line", 0, 0, "--average-from"},
                                           "--average-from sets a transient reference's window: give --transient");
                fo.averageFromS = time(args.averageFrom, "--average-from");
                if (!(fo.averageFromS < fo.transientS))
                    throw core::InputError(core::SourceLoc{"command line", 0, 0, "--average-from"},
                                           "the averaging must start before the run ends (--transient " +
                                               args.transient + ")");
            }
            fo.title =
                "room " + chosen->geometry.id + " of " + result.design.name + ", exported by rdt " + core::version();
            fo.boxNames = room::boxNames(chosen->geometry, result.design);
            exported = room::exportOpenFoam(chosen->geometry, *chosen->solver, args.openFoamDir, fo);
        }
        if (reference) {
            for (std::size_t at : caseRack)
                reference->rdtIntakeC.push_back(result.thermal->racks[at].fieldIntakeK - 273.15);
            if (!args.h5.empty())
                report::writeOpenFoamH5(args.h5, *reference);
        }
        if (args.json) {
            nlohmann::json j = report::fieldJson(*result.thermal);
            j["vtk_dir"] = args.vtkDir.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.vtkDir);
            j["openfoam_dir"] = args.openFoamDir.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.openFoamDir);
            j["openfoam"] = reference ? report::openFoamJson(*reference) : nlohmann::json(nullptr);
            std::cout << j.dump(2) << "\n";
            return exitFor(result.violations);
        }
        std::cout << report::fieldSummaryText(*result.thermal) << "\n";
        for (const room::RoomField& r : field.rooms) {
            const room::FieldGrid& g = r.solver->grid();
            // Two figures with two names: the hottest single air cell in front of any rack's intake
            // face, and the warmest chassis inlet (the mean of the air one chassis draws: what rdt
            // check and the inlet rules use).
            double hottest = -1e300, warmest = -1e300;
            std::string where, warmestAt;
            for (int ri : r.geometry.racks) {
                const thermal::RackThermal& rt = result.thermal->racks[static_cast<std::size_t>(ri)];
                if (rt.fieldIntakeMaxK > hottest) {
                    hottest = rt.fieldIntakeMaxK;
                    where = result.design.racks[static_cast<std::size_t>(ri)].id;
                }
                for (const thermal::ChassisThermal& ch : rt.chassis)
                    if (ch.inletK > warmest) {
                        warmest = ch.inletK;
                        warmestAt = ch.id;
                    }
            }
            std::printf(
                "room %s: %.1f x %.1f x %.1f m, %d x %d x %d cells, %s turbulence, %zu racks, supply %.3g m3/s at %.1f "
                "degC, "
                "return %.1f degC\n  %d iterations in %d coupling passes, %.1f s; residuals continuity %.1e, "
                "energy %.1e (converged on %s); heat %.1f kW released, %s%.1f kW carried out\n  hottest air cell at a "
                "rack front %.1f degC (%s; one grid cell), warmest chassis inlet %.1f degC (%s; the mean air a chassis "
                "draws)%s%s%s\n",
                r.geometry.id.c_str(), r.geometry.size[0], r.geometry.size[1], r.geometry.size[2], g.cells(0),
                g.cells(1), g.cells(2), std::string(core::roomTurbulenceName(field.turbulence)).c_str(),
                r.geometry.racks.size(), r.geometry.supplyM3s, r.geometry.supplyC, r.returnC, r.iterations, r.couplings,
                r.seconds, r.residuals.continuity, r.residuals.energy, r.criterion.c_str(), r.heatW / 1e3,
                r.geometry.coolers.empty()
                    ? ""
                    : (std::to_string(static_cast<long long>(std::lround(r.coolerW / 1e3))) + " kW removed by " +
                       std::to_string(r.geometry.coolers.size()) + " in-row unit(s), ")
                          .c_str(),
                r.heatOutW / 1e3, hottest - 273.15, where.c_str(), warmest - 273.15, warmestAt.c_str(),
                sequenceNote(r).c_str(),
                std::isnan(r.geometry.containmentOpen)
                    ? ""
                    : ("\n  containment: " + std::string(core::containmentName(result.design.room.containment)) + ", " +
                       percent(r.geometry.containmentOpen) + " of its roof or chimney panels open (asked " +
                       percent(result.design.room.leakage) + "; whole cells of the grid, the doors closed)")
                          .c_str(),
                r.sameAs.empty()
                    ? ""
                    : ("\n  same layout, same solution: " + std::to_string(r.sameAs.size()) + " more room(s)").c_str());
        }
        if (!args.vtkDir.empty())
            std::printf("VTK: %zu .vtr file(s) in %s (open in ParaView)\n", field.rooms.size(), args.vtkDir.c_str());
        if (exported > 0)
            std::printf("OpenFOAM: room %s, %zu cells, in %s (run %s/Allrun)\n", chosen->geometry.id.c_str(), exported,
                        args.openFoamDir.c_str(), args.openFoamDir.c_str());
        if (reference) {
            std::cout << report::openFoamText(*reference);
            if (!args.h5.empty())
                std::printf("comparison written to %s (/openfoam/intakes)\n", args.h5.c_str());
        }
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
            const core::Profile profile =
                core::Profile::load(analysis::profilePath(args.profile.empty() ? "default" : args.profile), registry);
            // A profile that runs no part rule would pass the part unchecked (mechanical did).
            bool any = false;
            for (const auto& e : registry.entries())
                any = any || (e.info.target == core::RuleTarget::Part && profile.configFor(e.info).enabled);
            if (!any)
                throw core::InputError(core::SourceLoc{profile.file, 0, 0, "rules"},
                                       "profile " + profile.name + " runs no part rule (catalog.*): " + args.target +
                                           " would not be checked");
            report::RuleRun run{part.slug, args.target, &profile, core::RuleTarget::Part,
                                core::runPartChecks(part, reference, registry, profile)};
            emit(formatRuleRun(run, registry, args.format), args.output);
            return exitFor(run.violations);
        }
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.target, args.profile, args.what), progress);
        emit(formatRuleRun(report::ruleRun(result), registry, args.format), args.output);
        return exitFor(result.violations);
    });
}

int runReport(const ReportArgs& args)
{
    return guarded([&] {
        TerminalProgress progress;
        const analysis::RunResult result = analysis::run(runOptions(args.design, args.profile, args.what), progress);
        progress.update(0.95, "writing " + args.output);
        report::writeReport(result, args.output, core::version());
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
        if (!kind.empty()) {
            // A selection that matches nothing says so (exit 2), never an empty table.
            const core::SourceLoc at{"command line", 0, 0, "--kind"};
            std::vector<std::string> kinds;
            for (int k = 0; k <= static_cast<int>(core::PartKind::Device); ++k)
                kinds.emplace_back(core::partKindName(static_cast<core::PartKind>(k)));
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
                std::string all;
                for (const std::string& k : kinds)
                    all += (all.empty() ? "" : ", ") + k;
                throw core::InputError(at, "unknown part kind \"" + core::clipped(kind) + "\" (" + all + ")" +
                                               core::didYouMean(kind, kinds));
            }
            const std::vector<std::string> slugs = catalog.slugs();
            if (std::none_of(slugs.begin(), slugs.end(),
                             [&](const std::string& s) { return core::partKindName(catalog.find(s)->kind) == kind; }))
                throw core::InputError(at, "the catalog has no part of kind " + kind);
        }
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
