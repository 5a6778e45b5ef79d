#include "cli/HilCommand.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "analysis/DynamicsTrace.h"
#include "analysis/Hil.h"
#include "cli/Guarded.h"
#include "core/Units.h"
#include "core/Version.h"
#include "hil/Series.h"

namespace rdt::cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onSignal(int)
{
    g_stop.store(true);
}

struct Quiet : core::Progress {};

double seconds(const std::string& text, const char* option)
{
    const core::ParsedQuantity q = core::parseQuantity(text, core::Dimension::Time, {0.001, 86400});
    if (!q.value)
        throw core::InputError(core::SourceLoc{"command line", 0, 0, option}, q.error);
    return *q.value;
}

analysis::RunResult model(const HilArgs& a)
{
    analysis::RunOptions o;
    o.designPath = a.design;
    o.profile = a.profile;
    Quiet quiet;
    return analysis::run(o, quiet);
}

hil::TelemetryMap loadMap(const HilArgs& a, const core::Design& design)
{
    hil::TelemetryMap map = hil::loadTelemetryMap(a.map, design);
    if (!a.timeout.empty())
        map.http.timeoutS = seconds(a.timeout, "--timeout");
    if (!a.caCert.empty())
        map.http.caCert = a.caCert;
    if (a.insecure)
        map.http.insecure = true;
    hil::resolveCredentials(map);
    return map;
}

std::string clock(double unix)
{
    const std::time_t t = static_cast<std::time_t>(unix);
    char b[32];
    std::strftime(b, sizeof b, "%H:%M:%S", std::gmtime(&t));
    return b;
}

void printErrors(const hil::Sample& s, std::size_t limit)
{
    std::size_t shown = 0, total = s.errorCount();
    for (const hil::PartReading& p : s.parts)
        for (const std::string& e : p.errors)
            if (shown++ < limit)
                std::fprintf(stderr, "  %s\n", e.c_str());
    if (total > limit)
        std::fprintf(stderr, "  … and %zu more\n", total - limit);
}

void sweepLine(const hil::TelemetryMap& map, const hil::Sample& s)
{
    std::size_t bad = 0;
    for (const hil::PartReading& p : s.parts)
        bad += p.errors.empty() ? 0 : 1;
    std::set<std::string> bmcs;
    for (const hil::MappedPart& p : map.parts)
        bmcs.insert(p.bmc);
    std::printf("sweep at %s UTC: %zu parts on %zu endpoints, %zu requests in %.2f s (%.0f/s), %zu parts with errors\n",
                clock(s.unixTime).c_str(), map.parts.size(), bmcs.size(), s.requests, s.seconds,
                s.seconds > 0 ? static_cast<double>(s.requests) / s.seconds : 0.0, bad);
}

hil::SeriesInfo info(const HilArgs& a)
{
    return {a.design, a.map, core::version()};
}

