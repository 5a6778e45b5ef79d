// The field solver's equations as structured 7-point stencils: storage, residuals, red-black
// Gauss-Seidel sweeps (the assembly helpers, Row, are inline in FieldSolver.h).
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"
#include "room/RedBlackPipeline.h"

#include <algorithm>
#include <cmath>

namespace rdt::room {

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

/// One row (j, k) of a stencil: its coefficient and neighbour pointers, where a neighbour outside
/// the index space reads a zero coefficient (and, harmlessly, the row itself) — the interior of a
/// row then needs no tests, with the sums' terms in neighbourSum's order (bitwise its answers).
struct RowView {
    const double *aP, *b, *am, *ap, *cjm, *cjp, *ckm, *ckp;
    const double *pjm, *pjp, *pkm, *pkp;
};

template <class S, class Phi>
RowView rowView(const S& st, Phi* phi, const std::vector<double>& zeros, int j, int k)
{
    const std::size_t row = st.index(0, j, k);
    const auto s1 = static_cast<std::size_t>(st.n[0]);
    const std::size_t s2 = s1 * static_cast<std::size_t>(st.n[1]);
    const bool jm = j > 0, jp = j + 1 < st.n[1], km = k > 0, kp = k + 1 < st.n[2];
    const double* self = phi + row;
    return {st.aP.data() + row,
            st.b.data() + row,
            st.a[0].data() + row,
            st.a[1].data() + row,
            jm ? st.a[2].data() + row : zeros.data(),
            jp ? st.a[3].data() + row : zeros.data(),
            km ? st.a[4].data() + row : zeros.data(),
            kp ? st.a[5].data() + row : zeros.data(),
            jm ? self - s1 : self,
            jp ? self + s1 : self,
            km ? self - s2 : self,
            kp ? self + s2 : self};
}

/// Σ a_nb φ_nb + b at i of a row, i an interior index (0 < i < n0 − 1).
inline double interiorSum(const RowView& r, const double* phi, int i)
{
    double sum = r.b[i];
    sum += r.am[i] * phi[i - 1];
    sum += r.ap[i] * phi[i + 1];
    sum += r.cjm[i] * r.pjm[i];
    sum += r.cjp[i] * r.pjp[i];
    sum += r.ckm[i] * r.pkm[i];
    sum += r.ckp[i] * r.pkp[i];
    return sum;
}

} // namespace

std::array<double, 2> FieldSolver::Stencil::residual(const std::vector<double>& phi) const
{
    double res = 0, scale = 0;
    const std::vector<double> zeros(static_cast<std::size_t>(n[0]), 0.0);
#pragma omp parallel for schedule(static) reduction(+ : res, scale) if (aP.size() > kParallelCells)
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j) {
            const std::size_t row = index(0, j, k);
            const RowView r = rowView(*this, phi.data(), zeros, j, k);
            const double* x = phi.data() + row;
            for (int i = 0; i < n[0]; ++i) {
                if (r.aP[i] == 0)
                    continue;
                const double sum = i > 0 && i + 1 < n[0]
                                       ? interiorSum(r, x, i)
                                       : neighbourSum(*this, phi, row + static_cast<std::size_t>(i), i, j, k);
                res += std::abs(r.aP[i] * x[i] - sum);
                scale += r.aP[i];
            }
        }
    return {res, scale};
}

// Red-black Gauss–Seidel: red unknowns, then black; per sweep twice, as the symmetric (forward
// and backward) sweep relaxed each unknown twice; each pass pipelined over the slabs
// (RedBlackPipeline.h). Deterministic: no unknown is written while another reads it.
void FieldSolver::Stencil::sweep(std::vector<double>& phi, int sweeps) const
{
    const bool parallel = aP.size() > kParallelCells;
    const std::vector<double> zeros(static_cast<std::size_t>(n[0]), 0.0);
    const int last = n[0] - 1;
    const auto relaxSlab = [&](int k, int colour) {
        for (int j = 0; j < n[1]; ++j) {
            const std::size_t row = index(0, j, k);
            const RowView r = rowView(*this, phi.data(), zeros, j, k);
            double* x = phi.data() + row;
            int i = (j + k + colour) & 1;
            if (i == 0) {
                if (r.aP[0] != 0)
                    x[0] = neighbourSum(*this, phi, row, 0, j, k) / r.aP[0];
                i = 2;
            }
            for (; i < last; i += 2)
                if (r.aP[i] != 0)
                    x[i] = interiorSum(r, x, i) / r.aP[i];
            if (i == last && last > 0 && r.aP[last] != 0)
                x[last] = neighbourSum(*this, phi, row + static_cast<std::size_t>(last), last, j, k) / r.aP[last];
        }
    };
    for (int pass = 0; pass < 2 * sweeps; ++pass)
        detail::redBlackPass(n[2], parallel, 0, relaxSlab);
}

} // namespace rdt::room
