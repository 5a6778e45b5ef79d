#include "room/PoissonMultigrid.h"

#include "room/RedBlackPipeline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdt::room {

namespace {

using Dims = std::array<int, 3>;

std::size_t cellCount(const Dims& n)
{
    return static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(n[2]);
}

std::size_t cellIndex(const Dims& n, int i, int j, int k)
{
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(n[0]) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(k));
}

std::size_t faceCount(const Dims& n, int d)
{
    Dims f = n;
    f[static_cast<std::size_t>(d)] += 1;
    return cellCount(f);
}

std::size_t faceIndex(const Dims& n, int d, int i, int j, int k)
{
    const int n0 = n[0] + (d == 0 ? 1 : 0), n1 = n[1] + (d == 1 ? 1 : 0);
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(n0) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(n1) * static_cast<std::size_t>(k));
}

/// Below this many cells a loop runs on one thread: the coarse levels' loops are too short to
/// pay for waking a team (they spent a third of a room solve in the OpenMP runtime).
constexpr long kParallelMin = 32768;

/// to = from, element by element (both the same size), on all threads for large vectors.
void copy(const std::vector<double>& from, std::vector<double>& to)
{
    const auto n = static_cast<long>(to.size());
#pragma omp parallel for schedule(static) if (n > kParallelMin)
    for (long i = 0; i < n; ++i)
        to[static_cast<std::size_t>(i)] = from[static_cast<std::size_t>(i)];
}

void zero(std::vector<double>& v)
{
    const auto n = static_cast<long>(v.size());
#pragma omp parallel for schedule(static) if (n > kParallelMin)
    for (long i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = 0.0;
}

double dot(const std::vector<double>& a, const std::vector<double>& b)
{
    double s = 0;
    const auto n = static_cast<long>(a.size());
#pragma omp parallel for reduction(+ : s) schedule(static) if (n > kParallelMin)
    for (long i = 0; i < n; ++i)
        s += a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i)];
    return s;
}

/// Remove the mean over the active cells (those with a coefficient); inactive cells are zero.
void removeMean(std::vector<double>& v, const std::vector<char>& active)
{
    double s = 0;
    long n = 0;
    const auto count = static_cast<long>(v.size());
#pragma omp parallel for schedule(static) reduction(+ : s, n) if (count > kParallelMin)
    for (long i = 0; i < count; ++i)
        if (active[static_cast<std::size_t>(i)]) {
            s += v[static_cast<std::size_t>(i)];
            ++n;
        }
    const double mean = n > 0 ? s / static_cast<double>(n) : 0.0;
#pragma omp parallel for schedule(static) if (count > kParallelMin)
    for (long i = 0; i < count; ++i) {
        const auto u = static_cast<std::size_t>(i);
        v[u] = active[u] ? v[u] - mean : 0.0;
    }
}

/// Over-correction: piecewise-constant prolongation from aggregates under-shoots smooth errors,
/// and the coarse correction scaled by a factor near 2 restores most of the rate (Blaheta 1986,
/// J. Comput. Appl. Math. 24, 227–239; Braess 1995, Computing 55, 379–393). A constant factor
/// keeps the V-cycle symmetric (the coarse operator divided by it), as CG needs; 1.8 took the
/// room-like system of bench_field from 21 to 7 CG iterations (to 1e-6).
constexpr double kCorrectionScale = 1.8;
constexpr int kSmoothingSweeps = 2; // red–black pairs before and after the coarse correction
constexpr int kCoarsestSweeps = 40; // on the coarsest level (≤ 64 cells)
constexpr std::size_t kCoarsestCells = 64;

} // namespace

PoissonMultigrid::PoissonMultigrid(Dims dims, std::array<std::vector<double>, 3> coeff)
{
    for (int d = 0; d < 3; ++d)
        if (dims[static_cast<std::size_t>(d)] < 1)
            throw std::invalid_argument("multigrid: every axis needs at least one cell");
    // The hierarchy: halve every axis (an axis stops at one cell) until the coarsest level is small
    // or no axis can be halved.
    Level fine;
    fine.n = dims;
    m_levels.push_back(std::move(fine));
    while (cellCount(m_levels.back().n) > kCoarsestCells) {
        const Dims& f = m_levels.back().n;
        Dims nc{};
        for (std::size_t d = 0; d < 3; ++d)
            nc[d] = (f[d] + 1) / 2;
        if (nc == f)
            break;
        Level c;
        c.n = nc;
        m_levels.push_back(std::move(c));
    }
    for (Level& l : m_levels) {
        const std::size_t n = cellCount(l.n);
        for (int d = 0; d < 3; ++d)
            l.c[static_cast<std::size_t>(d)].assign(faceCount(l.n, d), 0.0);
        l.diag.assign(n, 0.0);
        l.x.assign(n, 0.0);
        l.b.assign(n, 0.0);
        l.r.assign(n, 0.0);
    }
    setCoefficients(std::move(coeff));
}

