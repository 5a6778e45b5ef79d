// Benchmark: the room field model on whole designs, with the targets beside the figures:
//   (1) the row pair (data/designs/row-pair.yaml, 32 racks) on a 0.12 m grid (211,420 cells; the
//       argument sets another, 0 skips it) — target 10 s on 2 cores (docs/thermal.md);
//   (2) one 192-rack pod of the 24,576-GPU example (data/designs/meta-24k-roce.yaml at its
//       room.grid default, 0.3 m; the other seven pods share the solution) — target 120 s;
//   (3) the row pair at its shipped 0.3 m grid with the multigrid-CG pressure solver against
//       Eigen's plain conjugate gradients (the baseline) in the same run;
//   (4) the same row pair with the k-epsilon closure (room.turbulence: k-epsilon) against the
//       zero-equation default of (3), in the same run;
//   (5) the same row pair against OpenFOAM on the same cells (issue 36: rdt at its defaults ≥ 10×
//       faster): rdt's default solve, then the case `rdt field --openfoam DIR --ranks 2` writes,
//       run by its Allrun on 2 MPI ranks to its residual targets (checkMesh, decomposePar and
//       reconstructPar included; the solver's own ClockTime beside). Skipped without OpenFOAM.
// Each line: cells, field iterations, network couplings, wall time, the case's peak resident
// memory (and the process's before it), ratio to target. Exit 1 when a target is missed or a
// solve does not converge.
//   bench_room [row-pair grid in m, default 0.12; 0: skip]
#include <sys/resource.h>

#include "BenchUtil.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/Pipeline.h"
#include "room/OpenFoamExport.h"
#include "room/RoomThermal.h"

using namespace rdt;

