#include "room/FieldSolver.h"

#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rdt::room {

namespace {

constexpr double kChenXu = 0.03874; // Chen & Xu (1998), ν_t = 0.03874 |V| l

/// Every box's intake stayed within `range` (K, highest less lowest) over the last `window` entries.
bool intakesSteady(const std::vector<std::vector<double>>& history, int window, double range)
{
    const auto w = static_cast<std::size_t>(std::max(1, window));
    if (history.size() <= w)
        return false;
    for (std::size_t b = 0; b < history.back().size(); ++b) {
        double lo = 1e300, hi = -1e300;
        for (std::size_t h = history.size() - w; h < history.size(); ++h) {
            lo = std::min(lo, history[h][b]);
            hi = std::max(hi, history[h][b]);
        }
        if (hi - lo >= range)
            return false;
    }
    return true;
}

/// The worst scaled residual has stopped falling: over the last `window` iterations its second
/// half gets no lower than half of its first half's lowest (a converging solve halves it in far
/// fewer iterations than a window).
bool residualsLevel(const std::vector<ResidualRecord>& history, int window)
{
    const auto w = static_cast<std::size_t>(std::max(2, window));
    if (history.size() <= w)
        return false;
    const auto worstOf = [](const ResidualRecord& r) {
        return std::max({r.continuity, r.momentum[0], r.momentum[1], r.momentum[2], r.energy, r.turbulence});
    };
    double first = 1e300, second = 1e300, firstMean = 0, secondMean = 0;
    const std::size_t mid = history.size() - w / 2;
    for (std::size_t h = history.size() - w; h < history.size(); ++h) {
        const double r = worstOf(history[h]);
        double& lowest = h < mid ? first : second;
        lowest = std::min(lowest, r);
        (h < mid ? firstMean : secondMean) += r;
    }
    // Level: not falling (a converging solve halves its lowest within a window) and not rising (a
    // developing instability: the second half's mean at most 1.5 times the first's).
    return second >= 0.5 * first && secondMean <= 1.5 * firstMean;
}

} // namespace

bool detail::intakesSettled(const std::vector<std::vector<double>>& history, int window, double tolerance)
{
    const auto half = static_cast<std::size_t>(std::max(1, window / 2)); // the window: two halves
    const std::size_t n = history.size();
    if (n <= 2 * half)
        return false;
    const auto& now = history[n - 1];
    const auto& mid = history[n - 1 - half];
    const auto& then = history[n - 1 - 2 * half];
    for (std::size_t b = 0; b < now.size(); ++b) {
        if (std::abs(now[b] - then[b]) >= tolerance)
            return false;
        const double d2 = now[b] - mid[b], d1 = mid[b] - then[b];
        if (d1 * d2 <= 0)
            continue; // a swing (or no change at all): within the tolerance above
        const double q = std::min(d2 / d1, 0.98);
        if (std::abs(d2) * q / (1.0 - q) >= tolerance)
            return false;
    }
    return true;
}

using namespace detail;

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

void FieldSolver::setInitialTemperature(double celsius)
{
    std::fill(m_t.begin(), m_t.end(), celsius);
}

double FieldSolver::diffusivity(std::size_t cell) const
{
    const double kt =
        m_nut.empty() ? 0.0 : m_fluid.density * m_fluid.specificHeat * m_nut[cell] / m_fluid.turbulentPrandtl;
    return (m_fluid.conductivity + kt) / m_fluid.specificHeat;
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

/// Per cell μ + ρν_t and (k + ρ c_p ν_t / Pr_t) / c_p, once per outer iteration.
void FieldSolver::updateTransport()
{
    const std::size_t n = m_grid.cellCount();
    m_mu.resize(n);
    m_gamma.resize(n);
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (n > kParallelCells)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        const auto c = static_cast<std::size_t>(i);
        const double nut = m_nut.empty() ? 0.0 : m_nut[c];
        m_mu[c] = m_fluid.viscosity + m_fluid.density * nut;
        m_gamma[c] = (m_fluid.conductivity + m_fluid.density * m_fluid.specificHeat * nut / m_fluid.turbulentPrandtl) /
                     m_fluid.specificHeat;
    }
    if (!m_k.empty())
        updateWallViscosity();
}

