#include "liquid/Hydraulics.h"

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>

namespace rdt::liquid {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kPaPerPsi = 6894.757293168;
constexpr double kM3sPerGpm = 3.785411784e-3 / 60.0;
constexpr double kWaterRho = 999.0;     ///< the specific gravity's reference (60 °F water), kg/m³
constexpr double kClosedValve = 1.0e13; ///< Pa per m³/s: a pump set with every pump failed (check valves shut)
constexpr double kLaminarRe = 2000.0, kTurbulentRe = 4000.0;

double colebrook(double re, double rr)
{
    // Swamee–Jain to start, then the fixed point on x = 1/√f.
    double x = 1.0 / std::sqrt(0.25 / std::pow(std::log10(rr / 3.7 + 5.74 / std::pow(re, 0.9)), 2));
    for (int i = 0; i < 100; ++i) {
        const double next = -2.0 * std::log10(rr / 3.7 + 2.51 * x / re);
        if (std::abs(next - x) < 1e-12 * x) {
            x = next;
            break;
        }
        x = next;
    }
    return 1.0 / (x * x);
}

[[noreturn]] void bad(const Element& e, const std::string& what)
{
    throw NetworkError((e.name.empty() ? std::string("an element") : e.name) + ": " + what);
}

double area(double d)
{
    return kPi * d * d / 4.0;
}

} // namespace

double frictionFactor(double re, double rr)
{
    if (re <= kLaminarRe)
        return 64.0 / std::max(re, 1e-12);
    if (re >= kTurbulentRe)
        return colebrook(re, rr);
    // Cubic Hermite in Re between the laminar law at 2,000 and Colebrook at 4,000: value and
    // slope continuous at both ends.
    const double h = kTurbulentRe - kLaminarRe, t = (re - kLaminarRe) / h;
    const double f0 = 64.0 / kLaminarRe, d0 = -64.0 / (kLaminarRe * kLaminarRe);
    const double f1 = colebrook(kTurbulentRe, rr);
    const double d1 =
        (colebrook(kTurbulentRe * 1.001, rr) - colebrook(kTurbulentRe * 0.999, rr)) / (0.002 * kTurbulentRe);
    const double t2 = t * t, t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * f0 + (t3 - 2 * t2 + t) * h * d0 + (-2 * t3 + 3 * t2) * f1 + (t3 - t2) * h * d1;
}

double elementDrop(const Element& e, const Fluid& fluid, double q)
{
    const double sign = q < 0 ? -1.0 : 1.0, aq = std::abs(q);
    switch (e.kind) {
    case Element::Kind::Pipe: {
        const Pipe& p = e.pipe;
        if (!(p.lengthM >= 0) || !(p.diameterM > 0) || !(p.roughnessM >= 0))
            bad(e, "a pipe needs length ≥ 0, diameter > 0 and roughness ≥ 0 (m)");
        const double v = aq / area(p.diameterM);
        const double re = fluid.density * v * p.diameterM / fluid.viscosity;
        if (re < 1e-9)
            return 0.0;
        return sign * frictionFactor(re, p.roughnessM / p.diameterM) * p.lengthM / p.diameterM * 0.5 * fluid.density *
               v * v;
    }
    case Element::Kind::Fitting: {
        if (!(e.fitting.k >= 0) || !(e.fitting.diameterM > 0))
            bad(e, "a fitting needs K ≥ 0 and a bore > 0 (m)");
        const double v = aq / area(e.fitting.diameterM);
        return sign * e.fitting.k * 0.5 * fluid.density * v * v;
    }
    case Element::Kind::Connector: {
        if (!(e.connector.cv > 0))
            bad(e, "a connector needs its flow coefficient Cv > 0");
        const double gpm = aq / kM3sPerGpm;
        return sign * (fluid.density / kWaterRho) * (gpm / e.connector.cv) * (gpm / e.connector.cv) * kPaPerPsi;
    }
    case Element::Kind::Curve: {
        const Curve& c = e.curve;
        if (!(c.dpRefPa > 0) || !(c.qRefM3s > 0) || !(c.exponent >= 1 && c.exponent <= 2))
            bad(e, "a component curve needs Δp_ref > 0 (Pa) at Q_ref > 0 (m³/s) and an exponent from 1 to 2");
        return sign * c.dpRefPa * std::pow(aq / c.qRefM3s, c.exponent);
    }
    case Element::Kind::Pump: {
        const Pump& p = e.pump;
        if (!(p.shutoffPa > 0) || !(p.maxFlowM3s > 0) || !(p.speed > 0 && p.speed <= 1.5) || p.count < 1 ||
            p.failed < 0 || p.failed > p.count)
            bad(e, "a pump needs its shut-off pressure (Pa) and run-out flow (m³/s) > 0, a speed in (0, 1.5] and "
                   "0 ≤ failed ≤ count ≥ 1");
        const int running = p.count - p.failed;
        if (running == 0)
            return kClosedValve * q; // every pump stopped: the check valves hold the flow
        const double each = q / running, qMax = p.maxFlowM3s * p.speed;
        return -p.shutoffPa * p.speed * p.speed * (1.0 - each * std::abs(each) / (qMax * qMax));
    }
    }
    return 0.0;
}

