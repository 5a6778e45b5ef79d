#include "thermal/FieldSolver.h"

#include "thermal/PoissonMultigrid.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rdt::thermal {

namespace {

using Index3 = std::array<int, 3>;

int axisOf(Side s)
{
    return static_cast<int>(s) / 2;
}
bool isHigh(Side s)
{
    return static_cast<int>(s) % 2 == 1;
}
Side sideOf(int axis, bool high)
{
    return static_cast<Side>(2 * axis + (high ? 1 : 0));
}

/// The side's two in-plane axes, in x, y, z order.
std::array<int, 2> planeAxes(int axis)
{
    return {axis == 0 ? 1 : 0, axis == 2 ? 1 : 2};
}

constexpr double kChenXu = 0.03874; // Chen & Xu (1998), ν_t = 0.03874 |V| l

} // namespace

FieldSolver::FieldSolver(FieldGrid grid, FluidProperties fluid) : m_grid(std::move(grid)), m_fluid(fluid)
{
    const std::size_t n = m_grid.cellCount();
    for (int d = 0; d < 3; ++d) {
        Index3 dims{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
        dims[static_cast<std::size_t>(d)] += 1;
        const auto faces =
            static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) * static_cast<std::size_t>(dims[2]);
        m_u[static_cast<std::size_t>(d)].assign(faces, 0.0);
        m_d[static_cast<std::size_t>(d)].assign(faces, 0.0);
    }
    m_p.assign(n, 0.0);
    m_t.assign(n, m_fluid.referenceTemperature);
    m_heat.assign(n, 0.0);
    m_solid.assign(n, 0);
    m_sink.assign(n, 0.0);
    m_release.assign(n, 0.0);
    m_releaseEnthalpy.assign(n, 0.0);
    m_conditions.push_back(BoundaryCondition{});                               // stationary adiabatic wall
    m_conditions.push_back(BoundaryCondition{BoundaryKind::Symmetry, {}, {}}); // 2D z sides
    for (int s = 0; s < 6; ++s) {
        const auto plane = planeAxes(s / 2);
        const auto count =
            static_cast<std::size_t>(m_grid.cells(plane[0])) * static_cast<std::size_t>(m_grid.cells(plane[1]));
        const bool symmetric = m_grid.is2d() && s / 2 == 2;
        m_sideCondition[static_cast<std::size_t>(s)].assign(count, symmetric ? 1 : 0);
    }
}

std::size_t FieldSolver::faceIndex(int axis, const Index3& at) const
{
    const int n0 = m_grid.cells(0) + (axis == 0 ? 1 : 0);
    const int n1 = m_grid.cells(1) + (axis == 1 ? 1 : 0);
    return static_cast<std::size_t>(at[0]) +
           static_cast<std::size_t>(n0) *
               (static_cast<std::size_t>(at[1]) + static_cast<std::size_t>(n1) * static_cast<std::size_t>(at[2]));
}

double FieldSolver::faceVelocity(int axis, int i, int j, int k) const
{
    return m_u[static_cast<std::size_t>(axis)][faceIndex(axis, {i, j, k})];
}

std::array<double, 3> FieldSolver::velocity(int i, int j, int k) const
{
    std::array<double, 3> v{};
    for (int d = 0; d < 3; ++d) {
        Index3 lo{i, j, k}, hi{i, j, k};
        hi[static_cast<std::size_t>(d)] += 1;
        const auto& u = m_u[static_cast<std::size_t>(d)];
        v[static_cast<std::size_t>(d)] = 0.5 * (u[faceIndex(d, lo)] + u[faceIndex(d, hi)]);
    }
    return v;
}

const BoundaryCondition& FieldSolver::boundaryAt(Side side, const Index3& cell) const
{
    const auto plane = planeAxes(axisOf(side));
    const auto a = static_cast<std::size_t>(cell[static_cast<std::size_t>(plane[0])]);
    const auto b = static_cast<std::size_t>(cell[static_cast<std::size_t>(plane[1])]);
    const auto n = static_cast<std::size_t>(m_grid.cells(plane[0]));
    return m_conditions[m_sideCondition[static_cast<std::size_t>(side)][a + n * b]];
}

void FieldSolver::setBoundary(Side side, const BoundaryCondition& bc)
{
    const double inf = std::numeric_limits<double>::infinity();
    setBoundaryPatch(side, {-inf, -inf}, {inf, inf}, bc);
}

void FieldSolver::setBoundaryPatch(Side side, std::array<double, 2> lo, std::array<double, 2> hi,
                                   const BoundaryCondition& bc)
{
    if (m_conditions.size() >= 65535)
        throw std::invalid_argument("field solver: too many distinct boundary conditions");
    for (double x : bc.velocity)
        if (!std::isfinite(x))
            throw std::invalid_argument("field solver: a boundary velocity is not finite");
    if (bc.temperature && !std::isfinite(*bc.temperature))
        throw std::invalid_argument("field solver: a boundary temperature is not finite");
    m_conditions.push_back(bc);
    const auto id = static_cast<std::uint16_t>(m_conditions.size() - 1);
    const auto plane = planeAxes(axisOf(side));
    const int na = m_grid.cells(plane[0]), nb = m_grid.cells(plane[1]);
    auto& ids = m_sideCondition[static_cast<std::size_t>(side)];
    for (int b = 0; b < nb; ++b)
        for (int a = 0; a < na; ++a) {
            const double ca = m_grid.centre(plane[0], a), cb = m_grid.centre(plane[1], b);
            if (ca >= lo[0] && ca <= hi[0] && cb >= lo[1] && cb <= hi[1])
                ids[static_cast<std::size_t>(a) + static_cast<std::size_t>(na) * static_cast<std::size_t>(b)] = id;
        }
}

