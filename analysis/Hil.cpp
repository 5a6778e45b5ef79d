#include "analysis/Hil.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "analysis/DynamicsTrace.h"
#include "analysis/HilDetail.h"
#include "models/PowerModels.h"

namespace rdt::analysis {

using namespace hildetail;

HilComparison compareTelemetry(const RunResult& run, const hil::Series& series)
{
    return compareTelemetry(run.design, run.power.get(), run.thermal.get(), series, run.liquid.get());
}

std::vector<core::PartField> residualFields(const core::Design& design, const HilComparison& comparison)
{
    const auto index = slotIndex(design);
    struct Spec {
        const char* quantity;
        const char* name;
        const char* unit;
        const char* rule;
        bool relative;
    };
    const Spec specs[] = {{"power", "Power residual", "%", "hil.power.deviation", true},
                          {"inlet", "Inlet residual", "K", "hil.inlet.deviation", false},
                          {"fan", "Fan residual", "points", "hil.fan.deviation", false}};
    std::vector<core::PartField> out;
    for (const Spec& sp : specs) {
        core::PartField f;
        f.name = sp.name;
        f.unit = sp.unit;
        f.rule = sp.rule;
        f.values.resize(design.racks.size());
        for (std::size_t r = 0; r < design.racks.size(); ++r)
            f.values[r].assign(design.racks[r].slots.size(), NAN);
        double worst = 0;
        bool any = false;
        for (const HilResidual& x : comparison.rows) {
            if (x.quantity != sp.quantity)
                continue;
            const auto it = index.find(x.part);
            if (it == index.end() || !std::isfinite(x.residual))
                continue;
            const double v = sp.relative ? 100.0 * x.residual / std::max(1e-9, std::abs(x.predicted)) : x.residual;
            f.values[static_cast<std::size_t>(it->second.rack)][static_cast<std::size_t>(it->second.slot)] = v;
            worst = std::max(worst, std::abs(v));
            any = true;
        }
        if (!any)
            continue;
        if (worst < 1e-9)
            worst = 1.0;
        f.lo = -worst;
        f.hi = worst;
        out.push_back(std::move(f));
    }
    return out;
}

namespace {

/// The model's intake of switch `id` in rack `rack` (nullptr: no thermal result, or not a switch).
const thermal::RackThermal::SwitchInlet* switchInlet(const thermal::ThermalResult* t, std::size_t rack,
                                                     const std::string& id)
{
    if (t)
        for (const thermal::RackThermal& rt : t->racks)
            if (rt.rack == static_cast<int>(rack))
                for (const thermal::RackThermal::SwitchInlet& sw : rt.switches)
                    if (sw.id == id)
                        return &sw;
    return nullptr;
}

} // namespace

HilComparison compareTelemetry(const core::Design& design, const power::PowerResult* powerResult,
                               const thermal::ThermalResult* thermalResult, const hil::Series& series,
                               const liquid::LiquidResult* liquidResult)
{
    struct View {
        const core::Design& design;
        const power::PowerResult* power;
        const thermal::ThermalResult* thermal;
    } run{design, powerResult, thermalResult};
    HilComparison out;
    out.sweeps = series.samples.size();
    const auto index = slotIndex(run.design);
    const std::size_t n = series.parts.size();
    std::set<std::string> loopsRead;
    for (std::size_t i = 0; i < n; ++i) {
        if (isLiquidTelemetryPart(run.design, series.parts[i], series.kinds[i])) {
            compareCoolingUnit(run.design, liquidResult, series, i, out);
            loopsRead.insert(series.parts[i].substr(0, series.parts[i].rfind("/cdu")));
            continue;
        }
        const auto it = index.find(series.parts[i]);
        if (it == index.end())
            throw core::InputError(core::SourceLoc{run.design.file, 0, 0, "layout"},
                                   "the telemetry names " + series.parts[i] +
                                       ", which this design does not have (another design's snapshot?)");
        const auto [r, s] = it->second;
        const core::Slot& slot = run.design.racks[r].slots[s];
        const std::string& kind = series.kinds[i];
        Mean power, inlet, exhaust, fan, out_, in_, load;
        double errors = 0;
        for (std::size_t t = 0; t < series.samples.size(); ++t) {
            const hil::PartReading& p = series.samples[t].parts[i];
            if (t * n + i < series.errorCounts.size())
                errors += series.errorCounts[t * n + i];
            power.add(p.powerW);
            inlet.add(p.inletC);
            exhaust.add(p.exhaustC);
            fan.add(p.fanPct);
            const double o = sum(p.psuOutW), in = sum(p.psuInW), cap = sum(p.psuCapacityW);
            out_.add(o);
            in_.add(in);
            if (std::isfinite(o) && std::isfinite(cap) && cap > 0)
                load.add(o / cap);
        }
        auto row = [&](const char* q, const char* unit, const Mean& m, double predicted) {
            if (m.n == 0 || !std::isfinite(predicted))
                return;
            out.rows.push_back({slot.id, kind, q, unit, m.value(), predicted, m.value() - predicted, m.n});
        };
        const std::size_t before = out.rows.size();
        if (kind == "power-shelf") {
            compareSupplies(run.design, series, i, out);
            const power::ShelfPower* sp = run.power ? byId(run.power->racks[r].shelves, slot.id) : nullptr;
            if (sp) {
                // The shelf's share of the rack's modelled draw (the budget's share is on its basis,
                // nameplate by default, which no meter reads).
                const power::RackPower& rp = run.power->racks[static_cast<std::size_t>(r)];
                const double modelled = rp.itLoadW > 0 ? sp->outputW * rp.modelledLoadW / rp.itLoadW : sp->outputW;
                row("power", "W", out_, modelled);
                if (out_.n > 0 && in_.n > 0) {
                    Mean eff;
                    eff.sum = out_.value() / in_.value() * 100.0;
                    eff.n = std::min(out_.n, in_.n);
                    const core::Curve* c = slot.part->curve("efficiency_curve");
                    const double x = load.n > 0 ? load.value() : out_.value() / sp->ratingW;
                    if (c)
                        row("psu_efficiency", "%", eff, models::EfficiencyCurve(c->points).at(x) * 100.0);
                    else
                        out.notChecked.push_back(slot.id + ": psu_efficiency (the catalog has no efficiency_curve)");
                }
            }
        } else {
            const power::PartPower* pp = run.power ? byId(run.power->racks[r].parts, slot.id) : nullptr;
            if (pp)
                row("power", "W", power, pp->modelledW);
            const thermal::ChassisThermal* ct = nullptr;
            if (run.thermal)
                for (const thermal::RackThermal& rt : run.thermal->racks)
                    if (rt.rack == r)
                        ct = byId(rt.chassis, slot.id);
            if (ct) {
                const double inK = std::isfinite(ct->fieldInletK) ? ct->fieldInletK : ct->inletK;
                row("inlet", "degC", inlet, inK - 273.15);
                row("exhaust", "degC", exhaust, ct->exhaustK - 273.15);
                row("fan", "%", fan, ct->fanSpeed * 100.0);
            } else if (const thermal::RackThermal::SwitchInlet* sw = switchInlet(run.thermal, r, slot.id)) {
                // A switch: the model judges its intake (thermal.inlet.switch); its air is an assumed
                // 15 K rise without a fan model, so exhaust and fan readings have nothing to meet.
                row("inlet", "degC", inlet, sw->inletK - 273.15);
                if (exhaust.n > 0 || fan.n > 0)
                    out.notChecked.push_back(slot.id + ": exhaust, fan (the model has no fan curve for a switch)");
            } else if (inlet.n > 0) {
                out.notChecked.push_back(slot.id + ": inlet, exhaust, fan (the model has no air path for it)");
            }
            compareTray(run.design, liquidResult, series, i, out);
        }
        if (out.rows.size() == before)
            out.notChecked.push_back(
                slot.id + ": no readings" +
                (errors > 0 ? " (" + std::to_string(static_cast<int>(errors)) +
                                  (errors == 1 ? " read error)" : " read errors)")
                            : ""));
    }
    // Parts the telemetry does not cover at all are not checked either, and say so.
    const std::set<std::string> covered(series.parts.begin(), series.parts.end());
    for (const core::Rack& rack : run.design.racks)
        for (const core::Slot& slot : rack.slots) {
            const core::PartKind k = slot.part->kind;
            if ((k == core::PartKind::Chassis || k == core::PartKind::Switch || k == core::PartKind::PowerShelf) &&
                !covered.count(slot.id))
                out.notChecked.push_back(slot.id + ": no telemetry mapped");
        }
    for (const core::LiquidLoop& loop : run.design.liquid.loops)
        if (!loopsRead.count(loop.id))
            out.notChecked.push_back(loop.id + ": no telemetry mapped (its CDUs)");
    return out;
}

void registerHilChecks(core::CheckRegistry& registry)
{
    using core::Dimension;
    auto deviation = [](const std::string& quantity, bool relative) {
        return [quantity, relative](core::CheckContext& ctx) {
            const auto cmp = ctx.results().get<HilComparison>("hil");
            if (!cmp)
                return;
            const double tol = ctx.constraint("tolerance");
            const core::Design& d = ctx.design();
            for (const HilResidual& r : cmp->rows) {
                if (r.quantity != quantity)
                    continue;
                const double dev =
                    relative ? std::abs(r.residual) / std::max(1e-9, std::abs(r.predicted)) : std::abs(r.residual);
                const bool pct = r.unit == "%";
                if (dev <= (pct ? tol * 100.0 : tol))
                    continue;
                char msg[512];
                std::snprintf(msg, sizeof msg, "%s %s measured %.1f %s, model %.1f %s (%+.1f %s%s)", r.part.c_str(),
                              quantity.c_str(), r.measured, r.unit.c_str(), r.predicted, r.unit.c_str(),
                              relative ? dev * 100.0 * (r.residual < 0 ? -1 : 1) : r.residual,
                              relative ? "%" : (r.unit == "degC" ? "K" : pct ? "points" : r.unit.c_str()),
                              relative ? " of the model" : "");
                core::SourceLoc loc;
                for (const core::Rack& rack : d.racks)
                    for (const core::Slot& s : rack.slots)
                        if (s.id == r.part)
                            loc = s.loc;
                ctx.report(r.part, msg, relative ? dev * 100.0 : std::abs(r.residual),
                           pct ? tol * 100.0 : (relative ? tol * 100.0 : tol),
                           relative ? "%" : (r.unit == "degC" ? "K" : pct ? "points" : r.unit), loc);
            }
        };
    };
    registry.add({"hil.power.deviation",
                  "Measured power agrees with the model",
                  core::Severity::Error,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "Mean measured input power of a chassis or switch (Redfish EnvironmentMetrics.PowerWatts or legacy "
                  "PowerControl), or output of a power shelf (sum of its supplies), against the modelled draw at the "
                  "design's utilisation; relative deviation over `tolerance` is a violation.",
                  {{"tolerance", {0.10, Dimension::Ratio}}}},
                 deviation("power", true));
    registry.add({"hil.inlet.deviation",
                  "Measured inlet air agrees with the model",
                  core::Severity::Error,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "Mean measured intake temperature of a chassis or switch against the model's inlet (the field "
                  "model's when it ran); a difference over `tolerance` is a violation.",
                  {{"tolerance", {2.0, Dimension::TemperatureDelta}}}},
                 deviation("inlet", false));
    registry.add({"hil.exhaust.deviation",
                  "Measured exhaust air agrees with the model",
                  core::Severity::Warning,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "Mean measured exhaust temperature of a chassis against the airflow network's exhaust; a "
                  "difference over `tolerance` is a violation (a sign of wrong airflow or power).",
                  {{"tolerance", {3.0, Dimension::TemperatureDelta}}}},
                 deviation("exhaust", false));
    registry.add({"hil.fan.deviation",
                  "Measured fan speed agrees with the model",
                  core::Severity::Error,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "Mean measured fan speed (% of full) against the fan control of the airflow network; a difference "
                  "of more than `tolerance` (percentage points of full speed) is a violation.",
                  {{"tolerance", {0.15, Dimension::Ratio}}}},
                 deviation("fan", false));
    registry.add({"hil.psu.efficiency",
                  "Measured PSU efficiency agrees with the catalog curve",
                  core::Severity::Warning,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "Output over input power of a shelf's supplies against its catalog efficiency curve at the "
                  "measured load; a difference of more than `tolerance` (percentage points) is a violation.",
                  {{"tolerance", {0.01, Dimension::Ratio}}}},
                 deviation("psu_efficiency", false));
    registerHilLiquidChecks(registry);
    registerHilSupplyChecks(registry);
    registerPowerTraceChecks(registry);
    registry.add({"hil.telemetry.missing",
                  "Every mapped part was read",
                  core::Severity::Warning,
                  "rdt hardware-in-the-loop (docs/hil.md)",
                  "A mapped part has no usable readings (endpoint down, 401/404/500, malformed or incomplete "
                  "responses): its figures are not checked.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp)
                         return;
                     for (const std::string& s : cmp->notChecked)
                         ctx.report(s.substr(0, s.find(':')), s + ": not checked", NAN, NAN, "", {});
                 });
    registry.add({"hil.telemetry.none",
                  "The telemetry holds a reading to compare",
                  core::Severity::Error,
                  "rdt hardware-in-the-loop (docs/hil.md): a pass is earned by a comparison",
                  "Not one reading of the telemetry could be set beside the model (every mapped part unread, "
                  "or nothing it read has a prediction): the comparison checked nothing, which is not a pass.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp || !cmp->rows.empty())
                         return;
                     ctx.report("telemetry",
                                "no reading compared with the model (" + std::to_string(cmp->notChecked.size()) +
                                    " mapped parts not checked, over " + std::to_string(cmp->sweeps) +
                                    " sweeps): nothing was checked",
                                0, 1, "readings", {});
                 });
}

std::vector<core::Violation> judgeTelemetry(const RunResult& run, const HilComparison& comparison)
{
    core::CheckRegistry registry;
    registerHilChecks(registry);
    core::ResultStore store;
    store.put("hil", std::make_shared<const HilComparison>(comparison));
    std::vector<core::Violation> out;
    for (const auto& e : registry.entries()) {
        const core::RuleConfig cfg = run.profile.configFor(e.info);
        if (!cfg.enabled)
            continue;
        core::CheckContext ctx(run.design, e.info, cfg, out, &store);
        e.check(ctx);
    }
    for (core::Violation& v : out)
        for (const core::Waiver& w : run.design.waivers)
            if (w.matches(v.rule, v.subject)) {
                v.waived = true;
                v.justification = w.justification;
            }
    return out;
}
} // namespace rdt::analysis
