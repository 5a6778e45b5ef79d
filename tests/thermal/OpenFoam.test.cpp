// The OpenFOAM export of the row-pair example runs with Debian 12's OpenFOAM (v1912, installed by
// scripts/test) and agrees with rdt where the physics is the same in both codes. Measured
// (docs/thermal.md): checkMesh "Mesh OK" on rdt's grid; buoyantBoussinesqSimpleFoam converges in
// about 470 iterations; the middle racks' intakes agree within 0.2 K; at the row ends OpenFOAM's
// k-epsilon air is up to 5.4 K warmer than rdt's zero-equation air (an open difference).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "support/RuleHarness.h"
#include "thermal/OpenFoamExport.h"
#include "thermal/RoomThermal.h"

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

} // namespace

TEST_CASE("OpenFOAM: the row pair's exported case runs and agrees in the rows' middle (validation)",
          "[thermal][room][openfoam]")
{
    INFO("needs Debian's openfoam package (scripts/test installs it)");
    REQUIRE(std::system("command -v buoyantBoussinesqSimpleFoam >/dev/null 2>&1 && command -v checkMesh >/dev/null") ==
            0);
    core::Design d = core::loadDesign(test::kDataDir + "/designs/row-pair.yaml", test::kDataDir + "/catalog");
    REQUIRE(d.thermalModel == core::ThermalModel::Field);
    const thermal::ThermalResult t = thermal::computeThermalField(d);
    const thermal::RoomField& room = t.field->rooms.front();
    const fs::path dir = fs::temp_directory_path() / ("rdt-openfoam-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    thermal::OpenFoamOptions o;
    o.iterations = 1500;
    o.title = "rdt test";
    const std::size_t cells = thermal::exportOpenFoam(room.geometry, *room.solver, dir.string(), o);
    // The mesh is rdt's grid without the racks' cells.
    std::size_t air = 0;
    const thermal::FieldGrid& g = room.solver->grid();
    for (int k = 0; k < g.cells(2); ++k)
        for (int j = 0; j < g.cells(1); ++j)
            for (int i = 0; i < g.cells(0); ++i)
                air += room.solver->solid(i, j, k) ? 0 : 1;
    CHECK(cells == air);

    REQUIRE(std::system(
                ("sh " + (dir / "Allrun").string() + " > " + (dir / "allrun.out").string() + " 2>&1").c_str()) == 0);
    CHECK(slurp(dir / "log.checkMesh").find("Mesh OK") != std::string::npos);
    CHECK(slurp(dir / "log.buoyantBoussinesqSimpleFoam").find("SIMPLE solution converged") != std::string::npos);

    // rack_N_intake OpenFOAM rdt difference (°C, K) per line.
    std::map<int, std::array<double, 2>> intake;
    std::istringstream lines(slurp(dir / "intake-comparison.txt"));
    std::string name;
    double of = 0, rdt = 0, diff = 0;
    while (lines >> name >> of >> rdt >> diff)
        intake[std::stoi(name.substr(5))] = {of, rdt};
    REQUIRE(intake.size() == 32);
    // Racks 5–12 of each row of 16 (boxes 5–12 and 21–28): within 0.3 K.
    for (int n : {5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23, 24, 25, 26, 27, 28}) {
        INFO("rack " << n << ": OpenFOAM " << intake[n][0] << " degC, rdt " << intake[n][1] << " degC");
        CHECK(std::abs(intake[n][0] - intake[n][1]) < 0.3);
    }
    // Both codes find the row ends the warmest.
    for (int code = 0; code < 2; ++code) {
        CHECK(intake[1][static_cast<std::size_t>(code)] > intake[8][static_cast<std::size_t>(code)] + 2.0);
        CHECK(intake[16][static_cast<std::size_t>(code)] > intake[8][static_cast<std::size_t>(code)] + 2.0);
    }
    fs::remove_all(dir);
}