void FieldSolver::addHeat(int i, int j, int k, double watts)
{
    if (!(watts >= 0) || !std::isfinite(watts))
        throw std::invalid_argument("field solver: heat must be finite and non-negative (W)");
    m_heat[m_grid.cell(i, j, k)] += watts;
}

int FieldSolver::addBlackBox(const FieldBlackBox& spec)
{
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (!std::isfinite(spec.min[D]) || !std::isfinite(spec.max[D]) || !(spec.max[D] > spec.min[D]))
            throw std::invalid_argument("field solver: a black box needs finite bounds with max > min");
    }
    if (!(spec.massFlow >= 0) || !std::isfinite(spec.massFlow) || !(spec.heat >= 0) || !std::isfinite(spec.heat))
        throw std::invalid_argument("field solver: a black box's flow and heat must be finite and non-negative");
    if (spec.heat > 0 && spec.massFlow == 0)
        throw std::invalid_argument("field solver: a black box that releases heat needs an air flow to carry it");
    const auto range = cellsInside(spec.min, spec.max);
    const std::array<int, 3> lo = range[0], hi = range[1];
    const int d = axisOf(spec.intake);
    const auto D = static_cast<std::size_t>(d);
    const int front = isHigh(spec.intake) ? hi[D] + 1 : lo[D] - 1;
    const int back = isHigh(spec.intake) ? lo[D] - 1 : hi[D] + 1;
    if (front < 0 || front >= m_grid.cells(d) || back < 0 || back >= m_grid.cells(d))
        throw std::invalid_argument("field solver: a black box's intake or exhaust face lies on the domain's edge");
    for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i)
                if (m_solid[m_grid.cell(i, j, k)])
                    throw std::invalid_argument("field solver: black boxes overlap");
    Box box;
    box.spec = spec;
    const auto plane = planeAxes(d);
    double intakeArea = 0;
    for (int b = lo[static_cast<std::size_t>(plane[1])]; b <= hi[static_cast<std::size_t>(plane[1])]; ++b)
        for (int a = lo[static_cast<std::size_t>(plane[0])]; a <= hi[static_cast<std::size_t>(plane[0])]; ++a) {
            Index3 f{}, r{};
            f[static_cast<std::size_t>(plane[0])] = r[static_cast<std::size_t>(plane[0])] = a;
            f[static_cast<std::size_t>(plane[1])] = r[static_cast<std::size_t>(plane[1])] = b;
            f[D] = front;
            r[D] = back;
            const std::size_t fc = m_grid.cell(f[0], f[1], f[2]), rc = m_grid.cell(r[0], r[1], r[2]);
            if (m_solid[fc] || m_solid[rc])
                throw std::invalid_argument("field solver: a black box's intake or exhaust face is blocked by another");
            const double area = m_grid.width(plane[0], a) * m_grid.width(plane[1], b);
            Index3 fi = f, ri = r; // the faces between the box and these cells
            fi[D] = isHigh(spec.intake) ? front : front + 1;
            ri[D] = isHigh(spec.intake) ? back + 1 : back;
            box.intake.faces.push_back(faceIndex(d, fi));
            box.exhaust.faces.push_back(faceIndex(d, ri));
            box.intake.cells.push_back(fc);
            box.intake.weights.push_back(area);
            box.exhaust.cells.push_back(rc);
            box.exhaust.weights.push_back(area);
            intakeArea += area;
        }
    for (double& w : box.intake.weights)
        w /= intakeArea;
    for (double& w : box.exhaust.weights)
        w /= intakeArea;
    makeSolid(range);
    box.axis = d;
    box.area = intakeArea;
    m_boxes.push_back(std::move(box));
    updateBlackBoxes();
    return static_cast<int>(m_boxes.size()) - 1;
}

std::array<std::array<int, 3>, 2> FieldSolver::cellsInside(const std::array<double, 3>& min,
                                                           const std::array<double, 3>& max) const
{
    std::array<int, 3> lo{}, hi{};
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (!std::isfinite(min[D]) || !std::isfinite(max[D]) || !(max[D] > min[D]))
            throw std::invalid_argument("field solver: a box needs finite bounds with max > min");
        lo[D] = m_grid.cells(d);
        hi[D] = -1;
        for (int i = 0; i < m_grid.cells(d); ++i)
            if (m_grid.centre(d, i) > min[D] && m_grid.centre(d, i) < max[D]) {
                lo[D] = std::min(lo[D], i);
                hi[D] = std::max(hi[D], i);
            }
        if (hi[D] < lo[D])
            throw std::invalid_argument("field solver: a box covers no cell of the grid (refine the grid)");
    }
    return {lo, hi};
}

