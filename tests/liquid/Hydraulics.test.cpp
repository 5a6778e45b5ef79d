// The hydraulic network against closed forms and the reference note's cases
// (../shared/reference/liquid-cooling.md §4.2, §4.3): tolerances stated per check.
#include <catch2/catch.hpp>

#include <cmath>

#include "liquid/Hydraulics.h"
#include "models/Coolant.h"

using namespace rdt;
using liquid::Element;

namespace {

constexpr double kLpm = 1.0e-3 / 60.0; // m³/s per L/min

Element curve(double dpPa, double qM3s, double n, const std::string& name = "curve")
{
    Element e;
    e.kind = Element::Kind::Curve;
    e.curve = {dpPa, qM3s, n};
    e.name = name;
    return e;
}

Element pump(double shutoffPa, double maxFlowM3s, int count = 1, int failed = 0, double speed = 1)
{
    Element e;
    e.kind = Element::Kind::Pump;
    e.pump = {shutoffPa, maxFlowM3s, speed, count, failed};
    e.name = "pump";
    return e;
}

/// A loop: node 0 (tank) → pump → node 1 → the given parallel branches → node 0.
liquid::Network loop(const Element& p, const std::vector<Element>& loads)
{
    liquid::Network n;
    n.nodes = {"tank", "pump out"};
    n.branches.push_back({"pump", 0, 1, {p}});
    for (std::size_t i = 0; i < loads.size(); ++i)
        n.branches.push_back({"load " + std::to_string(i + 1), 1, 0, {loads[i]}});
    return n;
}

} // namespace

TEST_CASE("liquid: the pipe fixture of the reference note — Colebrook, Darcy–Weisbach and fittings", "[liquid]")
{
    // 150 L/min in 20 m of 50 mm pipe, ε 0.045 mm, ρ 1000, μ 0.001, ΣK 3 (§4.3): f 0.02298248,
    // Δp 7,451.557 Pa in the pipe, 2,431.708 Pa in the fittings.
    const liquid::Fluid fluid{1000.0, 1.0e-3};
    Element pipe;
    pipe.kind = Element::Kind::Pipe;
    pipe.pipe = {20.0, 0.050, 0.045e-3};
    Element fittings;
    fittings.kind = Element::Kind::Fitting;
    fittings.fitting = {3.0, 0.050};
    const double q = 150 * kLpm;
    const double re = 1000.0 * (q / (M_PI * 0.05 * 0.05 / 4)) * 0.05 / 1e-3;
    CHECK(re == Approx(63661.97724).epsilon(1e-9));
    CHECK(liquid::frictionFactor(re, 0.045e-3 / 0.05) == Approx(0.02298248).epsilon(1e-6));
    CHECK(liquid::elementDrop(pipe, fluid, q) == Approx(7451.55721).epsilon(1e-6));
    CHECK(liquid::elementDrop(fittings, fluid, q) == Approx(2431.70841).epsilon(1e-8));
    CHECK(liquid::elementDrop(pipe, fluid, -q) == Approx(-7451.55721).epsilon(1e-6)); // odd in the flow
    // Laminar below Re 2,000; the blend continuous at both ends.
    CHECK(liquid::frictionFactor(1000, 1e-3) == Approx(0.064).epsilon(1e-12));
    CHECK(liquid::frictionFactor(2000.0001, 1e-3) == Approx(0.032).epsilon(1e-6));
    CHECK(liquid::frictionFactor(3999.999, 1e-3) == Approx(liquid::frictionFactor(4000, 1e-3)).epsilon(1e-5));
}

TEST_CASE("liquid: a quick disconnect by its Cv and a cold-plate loop by its curve", "[liquid]")
{
    // UQD04 pair: Cv 0.80 at its rated 6.4 L/min → 30.7 kPa on water of SG 0.997 (§2.2 #9).
    Element qd;
    qd.kind = Element::Kind::Connector;
    qd.connector.cv = 0.80;
    CHECK(liquid::elementDrop(qd, {0.997 * 999.0, 1e-3}, 6.4 * kLpm) / 1e3 == Approx(30.7).margin(0.05));
    // OCP 8×1 cold-plate loop: 50 kPa at 10 L/min PG25, n 1.85 → 33.1 kPa at 8, 70.1 at 12 (§4.2).
    const Element plate = curve(50e3, 10 * kLpm, 1.85);
    const liquid::Fluid pg{1015.6, 1.83e-3};
    CHECK(liquid::elementDrop(plate, pg, 8 * kLpm) / 1e3 == Approx(33.1).margin(0.05));
    CHECK(liquid::elementDrop(plate, pg, 12 * kLpm) / 1e3 == Approx(70.1).margin(0.05));
}

