#include "liquid/RackLoop.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rdt::liquid {
namespace {

Element segment(const Pipe& p, const std::string& name)
{
    Element e;
    e.kind = Element::Kind::Pipe;
    e.pipe = p;
    e.name = name;
    return e;
}

/// Where a rack's loop sits in a network: its tray branches' first index and its ports.
struct RackNodes {
    int firstTray = 0;
    std::vector<int> supplyPorts, returnPorts;
};

/// Add the rack of `spec` (its lines, manifold and trays; not its source) between node `from`
/// (where its supply line starts) and node `to` (where its return line ends). Branches in this
/// order: supply line, n − 1 supply segments, n trays, n − 1 return segments, return line.
RackNodes addRack(Network& net, const RackLoopSpec& spec, int from, int to, const std::string& prefix)
{
    const int n = static_cast<int>(spec.trays.size());
    if (n == 0)
        throw NetworkError(prefix + "a rack loop needs at least one tray");
    if (spec.supplyLine.empty() || spec.returnLine.empty())
        throw NetworkError(prefix + "a rack loop needs its supply and return lines (the rack's connector at least)");
    RackNodes r;
    const int base = static_cast<int>(net.nodes.size());
    for (int i = 0; i < n; ++i) {
        net.nodes.push_back(prefix + spec.trays[static_cast<std::size_t>(i)].id + " supply port");
        r.supplyPorts.push_back(base + i);
    }
    for (int i = 0; i < n; ++i) {
        net.nodes.push_back(prefix + spec.trays[static_cast<std::size_t>(i)].id + " return port");
        r.returnPorts.push_back(base + n + i);
    }
    const auto sup = [&](int i) { return r.supplyPorts[static_cast<std::size_t>(i)]; };
    const auto ret = [&](int i) { return r.returnPorts[static_cast<std::size_t>(i)]; };
    net.branches.push_back({prefix + "supply line", from, sup(0), spec.supplyLine});
    for (int i = 0; i + 1 < n; ++i)
        net.branches.push_back({prefix + "supply manifold " + std::to_string(i + 1),
                                sup(i),
                                sup(i + 1),
                                {segment(spec.manifoldSegment, prefix + "supply manifold segment")}});
    r.firstTray = static_cast<int>(net.branches.size());
    for (int i = 0; i < n; ++i) {
        const TraySpec& t = spec.trays[static_cast<std::size_t>(i)];
        Branch b{prefix + "tray " + t.id, sup(i), ret(i), t.couplers};
        Element loop;
        loop.kind = Element::Kind::Curve;
        loop.curve = t.loop;
        loop.name = prefix + "tray " + t.id + " cold-plate loop";
        b.elements.push_back(loop);
        net.branches.push_back(b);
    }
    const bool direct = spec.returns == ManifoldReturn::Direct;
    for (int i = 0; i + 1 < n; ++i)
        net.branches.push_back({prefix + "return manifold " + std::to_string(i + 1),
                                direct ? ret(i + 1) : ret(i),
                                direct ? ret(i) : ret(i + 1),
                                {segment(spec.manifoldSegment, prefix + "return manifold segment")}});
    net.branches.push_back({prefix + "return line", direct ? ret(0) : ret(n - 1), to, spec.returnLine});
    return r;
}

void checkSource(const Element& source)
{
    if (source.kind != Element::Kind::Pump)
        throw NetworkError("a loop's source is a pump (a CDU's, or the facility's pressure as a flat curve)");
}

/// The rack's trays from a solution: flows, port pressures, rises, plates; the rack's totals.
RackLoopResult rackResult(const RackLoopSpec& spec, const Solution& s, const RackNodes& at,
                          const models::CoolantProperties& props, double supplyC)
{
    RackLoopResult out;
    const int n = static_cast<int>(spec.trays.size());
    double carried = 0;
    for (int i = 0; i < n; ++i) {
        const TraySpec& t = spec.trays[static_cast<std::size_t>(i)];
        TrayResult r;
        r.id = t.id;
        r.flowM3s = s.flowM3s[static_cast<std::size_t>(at.firstTray + i)];
        r.supplyPortPa = s.pressurePa[static_cast<std::size_t>(at.supplyPorts[static_cast<std::size_t>(i)])];
        r.returnPortPa = s.pressurePa[static_cast<std::size_t>(at.returnPorts[static_cast<std::size_t>(i)])];
        r.dropPa = r.supplyPortPa - r.returnPortPa;
        r.inletC = supplyC;
        const double rate = props.density * props.specificHeat * r.flowM3s;
        r.outletC = rate > 0 ? supplyC + t.heatW / rate : std::numeric_limits<double>::infinity();
        const int plates = std::max(1, t.plates);
        const PlateRise rise = plateRise(t.plate, r.flowM3s / plates, t.heatW / plates);
        r.plateMeasured = rise.measured;
        r.caseRiseK = rise.riseK;
        r.caseC = r.inletC + rise.riseK;
        out.heatW += t.heatW;
        out.flowM3s += r.flowM3s;
        if (rate > 0)
            carried += rate * r.outletC; // a tray with no flow (starved) carries nothing to the mix
        out.trays.push_back(r);
    }
    const double total = props.density * props.specificHeat * out.flowM3s;
    out.returnC = total > 0 ? carried / total : std::numeric_limits<double>::infinity();
    // The manifold's flow spread among equal trays (the ORv3 manifold's criterion), the widest kind's:
    // flow alone, so that trays at part load beside full ones are not a manifold fault (until
    // 2026-12-08 it was the spread of flow per watt of the running heat, and a rack with its trays at
    // 50 % but one read a 51 % spread for a manifold that gave every tray the same 2.81 L/min).
    out.spread = 0;
    for (std::size_t i = 0; i < out.trays.size(); ++i) {
        double lo = std::numeric_limits<double>::infinity(), hi = 0, sum = 0;
        int alike = 0;
        bool first = true;
        for (std::size_t j = 0; j < out.trays.size(); ++j) {
            if (spec.trays[j].kind != spec.trays[i].kind)
                continue;
            first = first && j >= i;
            lo = std::min(lo, out.trays[j].flowM3s);
            hi = std::max(hi, out.trays[j].flowM3s);
            sum += out.trays[j].flowM3s;
            ++alike;
        }
        if (first && alike > 1 && sum > 0) // each kind once, at its first tray
            out.spread = std::max(out.spread, (hi - lo) / (sum / alike));
    }
    return out;
}

} // namespace