void PoissonMultigrid::setCoefficients(std::array<std::vector<double>, 3> coeff)
{
    swapCoefficients(coeff);
}

void PoissonMultigrid::swapCoefficients(std::array<std::vector<double>, 3>& coeff)
{
    const Dims dims = m_levels.front().n;
    for (int d = 0; d < 3; ++d)
        if (coeff[static_cast<std::size_t>(d)].size() != faceCount(dims, d))
            throw std::invalid_argument("multigrid: face coefficient count does not match the grid");
    std::swap(m_levels.front().c, coeff);
    for (std::size_t lv = 0; lv < m_levels.size(); ++lv) {
        Level& l = m_levels[lv];
        const bool parallel = static_cast<long>(cellCount(l.n)) > kParallelMin;
        if (lv > 0) {
            // A coarse face's coefficient: the sum of the fine faces it covers (interior coarse
            // face F along d lies on fine face 2F).
            const Level& f = m_levels[lv - 1];
            for (int d = 0; d < 3; ++d) {
                const auto D = static_cast<std::size_t>(d);
                Dims cf = l.n;
                cf[D] += 1;
#pragma omp parallel for schedule(static) if (parallel)
                for (int k = 0; k < cf[2]; ++k)
                    for (int j = 0; j < cf[1]; ++j)
                        for (int i = 0; i < cf[0]; ++i) {
                            const Dims at{i, j, k};
                            double sum = 0;
                            if (at[D] > 0 && at[D] < l.n[D]) {
                                Dims lo{2 * i, 2 * j, 2 * k}, hi{};
                                for (std::size_t a = 0; a < 3; ++a)
                                    hi[a] = a == D ? lo[a] + 1 : std::min(lo[a] + 2, f.n[a]);
                                for (int fk = lo[2]; fk < hi[2]; ++fk)
                                    for (int fj = lo[1]; fj < hi[1]; ++fj)
                                        for (int fi = lo[0]; fi < hi[0]; ++fi)
                                            sum += f.c[D][faceIndex(f.n, d, fi, fj, fk)];
                            }
                            l.c[D][faceIndex(l.n, d, i, j, k)] = sum;
                        }
            }
        }
        // Boundary faces carry no coefficient (Neumann); the diagonal sums the cell's faces.
#pragma omp parallel for schedule(static) if (parallel)
        for (int k = 0; k < l.n[2]; ++k)
            for (int j = 0; j < l.n[1]; ++j)
                for (int i = 0; i < l.n[0]; ++i) {
                    if (i == 0)
                        l.c[0][faceIndex(l.n, 0, 0, j, k)] = 0;
                    l.c[0][faceIndex(l.n, 0, i + 1, j, k)] *= i + 1 < l.n[0] ? 1.0 : 0.0;
                    if (j == 0)
                        l.c[1][faceIndex(l.n, 1, i, 0, k)] = 0;
                    l.c[1][faceIndex(l.n, 1, i, j + 1, k)] *= j + 1 < l.n[1] ? 1.0 : 0.0;
                    if (k == 0)
                        l.c[2][faceIndex(l.n, 2, i, j, 0)] = 0;
                    l.c[2][faceIndex(l.n, 2, i, j, k + 1)] *= k + 1 < l.n[2] ? 1.0 : 0.0;
                }
#pragma omp parallel for schedule(static) if (parallel)
        for (int k = 0; k < l.n[2]; ++k)
            for (int j = 0; j < l.n[1]; ++j)
                for (int i = 0; i < l.n[0]; ++i) {
                    double s = 0;
                    s += l.c[0][faceIndex(l.n, 0, i, j, k)] + l.c[0][faceIndex(l.n, 0, i + 1, j, k)];
                    s += l.c[1][faceIndex(l.n, 1, i, j, k)] + l.c[1][faceIndex(l.n, 1, i, j + 1, k)];
                    s += l.c[2][faceIndex(l.n, 2, i, j, k)] + l.c[2][faceIndex(l.n, 2, i, j, k + 1)];
                    l.diag[cellIndex(l.n, i, j, k)] = s;
                }
    }
    const Level& f = m_levels.front();
    m_active.resize(f.diag.size());
    const auto count = static_cast<long>(f.diag.size());
#pragma omp parallel for schedule(static) if (count > kParallelMin)
    for (long i = 0; i < count; ++i)
        m_active[static_cast<std::size_t>(i)] = f.diag[static_cast<std::size_t>(i)] > 0 ? 1 : 0;
}

