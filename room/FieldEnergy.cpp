// The field solver's energy equation (bounded van Leer convection) and heat-balance queries.
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>

namespace rdt::room {

using namespace detail;

// Temperature gradient (K/m) along `axis` in a cell, by central differences between its
// neighbours. At the domain's edge the missing neighbour is a mirror (ghost) cell: at the cell's
// own temperature behind an adiabatic wall, symmetry plane or outlet, and extrapolated through
// the fixed temperature of a wall or inlet — so that an extremum at a wall is seen as one.
double FieldSolver::temperatureGradient(const std::array<int, 3>& at, int axis) const
{
    const auto D = static_cast<std::size_t>(axis);
    const double tp = m_t[m_grid.cell(at[0], at[1], at[2])];
    const double xp = m_grid.centre(axis, at[D]);
    auto neighbourAt = [&](int side, double& x, double& t) {
        Index3 nb = at;
        nb[D] += side;
        if (nb[D] >= 0 && nb[D] < m_grid.cells(axis)) {
            x = m_grid.centre(axis, nb[D]);
            const std::size_t c = m_grid.cell(nb[0], nb[1], nb[2]);
            t = m_solid[c] ? tp : m_t[c]; // a black box's surface is adiabatic
            return;
        }
        const double wall = m_grid.face(axis, side < 0 ? at[D] : at[D] + 1);
        x = 2.0 * wall - xp;
        const BoundaryCondition& bc = boundaryAt(sideOf(axis, side > 0), at);
        const bool fixed = (bc.kind == BoundaryKind::Wall && bc.temperature) || bc.kind == BoundaryKind::Inlet;
        t = fixed ? 2.0 * bc.temperature.value_or(m_fluid.referenceTemperature) - tp : tp;
    };
    double xlo = 0, tlo = 0, xhi = 0, thi = 0;
    neighbourAt(-1, xlo, tlo);
    neighbourAt(1, xhi, thi);
    return (thi - tlo) / (xhi - xlo);
}

double FieldSolver::energy(const FieldSettings& s)
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const double rho = m_fluid.density;
    Stencil& eq = m_energyEq;
    if (m_energyCorrection.size() != m_t.size())
        m_energyCorrection.assign(m_t.size(), 0.0);
    if (eq.n != nc)
        eq.resize(nc);
    // Each cell's temperature gradients, once (every face's limiter reads its upwind cell's).
    for (auto& g : m_gradT)
        g.resize(m_t.size());
    // Cell strides along each axis.
    const std::array<std::size_t, 3> cs{1, static_cast<std::size_t>(nc[0]),
                                        static_cast<std::size_t>(nc[0]) * static_cast<std::size_t>(nc[1])};
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
    for (int slab = 0; slab < nc[2]; ++slab)
        for (int j = 0; j < nc[1]; ++j)
            for (int i = 0; i < nc[0]; ++i) {
                const Index3 at{i, j, slab};
                const std::size_t c = m_grid.cell(i, j, slab);
                const double tp = m_t[c];
                for (int d = 0; d < 3; ++d) {
                    const auto D = static_cast<std::size_t>(d);
                    const int a = at[D];
                    if (a == 0 || a + 1 == nc[D]) { // a domain edge: its mirror cell
                        m_gradT[D][c] = temperatureGradient(at, d);
                        continue;
                    }
                    const std::size_t lo = c - cs[D], hi = c + cs[D];
                    const double tlo = m_solid[lo] ? tp : m_t[lo]; // a black box's surface is adiabatic
                    const double thi = m_solid[hi] ? tp : m_t[hi];
                    m_gradT[D][c] = (thi - tlo) / (m_grid.centre(d, a + 1) - m_grid.centre(d, a - 1));
                }
            }
    // Face value of T between the upwind cell `cu` and the downwind cell `cd` (neighbours along
    // axis d; dx the centres' signed distance from cu to cd, `frac` the face's distance from the
    // upwind centre over the centres' distance) with van Leer's limiter (van Leer 1974; the
    // gradient-based ratio of Darwish & Moukalled 2003): second order where T is smooth, upwind at
    // extrema, so no new maxima or minima — the air is never colder than the coldest supply or
    // hotter than the heat can make it.
    const auto limited = [this](std::size_t cu, std::size_t cd, std::size_t d, double dx, double frac) {
        const double tu = m_t[cu];
        const double jump = m_t[cd] - tu;
        if (std::abs(jump) < 1e-12)
            return tu;
        const double r = 2.0 * m_gradT[d][cu] * dx / jump - 1.0;
        const double psi = (r + std::abs(r)) / (1.0 + std::abs(r));
        return tu + psi * frac * jump;
    };
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
    for (int slab = 0; slab < nc[2]; ++slab) {
        Index3 at{};
        at[2] = slab;
        for (at[1] = 0; at[1] < nc[1]; ++at[1])
            for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                Row r;
                const std::size_t c = m_grid.cell(at[0], at[1], at[2]);
                if (m_solid[c]) { // inside a black box: not part of the air (keeps its temperature)
                    r.aP = 1;
                    r.b = m_t[c];
                    eq.set(c, r);
                    continue;
                }
                forEachCellFace(at, rho, [&](const CellFace& f) {
                    const int d = f.d;
                    const auto D = static_cast<std::size_t>(d);
                    if (f.interior) {
                        const std::size_t nb = f.side < 0 ? c - cs[D] : c + cs[D];
                        if (m_solid[nb])
                            return; // a black box's surface: adiabatic, no flow
                        const double xp = m_grid.centre(d, at[D]), xn = m_grid.centre(d, f.nbCell);
                        const double dist = std::abs(xn - xp);
                        const double frac = std::abs(m_grid.face(d, f.face[D]) - xp) / dist;
                        const double gamma = 0.5 * (m_gamma[c] + m_gamma[nb]);
                        const double face =
                            f.outflow > 0 ? limited(c, nb, D, xn - xp, frac) : limited(nb, c, D, xp - xn, 1.0 - frac);
                        r.neighbour(2 * d + (f.side > 0 ? 1 : 0), m_t[c], m_t[nb], gamma * f.area / dist, f.outflow,
                                    face, s.temperatureBlend);
                        return;
                    }
                    const BoundaryCondition& bc = boundaryAt(sideOf(d, f.side > 0), at);
                    const double wallDiff = m_gamma[c] * f.area / (0.5 * m_grid.width(d, at[D]));
                    switch (bc.kind) {
                    case BoundaryKind::Wall:
                        if (bc.temperature)
                            r.known(wallDiff, 0.0, *bc.temperature);
                        break;
                    case BoundaryKind::Inlet:
                        r.known(wallDiff, f.outflow, bc.temperature.value_or(m_fluid.referenceTemperature));
                        break;
                    case BoundaryKind::Outlet: r.aP += std::max(f.outflow, 0.0); break;
                    case BoundaryKind::Symmetry: break;
                    }
                });
                // The deferred correction is itself relaxed (half the change per iteration): the
                // limiter switches at extrema, and an unrelaxed correction can cycle there.
                double& corr = m_energyCorrection[c];
                corr += 0.5 * (r.correction - corr);
                r.b += corr + m_heat[c] / m_fluid.specificHeat;
                // Black boxes: air drawn leaves at the cell's temperature, air released enters at
                // the box's exhaust temperature.
                r.aP += m_sink[c];
                r.b += m_releaseEnthalpy[c];
                if (r.aP <= 0) { // no flow and no conduction path: the cell keeps its temperature
                    r.aP = 1;
                    r.b = m_t[c];
                }
                if (s.pseudoTimeStep > 0) {
                    const double inertia = m_fluid.density * m_grid.width(0, at[0]) * m_grid.width(1, at[1]) *
                                           m_grid.width(2, at[2]) / (s.pseudoTimeStep * s.energyTimeStepFactor);
                    r.aP += inertia;
                    r.b += inertia * m_t[c];
                }
                const double aPr = r.aP / s.temperatureRelaxation;
                r.b += (aPr - r.aP) * m_t[c];
                r.aP = aPr;
                eq.set(c, r);
            }
    }
    // The residual is the cells' summed heat imbalance over the heat the domain carries (released
    // in cells plus conducted through walls): the equations are in conservative flux form, so
    // Σ imbalance is exactly the global energy balance's defect, and a tolerance of 1e-6 closes
    // the balance to 1e-6. With no heat at all it falls back to Σ a_P times the temperature range.
    const auto [res, scale] = eq.residual(m_t);
    double carried = heatReleased() + 2.0 * heatRemoved(); // racks' heat plus the coolers': both carried
    for (int sd = 0; sd < 6; ++sd)
        carried += std::abs(wallHeat(static_cast<Side>(sd)));
    eq.sweep(m_t, s.energySweeps);
    if (carried > 0)
        return res * m_fluid.specificHeat / carried;
    const auto [lo, hi] = std::minmax_element(m_t.begin(), m_t.end());
    const double range = std::max(*hi - *lo, 1e-3);
    return scale > 0 ? res / (scale * range) : 0.0;
}