TEST_CASE("liquid: a pump against one impedance and against parallel branches, in closed form", "[liquid]")
{
    const liquid::Fluid fluid{1000.0, 1e-3};
    // Pump Δp0 (1 − (Q/Qmax)²) against R Q²: Q = sqrt(Δp0 / (R + Δp0/Qmax²)).
    const double dp0 = 200e3, qMax = 300 * kLpm, r = 100e3 / std::pow(150 * kLpm, 2);
    const liquid::Solution one = liquid::solve(loop(pump(dp0, qMax), {curve(100e3, 150 * kLpm, 2)}), fluid);
    const double exact = std::sqrt(dp0 / (r + dp0 / (qMax * qMax)));
    CHECK(one.flowM3s[0] == Approx(exact).epsilon(1e-9));
    CHECK(one.flowM3s[1] == Approx(exact).epsilon(1e-9));
    CHECK(one.pressurePa[1] - one.pressurePa[0] == Approx(r * exact * exact).epsilon(1e-9));
    CHECK(one.pressurePa[0] == 101325.0); // the tank holds its pressure
    // Two unequal quadratic branches in parallel: R_eq = (1/√R1 + 1/√R2)⁻², Q1/Q2 = √(R2/R1).
    const double r1 = r, r2 = 4 * r;
    const liquid::Solution two =
        liquid::solve(loop(pump(dp0, qMax), {curve(100e3, 150 * kLpm, 2), curve(400e3, 150 * kLpm, 2)}), fluid);
    const double req = 1.0 / std::pow(1 / std::sqrt(r1) + 1 / std::sqrt(r2), 2);
    const double total = std::sqrt(dp0 / (req + dp0 / (qMax * qMax)));
    CHECK(two.flowM3s[0] == Approx(total).epsilon(1e-9));
    CHECK(two.flowM3s[1] / two.flowM3s[2] == Approx(std::sqrt(r2 / r1)).epsilon(1e-9));
    CHECK(two.flowM3s[1] + two.flowM3s[2] ==
          Approx(two.flowM3s[0]).epsilon(1e-9)); // continuity, to the solve's tolerance
    // Equal branches share alike; linear laws (n = 1) too.
    const liquid::Solution equal =
        liquid::solve(loop(pump(dp0, qMax), {curve(50e3, 100 * kLpm, 1), curve(50e3, 100 * kLpm, 1)}), fluid);
    CHECK(equal.flowM3s[1] == Approx(equal.flowM3s[2]).epsilon(1e-12));
    // Linear: Δp0 (1 − (Q/Qmax)²) = R1 Q, R1 = 50 kPa / 100 L/min for each, R_eq = R1 / 2.
    const double rl = 50e3 / (100 * kLpm) / 2, a = dp0 / (qMax * qMax);
    CHECK(equal.flowM3s[0] == Approx((-rl + std::sqrt(rl * rl + 4 * a * dp0)) / (2 * a)).epsilon(1e-9));
}

TEST_CASE("liquid: N+1 pumps — one failed leaves the flow the rest can give, all failed none", "[liquid]")
{
    const liquid::Fluid fluid{1000.0, 1e-3};
    const double dp0 = 200e3, qMax = 150 * kLpm, r = 100e3 / std::pow(150 * kLpm, 2);
    const auto flow = [&](int count, int failed, double speed = 1) {
        return liquid::solve(loop(pump(dp0, qMax, count, failed, speed), {curve(100e3, 150 * kLpm, 2)}), fluid)
            .flowM3s[0];
    };
    // n running pumps in parallel: Δp0 (1 − (Q/(n Qmax))²) = R Q².
    const auto exact = [&](int n, double s) {
        const double q = qMax * s * n;
        return std::sqrt(dp0 * s * s / (r + dp0 * s * s / (q * q)));
    };
    CHECK(flow(3, 0) == Approx(exact(3, 1)).epsilon(1e-9));
    CHECK(flow(3, 1) == Approx(exact(2, 1)).epsilon(1e-9));
    CHECK(flow(3, 1) < flow(3, 0));
    CHECK(flow(2, 0, 0.8) == Approx(exact(2, 0.8)).epsilon(1e-9)); // the affinity laws
    CHECK(std::abs(flow(2, 2)) < 1e-9);                            // check valves hold: no flow
}

TEST_CASE("liquid: PG25 carries 1 kW per 1.5 L/min with a 10.0 K rise, and properties outside the table are "
          "refused",
          "[liquid]")
{
    // §2.1: ΔT at 1.5 L/min per kW, PG25 at 20 / 30 / 40 / 50 °C: 10.0 K; water at 30 °C: 9.6 K.
    for (double t : {20.0, 30.0, 40.0, 50.0}) {
        INFO(t << " degC");
        CHECK(models::coolantRiseK(models::Coolant::PG25, t, 1000.0, 1.5 * kLpm) == Approx(10.0).margin(0.05));
    }
    CHECK(models::coolantRiseK(models::Coolant::Water, 30.0, 1000.0, 1.5 * kLpm) == Approx(9.6).margin(0.05));
    const models::CoolantProperties pg = models::coolantProperties(models::Coolant::PG25, 35.0);
    CHECK(pg.density == Approx(0.5 * (1015.6 + 1010.5)).epsilon(1e-12));
    CHECK(pg.viscosity == Approx(std::sqrt(1.83e-3 * 1.39e-3)).epsilon(1e-12)); // log-linear
    const models::CoolantProperties w = models::coolantProperties(models::Coolant::Water, 30.0);
    CHECK(w.density == Approx(996.0).margin(0.5));
    CHECK(w.viscosity == Approx(0.80e-3).epsilon(0.01));
    CHECK(w.specificHeat == Approx(4180).margin(1));
    CHECK(w.conductivity == Approx(0.615).margin(0.002));
    CHECK_THROWS_WITH(models::coolantProperties(models::Coolant::PG25, 55.0),
                      Catch::Matchers::Contains("PG25") && Catch::Matchers::Contains("20 to 50 degC"));
    CHECK_THROWS_AS(models::coolantProperties(models::Coolant::Water, NAN), std::out_of_range);
}

