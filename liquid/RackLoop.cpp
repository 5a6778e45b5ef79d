#include "liquid/RackLoop.h"

#include <algorithm>
#include <cmath>
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

/// The network of `spec`, nodes: 0 the source's suction (the reference), 1 its discharge, 2 + i the
/// supply port of tray i, 2 + n + i its return port. Branches in this order: source, supply line,
/// n − 1 supply segments, n trays, n − 1 return segments, return line.
Network build(const RackLoopSpec& spec)
{
    const int n = static_cast<int>(spec.trays.size());
    if (n == 0)
        throw NetworkError("a rack loop needs at least one tray");
    if (spec.supplyLine.empty() || spec.returnLine.empty())
        throw NetworkError("a rack loop needs its supply and return lines (the rack's connector at least)");
    if (spec.source.kind != Element::Kind::Pump)
        throw NetworkError("a rack loop's source is a pump (a CDU's, or the facility's pressure as a flat curve)");
    Network net;
    net.nodes = {"source suction", "source discharge"};
    for (int i = 0; i < n; ++i)
        net.nodes.push_back(spec.trays[static_cast<std::size_t>(i)].id + " supply port");
    for (int i = 0; i < n; ++i)
        net.nodes.push_back(spec.trays[static_cast<std::size_t>(i)].id + " return port");
    const auto sup = [](int i) { return 2 + i; };
    const auto ret = [n](int i) { return 2 + n + i; };
    net.branches.push_back({"source", 0, 1, {spec.source}});
    net.branches.push_back({"supply line", 1, sup(0), spec.supplyLine});
    for (int i = 0; i + 1 < n; ++i)
        net.branches.push_back({"supply manifold " + std::to_string(i + 1), sup(i), sup(i + 1),
                                {segment(spec.manifoldSegment, "supply manifold segment")}});
    for (int i = 0; i < n; ++i) {
        const TraySpec& t = spec.trays[static_cast<std::size_t>(i)];
        Branch b{"tray " + t.id, sup(i), ret(i), t.couplers};
        Element loop;
        loop.kind = Element::Kind::Curve;
        loop.curve = t.loop;
        loop.name = "tray " + t.id + " cold-plate loop";
        b.elements.push_back(loop);
        net.branches.push_back(b);
    }
    for (int i = 0; i + 1 < n; ++i) {
        const bool direct = spec.returns == ManifoldReturn::Direct;
        net.branches.push_back({"return manifold " + std::to_string(i + 1), direct ? ret(i + 1) : ret(i),
                                direct ? ret(i) : ret(i + 1), {segment(spec.manifoldSegment, "return manifold segment")}});
    }
    net.branches.push_back(
        {"return line", spec.returns == ManifoldReturn::Direct ? ret(0) : ret(n - 1), 0, spec.returnLine});
    return net;
}

} // namespace

RackLoopResult solveRackLoop(const RackLoopSpec& spec)
{
    const Network net = build(spec);
    const int n = static_cast<int>(spec.trays.size());
    const int firstTray = 2 + (n - 1);
    RackLoopResult out;
    // Properties at the supply, then again at the loop's mean temperature (one more solve: the
    // viscosity changes the friction, the density the heat each flow carries).
    double meanC = spec.supplyC;
    for (int pass = 0; pass < 2; ++pass) {
        const models::CoolantProperties props = models::coolantProperties(spec.coolant, meanC);
        out.propertiesC = meanC;
        out.hydraulics = solve(net, Fluid{props.density, props.viscosity}, pass == 0 ? nullptr : &out.hydraulics);
        const Solution& s = out.hydraulics;
        out.trays.clear();
        out.flowM3s = s.flowM3s[0];
        out.heatW = 0;
        double carried = 0;
        for (int i = 0; i < n; ++i) {
            const TraySpec& t = spec.trays[static_cast<std::size_t>(i)];
            TrayResult r;
            r.id = t.id;
            r.flowM3s = s.flowM3s[static_cast<std::size_t>(firstTray + i)];
            r.supplyPortPa = s.pressurePa[static_cast<std::size_t>(2 + i)];
            r.returnPortPa = s.pressurePa[static_cast<std::size_t>(2 + n + i)];
            r.dropPa = r.supplyPortPa - r.returnPortPa;
            r.inletC = spec.supplyC;
            const double rate = props.density * props.specificHeat * r.flowM3s;
            r.outletC = rate > 0 ? spec.supplyC + t.heatW / rate : std::numeric_limits<double>::infinity();
            const int plates = std::max(1, t.plates);
            const PlateRise rise = plateRise(t.plate, r.flowM3s / plates, t.heatW / plates);
            r.plateMeasured = rise.measured;
            r.caseRiseK = rise.riseK;
            r.caseC = r.inletC + rise.riseK;
            out.heatW += t.heatW;
            carried += rate * r.outletC;
            out.trays.push_back(r);
        }
        const double total = props.density * props.specificHeat * out.flowM3s;
        out.returnC = total > 0 ? carried / total : std::numeric_limits<double>::infinity();
        out.sourcePa = s.pressurePa[1] - s.pressurePa[0];
        // Spread of the flow each tray gets per watt it puts into the liquid (for equal trays the
        // flow spread the ORv3 manifold limits; for mixed trays their coolant rises' spread).
        double lo = std::numeric_limits<double>::infinity(), hi = 0, sum = 0;
        int heated = 0;
        for (std::size_t i = 0; i < out.trays.size(); ++i) {
            if (!(spec.trays[i].heatW > 0))
                continue;
            const double specific = out.trays[i].flowM3s / spec.trays[i].heatW;
            lo = std::min(lo, specific);
            hi = std::max(hi, specific);
            sum += specific;
            ++heated;
        }
        out.spread = heated > 0 && sum > 0 ? (hi - lo) / (sum / heated) : 0.0;
        const models::CoolantRange range = models::coolantRange(spec.coolant);
        meanC = std::clamp(0.5 * (spec.supplyC + out.returnC), range.minC, range.maxC);
    }
    return out;
}

} // namespace rdt::liquid
