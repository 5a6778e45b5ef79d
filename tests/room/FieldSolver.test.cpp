// Validation of the room solver's core (room/FieldSolver) against analytic and published cases:
// Ghia, Ghia & Shin (1982) lid-driven cavity, de Vahl Davis (1983) differentially heated cavity,
// the Poiseuille profile, and global mass and energy balance. Tolerances are stated per case and
// are the agreement measured at the grid used, with headroom for platform rounding only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "room/FieldGrid.h"
#include "room/FieldSolver.h"

using namespace rdt::room;

namespace {

// Ghia, Ghia & Shin (1982), J. Comput. Phys. 48, 387–411, Table I (u on x = 0.5) and Table II
// (v on y = 0.5), 129 × 129 multigrid solutions.
const std::vector<double> kGhiaY{1.0000, 0.9766, 0.9688, 0.9609, 0.9531, 0.8516, 0.7344, 0.6172, 0.5000,
                                 0.4531, 0.2813, 0.1719, 0.1016, 0.0703, 0.0625, 0.0547, 0.0000};
const std::vector<double> kGhiaU100{1.0,      0.84123,  0.78871,  0.73722,  0.68717,  0.23151,
                                    0.00332,  -0.13641, -0.20581, -0.21090, -0.15662, -0.10150,
                                    -0.06434, -0.04775, -0.04192, -0.03717, 0.0};
const std::vector<double> kGhiaU1000{1.0,      0.65928,  0.57492,  0.51117,  0.46604,  0.33304,
                                     0.18719,  0.05702,  -0.06080, -0.10648, -0.27805, -0.38289,
                                     -0.29730, -0.22220, -0.20196, -0.18109, 0.0};
const std::vector<double> kGhiaX{1.0000, 0.9688, 0.9609, 0.9531, 0.9453, 0.9063, 0.8594, 0.8047, 0.5000,
                                 0.2344, 0.2266, 0.1563, 0.0938, 0.0781, 0.0703, 0.0625, 0.0000};
const std::vector<double> kGhiaV100{0.0,      -0.05906, -0.07391, -0.08864, -0.10313, -0.16914,
                                    -0.22445, -0.24533, 0.05454,  0.17527,  0.17507,  0.16077,
                                    0.12317,  0.10890,  0.10091,  0.09233,  0.0};
const std::vector<double> kGhiaV1000{0.0,      -0.21388, -0.27669, -0.33714, -0.39188, -0.51550,
                                     -0.42665, -0.31966, 0.02526,  0.32235,  0.33075,  0.37095,
                                     0.32627,  0.30353,  0.29012,  0.28124,  0.0};

/// Piecewise-linear interpolation of (xs, ys) (xs increasing) at x.
double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x)
{
    auto hi = std::upper_bound(xs.begin(), xs.end(), x);
    if (hi == xs.begin())
        return ys.front();
    if (hi == xs.end())
        return ys.back();
    const auto i = static_cast<std::size_t>(hi - xs.begin());
    const double t = (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
    return ys[i - 1] + t * (ys[i] - ys[i - 1]);
}

/// Unit square cavity, lid (y = 1) moving at 1 m/s, ρ = 1, μ = 1/Re; cells clustered to the walls.
FieldSolver lidCavity(int n, double re, double ratio)
{
    const auto axis = FieldGrid::clustered(0.0, 1.0, n, ratio);
    FluidProperties fluid;
    fluid.density = 1.0;
    fluid.viscosity = 1.0 / re;
    fluid.gravity = {0, 0, 0};
    FieldSolver solver(FieldGrid({axis, axis, {0.0, 0.1}}), fluid);
    solver.setBoundary(Side::YMax, BoundaryCondition{BoundaryKind::Wall, {1.0, 0, 0}, {}});
    return solver;
}

struct Profiles {
    double maxDeviationU = 0, maxDeviationV = 0;
};

/// Largest deviation from Ghia's centre-line velocities (interpolated linearly between the solver's
/// face velocities, walls included).
Profiles compareWithGhia(const FieldSolver& s, const std::vector<double>& ghiaU, const std::vector<double>& ghiaV)
{
    const FieldGrid& g = s.grid();
    const int n = g.cells(0);
    REQUIRE(n % 2 == 0);
    // u on the vertical centre line: the u faces at x = 0.5 (face n/2), at the cell centres in y.
    std::vector<double> ys{0.0}, us{0.0};
    for (int j = 0; j < g.cells(1); ++j) {
        ys.push_back(g.centre(1, j));
        us.push_back(s.faceVelocity(0, n / 2, j, 0));
    }
    ys.push_back(1.0);
    us.push_back(1.0);
    std::vector<double> xs{0.0}, vs{0.0};
    for (int i = 0; i < n; ++i) {
        xs.push_back(g.centre(0, i));
        vs.push_back(s.faceVelocity(1, i, g.cells(1) / 2, 0));
    }
    xs.push_back(1.0);
    vs.push_back(0.0);
    Profiles p;
    for (std::size_t k = 0; k < kGhiaY.size(); ++k)
        p.maxDeviationU = std::max(p.maxDeviationU, std::abs(interpolate(ys, us, kGhiaY[k]) - ghiaU[k]));
    for (std::size_t k = 0; k < kGhiaX.size(); ++k)
        p.maxDeviationV = std::max(p.maxDeviationV, std::abs(interpolate(xs, vs, kGhiaX[k]) - ghiaV[k]));
    return p;
}

/// de Vahl Davis (1983) square cavity in non-dimensional units: side 1, ΔT = 1 (left hot at +0.5,
/// right cold at −0.5), gβΔT = 1, ν = √(Pr/Ra), α = 1/√(Ra·Pr); gravity along −y.
FieldSolver heatedCavity(int n, double ra, double ratio)
{
    const double pr = 0.71;
    const auto axis = FieldGrid::clustered(0.0, 1.0, n, ratio);
    FluidProperties fluid;
    fluid.density = 1.0;
    fluid.specificHeat = 1.0;
    fluid.viscosity = std::sqrt(pr / ra);
    fluid.conductivity = 1.0 / std::sqrt(ra * pr);
    fluid.expansion = 1.0;
    fluid.referenceTemperature = 0.0;
    fluid.gravity = {0, -1.0, 0};
    FieldSolver solver(FieldGrid({axis, axis, {0.0, 1.0}}), fluid);
    solver.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Wall, {}, 0.5});
    solver.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Wall, {}, -0.5});
    solver.setInitialTemperature(0.0);
    return solver;
}

} // namespace

