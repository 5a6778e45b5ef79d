#include "liquid/LiquidChecks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "core/Units.h"
#include "liquid/LiquidDesign.h"

namespace rdt::liquid {

namespace {

using core::Dimension;
using core::Severity;

constexpr double kLpm = 1e-3 / 60.0;     ///< m³/s per L/min
constexpr double kLpmPerKw = kLpm / 1e3; ///< m³/s per W in one L/min per kW
/// `v` with 4 significant digits, or as many more (up to 9) as tell it from `other` (a figure
/// printed beside its limit: "102.5004 kPa, above its rated 102.5 kPa", never "102.5 above 102.5").
std::string digits(double v, double other, const char* unit)
{
    char b[64], o[64];
    for (int p = 4;; ++p) {
        std::snprintf(b, sizeof b, "%.*g %s", p, v, unit);
        std::snprintf(o, sizeof o, "%.*g %s", p, other, unit);
        if (std::isnan(other) || v == other || std::string(b) != o || p >= 9)
            return b;
    }
}

std::string lpm(double m3s, double other = NAN)
{
    return digits(m3s / kLpm, other / kLpm, "L/min");
}

/// " at nameplate (110.4 kW modelled)" where the budget's basis puts the loop above its running heat.
std::string onBasis(const LiquidResult& L, const LoopLiquid& lo)
{
    if (!(lo.basisHeatW > lo.heatW))
        return "";
    return " at " + std::string(core::powerBasisName(L.basis)) + " (" +
           core::formatQuantity(lo.heatW, Dimension::Power) + " modelled)";
}

std::string kpa(double pa, double other = NAN)
{
    return digits(pa / 1e3, other / 1e3, "kPa");
}

std::string degc(double c, double other = NAN)
{
    return digits(c, other, "degC");
}

const core::Slot& slotOf(const core::CheckContext& ctx, const TrayLiquid& t)
{
    return ctx.design().racks[static_cast<std::size_t>(t.rack)].slots[static_cast<std::size_t>(t.slot)];
}

const core::Rack& rackOf(const core::CheckContext& ctx, const RackLiquid& r)
{
    return ctx.design().racks[static_cast<std::size_t>(r.rack)];
}

const core::LiquidLoop& loopOf(const core::CheckContext& ctx, std::size_t i)
{
    return ctx.design().liquid.loops[i];
}

/// The flow a tray is allocated: its liquid heat at the rule's L/min per kW, or its own
/// liquid.min_flow where that is more.
double trayNeed(const core::CheckContext& ctx, const TrayLiquid& t)
{
    return std::max(t.heatW * ctx.constraint("flow_per_kw"), slotOf(ctx, t).part->value("liquid.min_flow", 0.0));
}

} // namespace

void registerChecks(core::CheckRegistry& registry)
{
    registry.add(
        {"liquid.tray.flow",
         "Every liquid-cooled tray receives its allocated coolant flow",
         Severity::Error,
         "Meta Network Hardware Switch Requirements R-LCOOL-110/120: 1.5 L/min per kW of liquid-cooled power, "
         "equal liquid dT across a rack's trays [LC-F1]; OCP OAI guidelines 1.25-2.0 L/min/kW",
         "Each tray's flow, solved through the CDU pumps, header, rack connector, manifold, tray connector pair "
         "and cold-plate loop, against its liquid heat times flow_per_kw, or the part's own "
         "liquid.min_flow where that is more.",
         {{"flow_per_kw", {1.5 * kLpmPerKw, Dimension::FlowPerPower}}}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const TrayLiquid& t : L->trays) {
                const double needM3s = trayNeed(ctx, t);
                if (t.flowM3s < needM3s * (1 - 1e-9))
                    ctx.report(t.id,
                               "tray flow " + lpm(t.flowM3s, needM3s) + " is below the " + lpm(needM3s, t.flowM3s) +
                                   " its " + core::formatQuantity(t.heatW, Dimension::Power) +
                                   " of liquid heat is allocated (coolant rise " +
                                   core::formatQuantity(t.outletC - t.inletC, Dimension::TemperatureDelta) + ")",
                               t.flowM3s / kLpm, needM3s / kLpm, "L/min", slotOf(ctx, t).loc);
            }
        });
    registry.add({"liquid.tray.spread",
                  "Coolant flow evenly shared across a rack's equal trays",
                  Severity::Warning,
                  "OCP Open Rack V3 Blind Mate Manifold Rev 1.0: flow spread at most 5 % [LC-L8]",
                  "(largest - smallest) / mean of the coolant flow of a rack's trays of one part (equal trays, as the "
                  "manifold's criterion is written; load does not enter), the widest part's, against max_spread.",
                  {{"max_spread", {0.05, Dimension::Ratio}}}},
                 [](core::CheckContext& ctx) {
                     const auto L = liquidFor(ctx.design(), ctx.results());
                     const double limit = ctx.constraint("max_spread");
                     for (const RackLiquid& r : L->racks)
                         if (r.spread > limit + 1e-12)
                             ctx.report(r.id,
                                        "equal trays' coolant flow spreads " +
                                            core::formatQuantity(r.spread, Dimension::Ratio, 3) +
                                            " across the rack's manifold (limit " +
                                            core::formatQuantity(limit, Dimension::Ratio) + ")",
                                        r.spread * 100, limit * 100, "%", rackOf(ctx, r).loc);
                 });
    registry.add({"liquid.plate.starved",
                  "Every cold plate runs within its measured flow range",
                  Severity::Error,
                  "rdt: a cold plate's resistance is never extrapolated below its lowest measured flow",
                  "A tray whose plates get less flow than the lowest point of liquid.plate.resistance: its case "
                  "temperature is not known, so it cannot be passed.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto L = liquidFor(ctx.design(), ctx.results());
                     for (const TrayLiquid& t : L->trays)
                         if (!t.plateMeasured) {
                             const core::Curve* c = slotOf(ctx, t).part->curve("liquid.plate.resistance");
                             const double lowest = c && !c->points.empty() ? c->points.front().first : NAN;
                             const int plates =
                                 static_cast<int>(slotOf(ctx, t).part->value("liquid.plates.count", 1.0));
                             ctx.report(t.id,
                                        "each cold plate gets " + lpm(t.flowM3s / plates, lowest) +
                                            ", below the lowest measured flow of its resistance curve (" +
                                            lpm(lowest, t.flowM3s / plates) + "): its case temperature is not known",
                                        t.flowM3s / plates / kLpm, lowest / kLpm, "L/min", slotOf(ctx, t).loc);
                         }
                 });
    registry.add(
        {"liquid.connector.flow",
         "Quick-connector flow within its rating",
         Severity::Error,
         "OCP ORv3 BMQC Rev 1.0 (9 L/min per mated pair); OCP Large Quick Connector V2.0.0 (100 L/min per rack "
         "pair) [LC-L8]",
         "Each tray connector pair's flow against the part's liquid.connector.rated_flow, and each rack "
         "connector's against its rack type's. A connector without a rating is reported by liquid.limits.missing.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const TrayLiquid& t : L->trays)
                if (t.flowM3s > t.connectorRatedM3s * (1 + 1e-9))
                    ctx.report(t.id,
                               "tray connector pair carries " + lpm(t.flowM3s, t.connectorRatedM3s) +
                                   ", above its rated " + lpm(t.connectorRatedM3s, t.flowM3s),
                               t.flowM3s / kLpm, t.connectorRatedM3s / kLpm, "L/min", slotOf(ctx, t).loc);
            for (const RackLiquid& r : L->racks)
                if (r.flowM3s > r.connectorRatedM3s * (1 + 1e-9))
                    ctx.report(r.id,
                               "rack connector carries " + lpm(r.flowM3s, r.connectorRatedM3s) + ", above its rated " +
                                   lpm(r.connectorRatedM3s, r.flowM3s),
                               r.flowM3s / kLpm, r.connectorRatedM3s / kLpm, "L/min", rackOf(ctx, r).loc);
        });
    registry.add(
        {"liquid.connector.pressure",
         "Coolant pressure at every connector and manifold within its rating",
         Severity::Error,
         "OCP ORv3 BMQC Rev 1.0 and Blind Mate Manifold Rev 1.0: 50 psig; OCP LQC V2.0.0: 75 psig [LC-L8]",
         "Gauge pressure (the loop's fill pressure, liquid: {fill_pressure}, plus what the pumps add) at each "
         "tray's supply port against its connector pair's liquid.connector.max_pressure; at the rack's manifold "
         "(its highest port) against liquid.manifold.max_pressure; at the rack connector, bounded by the pumps' "
         "outlet, against the rack type's liquid.connector.max_pressure.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const TrayLiquid& t : L->trays)
                if (t.supplyPortPa > t.connectorMaxPa * (1 + 1e-9))
                    ctx.report(t.id,
                               "supply port at " + kpa(t.supplyPortPa, t.connectorMaxPa) +
                                   " gauge, above the connector pair's " + kpa(t.connectorMaxPa, t.supplyPortPa),
                               t.supplyPortPa / 1e3, t.connectorMaxPa / 1e3, "kPa", slotOf(ctx, t).loc);
            for (const RackLiquid& r : L->racks) {
                if (r.inletPa > r.manifoldMaxPa * (1 + 1e-9))
                    ctx.report(r.id,
                               "manifold at " + kpa(r.inletPa, r.manifoldMaxPa) +
                                   " gauge at its highest port, above its rated " + kpa(r.manifoldMaxPa, r.inletPa),
                               r.inletPa / 1e3, r.manifoldMaxPa / 1e3, "kPa", rackOf(ctx, r).loc);
                const double outlet = r.connectorBoundPa;
                if (outlet > r.connectorMaxPa * (1 + 1e-9))
                    ctx.report(r.id,
                               "rack connector may see the pumps' outlet, " + kpa(outlet, r.connectorMaxPa) +
                                   " gauge, above its rated " + kpa(r.connectorMaxPa, outlet),
                               outlet / 1e3, r.connectorMaxPa / 1e3, "kPa", rackOf(ctx, r).loc);
            }
        });
    registry.add({"liquid.connector.temperature",
                  "Coolant leaving each tray within its connector's temperature rating",
                  Severity::Error,
                  "OCP ORv3 BMQC Rev 1.0: 60 degC maximum fluid temperature [LC-L8]",
                  "Each tray's outlet (its inlet plus its liquid heat over the flow's capacity rate) against its "
                  "connector pair's liquid.connector.max_temp.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto L = liquidFor(ctx.design(), ctx.results());
                     for (const TrayLiquid& t : L->trays)
                         if (t.outletC > t.connectorMaxC + 1e-9)
                             ctx.report(t.id,
                                        "coolant leaves the tray at " + degc(t.outletC, t.connectorMaxC) +
                                            ", above its connector pair's " + degc(t.connectorMaxC, t.outletC),
                                        t.outletC, t.connectorMaxC, "degC", slotOf(ctx, t).loc);
                 });
    registry.add(
        {"liquid.manifold.velocity",
         "Coolant velocity in each rack manifold within the limit",
         Severity::Warning,
         "OCP white paper, Guidelines to Rack Manifold Requirements and Qualification v3: at most 1.5 m/s [LC-L8]",
         "The rack's whole flow over its manifold's bore (where the manifold carries all of it), against "
         "max_velocity.",
         {{"max_velocity", {1.5, Dimension::Velocity}}}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            const double limit = ctx.constraint("max_velocity");
            for (const RackLiquid& r : L->racks)
                if (r.manifoldVelocity > limit + 1e-12) {
                    char b[160];
                    std::snprintf(b, sizeof b, "manifold velocity %.3g m/s at %s exceeds %.3g m/s", r.manifoldVelocity,
                                  lpm(r.flowM3s).c_str(), limit);
                    ctx.report(r.id, b, r.manifoldVelocity, limit, "m/s", rackOf(ctx, r).loc);
                }
        });
    registry.add(
        {"liquid.cdu.heat",
         "Each loop's CDUs remove its heat while holding the supply setpoint",
         Severity::Error,
         "OCP Liquid-to-Liquid CDU Test Methodology WP (rating at an approach; re-rate to the actual facility "
         "water) [LC-L8]; ε-NTU from the vendor's rating point (docs/liquid.md)",
         "The running CDUs' capacity at their rated IT flow, re-rated to the actual facility water (liquid-to-air: "
         "the room's supply air) holding liquid: {supply}, against the heat their racks put into the loop on the "
         "power budget's basis (nameplate unless the run says otherwise; the loop itself runs at the modelled draw). "
         "Where "
         "the loop's own flow cannot hold it either, the supply floats up and every tray gets warmer coolant; "
         "a loop whose own flow (above the rated, say) cannot hold the setpoint for its heat fails too: that heat "
         "at the flow the loop's control sets for it.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (std::size_t i = 0; i < L->loops.size(); ++i) {
                const LoopLiquid& lo = L->loops[i];
                const double heatW = std::max(lo.heatW, lo.basisHeatW);
                if (heatW > lo.capacityW * (1 + 1e-9))
                    ctx.report(lo.id,
                               "loop heat " + core::formatQuantityBeside(heatW, lo.capacityW, Dimension::Power) +
                                   onBasis(*L, lo) + " exceeds the " + std::to_string(lo.running) + " running " +
                                   lo.cdu + " units' capacity " +
                                   core::formatQuantityBeside(lo.capacityW, heatW, Dimension::Power) + " at " +
                                   degc(lo.facilityC) + (lo.type == "liquid-to-air" ? " air" : " facility water") +
                                   " holding " + degc(lo.setpointC) + " at their rated flow" +
                                   (lo.holdsSetpoint ? "" : ": the supply floats to " + degc(lo.supplyC)) +
                                   (lo.scenario.empty() ? "" : " [" + lo.scenario + "]"),
                               heatW / 1e3, lo.capacityW / 1e3, "kW", loopOf(ctx, i).loc);
                else if (!lo.holdsSetpoint || heatW > lo.capacityAtFlowW * (1 + 1e-9))
                    // Within the rating, yet the loop runs above the units' rated flow, where the same
                    // exchangers hold the setpoint for less heat: the supply floats (until 2026-12-06
                    // the text said so and no rule did). Judged on the same heat as the rating (the
                    // budget's basis; until 2026-12-08 the modelled heat, so a loop that could not hold
                    // its setpoint at nameplate passed).
                    ctx.report(lo.id,
                               "loop heat " + core::formatQuantityBeside(heatW, lo.capacityAtFlowW, Dimension::Power) +
                                   onBasis(*L, lo) + " exceeds what the " + std::to_string(lo.running) + " running " +
                                   lo.cdu + " units remove holding " + degc(lo.setpointC) + " at " +
                                   (lo.basisFlowM3s > lo.flowM3s * (1 + 1e-9)
                                        ? "the " + lpm(lo.basisFlowM3s) + " its control sets for that heat"
                                        : "the loop's " + lpm(lo.flowM3s)) +
                                   " (rated " + lpm(lo.ratedFlowM3s) + "): " +
                                   core::formatQuantityBeside(lo.capacityAtFlowW, heatW, Dimension::Power) + " at " +
                                   degc(lo.facilityC) + (lo.type == "liquid-to-air" ? " air" : " facility water") +
                                   (lo.holdsSetpoint ? "" : "; the supply floats to " + degc(lo.supplyC)) +
                                   (lo.scenario.empty() ? "" : " [" + lo.scenario + "]"),
                               heatW / 1e3, lo.capacityAtFlowW / 1e3, "kW", loopOf(ctx, i).loc);
            }
        });
    registry.add(
        {"liquid.cdu.flow",
         "Each loop's CDUs are rated for the flow its trays are allocated",
         Severity::Error,
         "Liquid-cooling reference 0.3: CDUs are rated near 0.9 L/min per kW while racks are allocated 1.5; "
         "count CDUs on flow and on heat [LC-L8]",
         "The sum of the loop's trays' allocated flows (liquid.tray.flow's flow_per_kw, for their heat on the power "
         "budget's basis) against the running "
         "CDUs' rated IT-side flow (cdu.rating.it_flow each).",
         {{"flow_per_kw", {1.5 * kLpmPerKw, Dimension::FlowPerPower}}}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            const double perW = ctx.constraint("flow_per_kw"); // m³/s per W
            for (std::size_t i = 0; i < L->loops.size(); ++i) {
                const LoopLiquid& lo = L->loops[i];
                double needM3s = 0;
                for (int r : lo.racks)
                    for (int t : L->racks[static_cast<std::size_t>(r)].trays)
                        needM3s += std::max(
                            std::max(L->trays[static_cast<std::size_t>(t)].heatW,
                                     L->trays[static_cast<std::size_t>(t)].basisHeatW) *
                                perW,
                            slotOf(ctx, L->trays[static_cast<std::size_t>(t)]).part->value("liquid.min_flow", 0.0));
                if (needM3s > lo.ratedFlowM3s * (1 + 1e-9))
                    ctx.report(lo.id,
                               "trays are allocated " + lpm(needM3s, lo.ratedFlowM3s) +
                                   (lo.basisHeatW > lo.heatW
                                        ? " for their heat at " + std::string(core::powerBasisName(L->basis))
                                        : std::string()) +
                                   ", above the " + std::to_string(lo.running) + " running " + lo.cdu +
                                   " units' rated " + lpm(lo.ratedFlowM3s, needM3s) +
                                   (lo.scenario.empty() ? "" : " [" + lo.scenario + "]"),
                               needM3s / kLpm, lo.ratedFlowM3s / kLpm, "L/min", loopOf(ctx, i).loc);
            }
        });
    registry.add(
        {"liquid.leak.zone",
         "Every liquid-cooled rack watched by a leak-detection zone",
         Severity::Error,
         "Meta ORv3 HPR: drip pan in the bottom slot, leak detection reported to the Rack Management Controller "
         "[LC-F1] [LC-C3]; liquid-cooling reference 4.1 item 10: a rack with liquid and no leak zone is an error",
         "Each rack on a liquid loop needs at least one leak-detection zone: its rack type's liquid.leak.zones, or "
         "a part in the rack with them (a leak-detection module). A zone covers its own rack only, so a leak "
         "stops one rack.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const RackLiquid& r : L->racks)
                if (r.leakZones < 1)
                    ctx.report(r.id,
                               "no leak-detection zone for " + lpm(r.flowM3s) + " of coolant through " +
                                   std::to_string(r.trays.size()) + " tray connector pairs: rack type " +
                                   rackOf(ctx, r).rackType->slug +
                                   " has no liquid.leak.zones and no part in the rack brings one",
                               0.0, 1.0, "zones", rackOf(ctx, r).loc);
        });
    registry.add(
        {"liquid.leak.response",
         "A leak in a liquid-cooled rack cuts its trays' power",
         Severity::Warning,
         "Meta Catalina: the Rack Management Controller monitors for leaks and controls power [LC-C3] [LC-F1]",
         "Each liquid rack's leak-detection zones state liquid.leak.response: power-off (the rack's controller "
         "cuts its trays' power) for every zone; a zone that only alarms, or says nothing, is reported.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const RackLiquid& r : L->racks)
                if (r.leakZones >= 1 && r.leakResponse != "power-off") {
                    std::string from;
                    for (const std::string& x : r.leakSources)
                        from += (from.empty() ? "" : ", ") + x;
                    ctx.report(r.id,
                               r.leakResponse == "alarm"
                                   ? "a leak only raises an alarm (zones: " + from + "): nothing cuts the trays' power"
                                   : "what a leak does is not stated for some zone (liquid.leak.response; zones: " +
                                         from + ")",
                               NAN, NAN, "", rackOf(ctx, r).loc);
                }
        });
    registry.add(
        {"liquid.supply.dewpoint",
         "Coolant supply above the room's dew point",
         Severity::Error,
         "Rear-door and cold-plate practice: coolant at least 2 K above the room's dew point (IBM, HPE/Motivair; "
         "liquid-cooling reference 2.2 item 27)",
         "Each loop's supply temperature against the dew point of the site's supply air (site: {supply_air, "
         "humidity}, Magnus form) plus margin: colder coolant condenses on pipes and plates.",
         {{"margin", {2.0, Dimension::TemperatureDelta}}}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            const double limit = L->dewPointC + ctx.constraint("margin");
            for (std::size_t i = 0; i < L->loops.size(); ++i) {
                const LoopLiquid& lo = L->loops[i];
                if (lo.supplyC < limit - 1e-9)
                    ctx.report(lo.id,
                               "coolant supply " + degc(lo.supplyC, limit) + " is below the room's dew point " +
                                   degc(L->dewPointC) + " plus the margin",
                               lo.supplyC, limit, "degC", loopOf(ctx, i).loc);
            }
        });
    registry.add(
        {"liquid.gpu.junction",
         "Liquid-cooled GPU junctions within their maximum operating temperature",
         Severity::Error,
         "GPU data sheets (max_operating_temp); cold plate case-to-inlet resistance at its flow",
         "Each GPU's junction: the coolant at its tray's inlet plus its plate's R(flow) times the plate's heat, "
         "plus the GPU's power times the part's thermal.r_jc; against the GPU's max_operating_temp (else "
         "slowdown_temp). A GPU whose plates are starved (liquid.plate.starved) has no known case temperature: its "
         "junction is unbounded and judged beyond the limit. Parts lacking either are reported by "
         "liquid.limits.missing.",
         {}},
        [](core::CheckContext& ctx) {
            const auto L = liquidFor(ctx.design(), ctx.results());
            for (const TrayLiquid& t : L->trays)
                if (std::isinf(t.junctionC) && !std::isnan(t.maxJunctionC))
                    ctx.report(t.id,
                               "GPU junction unbounded: its cold plates are starved (liquid.plate.starved), so their "
                               "case temperature is not known, and the GPUs are taken to throttle; the limit is " +
                                   degc(t.maxJunctionC),
                               t.junctionC, t.maxJunctionC, "degC", slotOf(ctx, t).loc);
                else if (t.junctionC > t.maxJunctionC + 1e-9)
                    ctx.report(t.id,
                               "GPU junction " + degc(t.junctionC, t.maxJunctionC) + " (case " + degc(t.caseC) +
                                   ", coolant in " + degc(t.inletC) + ") exceeds " + degc(t.maxJunctionC, t.junctionC),
                               t.junctionC, t.maxJunctionC, "degC", slotOf(ctx, t).loc);
        });
    registry.add({"liquid.limits.missing",
                  "Liquid figures present for every liquid-cooled part",
                  Severity::Info,
                  "rdt: a figure a check needs but the catalog lacks is reported, never borrowed from another part",
                  "A liquid-cooled part without connector ratings, or a GPU without thermal.r_jc or a maximum "
                  "operating temperature: those liquid rules are not checked for it.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto L = liquidFor(ctx.design(), ctx.results());
                     std::set<std::string> seen;
                     for (const TrayLiquid& t : L->trays) {
                         const core::Part& p = *slotOf(ctx, t).part;
                         if (!seen.insert(p.slug).second)
                             continue;
                         std::string missing;
                         auto add = [&missing](const std::string& m) { missing += (missing.empty() ? "" : "; ") + m; };
                         if (std::isnan(t.connectorRatedM3s))
                             add("liquid.connector.rated_flow (liquid.connector.flow)");
                         if (std::isnan(t.connectorMaxPa))
                             add("liquid.connector.max_pressure (liquid.connector.pressure)");
                         if (std::isnan(t.connectorMaxC))
                             add("liquid.connector.max_temp (liquid.connector.temperature)");
                         if (t.gpuW > 0 && !p.find("thermal.r_jc"))
                             add("thermal.r_jc (liquid.gpu.junction)");
                         if (t.gpuW > 0 && std::isnan(t.maxJunctionC))
                             add(p.text("gpus.part") + " max_operating_temp or slowdown_temp (liquid.gpu.junction)");
                         if (!missing.empty())
                             ctx.report(p.slug, "not checked: " + p.slug + " has no " + missing, NAN, NAN, "", p.loc);
                     }
                 });
}

} // namespace rdt::liquid