TEST_CASE("liquid: loops that cannot be solved name what is wrong", "[liquid]")
{
    const liquid::Fluid fluid{1000.0, 1e-3};
    liquid::Network n = loop(pump(200e3, 0.005), {curve(100e3, 0.0025, 2)});
    n.nodes.push_back("island");
    CHECK_THROWS_WITH(liquid::solve(n, fluid),
                      Catch::Matchers::Contains("island") && Catch::Matchers::Contains("not connected"));
    n = loop(pump(200e3, 0.005), {curve(-1, 0.0025, 2, "plate 3")});
    CHECK_THROWS_WITH(liquid::solve(n, fluid), Catch::Matchers::Contains("plate 3"));
    n = loop(pump(200e3, 0.005), {curve(100e3, 0.0025, 2)});
    n.reference = 7;
    CHECK_THROWS_WITH(liquid::solve(n, fluid), Catch::Matchers::Contains("reference"));
    n = loop(pump(200e3, 0.005, 2, 3), {curve(100e3, 0.0025, 2)});
    CHECK_THROWS_WITH(liquid::solve(n, fluid), Catch::Matchers::Contains("failed"));
}

TEST_CASE("liquid: two loops sharing a branch, with linear laws, against the hand-solved linear system", "[liquid]")
{
    // Nodes: 0 (tank), 1, 2. Pump A from 0 to 1 against branch 1→0 (R1); pump B from 0 to 2 against
    // branch 2→0 (R2); a shared branch 1→2 (R3). All laws linear (n = 1), pumps linearised the same
    // way (Δp = P − Q · Rp): nodal analysis by hand gives the pressures from
    //   (p1 − 0)/R1 + (p1 − p2)/R3 = (PA − p1)/RpA,   (p2 − 0)/R2 + (p2 − p1)/R3 = (PB − p2)/RpB.
    // A pump's quadratic curve is not linear; a linear source is built as a curve in series with a
    // flat pump: Δp0 = P over a run-out far beyond the flows (its curve 1e-8 of P off flat here).
    const liquid::Fluid fluid{1000.0, 1e-3};
    const double P_A = 100e3, P_B = 60e3, q0 = 1e-3;
    const double R1 = 40e3 / q0, R2 = 20e3 / q0, R3 = 10e3 / q0, RpA = 5e3 / q0, RpB = 8e3 / q0;
    const auto source = [&](double p, double rp) {
        std::vector<Element> e = {pump(p, 1e2), curve(rp * q0, q0, 1, "pump loss")};
        return e;
    };
    liquid::Network n;
    n.nodes = {"tank", "a", "b"};
    n.branches.push_back({"pump A", 0, 1, source(P_A, RpA)});
    n.branches.push_back({"pump B", 0, 2, source(P_B, RpB)});
    n.branches.push_back({"R1", 1, 0, {curve(R1 * q0, q0, 1)}});
    n.branches.push_back({"R2", 2, 0, {curve(R2 * q0, q0, 1)}});
    n.branches.push_back({"R3", 1, 2, {curve(R3 * q0, q0, 1)}});
    n.referencePa = 0;
    const liquid::Solution s = liquid::solve(n, fluid);
    // Solve the 2×2 nodal system by Cramer's rule.
    const double a11 = 1 / R1 + 1 / R3 + 1 / RpA, a12 = -1 / R3, b1 = P_A / RpA;
    const double a21 = -1 / R3, a22 = 1 / R2 + 1 / R3 + 1 / RpB, b2 = P_B / RpB;
    const double det = a11 * a22 - a12 * a21;
    const double p1 = (b1 * a22 - a12 * b2) / det, p2 = (a11 * b2 - a21 * b1) / det;
    CHECK(s.pressurePa[1] == Approx(p1).epsilon(1e-6));
    CHECK(s.pressurePa[2] == Approx(p2).epsilon(1e-6));
    CHECK(s.flowM3s[4] == Approx((p1 - p2) / R3).epsilon(1e-6)); // the shared branch, by its sign
    CHECK(s.flowM3s[0] + s.flowM3s[1] == Approx(s.flowM3s[2] + s.flowM3s[3]).epsilon(1e-9));
}