TEST_CASE("lid-driven cavity, Re 100: centre-line velocities within 0.01 of Ghia, Ghia & Shin (1982)",
          "[thermal][field][validation]")
{
    FieldSolver s = lidCavity(40, 100.0, 1.05);
    FieldSettings settings;
    settings.solveEnergy = false;
    const FieldResult r = s.solve(settings);
    CHECK(r.converged);
    const Profiles p = compareWithGhia(s, kGhiaU100, kGhiaV100);
    INFO("iterations " << r.iterations << ", max |u - Ghia| " << p.maxDeviationU << ", max |v - Ghia| "
                       << p.maxDeviationV);
    CHECK(p.maxDeviationU < 0.01); // measured 0.005 (40 × 40, clustered)
    CHECK(p.maxDeviationV < 0.01); // measured 0.008
}

TEST_CASE("lid-driven cavity, Re 1000: centre-line velocities within 0.02 of Ghia, Ghia & Shin (1982) (validation)",
          "[thermal][field][validation]")
{
    FieldSolver s = lidCavity(64, 1000.0, 1.04);
    FieldSettings settings;
    settings.solveEnergy = false;
    settings.maxIterations = 6000;
    settings.tolerance = 1e-5;
    const FieldResult r = s.solve(settings);
    CHECK(r.converged);
    const Profiles p = compareWithGhia(s, kGhiaU1000, kGhiaV1000);
    INFO("iterations " << r.iterations << ", max |u - Ghia| " << p.maxDeviationU << ", max |v - Ghia| "
                       << p.maxDeviationV);
    CHECK(p.maxDeviationU < 0.02); // measured 0.004 (64 × 64, clustered)
    CHECK(p.maxDeviationV < 0.02); // measured 0.014
}

TEST_CASE("differentially heated cavity: mean Nusselt numbers within 1 % of de Vahl Davis (1983) (validation)",
          "[thermal][field][validation]")
{
    // de Vahl Davis (1983), Int. J. Numer. Meth. Fluids 3, 249–264, benchmark solution, Pr 0.71.
    const auto [ra, nusselt] = GENERATE(table<double, double>({{1e3, 1.118}, {1e4, 2.243}, {1e5, 4.519}}));
    FieldSolver s = heatedCavity(ra < 1e5 ? 40 : 60, ra, 1.06);
    FieldSettings settings;
    settings.maxIterations = 5000;
    const FieldResult r = s.solve(settings);
    CHECK(r.converged);
    // Unit depth and ΔT: the mean Nusselt number is the wall heat over k·ΔT.
    const double k = s.fluid().conductivity;
    const double hot = s.wallHeat(Side::XMin) / k, cold = -s.wallHeat(Side::XMax) / k;
    INFO("Ra " << ra << ": iterations " << r.iterations << ", Nu hot wall " << hot << ", cold wall " << cold);
    // Measured: 1.1181, 2.2494, 4.5292 (deviations 0.01 %, 0.3 %, 0.2 %).
    CHECK(hot == Approx(nusselt).epsilon(0.01));
    CHECK(cold == Approx(nusselt).epsilon(0.01));
    // What enters through the hot wall leaves through the cold one (the others are adiabatic).
    CHECK(std::abs(hot - cold) < 1e-4 * hot);
}

