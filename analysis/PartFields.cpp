#include "analysis/PartFields.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/Pipeline.h"
#include "thermal/ThermalChecks.h"

namespace rdt::analysis {

namespace {

constexpr double kC = 273.15;

core::PartField blank(const core::Design& d, std::string name, std::string unit, std::string rule, bool higherIsWorse)
{
    core::PartField f;
    f.name = std::move(name);
    f.unit = std::move(unit);
    f.rule = std::move(rule);
    f.higherIsWorse = higherIsWorse;
    f.values.resize(d.racks.size());
    for (std::size_t i = 0; i < d.racks.size(); ++i)
        f.values[i].assign(d.racks[i].slots.size(), NAN);
    return f;
}

/// Anchor a field's scale to its limits: good end, near edge, limit (NaN where it has none) and the
/// smallest meaningful difference. The bad end leaves room beyond the limit (a quarter of the
/// good-to-limit span), or half the good-to-near span beyond the near edge when there is no limit.
void anchor(core::PartField& f, double goodEnd, double nearLimit, std::string nearLabel, double limit,
            std::string limitLabel, double minSpan)
{
    f.goodEnd = goodEnd;
    f.nearLimit = nearLimit;
    f.nearLabel = std::move(nearLabel);
    f.limit = limit;
    f.limitLabel = std::move(limitLabel);
    f.minSpan = minSpan;
    f.badEnd = std::isfinite(limit) ? limit + 0.25 * (limit - goodEnd) : nearLimit + 0.5 * (nearLimit - goodEnd);
}

/// The smallest differences that mean something (stated once, used by every field of the unit):
/// temperatures 0.1 K (the fan control holds a junction to 5 mK, the model is not that good),
/// percentages of a rating 0.5 %, power 0.05 kW, hold-up 1 s, link margin 0.1 dB.
constexpr double kSpanK = 0.1, kSpanPct = 0.5, kSpanKw = 0.05, kSpanS = 1.0, kSpanDb = 0.1;

std::string classLimitLabel(const core::Design& d)
{
    std::string s = d.site.ashraeClass + " allowable";
    if (d.site.altitudeM > 900.0)
        s += " at " + std::to_string(static_cast<int>(std::lround(d.site.altitudeM))) + " m";
    return s;
}

void thermalFields(const core::Design& d, const thermal::ThermalResult& t, double minExhaustDtK,
                   std::vector<core::PartField>& out)
{
    // Each chassis at its own inlet against the limit thermal.inlet.chassis judges it by, the
    // class's recommended range below it.
    core::PartField inlet = blank(d, "Inlet temperature", "degC", "thermal.inlet.chassis", true);
    const thermal::InletRange rec = thermal::ashraeRecommended(d.site.ashraeClass);
    const double allowC = thermal::deratedMaxInletK(d.site.ashraeClass, d.site.altitudeM) - kC;
    // The recommended maximum no higher than the derated allowable (as RCI_HI takes it).
    const double recMaxC = thermal::rciHiBounds(d.site.ashraeClass, d.site.altitudeM).recommendedMaxK - kC;
    if (rec.maxK > 0)
        anchor(inlet, std::min(rec.minK - kC, recMaxC), recMaxC, d.site.ashraeClass + " recommended", allowC,
               classLimitLabel(d), kSpanK);
    else
        anchor(inlet, allowC - 17.0, NAN, "", allowC, classLimitLabel(d), kSpanK);
    // The hottest GPU of each chassis against its own GPU's limits: the fan-control setpoint
    // (thermal.gpu.setpoint warns 0.05 K above it) and the maximum operating temperature
    // (thermal.gpu.junction). A GPU without them is not judged: no band, drawn as "no figure".
    core::PartField junction = blank(d, "GPU junction", "degC", "thermal.gpu.junction", true);
    core::PartField margin = blank(d, "GPU margin to limit", "K", "thermal.gpu.junction", false);
    core::PartField rise = blank(d, "Exhaust rise", "K", "thermal.exhaust.dt", false);
    core::PartField fan = blank(d, "Fan speed", "%", "", true);
    junction.limits = junction.values;
    junction.nearLimits = junction.values;
    margin.limits = margin.values;
    margin.nearLimits = margin.values;
    double maxOpC = NAN, nearC = NAN;
    for (const thermal::RackThermal& r : t.racks)
        for (const thermal::ChassisThermal& c : r.chassis) {
            if (c.rack < 0 || c.slot < 0)
                continue;
            const auto ri = static_cast<std::size_t>(c.rack), si = static_cast<std::size_t>(c.slot);
            inlet.values[ri][si] = c.inletK - kC;
            junction.values[ri][si] = c.judgedJunctionK() - kC;
            junction.limits[ri][si] = c.maxOperatingK - kC;
            junction.nearLimits[ri][si] = c.setpointK + 0.05 - kC;
            margin.values[ri][si] = c.maxOperatingK - c.judgedJunctionK();
            margin.limits[ri][si] = std::isfinite(c.maxOperatingK) ? 0.0 : NAN;
            margin.nearLimits[ri][si] = c.maxOperatingK - (c.setpointK + 0.05);
            rise.values[ri][si] = c.exhaustK - c.inletK;
            fan.values[ri][si] = c.fanSpeed * 100.0;
            if (std::isfinite(c.maxOperatingK))
                maxOpC = std::isfinite(maxOpC) ? std::max(maxOpC, c.maxOperatingK - kC) : c.maxOperatingK - kC;
            if (std::isfinite(c.setpointK))
                nearC = std::isfinite(nearC) ? std::max(nearC, c.setpointK + 0.05 - kC) : c.setpointK + 0.05 - kC;
        }
    // The switches, judged at their own intake too (thermal.inlet.switch): coloured on the same scale.
    for (std::size_t ri = 0; ri < t.racks.size() && ri < inlet.values.size(); ++ri)
        for (const thermal::RackThermal::SwitchInlet& sw : t.racks[ri].switches)
            if (sw.slot >= 0 && static_cast<std::size_t>(sw.slot) < inlet.values[ri].size()) {
                inlet.values[ri][static_cast<std::size_t>(sw.slot)] = sw.inletK - kC;
                if (inlet.rules.size() != inlet.values.size()) {
                    inlet.rules.resize(inlet.values.size());
                    for (std::size_t k = 0; k < inlet.values.size(); ++k)
                        inlet.rules[k].resize(inlet.values[k].size());
                }
                inlet.rules[ri][static_cast<std::size_t>(sw.slot)] = "thermal.inlet.switch";
            }
    // The scale's labels name the hottest GPU type's limits (each part is judged by its own).
    if (std::isfinite(maxOpC)) {
        anchor(junction, (std::isfinite(nearC) ? nearC : maxOpC) - 40.0, nearC, "fan setpoint + 0.05 K", maxOpC,
               "max operating", kSpanK);
        anchor(margin, 30.0, std::isfinite(nearC) ? maxOpC - nearC : NAN, "fan setpoint + 0.05 K", 0.0, "max operating",
               kSpanK);
    }
    // An exhaust rise below the profile's efficiency target is an info finding: a near band, no fail.
    anchor(rise, minExhaustDtK + 8.0, minExhaustDtK, "efficiency target", NAN, "", kSpanK);
    // Fans cannot run beyond full speed: the last 10 % is the near band (the GPU rules judge the rest).
    anchor(fan, 0.0, 90.0, "near full speed", NAN, "", kSpanPct);
    fan.badEnd = 100.0;
    for (core::PartField* f : {&inlet, &junction, &margin, &rise, &fan}) {
        f->autoRange();
        out.push_back(std::move(*f));
    }
}

void powerFields(const core::Design& d, const power::PowerResult& p, std::vector<core::PartField>& out)
{
    core::PartField draw = blank(d, "Part power", "kW", "", true);
    draw.minSpan = kSpanKw;
    core::PartField n1 = blank(d, "Rack load vs N+1", "%", "orv3.shelf.n1", true);
    core::PartField feed = blank(d, "Rack load vs feed loss", "%", "orv3.feed.loss", true);
    core::PartField bar = blank(d, "Busbar current", "%", "orv3.busbar.current", true);
    core::PartField clip = blank(d, "Clip current", "%", "orv3.busbar.current", true);
    core::PartField holdup = blank(d, "Battery hold-up", "s", "orv3.bbu.holdup", false);
    anchor(n1, 0.0, 90.0, "", 100.0, "N+1 capacity", kSpanPct);
    anchor(feed, 0.0, 90.0, "", 100.0, "one feed's capacity", kSpanPct);
    anchor(bar, 0.0, 90.0, "", 100.0, "busbar rating", kSpanPct);
    anchor(clip, 0.0, 90.0, "", 100.0, "clip rating", kSpanPct);
    anchor(holdup, 3.0 * p.rideThroughS, 1.2 * p.rideThroughS, "", p.rideThroughS, "required ride-through", kSpanS);
    bool anyClip = false;
    for (const power::RackPower& r : p.racks) {
        if (r.rack < 0)
            continue;
        const auto ri = static_cast<std::size_t>(r.rack);
        const core::Rack& rack = d.racks[ri];
        std::map<std::string, double> byId, clipPct;
        for (const power::PartPower& pp : r.parts)
            byId[pp.id] = pp.budgetW / 1e3;
        if (r.clipRatingA > 0)
            for (const power::ClipCurrent& c : r.clips)
                clipPct[c.id] = 100.0 * c.currentA / r.clipRatingA;
        const double n1Pct = r.n1LimitW() > 0 ? 100.0 * r.itLoadW / r.n1LimitW() : NAN;
        const double feedPct = r.capacityFeedLossW > 0 ? 100.0 * r.itLoadW / r.capacityFeedLossW : NAN;
        const double barPct = r.busbarRatingA > 0 ? 100.0 * r.busbarCurrentA / r.busbarRatingA : NAN;
        const double hold = std::isfinite(r.bbuHoldupS) ? r.bbuHoldupS : NAN;
        for (std::size_t si = 0; si < rack.slots.size(); ++si) {
            if (const auto it = byId.find(rack.slots[si].id); it != byId.end())
                draw.values[ri][si] = it->second;
            if (const auto it = clipPct.find(rack.slots[si].id); it != clipPct.end()) {
                clip.values[ri][si] = it->second;
                anyClip = true;
            }
            // Rack figures colour every part of the rack.
            n1.values[ri][si] = r.fed ? n1Pct : NAN;
            feed.values[ri][si] = r.fed ? feedPct : NAN;
            bar.values[ri][si] = barPct;
            holdup.values[ri][si] = r.fed ? hold : NAN;
        }
    }
    for (core::PartField* f : {&draw, &n1, &feed, &bar, &clip, &holdup}) {
        if (f == &clip && !anyClip)
            continue; // no rack type rated per clip
        f->autoRange();
        out.push_back(std::move(*f));
    }
}

} // namespace

namespace {

/// Worst link margin of every part at an end of a link class (COM or IL budget, dB).
core::PartField linkMargin(const core::Design& d, const signal::SignalResult& sig)
{
    core::PartField f = blank(d, "Link margin", "dB", "signal.link.close", false);
    anchor(f, 6.0, 1.0, "", 0.0, "COM threshold / loss budget", kSpanDb);
    for (std::size_t i = 0; i < d.links.size() && i < sig.links.size(); ++i) {
        const core::LinkClass& l = d.links[i];
        const double m = sig.links[i].marginDb;
        if (!std::isfinite(m))
            continue;
        for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
            // A class's margin belongs to the racks where it runs: those it applies to, and for a
            // rack-scope class those holding both its ends (a chassis whose rack has no switch has
            // no link, and read the class's 6.8 dB pass beside link.endpoint.missing; 2026-12-07).
            if (l.fromSlot.empty()) {
                if (!l.appliesTo(d.racks[ri]))
                    continue;
                if (l.scope == "rack") {
                    bool from = false, to = false;
                    for (const core::Slot& s : d.racks[ri].slots) {
                        from = from || s.part->slug == l.from.partSlug;
                        to = to || s.part->slug == l.to.partSlug;
                    }
                    if (!from || !to)
                        continue;
                }
            }
            for (std::size_t si = 0; si < d.racks[ri].slots.size(); ++si) {
                const core::Slot& s = d.racks[ri].slots[si];
                // A port-to-port link colours its two slots (by full id); a class, every part of its kinds.
                const bool end = !l.fromSlot.empty() ? s.id == l.fromSlot || s.id == l.toSlot
                                                     : s.part->slug == l.from.partSlug || s.part->slug == l.to.partSlug;
                if (end) {
                    double& v = f.values[ri][si];
                    v = std::isfinite(v) ? std::min(v, m) : m;
                }
            }
        }
    }
    f.autoRange();
    return f;
}

} // namespace

