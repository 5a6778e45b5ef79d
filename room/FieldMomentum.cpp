// The field solver's momentum equations: one staggered velocity component at a time, assembled
// on its faces (upwind convection with deferred correction, viscous and turbulent shear, wall
// shear at solids and walls, pressure gradient, Boussinesq buoyancy, false transient), then
// relaxed by red-black Gauss-Seidel.
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>

namespace rdt::room {

using namespace detail;

double FieldSolver::momentum(int d, const FieldSettings& s)
{
    const auto D = static_cast<std::size_t>(d);
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    Stencil& eq = m_momentumEq[D];
    if (nc[D] < 2) {
        eq = Stencil{};
        return 0; // the w-velocity of a 2D grid
    }
    auto& u = m_u[D];
    const double rho = m_fluid.density;
    const double g = m_fluid.gravity[D];
    Index3 dims = nc;
    dims[D] += 1;
    if (eq.n != dims)
        eq.resize(dims);
    // Strides: of the cells, and of each axis' face array, along each axis.
    const std::array<std::size_t, 3> cs{1, static_cast<std::size_t>(nc[0]),
                                        static_cast<std::size_t>(nc[0]) * static_cast<std::size_t>(nc[1])};
    std::array<std::array<std::size_t, 3>, 3> fs{};
    for (int e = 0; e < 3; ++e) {
        const auto n0 = static_cast<std::size_t>(nc[0] + (e == 0 ? 1 : 0));
        const auto n1 = static_cast<std::size_t>(nc[1] + (e == 1 ? 1 : 0));
        fs[static_cast<std::size_t>(e)] = {1, n0, n0 * n1};
    }
    const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    // Assembled in horizontal slabs, in parallel on large grids.
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
    for (int slab = 0; slab < dims[2]; ++slab) {
        Index3 at{};
        at[2] = slab;
        for (at[1] = 0; at[1] < dims[1]; ++at[1])
            for (at[0] = 0; at[0] < dims[0]; ++at[0]) {
                const std::size_t f = faceIndex(d, at);
                if (at[D] == 0 || at[D] == nc[D]) {
                    eq.clear(f); // boundary faces are set by applyVelocityBoundaries
                    continue;
                }
                Row r;
                const std::size_t cp = m_grid.cell(at[0], at[1], at[2]);
                const std::size_t cm = cp - cs[D];
                if (m_solid[cm] || m_solid[cp]) { // a black box's face: no flow, or the box's (fixed)
                    m_d[D][f] = 0;
                    eq.clear(f);
                    continue;
                }
                const double wm = m_grid.width(d, at[D] - 1), wp = m_grid.width(d, at[D]);
                const double dx = 0.5 * (wm + wp);
                const double ad = m_grid.width(e1, at[static_cast<std::size_t>(e1)]) *
                                  m_grid.width(e2, at[static_cast<std::size_t>(e2)]);
                // Along the component: control-volume faces at the two cell centres.
                for (int side : {-1, 1}) {
                    const std::size_t nb = side < 0 ? f - fs[D][D] : f + fs[D][D];
                    const double outflow = side * rho * ad * 0.5 * (u[f] + u[nb]);
                    const double diff = m_mu[side < 0 ? cm : cp] * ad / (side < 0 ? wm : wp);
                    // The neighbour face is fixed on the boundary, or on a solid's face (then u = 0).
                    const int nbAt = at[D] + side;
                    const bool fixed = nbAt == 0 || nbAt == nc[D] ||
                                       m_solid[side < 0 ? cm - cs[D] : cp + cs[D]] != 0; // the cell beyond it
                    if (fixed)
                        r.known(diff, outflow, u[nb]);
                    else
                        r.neighbour(2 * d + (side > 0 ? 1 : 0), u[f], u[nb], diff, outflow, 0.5 * (u[f] + u[nb]),
                                    s.centralBlend);
                }
                // Across: control-volume faces on the cells' faces along e.
                for (int e : {e1, e2}) {
                    const auto E = static_cast<std::size_t>(e);
                    const int e3 = 3 - d - e;
                    const double w3 = m_grid.width(e3, at[static_cast<std::size_t>(e3)]);
                    const double area = dx * w3;
                    const auto& ue = m_u[E];
                    // The e-faces of cell cp at its low side, and of cell cm.
                    const std::size_t fp0 = faceIndex(e, at), fm0 = fp0 - fs[E][D];
                    const double we = m_grid.width(e, at[E]);
                    for (int side : {-1, 1}) {
                        const std::size_t up = side < 0 ? 0 : fs[E][E];
                        const double outflow = side * rho * (ue[fm0 + up] * 0.5 * wm + ue[fp0 + up] * 0.5 * wp) * w3;
                        const int nbCell = at[E] + side;
                        if (nbCell >= 0 && nbCell < nc[E]) {
                            const std::size_t nbP = side < 0 ? cp - cs[E] : cp + cs[E];
                            const std::size_t nbM = side < 0 ? cm - cs[E] : cm + cs[E];
                            if (m_solid[nbP] || m_solid[nbM]) {
                                // A solid's surface on this side: no slip.
                                const double mu = 0.5 * (wallViscosity(e, cm) + wallViscosity(e, cp));
                                r.known(mu * area / (0.5 * we), outflow, 0.0);
                                continue;
                            }
                            const double dist = std::abs(m_grid.centre(e, nbCell) - m_grid.centre(e, at[E]));
                            const double frac = 0.5 * we / dist;
                            const double mu = 0.25 * (m_mu[cm] + m_mu[cp] + m_mu[nbM] + m_mu[nbP]);
                            const std::size_t nbFace = side < 0 ? f - fs[D][E] : f + fs[D][E];
                            r.neighbour(2 * e + (side > 0 ? 1 : 0), u[f], u[nbFace], mu * area / dist, outflow,
                                        u[f] + frac * (u[nbFace] - u[f]), s.centralBlend);
                            continue;
                        }
                        const Side wallSide = sideOf(e, side > 0);
                        Index3 cmI = at;
                        cmI[D] -= 1;
                        const BoundaryCondition& bm = boundaryAt(wallSide, cmI);
                        const BoundaryCondition& bp = boundaryAt(wallSide, at);
                        const auto fixedKind = [](const BoundaryCondition& c) {
                            return c.kind == BoundaryKind::Wall || c.kind == BoundaryKind::Inlet;
                        };
                        if (fixedKind(bm) || fixedKind(bp)) {
                            const double mu = 0.5 * (wallViscosity(e, cm) + wallViscosity(e, cp));
                            const double value = 0.5 * (bm.velocity[D] + bp.velocity[D]);
                            r.known(mu * area / (0.5 * we), outflow, value);
                        } else if (bm.kind == BoundaryKind::Outlet || bp.kind == BoundaryKind::Outlet) {
                            r.aP += std::max(outflow, 0.0); // zero gradient: the face carries u_P out
                        }
                        // Symmetry: no shear, no flow.
                    }
                }
                r.b += r.correction + (m_p[cm] - m_p[cp]) * ad;
                if (g != 0.0) {
                    const double tf = (m_t[cm] * wp + m_t[cp] * wm) / (wm + wp);
                    r.b -= rho * m_fluid.expansion * (tf - m_fluid.referenceTemperature) * g * dx * ad;
                }
                if (s.pseudoTimeStep > 0) { // false transient: inertia ρV/Δt toward the last iterate
                    const double inertia = rho * dx * ad / s.pseudoTimeStep;
                    r.aP += inertia;
                    r.b += inertia * u[f];
                }
                double sumA = 0;
                for (double x : r.a)
                    sumA += x;
                const double aPr = r.aP / s.velocityRelaxation;
                r.b += (aPr - r.aP) * u[f];
                r.aP = aPr;
                m_d[D][f] = ad / std::max(aPr - sumA, 1e-3 * aPr);
                eq.set(f, r);
            }
    }
    const auto [res, scale] = eq.residual(u);
    double umax = 0;
    const auto faces = static_cast<std::ptrdiff_t>(u.size());
#pragma omp parallel for schedule(static) reduction(max : umax) if (m_grid.cellCount() > kParallelCells)
    for (std::ptrdiff_t i = 0; i < faces; ++i)
        umax = std::max(umax, std::abs(u[static_cast<std::size_t>(i)]));
    eq.sweep(u, s.momentumSweeps);
    return umax > 0 && scale > 0 ? res / (scale * umax) : 0.0;
}

} // namespace rdt::room