TEST_CASE("laminar channel: the developed profile is Poiseuille's", "[thermal][field][validation]")
{
    // Plates 0.1 m apart, 1.5 m long, uniform inflow 0.1 m/s of a fluid with ν = 1e-3 m²/s
    // (Re_h = 10, entrance length ≈ 0.05·Re·h = 0.05 m). Developed: u = 6 U y(h − y)/h².
    const double h = 0.1, length = 1.5, inflow = 0.1;
    FluidProperties fluid;
    fluid.density = 1.0;
    fluid.viscosity = 1e-3;
    fluid.gravity = {0, 0, 0};
    FieldSolver s(FieldGrid::uniform(length, h, 0.1, 60, 20, 1), fluid);
    s.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Inlet, {inflow, 0, 0}, {}});
    s.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
    FieldSettings settings;
    settings.solveEnergy = false;
    const FieldResult r = s.solve(settings);
    CHECK(r.converged);
    const int i = 48; // x ≈ 1.2 m
    double worst = 0;
    for (int j = 0; j < 20; ++j) {
        const double y = s.grid().centre(1, j);
        const double exact = 6.0 * inflow * y * (h - y) / (h * h);
        worst = std::max(worst, std::abs(s.velocity(i, j, 0)[0] - exact));
    }
    INFO("iterations " << r.iterations << ", max |u - Poiseuille| " << worst << " m/s");
    CHECK(worst < 0.005 * 1.5 * inflow);
    // The developed pressure gradient is −12 μ U / h².
    const double dpdx =
        (s.pressure(50, 10, 0) - s.pressure(40, 10, 0)) / (s.grid().centre(0, 50) - s.grid().centre(0, 40));
    CHECK(dpdx == Approx(-12.0 * fluid.viscosity * inflow / (h * h)).epsilon(0.01));
    // Mass leaves as it enters.
    CHECK(s.massOutflow(Side::XMax) == Approx(-s.massOutflow(Side::XMin)).epsilon(1e-12));
}

