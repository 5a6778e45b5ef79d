// The field solver's standard k–ε closure (Launder & Spalding 1974) with log-law wall functions,
// in the form of OpenFOAM's kEpsilon, nutkWallFunction, epsilonWallFunction and kqRWallFunction,
// so that a room solved here and its exported OpenFOAM case differ by discretisation only.
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>

namespace rdt::room {

using namespace detail;

namespace {

constexpr double kCmu = 0.09, kC1 = 1.44, kC2 = 1.92, kSigmaK = 1.0, kSigmaEps = 1.3;
constexpr double kKappa = 0.41, kLogE = 9.8;
constexpr double kInletIntensity = 0.05;         // turbulence intensity of inflow
constexpr double kInletLength = 0.07 * 0.6;      // mixing length of inflow, m: 0.07 × a 600 mm tile
constexpr double kStillAirSpeed = 0.2;           // m/s: the room's air before the first iteration
constexpr double kKMin = 1e-10, kEpsMin = 1e-14; // floors, m²/s² and m²/s³ (OpenFOAM bounds both)
// The k and ε equations are relaxed as the exported case's (OpenFOAM's usual 0.5 for k–ε): the
// sinks ε/k and C_2 ε/k couple the two strongly, and unrelaxed steps overshoot in the first
// iterations when ν_t is still far from the flow's.
constexpr double kRelaxation = 0.5;
constexpr int kSweeps = 2;

/// y⁺ where the viscous sublayer (u⁺ = y⁺) meets the log law (u⁺ = ln(E y⁺)/κ): 11.53, computed
/// as OpenFOAM's nutWallFunction does.
double yPlusLam()
{
    double y = 11.0;
    for (int i = 0; i < 10; ++i)
        y = std::log(std::max(kLogE * y, 1.0)) / kKappa;
    return y;
}

const double kYPlusLam = yPlusLam();

/// The log-law wall function's eddy viscosity (m²/s) at a wall y (m) from a cell with k (m²/s²).
double wallNut(double y, double k, double nu)
{
    const double yPlus = std::pow(kCmu, 0.25) * y * std::sqrt(k) / nu;
    return yPlus > kYPlusLam ? nu * (yPlus * kKappa / std::log(kLogE * yPlus) - 1.0) : 0.0;
}

} // namespace

InletTurbulence inletTurbulence(double speed)
{
    InletTurbulence t;
    const double fluctuation = kInletIntensity * std::abs(speed);
    t.k = std::max(1.5 * fluctuation * fluctuation, 1e-8);
    t.epsilon = std::pow(kCmu, 0.75) * std::pow(t.k, 1.5) / kInletLength;
    return t;
}

void FieldSolver::prepareKEpsilon()
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const std::size_t n = m_grid.cellCount();
    // A black box's open faces carry its flow: not walls.
    std::array<std::vector<char>, 3> open;
    for (int d = 0; d < 3; ++d)
        open[static_cast<std::size_t>(d)].assign(m_u[static_cast<std::size_t>(d)].size(), 0);
    for (const Box& b : m_boxes) {
        auto& o = open[static_cast<std::size_t>(b.axis)];
        for (std::size_t f : b.intake.faces)
            o[f] = 1;
        for (std::size_t f : b.exhaust.faces)
            o[f] = 1;
    }
    m_wallFaces.assign(n, 0);
    m_wallCells.clear();
    for (int k = 0; k < nc[2]; ++k)
        for (int j = 0; j < nc[1]; ++j)
            for (int i = 0; i < nc[0]; ++i) {
                const Index3 at{i, j, k};
                const std::size_t c = m_grid.cell(i, j, k);
                if (m_solid[c])
                    continue;
                std::uint8_t mask = 0;
                for (int d = 0; d < 3; ++d)
                    for (int side : {-1, 1}) {
                        const auto D = static_cast<std::size_t>(d);
                        Index3 nb = at;
                        nb[D] += side;
                        bool wall = false;
                        if (nb[D] >= 0 && nb[D] < nc[D]) {
                            Index3 f = at;
                            if (side > 0)
                                f[D] += 1;
                            wall = m_solid[m_grid.cell(nb[0], nb[1], nb[2])] && !open[D][faceIndex(d, f)];
                        } else {
                            wall = boundaryAt(sideOf(d, side > 0), at).kind == BoundaryKind::Wall;
                        }
                        if (wall)
                            mask = static_cast<std::uint8_t>(mask | (1u << (2 * d + (side > 0 ? 1 : 0))));
                    }
                m_wallFaces[c] = mask;
                if (mask)
                    m_wallCells.push_back(c);
            }
    if (m_k.size() != n || m_eps.size() != n) { // a continued solve, or a coarse grid's, keeps its own
        const InletTurbulence still = inletTurbulence(kStillAirSpeed);
        m_k.assign(n, still.k);
        m_eps.assign(n, still.epsilon);
    }
    m_nut.assign(n, 0.0);
    for (std::size_t c = 0; c < n; ++c)
        m_nut[c] = m_solid[c] ? 0.0 : kCmu * m_k[c] * m_k[c] / m_eps[c];
}

