#include "power/Busbar.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <map>

namespace rdt::power {

BusSolution solveBusbar(const std::vector<BusSource>& sources, const std::vector<BusLoad>& loads, double ohmPerM)
{
    BusSolution s;
    s.loadVoltageV.assign(loads.size(), NAN);
    s.loadCurrentA.assign(loads.size(), 0.0);
    s.sourceCurrentA.assign(sources.size(), 0.0);
    if (sources.empty())
        return s;
    // Nodes are the distinct positions along the bar, bottom to top.
    std::vector<double> z;
    for (const auto& src : sources)
        z.push_back(src.heightM);
    for (const auto& l : loads)
        z.push_back(l.heightM);
    std::sort(z.begin(), z.end());
    z.erase(std::unique(z.begin(), z.end(), [](double a, double b) { return std::fabs(a - b) < 1e-9; }), z.end());
    auto node = [&](double h) { return static_cast<int>(std::lower_bound(z.begin(), z.end(), h - 1e-9) - z.begin()); };
    const int n = static_cast<int>(z.size());
    // A bar with (near) zero resistance still needs finite conductances: floor at 1 µΩ.
    auto segmentG = [&](int i) {
        return 1.0 / std::max(ohmPerM * (z[static_cast<std::size_t>(i + 1)] - z[static_cast<std::size_t>(i)]), 1e-6);
    };

    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(n, n);
    Eigen::VectorXd rhsSources = Eigen::VectorXd::Zero(n);
    for (int i = 0; i + 1 < n; ++i) {
        const double gi = segmentG(i);
        g(i, i) += gi;
        g(i + 1, i + 1) += gi;
        g(i, i + 1) -= gi;
        g(i + 1, i) -= gi;
    }
    for (const auto& src : sources) {
        const int k = node(src.heightM);
        const double gs = 1.0 / std::max(src.droopOhm, 1e-6);
        g(k, k) += gs;
        rhsSources(k) += gs * src.setpointV;
    }
    const Eigen::LDLT<Eigen::MatrixXd> solver(g);
    Eigen::VectorXd v = Eigen::VectorXd::Constant(n, sources.front().setpointV);
    // Constant-power loads: I = P / V, re-solved until the voltages stop moving.
    for (s.iterations = 1; s.iterations <= 100; ++s.iterations) {
        Eigen::VectorXd rhs = rhsSources;
        for (std::size_t i = 0; i < loads.size(); ++i) {
            const int k = node(loads[i].heightM);
            rhs(k) -= loads[i].powerW / std::max(v(k), 1e-3);
        }
        const Eigen::VectorXd next = solver.solve(rhs);
        const double change = (next - v).cwiseAbs().maxCoeff();
        v = next;
        if (v.minCoeff() <= 0.5) {
            s.converged = false; // the bar cannot carry these loads
            return s;
        }
        if (change < 1e-9) {
            s.converged = true;
            break;
        }
    }
    for (std::size_t i = 0; i < loads.size(); ++i) {
        const int k = node(loads[i].heightM);
        s.loadVoltageV[i] = v(k);
        s.loadCurrentA[i] = loads[i].powerW / v(k);
    }
    for (std::size_t i = 0; i < sources.size(); ++i)
        s.sourceCurrentA[i] =
            (sources[i].setpointV - v(node(sources[i].heightM))) / std::max(sources[i].droopOhm, 1e-6);
    return s;
}

} // namespace rdt::power