void checkCarries(double returnC, double flowM3s, double heatW)
{
    // A loop whose mixed return would boil carries no heat the single-phase model can describe: a pump
    // with almost no head (0.001 kPa) moved a trickle, and the loop read "return 3303.7 degC" beside
    // "holds its setpoint" (trust trial). Water boils at 100 degC at atmospheric pressure; PG25 a
    // little above: 100 degC is the conservative bound for both (the fill pressure is not counted on).
    constexpr double kBoilingC = 100.0;
    if (!(returnC > kBoilingC))
        return;
    char b[320];
    std::snprintf(b, sizeof b,
                  "the pumps move %.3g L/min, too little for the loop's %.1f kW: its coolant would return at %.0f "
                  "degC, past boiling (%.0f degC at atmospheric pressure), and the loop cannot carry its heat",
                  flowM3s * 6e4, heatW / 1e3, returnC, kBoilingC);
    throw NetworkError(b);
}

RackLoopResult solveRackLoop(const RackLoopSpec& spec)
{
    checkSource(spec.source);
    Network net;
    net.referencePa = 0; // gauge: the pumps' suction (the tank's side) at zero; the design adds its fill pressure
    net.nodes = {"source suction", "source discharge"};
    net.branches.push_back({"source", 0, 1, {spec.source}});
    const RackNodes at = addRack(net, spec, 1, 0, "");
    RackLoopResult out;
    Solution s;
    // Properties at the supply, then again at the loop's mean temperature (one more solve, warm:
    // the viscosity changes the friction, the density the heat each flow carries).
    double meanC = spec.supplyC;
    for (int pass = 0; pass < 2; ++pass) {
        const models::CoolantProperties props = models::coolantProperties(spec.coolant, meanC);
        s = solve(net, Fluid{props.density, props.viscosity}, pass == 0 ? nullptr : &s);
        out = rackResult(spec, s, at, props, spec.supplyC);
        out.propertiesC = meanC;
        out.sourcePa = s.pressurePa[1] - s.pressurePa[0];
        out.pumpPowerW = pumpPowerW(spec.source.pump, out.flowM3s, out.sourcePa);
        const models::CoolantRange range = models::coolantRange(spec.coolant);
        meanC = std::clamp(0.5 * (spec.supplyC + out.returnC), range.minC, range.maxC);
    }
    checkCarries(out.returnC, out.flowM3s, out.heatW);
    out.hydraulics = std::move(s);
    return out;
}