void FieldSolver::makeSolid(const std::array<std::array<int, 3>, 2>& range)
{
    for (int k = range[0][2]; k <= range[1][2]; ++k)
        for (int j = range[0][1]; j <= range[1][1]; ++j)
            for (int i = range[0][0]; i <= range[1][0]; ++i) {
                m_solid[m_grid.cell(i, j, k)] = 1;
                for (int a = 0; a < 3; ++a) { // no flow through a solid's faces (a box sets its own)
                    Index3 f0{i, j, k}, f1{i, j, k};
                    f1[static_cast<std::size_t>(a)] += 1;
                    m_u[static_cast<std::size_t>(a)][faceIndex(a, f0)] = 0;
                    m_u[static_cast<std::size_t>(a)][faceIndex(a, f1)] = 0;
                }
            }
}

void FieldSolver::addSolid(std::array<double, 3> min, std::array<double, 3> max)
{
    makeSolid(cellsInside(min, max));
}

void FieldSolver::setBlackBoxFlow(int box, double massFlow, double heat)
{
    if (box < 0 || box >= blackBoxCount())
        throw std::out_of_range("field solver: no such black box");
    if (!(massFlow >= 0) || !std::isfinite(massFlow) || !(heat >= 0) || !std::isfinite(heat))
        throw std::invalid_argument("field solver: a black box's flow and heat must be finite and non-negative");
    if (heat > 0 && massFlow == 0)
        throw std::invalid_argument("field solver: a black box that releases heat needs an air flow to carry it");
    m_boxes[static_cast<std::size_t>(box)].spec.massFlow = massFlow;
    m_boxes[static_cast<std::size_t>(box)].spec.heat = heat;
    updateBlackBoxes();
}

BlackBoxState FieldSolver::blackBoxState(int box) const
{
    if (box < 0 || box >= blackBoxCount())
        throw std::out_of_range("field solver: no such black box");
    return m_boxes[static_cast<std::size_t>(box)].state;
}

// The boxes' intake temperatures from the current field, their exhaust temperatures, and the
// per-cell sinks and releases the continuity and energy equations see.
void FieldSolver::updateBlackBoxes()
{
    std::fill(m_sink.begin(), m_sink.end(), 0.0);
    std::fill(m_release.begin(), m_release.end(), 0.0);
    std::fill(m_releaseEnthalpy.begin(), m_releaseEnthalpy.end(), 0.0);
    for (Box& b : m_boxes) {
        double mean = 0, hottest = -std::numeric_limits<double>::infinity();
        for (std::size_t n = 0; n < b.intake.cells.size(); ++n) {
            const double t = m_t[b.intake.cells[n]];
            mean += b.intake.weights[n] * t;
            hottest = std::max(hottest, t);
        }
        b.state.intakeMean = mean;
        b.state.intakeMax = hottest;
        b.state.exhaust = b.spec.massFlow > 0 ? mean + b.spec.heat / (b.spec.massFlow * m_fluid.specificHeat) : mean;
        // The box's faces carry its flow (along +axis when it draws from its low side).
        const double sign = isHigh(b.spec.intake) ? -1.0 : 1.0;
        auto& u = m_u[static_cast<std::size_t>(b.axis)];
        const double velocity = sign * b.spec.massFlow / (m_fluid.density * b.area);
        for (std::size_t n = 0; n < b.intake.faces.size(); ++n) {
            u[b.intake.faces[n]] = velocity;
            u[b.exhaust.faces[n]] = velocity;
        }
        for (std::size_t n = 0; n < b.intake.cells.size(); ++n)
            m_sink[b.intake.cells[n]] += b.spec.massFlow * b.intake.weights[n];
        for (std::size_t n = 0; n < b.exhaust.cells.size(); ++n) {
            const double m = b.spec.massFlow * b.exhaust.weights[n];
            m_release[b.exhaust.cells[n]] += m;
            m_releaseEnthalpy[b.exhaust.cells[n]] += m * b.state.exhaust;
        }
    }
}

void FieldSolver::setInitialTemperature(double celsius)
{
    std::fill(m_t.begin(), m_t.end(), celsius);
}

double FieldSolver::viscosity(std::size_t cell) const
{
    return m_fluid.viscosity + (m_nut.empty() ? 0.0 : m_fluid.density * m_nut[cell]);
}

double FieldSolver::diffusivity(std::size_t cell) const
{
    const double kt =
        m_nut.empty() ? 0.0 : m_fluid.density * m_fluid.specificHeat * m_nut[cell] / m_fluid.turbulentPrandtl;
    return (m_fluid.conductivity + kt) / m_fluid.specificHeat;
}

template <class Fn>
void FieldSolver::forEachBoundaryFace(Side side, Fn&& fn) const
{
    const int d = axisOf(side);
    const bool high = isHigh(side);
    const auto plane = planeAxes(d);
    const int n = m_grid.cells(d);
    for (int b = 0; b < m_grid.cells(plane[1]); ++b)
        for (int a = 0; a < m_grid.cells(plane[0]); ++a) {
            Index3 cell{};
            cell[static_cast<std::size_t>(plane[0])] = a;
            cell[static_cast<std::size_t>(plane[1])] = b;
            cell[static_cast<std::size_t>(d)] = high ? n - 1 : 0;
            Index3 face = cell;
            face[static_cast<std::size_t>(d)] = high ? n : 0;
            const double area = m_grid.width(plane[0], a) * m_grid.width(plane[1], b);
            fn(cell, faceIndex(d, face), area, boundaryAt(side, cell));
        }
}

