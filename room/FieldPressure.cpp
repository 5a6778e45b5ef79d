// The field solver's pressure correction (SIMPLEC): multigrid CG, or Eigen's CG as baselines.
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"
#include "room/PoissonMultigrid.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <cmath>

namespace rdt::room {

using namespace detail;

double FieldSolver::pressureCorrection(const FieldSettings& s)
{
    const std::size_t n = m_grid.cellCount();
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const double rho = m_fluid.density;
    // Face coefficients ρ A d_f of the correction equation Σ_f c_f (p'_P − p'_nb) = −imbalance_P.
    // Every interior face and every cell is written below; boundary faces stay zero.
    std::array<std::vector<double>, 3>& coeff = m_pcCoeff;
    for (int d = 0; d < 3; ++d)
        if (coeff[static_cast<std::size_t>(d)].size() != m_u[static_cast<std::size_t>(d)].size())
            coeff[static_cast<std::size_t>(d)].assign(m_u[static_cast<std::size_t>(d)].size(), 0.0);
    std::vector<double>& rhs = m_pcRhs;
    rhs.resize(n);
    double imbalanceSum = 0;
    // Each cell writes its own right-hand side and its high faces' coefficients: slabs in parallel.
#pragma omp parallel for schedule(static) reduction(+ : imbalanceSum) if (n > kParallelCells)
    for (int slab = 0; slab < nc[2]; ++slab) {
        Index3 at{};
        at[2] = slab;
        for (at[1] = 0; at[1] < nc[1]; ++at[1])
            for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                const std::size_t c = m_grid.cell(at[0], at[1], at[2]);
                double imbalance = 0;
                forEachCellFace(at, rho, [&](const CellFace& f) {
                    imbalance += f.outflow;
                    if (f.side > 0 && f.interior) { // each interior face once (boundary faces take no correction)
                        const auto D = static_cast<std::size_t>(f.d);
                        coeff[D][f.fi] = rho * f.area * m_d[D][f.fi];
                    }
                });
                if (m_solid[c]) {
                    rhs[c] = 0;
                    continue; // inside a black box, which carries its flow from intake to exhaust
                }
                imbalanceSum += std::abs(imbalance);
                rhs[c] = -imbalance;
            }
    }
    Index3 at{};
    std::vector<double>& pc = m_pcValue;
    pc.resize(n);
    const auto cells = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (n > kParallelCells)
    for (std::ptrdiff_t c = 0; c < cells; ++c)
        pc[static_cast<std::size_t>(c)] = 0;
    if (s.pressureSolver == PressureSolver::MultigridCG) {
        // The hierarchy is kept between iterations; only its coefficients change (swapped with
        // coeff, whose storage the next iteration reuses).
        if (!m_mg)
            m_mg = std::make_shared<PoissonMultigrid>(nc, coeff);
        else
            m_mg->swapCoefficients(coeff);
        m_mg->solve(rhs, pc, s.pressureTolerance, 500);
    } else {
        // Eigen's conjugate gradients on the assembled matrix, the first air cell pinned (p' = 0; its
        // row and column dropped to keep the matrix symmetric) — the baseline the multigrid is
        // measured against.
        std::size_t pin = 0;
        while (pin + 1 < n && m_solid[pin])
            ++pin;
        std::vector<Eigen::Triplet<double>> triplets;
        triplets.reserve(7 * n);
        std::vector<double> diag(n, 0.0);
        for (int d = 0; d < 3; ++d) {
            const auto D = static_cast<std::size_t>(d);
            for (at[2] = 0; at[2] < nc[2]; ++at[2])
                for (at[1] = 0; at[1] < nc[1]; ++at[1])
                    for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                        if (at[D] == 0)
                            continue;
                        const double a = coeff[D][faceIndex(d, at)];
                        Index3 mI = at;
                        mI[D] -= 1;
                        const std::size_t cp = m_grid.cell(at[0], at[1], at[2]);
                        const std::size_t cm = m_grid.cell(mI[0], mI[1], mI[2]);
                        diag[cp] += a;
                        diag[cm] += a;
                        if (cp != pin && cm != pin) {
                            triplets.emplace_back(static_cast<Eigen::Index>(cp), static_cast<Eigen::Index>(cm), -a);
                            triplets.emplace_back(static_cast<Eigen::Index>(cm), static_cast<Eigen::Index>(cp), -a);
                        }
                    }
        }
        Eigen::VectorXd b(static_cast<Eigen::Index>(n));
        for (std::size_t c = 0; c < n; ++c) {
            const bool pinned = c == pin || diag[c] <= 0;
            triplets.emplace_back(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(c), pinned ? 1.0 : diag[c]);
            b[static_cast<Eigen::Index>(c)] = pinned ? 0.0 : rhs[c];
        }
        Eigen::SparseMatrix<double> m(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
        m.setFromTriplets(triplets.begin(), triplets.end());
        Eigen::VectorXd x;
        if (s.pressureSolver == PressureSolver::EigenCG) {
            Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper> cg;
            cg.setTolerance(s.pressureTolerance);
            cg.setMaxIterations(20000);
            cg.compute(m);
            x = cg.solve(b);
        } else {
            Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper,
                                     Eigen::IncompleteCholesky<double>>
                cg;
            cg.setTolerance(s.pressureTolerance);
            cg.setMaxIterations(20000);
            cg.compute(m);
            x = cg.solve(b);
        }
        for (std::size_t c = 0; c < n; ++c)
            pc[c] = x[static_cast<Eigen::Index>(c)];
    }
#pragma omp parallel for schedule(static) if (n > kParallelCells)
    for (std::ptrdiff_t c = 0; c < cells; ++c)
        m_p[static_cast<std::size_t>(c)] += s.pressureRelaxation * pc[static_cast<std::size_t>(c)];
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (nc[D] < 2)
            continue;
        const int nk = nc[2] + (d == 2 ? 1 : 0);
#pragma omp parallel for schedule(static) if (n > kParallelCells)
        for (int slab = 0; slab < nk; ++slab) {
            Index3 f{};
            f[2] = slab;
            for (f[1] = 0; f[1] < nc[1] + (d == 1 ? 1 : 0); ++f[1])
                for (f[0] = 0; f[0] < nc[0] + (d == 0 ? 1 : 0); ++f[0]) {
                    if (f[D] == 0 || f[D] == nc[D])
                        continue;
                    Index3 cmI = f;
                    cmI[D] -= 1;
                    const std::size_t fi = faceIndex(d, f);
                    m_u[D][fi] +=
                        m_d[D][fi] * (pc[m_grid.cell(cmI[0], cmI[1], cmI[2])] - pc[m_grid.cell(f[0], f[1], f[2])]);
                }
        }
    }
    return imbalanceSum;
}

} // namespace rdt::room
