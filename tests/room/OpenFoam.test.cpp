// The OpenFOAM export of the row-pair example runs with Debian 12's OpenFOAM (v1912, installed by
// scripts/test) and agrees with rdt where the physics is the same in both codes. Measured
// (docs/thermal.md): checkMesh "Mesh OK" on rdt's grid; buoyantBoussinesqSimpleFoam settles in
// about 1,000 iterations (its k and epsilon residuals then level off near 3e-5, above the case's
// 1e-5 targets, with every intake steady); every rack's intake agrees, the row ends included
// (within 0.92 K at the ends, 0.01 K in the middle); the eddy viscosities are reported.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "support/RuleHarness.h"
#include "room/OpenFoamExport.h"
#include "room/RoomThermal.h"

using namespace rdt;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A volScalarField's internal values (nonuniform list) from an OpenFOAM field file.
std::vector<double> internalField(const fs::path& file)
{
    const std::string text = slurp(file);
    std::size_t at = text.find("internalField");
    REQUIRE(at != std::string::npos);
    at = text.find("List<scalar>", at);
    REQUIRE(at != std::string::npos);
    std::istringstream in(text.substr(at + 12));
    std::size_t count = 0;
    char paren = 0;
    in >> count >> paren;
    std::vector<double> v(count);
    for (double& x : v)
        in >> x;
    REQUIRE(in.good());
    return v;
}

/// Mean and 90th percentile.
std::array<double, 2> spread(std::vector<double> v)
{
    double mean = 0;
    for (double x : v)
        mean += x / static_cast<double>(v.size());
    std::sort(v.begin(), v.end());
    return {mean, v[v.size() * 9 / 10]};
}

} // namespace