/// Residual table: one line per part, the quantities side by side.
void printResiduals(const analysis::HilComparison& c, std::size_t limit)
{
    std::map<std::string, std::map<std::string, const analysis::HilResidual*>> by;
    std::vector<std::string> air, liquid;
    static const std::set<std::string> coolant{"coolant_flow", "coolant_supply", "coolant_return", "coolant_dp",
                                               "coolant_heat", "pump_speed",     "pumps_failed",   "leak_state"};
    for (const analysis::HilResidual& r : c.rows) {
        std::vector<std::string>& order = coolant.count(r.quantity) ? liquid : air;
        if (std::find(order.begin(), order.end(), r.part) == order.end())
            order.push_back(r.part);
        by[r.part][r.quantity] = &r;
    }
    auto cell = [](const analysis::HilResidual* r, const char* fmt) {
        char b[48];
        if (!r)
            return std::string("-");
        std::snprintf(b, sizeof b, fmt, r->measured, r->predicted);
        return std::string(b);
    };
    auto name = [](const std::string& p) { return p.size() > 34 ? "…" + p.substr(p.size() - 32) : p; };
    if (!air.empty() || liquid.empty())
        std::printf("%-34s %22s %20s %18s %18s\n", "part", "power W (model)", "inlet degC (model)", "fan % (model)",
                    "PSU eff % (model)");
    std::size_t n = 0;
    for (const std::string& p : air) {
        if (n++ >= limit) {
            std::printf("… %zu more parts (use --json for all)\n", air.size() - limit);
            break;
        }
        auto& q = by[p];
        std::printf("%-34s %22s %20s %18s %18s\n", name(p).c_str(), cell(q["power"], "%.0f (%.0f)").c_str(),
                    cell(q["inlet"], "%.1f (%.1f)").c_str(), cell(q["fan"], "%.0f (%.0f)").c_str(),
                    cell(q["psu_efficiency"], "%.1f (%.1f)").c_str());
    }
    if (!liquid.empty()) {
        std::printf("%-34s %20s %20s %20s %16s %16s %14s %7s %7s\n", "CDU or tray", "flow L/min (model)",
                    "supply degC (model)", "return degC (model)", "head kPa (model)", "pump % (model)",
                    "heat kW (model)", "failed", "leak");
        n = 0;
        for (const std::string& p : liquid) {
            if (n++ >= limit) {
                std::printf("… %zu more CDUs and trays (use --json for all)\n", liquid.size() - limit);
                break;
            }
            auto& q = by[p];
            const analysis::HilResidual* leak = q["leak_state"];
            const char* leakWord = !leak ? "-" : leak->measured >= 2 ? "CRIT" : leak->measured >= 1 ? "WARN" : "ok";
            std::printf("%-34s %20s %20s %20s %16s %16s %14s %7s %7s\n", name(p).c_str(),
                        cell(q["coolant_flow"], "%.1f (%.1f)").c_str(), cell(q["coolant_supply"], "%.1f (%.1f)").c_str(),
                        cell(q["coolant_return"], "%.1f (%.1f)").c_str(), cell(q["coolant_dp"], "%.1f (%.1f)").c_str(),
                        cell(q["pump_speed"], "%.0f (%.0f)").c_str(), cell(q["coolant_heat"], "%.1f (%.1f)").c_str(),
                        cell(q["pumps_failed"], "%.0f (%.0f)").c_str(), leakWord);
        }
    }
    // Each shelf's supplies: how many delivered, and the most loaded one against its capacity.
    for (const analysis::HilShelf& sh : c.shelves) {
        int listed = 0, off = 0;
        const analysis::HilSupply* top = nullptr;
        for (const analysis::HilSupply& x : c.supplies) {
            if (x.shelf != sh.shelf)
                continue;
            ++listed;
            off += x.offSweeps > 0;
            if (std::isfinite(x.maxOutputW) && std::isfinite(x.capacityW) &&
                (!top || x.maxOutputW / x.capacityW > top->maxOutputW / top->capacityW))
                top = &x;
        }
        std::printf("%s supplies: %d listed (catalog %d), %d not delivering", sh.shelf.c_str(), listed, sh.modules, off);
        if (top)
            std::printf("; most loaded: supply %zu, %.0f W of %.0f W (%.0f %%)", top->index, top->maxOutputW,
                        top->capacityW, 100.0 * top->maxOutputW / top->capacityW);
        std::printf("\n");
    }
    for (std::size_t i = 0; i < c.notChecked.size() && i < 20; ++i)
        std::printf("not checked: %s\n", c.notChecked[i].c_str());
    if (c.notChecked.size() > 20)
        std::printf("not checked: … and %zu more parts (use --json for all)\n", c.notChecked.size() - 20);
}

} // namespace

int runHilSnapshot(const HilArgs& a)
{
    return guarded([&] {
        const core::Design design = core::loadDesign(a.design, analysis::dataDir() + "/catalog");
        hil::Poller poller(loadMap(a, design));
        const hil::Sample s = poller.poll();
        sweepLine(poller.map(), s);
        printErrors(s, 20);
        hil::writeSnapshot(a.output, poller.map(), info(a), s);
        std::printf("wrote %s\n", a.output.c_str());
        std::size_t read = 0;
        for (const hil::PartReading& p : s.parts)
            read += p.errors.empty() ? 1 : 0;
        return read == 0 && !s.parts.empty() ? kExitViolations : kExitOk;
    });
}

