// A figure just over its limit is printed to the digit that tells it from the limit, and a what-if's
// label says the value as given (trust trial, 2026-12-07): a chassis failing at 35.01 degC read
// "warmest chassis inlet 35 degC", and `--inlet 34.25degC` was labelled "inlet=34.2 degC".
#include <catch2/catch.hpp>

#include "cli/TextOutput.h"
#include "tests/support/RunRdt.h"

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