void FieldSolver::updateEddyViscosity()
{
    const Index3 nc{m_grid.cells(0), m_grid.cells(1), m_grid.cells(2)};
#pragma omp parallel for schedule(static) if (m_grid.cellCount() > kParallelCells)
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
        if (m_nut.size() != n) // a continued solve goes on from its eddy viscosity
            m_nut.assign(n, 0.0);
    } else if (s.turbulence != TurbulenceModel::KEpsilon) {
        m_nut.clear();
    }
    if (s.turbulence == TurbulenceModel::KEpsilon) {
        prepareKEpsilon();
    } else {
        m_k.clear();
        m_eps.clear();
        for (auto& w : m_muWall)
            w.clear();
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
    checkAirRegions();
    FieldResult result;
    applyVelocityBoundaries();
    std::vector<std::vector<double>> intakeHistory; // per iteration, each box's intake mean
    for (int it = 1; it <= s.maxIterations; ++it) {
        if (s.turbulence == TurbulenceModel::ZeroEquation)
            updateEddyViscosity();
        updateTransport();
        updateBlackBoxes(); // exhaust temperatures from the latest intakes
        ResidualRecord rec;
        rec.iteration = it;
        for (int d = 0; d < 3; ++d)
            rec.momentum[static_cast<std::size_t>(d)] = momentum(d, s);
        const double imbalance = pressureCorrection(s);
        applyVelocityBoundaries();
        m_continuityPeak = std::max(m_continuityPeak, imbalance);
        rec.continuity = m_continuityPeak > 0 ? imbalance / m_continuityPeak : 0.0;
        rec.energy = s.solveEnergy ? energy(s) : 0.0;
        if (s.turbulence == TurbulenceModel::KEpsilon)
            rec.turbulence = kEpsilon(s);
        if (s.intakeTolerance > 0 && !m_boxes.empty()) {
            intakeHistory.emplace_back();
            for (const Box& b : m_boxes)
                intakeHistory.back().push_back(b.state.intakeMean);
            const auto window = static_cast<std::size_t>(std::max(1, s.intakeWindow));
            if (intakeHistory.size() > window) {
                const auto& now = intakeHistory.back();
                const auto& then = intakeHistory[intakeHistory.size() - 1 - window];
                rec.intakeDriftK = 0;
                for (std::size_t b = 0; b < now.size(); ++b)
                    rec.intakeDriftK = std::max(rec.intakeDriftK, std::abs(now[b] - then[b]));
            }
        }
        result.history.push_back(rec);
        result.iterations = it;
        const double worst =
            std::max({rec.continuity, rec.momentum[0], rec.momentum[1], rec.momentum[2], rec.energy, rec.turbulence});
        if (!std::isfinite(worst))
            throw FieldConvergenceError("field solver diverged at iteration " + std::to_string(it) +
                                            " (a residual is not finite); lower the relaxation factors",
                                        std::move(result.history));
        if (progress && !progress(rec))
            throw std::runtime_error("field solve cancelled at iteration " + std::to_string(it));
        // Inlet temperatures settled (intakesSettled): every box's intake moved by less than
        // intakeTolerance over the window, and the change still to come, extrapolated from its
        // two halves, is below it too.
        bool settled = true;
        if (s.intakeTolerance > 0 && !m_boxes.empty())
            settled = intakesSettled(intakeHistory, s.intakeWindow, s.intakeTolerance);
        if (it > 1 && worst < s.tolerance && settled) {
            result.converged = true;
            result.criterion = "residuals";
            break;
        }
        // A residual plateau: a steady solver's answer to small unsteadiness it cannot settle.
        // Accepted only when every rack's intake stayed within plateauIntakeRange over the last
        // plateauWindow iterations (the whole swing, not two samples), and either the residuals,
        // energy included, are below plateauTolerance (so the heat balance closes to that
        // fraction), or they have stopped falling below plateauCeiling while the global heat
        // balance closes within plateauHeatBalance.
        const bool steady = !intakeHistory.empty() && (s.plateauTolerance > 0 || s.plateauCeiling > 0) &&
                            intakesSteady(intakeHistory, s.plateauWindow, s.plateauIntakeRange);
        char why[200] = "";
        if (steady && s.plateauTolerance > 0 && worst < s.plateauTolerance)
            std::snprintf(why, sizeof why, "intakes steady within %.2g K over %d iterations, residuals at %.1e",
                          s.plateauIntakeRange, s.plateauWindow, worst);
        else if (steady && settled && s.plateauCeiling > 0 && worst < s.plateauCeiling &&
                 residualsLevel(result.history, s.plateauWindow)) {
            // `settled` too: the intakes' change still to come, extrapolated from the window's two
            // halves, below intakeTolerance (a slow drift within the 0.05 K spread is not steady).
            const double defect = heatBalanceDefect();
            if (std::abs(defect) < s.plateauHeatBalance)
                std::snprintf(why, sizeof why,
                              "intakes steady within %.2g K over %d iterations, residuals level at %.1e, "
                              "heat balance within %.1e",
                              s.plateauIntakeRange, s.plateauWindow, worst, std::abs(defect));
        }
        if (why[0] != '\0') {
            result.converged = true;
            result.criterion = why;
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

} // namespace rdt::room