int runHilWatch(const HilArgs& a)
{
    return guarded([&] {
        const double interval = seconds(a.interval, "--interval");
        const analysis::RunResult run = model(a);
        hil::Poller poller(loadMap(a, run.design));
        std::unique_ptr<hil::SeriesWriter> writer;
        if (!a.output.empty())
            writer = std::make_unique<hil::SeriesWriter>(a.output, poller.map(), info(a));
        g_stop = false;
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        int sweeps = 0;
        while (!g_stop && (a.count == 0 || sweeps < a.count)) {
            const auto start = std::chrono::steady_clock::now();
            const hil::Sample s = poller.poll();
            if (writer)
                writer->append(s);
            ++sweeps;
            hil::Series one;
            for (const hil::MappedPart& p : poller.map().parts) {
                one.parts.push_back(p.part);
                one.kinds.push_back(p.kind);
            }
            one.samples.push_back(s);
            for (const hil::PartReading& p : s.parts)
                one.errorCounts.push_back(static_cast<double>(p.errors.size()));
            std::printf("\n");
            sweepLine(poller.map(), s);
            printResiduals(analysis::compareTelemetry(run, one), 24);
            printErrors(s, 10);
            std::fflush(stdout);
            const auto next = start + std::chrono::duration<double>(interval);
            while (!g_stop && std::chrono::steady_clock::now() < next && (a.count == 0 || sweeps < a.count))
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        if (writer) {
            writer->close();
            std::printf("\n%s: %d sweeps\n", a.output.c_str(), sweeps);
        }
        return kExitOk;
    });
}

int runHilCompare(const HilArgs& a)
{
    return guarded([&] {
        const analysis::RunResult run = model(a);
        if (a.inputs.size() != 1)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "files"},
                                   "compare takes one snapshot or series");
        const hil::Series series = hil::readSeries(a.inputs[0]);
        const analysis::HilComparison c = analysis::compareTelemetry(run, series);
        const std::vector<core::Violation> v = analysis::judgeTelemetry(run, c);
        const core::CheckCounts counts = core::countViolations(v);
        if (a.json) {
            nlohmann::json rows = nlohmann::json::array(), viol = nlohmann::json::array();
            for (const analysis::HilResidual& r : c.rows)
                rows.push_back({{"part", r.part},
                                {"kind", r.kind},
                                {"quantity", r.quantity},
                                {"unit", r.unit},
                                {"measured", r.measured},
                                {"predicted", r.predicted},
                                {"residual", r.residual},
                                {"samples", r.samples}});
            nlohmann::json supplies = nlohmann::json::array();
            auto num = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
            for (const analysis::HilSupply& x : c.supplies)
                supplies.push_back({{"shelf", x.shelf},
                                    {"supply", x.index},
                                    {"max_output_W", num(x.maxOutputW)},
                                    {"capacity_W", num(x.capacityW)},
                                    {"capacity_from", x.capacityRead ? "PowerCapacityWatts" : "module_rating"},
                                    {"state", std::isfinite(x.worstState) ? nlohmann::json(hil::psuStateName(x.worstState))
                                                                           : nlohmann::json()},
                                    {"sweeps_not_delivering", x.offSweeps}});
            for (const core::Violation& x : v)
                viol.push_back({{"rule", x.rule},
                                {"severity", std::string(core::severityName(x.severity))},
                                {"subject", x.subject},
                                {"message", x.message},
                                {"measured", std::isfinite(x.measured) ? nlohmann::json(x.measured) : nlohmann::json()},
                                {"limit", std::isfinite(x.limit) ? nlohmann::json(x.limit) : nlohmann::json()},
                                {"unit", x.unit},
                                {"waived", x.waived}});
            std::cout << nlohmann::json{{"design", a.design},      {"telemetry", a.inputs[0]},    {"sweeps", c.sweeps},
                                        {"residuals", rows},       {"supplies", supplies}, {"not_checked", c.notChecked}, {"violations", viol},
                                        {"errors", counts.errors}, {"warnings", counts.warnings}}
                             .dump(2)
                      << "\n";
        } else {
            std::printf("%s against %s: %zu sweeps, %zu residuals\n\n", a.inputs[0].c_str(), a.design.c_str(), c.sweeps,
                        c.rows.size());
            printResiduals(c, 200);
            std::printf("\n");
            std::size_t shown = 0;
            for (const core::Violation& x : v)
                if (shown++ < 50)
                    std::printf("%-7s %-22s %s%s\n", std::string(core::severityName(x.severity)).c_str(),
                                x.rule.c_str(), x.message.c_str(), x.waived ? " (waived)" : "");
            if (v.size() > 50)
                std::printf("… and %zu more (use --json for all)\n", v.size() - 50);
            std::printf("%zu errors, %zu warnings\n", counts.errors, counts.warnings);
        }
        return counts.errors > 0 ? kExitViolations : kExitOk;
    });
}