std::array<std::array<double, 3>, 3> FieldSolver::velocityGradient(const std::array<int, 3>& at) const
{
    std::array<std::array<double, 3>, 3> g{};
    const auto uc = velocity(at[0], at[1], at[2]);
    for (int b = 0; b < 3; ++b) {
        const auto B = static_cast<std::size_t>(b);
        const double width = m_grid.width(b, at[B]);
        std::array<std::array<double, 3>, 2> faceU{}; // the cell's low and high faces along b
        for (int s = 0; s < 2; ++s) {
            Index3 nb = at;
            nb[B] += s == 0 ? -1 : 1;
            if (nb[B] >= 0 && nb[B] < m_grid.cells(b)) {
                if (m_solid[m_grid.cell(nb[0], nb[1], nb[2])])
                    continue; // a solid's surface: no slip
                const auto un = velocity(nb[0], nb[1], nb[2]);
                const double frac = 0.5 * width / std::abs(m_grid.centre(b, nb[B]) - m_grid.centre(b, at[B]));
                for (std::size_t a = 0; a < 3; ++a)
                    faceU[static_cast<std::size_t>(s)][a] = uc[a] + frac * (un[a] - uc[a]);
                continue;
            }
            const BoundaryCondition& bc = boundaryAt(sideOf(b, s == 1), at);
            const bool fixed = bc.kind == BoundaryKind::Wall || bc.kind == BoundaryKind::Inlet;
            faceU[static_cast<std::size_t>(s)] = fixed ? bc.velocity : uc;
        }
        for (int a = 0; a < 3; ++a) {
            const auto A = static_cast<std::size_t>(a);
            if (a == b) { // the staggered faces themselves
                Index3 hi = at;
                hi[B] += 1;
                g[A][B] = (m_u[A][faceIndex(a, hi)] - m_u[A][faceIndex(a, at)]) / width;
            } else {
                g[A][B] = (faceU[1][A] - faceU[0][A]) / width;
            }
        }
    }
    return g;
}

double FieldSolver::kEpsilon(const FieldSettings& s)
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const std::size_t n = m_grid.cellCount();
    const double rho = m_fluid.density, nu = m_fluid.viscosity / rho;
    const bool parallel = n > kParallelCells;
    // Production G = ν_t (dev(2S) : ∇u) (m²/s³); in wall cells the log law's, and ε fixed there.
    std::vector<double> production(n, 0.0), epsWall(n, -1.0);
#pragma omp parallel for schedule(static) if (parallel)
    for (int k = 0; k < nc[2]; ++k)
        for (int j = 0; j < nc[1]; ++j)
            for (int i = 0; i < nc[0]; ++i) {
                const std::size_t c = m_grid.cell(i, j, k);
                if (m_solid[c])
                    continue;
                const auto g = velocityGradient({i, j, k});
                const double div = g[0][0] + g[1][1] + g[2][2];
                double twoSS = 0;
                for (std::size_t a = 0; a < 3; ++a)
                    for (std::size_t b = 0; b < 3; ++b) {
                        const double sab = 0.5 * (g[a][b] + g[b][a]);
                        twoSS += 2.0 * sab * sab;
                    }
                production[c] = m_nut[c] * std::max(twoSS - 2.0 / 3.0 * div * div, 0.0);
            }
    const double cmu25 = std::pow(kCmu, 0.25), cmu75 = std::pow(kCmu, 0.75);
    const auto wallCount = static_cast<std::ptrdiff_t>(m_wallCells.size());
