// Benchmark (issue 37): one liquid-cooled rack's loop — 27 trays (18 compute, 9 switch) of a GB200
// NVL72-class rack on a reverse-return manifold, CDU pumps, PG25 — solved with its heat; then every
// rack of a 24,576-GPU liquid hall (342 racks of 72 GPUs), each its own loop. Against a baseline in
// the same run: one evaluation of every element's pressure drop at the solved flows (the floor of
// any method: the solve costs this many of them), and the budgets (1 ms a rack, 1 s a hall).
#include <cstdio>

#include "BenchUtil.h"
#include "liquid/RackLoop.h"

using namespace rdt;
using liquid::Element;

namespace {

constexpr double kLpm = 1.0e-3 / 60.0;

liquid::RackLoopSpec nvl72Rack()
{
    liquid::RackLoopSpec s;
    s.supplyC = 30.0;
    s.source.kind = Element::Kind::Pump;
    s.source.pump = {300e3, 450 * kLpm, 1.0, 2, 0};
    Element lqc;
    lqc.kind = Element::Kind::Connector;
    lqc.connector.cv = 12.0;
    s.supplyLine = {lqc};
    s.returnLine = {lqc};
    s.manifoldSegment = {0.0445 * 1.5, 0.035, 0.0015e-3};
    s.returns = liquid::ManifoldReturn::Reverse;
    for (int i = 0; i < 27; ++i) {
        liquid::TraySpec t;
        const bool compute = i % 3 != 2;
        t.id = (compute ? "ct" : "sw") + std::to_string(i + 1);
        t.heatW = compute ? 6400 : 1500;
        t.loop = {30e3, (compute ? 9.6 : 2.4) * kLpm, 1.85};
        Element qd;
        qd.kind = Element::Kind::Connector;
        qd.connector.cv = 0.80;
        t.couplers = {qd, qd};
        t.plate.resistance = {{0.5 * kLpm, 0.02}, {2.0 * kLpm, 0.0135}, {4.0 * kLpm, 0.0125}};
        t.plates = compute ? 4 : 1;
        s.trays.push_back(t);
    }
    return s;
}

} // namespace

int main()
{
    const liquid::RackLoopSpec spec = nvl72Rack();
    liquid::RackLoopResult r;
    const double rack = medianSeconds(201, [&] { r = liquid::solveRackLoop(spec); });
    // Baseline: every element's drop once, at the solved flows.
    const models::CoolantProperties p = models::coolantProperties(spec.coolant, r.propertiesC);
    const liquid::Fluid f{p.density, p.viscosity};
    volatile double sink = 0;
    const double once = medianSeconds(2001, [&] {
        double s = -liquid::elementDrop(spec.source, f, r.flowM3s);
        for (const Element& e : spec.supplyLine)
            s += liquid::elementDrop(e, f, r.flowM3s);
        for (std::size_t i = 0; i < spec.trays.size(); ++i) {
            for (const Element& e : spec.trays[i].couplers)
                s += liquid::elementDrop(e, f, r.trays[i].flowM3s);
            Element loop;
            loop.kind = Element::Kind::Curve;
            loop.curve = spec.trays[i].loop;
            s += liquid::elementDrop(loop, f, r.trays[i].flowM3s);
            s += 2 * liquid::elementDrop(Element{Element::Kind::Pipe, spec.manifoldSegment, {}, {}, {}, {}, ""}, f,
                                         r.trays[i].flowM3s);
        }
        sink = s;
    });
    (void)sink;
    double lo = 1e9, hi = 0;
    for (std::size_t i = 0; i < r.trays.size(); ++i) {
        const double perKw = r.trays[i].flowM3s / kLpm / (spec.trays[i].heatW / 1e3);
        lo = std::min(lo, perKw);
        hi = std::max(hi, perKw);
    }
    std::printf("rack loop: %zu trays, %zu branches; %.0f L/min (%.2f L/min per kW; trays %.2f-%.2f), return %.2f "
                "degC, %d Newton iterations warm\n",
                spec.trays.size(), r.hydraulics.flowM3s.size(), r.flowM3s / kLpm, r.flowM3s / kLpm / (r.heatW / 1e3),
                lo, hi, r.returnC, r.hydraulics.iterations);
    std::printf("  solve with heat (2 passes): %.3f ms (budget 1 ms: %.2fx); every element once: %.4f ms -> the solve "
                "costs %.0f of them\n",
                rack * 1e3, 1e-3 / rack, once * 1e3, rack / once);
    // A 24,576-GPU hall: 342 racks, each loop solved.
    const int racks = 24576 / 72;
    const double hall = medianSeconds(5, [&] {
        for (int i = 0; i < racks; ++i)
            r = liquid::solveRackLoop(spec);
    });
    std::printf("hall of %d racks (24,576 GPUs), each its own loop: %.3f s on one core (budget 1 s: %.1fx)\n", racks,
                hall, 1.0 / hall);
    // The same hall on row CDUs: 8 racks a CDU (42 rows of 8, one of 5), each row one network.
    liquid::RowLoopSpec row;
    row.source.kind = Element::Kind::Pump;
    row.source.pump = {450e3, 2600 * kLpm, 1.0, 3, 0};
    row.facilityRate = 20.6 * 4180.0;
    row.ua = liquid::cduUa({1368e3, 4.0, 20.6 * 3934.0, row.facilityRate});
    row.facilitySupplyC = 24.0;
    row.headerSegment = {0.6, 0.08, 0.045e-3};
    liquid::RowLoopResult rr;
    const auto rowOf = [&](int n) {
        liquid::RowLoopSpec x = row;
        x.racks.assign(static_cast<std::size_t>(n), spec);
        return x;
    };
    const liquid::RowLoopSpec eight = rowOf(8), five = rowOf(5);
    const double oneRow = medianSeconds(21, [&] { rr = liquid::solveRowLoop(eight); });
    const double rows = medianSeconds(3, [&] {
        for (int i = 0; i < 42; ++i)
            rr = liquid::solveRowLoop(eight);
        rr = liquid::solveRowLoop(five);
    });
    std::printf("row of 8 racks on one CDU: %zu branches, %.2f ms (supply %.2f degC, return %.2f degC, CDU capacity "
                "%.0f kW at its setpoint for %.0f kW); the hall's 43 rows: %.3f s on one core (budget 1 s: %.1fx)\n",
                rr.hydraulics.flowM3s.size(), oneRow * 1e3, rr.supplyC, rr.returnC, rr.capacityW / 1e3, rr.heatW / 1e3,
                rows, 1.0 / rows);
    return 0;
}