TEST_CASE("ventilated room with a heat source: heat released leaves as enthalpy (1e-6 relative)",
          "[thermal][field][validation]")
{
    // A 4 m × 3 m room section (air, 1 m deep), supply low on the left at 18 °C, return high on the
    // right, and 480 W released in a block of cells: forced and buoyant flow together.
    FluidProperties air;
    air.referenceTemperature = 18.0;
    FieldSolver s(FieldGrid::uniform(4.0, 1.0, 3.0, 32, 1, 24), air);
    s.setBoundaryPatch(Side::XMin, {-1, 0.0}, {2, 0.5}, BoundaryCondition{BoundaryKind::Inlet, {0.5, 0, 0}, 18.0});
    s.setBoundaryPatch(Side::XMax, {-1, 2.5}, {2, 3.0}, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
    s.setBoundary(Side::YMin, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
    s.setBoundary(Side::YMax, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
    for (int i = 14; i < 18; ++i)
        for (int k = 2; k < 6; ++k)
            s.addHeat(i, 0, k, 30.0);
    FieldSettings settings;
    settings.turbulence = TurbulenceModel::ZeroEquation;
    settings.tolerance = 1e-7;
    settings.maxIterations = 5000;
    const FieldResult r = s.solve(settings);
    CHECK(r.converged);
    double out = 0, mass = 0;
    for (Side side : {Side::XMin, Side::XMax, Side::YMin, Side::YMax, Side::ZMin, Side::ZMax}) {
        out += s.enthalpyOutflow(side) - s.wallHeat(side);
        mass += s.massOutflow(side);
    }
    INFO("iterations " << r.iterations << ", released " << s.heatReleased() << " W, leaving " << out << " W");
    CHECK(s.heatReleased() == Approx(480.0));
    CHECK(std::abs(out - s.heatReleased()) < 1e-6 * s.heatReleased());
    CHECK(std::abs(mass) < 1e-12);
    // The hottest air is in the source block, and nowhere is colder than the supply.
    int hotI = 0, hotK = 0;
    double coldest = 1e9;
    for (int i = 0; i < 32; ++i)
        for (int k = 0; k < 24; ++k) {
            if (s.temperature(i, 0, k) > s.temperature(hotI, 0, hotK)) {
                hotI = i;
                hotK = k;
            }
            coldest = std::min(coldest, s.temperature(i, 0, k));
        }
    INFO("hottest cell (" << hotI << ", " << hotK << ") at " << s.temperature(hotI, 0, hotK) << " degC");
    CHECK((hotI >= 14 && hotI < 18 && hotK >= 2 && hotK < 6));
    CHECK(coldest >= 18.0 - 1e-9);
}

TEST_CASE("the pressure solvers agree: multigrid CG, Eigen CG, Eigen IC-CG", "[thermal][field]")
{
    std::vector<std::vector<double>> profiles;
    for (PressureSolver ps : {PressureSolver::MultigridCG, PressureSolver::EigenCG, PressureSolver::EigenICCG}) {
        FieldSolver s = lidCavity(20, 100.0, 1.0);
        FieldSettings settings;
        settings.solveEnergy = false;
        settings.pressureSolver = ps;
        CHECK(s.solve(settings).converged);
        std::vector<double> u;
        for (int j = 0; j < 20; ++j)
            u.push_back(s.faceVelocity(0, 10, j, 0));
        profiles.push_back(u);
    }
    for (std::size_t k = 1; k < profiles.size(); ++k)
        for (std::size_t j = 0; j < profiles[0].size(); ++j)
            CHECK(std::abs(profiles[k][j] - profiles[0][j]) < 1e-4);
}

TEST_CASE("inflow without an outlet is refused", "[thermal][field]")
{
    FieldSolver s(FieldGrid::uniform(1, 1, 1, 4, 4, 1));
    s.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Inlet, {0.5, 0, 0}, 20.0});
    CHECK_THROWS_WITH(s.solve(FieldSettings{}), Catch::Contains("no outlet"));
}

TEST_CASE("flow around a solid obstacle in a channel conserves mass", "[thermal][field]")
{
    FluidProperties fluid;
    fluid.density = 1.0;
    fluid.viscosity = 1e-3;
    fluid.gravity = {0, 0, 0};
    FieldSolver s(FieldGrid::uniform(1.5, 0.1, 0.1, 60, 20, 1), fluid);
    s.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Inlet, {0.1, 0, 0}, {}});
    s.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
    s.addSolid({0.5, 0.0, -1}, {0.6, 0.05, 2}); // blocks the lower half
    FieldSettings settings;
    settings.solveEnergy = false;
    CHECK(s.solve(settings).converged);
    CHECK(s.massOutflow(Side::XMax) == Approx(-s.massOutflow(Side::XMin)).epsilon(1e-12));
    // Above the block the air speeds up to carry the whole flow through half the height.
    double above = 0;
    for (int j = 10; j < 20; ++j)
        above += s.faceVelocity(0, 22, j, 0) * 0.005;
    CHECK(above == Approx(0.1 * 0.1).epsilon(1e-6));
    for (int j = 0; j < 10; ++j)
        CHECK(s.faceVelocity(0, 22, j, 0) == 0.0);
}

TEST_CASE("non-convergence is an error carrying the residual history", "[thermal][field]")
{
    FieldSolver s = lidCavity(16, 100.0, 1.0);
    FieldSettings settings;
    settings.solveEnergy = false;
    settings.maxIterations = 5;
    try {
        s.solve(settings);
        FAIL("a 5-iteration solve converged");
    } catch (const FieldConvergenceError& e) {
        CHECK(e.history().size() == 5);
        CHECK(std::string(e.what()).find("did not converge in 5 iterations") != std::string::npos);
    }
    // Cancel from the progress callback.
    FieldSolver t = lidCavity(16, 100.0, 1.0);
    settings.maxIterations = 100;
    int seen = 0;
    CHECK_THROWS_WITH(t.solve(settings,
                              [&](const ResidualRecord& rec) {
                                  seen = rec.iteration;
                                  return rec.iteration < 3;
                              }),
                      Catch::Contains("cancelled at iteration 3"));
    CHECK(seen == 3);
    // Invalid settings and heat are refused.
    settings.velocityRelaxation = 0;
    CHECK_THROWS_AS(t.solve(settings), std::invalid_argument);
    CHECK_THROWS_AS(t.addHeat(0, 0, 0, -1.0), std::invalid_argument);
    CHECK_THROWS_AS(t.addHeat(0, 0, 0, std::nan("")), std::invalid_argument);
}