#pragma omp parallel for schedule(static) if (parallel)
    for (std::ptrdiff_t w = 0; w < wallCount; ++w) {
        const std::size_t c = m_wallCells[static_cast<std::size_t>(w)];
        const Index3 at = m_grid.index(c);
        const auto u = velocity(at[0], at[1], at[2]);
        const double speed = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        const double k = m_k[c];
        double eps = 0, gen = 0;
        int faces = 0;
        for (int bit = 0; bit < 6; ++bit) {
            if (!(m_wallFaces[c] & (1u << bit)))
                continue;
            const int d = bit / 2;
            const double y = 0.5 * m_grid.width(d, at[static_cast<std::size_t>(d)]);
            const double yPlus = cmu25 * y * std::sqrt(k) / nu;
            if (yPlus > kYPlusLam) {
                eps += cmu75 * std::pow(k, 1.5) / (kKappa * y);
                gen += (wallNut(y, k, nu) + nu) * (speed / y) * cmu25 * std::sqrt(k) / (kKappa * y);
            } else {
                eps += 2.0 * k * nu / (y * y);
            }
            ++faces;
        }
        production[c] = gen / faces;
        epsWall[c] = eps / faces;
    }
    // What the black boxes release carries the inflow turbulence of their exhaust's speed.
    std::vector<double> releaseK(n, 0.0), releaseEps(n, 0.0);
    for (const Box& b : m_boxes) {
        for (std::size_t e = 0; e < b.exhaust.cells.size(); ++e) {
            const double m = b.spec.massFlow * b.flowShare[e];
            const InletTurbulence t = inletTurbulence(m / (rho * b.faceArea[e]));
            releaseK[b.exhaust.cells[e]] += m * t.k;
            releaseEps[b.exhaust.cells[e]] += m * t.epsilon;
        }
    }
    for (std::size_t c = 0; c < n; ++c)
        if (epsWall[c] >= 0)
            m_eps[c] = std::max(epsWall[c], kEpsMin);

    // One transport equation: upwind convection in bounded form (the continuity defect taken out
    // of a_P, as OpenFOAM's "bounded Gauss upwind"), diffusion μ + ρν_t/σ, sources ρV(S_u − S_p φ).
    const auto assemble = [&](Stencil& eq, std::vector<double>& phi, double sigma, const std::vector<double>& release,
                              bool isEps) {
        if (eq.n != nc)
            eq.resize(nc);
#pragma omp parallel for schedule(static) if (parallel)
        for (int slab = 0; slab < nc[2]; ++slab) {
            Index3 at{};
            at[2] = slab;
            for (at[1] = 0; at[1] < nc[1]; ++at[1])
                for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                    const std::size_t c = m_grid.cell(at[0], at[1], at[2]);
                    if (m_solid[c] || (isEps && epsWall[c] >= 0)) {
                        eq.clear(c); // not an unknown: solid, or fixed by the wall function
                        continue;
                    }
                    Row r;
                    double netOutflow = m_sink[c] - m_release[c];
                    const double gammaC = m_fluid.viscosity + rho * m_nut[c] / sigma;
                    forEachCellFace(at, rho, [&](const CellFace& f) {
                        const int d = f.d;
                        const auto D = static_cast<std::size_t>(d);
                        if (f.interior) {
                            Index3 nbI = at;
                            nbI[D] = f.nbCell;
                            const std::size_t nb = m_grid.cell(nbI[0], nbI[1], nbI[2]);
                            if (m_solid[nb])
                                return; // a wall (zero flux of k) or a box's face (its sink and release)
                            const double dist = std::abs(m_grid.centre(d, f.nbCell) - m_grid.centre(d, at[D]));
                            const double gamma = 0.5 * (gammaC + m_fluid.viscosity + rho * m_nut[nb] / sigma);
                            r.neighbour(2 * d + (f.side > 0 ? 1 : 0), phi[c], phi[nb], gamma * f.area / dist,
                                        f.outflow, phi[c], 0.0);
                            netOutflow += f.outflow;
                            return;
                        }
                        const BoundaryCondition& bc = boundaryAt(sideOf(d, f.side > 0), at);
                        if (bc.kind == BoundaryKind::Inlet) {
                            const InletTurbulence t = inletTurbulence(bc.velocity[D]);
                            r.known(gammaC * f.area / (0.5 * m_grid.width(d, at[D])), f.outflow, isEps ? t.epsilon : t.k);
                            netOutflow += f.outflow;
                        } else if (bc.kind == BoundaryKind::Outlet) {
                            r.aP += std::max(f.outflow, 0.0);
                            netOutflow += f.outflow;
                        } // walls: zero gradient of k (ε is fixed there); symmetry: no flux
                    });
                    r.aP += m_sink[c];
                    r.b += release[c];
                    r.aP -= netOutflow; // bounded: a_P = Σ a_nb + inflow from the boxes
                    const double volume = m_grid.width(0, at[0]) * m_grid.width(1, at[1]) * m_grid.width(2, at[2]);
                    const double ratio = m_eps[c] / m_k[c]; // 1/s
                    if (isEps) {
                        r.b += kC1 * rho * volume * production[c] * ratio;
                        r.aP += kC2 * rho * volume * ratio;
                    } else {
                        r.b += rho * volume * production[c];
                        r.aP += rho * volume * ratio;
                    }
                    if (s.pseudoTimeStep > 0) {
                        const double inertia = rho * volume / s.pseudoTimeStep;
                        r.aP += inertia;
                        r.b += inertia * phi[c];
                    }
                    if (!(r.aP > 0)) {
                        eq.clear(c);
                        continue;
                    }
                    const double aPr = r.aP / kRelaxation;
                    r.b += (aPr - r.aP) * phi[c];
                    r.aP = aPr;
                    eq.set(c, r);
                }
        }
        const auto [res, scale] = eq.residual(phi);
        double peak = 0;
        for (std::size_t c = 0; c < n; ++c)
            peak = std::max(peak, m_solid[c] ? 0.0 : phi[c]);
        eq.sweep(phi, kSweeps);
        const double floor = isEps ? kEpsMin : kKMin;
        for (double& x : phi)
            x = std::max(x, floor);
        return scale > 0 && peak > 0 ? res / (scale * peak) : 0.0;
    };
    const double epsResidual = assemble(m_epsEq, m_eps, kSigmaEps, releaseEps, true);
    const double kResidual = assemble(m_kEq, m_k, kSigmaK, releaseK, false);