namespace {

struct Figures {
    std::size_t cells = 0;
    int iterations = 0, couplings = 0;
    double seconds = 0, hottestC = 0, peakMb = 0, baselineMb = 0;
};

bool g_missed = false; // a target missed: the exit status says so

/// The solve's own progress lines on stderr, one every 100 iterations (long runs show life).
struct Lines : core::Progress {
    void update(double, std::string_view m) override
    {
        if (m.find("iteration") != std::string_view::npos && ++m_n % 10 == 0)
            std::fprintf(stderr, "  %.*s\n", static_cast<int>(m.size()), m.data());
    }
    int m_n = 0;
};

Figures solve(const core::Design& d, room::PressureSolver pressure)
{
    const CasePeak memory;
    const auto t0 = std::chrono::steady_clock::now();
    Lines lines;
    const thermal::ThermalResult t = room::computeThermalField(d, {}, &lines, pressure);
    Figures f;
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    f.peakMb = memory.peakMb();
    f.baselineMb = memory.baselineMb();
    for (const room::RoomField& r : room::fieldOf(t)->rooms) {
        f.cells += r.geometry.cellCount();
        f.iterations += r.iterations;
        f.couplings += r.couplings;
    }
    f.hottestC = -1e300;
    for (const thermal::RackThermal& r : t.racks)
        f.hottestC = std::max(f.hottestC, r.fieldIntakeMaxK - 273.15);
    return f;
}

void print(const char* what, const Figures& f, double target)
{
    std::printf("%-44s %9zu cells %6d it %4d cpl %8.1f s  %6.0f MB peak (%.0f MB before)  hottest intake %.1f degC",
                what, f.cells, f.iterations, f.couplings, f.seconds, f.peakMb, f.baselineMb, f.hottestC);
    if (target > 0) {
        std::printf("  %.2fx target (%.0f s)%s", f.seconds / target, target, f.seconds > target ? "  MISSED" : "");
        g_missed = g_missed || f.seconds > target;
    }
    std::printf("\n");
}

/// (5): rdt's default solve of `d` against OpenFOAM on the same cells, 2 MPI ranks.
void againstOpenFoam(const core::Design& d, double rdtSeconds)
{
    if (std::system("command -v buoyantBoussinesqSimpleFoam >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1") !=
        0) {
        std::printf("against OpenFOAM: skipped (Debian's openfoam and openmpi-bin are not installed)\n");
        return;
    }
    namespace fs = std::filesystem;
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomField& r = room::fieldOf(t)->rooms.front();
    const fs::path dir = fs::temp_directory_path() / ("rdt-bench-openfoam-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    room::OpenFoamOptions o;
    o.ranks = 2;
    o.iterations = 5000;
    const std::size_t cells = room::exportOpenFoam(r.geometry, *r.solver, dir.string(), o);
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = std::system(("sh '" + (dir / "Allrun").string() + "' > '" + (dir / "allrun.out").string() + "' 2>&1").c_str());
    const double foamSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ifstream log(dir / "log.buoyantBoussinesqSimpleFoam");
    std::string line, clock = "?";
    int iterations = 0;
    bool converged = false;
    while (std::getline(log, line)) {
        if (line.rfind("Time = ", 0) == 0)
            ++iterations;
        if (line.find("ClockTime = ") != std::string::npos)
            clock = line.substr(line.find("ClockTime = ") + 12);
        converged = converged || line.find("SIMPLE solution converged") != std::string::npos;
    }
    if (rc != 0) {
        std::printf("against OpenFOAM: its Allrun failed (see %s)\n", dir.string().c_str());
        g_missed = true;
        return;
    }
    std::printf("%-44s %9zu cells %6d it %s  %8.1f s wall (solver %s)\n", "OpenFOAM v1912, 2 MPI ranks, k-epsilon", cells,
                iterations, converged ? "converged" : "NOT converged", foamSeconds, clock.c_str());
    const double ratio = foamSeconds / rdtSeconds;
    std::printf("rdt at its defaults is %.1fx faster than OpenFOAM on the same cells (target >= 10x)%s\n", ratio,
                ratio < 10 ? "  MISSED" : "");
    g_missed = g_missed || ratio < 10 || !converged;
    fs::remove_all(dir);
}

} // namespace

int main(int argc, char** argv)
{
    const double grid = argc > 1 ? std::atof(argv[1]) : 0.12;
    if (argc > 1 && grid != 0.0 && !(grid >= 0.05 && grid <= 1.0)) {
        std::fprintf(stderr, "bench_room: grid must lie in 0.05…1 m (0: skip the fine row pair)\n");
        return 2;
    }
    const std::string data = analysis::dataDir();
    try {
        if (grid > 0) {
            core::Design pair = core::loadDesign(data + "/designs/row-pair.yaml", data + "/catalog");
            pair.room.cellM = grid;
            char label[64];
            std::snprintf(label, sizeof label, "row pair, 32 racks, %.2f m grid", grid);
            const auto t0 = std::chrono::steady_clock::now();
            try {
                print(label, solve(pair, room::PressureSolver::MultigridCG), 10.0);
            } catch (const room::FieldConvergenceError& e) {
                std::printf("%-44s did not converge: %zu iterations, %.0f s (%s)\n", label, e.history().size(),
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), e.what());
                g_missed = true;
            }
        }

        core::Design pod = core::loadDesign(data + "/designs/meta-24k-roce.yaml", data + "/catalog");
        pod.thermalModel = core::ThermalModel::Field;
        print("24k example: 8 pods of 192 racks (1 solved)", solve(pod, room::PressureSolver::MultigridCG), 120.0);

        core::Design coarse = core::loadDesign(data + "/designs/row-pair.yaml", data + "/catalog");
        const Figures mg = solve(coarse, room::PressureSolver::MultigridCG);
        const Figures cg = solve(coarse, room::PressureSolver::EigenCG);
        print("row pair 0.3 m, multigrid CG", mg, 0);
        print("row pair 0.3 m, Eigen CG (baseline)", cg, 0);
        std::printf("pressure solver: multigrid CG %.2fx faster than Eigen CG on the whole coupled solve\n",
                    cg.seconds / mg.seconds);
        coarse.room.turbulence = core::RoomTurbulence::KEpsilon;
        const Figures ke = solve(coarse, room::PressureSolver::MultigridCG);
        print("row pair 0.3 m, k-epsilon", ke, 0);
        std::printf("turbulence: k-epsilon takes %.2fx the zero-equation model's time\n", ke.seconds / mg.seconds);
        coarse.room.turbulence = core::RoomTurbulence::ZeroEquation; // the default, as (3)
        againstOpenFoam(coarse, mg.seconds);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_room: %s\n", e.what());
        return 1;
    }
    return g_missed ? 1 : 0;
}