void PoissonMultigrid::apply(std::size_t level, const std::vector<double>& x, std::vector<double>& y) const
{
    const Level& l = m_levels[level];
    const Dims n = l.n;
    y.resize(x.size());
#pragma omp parallel for schedule(static) if (static_cast <long>(x.size()) > kParallelMin)
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i) {
                const std::size_t p = cellIndex(n, i, j, k);
                double s = l.diag[p] * x[p];
                if (i > 0)
                    s -= l.c[0][faceIndex(n, 0, i, j, k)] * x[p - 1];
                if (i + 1 < n[0])
                    s -= l.c[0][faceIndex(n, 0, i + 1, j, k)] * x[p + 1];
                const auto sx = static_cast<std::size_t>(n[0]);
                if (j > 0)
                    s -= l.c[1][faceIndex(n, 1, i, j, k)] * x[p - sx];
                if (j + 1 < n[1])
                    s -= l.c[1][faceIndex(n, 1, i, j + 1, k)] * x[p + sx];
                const std::size_t sxy = sx * static_cast<std::size_t>(n[1]);
                if (k > 0)
                    s -= l.c[2][faceIndex(n, 2, i, j, k)] * x[p - sxy];
                if (k + 1 < n[2])
                    s -= l.c[2][faceIndex(n, 2, i, j, k + 1)] * x[p + sxy];
                y[p] = s;
            }
}

void PoissonMultigrid::smooth(std::size_t level, std::vector<double>& x, const std::vector<double>& b, bool redFirst,
                              int sweeps) const
{
    const Level& l = m_levels[level];
    const Dims n = l.n;
    const auto sx = static_cast<std::size_t>(n[0]);
    const std::size_t sxy = sx * static_cast<std::size_t>(n[1]);
    const bool parallel = static_cast<long>(x.size()) > kParallelMin;
    // Per row: the face coefficients' rows, a zero row standing in for a missing neighbour (and
    // the row itself for its values) so that the sums run without tests, in the same order.
    const std::vector<double> zeros(sx, 0.0);
    const auto relaxSlab = [&](int k, int c) {
        for (int j = 0; j < n[1]; ++j) {
            const std::size_t row = cellIndex(n, 0, j, k);
            const bool jm = j > 0, jp = j + 1 < n[1], km = k > 0, kp = k + 1 < n[2];
            const double* cx = l.c[0].data() + faceIndex(n, 0, 0, j, k);
            const double* cyLo = jm ? l.c[1].data() + faceIndex(n, 1, 0, j, k) : zeros.data();
            const double* cyHi = jp ? l.c[1].data() + faceIndex(n, 1, 0, j + 1, k) : zeros.data();
            const double* czLo = km ? l.c[2].data() + faceIndex(n, 2, 0, j, k) : zeros.data();
            const double* czHi = kp ? l.c[2].data() + faceIndex(n, 2, 0, j, k + 1) : zeros.data();
            double* xr = x.data() + row;
            const double* xjm = jm ? xr - sx : xr;
            const double* xjp = jp ? xr + sx : xr;
            const double* xkm = km ? xr - sxy : xr;
            const double* xkp = kp ? xr + sxy : xr;
            const double* br = b.data() + row;
            const double* dg = l.diag.data() + row;
            for (int i = (j + k + c) % 2; i < n[0]; i += 2) {
                if (dg[i] <= 0)
                    continue;
                double s = br[i];
                if (i > 0)
                    s += cx[i] * xr[i - 1];
                if (i + 1 < n[0])
                    s += cx[i + 1] * xr[i + 1];
                s += cyLo[i] * xjm[i];
                s += cyHi[i] * xjp[i];
                s += czLo[i] * xkm[i];
                s += czHi[i] * xkp[i];
                xr[i] = s / dg[i];
            }
        }
    };
    for (int s = 0; s < sweeps; ++s)
        detail::redBlackPass(n[2], parallel, redFirst ? 0 : 1, relaxSlab);
}

