// A figure just over its limit is printed to the digit that tells it from the limit, and a what-if's
// label says the value as given (trust trial, 2026-12-07): a chassis failing at 35.01 degC read
// "warmest chassis inlet 35 degC", and `--inlet 34.25degC` was labelled "inlet=34.2 degC".
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/TextOutput.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;

TEST_CASE("the warmest chassis inlet tells itself from the allowable it is judged against", "[cli][digits]")
{
    thermal::ThermalResult t;
    t.racks.resize(1);
    t.racks[0].chassis.resize(2);
    for (thermal::ChassisThermal& c : t.racks[0].chassis) {
        c.fanSpeed = 0.8;
        c.airflowM3s = 0.1;
        c.inletK = 273.15 + 30.0;
    }
    t.racks[0].chassis[1].inletK = 273.15 + 35.01;
    const double a2 = 273.15 + 35.0;
    CHECK_THAT(cli::thermalSummaryText(t, a2), Contains("warmest chassis inlet 35.01 degC"));
    CHECK_THAT(cli::thermalSummaryText(t), Contains("warmest chassis inlet 35 degC")); // no limit: 3 figures
    t.racks[0].chassis[1].inletK = 273.15 + 34.996;
    CHECK_THAT(cli::thermalSummaryText(t, a2), Contains("warmest chassis inlet 34.996 degC"));
    t.racks[0].chassis[1].inletK = 273.15 + 31.27;
    CHECK_THAT(cli::thermalSummaryText(t, a2), Contains("warmest chassis inlet 31.3 degC")); // far: 3 figures
}

TEST_CASE("a what-if's label says its value as given", "[cli][digits]")
{
    CHECK_THAT(test::runRdt("check data/designs/single-rack.yaml --inlet 34.25degC").out,
               Contains("scenario inlet=34.25 degC"));
    CHECK_THAT(test::runRdt("check data/designs/single-rack.yaml --inlet 30degC").out,
               Contains("scenario inlet=30 degC"));
}

TEST_CASE("the hottest GPU in a rack no supply feeds says its air is judged as designed", "[cli][thermal]")
{
    // broken-rack: rack-c has no power shelf; its GPUs are counted as not running (throughput) while
    // its chassis' air is judged at their draw as designed. The hottest GPU is there: said so.
    const test::Run r = test::runRdt("check data/designs/broken-rack.yaml");
    CHECK_THAT(r.out, Contains("hottest GPU") && Contains("lab/row1/rack-c/") &&
                          Contains("its rack is not fed (orv3.power.source), its air judged at the draw as designed"));
    // A fed design says nothing of the kind.
    CHECK(test::runRdt("check data/designs/single-rack.yaml").out.find("is not fed") == std::string::npos);
}

TEST_CASE("a busbar clip just over its rating is told apart and located at its shelf", "[cli][digits][power]")
{
    // Trust trial, 2026-12-07: three Grand Tetons capped at 675.80 W load an HPR shelf's clip to
    // 700.03 A with the other feed lost; the summary read "largest clip 700 A of 700 A" and the
    // violation pointed at the rack's line, not the shelf's.
    test::TempDir t;
    const std::string path = t.path + "/clip.yaml";
    std::ofstream(path) << R"(rdt: 1
name: clip-edge
site: {supply_air: 25 degC}
layout:
  halls:
    - id: lab
      rows:
        - id: r1
          racks:
            - id: rack1
              rack_type: orv3-hpr
              slots:
                - {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A}
                - {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B}
                - {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a}
                - {ou: 4, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-b}
                - {ou: 5, part: meta-grand-teton-h100, id: gt0, gpu_power_cap: 675.80 W}
                - {ou: 13, part: meta-grand-teton-h100, id: gt1, gpu_power_cap: 675.80 W}
                - {ou: 21, part: meta-grand-teton-h100, id: gt2, gpu_power_cap: 675.80 W}
                - {ou: 29, part: meta-minipack2, id: rtsw}
)";
    const test::Run r = test::runRdt("check " + path + " --json", false);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    int clips = 0;
    for (const nlohmann::json& v : j["violations"])
        if (v["rule"] == "orv3.busbar.current" && v["subject"] != "lab/r1/rack1") {
            ++clips;
            const std::string subject = v["subject"];
            CHECK(v["measured"].get<double>() > 700.0);
            CHECK(v["measured"].get<double>() < 700.1);
            // psu-a is written on line 13, psu-b on line 14.
            CHECK(v["location"]["line"].get<int>() == (subject == "lab/r1/rack1/psu-a" ? 13 : 14));
        }
    CHECK(clips == 2);
    const test::Run text = test::runRdt("check " + path);
    CHECK_THAT(text.out, Contains("largest clip 700.03 A of 700 A (lab/r1/rack1/psu-a)"));
}

TEST_CASE("a design of switches alone shows the switch inlet its rule judges", "[cli][digits][thermal]")
{
    // A rack of switches read "thermal  0 chassis throttled": the inlet thermal.inlet.switch judges
    // was nowhere in the summary (trust trial, 2026-12-07). Told apart from the limit, as the chassis'.
    thermal::ThermalResult t;
    t.racks.resize(1);
    t.racks[0].switches.push_back({"lab/r1/k/sw1", 1, 273.15 + 35.01});
    t.racks[0].switches.push_back({"lab/r1/k/sw2", 2, 273.15 + 30.0});
    CHECK_THAT(cli::thermalSummaryText(t, 273.15 + 35.0),
               Contains("thermal  warmest switch inlet 35.01 degC, 0 chassis throttled"));
    // With chassis the line is as before (their fans, inlet and airflow).
    t.racks[0].chassis.resize(1);
    t.racks[0].chassis[0].fanSpeed = 0.8;
    t.racks[0].chassis[0].airflowM3s = 0.1;
    t.racks[0].chassis[0].inletK = 273.15 + 30.0;
    CHECK_THAT(cli::thermalSummaryText(t, 273.15 + 35.0), !Contains("switch inlet"));
}