double FieldSolver::wallHeat(Side side) const
{
    double q = 0;
    const int d = axisOf(side);
    forEachBoundaryFace(side, [&](const Index3& cell, std::size_t, double area, const BoundaryCondition& bc) {
        const std::size_t c = m_grid.cell(cell[0], cell[1], cell[2]);
        if (bc.kind != BoundaryKind::Wall || !bc.temperature || m_solid[c])
            return;
        const double half = 0.5 * m_grid.width(d, cell[static_cast<std::size_t>(d)]);
        q += diffusivity(c) * m_fluid.specificHeat * area * (*bc.temperature - m_t[c]) / half;
    });
    return q;
}

std::array<double, 2> FieldSolver::massInOut(Side side) const
{
    std::array<double, 2> m{0.0, 0.0};
    const double sign = isHigh(side) ? 1.0 : -1.0;
    const auto& u = m_u[static_cast<std::size_t>(axisOf(side))];
    forEachBoundaryFace(side, [&](const Index3&, std::size_t f, double area, const BoundaryCondition&) {
        const double out = m_fluid.density * sign * u[f] * area;
        m[out > 0 ? 1 : 0] += std::abs(out);
    });
    return m;
}

double FieldSolver::massOutflow(Side side) const
{
    const auto [in, out] = massInOut(side);
    return out - in;
}