int runHilCalibrate(const HilArgs& a)
{
    return guarded([&] {
        const analysis::RunResult run = model(a);
        std::vector<hil::Series> series;
        for (const std::string& f : a.inputs) {
            series.push_back(hil::readSeries(f));
            series.back().info.map = f; // name the files in the provenance
        }
        const analysis::Calibration c = analysis::calibrate(run, series);
        // Nothing fitted is a failed calibration, as nothing checked is a failed compare
        // (hil.telemetry.none, exit 1): it exited 0 with only "not fitted" notes (2026-12-07).
        const int code = c.values.empty() && c.curves.empty() ? kExitViolations : kExitOk;
        if (code != kExitOk)
            std::fprintf(stderr, "rdt: hil calibrate fitted nothing from %zu files (see the notes): exit 1\n",
                         a.inputs.size());
        if (a.json) {
            nlohmann::json vals = nlohmann::json::array(), curves = nlohmann::json::array();
            for (const analysis::FittedValue& v : c.values)
                vals.push_back({{"part", v.part},
                                {"field", v.field},
                                {"unit", v.unit},
                                {"value", v.value},
                                {"sigma", v.sigma},
                                {"catalog", std::isfinite(v.catalog) ? nlohmann::json(v.catalog) : nlohmann::json()},
                                {"points", v.points}});
            for (const analysis::FittedCurve& f : c.curves)
                curves.push_back({{"part", f.part},
                                  {"field", f.field},
                                  {"x_unit", f.xUnit},
                                  {"y_unit", f.yUnit},
                                  {"x", f.x},
                                  {"y", f.y},
                                  {"sigma", f.sigma},
                                  {"points", f.points}});
            std::cout << nlohmann::json{{"sweeps", c.sweeps},
                                        {"values", vals},
                                        {"curves", curves},
                                        {"notes", c.notes},
                                        {"catalog_lines", analysis::calibrationCatalogLines(c)}}
                             .dump(2)
                      << "\n";
            return code;
        }
        std::printf("calibration from %zu sweeps in %zu files\n\n", c.sweeps, a.inputs.size());
        std::printf("%-24s %-22s %14s %12s %12s %7s\n", "part", "field", "fitted", "± 1 sigma", "catalog", "points");
        for (const analysis::FittedValue& v : c.values)
            std::printf("%-24s %-22s %11.4g %-2s %9.3g %-2s %9.4g %-2s %7d\n", v.part.c_str(), v.field.c_str(), v.value,
                        v.unit.c_str(), v.sigma, v.unit.c_str(), v.catalog, v.unit.c_str(), v.points);
        for (const analysis::FittedCurve& f : c.curves) {
            std::printf("\n%s %s (%d readings%s):\n", f.part.c_str(), f.field.c_str(), f.points,
                        std::isfinite(f.xMin) ? (", measured " + std::to_string(static_cast<int>(f.xMin)) + "-" +
                                                 std::to_string(static_cast<int>(f.xMax)) + " % load")
                                                    .c_str()
                                              : "");
            for (std::size_t k = 0; k < f.x.size(); ++k)
                std::printf("  %8.4g %-4s %9.4g ± %-7.2g %s   catalog %.4g%s\n", f.x[k], f.xUnit.c_str(), f.y[k],
                            f.sigma[k], f.yUnit.c_str(), f.catalogY[k],
                            std::isfinite(f.xMin) && (f.x[k] < f.xMin - 5 || f.x[k] > f.xMax + 5) ? "  (extrapolated)"
                                                                                                  : "");
        }
        for (const std::string& n : c.notes)
            std::printf("note: %s\n", n.c_str());
        const std::string lines = analysis::calibrationCatalogLines(c);
        if (!lines.empty())
            std::printf("\nCatalog lines (measured provenance; extrapolated points left out):\n%s", lines.c_str());
        return code;
    });
}

