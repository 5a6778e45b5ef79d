#include "thermal/FlowNetwork.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <cmath>
#include <queue>

namespace rdt::thermal {

namespace {
// k·Q|Q|^(n−1) is written k·Q·(Q² + ε²)^((n−1)/2): identical to 1e-10 relative above 1 L/s, and
// its derivative stays positive at zero flow so the Newton Jacobian is regular.
constexpr double kEps = 1e-6;
constexpr int kDenseLimit = 64;
} // namespace

int FlowNetwork::addNode(std::string name, std::optional<double> fixedPa)
{
    m_nodes.push_back({std::move(name), fixedPa});
    m_validated = false;
    return static_cast<int>(m_nodes.size()) - 1;
}

int FlowNetwork::addImpedance(std::string name, int from, int to, double k, double n)
{
    if (!(k >= 0) || !std::isfinite(k))
        throw NetworkError("impedance \"" + name + "\" must be a finite k ≥ 0");
    if (n < 1 || n > 2)
        throw NetworkError("impedance \"" + name + "\" exponent must be between 1 and 2");
    m_branches.push_back({std::move(name), from, to, k, n, {}, {}});
    m_validated = false;
    return static_cast<int>(m_branches.size()) - 1;
}

int FlowNetwork::addFan(std::string name, int from, int to, std::function<double(double)> rise,
                        std::function<double(double)> slope, double seriesK)
{
    if (!(seriesK >= 0))
        throw NetworkError("fan \"" + name + "\" series impedance must be ≥ 0");
    m_branches.push_back({std::move(name), from, to, seriesK, 2.0, std::move(rise), std::move(slope)});
    m_validated = false;
    return static_cast<int>(m_branches.size()) - 1;
}

double FlowNetwork::law(const Branch& b, double q, double& d) const
{
    // Pressure rise from→to along the branch. The usual exponents avoid pow().
    const double s2 = q * q + kEps * kEps;
    const double m = b.n == 2.0 ? std::sqrt(s2) : b.n == 1.0 ? 1.0 : std::pow(s2, 0.5 * (b.n - 1.0));
    const double loss = b.k * q * m;
    d = -b.k * (m + (b.n - 1.0) * q * q * m / s2);
    double rise = -loss;
    if (b.rise) {
        rise += b.rise(q);
        d += b.slope(q);
    }
    return rise;
}

void FlowNetwork::validate() const
{
    if (m_validated)
        return;
    // Every free node must reach a fixed-pressure node, or its pressure is undetermined.
    std::vector<std::vector<int>> adj(m_nodes.size());
    for (const Branch& b : m_branches) {
        if (b.from < 0 || b.to < 0 || b.from >= static_cast<int>(m_nodes.size()) ||
            b.to >= static_cast<int>(m_nodes.size()))
            throw NetworkError("branch \"" + b.name + "\" joins a node that does not exist");
        adj[static_cast<std::size_t>(b.from)].push_back(b.to);
        adj[static_cast<std::size_t>(b.to)].push_back(b.from);
    }
    std::vector<bool> seen(m_nodes.size(), false);
    std::queue<int> q;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].fixed) {
            seen[i] = true;
            q.push(static_cast<int>(i));
        }
    while (!q.empty()) {
        const int n = q.front();
        q.pop();
        for (int m : adj[static_cast<std::size_t>(n)])
            if (!seen[static_cast<std::size_t>(m)]) {
                seen[static_cast<std::size_t>(m)] = true;
                q.push(m);
            }
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (!seen[i])
            throw NetworkError("node \"" + m_nodes[i].name + "\" has no air path to a fixed-pressure boundary");
    m_validated = true;
}

