// Liquid cooling in hardware in the loop: a loop's CDUs (Redfish CoolingUnit telemetry) and its
// trays' coolant connectors beside the liquid model's loop and trays, judged by `hil.liquid.*`.
#include <algorithm>
#include <cstdio>
#include <map>

#include "analysis/Hil.h"
#include "analysis/HilDetail.h"

namespace rdt::analysis {

using namespace hildetail;

namespace {

constexpr double kLpm = 1.0 / 60000.0; // m³/s per L/min

/// The loop a `LOOP/cduN` part belongs to (index into the design's loops), or -1.
int loopOf(const core::Design& design, const std::string& part)
{
    const auto slash = part.rfind("/cdu");
    if (slash == std::string::npos)
        return -1;
    for (std::size_t l = 0; l < design.liquid.loops.size(); ++l)
        if (design.liquid.loops[l].id == part.substr(0, slash))
            return static_cast<int>(l);
    return -1;
}

struct Worst {
    double value = NAN;
    int n = 0;
    void add(double v)
    {
        if (std::isfinite(v)) {
            value = std::isnan(value) ? v : std::max(value, v);
            ++n;
        }
    }
};

} // namespace

bool isLiquidTelemetryPart(const core::Design& design, const std::string& part, const std::string& kind)
{
    return kind == "cdu" && loopOf(design, part) >= 0;
}

void compareCoolingUnit(const core::Design& design, const liquid::LiquidResult* liquidResult, const hil::Series& series,
                        std::size_t i, HilComparison& out)
{
    const std::string& part = series.parts[i];
    const int l = loopOf(design, part);
    const std::size_t n = series.parts.size();
    Mean flow, supply, ret, dp, heat, pump;
    Worst failed, leak;
    for (const hil::Sample& s : series.samples) {
        const hil::PartReading& p = s.parts[i];
        flow.add(p.coolantFlowLpm);
        supply.add(p.coolantSupplyC);
        ret.add(p.coolantReturnC);
        dp.add(p.coolantDpKPa);
        heat.add(p.coolantHeatKW);
        pump.add(p.pumpSpeedPct);
        failed.add(p.pumpsFailed);
        leak.add(p.leakState);
    }
    (void)n;
    const liquid::LoopLiquid* loop = liquidResult && l >= 0 && static_cast<std::size_t>(l) < liquidResult->loops.size()
                                         ? &liquidResult->loops[l]
                                         : nullptr;
    const std::size_t before = out.rows.size();
    auto row = [&](const char* q, const char* unit, double measured, int samples, double predicted) {
        if (samples == 0 || !std::isfinite(measured) || !std::isfinite(predicted))
            return;
        out.rows.push_back({part, "cdu", q, unit, measured, predicted, measured - predicted, samples});
    };
    // A leak is judged on what was read, with or without a model.
    row("leak_state", "state", leak.value, leak.n, 0.0);
    if (!loop) {
        out.notChecked.push_back(part + ": the loop was not solved (no liquid result)");
        return;
    }
    // The loop's running CDUs share its flow, heat and draw evenly (identical units in parallel).
    const double running = std::max(1, loop->running);
    row("coolant_flow", "L/min", flow.value(), flow.n, loop->flowM3s / running / kLpm);
    row("coolant_supply", "degC", supply.value(), supply.n, loop->supplyC);
    row("coolant_return", "degC", ret.value(), ret.n, loop->returnC);
    row("coolant_heat", "kW", heat.value(), heat.n, loop->heatW / running / 1000.0);
    // The model has no losses inside the CDU: its pumps' rise is the head across the IT ports.
    row("coolant_dp", "kPa", dp.value(), dp.n, loop->sourcePa / 1000.0);
    row("pump_speed", "%", pump.value(), pump.n, loop->pumpSpeed * 100.0);
    // The what-if's failed pumps are the loop's (pump-fail=N: N in every loop): the rule sums the
    // loop's CDUs before it compares.
    row("pumps_failed", "count", failed.value, failed.n, static_cast<double>(loop->pumps - loop->pumpsRunning));
    if (out.rows.size() == before)
        out.notChecked.push_back(part + ": no coolant readings");
}

void compareTray(const core::Design& design, const liquid::LiquidResult* liquidResult, const hil::Series& series,
                 std::size_t i, HilComparison& out)
{
    if (!liquidResult)
        return;
    const liquid::TrayLiquid* tray = nullptr;
    for (const liquid::TrayLiquid& t : liquidResult->trays)
        if (t.id == series.parts[i])
            tray = &t;
    Mean flow, supply;
    for (const hil::Sample& s : series.samples) {
        flow.add(s.parts[i].coolantFlowLpm);
        supply.add(s.parts[i].coolantSupplyC);
    }
    if (flow.n == 0 && supply.n == 0)
        return;
    if (!tray) {
        out.notChecked.push_back(series.parts[i] + ": coolant readings, but the model has no liquid path for it");
        return;
    }
    (void)design;
    if (flow.n > 0)
        out.rows.push_back({tray->id, series.kinds[i], "coolant_flow", "L/min", flow.value(), tray->flowM3s / kLpm,
                            flow.value() - tray->flowM3s / kLpm, flow.n});
    if (supply.n > 0)
        out.rows.push_back({tray->id, series.kinds[i], "coolant_supply", "degC", supply.value(), tray->inletC,
                            supply.value() - tray->inletC, supply.n});
}

void registerHilLiquidChecks(core::CheckRegistry& registry)
{
    using core::Dimension;
    // Located at the loop (CDUs) or the part (trays).
    auto locate = [](const core::Design& d, const std::string& part) {
        const int l = loopOf(d, part);
        if (l >= 0)
            return d.liquid.loops[static_cast<std::size_t>(l)].loc;
        for (const core::Rack& rack : d.racks)
            for (const core::Slot& s : rack.slots)
                if (s.id == part)
                    return s.loc;
        return core::SourceLoc{};
    };
    auto deviation = [locate](const std::string& quantity, bool relative) {
        return [quantity, relative, locate](core::CheckContext& ctx) {
            const auto cmp = ctx.results().get<HilComparison>("hil");
            if (!cmp)
                return;
            const double tol = ctx.constraint("tolerance");
            for (const HilResidual& r : cmp->rows) {
                if (r.quantity != quantity)
                    continue;
                const double dev =
                    relative ? std::abs(r.residual) / std::max(1e-9, std::abs(r.predicted)) : std::abs(r.residual);
                const double limit = relative || r.unit == "%" ? tol * 100.0 : tol;
                const double shown = relative ? dev * 100.0 : dev;
                if (shown <= limit)
                    continue;
                const std::string unit = relative ? "%" : (r.unit == "degC" ? "K" : r.unit);
                char msg[512];
                std::snprintf(msg, sizeof msg, "%s %s measured %.1f %s, model %.1f %s (%+.1f %s%s)", r.part.c_str(),
                              quantity.c_str(), r.measured, r.unit.c_str(), r.predicted, r.unit.c_str(),
                              relative ? shown * (r.residual < 0 ? -1 : 1) : r.residual,
                              relative ? "%"
                                       : (r.unit == "degC" ? "K"
                                          : r.unit == "%"  ? "points"
                                                           : r.unit.c_str()),
                              relative ? " of the model" : "");
                ctx.report(r.part, msg, shown, limit, unit == "%" && !relative ? "points" : unit,
                           locate(ctx.design(), r.part));
            }
        };
    };
    const char* source = "rdt hardware-in-the-loop (docs/hil.md); DMTF CoolingUnit/CoolantConnector (DSP8010 2023.1)";
    registry.add({"hil.liquid.flow",
                  "Measured coolant flow agrees with the liquid model",
                  core::Severity::Error,
                  source,
                  "Mean measured coolant flow of a CDU (its secondary connectors' FlowLitersPerMinute summed) or a "
                  "tray (its connector's flow sensor) against the loop's flow per running CDU or the tray's branch "
                  "flow; a relative deviation over `tolerance` is a violation.",
                  {{"tolerance", {0.10, Dimension::Ratio}}}},
                 deviation("coolant_flow", true));
    registry.add({"hil.liquid.supply",
                  "Measured coolant supply agrees with the liquid model",
                  core::Severity::Error,
                  source,
                  "Mean measured IT-side supply temperature of a CDU or a tray's inlet against the model's; a "
                  "difference over `tolerance` is a violation.",
                  {{"tolerance", {2.0, Dimension::TemperatureDelta}}}},
                 deviation("coolant_supply", false));
    registry.add({"hil.liquid.return",
                  "Measured coolant return agrees with the liquid model",
                  core::Severity::Warning,
                  source,
                  "Mean measured IT-side return temperature of a CDU against the loop's mixed return; a difference "
                  "over `tolerance` is a violation (wrong heat or flow).",
                  {{"tolerance", {3.0, Dimension::TemperatureDelta}}}},
                 deviation("coolant_return", false));
    registry.add({"hil.liquid.heat",
                  "Measured heat into the coolant agrees with the liquid model",
                  core::Severity::Warning,
                  source,
                  "Mean HeatRemovedkW of a CDU's secondary connectors against the loop's liquid heat per running "
                  "CDU; a relative deviation over `tolerance` is a violation.",
                  {{"tolerance", {0.10, Dimension::Ratio}}}},
                 deviation("coolant_heat", true));
    registry.add({"hil.liquid.pressure",
                  "Measured CDU head agrees with the loop's pressure drop",
                  core::Severity::Warning,
                  source,
                  "Mean supply-to-return pressure difference at a CDU's IT ports (|DeltaPressurekPa|, else the gauge "
                  "pressures' difference) against the model's pump rise, which equals the loop's drop at its flow; "
                  "a relative deviation over `tolerance` is a violation.",
                  {{"tolerance", {0.15, Dimension::Ratio}}}},
                 deviation("coolant_dp", true));
    registry.add({"hil.liquid.pump",
                  "Measured pump speed agrees with the pump control",
                  core::Severity::Warning,
                  source,
                  "Mean speed of a CDU's running pumps (PumpSpeedPercent) against the speed the model's pump "
                  "control settles at; a difference of more than `tolerance` (points of full speed) is a violation.",
                  {{"tolerance", {0.15, Dimension::Ratio}}}},
                 deviation("pump_speed", false));
    registry.add({"hil.liquid.pump.failed",
                  "No more pumps failed than the model assumes",
                  core::Severity::Error,
                  source,
                  "A CDU reporting more failed pumps (State not Enabled, or Health Critical) than the check's "
                  "what-if assumes: the loop's verdicts hold for fewer pumps than are running; check with "
                  "--scenario pump-fail=N.",
                  {}},
                 [locate](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp)
                         return;
                     std::map<std::string, std::pair<double, double>> byLoop; // failed read, assumed
                     std::map<std::string, std::string> names;
                     for (const HilResidual& r : cmp->rows) {
                         if (r.quantity != "pumps_failed")
                             continue;
                         const std::string loop = r.part.substr(0, r.part.rfind("/cdu"));
                         auto& [read, assumed] = byLoop[loop];
                         read += r.measured;
                         assumed = r.predicted;
                         if (r.measured > 0)
                             names[loop] += (names[loop].empty() ? "" : ", ") + r.part;
                     }
                     for (const auto& [loop, v] : byLoop) {
                         if (!(v.first > v.second + 1e-9))
                             continue;
                         char msg[384];
                         std::snprintf(msg, sizeof msg,
                                       "liquid loop %s: %.0f pump(s) failed (%s), the check assumes %.0f: its verdicts "
                                       "hold for more pumps than are running; check with --scenario pump-fail=%.0f",
                                       loop.c_str(), v.first, names[loop].c_str(), v.second, v.first);
                         ctx.report(loop, msg, v.first, v.second, "pumps", locate(ctx.design(), loop + "/cdu1"));
                     }
                 });
    registry.add({"hil.liquid.leak",
                  "No leak detector reports a leak",
                  core::Severity::Error,
                  "DMTF LeakDetector.DetectorState (DSP8010 2023.1); OCP liquid cooling baseline profile",
                  "Any leak detector of a mapped CDU in the Warning or Critical state during the series is a "
                  "violation; a detector that is disabled, Unavailable or Absent is reported under "
                  "hil.telemetry.missing (its zone is not watched).",
                  {}},
                 [locate](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp)
                         return;
                     for (const HilResidual& r : cmp->rows) {
                         if (r.quantity != "leak_state" || !(r.measured >= 1))
                             continue;
                         const std::string msg = r.part + " leak detector " +
                                                 (r.measured >= 2 ? "Critical" : "Warning") +
                                                 ": a leak was detected during the series";
                         ctx.report(r.part, msg, r.measured, 0, "state", locate(ctx.design(), r.part));
                     }
                 });
}

} // namespace rdt::analysis
