#include <catch2/catch.hpp>

#include <cmath>

#include "models/FanCurve.h"
#include "thermal/FlowNetwork.h"

using namespace rdt;

namespace {
// A quadratic fan: Δp = a − b·Q² (Pa, m³/s).
constexpr double kA = 800.0, kB = 20000.0;
const models::FanCurve kFan = models::FanCurve::polynomial({kA, 0.0, -kB});

int addFan(thermal::FlowNetwork& net, int from, int to, double speed = 1.0, double rho = 1.0)
{
    return net.addFan(
        "fan", from, to, [speed, rho](double q) { return models::fanPressure(kFan, q, speed, rho); },
        [speed, rho](double q) { return models::fanSlope(kFan, q, speed, rho); });
}
} // namespace

TEST_CASE("one fan against one quadratic impedance: the closed-form operating point", "[thermal][network]")
{
    // a − bQ² = kQ²  →  Q = √(a / (b + k)).
    const double k = 5000.0;
    thermal::FlowNetwork net;
    const int in = net.addNode("in", 0.0), mid = net.addNode("mid"), out = net.addNode("out", 0.0);
    addFan(net, in, mid);
    net.addImpedance("grille", mid, out, k);
    const thermal::FlowSolution s = net.solve();
    const double q = std::sqrt(kA / (kB + k));
    CHECK(s.flow[0] == Approx(q).epsilon(1e-9));
    CHECK(s.flow[1] == Approx(q).epsilon(1e-9));
    CHECK(s.pressure[static_cast<std::size_t>(mid)] == Approx(k * q * q).epsilon(1e-9));
}

TEST_CASE("two identical fans in parallel and in series", "[thermal][network]")
{
    const double k = 5000.0;
    { // parallel: each fan carries Q/2 → a − b(Q/2)² = kQ²
        thermal::FlowNetwork net;
        const int in = net.addNode("in", 0.0), mid = net.addNode("mid"), out = net.addNode("out", 0.0);
        addFan(net, in, mid);
        addFan(net, in, mid);
        net.addImpedance("grille", mid, out, k);
        const thermal::FlowSolution s = net.solve();
        const double q = std::sqrt(kA / (kB / 4 + k));
        CHECK(s.flow[2] == Approx(q).epsilon(1e-9));
        CHECK(s.flow[0] == Approx(q / 2).epsilon(1e-9));
    }
    { // series: pressures add → 2(a − bQ²) = kQ²
        thermal::FlowNetwork net;
        const int in = net.addNode("in", 0.0), m1 = net.addNode("m1"), m2 = net.addNode("m2"),
                  out = net.addNode("out", 0.0);
        addFan(net, in, m1);
        addFan(net, m1, m2);
        net.addImpedance("grille", m2, out, k);
        const thermal::FlowSolution s = net.solve();
        CHECK(s.flow[2] == Approx(std::sqrt(2 * kA / (2 * kB + k))).epsilon(1e-9));
    }
}

TEST_CASE("mass is conserved at every node of a meshed network", "[thermal][network]")
{
    thermal::FlowNetwork net;
    const int cold = net.addNode("cold", 0.0), hot = net.addNode("hot", 5.0);
    std::vector<int> nodes;
    for (int i = 0; i < 6; ++i)
        nodes.push_back(net.addNode("n" + std::to_string(i)));
    net.addImpedance("door", cold, nodes[0], 3.0);
    for (int i = 0; i < 5; ++i) {
        addFan(net, nodes[static_cast<std::size_t>(i)], nodes[static_cast<std::size_t>(i) + 1], 0.5 + 0.1 * i);
        net.addImpedance("bypass" + std::to_string(i), nodes[static_cast<std::size_t>(i) + 1],
                         nodes[static_cast<std::size_t>(i)], 2e4 * (i + 1), 1.6);
    }
    net.addImpedance("exit", nodes[5], hot, 10.0);
    net.addImpedance("recirc", hot, nodes[2], 900.0);
    const thermal::FlowSolution s = net.solve();
    std::vector<double> balance(net.nodeCount(), 0.0);
    double largest = 0;
    for (std::size_t b = 0; b < net.branchCount(); ++b) {
        balance[static_cast<std::size_t>(net.branchFrom(static_cast<int>(b)))] -= s.flow[b];
        balance[static_cast<std::size_t>(net.branchTo(static_cast<int>(b)))] += s.flow[b];
        largest = std::max(largest, std::fabs(s.flow[b]));
    }
    REQUIRE(largest > 0.01);
    for (int n : nodes)
        CHECK(std::fabs(balance[static_cast<std::size_t>(n)]) <= 1e-9 * largest);
}

TEST_CASE("affinity laws: speed scales flow, density scales pressure but not volume flow", "[thermal][network]")
{
    auto flowAt = [](double speed, double rho) {
        thermal::FlowNetwork net;
        const int in = net.addNode("in", 0.0), mid = net.addNode("mid"), out = net.addNode("out", 0.0);
        addFan(net, in, mid, speed, rho);
        net.addImpedance("grille", mid, out, 5000.0 * rho); // dynamic losses scale with density too
        return net.solve().flow[0];
    };
    const double q1 = flowAt(1.0, 1.0);
    CHECK(flowAt(0.5, 1.0) == Approx(0.5 * q1).epsilon(1e-9)); // Q ∝ N on a fixed system curve
    CHECK(flowAt(1.0, 0.8) == Approx(q1).epsilon(1e-9));       // same volume, 20 % less mass
}

TEST_CASE("a failed rotor lowers flow, a fully failed fan is a resistance", "[thermal][network]")
{
    const models::FanCurve table =
        models::FanCurve::table({{0.0, 900.0}, {0.0236, 700.0}, {0.0472, 400.0}, {0.0661, 150.0}, {0.0755, 0.0}});
    auto flowWith = [&](int failed) {
        thermal::FlowNetwork net;
        const int in = net.addNode("in", 0.0), mid = net.addNode("mid"), out = net.addNode("out", 0.0);
        for (int f = 0; f < 4; ++f)
            net.addFan(
                "fan", in, mid,
                [&, failed, f](double q) { return models::dualRotorPressure(table, q, 1.0, 1.0, f == 0 ? failed : 0); },
                [&, failed, f](double q) { return models::dualRotorSlope(table, q, 1.0, 1.0, f == 0 ? failed : 0); });
        net.addImpedance("chassis", mid, out, 5e4);
        const thermal::FlowSolution s = net.solve();
        return std::make_pair(s.flow[4], s.flow[0]);
    };
    const auto [healthy, f0] = flowWith(0);
    const auto [oneRotor, f1] = flowWith(1);
    const auto [bothRotors, f2] = flowWith(2);
    CHECK(oneRotor < healthy);
    CHECK(bothRotors < oneRotor);
    CHECK(f1 < f0);
    CHECK(f2 < 0.0); // a dead fan lets air flow backwards through it
}

TEST_CASE("bad networks are refused with the reason", "[thermal][network]")
{
    thermal::FlowNetwork net;
    const int in = net.addNode("in", 0.0), mid = net.addNode("island"), other = net.addNode("island 2");
    (void)in;
    net.addImpedance("between", mid, other, 10.0);
    CHECK_THROWS_WITH(net.solve(), Catch::Matchers::Contains("no air path"));
    CHECK_THROWS_AS(net.addImpedance("neg", in, mid, -1.0), thermal::NetworkError);
    CHECK_THROWS_WITH(models::FanCurve::table({{0.0, 100.0}, {0.1, 200.0}}),
                      Catch::Matchers::Contains("must not rise"));
}