FlowSolution FlowNetwork::solve(const FlowSolution* guess) const
{
    validate();
    const int nb = static_cast<int>(m_branches.size());
    std::vector<int> unknownOf(m_nodes.size(), -1);
    int nf = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (!m_nodes[i].fixed)
            unknownOf[i] = nb + nf++;
    const int n = nb + nf;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    for (int b = 0; b < nb; ++b)
        x(b) = m_branches[static_cast<std::size_t>(b)].rise ? 0.01 : 0.0; // fans start moving air
    if (guess && guess->flow.size() == static_cast<std::size_t>(nb) && guess->pressure.size() == m_nodes.size()) {
        for (int b = 0; b < nb; ++b)
            x(b) = guess->flow[static_cast<std::size_t>(b)];
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            if (unknownOf[i] >= 0)
                x(unknownOf[i]) = guess->pressure[i];
    }

    auto pressureOf = [&](const Eigen::VectorXd& v, int node) {
        const auto& nd = m_nodes[static_cast<std::size_t>(node)];
        return nd.fixed ? *nd.fixed : v(unknownOf[static_cast<std::size_t>(node)]);
    };
    // Residuals: each branch's law, then mass at each free node; `dLaw` receives dLaw/dQ per branch.
    auto residual = [&](const Eigen::VectorXd& v, Eigen::VectorXd& r, Eigen::VectorXd* dLaw) {
        r.setZero(n);
        for (int b = 0; b < nb; ++b) {
            const Branch& br = m_branches[static_cast<std::size_t>(b)];
            double d = 0;
            r(b) = law(br, v(b), d) - (pressureOf(v, br.to) - pressureOf(v, br.from));
            if (dLaw)
                (*dLaw)(b) = d;
            // Mass: flow leaves `from`, enters `to`.
            if (unknownOf[static_cast<std::size_t>(br.from)] >= 0)
                r(unknownOf[static_cast<std::size_t>(br.from)]) -= v(b);
            if (unknownOf[static_cast<std::size_t>(br.to)] >= 0)
                r(unknownOf[static_cast<std::size_t>(br.to)]) += v(b);
        }
    };
    // The whole Jacobian, for the fallback solvers.
    auto jacobian = [&](const Eigen::VectorXd& dl, std::vector<Eigen::Triplet<double>>& out) {
        out.clear();
        for (int b = 0; b < nb; ++b) {
            const Branch& br = m_branches[static_cast<std::size_t>(b)];
            const int t = unknownOf[static_cast<std::size_t>(br.to)], f = unknownOf[static_cast<std::size_t>(br.from)];
            out.emplace_back(b, b, dl(b));
            if (t >= 0) {
                out.emplace_back(b, t, -1.0);
                out.emplace_back(t, b, 1.0);
            }
            if (f >= 0) {
                out.emplace_back(b, f, 1.0);
                out.emplace_back(f, b, -1.0);
            }
        }
    };

    FlowSolution sol;
    Eigen::VectorXd r(n), rTrial(n), dx(n), dp(nf), rhs(nf), w(nb), dLaw(nb);
    std::vector<Eigen::Triplet<double>> trips;
    trips.reserve(static_cast<std::size_t>(5 * nb));
    Eigen::SparseMatrix<double> jac(n, n);
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    Eigen::MatrixXd schur(nf, nf);
    Eigen::PartialPivLU<Eigen::MatrixXd> schurLu(nf);
    for (sol.iterations = 1; sol.iterations <= 200; ++sol.iterations) {
        residual(x, r, &dLaw);
        const double norm = r.norm();
        double scale = 1e-12;
        for (int b = 0; b < nb; ++b)
            scale = std::max(scale, std::fabs(x(b)));
        double massErr = 0;
        for (int i = nb; i < n; ++i)
            massErr = std::max(massErr, std::fabs(r(i)));
        double lawErr = 0;
        for (int b = 0; b < nb; ++b)
            lawErr = std::max(lawErr, std::fabs(r(b)));
        if (massErr <= 1e-12 * scale && lawErr <= 1e-9) {
            sol.massResidual = massErr;
            break;
        }
        // Each branch's law depends on its own flow only: the Jacobian is [[D, −Aᵀ], [A, 0]] with D
        // diagonal (dLaw/dQ, negative for every loss and falling fan curve) and A the node-branch
        // incidence. Eliminating the flows leaves the small system (A D⁻¹ Aᵀ)·Δp = …, one row per
        // free node; a zero-slope branch (k = 0, no fan) falls back to the whole system.
        bool diagonal = nf <= kDenseLimit;
        for (int b = 0; b < nb && diagonal; ++b) {
            diagonal = std::fabs(dLaw(b)) > 1e-12;
            w(b) = diagonal ? 1.0 / dLaw(b) : 0.0;
        }
        if (diagonal) {
            schur.setZero();
            rhs = -r.tail(nf);
            for (int b = 0; b < nb; ++b) {
                const Branch& br = m_branches[static_cast<std::size_t>(b)];
                const int t = unknownOf[static_cast<std::size_t>(br.to)] - nb;
                const int f = unknownOf[static_cast<std::size_t>(br.from)] - nb;
                const double wb = w(b);
                if (t >= 0) {
                    schur(t, t) += wb;
                    rhs(t) += r(b) * wb;
                }
                if (f >= 0) {
                    schur(f, f) += wb;
                    rhs(f) -= r(b) * wb;
                }
                if (t >= 0 && f >= 0) {
                    schur(t, f) -= wb;
                    schur(f, t) -= wb;
                }
            }
            if (nf > 0) {
                schurLu.compute(schur);
                dp = schurLu.solve(rhs);
            }
            for (int b = 0; b < nb; ++b) {
                const Branch& br = m_branches[static_cast<std::size_t>(b)];
                const int t = unknownOf[static_cast<std::size_t>(br.to)] - nb;
                const int f = unknownOf[static_cast<std::size_t>(br.from)] - nb;
                dx(b) = (-r(b) + (t >= 0 ? dp(t) : 0.0) - (f >= 0 ? dp(f) : 0.0)) * w(b);
            }
            dx.tail(nf) = dp;
        } else if (n <= kDenseLimit) {
            jacobian(dLaw, trips);
            // Rack-sized systems: a dense LU is far cheaper than a sparse factorisation.
            Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
            for (const auto& t : trips)
                dense(t.row(), t.col()) += t.value();
            const Eigen::PartialPivLU<Eigen::MatrixXd> dlu(dense);
            dx = dlu.solve(-r);
        } else {
            jacobian(dLaw, trips);
            jac.setFromTriplets(trips.begin(), trips.end());
            lu.compute(jac);
            if (lu.info() != Eigen::Success)
                throw std::runtime_error("airflow network: singular Jacobian");
            dx = lu.solve(-r);
        }
        if (!dx.allFinite())
            throw std::runtime_error("airflow network: singular Jacobian");
        // Backtracking: accept the first step that lowers the residual.
        double t = 1.0;
        for (int k = 0; k < 30; ++k, t *= 0.5) {
            residual(x + t * dx, rTrial, nullptr);
            if (rTrial.norm() < norm * (1 - 1e-4 * t))
                break;
        }
        x += t * dx;
        if (sol.iterations == 200)
            throw std::runtime_error("airflow network did not converge in 200 Newton steps");
    }
    sol.flow.assign(x.data(), x.data() + nb);
    sol.pressure.resize(m_nodes.size());
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        sol.pressure[i] = pressureOf(x, static_cast<int>(i));
    return sol;
}

} // namespace rdt::thermal
