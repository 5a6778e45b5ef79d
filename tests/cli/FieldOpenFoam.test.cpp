// `rdt field --from-openfoam DIR [--h5 FILE]`: an exported case read back from the command line.
// The comparison's figures are tested in tests/room/OpenFoam.test.cpp on a run case; here the
// command's wiring and its located errors, without OpenFOAM.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/RunRdt.h"

using namespace rdt::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

/// OpenFOAM's outputs as a run leaves them, for every zone of the case in `dir`: two samples, the
/// last `kelvin(rack, patch, rdt's intake K)` and the first `riseK` below it, and a converged log on
/// 2 ranks. Returns the racks.
int writeRun(const fs::path& dir, const std::function<double(const std::string&, const std::string&, double)>& kelvin,
             double riseK = 0)
{
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
            const double k = kelvin(name, patch, rdtK);
            std::ofstream(dir / "postProcessing" / patch / "0" / "surfaceFieldValue.dat")
                << "# Time areaAverage(T)\n50 " << k - riseK << "\n100 " << k << "\n";
        }
    }
    std::ofstream(dir / "log.buoyantBoussinesqSimpleFoam") << "nProcs : 2\nTime = 1\n\nSIMPLE solution converged\n";
    return racks;
}

} // namespace

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
    // A run's samples (K) for every zone — 0.5 K, then 1 K above rdt's — and its log.
    REQUIRE(writeRun(
                dir, [](const std::string&, const std::string&, double rdtK) { return rdtK + 1.0; }, 0.5) == 6);
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

TEST_CASE("rdt check --intakes-from: OpenFOAM's air at each chassis is what the rules judge, in every output "
          "(field run)",
          "[cli][field][openfoam]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-cli-intakes-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const std::string design = "tests/fixtures/room/row-pair-6.yaml";
    const fs::path run = dir / "case";
    REQUIRE(runRdt("field " + design + " --openfoam " + run.string() + " --iterations 10").code == 1);
    // OpenFOAM's air: every zone as rdt has it, but the top zone (z4, the upper chassis' layer)
    // in front of rack_2 (h/p/a/r2) at 40 degC, over the A2 allowable 35 degC.
    REQUIRE(writeRun(run, [](const std::string& rack, const std::string& patch, double rdtK) {
                return rack == "rack_2" && patch == "rack_2_z4_intake" ? 273.15 + 40.0 : rdtK;
            }) == 6);
    const auto inletErrors = [](const std::string& out) {
        std::set<std::string> subjects;
        const nlohmann::json j = nlohmann::json::parse(out);
        for (const auto& v : j["violations"])
            if (v["rule"] == "thermal.inlet.chassis")
                subjects.insert(v["subject"].get<std::string>());
        return subjects;
    };
    Run own = runRdt("check " + design + " --json", false);
    REQUIRE(own.code == 1);
    CHECK(inletErrors(own.out).empty()); // rdt's own field: every chassis within the class
    Run r = runRdt("check " + design + " --intakes-from " + run.string() + " --json", false);
    REQUIRE(r.code == 1);
    // The rule fires at that chassis alone — not its rack's lower chassis, not the rack's mean.
    CHECK(inletErrors(r.out) == std::set<std::string>{"h/p/a/r2/gt1"});
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK_THAT(j["thermal"]["intakes_from"].get<std::string>(), Contains("OpenFOAM case " + run.string()));
    // Every chassis over the limit has its violation (the audit), and the lower one sits below it.
    for (const auto& c : j["thermal"]["chassis"]) {
        INFO(c["id"]);
        const bool over = c["inlet_C"].get<double>() > 35.0;
        CHECK(over == (c["id"] == "h/p/a/r2/gt1"));
    }
    r = runRdt("check " + design + " --intakes-from " + run.string());
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("rack intakes from OpenFOAM case " + run.string()) &&
                          Contains("h/p/a/r2/gt1: chassis inlet 40.") && Contains("(OpenFOAM's air at its own intake"));
    // The design can name its case (relative to its folder): the same verdict.
    {
        std::ifstream in(RDT_SOURCE_DIR "/" + design);
        std::stringstream text;
        text << in.rdbuf();
        std::string yaml = text.str();
        const std::string from = "thermal: {model: field}";
        REQUIRE(yaml.find(from) != std::string::npos);
        yaml.replace(yaml.find(from), from.size(), "thermal: {model: field, intakes_from: case}");
        std::ofstream(dir / "design.yaml") << yaml;
    }
    r = runRdt("check " + (dir / "design.yaml").string() + " --json", false);
    REQUIRE(r.code == 1);
    CHECK(inletErrors(r.out) == std::set<std::string>{"h/p/a/r2/gt1"});
    // ... and `--thermal network` over it is the network's own air, said so.
    r = runRdt("check " + (dir / "design.yaml").string() + " --thermal network --json", false);
    REQUIRE(r.code == 1);
    CHECK(nlohmann::json::parse(r.out)["thermal"]["intakes_from"] == "the model's own solve");
    // A what-if changes the air the case was solved for: refused, never OpenFOAM's air for another room.
    r = runRdt("check " + design + " --intakes-from " + run.string() + " --inlet 27degC");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("--intakes-from") && Contains("export and run it again"));
    r = runRdt("check " + design + " --intakes-from " + run.string() + " --thermal network");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("--intakes-from") && Contains("--thermal field"));
    // A case whose racks are swapped, or whose rack lost a zone: exported from another design.
    {
        std::ifstream in(run / "rdt-racks.txt");
        std::stringstream text;
        text << in.rdbuf();
        const std::string racks = text.str();
        std::string swapped = racks;
        const auto a = swapped.find("h/p/a/r1"), b = swapped.find("h/p/a/r2");
        REQUIRE((a != std::string::npos && b != std::string::npos));
        swapped.replace(b, 8, "h/p/a/r1").replace(a, 8, "h/p/a/r2");
        std::ofstream(run / "rdt-racks.txt") << swapped;
        r = runRdt("check " + design + " --intakes-from " + run.string());
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("rdt-racks.txt") && Contains("another design"));
        std::ofstream(run / "rdt-racks.txt") << racks;
        std::ifstream cin(run / "rdt-compare.txt");
        std::stringstream ctext;
        ctext << cin.rdbuf();
        const std::string compare = ctext.str();
        std::string fewer = compare;
        const auto z4 = fewer.find(" rack_1_z4_intake");
        REQUIRE(z4 != std::string::npos);
        fewer.erase(z4, fewer.find('\n', z4) - z4);
        std::ofstream(run / "rdt-compare.txt") << fewer;
        r = runRdt("check " + design + " --intakes-from " + run.string());
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("rack_1 has 3 zones in the case, 4 in"));
        std::ofstream(run / "rdt-compare.txt") << compare;
    }
    // Another design's case, a case not run, and rdt field (which compares its own solve).
    r = runRdt("check data/designs/row-pair.yaml --intakes-from " + run.string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rdt-racks.txt") && Contains("another design"));
    r = runRdt("check " + design + " --intakes-from " + (dir / "nothing-here").string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rdt-racks.txt") && Contains("not a case rdt exported"));
    r = runRdt("field " + design + " --intakes-from " + run.string());
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("--from-openfoam"));
    fs::remove_all(dir);
}

