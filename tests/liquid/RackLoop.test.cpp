// A rack's loop: trays on a vertical manifold, solved with their heat. Closed forms where the
// manifold's losses vanish, conservation always, and the manifold's known effect (direct return
// starves the far trays; reverse return evens them).
#include <catch2/catch.hpp>

#include <cmath>

#include "liquid/RackLoop.h"

using namespace rdt;
using liquid::Element;

namespace {

constexpr double kLpm = 1.0e-3 / 60.0;

/// 18 compute trays of a GB200 NVL72-class rack: ~6.4 kW each into the liquid, a cold-plate loop
/// of 30 kPa at 9.6 L/min (n 1.85, estimate), a UQD04-class pair in and out (Cv 0.80 each), four
/// plates of the OCP 1 kW curve scaled to 1.6 kW (estimate: the test's own figures).
liquid::RackLoopSpec rack(double manifoldBoreM, liquid::ManifoldReturn returns)
{
    liquid::RackLoopSpec s;
    s.coolant = models::Coolant::PG25;
    s.supplyC = 30.0;
    s.source.kind = Element::Kind::Pump;
    s.source.pump = {250e3, 400 * kLpm, 1.0, 2, 0};
    s.source.name = "CDU pumps";
    Element lqc;
    lqc.kind = Element::Kind::Connector;
    lqc.connector.cv = 12.0;
    lqc.name = "rack connector";
    s.supplyLine = {lqc};
    s.returnLine = {lqc};
    s.manifoldSegment = {0.0445 * 2, manifoldBoreM, 0.0015e-3}; // two OU between trays, smooth
    s.returns = returns;
    const double v[] = {0.4, 1.0, 1.5, 2.0, 2.4};
    const double r[] = {0.0389, 0.0245, 0.0217, 0.0204, 0.0197};
    for (int i = 0; i < 18; ++i) {
        liquid::TraySpec t;
        t.id = "ct" + std::to_string(i + 1);
        t.heatW = 6400;
        t.loop = {30e3, 9.6 * kLpm, 1.85};
        Element qd;
        qd.kind = Element::Kind::Connector;
        qd.connector.cv = 0.80;
        t.couplers = {qd, qd};
        for (int k = 0; k < 5; ++k)
            t.plate.resistance.emplace_back(v[k] * kLpm * 2.4, r[k] / 1.6);
        t.plates = 4;
        s.trays.push_back(t);
    }
    return s;
}

} // namespace