TEST_CASE("OpenFOAM: the row pair's exported case runs and agrees rack by rack (validation)",
          "[thermal][room][openfoam]")
{
    INFO("needs Debian's openfoam package (scripts/test installs it)");
    REQUIRE(std::system("command -v buoyantBoussinesqSimpleFoam >/dev/null 2>&1 && command -v checkMesh >/dev/null") ==
            0);
    core::Design d = core::loadDesign(test::kDataDir + "/designs/row-pair.yaml", test::kDataDir + "/catalog");
    REQUIRE(d.thermalModel == core::ThermalModel::Field);
    d.room.turbulence = core::RoomTurbulence::KEpsilon; // the exported case's closure
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomField& room = room::fieldOf(t)->rooms.front();
    const fs::path dir = fs::temp_directory_path() / ("rdt-openfoam-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    room::OpenFoamOptions o;
    o.iterations = 2000;
    o.title = "rdt test";
    const std::size_t cells = room::exportOpenFoam(room.geometry, *room.solver, dir.string(), o);
    // The mesh is rdt's grid without the racks' cells.
    std::size_t air = 0;
    const room::FieldGrid& g = room.solver->grid();
    for (int k = 0; k < g.cells(2); ++k)
        for (int j = 0; j < g.cells(1); ++j)
            for (int i = 0; i < g.cells(0); ++i)
                air += room.solver->solid(i, j, k) ? 0 : 1;
    CHECK(cells == air);

    // Run as a user would, from inside the case (`sh Allrun`: the script finds its own folder).
    REQUIRE(std::system(("cd '" + dir.string() + "' && sh Allrun > allrun.out 2>&1").c_str()) == 0);
    CHECK(slurp(dir / "log.checkMesh").find("Mesh OK") != std::string::npos);
    // Converged on the case's residual targets, or every rack's intake steady: within 0.05 K
    // over the last 500 iterations (sampled every 50).
    const bool converged =
        slurp(dir / "log.buoyantBoussinesqSimpleFoam").find("SIMPLE solution converged") != std::string::npos;
    for (int n = 1; n <= 32 && !converged; ++n) {
        std::istringstream series(
            slurp(dir / "postProcessing" / ("rack_" + std::to_string(n) + "_intake") / "0" / "surfaceFieldValue.dat"));
        std::vector<double> values;
        std::string line;
        while (std::getline(series, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            std::istringstream row(line);
            double iteration = 0, kelvin = 0;
            if (row >> iteration >> kelvin)
                values.push_back(kelvin);
        }
        REQUIRE(values.size() > 10);
        INFO("rack " << n << ": intake " << values.back() - 273.15 << " degC, 500 iterations before "
                     << values[values.size() - 11] - 273.15);
        CHECK(std::abs(values.back() - values[values.size() - 11]) < 0.05);
    }

    // rack_N_intake OpenFOAM rdt difference (°C, K) per line.
    std::map<int, std::array<double, 2>> intake;
    std::istringstream lines(slurp(dir / "intake-comparison.txt"));
    std::string name;
    double of = 0, rdt = 0, diff = 0;
    while (lines >> name >> of >> rdt >> diff)
        intake[std::stoi(name.substr(5))] = {of, rdt};
    REQUIRE(intake.size() == 32);
    // Every rack within 1 K (measured 0.79 K at the ends), the middle ones (3–14 of each row of
    // 16) within 0.1 K (measured 0.01 K).
    for (int n = 1; n <= 32; ++n) {
        INFO("rack " << n << ": OpenFOAM " << intake[n][0] << " degC, rdt " << intake[n][1] << " degC");
        const bool middle = (n - 1) % 16 >= 2 && (n - 1) % 16 <= 13;
        CHECK(std::abs(intake[n][0] - intake[n][1]) < (middle ? 0.1 : 1.0));
    }
    // Reported, not asserted: the row ends as each code has them (docs/thermal.md quotes them).
    WARN("end racks 1 / 16 / 17 / 32, OpenFOAM "
         << intake[1][0] << " / " << intake[16][0] << " / " << intake[17][0] << " / " << intake[32][0] << " degC, rdt "
         << intake[1][1] << " / " << intake[16][1] << " / " << intake[17][1] << " / " << intake[32][1]
         << " degC; second racks OpenFOAM " << intake[2][0] << ", rdt " << intake[2][1]);
    // Both codes find the row ends the warmest.
    for (int code = 0; code < 2; ++code) {
        CHECK(intake[1][static_cast<std::size_t>(code)] > intake[8][static_cast<std::size_t>(code)] + 2.0);
        CHECK(intake[16][static_cast<std::size_t>(code)] > intake[8][static_cast<std::size_t>(code)] + 2.0);
    }
    // The eddy viscosities, rdt's k-epsilon against OpenFOAM's on the same cells: reported, not
    // asserted. With the rack intakes' tangential velocity zero-gradient (2026-12-03) the intakes
    // agree as above, and rdt's eddy viscosity is 13 % above OpenFOAM's (mean; 90th percentile
    // 19 %), away from the racks and panels as beside them — an open difference (docs/thermal.md).
    // The closure itself is validated in FieldTurbulence.test.cpp (exact decay, Dean's channel).
    std::vector<double> ours;
    for (int k = 0; k < g.cells(2); ++k)
        for (int j = 0; j < g.cells(1); ++j)
            for (int i = 0; i < g.cells(0); ++i)
                if (!room.solver->solid(i, j, k))
                    ours.push_back(room.solver->eddyViscosity(i, j, k));
    fs::path last;
    double latest = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string entry = e.path().filename().string();
        char* end = nullptr;
        const double time = std::strtod(entry.c_str(), &end);
        if (e.is_directory() && end && *end == 0 && time > latest && fs::exists(e.path() / "nut")) {
            latest = time;
            last = e.path();
        }
    }
    REQUIRE(!last.empty());
    const std::vector<double> theirs = internalField(last / "nut");
    REQUIRE(theirs.size() == ours.size());
    const auto a = spread(ours), b = spread(theirs);
    WARN("eddy viscosity, rdt vs OpenFOAM: mean " << a[0] << " vs " << b[0] << " m2/s, 90th percentile " << a[1]
                                                  << " vs " << b[1]);
    fs::remove_all(dir);
}