std::vector<core::PartField> resultFields(const core::Design& d, const power::PowerResult* power,
                                          const thermal::ThermalResult* thermal, const ThroughputResult* throughput,
                                          const signal::SignalResult* signal, double minExhaustDtK)
{
    std::vector<core::PartField> out;
    if (thermal)
        thermalFields(d, *thermal, std::isfinite(minExhaustDtK) ? minExhaustDtK : exhaustDtTarget(nullptr), out);
    if (power)
        powerFields(d, *power, out);
    if (power && thermal && throughput) {
        // Below full clock a GPU is throttled (by power or heat): the near band. At 0 % it is
        // stopped — no supply feeds its rack, or no air its chassis — which an error rule reports
        // (orv3.power.source, thermal.fan.failed, ...): the fail band (until 2026-12-07 an unfed
        // rack's GPUs were amber, the colour of a rack throttled to 72 %).
        core::PartField clock = blank(d, "GPU clock", "%", "", false);
        anchor(clock, 100.0, 99.95, "throttled", 0.0, "stopped", kSpanPct);
        clock.failAtLimit = true;
        clock.badEnd = -5.0; // a visible fail band; no clock is below 0 %
        const auto clocks = chassisClocks(d, *power, *thermal);
        for (std::size_t ri = 0; ri < clocks.size(); ++ri)
            for (std::size_t si = 0; si < clocks[ri].size(); ++si)
                clock.values[ri][si] = clocks[ri][si].ratio * 100.0;
        clock.autoRange();
        out.push_back(std::move(clock));
    }
    if (signal)
        out.push_back(linkMargin(d, *signal));
    return out;
}