// Normal velocity on every boundary face: walls and symmetry none, inlets theirs, outlets the
// adjacent interior face's (outflow only), scaled so that the outlets carry exactly the inflow —
// without that the pressure correction, pinned in one cell, would have no consistent solution.
void FieldSolver::applyVelocityBoundaries()
{
    double inflow = 0, outflow = 0, outletArea = 0;
    struct OutletFace {
        int axis;
        std::size_t face;
        double sign;
    };
    std::vector<OutletFace> outlets;
    for (int s = 0; s < 6; ++s) {
        const Side side = static_cast<Side>(s);
        const int d = axisOf(side);
        const bool high = isHigh(side);
        const int n = m_grid.cells(d);
        const double sign = high ? 1.0 : -1.0; // outward
        auto& u = m_u[static_cast<std::size_t>(d)];
        forEachBoundaryFace(side, [&](const Index3& cell, std::size_t f, double area, const BoundaryCondition& bc) {
            if (m_solid[m_grid.cell(cell[0], cell[1], cell[2])]) {
                u[f] = 0;
                return;
            }
            switch (bc.kind) {
            case BoundaryKind::Wall:
            case BoundaryKind::Symmetry: u[f] = 0; break;
            case BoundaryKind::Inlet:
                u[f] = bc.velocity[static_cast<std::size_t>(d)];
                inflow -= sign * u[f] * area;
                break;
            case BoundaryKind::Outlet: {
                Index3 inner = cell;
                inner[static_cast<std::size_t>(d)] = high ? n - 1 : 1;
                const double v = n > 1 ? u[faceIndex(d, inner)] : 0.0;
                u[f] = sign * v > 0 ? v : 0.0;
                outflow += sign * u[f] * area;
                outletArea += area;
                outlets.push_back({d, f, sign});
                break;
            }
            }
        });
    }
    for (const auto& o : outlets) {
        double& u = m_u[static_cast<std::size_t>(o.axis)][o.face];
        if (outflow > 1e-12 * std::max(inflow, 1e-30))
            u *= inflow / outflow;
        else
            u = o.sign * inflow / outletArea;
    }
}

void FieldSolver::sweep(std::vector<Row>& rows, std::vector<double>& phi, int sweeps)
{
    auto relax = [&](const Row& r) {
        double sum = r.b;
        for (int n = 0; n < r.count; ++n)
            sum += r.a[static_cast<std::size_t>(n)] * phi[r.nb[static_cast<std::size_t>(n)]];
        phi[r.at] = sum / r.aP;
    };
    for (int s = 0; s < sweeps; ++s) {
        for (const Row& r : rows)
            relax(r);
        for (auto it = rows.rbegin(); it != rows.rend(); ++it)
            relax(*it);
    }
}

// A row's neighbour with deferred correction: upwind in the matrix, the difference to the
// higher-order face value `face` lagged in the source (conservative: both cells of a face use the
// same face value).
void FieldSolver::Row::neighbour(std::size_t index, double diffusion, double outflow, double face,
                                 const std::vector<double>& phi, double blend)
{
    aP += diffusion + std::max(outflow, 0.0);
    a[static_cast<std::size_t>(count)] = diffusion + std::max(-outflow, 0.0);
    nb[static_cast<std::size_t>(count)] = index;
    ++count;
    const double upwind = outflow > 0 ? phi[at] : phi[index];
    correction -= blend * outflow * (face - upwind);
}

// A face with a known value (wall, inlet, a fixed boundary face).
void FieldSolver::Row::known(double diffusion, double outflow, double value)
{
    aP += diffusion + std::max(outflow, 0.0);
    b += (diffusion + std::max(-outflow, 0.0)) * value;
}

double FieldSolver::Row::residual(const std::vector<double>& phi) const
{
    double r = aP * phi[at] - b;
    for (int n = 0; n < count; ++n)
        r -= a[static_cast<std::size_t>(n)] * phi[nb[static_cast<std::size_t>(n)]];
    return std::abs(r);
}