int runHilPowerTrace(const HilArgs& a)
{
    return guarded([&] {
        const analysis::RunResult run = model(a);
        if (a.inputs.size() != 1)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "trace"}, "power-trace takes one trace");
        const double interval = a.traceInterval.empty() ? NAN : seconds(a.traceInterval, "--interval");
        const hil::PowerTrace trace = hil::readPowerTrace(a.inputs[0], interval);
        if (!run.dynamics)
            throw core::InputError(core::SourceLoc{a.design, 0, 0, "dynamics"},
                                   "the design has no dynamics: section: no predicted waveform to compare the trace with");
        const analysis::TraceComparison c = analysis::compareTrace(run.design, *run.dynamics, trace);
        const std::vector<core::Violation> v = analysis::judgePowerTrace(run.design, run.profile, c);
        const core::CheckCounts counts = core::countViolations(v);
        auto num = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); };
        if (a.json) {
            nlohmann::json rows = nlohmann::json::array(), viol = nlohmann::json::array();
            for (const analysis::TraceRow& r : c.rows)
                rows.push_back({{"figure", r.figure},
                                {"unit", r.unit},
                                {"measured", num(r.measured)},
                                {"predicted", num(r.predicted)},
                                {"rule", r.rule}});
            for (const core::Violation& x : v)
                viol.push_back({{"rule", x.rule},
                                {"severity", std::string(core::severityName(x.severity))},
                                {"subject", x.subject},
                                {"message", x.message},
                                {"measured", num(x.measured)},
                                {"limit", num(x.limit)},
                                {"unit", x.unit},
                                {"waived", x.waived}});
            std::cout << nlohmann::json{{"design", a.design},
                                        {"trace", c.file},
                                        {"gpus", c.gpus},
                                        {"step_s", c.stepS},
                                        {"duration_s", c.durationS},
                                        {"figures", rows},
                                        {"catalog", c.catalogLine},
                                        {"violations", viol},
                                        {"errors", counts.errors},
                                        {"warnings", counts.warnings}}
                             .dump(2)
                      << "\n";
        } else {
            std::printf("%s against %s: %d GPU(s), %zu samples every %.3g s (%.0f s)\n\n", c.file.c_str(),
                        a.design.c_str(), c.gpus, static_cast<std::size_t>(std::llround(c.durationS / c.stepS)),
                        c.stepS, c.durationS);
            std::printf("%-22s %12s %12s  %s\n", "figure (per GPU)", "measured", "predicted", "rule");
            for (const analysis::TraceRow& r : c.rows) {
                auto cell = [&](double x) {
                    char b[32];
                    if (!std::isfinite(x))
                        std::snprintf(b, sizeof b, "%s", "-");
                    else
                        std::snprintf(b, sizeof b, "%.4g %s", x, r.unit.c_str());
                    return std::string(b);
                };
                std::printf("%-22s %12s %12s  %s\n", r.figure.c_str(), cell(r.measured).c_str(),
                            cell(r.predicted).c_str(), r.rule.c_str());
            }
            std::printf("\nbands above the trace's Nyquist frequency (%.3g Hz) are not measured (-)\n", 0.5 / c.stepS);
            std::printf("calibrated (catalog part %s):\n%s\n\n", c.gpuPart.c_str(), c.catalogLine.c_str());
            for (const core::Violation& x : v)
                std::printf("%-7s %-18s %s%s\n", std::string(core::severityName(x.severity)).c_str(), x.rule.c_str(),
                            x.message.c_str(), x.waived ? " (waived)" : "");
            std::printf("%zu errors, %zu warnings\n", counts.errors, counts.warnings);
        }
        return counts.errors > 0 ? kExitViolations : kExitOk;
    });
}

} // namespace rdt::cli