TEST_CASE("liquid rack loop: without manifold losses every tray gets an equal share, in closed form", "[liquid]")
{
    // A wide manifold (0.5 m bore: its losses vanish): 18 equal trays in parallel, each k Q^1.85
    // plus two Cv pairs; the pump and the rack's connectors in series. Solved independently here by
    // bisection on the total flow.
    const liquid::RackLoopSpec s = rack(0.5, liquid::ManifoldReturn::Direct);
    const liquid::RackLoopResult r = liquid::solveRackLoop(s);
    for (const liquid::TrayResult& t : r.trays)
        CHECK(t.flowM3s == Approx(r.flowM3s / 18).epsilon(1e-6));
    CHECK(r.spread < 1e-5);
    const models::CoolantProperties p = models::coolantProperties(models::Coolant::PG25, r.propertiesC);
    const liquid::Fluid f{p.density, p.viscosity};
    const auto imbalance = [&](double q) {
        double tray = 0;
        for (const Element& e : s.trays[0].couplers)
            tray += liquid::elementDrop(e, f, q / 18);
        Element loop;
        loop.kind = Element::Kind::Curve;
        loop.curve = s.trays[0].loop;
        tray += liquid::elementDrop(loop, f, q / 18);
        return -liquid::elementDrop(s.source, f, q) - tray - liquid::elementDrop(s.supplyLine[0], f, q) -
               liquid::elementDrop(s.returnLine[0], f, q);
    };
    double lo = 1e-6, hi = 800 * kLpm;
    for (int i = 0; i < 200; ++i)
        (imbalance(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
    CHECK(r.flowM3s == Approx(0.5 * (lo + hi)).epsilon(1e-4)); // the manifold's residual loss
}

TEST_CASE("liquid rack loop: heat is conserved, each tray rises by its heat, each plate by its R", "[liquid]")
{
    const liquid::RackLoopResult r = liquid::solveRackLoop(rack(0.035, liquid::ManifoldReturn::Reverse));
    const models::CoolantProperties p = models::coolantProperties(models::Coolant::PG25, r.propertiesC);
    CHECK(std::abs(r.propertiesC - 0.5 * (30.0 + r.returnC)) < 0.05); // the mean of a pass before
    CHECK(r.heatW == Approx(18 * 6400.0));
    // Mixed return: the heat over the whole flow's ṁ c_p, to rounding.
    CHECK(r.returnC - 30.0 == Approx(r.heatW / (p.density * p.specificHeat * r.flowM3s)).epsilon(1e-9));
    double sum = 0;
    for (const liquid::TrayResult& t : r.trays) {
        INFO(t.id);
        sum += t.flowM3s;
        CHECK(t.outletC - t.inletC == Approx(6400.0 / (p.density * p.specificHeat * t.flowM3s)).epsilon(1e-9));
        CHECK(t.plateMeasured);
        CHECK(t.caseC == Approx(t.inletC + t.caseRiseK));
        CHECK(t.dropPa > 0);
    }
    CHECK(sum == Approx(r.flowM3s).epsilon(1e-9));   // continuity across the manifold
    // The pumps' draw: unknown without their efficiency (not assumed), Q Δp / η with it, Δp the
    // rise between the pumps' own nodes.
    CHECK(std::isnan(r.pumpPowerW));
    liquid::RackLoopSpec rated = rack(0.035, liquid::ManifoldReturn::Reverse);
    rated.source.pump.efficiency = 0.5;
    const liquid::RackLoopResult e = liquid::solveRackLoop(rated);
    CHECK(e.pumpPowerW == Approx(e.flowM3s * (e.hydraulics.pressurePa[1] - e.hydraulics.pressurePa[0]) / 0.5));
    CHECK(e.pumpPowerW > 0);
    CHECK(r.flowM3s / kLpm / (r.heatW / 1e3) > 1.0); // L/min per kW, the loop's own figure
}

TEST_CASE("liquid rack loop: a direct-return manifold starves its top trays, a reverse return evens them", "[liquid]")
{
    const liquid::RackLoopResult direct = liquid::solveRackLoop(rack(0.025, liquid::ManifoldReturn::Direct));
    const liquid::RackLoopResult reverse = liquid::solveRackLoop(rack(0.025, liquid::ManifoldReturn::Reverse));
    // Direct: flow falls with height, monotonically.
    for (std::size_t i = 1; i < direct.trays.size(); ++i)
        CHECK(direct.trays[i].flowM3s < direct.trays[i - 1].flowM3s);
    CHECK(reverse.spread < 0.5 * direct.spread);
    CHECK(direct.trays.back().caseC > direct.trays.front().caseC); // the starved tray runs hotter
    // One CDU pump of two failed: less flow, every tray's case warmer.
    liquid::RackLoopSpec failed = rack(0.025, liquid::ManifoldReturn::Reverse);
    failed.source.pump.failed = 1;
    const liquid::RackLoopResult one = liquid::solveRackLoop(failed);
    CHECK(one.flowM3s < reverse.flowM3s);
    for (std::size_t i = 0; i < one.trays.size(); ++i)
        CHECK(one.trays[i].caseC > reverse.trays[i].caseC);
}

namespace {

liquid::RowLoopSpec row(int racks, double facilityC, liquid::ManifoldReturn headers)
{
    liquid::RowLoopSpec s;
    s.coolant = models::Coolant::PG25;
    s.source.kind = Element::Kind::Pump;
    s.source.pump = {400e3, 2400 * kLpm, 1.0, 3, 0};
    s.source.name = "CDU pumps";
    // A CDU rated 1,368 kW at 4 K approach on 20.6 kg/s a side (the XDU1350's point), PG25 on the IT
    // side at 30 °C, water on the facility side.
    const models::CoolantProperties pg = models::coolantProperties(models::Coolant::PG25, 30.0);
    const double itRated = 20.6 * pg.specificHeat;
    s.facilityRate = 20.6 * 4180.0;
    s.ua = liquid::cduUa({1368e3, 4.0, itRated, s.facilityRate});
    s.facilitySupplyC = facilityC;
    s.supplySetpointC = 30.0;
    s.headerSegment = {0.6, 0.08, 0.045e-3};
    s.headerReturns = headers;
    for (int j = 0; j < racks; ++j)
        s.racks.push_back(rack(0.035, liquid::ManifoldReturn::Reverse));
    return s;
}

} // namespace

TEST_CASE("liquid row loop: a CDU holds its supply while it can, its exchanger removes the racks' heat", "[liquid]")
{
    const liquid::RowLoopResult r = liquid::solveRowLoop(row(8, 24.0, liquid::ManifoldReturn::Reverse));
    CHECK(r.heatW == Approx(8 * 18 * 6400.0));
    CHECK(r.holdsSetpoint);
    CHECK(r.supplyC == 30.0);
    CHECK(r.capacityW > r.heatW);
    const models::CoolantProperties p = models::coolantProperties(models::Coolant::PG25, r.propertiesC);
    CHECK(r.returnC - r.supplyC == Approx(r.heatW / (p.density * p.specificHeat * r.flowM3s)).epsilon(1e-9));
    double sum = 0;
    for (const liquid::RackLoopResult& k : r.racks) {
        sum += k.flowM3s;
        for (const liquid::TrayResult& t : k.trays)
            CHECK(t.inletC == 30.0);
    }
    CHECK(sum == Approx(r.flowM3s).epsilon(1e-9));
    // Facility water 6 K warmer: the CDU cannot hold 30 °C (its approach would be 0); the supply
    // floats to where its whole UA removes the heat, and the exchanger's heat is the racks'.
    const liquid::RowLoopResult warm = liquid::solveRowLoop(row(8, 30.0, liquid::ManifoldReturn::Reverse));
    CHECK_FALSE(warm.holdsSetpoint);
    CHECK(warm.capacityW == 0.0);
    CHECK(warm.supplyC > 30.0);
    const models::CoolantProperties pw = models::coolantProperties(models::Coolant::PG25, warm.propertiesC);
    const double itRate = pw.density * pw.specificHeat * warm.flowM3s;
    CHECK(liquid::cduHeat(row(1, 30, liquid::ManifoldReturn::Reverse).ua, warm.returnC, 30.0, itRate, 20.6 * 4180.0) ==
          Approx(warm.heatW).epsilon(1e-9));
    for (const liquid::RackLoopResult& k : warm.racks)
        for (const liquid::TrayResult& t : k.trays)
            CHECK(t.caseC > r.racks.front().trays.front().caseC); // warmer supply, warmer cases
}

TEST_CASE("liquid row loop: along a direct-return header the far racks get less, a reverse return evens them",
          "[liquid]")
{
    const liquid::RowLoopResult direct = liquid::solveRowLoop(row(8, 24.0, liquid::ManifoldReturn::Direct));
    const liquid::RowLoopResult reverse = liquid::solveRowLoop(row(8, 24.0, liquid::ManifoldReturn::Reverse));
    for (std::size_t j = 1; j < direct.racks.size(); ++j)
        CHECK(direct.racks[j].flowM3s < direct.racks[j - 1].flowM3s);
    const auto spread = [](const liquid::RowLoopResult& r) {
        double lo = 1e9, hi = 0;
        for (const liquid::RackLoopResult& k : r.racks) {
            lo = std::min(lo, k.flowM3s);
            hi = std::max(hi, k.flowM3s);
        }
        return (hi - lo) / (r.flowM3s / static_cast<double>(r.racks.size()));
    };
    CHECK(spread(reverse) < 0.5 * spread(direct));
    // A CDU pump of three failed: less flow for every rack.
    liquid::RowLoopSpec failed = row(8, 24.0, liquid::ManifoldReturn::Reverse);
    failed.source.pump.failed = 1;
    const liquid::RowLoopResult one = liquid::solveRowLoop(failed);
    for (std::size_t j = 0; j < one.racks.size(); ++j)
        CHECK(one.racks[j].flowM3s < reverse.racks[j].flowM3s);
}

TEST_CASE("liquid row loop: the CDU's capacity at its setpoint, and the supply continuous where it runs out",
          "[liquid]")
{
    // Capacity at the setpoint is the heat the exchanger moves with the IT loop returning at
    // setpoint + capacity / C_it (cduHeat, the ε-NTU heat from the inlet temperatures): an
    // independent path through the exchanger's equations.
    const auto at = [](double fws) { return liquid::solveRowLoop(row(8, fws, liquid::ManifoldReturn::Reverse)); };
    const liquid::RowLoopResult r = at(28.0);
    const models::CoolantProperties p = models::coolantProperties(models::Coolant::PG25, r.propertiesC);
    const double itRate = p.density * p.specificHeat * r.flowM3s;
    const double ua = row(1, 28.0, liquid::ManifoldReturn::Reverse).ua;
    CHECK(r.capacityW > 0);
    CHECK(liquid::cduHeat(ua, 30.0 + r.capacityW / itRate, 28.0, itRate, 20.6 * 4180.0) ==
          Approx(r.capacityW).epsilon(1e-9));
    // Bisect the facility temperature where the capacity at 30 °C equals the heat: just below it the
    // setpoint is held, just above the supply floats — from the setpoint, not with a jump.
    double lo = 24.0, hi = 30.0;
    for (int i = 0; i < 40; ++i)
        (at(0.5 * (lo + hi)).holdsSetpoint ? lo : hi) = 0.5 * (lo + hi);
    const liquid::RowLoopResult below = at(lo), above = at(hi + 1e-6);
    CHECK(below.holdsSetpoint);
    CHECK_FALSE(above.holdsSetpoint);
    CHECK(above.supplyC == Approx(30.0).margin(1e-3));
    CHECK(above.supplyC >= 30.0);
    // Every CDU pump failed: no coolant moves, said so.
    liquid::RowLoopSpec dead = row(2, 24.0, liquid::ManifoldReturn::Reverse);
    dead.source.pump.failed = dead.source.pump.count;
    CHECK_THROWS_WITH(liquid::solveRowLoop(dead), Catch::Matchers::Contains("move no coolant"));
}