void appendLiquidFields(const core::Design& d, const liquid::LiquidResult& L, const core::Profile* profile,
                        std::vector<core::PartField>& out)
{
    if (L.loops.empty())
        return;
    const core::CheckRegistry registry = makeRegistry();
    const core::RuleInfo* rule = registry.find("liquid.tray.flow");
    const double perW =
        profile ? profile->constraint(*rule, "flow_per_kw") : core::Profile{}.constraint(*rule, "flow_per_kw");
    core::PartField out_ = blank(d, "Coolant out temperature", "degC", "liquid.connector.temperature", true);
    core::PartField flow = blank(d, "Coolant flow vs allocation", "%", "liquid.tray.flow", false);
    core::PartField pressure = blank(d, "Connector pressure vs rating", "%", "liquid.connector.pressure", true);
    core::PartField load = blank(d, "CDU load vs capacity", "%", "liquid.cdu.heat", true);
    out_.limits = out_.values;
    out_.nearLimits = out_.values;
    double supplyC = INFINITY, maxC = NAN;
    for (const liquid::TrayLiquid& t : L.trays) {
        const auto ri = static_cast<std::size_t>(t.rack), si = static_cast<std::size_t>(t.slot);
        out_.values[ri][si] = t.outletC;
        out_.limits[ri][si] = t.connectorMaxC;
        out_.nearLimits[ri][si] = t.connectorMaxC - 5.0;
        supplyC = std::min(supplyC, t.inletC);
        if (std::isfinite(t.connectorMaxC))
            maxC = std::isfinite(maxC) ? std::max(maxC, t.connectorMaxC) : t.connectorMaxC;
        flow.values[ri][si] = t.heatW > 0 ? 100.0 * t.flowM3s / (t.heatW * perW) : NAN;
        pressure.values[ri][si] = std::isfinite(t.connectorMaxPa) ? 100.0 * t.supplyPortPa / t.connectorMaxPa : NAN;
        const liquid::RackLiquid& rack = L.racks[static_cast<std::size_t>(L.rackOf[ri])];
        const liquid::LoopLiquid& loop = L.loops[static_cast<std::size_t>(rack.loop)];
        // The heat liquid.cdu.heat judges: on the budget's basis where that is more than the running heat.
        const double heatW = std::max(loop.heatW, loop.basisHeatW);
        // Against the capacity it judges: the rating, or less at the flow its control sets (limitW).
        load.values[ri][si] = loop.limitW() > 0 ? 100.0 * heatW / loop.limitW() : INFINITY;
    }
    if (std::isfinite(maxC))
        anchor(out_, supplyC, maxC - 5.0, "5 K below the connector's maximum", maxC, "connector maximum", kSpanK);
    // Below the allocation fails; the first 5 % above it is the near band.
    anchor(flow, 130.0, 105.0, "within 5 % of the allocation", 100.0, "allocation", kSpanPct);
    anchor(pressure, 0.0, 90.0, "90 % of the rating", 100.0, "rating", kSpanPct);
    anchor(load, 0.0, 90.0, "90 % of capacity", 100.0, "capacity", kSpanPct);
    for (core::PartField* f : {&out_, &flow, &pressure, &load}) {
        f->autoRange();
        out.push_back(std::move(*f));
    }
}

double exhaustDtTarget(const core::Profile* profile)
{
    const core::CheckRegistry registry = makeRegistry();
    const core::RuleInfo* rule = registry.find("thermal.exhaust.dt");
    if (!rule)
        return NAN;
    return profile ? profile->constraint(*rule, "min_exhaust_dt") : core::Profile{}.constraint(*rule, "min_exhaust_dt");
}

} // namespace rdt::analysis
