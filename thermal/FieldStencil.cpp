// The field solver's equations as structured 7-point stencils: storage, residuals, red-black
// Gauss-Seidel sweeps, and the assembly helpers (upwind neighbours with deferred correction).
#include "thermal/FieldSolver.h"
#include "thermal/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>

namespace rdt::thermal {

void FieldSolver::Stencil::resize(const std::array<int, 3>& dims)
{
    n = dims;
    const auto count =
        static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) * static_cast<std::size_t>(dims[2]);
    aP.assign(count, 0.0);
    b.assign(count, 0.0);
    for (auto& c : a)
        c.assign(count, 0.0);
}

namespace {

/// Σ a_nb φ_nb + b of unknown p at (i, j, k) of a stencil over dims n (neighbours outside the
/// index space have no coefficient).
template <class S>
inline double neighbourSum(const S& st, const std::vector<double>& phi, std::size_t p, int i, int j, int k)
{
    const auto s1 = static_cast<std::size_t>(st.n[0]);
    const std::size_t s2 = s1 * static_cast<std::size_t>(st.n[1]);
    double sum = st.b[p];
    if (i > 0)
        sum += st.a[0][p] * phi[p - 1];
    if (i + 1 < st.n[0])
        sum += st.a[1][p] * phi[p + 1];
    if (j > 0)
        sum += st.a[2][p] * phi[p - s1];
    if (j + 1 < st.n[1])
        sum += st.a[3][p] * phi[p + s1];
    if (k > 0)
        sum += st.a[4][p] * phi[p - s2];
    if (k + 1 < st.n[2])
        sum += st.a[5][p] * phi[p + s2];
    return sum;
}

} // namespace

std::array<double, 2> FieldSolver::Stencil::residual(const std::vector<double>& phi) const
{
    double res = 0, scale = 0;
#pragma omp parallel for schedule(static) reduction(+ : res, scale) if (aP.size() > kParallelCells)
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j) {
            std::size_t p = index(0, j, k);
            for (int i = 0; i < n[0]; ++i, ++p) {
                if (aP[p] == 0)
                    continue;
                res += std::abs(aP[p] * phi[p] - neighbourSum(*this, phi, p, i, j, k));
                scale += aP[p];
            }
        }
    return {res, scale};
}

// Red-black Gauss–Seidel: red unknowns, then black; per sweep twice, as the symmetric (forward
// and backward) sweep relaxed each unknown twice. Deterministic: no unknown is written while
// another reads it.
void FieldSolver::Stencil::sweep(std::vector<double>& phi, int sweeps) const
{
    const bool parallel = aP.size() > kParallelCells;
    for (int pass = 0; pass < 2 * sweeps; ++pass)
        for (int colour = 0; colour < 2; ++colour) {
#pragma omp parallel for schedule(static) if (parallel)
            for (int k = 0; k < n[2]; ++k)
                for (int j = 0; j < n[1]; ++j)
                    for (int i = (j + k + colour) & 1; i < n[0]; i += 2) {
                        const std::size_t p = index(i, j, k);
                        if (aP[p] != 0)
                            phi[p] = neighbourSum(*this, phi, p, i, j, k) / aP[p];
                    }
        }
}

// A row's neighbour with deferred correction: upwind in the matrix, the difference to the
// higher-order face value `face` lagged in the source (conservative: both cells of a face use the
// same face value).
void FieldSolver::Row::neighbour(int dir, double phiP, double phiNb, double diffusion, double outflow, double face,
                                 double blend)
{
    aP += diffusion + std::max(outflow, 0.0);
    a[static_cast<std::size_t>(dir)] += diffusion + std::max(-outflow, 0.0);
    const double upwind = outflow > 0 ? phiP : phiNb;
    correction -= blend * outflow * (face - upwind);
}

// A face with a known value (wall, inlet, a fixed boundary face).
void FieldSolver::Row::known(double diffusion, double outflow, double value)
{
    aP += diffusion + std::max(outflow, 0.0);
    b += (diffusion + std::max(-outflow, 0.0)) * value;
}

} // namespace rdt::thermal
