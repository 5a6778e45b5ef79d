// The liquid loops on the command line (issue 37): the text line, the JSON section and the HDF5
// tables give the same figures for the same loop; the what-if words pump-fail, cdu-fail and
// facility-water run as asked or are refused with the reason.
#include <catch2/catch.hpp>

#include <hdf5.h>

#include <nlohmann/json.hpp>

#include "tests/support/Hdf5Read.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("liquid: text, JSON and HDF5 report the same loops, racks and trays with units", "[cli][liquid]")
{
    const Run text = runRdt("check data/designs/meta-catalina-gb200-l2l.yaml");
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Contains("liquid   row1-cdu: 2/2 vertiv-xdu1350 (liquid-to-liquid)") &&
                             Contains("supply 30.0 degC") && Contains("L/min per kW"));
    const Run js = runRdt("check data/designs/meta-catalina-gb200-l2l.yaml --json");
    REQUIRE(js.code == 0);
    const nlohmann::json j = nlohmann::json::parse(js.out);
    const nlohmann::json& L = j["liquid"];
    REQUIRE(L["loops"].size() == 1);
    CHECK(L["coolant"] == "pg25");
    CHECK(L["racks"].size() == 8);
    CHECK(L["trays"].size() == 8 * 27);
    const double heat = L["loops"][0]["heat_W"], flow = L["loops"][0]["flow_L_min"];
    double trayHeat = 0, trayFlow = 0;
    for (const auto& t : L["trays"]) {
        trayHeat += t["heat_W"].get<double>();
        trayFlow += t["flow_L_min"].get<double>();
    }
    CHECK(trayHeat == Approx(heat).epsilon(1e-9));
    CHECK(trayFlow == Approx(flow).epsilon(1e-6)); // continuity: the trays carry the loop's flow
    // A design without liquid: says so with null.
    CHECK(nlohmann::json::parse(runRdt("check data/designs/single-rack.yaml --json").out)["liquid"].is_null());

    rdt::test::TempDir dir;
    const std::string h5 = dir.path + "/l.h5";
    REQUIRE(runRdt("report data/designs/meta-catalina-gb200-l2l.yaml -o " + h5).code == 0);
    const hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const rdt::test::TableInfo loops = rdt::test::tableInfo(f, "/liquid/loops");
    REQUIRE(loops.rows == 1);
    const auto loopHeat = rdt::test::realColumn(f, "/liquid/loops", "heat");
    CHECK(loopHeat.at(0) == Approx(heat).epsilon(1e-12));
    const rdt::test::TableInfo trays = rdt::test::tableInfo(f, "/liquid/trays");
    CHECK(trays.rows == 8 * 27);
    const auto flows = rdt::test::realColumn(f, "/liquid/trays", "flow");
    for (std::size_t i = 0; i < flows.size(); ++i)
        CHECK(flows[i] == Approx(L["trays"][i]["flow_L_min"].get<double>()).epsilon(1e-12));
    for (std::size_t i = 0; i < trays.members.size(); ++i)
        if (trays.members[i] != "id")
            CHECK_FALSE(trays.units[i].empty()); // every number with its unit
    H5Fclose(f);
}

TEST_CASE("liquid what-ifs on the command line: run as asked, or refused with the reason", "[cli][liquid][whatif]")
{
    const Run cdu = runRdt("check data/designs/meta-catalina-gb200.yaml --scenario cdu-fail=3");
    CHECK(cdu.code == 1); // the one CDU left cannot hold the setpoint: an error verdict
    CHECK_THAT(cdu.out, Contains("scenario cdu-fail=3") && Contains("[3 of 4 CDUs failed]") &&
                            Contains("liquid.cdu.heat"));
    const Run pump = runRdt("check data/designs/meta-catalina-gb200.yaml --scenario pump-fail=1");
    CHECK(pump.code == 0);
    CHECK_THAT(pump.out, Contains("[1 of 8 pumps failed]"));
    const Run warm = runRdt("check data/designs/meta-catalina-gb200-l2l.yaml --scenario facility-water=+3K");
    CHECK(warm.code == 0);
    CHECK_THAT(warm.out, Contains("scenario facility-water=+3 K") && Contains("at 28.0 degC facility water"));
    // Facility water at the 30 degC setpoint: no exchanger holds it, whatever its size.
    const Run hot = runRdt("check data/designs/meta-catalina-gb200-l2l.yaml --scenario facility-water=+5K");
    CHECK(hot.code == 1);
    CHECK_THAT(hot.out, Contains("liquid.cdu.heat") && Contains("capacity 0 W at 30 degC facility water"));
    // Refused: every pump or CDU, a design without liquid, words that are not numbers.
    const Run all = runRdt("check data/designs/meta-catalina-gb200.yaml --scenario pump-fail=8");
    CHECK(all.code == 2);
    CHECK_THAT(all.out, Contains("pump-fail=8: liquid loop pod1-aalc has 8 pumps") && Contains("none running"));
    CHECK(runRdt("check data/designs/meta-catalina-gb200.yaml --scenario cdu-fail=4").code == 2);
    const Run air = runRdt("check data/designs/single-rack.yaml --scenario cdu-fail=1");
    CHECK(air.code == 2);
    CHECK_THAT(air.out, Contains("no liquid loop: nothing to change"));
    CHECK_THAT(runRdt("check data/designs/meta-catalina-gb200.yaml --scenario pump-fail=one").out,
               Contains("\"one\" is not a whole number of failed pumps"));
    CHECK_THAT(runRdt("check data/designs/meta-catalina-gb200.yaml --scenario facility-water=5").out,
               Contains("facility-water=5"));
    CHECK(runRdt("check data/designs/meta-catalina-gb200.yaml --scenario facility-water=5").code == 2);
}
