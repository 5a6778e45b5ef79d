// The field solver started from the solution on another grid of the same domain (grid sequencing).
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdt::room {

using namespace detail;

namespace {

/// Where x falls between the points of an increasing array: the lower index and the weight of
/// the upper one (clamped to the ends: beyond them the end value holds).
struct Bracket {
    std::size_t lo = 0, hi = 0;
    double w = 0;
};

Bracket bracket(const std::vector<double>& xs, double x)
{
    Bracket b;
    if (xs.size() < 2 || x <= xs.front())
        return b;
    if (x >= xs.back()) {
        b.lo = b.hi = xs.size() - 1;
        return b;
    }
    b.hi = static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin());
    b.lo = b.hi - 1;
    b.w = (x - xs[b.lo]) / (xs[b.hi] - xs[b.lo]);
    return b;
}

/// A field on a lattice of points (x, y, z arrays; value index i + nx·(j + ny·k)).
struct Lattice {
    std::array<std::vector<double>, 3> x;

    /// Trilinear value of `values` at p over the lattice points `valid(index)` accepts (their
    /// weights renormalised); false when none of the eight around p is valid.
    template <class Valid>
    bool sample(const std::vector<double>& values, const std::array<double, 3>& p, Valid&& valid, double& out) const
    {
        const Bracket bx = bracket(x[0], p[0]), by = bracket(x[1], p[1]), bz = bracket(x[2], p[2]);
        const std::size_t nx = x[0].size(), ny = x[1].size();
        double sum = 0, weight = 0;
        for (int c = 0; c < 8; ++c) {
            const std::size_t i = (c & 1) ? bx.hi : bx.lo, j = (c & 2) ? by.hi : by.lo, k = (c & 4) ? bz.hi : bz.lo;
            const double w = ((c & 1) ? bx.w : 1 - bx.w) * ((c & 2) ? by.w : 1 - by.w) * ((c & 4) ? bz.w : 1 - bz.w);
            const std::size_t at = i + nx * (j + ny * k);
            if (w <= 0 || !valid(at))
                continue;
            sum += w * values[at];
            weight += w;
        }
        if (!(weight > 0))
            return false;
        out = sum / weight;
        return true;
    }
};

std::vector<double> centres(const FieldGrid& g, int axis)
{
    std::vector<double> c(static_cast<std::size_t>(g.cells(axis)));
    for (int i = 0; i < g.cells(axis); ++i)
        c[static_cast<std::size_t>(i)] = g.centre(axis, i);
    return c;
}

std::vector<double> faces(const FieldGrid& g, int axis)
{
    std::vector<double> f(static_cast<std::size_t>(g.cells(axis)) + 1);
    for (int i = 0; i <= g.cells(axis); ++i)
        f[static_cast<std::size_t>(i)] = g.face(axis, i);
    return f;
}

} // namespace

void FieldSolver::startFrom(const FieldSolver& coarse)
{
    const FieldGrid& cg = coarse.m_grid;
    for (int a = 0; a < 3; ++a)
        if (std::abs(cg.face(a, 0) - m_grid.face(a, 0)) > 1e-9 || std::abs(cg.length(a) - m_grid.length(a)) > 1e-9)
            throw std::invalid_argument("field solver: a solution can only start a grid of the same domain");
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    // Cell values: temperature, pressure and eddy viscosity from the coarse air cells.
    Lattice cells;
    for (int a = 0; a < 3; ++a)
        cells.x[static_cast<std::size_t>(a)] = centres(cg, a);
    const auto air = [&](std::size_t c) { return coarse.m_solid[c] == 0; };
    const bool nut = !coarse.m_nut.empty();
    if (nut)
        m_nut.assign(m_grid.cellCount(), 0.0);
    const bool kEps = !coarse.m_k.empty();
    if (kEps) {
        m_k.assign(m_grid.cellCount(), 0.0);
        m_eps.assign(m_grid.cellCount(), 0.0);
    }
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
    for (int k = 0; k < nc[2]; ++k)
        for (int j = 0; j < nc[1]; ++j)
            for (int i = 0; i < nc[0]; ++i) {
                const std::size_t c = m_grid.cell(i, j, k);
                const std::array<double, 3> p{m_grid.centre(0, i), m_grid.centre(1, j), m_grid.centre(2, k)};
                cells.sample(coarse.m_t, p, air, m_t[c]);
                cells.sample(coarse.m_p, p, air, m_p[c]);
                if (nut)
                    cells.sample(coarse.m_nut, p, air, m_nut[c]);
                if (kEps) {
                    cells.sample(coarse.m_k, p, air, m_k[c]);
                    cells.sample(coarse.m_eps, p, air, m_eps[c]);
                }
            }
    // Face velocities from the coarse faces of the same component; none through a solid's faces
    // (a black box sets its own at the next iteration, the boundaries theirs).
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        Lattice l;
        for (int a = 0; a < 3; ++a)
            l.x[static_cast<std::size_t>(a)] = a == d ? faces(cg, a) : centres(cg, a);
        Index3 dims = nc;
        dims[D] += 1;
        const auto all = [](std::size_t) { return true; };
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
        for (int k = 0; k < dims[2]; ++k)
            for (int j = 0; j < dims[1]; ++j)
                for (int i = 0; i < dims[0]; ++i) {
                    const Index3 at{i, j, k};
                    std::array<double, 3> p{};
                    for (int a = 0; a < 3; ++a) {
                        const int n = at[static_cast<std::size_t>(a)];
                        p[static_cast<std::size_t>(a)] = a == d ? m_grid.face(a, n) : m_grid.centre(a, n);
                    }
                    double& u = m_u[D][faceIndex(d, at)];
                    const int n = at[D];
                    Index3 below = at;
                    below[D] -= 1;
                    const bool solid = (n > 0 && m_solid[m_grid.cell(below[0], below[1], below[2])]) ||
                                       (n < nc[D] && m_solid[m_grid.cell(at[0], at[1], at[2])]);
                    if (solid || !l.sample(coarse.m_u[D], p, all, u))
                        u = 0;
                }
    }
    m_continuityPeak = std::max(m_continuityPeak, coarse.m_continuityPeak);
}

} // namespace rdt::room
