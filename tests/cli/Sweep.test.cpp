// rdt sweep: a design study over inlet × GPU cap × a design field, run with OpenMP and across MPI
// ranks with identical results; its HDF5 table, frontier and bad input.
#include <catch2/catch.hpp>

#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "analysis/Sweep.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const char* kSpec = R"(sweep: 1
design: SRC/data/designs/single-rack.yaml
targets: SRC/data/targets/meta-llama3.yaml
axes:
  - {axis: inlet, from: 20 degC, to: 45 degC, step: 5 K}
  - {axis: gpu_cap, values: [500 W, 700 W]}
  - {axis: field, path: site.ashrae_class, values: [A1, A2]}
)";

std::string write(const std::string& dir, const std::string& name, std::string text)
{
    for (std::size_t at; (at = text.find("SRC")) != std::string::npos;)
        text.replace(at, 3, RDT_SOURCE_DIR);
    const std::string p = dir + "/" + name;
    std::ofstream(p) << text;
    return p;
}

json variants(const std::string& out)
{
    json j = json::parse(out)["variants"];
    for (json& v : j)
        v.erase("seconds"); // wall time of the variant
    return j;
}

} // namespace

TEST_CASE("sweep: 24 variants, HDF5 table, frontier, the same verdicts as rdt check", "[cli][sweep]")
{
    test::TempDir t;
    // single-rack with gt1 uncapped: --gpu-cap and the gpu_cap axis cap at most (a GPU the design
    // caps lower keeps its cap), so the 700 W variants run every GPU at 700 W only without it.
    std::string uncapped;
    {
        std::ifstream in(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
        uncapped.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    uncapped.replace(uncapped.find(", gpu_power_cap: 600 W"), 22, "");
    const std::string design = write(t.path, "single-rack.yaml", uncapped);
    std::string specText = kSpec;
    specText.replace(specText.find("SRC/data/designs/single-rack.yaml"), 33, design);
    const std::string spec = write(t.path, "s.yaml", specText);
    const test::Run r = test::runRdt("sweep " + spec + " -o " + t.path + "/s.h5");
    INFO(r.out);
    REQUIRE(r.code == 1); // variants violate error rules: rdt check's exit 1 (it was 0)
    CHECK_THAT(r.out, Contains("24 variants") && Contains("6 pass every verdict") && Contains("0 failed to run"));
    // ASHRAE A1 allows 32 degC at the inlet, A2 35: the cap and the class move the frontier.
    CHECK_THAT(r.out,
               Contains("frontier: gpu_cap 700 W, site.ashrae_class A1: inlet up to 30 degC passes every verdict"));
    CHECK_THAT(r.out, Contains("frontier: gpu_cap 500 W, site.ashrae_class A1: no inlet in the sweep passes"));
    // The table: 24 rows with units.
    const hid_t f = H5Fopen((t.path + "/s.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const hid_t d = H5Dopen2(f, "/sweep/variants", H5P_DEFAULT);
    REQUIRE(d >= 0);
    const hid_t sp = H5Dget_space(d);
    CHECK(H5Sget_simple_extent_npoints(sp) == 24);
    CHECK(H5Aexists(d, "units") > 0);
    CHECK(H5Lexists(f, "/sweep/spec", H5P_DEFAULT) > 0);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    // Variant 14 (35 degC, 700 W, A1) gives what `rdt check` says for the same what-if.
    const json j = json::parse(test::runRdt("sweep " + spec + " --json", false).out);
    const json& v = j["variants"][14];
    CHECK(v["axes"]["inlet"] == "35 degC");
    CHECK(v["axes"]["gpu_cap"] == "700 W");
    CHECK(v["axes"]["site.ashrae_class"] == "A1");
    std::string text = uncapped;
    text.replace(text.find("ashrae_class: A2"), 16, "ashrae_class: A1");
    const std::string a1 = write(t.path, "a1.yaml", text);
    const test::Run check = test::runRdt("check " + a1 +
                                             " --inlet 35degC --gpu-cap 700W --targets " RDT_SOURCE_DIR
                                             "/data/targets/meta-llama3.yaml --json",
                                         false);
    const json c = json::parse(check.out);
    CHECK(v["errors"] == c["counts"]["errors"]);
    CHECK(v["warnings"] == c["counts"]["warnings"]);
    CHECK(v["sustained_pflops_bf16"].get<double>() == Approx(c["throughput"]["sustained_pflops_bf16"].get<double>()));
    CHECK(v["passes"] == false);
    CHECK_THAT(v["failed_rules"].get<std::string>(), Contains("thermal.ashrae.inlet"));
}

TEST_CASE("sweep on MPI ranks: identical results on 1, 2 and 4 ranks", "[cli][sweep][mpi]")
{
    test::TempDir t;
    const std::string spec = write(t.path, "s.yaml", kSpec);
    const json one = variants(test::runRdt("sweep " + spec + " --json --threads 1", false).out);
    REQUIRE(one.size() == 24);
    for (int ranks : {2, 4}) {
        const test::Run r = test::runRdt(
            "sweep " + spec + " --json", false,
            // OpenMPI's own allocations (its dlopen'ed components) outlive MPI_Finalize: LeakSanitizer
            // is off for the ranks only; the same variants run leak-checked in the other sweep tests.
            "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
            "OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -n " +
                std::to_string(ranks));
        INFO(r.out.substr(0, 2000));
        REQUIRE(r.code == 1); // as on one rank: variants violate error rules
        const json doc = json::parse(r.out);
        CHECK(doc["workers"] == ranks);
        CHECK(variants(r.out) == one);
    }
}

TEST_CASE("sweep: bad specs are located, a variant that fails is recorded and the rest run", "[cli][sweep]")
{
    test::TempDir t;
    auto run = [&](const std::string& axes) {
        return test::runRdt(
            "sweep " + write(t.path, "b.yaml", "sweep: 1\ndesign: SRC/data/designs/single-rack.yaml\naxes:\n" + axes));
    };
    const test::Run unknown = run("  - {axis: inlett, values: [25 degC]}\n");
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.out,
               Contains("b.yaml:4") && Contains("unknown axis \"inlett\"") && Contains("did you mean \"inlet\""));
    const test::Run empty = run("  - {axis: inlet, from: 30 degC, to: 20 degC, step: 5 K}\n");
    CHECK(empty.code == 2);
    CHECK_THAT(empty.out, Contains("axes[0].to") && Contains("range is empty"));
    const test::Run noField = run("  - {axis: field, path: site.humidty, values: [20 %]}\n");
    CHECK(noField.code == 2);
    CHECK_THAT(noField.out, Contains("axes[0].path") && Contains("no field \"site.humidty\""));
    const test::Run noUnit = run("  - {axis: gpu_cap, values: [600]}\n");
    CHECK(noUnit.code == 2);
    CHECK_THAT(noUnit.out, Contains("axes[0].values[0]"));
    // Two axes setting one thing are refused at the second (one overrode the other, and the table
    // labelled variants with values they did not run at).
    const test::Run twice = run("  - {axis: inlet, values: [20 degC]}\n"
                                "  - {axis: field, path: site.supply_air, values: [35 degC]}\n");
    CHECK(twice.code == 2);
    CHECK_THAT(twice.out, Contains("b.yaml:5") && Contains("this axis sets site.supply_air, as the axis at line 4"));
    const test::Run sameAxis = run("  - {axis: inlet, values: [25 degC]}\n  - {axis: inlet, values: [35 degC]}\n");
    CHECK(sameAxis.code == 2);
    CHECK_THAT(sameAxis.out, Contains("this axis sets site.supply_air"));
    const test::Run distinct = run("  - {axis: inlet, values: [25 degC]}\n  - {axis: altitude, values: [0 m]}\n");
    CHECK(distinct.code == 0);
    // A value the design loader refuses fails that variant only, with the loader's message.
    const test::Run mixed = run("  - {axis: field, path: site.ashrae_class, values: [A2, Z9]}\n");
    INFO(mixed.out);
    CHECK(mixed.code == 2); // a variant failed to run on its input (it was 0)
    CHECK_THAT(mixed.out,
               Contains("2 variants") && Contains("1 failed to run") && Contains("failed:") && Contains("Z9"));
}

TEST_CASE("sweep: a field axis's refused value names the line the user wrote", "[cli][sweep][bad-input]")
{
    // The variant's design was the document re-emitted by yaml-cpp — no comments, other lines — so a
    // refused value named line 22 (the bbu-a slot) for gt1's gpu_power_cap on line 25 (the trial's
    // file with five more comment lines: still 22). Each value now replaces its scalar in the text.
    test::TempDir t;
    const std::string spec = write(t.path, "c.yaml",
                                   "sweep: 1\ndesign: SRC/data/designs/single-rack.yaml\naxes:\n"
                                   "  - {axis: field, path: \"layout.halls[0].rows[0].racks[0].slots[5].gpu_power_cap\","
                                   " values: [650 W, 701 W]}\n");
    const test::Run r = test::runRdt("sweep " + spec);
    INFO(r.out);
    REQUIRE(r.code == 2); // the 701 W variant failed to run on its input
    CHECK_THAT(r.out, Contains("2 variants") && Contains("1 failed to run"));
    CHECK_THAT(r.out, Contains("single-rack.yaml:25:") && Contains("\"701 W\" is outside the allowed range"));
    // The 650 W variant is the design with that one figure changed: rdt check of that file agrees.
    std::string text;
    {
        std::ifstream in(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    text.replace(text.find("gpu_power_cap: 600 W"), 20, "gpu_power_cap: 650 W");
    const std::string edited = write(t.path, "single-rack.yaml", text);
    const test::Run check = test::runRdt("check " + edited + " --json", false);
    const json j = json::parse(check.out);
    const test::Run swept = test::runRdt("sweep " + spec + " --json", false);
    const json v = json::parse(swept.out)["variants"][0];
    CHECK(v["errors"] == j["counts"]["errors"]);
    CHECK(v["warnings"] == j["counts"]["warnings"]);
    CHECK(v["it_load_W"].get<double>() == Approx(j["power"]["totals"]["it_load_W"].get<double>()));
}

TEST_CASE("sweep file: counts as numbers, power in W as the report has it", "[cli][sweep]")
{
    // Issue 33 (defect 8): fan_fail was stored as text ("0", "1") and it_load / facility_ac in MW
    // while the HDF5 report's /power tables use W.
    test::TempDir t;
    const std::string spec = write(t.path, "f.yaml",
                                   "sweep: 1\ndesign: SRC/data/designs/single-rack.yaml\naxes:\n"
                                   "  - {axis: fan_fail, values: [0, 1]}\n  - {axis: feed_loss, values: [none, A]}\n");
    const test::Run r = test::runRdt("sweep " + spec + " -o " + t.path + "/f.h5");
    INFO(r.out);
    REQUIRE(r.code == 0);
    const analysis::SweepTable s = analysis::readSweep(t.path + "/f.h5");
    const int fan = s.column("fan_fail"), feed = s.column("feed_loss"), it = s.column("it_load"),
              ac = s.column("facility_ac");
    REQUIRE(fan >= 0);
    REQUIRE(it >= 0);
    REQUIRE(ac >= 0);
    CHECK(s.numeric[static_cast<std::size_t>(fan)]);
    CHECK(s.units[static_cast<std::size_t>(fan)] == "1");
    CHECK(s.numbers[static_cast<std::size_t>(fan)] == std::vector<double>{0, 0, 1, 1});
    CHECK_FALSE(s.numeric[static_cast<std::size_t>(feed)]); // words stay words
    CHECK(s.units[static_cast<std::size_t>(it)] == "W");
    CHECK(s.units[static_cast<std::size_t>(ac)] == "W");
    // Spelled as the report spells it (the sweep wrote "PFLOPS", the report "PFLOP/s": trial, 2026-12-07).
    REQUIRE(s.column("sustained_pflops_bf16") >= 0);
    CHECK(s.units[static_cast<std::size_t>(s.column("sustained_pflops_bf16"))] == "PFLOP/s");
    // Variant 0 is the design as written: its IT load is rdt check's it_load_W (21.1 kW at nameplate:
    // 2 Grand Tetons, one capped at 600 W, and a Minipack2), to the bit.
    const json c = json::parse(test::runRdt("check data/designs/single-rack.yaml --json", false).out);
    CHECK(s.numbers[static_cast<std::size_t>(it)][0] == c["power"]["totals"]["it_load_W"].get<double>());
    CHECK(s.numbers[static_cast<std::size_t>(it)][0] == Approx(21.1e3).epsilon(0.005));
}