double FieldSolver::momentum(int d, const FieldSettings& s)
{
    const auto D = static_cast<std::size_t>(d);
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    auto& rows = m_rows[D];
    rows.clear();
    if (nc[D] < 2)
        return 0; // the w-velocity of a 2D grid
    auto& u = m_u[D];
    const double rho = m_fluid.density;
    const double g = m_fluid.gravity[D];
    Index3 at{};
    for (at[2] = 0; at[2] < nc[2] + (d == 2 ? 1 : 0); ++at[2])
        for (at[1] = 0; at[1] < nc[1] + (d == 1 ? 1 : 0); ++at[1])
            for (at[0] = 0; at[0] < nc[0] + (d == 0 ? 1 : 0); ++at[0]) {
                if (at[D] == 0 || at[D] == nc[D])
                    continue; // boundary faces are set by applyVelocityBoundaries
                Row r;
                r.at = faceIndex(d, at);
                Index3 cmI = at;
                cmI[D] -= 1;
                const std::size_t cm = m_grid.cell(cmI[0], cmI[1], cmI[2]);
                const std::size_t cp = m_grid.cell(at[0], at[1], at[2]);
                if (m_solid[cm] || m_solid[cp]) { // a black box's face: no flow, or the box's (fixed)
                    m_d[D][r.at] = 0;
                    continue;
                }
                const double wm = m_grid.width(d, at[D] - 1), wp = m_grid.width(d, at[D]);
                const double dx = 0.5 * (wm + wp);
                const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
                const double ad = m_grid.width(e1, at[static_cast<std::size_t>(e1)]) *
                                  m_grid.width(e2, at[static_cast<std::size_t>(e2)]);
                // Along the component: control-volume faces at the two cell centres.
                for (int side : {-1, 1}) {
                    Index3 nbI = at;
                    nbI[D] += side;
                    const std::size_t nb = faceIndex(d, nbI);
                    const double outflow = side * rho * ad * 0.5 * (u[r.at] + u[nb]);
                    const std::size_t c = side < 0 ? cm : cp;
                    const double diff = viscosity(c) * ad / m_grid.width(d, side < 0 ? at[D] - 1 : at[D]);
                    // The neighbour face is fixed on the boundary, or on a solid's face (then u = 0).
                    bool fixed = nbI[D] == 0 || nbI[D] == nc[D];
                    if (!fixed) {
                        Index3 beyond = at; // the cell on the far side of the neighbour face
                        beyond[D] += side < 0 ? -2 : 1;
                        fixed = m_solid[m_grid.cell(beyond[0], beyond[1], beyond[2])] != 0;
                    }
                    if (fixed)
                        r.known(diff, outflow, u[nb]);
                    else
                        r.neighbour(nb, diff, outflow, 0.5 * (u[r.at] + u[nb]), u, s.centralBlend);
                }
                // Across: control-volume faces on the cells' faces along e.
                for (int e : {e1, e2}) {
                    const auto E = static_cast<std::size_t>(e);
                    const int e3 = 3 - d - e;
                    const double w3 = m_grid.width(e3, at[static_cast<std::size_t>(e3)]);
                    const double area = dx * w3;
                    const auto& ue = m_u[E];
                    for (int side : {-1, 1}) {
                        const int ef = side < 0 ? at[E] : at[E] + 1;
                        Index3 fm = cmI, fp = at;
                        fm[E] = ef;
                        fp[E] = ef;
                        const double outflow =
                            side * rho * (ue[faceIndex(e, fm)] * 0.5 * wm + ue[faceIndex(e, fp)] * 0.5 * wp) * w3;
                        const int nbCell = at[E] + side;
                        if (nbCell >= 0 && nbCell < nc[E]) {
                            Index3 nbI = at, cmN = cmI;
                            nbI[E] = nbCell;
                            cmN[E] = nbCell;
                            if (m_solid[m_grid.cell(nbI[0], nbI[1], nbI[2])] ||
                                m_solid[m_grid.cell(cmN[0], cmN[1], cmN[2])]) {
                                // A solid's surface on this side: no slip.
                                const double mu = 0.5 * (viscosity(cm) + viscosity(cp));
                                r.known(mu * area / (0.5 * m_grid.width(e, at[E])), outflow, 0.0);
                                continue;
                            }
                            const double dist = std::abs(m_grid.centre(e, nbCell) - m_grid.centre(e, at[E]));
                            const double frac = std::abs(m_grid.face(e, ef) - m_grid.centre(e, at[E])) / dist;
                            const double mu =
                                0.25 * (viscosity(cm) + viscosity(cp) + viscosity(m_grid.cell(cmN[0], cmN[1], cmN[2])) +
                                        viscosity(m_grid.cell(nbI[0], nbI[1], nbI[2])));
                            const std::size_t nbFace = faceIndex(d, nbI);
                            r.neighbour(nbFace, mu * area / dist, outflow, u[r.at] + frac * (u[nbFace] - u[r.at]), u,
                                        s.centralBlend);
                            continue;
                        }
                        const Side wallSide = sideOf(e, side > 0);
                        const BoundaryCondition& bm = boundaryAt(wallSide, cmI);
                        const BoundaryCondition& bp = boundaryAt(wallSide, at);
                        const auto fixedKind = [](const BoundaryCondition& c) {
                            return c.kind == BoundaryKind::Wall || c.kind == BoundaryKind::Inlet;
                        };
                        if (fixedKind(bm) || fixedKind(bp)) {
                            const double mu = 0.5 * (viscosity(cm) + viscosity(cp));
                            const double value = 0.5 * (bm.velocity[D] + bp.velocity[D]);
                            r.known(mu * area / (0.5 * m_grid.width(e, at[E])), outflow, value);
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
                double sumA = 0;
                for (int n = 0; n < r.count; ++n)
                    sumA += r.a[static_cast<std::size_t>(n)];
                const double aPr = r.aP / s.velocityRelaxation;
                r.b += (aPr - r.aP) * u[r.at];
                r.aP = aPr;
                m_d[D][r.at] = ad / std::max(aPr - sumA, 1e-3 * aPr);
                rows.push_back(r);
            }
    double res = 0, scale = 0, umax = 0;
    for (const Row& r : rows) {
        res += r.residual(u);
        scale += r.aP;
    }
    for (double x : u)
        umax = std::max(umax, std::abs(x));
    sweep(rows, u, s.momentumSweeps);
    return umax > 0 && scale > 0 ? res / (scale * umax) : 0.0;
}

double FieldSolver::pressureCorrection(const FieldSettings& s)
{
    const std::size_t n = m_grid.cellCount();
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const double rho = m_fluid.density;
    // Face coefficients ρ A d_f of the correction equation Σ_f c_f (p'_P − p'_nb) = −imbalance_P.
    std::array<std::vector<double>, 3> coeff;
    for (int d = 0; d < 3; ++d)
        coeff[static_cast<std::size_t>(d)].assign(m_u[static_cast<std::size_t>(d)].size(), 0.0);
    std::vector<double> rhs(n, 0.0);
    double imbalanceSum = 0;
    Index3 at{};
    for (at[2] = 0; at[2] < nc[2]; ++at[2])
        for (at[1] = 0; at[1] < nc[1]; ++at[1])
            for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                const std::size_t c = m_grid.cell(at[0], at[1], at[2]);
                double imbalance = 0;
                for (int d = 0; d < 3; ++d) {
                    const auto D = static_cast<std::size_t>(d);
                    const double area = m_grid.width((d + 1) % 3, at[static_cast<std::size_t>((d + 1) % 3)]) *
                                        m_grid.width((d + 2) % 3, at[static_cast<std::size_t>((d + 2) % 3)]);
                    for (int side : {-1, 1}) {
                        Index3 f = at;
                        if (side > 0)
                            f[D] += 1;
                        const std::size_t fi = faceIndex(d, f);
                        imbalance += side * rho * area * m_u[D][fi];
                        if (side > 0 && f[D] < nc[D]) // each interior face once (boundary faces take no correction)
                            coeff[D][fi] = rho * area * m_d[D][fi];
                    }
                }
                if (m_solid[c])
                    continue; // inside a black box, which carries its flow from intake to exhaust
                imbalanceSum += std::abs(imbalance);
                rhs[c] = -imbalance;
            }
    std::vector<double> pc(n, 0.0);
    if (s.pressureSolver == PressureSolver::MultigridCG) {
        const PoissonMultigrid mg(nc, coeff);
        mg.solve(rhs, pc, s.pressureTolerance, 500);
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
    for (std::size_t c = 0; c < n; ++c)
        m_p[c] += s.pressureRelaxation * pc[c];
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (nc[D] < 2)
            continue;
        for (at[2] = 0; at[2] < nc[2] + (d == 2 ? 1 : 0); ++at[2])
            for (at[1] = 0; at[1] < nc[1] + (d == 1 ? 1 : 0); ++at[1])
                for (at[0] = 0; at[0] < nc[0] + (d == 0 ? 1 : 0); ++at[0]) {
                    if (at[D] == 0 || at[D] == nc[D])
                        continue;
                    Index3 cmI = at;
                    cmI[D] -= 1;
                    const std::size_t fi = faceIndex(d, at);
                    m_u[D][fi] +=
                        m_d[D][fi] * (pc[m_grid.cell(cmI[0], cmI[1], cmI[2])] - pc[m_grid.cell(at[0], at[1], at[2])]);
                }
    }
    return imbalanceSum;
}

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

// Face value of T between the upwind cell `up` and the downwind cell `down` (neighbours along
// `axis`; `frac` the face's distance from the upwind centre over the centres' distance) with van
// Leer's limiter (van Leer 1974; the gradient-based ratio of Darwish & Moukalled 2003): second
// order where T is smooth, upwind at extrema, so no new maxima or minima — the air is never
// colder than the coldest supply or hotter than the heat can make it.
double FieldSolver::limitedFace(const std::array<int, 3>& up, const std::array<int, 3>& down, int axis,
                                double frac) const
{
    const auto D = static_cast<std::size_t>(axis);
    const double tu = m_t[m_grid.cell(up[0], up[1], up[2])];
    const double td = m_t[m_grid.cell(down[0], down[1], down[2])];
    const double jump = td - tu;
    if (std::abs(jump) < 1e-12)
        return tu;
    const double dx = m_grid.centre(axis, down[D]) - m_grid.centre(axis, up[D]);
    const double r = 2.0 * temperatureGradient(up, axis) * dx / jump - 1.0;
    const double psi = (r + std::abs(r)) / (1.0 + std::abs(r));
    return tu + psi * frac * jump;
}

double FieldSolver::energy(const FieldSettings& s)
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    const double rho = m_fluid.density;
    auto& rows = m_energyRows;
    rows.clear();
    if (m_energyCorrection.size() != m_t.size())
        m_energyCorrection.assign(m_t.size(), 0.0);
    Index3 at{};
    for (at[2] = 0; at[2] < nc[2]; ++at[2])
        for (at[1] = 0; at[1] < nc[1]; ++at[1])
            for (at[0] = 0; at[0] < nc[0]; ++at[0]) {
                Row r;
                r.at = m_grid.cell(at[0], at[1], at[2]);
                if (m_solid[r.at]) { // inside a black box: not part of the air
                    r.aP = 1;
                    r.b = m_t[r.at];
                    rows.push_back(r);
                    continue;
                }
                for (int d = 0; d < 3; ++d) {
                    const auto D = static_cast<std::size_t>(d);
                    const double area = m_grid.width((d + 1) % 3, at[static_cast<std::size_t>((d + 1) % 3)]) *
                                        m_grid.width((d + 2) % 3, at[static_cast<std::size_t>((d + 2) % 3)]);
                    for (int side : {-1, 1}) {
                        Index3 f = at;
                        if (side > 0)
                            f[D] += 1;
                        const double outflow = side * rho * area * m_u[D][faceIndex(d, f)];
                        const int nbCell = at[D] + side;
                        if (nbCell >= 0 && nbCell < nc[D]) {
                            Index3 nbI = at;
                            nbI[D] = nbCell;
                            const std::size_t nb = m_grid.cell(nbI[0], nbI[1], nbI[2]);
                            if (m_solid[nb])
                                continue; // a black box's surface: adiabatic, no flow
                            const double dist = std::abs(m_grid.centre(d, nbCell) - m_grid.centre(d, at[D]));
                            const double frac = std::abs(m_grid.face(d, f[D]) - m_grid.centre(d, at[D])) / dist;
                            const double gamma = 0.5 * (diffusivity(r.at) + diffusivity(nb));
                            const double face =
                                outflow > 0 ? limitedFace(at, nbI, d, frac) : limitedFace(nbI, at, d, 1.0 - frac);
                            r.neighbour(nb, gamma * area / dist, outflow, face, m_t, s.centralBlend);
                            continue;
                        }
                        const BoundaryCondition& bc = boundaryAt(sideOf(d, side > 0), at);
                        const double wallDiff = diffusivity(r.at) * area / (0.5 * m_grid.width(d, at[D]));
                        switch (bc.kind) {
                        case BoundaryKind::Wall:
                            if (bc.temperature)
                                r.known(wallDiff, 0.0, *bc.temperature);
                            break;
                        case BoundaryKind::Inlet:
                            r.known(wallDiff, outflow, bc.temperature.value_or(m_fluid.referenceTemperature));
                            break;
                        case BoundaryKind::Outlet: r.aP += std::max(outflow, 0.0); break;
                        case BoundaryKind::Symmetry: break;
                        }
                    }
                }
                // The deferred correction is itself relaxed (half the change per iteration): the
                // limiter switches at extrema, and an unrelaxed correction can cycle there.
                double& corr = m_energyCorrection[r.at];
                corr += 0.5 * (r.correction - corr);
                r.b += corr + m_heat[r.at] / m_fluid.specificHeat;
                // Black boxes: air drawn leaves at the cell's temperature, air released enters at
                // the box's exhaust temperature.
                r.aP += m_sink[r.at];
                r.b += m_releaseEnthalpy[r.at];
                if (r.aP <= 0) { // no flow and no conduction path: the cell keeps its temperature
                    r.aP = 1;
                    r.b = m_t[r.at];
                }
                const double aPr = r.aP / s.temperatureRelaxation;
                r.b += (aPr - r.aP) * m_t[r.at];
                r.aP = aPr;
                rows.push_back(r);
            }
    // The residual is the cells' summed heat imbalance over the heat the domain carries (released
    // in cells plus conducted through walls): the equations are in conservative flux form, so
    // Σ imbalance is exactly the global energy balance's defect, and a tolerance of 1e-6 closes
    // the balance to 1e-6. With no heat at all it falls back to Σ a_P times the temperature range.
    double res = 0, scale = 0;
    for (const Row& r : rows) {
        res += r.residual(m_t);
        scale += r.aP;
    }
    double carried = heatReleased();
    for (int sd = 0; sd < 6; ++sd)
        carried += std::abs(wallHeat(static_cast<Side>(sd)));
    sweep(rows, m_t, s.energySweeps);
    if (carried > 0)
        return res * m_fluid.specificHeat / carried;
    const auto [lo, hi] = std::minmax_element(m_t.begin(), m_t.end());
    const double range = std::max(*hi - *lo, 1e-3);
    return scale > 0 ? res / (scale * range) : 0.0;
}

void FieldSolver::updateEddyViscosity()
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
    for (int k = 0; k < nc[2]; ++k)
        for (int j = 0; j < nc[1]; ++j)
            for (int i = 0; i < nc[0]; ++i) {
                const auto v = velocity(i, j, k);
                const std::size_t c = m_grid.cell(i, j, k);
                const double target = kChenXu * std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * m_wallDistance[c];
                m_nut[c] += m_nutRelaxation * (target - m_nut[c]);
            }
}