#pragma omp parallel for schedule(static) if (parallel)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
        const auto c = static_cast<std::size_t>(i);
        m_nut[c] = m_solid[c] ? 0.0 : kCmu * m_k[c] * m_k[c] / m_eps[c];
    }
    return std::max(epsResidual, kResidual);
}

/// Wall-function viscosities: per wall-normal axis, μ + ρν_t,w in cells with a wall face normal to
/// it (OpenFOAM's nutkWallFunction: the wall's shear stress is (ν + ν_t,w) ρ u_P / y), the cell's
/// own μ + ρν_t elsewhere.
void FieldSolver::updateWallViscosity()
{
    const double rho = m_fluid.density, nu = m_fluid.viscosity / rho;
    for (int d = 0; d < 3; ++d) {
        auto& w = m_muWall[static_cast<std::size_t>(d)];
        w.assign(m_mu.begin(), m_mu.end());
        const auto bits = static_cast<std::uint8_t>(3u << (2 * d));
        for (std::size_t c : m_wallCells) {
            if (!(m_wallFaces[c] & bits))
                continue;
            const Index3 at = m_grid.index(c);
            const double y = 0.5 * m_grid.width(d, at[static_cast<std::size_t>(d)]);
            w[c] = m_fluid.viscosity + rho * wallNut(y, m_k[c], nu);
        }
    }
}

} // namespace rdt::room