void PoissonMultigrid::vcycle(std::size_t level) const
{
    const Level& l = m_levels[level];
    const bool parallel = static_cast<long>(l.x.size()) > kParallelMin;
    zero(l.x);
    if (level + 1 == m_levels.size()) {
        smooth(level, l.x, l.b, true, kCoarsestSweeps);
        smooth(level, l.x, l.b, false, kCoarsestSweeps);
        return;
    }
    smooth(level, l.x, l.b, true, kSmoothingSweeps);
    apply(level, l.x, l.r);
    // Restrict: each coarse cell sums its children's residuals (b − A x).
    const Level& c = m_levels[level + 1];
#pragma omp parallel for schedule(static) if (parallel)
    for (int k = 0; k < c.n[2]; ++k)
        for (int j = 0; j < c.n[1]; ++j)
            for (int i = 0; i < c.n[0]; ++i) {
                double sum = 0;
                for (int fk = 2 * k; fk < std::min(2 * k + 2, l.n[2]); ++fk)
                    for (int fj = 2 * j; fj < std::min(2 * j + 2, l.n[1]); ++fj)
                        for (int fi = 2 * i; fi < std::min(2 * i + 2, l.n[0]); ++fi) {
                            const std::size_t p = cellIndex(l.n, fi, fj, fk);
                            sum += l.b[p] - l.r[p];
                        }
                c.b[cellIndex(c.n, i, j, k)] = sum;
            }
    vcycle(level + 1);
    // Prolong: each child takes its coarse cell's correction.
#pragma omp parallel for schedule(static) if (parallel)
    for (int k = 0; k < l.n[2]; ++k)
        for (int j = 0; j < l.n[1]; ++j)
            for (int i = 0; i < l.n[0]; ++i)
                l.x[cellIndex(l.n, i, j, k)] += kCorrectionScale * c.x[cellIndex(c.n, i / 2, j / 2, k / 2)];
    smooth(level, l.x, l.b, false, kSmoothingSweeps);
}

void PoissonMultigrid::precondition(const std::vector<double>& r, std::vector<double>& z) const
{
    const Level& fine = m_levels.front();
    copy(r, fine.b);
    vcycle(0);
    copy(fine.x, z);
    removeMean(z, m_active);
}

PoissonMultigrid::Result PoissonMultigrid::solve(const std::vector<double>& b, std::vector<double>& x, double tolerance,
                                                 int maxIterations) const
{
    const std::size_t n = cellCount(m_levels.front().n);
    if (b.size() != n)
        throw std::invalid_argument("multigrid: right-hand side size does not match the grid");
    x.resize(n, 0.0);
    Result res;
    // Only the part of b orthogonal to the null space (the constants) has a solution.
    std::vector<double>&r = m_work[0], &z = m_work[1], &p = m_work[2], &q = m_work[3];
    for (auto& w : m_work)
        w.resize(n);
    apply(0, x, q);
    const auto count = static_cast<long>(n);
#pragma omp parallel for schedule(static) if (count > kParallelMin)
    for (long i = 0; i < count; ++i) {
        const auto u = static_cast<std::size_t>(i);
        r[u] = b[u] - q[u];
    }
    removeMean(r, m_active);
    const double bnorm = std::sqrt(std::max(dot(b, b), 1e-300));
    double rnorm = std::sqrt(dot(r, r));
    if (rnorm <= tolerance * bnorm) {
        res.relativeResidual = rnorm / bnorm;
        return res;
    }
    precondition(r, z);
    copy(z, p);
    double rz = dot(r, z);
    for (int it = 1; it <= maxIterations; ++it) {
        apply(0, p, q);
        const double pq = dot(p, q);
        if (!(pq > 0))
            break; // p in the null space: nothing left to reduce
        const double alpha = rz / pq;
#pragma omp parallel for schedule(static) if (count > kParallelMin)
        for (long i = 0; i < count; ++i) {
            const auto u = static_cast<std::size_t>(i);
            x[u] += alpha * p[u];
            r[u] -= alpha * q[u];
        }
        res.iterations = it;
        rnorm = std::sqrt(dot(r, r));
        if (rnorm <= tolerance * bnorm)
            break;
        precondition(r, z);
        const double rzNew = dot(r, z);
        const double beta = rzNew / rz;
        rz = rzNew;
#pragma omp parallel for schedule(static) if (count > kParallelMin)
        for (long i = 0; i < count; ++i) {
            const auto u = static_cast<std::size_t>(i);
            p[u] = z[u] + beta * p[u];
        }
    }
    removeMean(x, m_active);
    res.relativeResidual = rnorm / bnorm;
    return res;
}

} // namespace rdt::room