FieldResult FieldSolver::solve(const FieldSettings& s, const std::function<bool(const ResidualRecord&)>& progress)
{
    if (!(s.velocityRelaxation > 0 && s.velocityRelaxation <= 1) ||
        !(s.pressureRelaxation > 0 && s.pressureRelaxation <= 1) ||
        !(s.temperatureRelaxation > 0 && s.temperatureRelaxation <= 1))
        throw std::invalid_argument("field solver: relaxation factors must lie in (0, 1]");
    const auto start = std::chrono::steady_clock::now();
    const std::size_t n = m_grid.cellCount();
    if (s.turbulence == TurbulenceModel::ZeroEquation) {
        // Distance to the nearest side that has a wall (rack surfaces join with the room model).
        m_wallDistance.assign(n, std::numeric_limits<double>::infinity());
        for (int sd = 0; sd < 6; ++sd) {
            const auto& ids = m_sideCondition[static_cast<std::size_t>(sd)];
            const bool hasWall = std::any_of(
                ids.begin(), ids.end(), [&](std::uint16_t id) { return m_conditions[id].kind == BoundaryKind::Wall; });
            if (!hasWall)
                continue;
            const int d = sd / 2;
            const double plane = m_grid.face(d, sd % 2 == 1 ? m_grid.cells(d) : 0);
            for (int k = 0; k < m_grid.cells(2); ++k)
                for (int j = 0; j < m_grid.cells(1); ++j)
                    for (int i = 0; i < m_grid.cells(0); ++i) {
                        const Index3 at{i, j, k};
                        const double dist = std::abs(m_grid.centre(d, at[static_cast<std::size_t>(d)]) - plane);
                        auto& w = m_wallDistance[m_grid.cell(i, j, k)];
                        w = std::min(w, dist);
                    }
        }
        // ... and to the nearest black box's surface.
        for (const Box& b : m_boxes)
            for (int k = 0; k < m_grid.cells(2); ++k)
                for (int j = 0; j < m_grid.cells(1); ++j)
                    for (int i = 0; i < m_grid.cells(0); ++i) {
                        const Index3 at{i, j, k};
                        double d2 = 0;
                        for (int d = 0; d < 3; ++d) {
                            const auto D = static_cast<std::size_t>(d);
                            const double x = m_grid.centre(d, at[D]);
                            const double gap = std::max({b.spec.min[D] - x, x - b.spec.max[D], 0.0});
                            d2 += gap * gap;
                        }
                        auto& w = m_wallDistance[m_grid.cell(i, j, k)];
                        w = std::min(w, std::sqrt(d2));
                    }
        for (double& w : m_wallDistance)
            if (!std::isfinite(w))
                w = 0.5 * std::min({m_grid.length(0), m_grid.length(1), m_grid.length(2)});
        m_nut.assign(n, 0.0);
    } else {
        m_nut.clear();
    }

    // Mass must leave where it enters: an inlet needs an outlet somewhere.
    {
        bool inlet = false, outlet = false;
        for (int sd = 0; sd < 6; ++sd)
            for (std::uint16_t id : m_sideCondition[static_cast<std::size_t>(sd)]) {
                const BoundaryCondition& bc = m_conditions[id];
                const double vn = bc.velocity[static_cast<std::size_t>(sd / 2)];
                inlet = inlet || (bc.kind == BoundaryKind::Inlet && vn != 0.0);
                outlet = outlet || bc.kind == BoundaryKind::Outlet;
            }
        if (inlet && !outlet)
            throw std::invalid_argument(
                "field solver: air enters through an inlet but there is no outlet for it to leave by");
    }
    FieldResult result;
    applyVelocityBoundaries();
    double continuityPeak = 0;
    for (int it = 1; it <= s.maxIterations; ++it) {
        if (!m_nut.empty())
            updateEddyViscosity();
        updateBlackBoxes(); // exhaust temperatures from the latest intakes
        ResidualRecord rec;
        rec.iteration = it;
        for (int d = 0; d < 3; ++d)
            rec.momentum[static_cast<std::size_t>(d)] = momentum(d, s);
        const double imbalance = pressureCorrection(s);
        applyVelocityBoundaries();
        continuityPeak = std::max(continuityPeak, imbalance);
        rec.continuity = continuityPeak > 0 ? imbalance / continuityPeak : 0.0;
        rec.energy = s.solveEnergy ? energy(s) : 0.0;
        result.history.push_back(rec);
        result.iterations = it;
        const double worst = std::max({rec.continuity, rec.momentum[0], rec.momentum[1], rec.momentum[2], rec.energy});
        if (!std::isfinite(worst))
            throw FieldConvergenceError("field solver diverged at iteration " + std::to_string(it) +
                                            " (a residual is not finite); lower the relaxation factors",
                                        std::move(result.history));
        if (progress && !progress(rec))
            throw std::runtime_error("field solve cancelled at iteration " + std::to_string(it));
        if (it > 1 && worst < s.tolerance) {
            result.converged = true;
            break;
        }
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.converged) {
        const ResidualRecord& last = result.history.back();
        char msg[320];
        std::snprintf(msg, sizeof msg,
                      "field solver did not converge in %d iterations (tolerance %.1e): residuals continuity %.2e, "
                      "momentum %.2e/%.2e/%.2e, energy %.2e",
                      s.maxIterations, s.tolerance, last.continuity, last.momentum[0], last.momentum[1],
                      last.momentum[2], last.energy);
        throw FieldConvergenceError(msg, std::move(result.history));
    }
    return result;
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

double FieldSolver::massOutflow(Side side) const
{
    double m = 0;
    const double sign = isHigh(side) ? 1.0 : -1.0;
    const auto& u = m_u[static_cast<std::size_t>(axisOf(side))];
    forEachBoundaryFace(side, [&](const Index3&, std::size_t f, double area, const BoundaryCondition&) {
        m += m_fluid.density * sign * u[f] * area;
    });
    return m;
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
    return q;
}

} // namespace rdt::thermal