double FieldSolver::enthalpyOutflow(Side side) const
{
    double h = 0;
    const int d = axisOf(side);
    const double sign = isHigh(side) ? 1.0 : -1.0;
    const auto& u = m_u[static_cast<std::size_t>(axisOf(side))];
    forEachBoundaryFace(side, [&](const Index3& cell, std::size_t f, double area, const BoundaryCondition& bc) {
        const double flow = m_fluid.density * sign * u[f] * area;
        const std::size_t c = m_grid.cell(cell[0], cell[1], cell[2]);
        if (m_solid[c])
            return;
        if (bc.kind == BoundaryKind::Inlet) {
            // Inflow at the inlet's temperature, and conduction across the inlet face, as the
            // energy equation carries them.
            const double tIn = bc.temperature.value_or(m_fluid.referenceTemperature);
            const double half = 0.5 * m_grid.width(d, cell[static_cast<std::size_t>(d)]);
            h += flow * m_fluid.specificHeat * (tIn - m_fluid.referenceTemperature) -
                 diffusivity(c) * m_fluid.specificHeat * area * (tIn - m_t[c]) / half;
        } else if (flow > 0) {
            h += flow * m_fluid.specificHeat * (m_t[c] - m_fluid.referenceTemperature);
        }
    });
    return h;
}

double FieldSolver::heatReleased() const
{
    double q = 0;
    for (double x : m_heat)
        q += x;
    for (const Box& b : m_boxes)
        q += b.spec.heat;
    return q - heatRemoved();
}

double FieldSolver::heatBalanceDefect() const
{
    double out = 0, carried = heatReleased() + 2.0 * heatRemoved();
    for (int sd = 0; sd < 6; ++sd) {
        const auto side = static_cast<Side>(sd);
        const double wall = wallHeat(side);
        out += enthalpyOutflow(side) - wall;
        carried += std::abs(wall);
    }
    return carried > 0 ? (out - heatReleased()) / carried : 0.0;
}

double FieldSolver::heatRemoved() const
{
    double q = 0;
    for (const Box& b : m_boxes)
        if (std::isfinite(b.spec.fixedExhaustC))
            q += b.spec.massFlow * m_fluid.specificHeat * (b.state.intakeMean - b.spec.fixedExhaustC);
    return q;
}

} // namespace rdt::room