TEST_CASE("a solver starts from a coarser grid's solution (grid sequencing)", "[thermal][field]")
{
    FluidProperties air;
    air.gravity = {0, 0, 0};
    air.referenceTemperature = 20.0;
    FieldSettings settings;
    settings.tolerance = 1e-9;
    SECTION("plug flow: every face of the finer grid carries the coarse grid's velocity")
    {
        // A 1 m slip channel with uniform inflow: u = 0.3 m/s everywhere on any grid (one cell
        // across: no cross-stream velocity to converge, whose residual would be relative to zero).
        const auto build = [&](int n) {
            FieldSolver s(FieldGrid::uniform(1.0, 0.2, 0.2, n, 1, 1), air);
            s.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Inlet, {0.3, 0, 0}, 20.0});
            s.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
            for (Side side : {Side::YMin, Side::YMax, Side::ZMin, Side::ZMax})
                s.setBoundary(side, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
            return s;
        };
        FieldSolver coarse = build(8);
        REQUIRE(coarse.solve(settings).converged);
        FieldSolver fine = build(16);
        fine.startFrom(coarse);
        const FieldGrid& g = fine.grid();
        double worst = 0, across = 0;
        for (int k = 0; k < g.cells(2); ++k)
            for (int j = 0; j < g.cells(1); ++j)
                for (int i = 0; i <= g.cells(0); ++i) {
                    worst = std::max(worst, std::abs(fine.faceVelocity(0, i, j, k) - 0.3));
                    if (i < g.cells(0))
                        across = std::max(
                            {across, std::abs(fine.faceVelocity(1, i, j, k)), std::abs(fine.faceVelocity(2, i, j, k))});
                }
        CHECK(worst < 1e-9);
        CHECK(across < 1e-9);
        // Started at the answer, the fine solve converges at once; from rest it takes longer.
        const int started = fine.solve(settings).iterations;
        FieldSolver cold = build(16);
        const int fromRest = cold.solve(settings).iterations;
        INFO("iterations from the coarse solution " << started << ", from rest " << fromRest);
        CHECK(started <= 3);
        CHECK(fromRest > 3 * started);
    }
    SECTION("conduction: a linear temperature profile is reproduced between the coarse centres")
    {
        // Still air between walls at 20 and 30 degC, 1 m apart: T = 20 + 10 x degC (the coarse
        // solution is linear to its tolerance, 1e-9 relative); beyond the outermost coarse centres
        // the fine cells take the end values (no extrapolation).
        const auto build = [&](int n) {
            FieldSolver s(FieldGrid::uniform(1.0, 0.2, 0.2, n, 2, 2), air);
            s.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Wall, {}, 20.0});
            s.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Wall, {}, 30.0});
            return s;
        };
        FieldSolver coarse = build(10);
        REQUIRE(coarse.solve(settings).converged);
        FieldSolver fine = build(40);
        fine.startFrom(coarse);
        const FieldGrid& g = fine.grid();
        for (int i = 0; i < g.cells(0); ++i) {
            const double x = g.centre(0, i);
            const double expected = x < 0.05   ? coarse.temperature(0, 0, 0)
                                    : x > 0.95 ? coarse.temperature(9, 0, 0)
                                               : 20.0 + 10.0 * x;
            INFO("x = " << x << " m");
            CHECK(fine.temperature(i, 1, 1) == Approx(expected).margin(1e-6));
        }
    }
    SECTION("a solid's faces carry no flow, and another domain is refused")
    {
        FieldSolver coarse(FieldGrid::uniform(1.0, 0.2, 0.2, 8, 1, 1), air);
        coarse.setBoundary(Side::XMin, BoundaryCondition{BoundaryKind::Inlet, {0.3, 0, 0}, 20.0});
        coarse.setBoundary(Side::XMax, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
        for (Side side : {Side::YMin, Side::YMax})
            coarse.setBoundary(side, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
        REQUIRE(coarse.solve(settings).converged);
        FieldSolver fine(FieldGrid::uniform(1.0, 0.2, 0.2, 16, 4, 4), air);
        fine.addSolid({0.5, 0.0, 0.0}, {0.625, 0.2, 0.2}); // cells 8 and 9 along x, all across
        fine.startFrom(coarse);
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) {
                CHECK(fine.faceVelocity(0, 8, j, k) == 0.0);
                CHECK(fine.faceVelocity(0, 10, j, k) == 0.0);
                CHECK(fine.faceVelocity(0, 7, j, k) != 0.0);
            }
        FieldSolver other(FieldGrid::uniform(2.0, 0.2, 0.2, 16, 4, 4), air);
        CHECK_THROWS_AS(other.startFrom(coarse), std::invalid_argument);
    }
}
