// `rdt field --from-openfoam DIR [--h5 FILE]`: an exported case read back from the command line.
// The comparison's figures are tested in tests/room/OpenFoam.test.cpp on a run case; here the
// command's wiring and its located errors, without OpenFOAM.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "support/RunRdt.h"

using namespace rdt::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("rdt field --from-openfoam: the case's racks beside rdt's, bad cases and flags are located errors",
          "[cli][field][openfoam]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-cli-openfoam-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const std::string design = "tests/fixtures/room/row-pair-6.yaml";
    // Written the way the export writes them, with OpenFOAM's outputs as a run leaves them.
    // The fixture's racks fail their battery hold-up rule: exit 1 (a design with errors) throughout.
    Run r = runRdt("field " + design + " --openfoam " + dir.string() + " --iterations 10");
    REQUIRE(r.code == 1);
    r = runRdt("field " + design + " --from-openfoam " + dir.string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("surfaceFieldValue.dat") && Contains("run the case's Allrun first"));
    // A run's samples (K) for every zone, and its log.
    std::ifstream compare(dir / "rdt-compare.txt");
    std::string line;
    int racks = 0;
    while (std::getline(compare, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        ++racks;
        std::istringstream row(line);
        std::string name, patch;
        double rdtK = 0, flow = 0;
        row >> name >> rdtK;
        while (row >> patch >> flow) {
            fs::create_directories(dir / "postProcessing" / patch / "0");
            std::ofstream(dir / "postProcessing" / patch / "0" / "surfaceFieldValue.dat")
                << "# Time areaAverage(T)\n50 " << rdtK + 0.5 << "\n100 " << rdtK + 1.0 << "\n";
        }
    }
    REQUIRE(racks == 6);
    std::ofstream(dir / "log.buoyantBoussinesqSimpleFoam") << "nProcs : 2\nTime = 1\n\nSIMPLE solution converged\n";
    const fs::path h5 = dir / "cmp.h5";
    r = runRdt("field " + design + " --from-openfoam " + dir.string() + " --h5 " + h5.string());
    CHECK(r.code == 1);
    // Every rack 1 K warmer in "OpenFOAM": rdt 1 K cooler, flagged optimistic, under the design's ids.
    CHECK_THAT(r.out, Contains("1 iterations on 2 ranks, converged") && Contains("h/p/a/r1") &&
                          Contains("h/p/b/r3") && Contains("-1.00") && Contains("rdt cooler (optimistic)") &&
                          Contains("most optimistic -1.00 K"));
    CHECK(fs::exists(h5));
    r = runRdt("field " + design + " --from-openfoam " + dir.string() + " --json");
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("\"most_optimistic_K\": -1.0") && Contains("\"openfoam_intake_C\""));
    // Another design's case: named, with the rack it does not know.
    r = runRdt("field data/designs/row-pair.yaml --from-openfoam " + dir.string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rdt-racks.txt") && Contains("h/p/a/r1") && Contains("another design"));
    r = runRdt("field " + design + " --h5 " + h5.string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("--h5") && Contains("--from-openfoam"));
    r = runRdt("field " + design + " --from-openfoam " + (dir / "nothing-here").string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rdt-racks.txt") && Contains("not a case rdt exported"));
    fs::remove_all(dir);
}