double pumpPowerW(const Pump& p, double flowM3s, double risePa)
{
    if (!(p.efficiency > 0 && p.efficiency <= 1))
        return std::numeric_limits<double>::quiet_NaN();
    return std::max(0.0, flowM3s) * std::max(0.0, risePa) / p.efficiency;
}

Solution solve(const Network& net, const Fluid& fluid, const Solution* start)
{
    const int nNodes = static_cast<int>(net.nodes.size());
    const int nBranches = static_cast<int>(net.branches.size());
    if (net.reference < 0 || net.reference >= nNodes)
        throw NetworkError("the reference node (the expansion tank) is not one of the loop's " +
                           std::to_string(nNodes) + " nodes");
    if (!(fluid.density > 0) || !(fluid.viscosity > 0))
        throw NetworkError("the coolant needs a density and a viscosity > 0");
    std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(nNodes));
    for (int b = 0; b < nBranches; ++b) {
        const Branch& br = net.branches[static_cast<std::size_t>(b)];
        if (br.from < 0 || br.from >= nNodes || br.to < 0 || br.to >= nNodes || br.from == br.to)
            throw NetworkError("branch " + br.name + ": its ends must be two different nodes of the loop");
        if (br.elements.empty())
            throw NetworkError("branch " + br.name + " has no elements");
        adjacent[static_cast<std::size_t>(br.from)].push_back(br.to);
        adjacent[static_cast<std::size_t>(br.to)].push_back(br.from);
    }
    std::vector<char> reached(static_cast<std::size_t>(nNodes), 0);
    std::queue<int> open;
    open.push(net.reference);
    reached[static_cast<std::size_t>(net.reference)] = 1;
    while (!open.empty()) {
        const int n = open.front();
        open.pop();
        for (int m : adjacent[static_cast<std::size_t>(n)])
            if (!reached[static_cast<std::size_t>(m)]) {
                reached[static_cast<std::size_t>(m)] = 1;
                open.push(m);
            }
    }
    for (int n = 0; n < nNodes; ++n)
        if (!reached[static_cast<std::size_t>(n)])
            throw NetworkError("node " + net.nodes[static_cast<std::size_t>(n)] +
                               " is not connected to the expansion tank's node " +
                               net.nodes[static_cast<std::size_t>(net.reference)] + ": its pressure is undefined");

    // Unknowns: branch flows, then the pressures of every node but the reference.
    std::vector<int> column(static_cast<std::size_t>(nNodes), -1);
    int unknowns = nBranches;
    for (int n = 0; n < nNodes; ++n)
        if (n != net.reference)
            column[static_cast<std::size_t>(n)] = unknowns++;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(unknowns);
    const bool warm = start && static_cast<int>(start->flowM3s.size()) == nBranches &&
                      static_cast<int>(start->pressurePa.size()) == nNodes;
    for (int b = 0; b < nBranches; ++b)
        x[b] = warm ? start->flowM3s[static_cast<std::size_t>(b)] : 1e-4;
    if (warm)
        for (int n = 0; n < nNodes; ++n)
            if (n != net.reference)
                x[column[static_cast<std::size_t>(n)]] = start->pressurePa[static_cast<std::size_t>(n)] -
                                                         start->pressurePa[static_cast<std::size_t>(net.reference)];
    const auto drop = [&](int b, double q) {
        double h = 0;
        for (const Element& e : net.branches[static_cast<std::size_t>(b)].elements)
            h += elementDrop(e, fluid, q);
        return h;
    };
    const auto pressure = [&](const Eigen::VectorXd& v, int node) {
        return node == net.reference ? 0.0 : v[column[static_cast<std::size_t>(node)]];
    };
    // Residuals: per branch p_from − p_to − h(Q) (Pa); per node its net inflow (m³/s), scaled to Pa
    // by kFlowScale so both kinds weigh alike in the line search.
    constexpr double kFlowScale = 1.0e8;
    double scale = 1.0; // the largest branch drop at the last residual (Pa): the tolerance's yardstick
    const auto residual = [&](const Eigen::VectorXd& v) {
        Eigen::VectorXd r = Eigen::VectorXd::Zero(unknowns);
        scale = 1.0;
        for (int b = 0; b < nBranches; ++b) {
            const Branch& br = net.branches[static_cast<std::size_t>(b)];
            const double h = drop(b, v[b]);
            scale = std::max(scale, std::abs(h));
            r[b] = pressure(v, br.from) - pressure(v, br.to) - h;
            if (br.to != net.reference)
                r[column[static_cast<std::size_t>(br.to)]] += kFlowScale * v[b];
            if (br.from != net.reference)
                r[column[static_cast<std::size_t>(br.from)]] -= kFlowScale * v[b];
        }
        return r;
    };
    Solution out;
    Eigen::VectorXd r = residual(x);
    double norm = r.lpNorm<Eigen::Infinity>();
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    bool analysed = false, converged = false;
    for (out.iterations = 0; out.iterations <= 200; ++out.iterations) {
        if (r.head(nBranches).lpNorm<Eigen::Infinity>() <= 1e-9 * scale &&
            (unknowns == nBranches || r.tail(unknowns - nBranches).lpNorm<Eigen::Infinity>() <= 1e-9 * scale)) {
            converged = true;
            break;
        }
        if (out.iterations == 200)
            break;
        std::vector<Eigen::Triplet<double>> t;
        for (int b = 0; b < nBranches; ++b) {
            const Branch& br = net.branches[static_cast<std::size_t>(b)];
            const double q = x[b], step = std::max(1e-10, 1e-6 * std::abs(q));
            // dh/dQ, held above a floor so that a branch at no flow (a quadratic law's zero slope)
            // keeps the system regular.
            const double slope = std::max((drop(b, q + step) - drop(b, q - step)) / (2 * step), 1.0);
            t.emplace_back(b, b, -slope);
            if (br.from != net.reference) {
                t.emplace_back(b, column[static_cast<std::size_t>(br.from)], 1.0);
                t.emplace_back(column[static_cast<std::size_t>(br.from)], b, -kFlowScale);
            }
            if (br.to != net.reference) {
                t.emplace_back(b, column[static_cast<std::size_t>(br.to)], -1.0);
                t.emplace_back(column[static_cast<std::size_t>(br.to)], b, kFlowScale);
            }
        }
        Eigen::SparseMatrix<double> j(unknowns, unknowns);
        j.setFromTriplets(t.begin(), t.end());
        // The pattern is the network's: analysed once, factorised every iteration.
        if (!analysed) {
            lu.analyzePattern(j);
            analysed = true;
        }
        lu.factorize(j);
        if (lu.info() != Eigen::Success)
            throw NetworkError("the loop's equations are singular: a node with branches only of zero resistance, "
                               "or a closed ring of pumps");
        const Eigen::VectorXd dx = lu.solve(-r);
        // Backtracking: halve the step until the residual falls.
        double lambda = 1.0;
        Eigen::VectorXd next = x + dx;
        Eigen::VectorXd rn = residual(next);
        while (rn.lpNorm<Eigen::Infinity>() > norm && lambda > 1e-6) {
            lambda *= 0.5;
            next = x + lambda * dx;
            rn = residual(next);
        }
        x = next;
        r = rn;
        norm = r.lpNorm<Eigen::Infinity>();
    }
    out.residual = r.head(nBranches).lpNorm<Eigen::Infinity>();
    if (!converged) {
        char b[160];
        std::snprintf(b, sizeof b, "the loop did not converge in 200 Newton iterations (largest imbalance %.3g Pa)",
                      out.residual);
        throw NetworkError(b);
    }
    out.flowM3s.assign(x.data(), x.data() + nBranches);
    out.pressurePa.resize(static_cast<std::size_t>(nNodes));
    for (int n = 0; n < nNodes; ++n)
        out.pressurePa[static_cast<std::size_t>(n)] = net.referencePa + pressure(x, n);
    return out;
}

} // namespace rdt::liquid