RowLoopResult solveRowLoop(const RowLoopSpec& spec)
{
    checkSource(spec.source);
    if (spec.racks.empty())
        throw NetworkError("a row loop needs at least one rack");
    if (!(spec.facilityRate > 0) || !(spec.ua > 0))
        throw NetworkError("a row loop's CDU needs its UA and the facility water's capacity rate (W/K) > 0");
    const int m = static_cast<int>(spec.racks.size());
    Network net;
    net.referencePa = 0; // gauge: the pumps' suction (the tank's side) at zero; the design adds its fill pressure
    net.nodes = {"CDU suction", "CDU discharge"};
    net.branches.push_back({"CDU pumps", 0, 1, {spec.source}});
    // Headers: rack j's supply tee and return tee; the supply header runs from the CDU along the row.
    std::vector<int> supplyTee, returnTee;
    for (int j = 0; j < m; ++j) {
        supplyTee.push_back(static_cast<int>(net.nodes.size()));
        net.nodes.push_back("rack " + std::to_string(j + 1) + " supply tee");
        returnTee.push_back(static_cast<int>(net.nodes.size()));
        net.nodes.push_back("rack " + std::to_string(j + 1) + " return tee");
    }
    Element header = segment(spec.headerSegment, "header segment");
    for (int j = 0; j < m; ++j)
        net.branches.push_back({"supply header " + std::to_string(j + 1),
                                j == 0 ? 1 : supplyTee[static_cast<std::size_t>(j - 1)],
                                supplyTee[static_cast<std::size_t>(j)],
                                {header}});
    const bool direct = spec.headerReturns == ManifoldReturn::Direct;
    for (int j = 0; j + 1 < m; ++j)
        net.branches.push_back(
            {"return header " + std::to_string(j + 1),
             direct ? returnTee[static_cast<std::size_t>(j + 1)] : returnTee[static_cast<std::size_t>(j)],
             direct ? returnTee[static_cast<std::size_t>(j)] : returnTee[static_cast<std::size_t>(j + 1)],
             {header}});
    // Back to the CDU: one segment from the first rack (direct), the whole row from the last (reverse).
    Element back = header;
    back.name = "return header to the CDU";
    if (!direct)
        back.pipe.lengthM *= m;
    net.branches.push_back({"return header to the CDU", direct ? returnTee.front() : returnTee.back(), 0, {back}});
    std::vector<RackNodes> at;
    for (int j = 0; j < m; ++j)
        at.push_back(addRack(net, spec.racks[static_cast<std::size_t>(j)], supplyTee[static_cast<std::size_t>(j)],
                             returnTee[static_cast<std::size_t>(j)], "rack " + std::to_string(j + 1) + " "));
    RowLoopResult out;
    Solution s;
    const models::CoolantRange range = models::coolantRange(spec.coolant);
    double meanC = std::clamp(spec.facilitySupplyC + 10.0, range.minC, range.maxC);
    for (int pass = 0; pass < 3; ++pass) {
        const models::CoolantProperties props = models::coolantProperties(spec.coolant, meanC);
        s = solve(net, Fluid{props.density, props.viscosity}, pass == 0 ? nullptr : &s);
        out.flowM3s = s.flowM3s[0];
        const double itRate = props.density * props.specificHeat * out.flowM3s;
        // No pump running, or flow below a millilitre a minute: nothing carries the heat.
        if (spec.source.pump.failed >= spec.source.pump.count || !(out.flowM3s > 1.0e-9 / 60.0) || !(itRate > 0))
            throw NetworkError("the CDU's pumps move no coolant (every pump failed, or none can overcome the loop): "
                               "the row has no liquid cooling");
        double heat = 0;
        for (int j = 0; j < m; ++j)
            for (const TraySpec& t : spec.racks[static_cast<std::size_t>(j)].trays)
                heat += t.heatW;
        // Steady state: the CDU removes what the racks put in. Q = ε C_min (T_return − T_fws), and
        // T_return = T_supply + Q / C_it.
        const double cmin = std::min(itRate, spec.facilityRate), cmax = std::max(itRate, spec.facilityRate);
        const double eps = counterflowEffectiveness(spec.ua / cmin, cmin / cmax);
        const double floatingC = spec.facilitySupplyC + heat / (eps * cmin) - heat / itRate;
        out.capacityW = cduCapacity(spec.ua, spec.supplySetpointC, spec.facilitySupplyC, itRate, spec.facilityRate);
        out.holdsSetpoint = out.capacityW >= heat;
        out.supplyC = out.holdsSetpoint ? spec.supplySetpointC : floatingC;
        out.returnC = out.supplyC + heat / itRate;
        out.heatW = heat;
        out.racks.clear();
        for (int j = 0; j < m; ++j)
            out.racks.push_back(rackResult(spec.racks[static_cast<std::size_t>(j)], s, at[static_cast<std::size_t>(j)],
                                           props, out.supplyC));
        out.propertiesC = meanC;
        out.sourcePa = s.pressurePa[1] - s.pressurePa[0];
        out.pumpPowerW = pumpPowerW(spec.source.pump, out.flowM3s, out.sourcePa);
        meanC = std::clamp(0.5 * (out.supplyC + out.returnC), range.minC, range.maxC);
    }
    out.hydraulics = std::move(s);
    return out;
}

} // namespace rdt::liquid
