// Benchmark: the room solver's pressure-correction solve — multigrid-preconditioned CG against
// Eigen's conjugate gradients (diagonal preconditioner, the plain baseline) and IC-CG, in the same
// run, on (1) the pressure-correction system of a 3D room grid (one solve to 1e-6) and (2) a whole
// lid-driven cavity solve (Re 1000, 64 × 64, to 1e-5), with the figures and ratios printed.
//   bench_field [cells-per-axis]     default 64 (64³ = 262,144 cells)
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "BenchUtil.h"
#include "room/FieldGrid.h"
#include "room/FieldSolver.h"
#include "room/PoissonMultigrid.h"

using namespace rdt::room;

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 64;
    if (n < 4 || n > 256) {
        std::fprintf(stderr, "bench_field: cells per axis must lie in 4…256\n");
        return 2;
    }
    // (1) A 7-point operator as the pressure correction produces on a room grid: coefficients
    // ρ A² / a_P varying with the local flow (here over a decade), a zero-sum right-hand side.
    const std::array<int, 3> dims{n, n, n / 2};
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> c(0.3, 3.0), v(-1.0, 1.0);
    std::array<std::vector<double>, 3> coeff;
    for (int d = 0; d < 3; ++d) {
        auto f = dims;
        f[static_cast<std::size_t>(d)] += 1;
        coeff[static_cast<std::size_t>(d)].resize(static_cast<std::size_t>(f[0]) * f[1] * f[2]);
        for (double& x : coeff[static_cast<std::size_t>(d)])
            x = c(rng);
    }
    const std::size_t cells = static_cast<std::size_t>(dims[0]) * dims[1] * dims[2];
    std::vector<double> b(cells);
    double sum = 0;
    for (double& x : b)
        sum += (x = v(rng));
    for (double& x : b)
        x -= sum / static_cast<double>(cells);

    const PoissonMultigrid mg(dims, coeff);
    PoissonMultigrid::Result mgResult;
    const double tMg = medianSeconds(3, [&] {
        std::vector<double> x;
        mgResult = PoissonMultigrid(dims, coeff).solve(b, x, 1e-6, 1000);
    });
    // The same operator for Eigen, cell 0 pinned.
    std::vector<Eigen::Triplet<double>> t;
    std::vector<double> diag(cells, 0.0);
    for (int d = 0; d < 3; ++d) {
        auto f = dims;
        f[static_cast<std::size_t>(d)] += 1;
        for (int k = 0; k < dims[2]; ++k)
            for (int j = 0; j < dims[1]; ++j)
                for (int i = 0; i < dims[0]; ++i) {
                    std::array<int, 3> at{i, j, k};
                    if (at[static_cast<std::size_t>(d)] == 0)
                        continue;
                    const double a =
                        coeff[static_cast<std::size_t>(d)][static_cast<std::size_t>(i + f[0] * (j + f[1] * k))];
                    auto m = at;
                    m[static_cast<std::size_t>(d)] -= 1;
                    const auto cp = static_cast<std::size_t>(i + dims[0] * (j + dims[1] * k));
                    const auto cm = static_cast<std::size_t>(m[0] + dims[0] * (m[1] + dims[1] * m[2]));
                    diag[cp] += a;
                    diag[cm] += a;
                    if (cp != 0 && cm != 0) {
                        t.emplace_back(static_cast<Eigen::Index>(cp), static_cast<Eigen::Index>(cm), -a);
                        t.emplace_back(static_cast<Eigen::Index>(cm), static_cast<Eigen::Index>(cp), -a);
                    }
                }
    }
    Eigen::VectorXd eb(static_cast<Eigen::Index>(cells));
    for (std::size_t i = 0; i < cells; ++i) {
        t.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i), i == 0 ? 1.0 : diag[i]);
        eb[static_cast<Eigen::Index>(i)] = i == 0 ? 0.0 : b[i];
    }
    Eigen::SparseMatrix<double> m(static_cast<Eigen::Index>(cells), static_cast<Eigen::Index>(cells));
    m.setFromTriplets(t.begin(), t.end());
    long cgIts = 0, icIts = 0;
    const double tCg = medianSeconds(3, [&] {
        Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper> cg;
        cg.setTolerance(1e-6);
        cg.setMaxIterations(100000);
        cg.compute(m);
        Eigen::VectorXd x = cg.solve(eb);
        cgIts = cg.iterations();
    });
    const double tIc = medianSeconds(1, [&] {
        Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper,
                                 Eigen::IncompleteCholesky<double>>
            cg;
        cg.setTolerance(1e-6);
        cg.setMaxIterations(100000);
        cg.compute(m);
        Eigen::VectorXd x = cg.solve(eb);
        icIts = cg.iterations();
    });
    std::printf("pressure correction, %d x %d x %d = %zu cells, to 1e-6 relative:\n", dims[0], dims[1], dims[2], cells);
    std::printf("  multigrid CG      %8.3f s  %5d iterations  (%d levels)\n", tMg, mgResult.iterations, mg.levels());
    std::printf("  Eigen CG (diag)   %8.3f s  %5ld iterations  baseline / multigrid = %.1fx\n", tCg, cgIts, tCg / tMg);
    std::printf("  Eigen IC-CG       %8.3f s  %5ld iterations  IC-CG / multigrid = %.1fx\n", tIc, icIts, tIc / tMg);

    // (2) A whole solve: lid-driven cavity, Re 1000.
    std::printf("lid-driven cavity Re 1000, 64 x 64, to 1e-5:\n");
    double base = 0;
    for (PressureSolver ps : {PressureSolver::EigenCG, PressureSolver::EigenICCG, PressureSolver::MultigridCG}) {
        const auto axis = FieldGrid::clustered(0.0, 1.0, 64, 1.04);
        FluidProperties f;
        f.density = 1.0;
        f.viscosity = 1e-3;
        f.gravity = {0, 0, 0};
        FieldSolver s(FieldGrid({axis, axis, {0.0, 0.1}}), f);
        s.setBoundary(Side::YMax, BoundaryCondition{BoundaryKind::Wall, {1.0, 0, 0}, {}});
        FieldSettings st;
        st.solveEnergy = false;
        st.tolerance = 1e-5;
        st.maxIterations = 6000;
        st.pressureSolver = ps;
        const FieldResult r = s.solve(st);
        const char* name = ps == PressureSolver::EigenCG     ? "Eigen CG (diag)"
                           : ps == PressureSolver::EigenICCG ? "Eigen IC-CG"
                                                             : "multigrid CG";
        if (ps == PressureSolver::EigenCG)
            base = r.seconds;
        std::printf("  %-16s  %8.3f s  %5d outer iterations  baseline / this = %.1fx\n", name, r.seconds, r.iterations,
                    base / r.seconds);
    }
    return 0;
}