TEST_CASE("thermal.field.validated: a room of a class where the field was optimistic against OpenFOAM is flagged "
          "until OpenFOAM's air judges it (field run)",
          "[cli][field][openfoam][rules]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-cli-validated-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string base;
    {
        std::ifstream in(RDT_SOURCE_DIR "/tests/fixtures/room/overhead-12.yaml");
        std::stringstream text;
        text << in.rdbuf();
        base = text.str();
    }
    // The fixture's room (overhead supply, no containment) with one setting changed.
    const auto variant = [&](const std::string& from, const std::string& to, const std::string& name) {
        std::string yaml = base;
        if (!from.empty()) {
            REQUIRE(yaml.find(from) != std::string::npos);
            yaml.replace(yaml.find(from), from.size(), to);
        }
        const fs::path path = dir / (name + ".yaml");
        std::ofstream(path) << yaml;
        return path.string();
    };
    const auto flagged = [](const std::string& args) {
        const Run r = runRdt("check " + args + " --json", false);
        REQUIRE((r.code == 0 || r.code == 1));
        const nlohmann::json j = nlohmann::json::parse(r.out);
        std::vector<std::string> subjects;
        for (const auto& v : j["violations"])
            if (v["rule"] == "thermal.field.validated") {
                subjects.push_back(v["subject"].get<std::string>());
                CHECK(v["severity"] == "warning");
                // The room section, or where the reference was named when it is the reference that moves.
                CHECK((v["location"]["path"] == "room" || v["location"]["path"] == "--intakes-from"));
            }
        return subjects;
    };
    const std::string open = variant("", "", "overhead-none");
    CHECK(flagged(open) == std::vector<std::string>{"room"});
    CHECK(flagged(open + " --thermal network").empty()); // the network model is not the field
    CHECK(flagged(variant("containment: none", "containment: hot-aisle", "overhead-hot")).empty());
    const std::string floor = variant("supply: overhead", "supply: raised-floor", "floor-none");
    CHECK(flagged(floor).empty()); // the default closure meets the criterion there
    CHECK(flagged(variant("supply: overhead", "supply: raised-floor\n  turbulence: k-epsilon", "floor-ke")) ==
          std::vector<std::string>{"room"});
    // A grid coarser than the validated 0.3 m, in a room class that is otherwise validated.
    {
        std::string yaml = base;
        yaml.replace(yaml.find("supply: overhead"), 16, "supply: raised-floor");
        yaml.replace(yaml.find("grid: 0.3 m"), 11, "grid: 0.4 m");
        std::ofstream(dir / "floor-coarse.yaml") << yaml;
    }
    CHECK(flagged((dir / "floor-coarse.yaml").string()) == std::vector<std::string>{"room"});
    // OpenFOAM's air (here: its samples as rdt had them) judges the room: the warning is cleared.
    const fs::path run = dir / "case";
    REQUIRE(runRdt("field " + open + " --openfoam " + run.string() + " --iterations 10").code <= 1);
    REQUIRE(writeRun(run, [](const std::string&, const std::string&, double rdtK) { return rdtK; }) == 12);
    CHECK(flagged(open + " --intakes-from " + run.string()).empty());
    // ... unless OpenFOAM's intakes still move: one zone 1 K up over the samples kept.
    std::ofstream(run / "postProcessing" / "rack_3_z2_intake" / "0" / "surfaceFieldValue.dat")
        << "# Time areaAverage(T)\n50 " << 273.15 + 24.0 << "\n100 " << 273.15 + 25.0 << "\n";
    CHECK(flagged(open + " --intakes-from " + run.string()) == std::vector<std::string>{"room"});
    fs::remove_all(dir);
}
