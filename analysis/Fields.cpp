#include "analysis/Fields.h"

#include <cmath>
#include <map>

#include "thermal/ThermalChecks.h"

namespace rdt::analysis {

namespace {

constexpr double kC = 273.15;

core::PartField blank(const core::Design& d, std::string name, std::string unit, std::string rule, bool higherIsWorse,
                      double limit = NAN)
{
    core::PartField f;
    f.name = std::move(name);
    f.unit = std::move(unit);
    f.rule = std::move(rule);
    f.higherIsWorse = higherIsWorse;
    f.limit = limit;
    f.values.resize(d.racks.size());
    for (std::size_t i = 0; i < d.racks.size(); ++i)
        f.values[i].assign(d.racks[i].slots.size(), NAN);
    return f;
}

void thermalFields(const core::Design& d, const thermal::ThermalResult& t, std::vector<core::PartField>& out)
{
    // Each chassis at its own inlet against the limit thermal.inlet.chassis judges it by.
    core::PartField inlet = blank(d, "Inlet temperature", "degC", "thermal.inlet.chassis", true,
                                  thermal::deratedMaxInletK(d.site.ashraeClass, d.site.altitudeM) - kC);
    core::PartField junction = blank(d, "GPU junction", "degC", "thermal.gpu.junction", true);
    core::PartField margin = blank(d, "GPU margin to limit", "K", "thermal.gpu.junction", false, 0.0);
    core::PartField rise = blank(d, "Exhaust rise", "K", "thermal.exhaust.dt", true);
    core::PartField fan = blank(d, "Fan speed", "%", "thermal.gpu.setpoint", true, 100.0);
    for (const thermal::RackThermal& r : t.racks)
        for (const thermal::ChassisThermal& c : r.chassis) {
            if (c.rack < 0 || c.slot < 0)
                continue;
            const auto ri = static_cast<std::size_t>(c.rack), si = static_cast<std::size_t>(c.slot);
            inlet.values[ri][si] = c.inletK - kC;
            junction.values[ri][si] = c.gpuJunctionK - kC;
            margin.values[ri][si] = c.maxOperatingK - c.gpuJunctionK;
            rise.values[ri][si] = c.exhaustK - c.inletK;
            fan.values[ri][si] = c.fanSpeed * 100.0;
        }
    for (core::PartField* f : {&inlet, &junction, &margin, &rise, &fan}) {
        f->autoRange();
        out.push_back(std::move(*f));
    }
}

void powerFields(const core::Design& d, const power::PowerResult& p, std::vector<core::PartField>& out)
{
    core::PartField draw = blank(d, "Part power", "kW", "", true);
    core::PartField n1 = blank(d, "Rack load vs N+1", "%", "orv3.shelf.n1", true, 100.0);
    core::PartField feed = blank(d, "Rack load vs feed loss", "%", "orv3.feed.loss", true, 100.0);
    core::PartField bar = blank(d, "Busbar current", "%", "orv3.busbar.current", true, 100.0);
    core::PartField holdup = blank(d, "Battery hold-up", "s", "orv3.bbu.holdup", false);
    for (const power::RackPower& r : p.racks) {
        if (r.rack < 0)
            continue;
        const auto ri = static_cast<std::size_t>(r.rack);
        const core::Rack& rack = d.racks[ri];
        std::map<std::string, double> byId;
        for (const power::PartPower& pp : r.parts)
            byId[pp.id] = pp.budgetW / 1e3;
        const double n1Pct = r.capacityN1W > 0 ? 100.0 * r.itLoadW / r.capacityN1W : NAN;
        const double feedPct = r.capacityFeedLossW > 0 ? 100.0 * r.itLoadW / r.capacityFeedLossW : NAN;
        const double barPct = r.busbarRatingA > 0 ? 100.0 * r.busbarCurrentA / r.busbarRatingA : NAN;
        const double hold = std::isfinite(r.bbuHoldupS) ? r.bbuHoldupS : NAN;
        for (std::size_t si = 0; si < rack.slots.size(); ++si) {
            if (const auto it = byId.find(rack.slots[si].id); it != byId.end())
                draw.values[ri][si] = it->second;
            // Rack figures colour every part of the rack.
            n1.values[ri][si] = r.fed ? n1Pct : NAN;
            feed.values[ri][si] = r.fed ? feedPct : NAN;
            bar.values[ri][si] = barPct;
            holdup.values[ri][si] = r.fed ? hold : NAN;
        }
    }
    for (core::PartField* f : {&draw, &n1, &feed, &bar, &holdup}) {
        f->autoRange();
        out.push_back(std::move(*f));
    }
}

} // namespace

namespace {

/// Worst link margin of every part at an end of a link class (COM or IL budget, dB).
core::PartField linkMargin(const core::Design& d, const signal::SignalResult& sig)
{
    core::PartField f = blank(d, "Link margin", "dB", "signal.link.close", false, 0.0);
    for (std::size_t i = 0; i < d.links.size() && i < sig.links.size(); ++i) {
        const core::LinkClass& l = d.links[i];
        const double m = sig.links[i].marginDb;
        if (!std::isfinite(m))
            continue;
        for (std::size_t ri = 0; ri < d.racks.size(); ++ri)
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
    f.autoRange();
    return f;
}

} // namespace

std::vector<core::PartField> resultFields(const core::Design& d, const power::PowerResult* power,
                                          const thermal::ThermalResult* thermal, const ThroughputResult* throughput,
                                          const signal::SignalResult* signal)
{
    std::vector<core::PartField> out;
    if (thermal)
        thermalFields(d, *thermal, out);
    if (power)
        powerFields(d, *power, out);
    if (power && thermal && throughput) {
        core::PartField clock = blank(d, "GPU clock", "%", "", false, 100.0);
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

} // namespace rdt::analysis
