// The pump-fail what-if against the CDUs it runs in: failed pumps taken together, a CDU with none
// left loses its exchanger as with cdu-fail (split from Liquid.test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "analysis/Pipeline.h"
#include "core/Error.h"
#include "core/WhatIf.h"
#include "support/RunSubjects.h"
#include "support/TextEdit.h"

using namespace rdt;
using Catch::Matchers::Contains;
using test::edited;
using test::slurp;
using test::subjects;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";
const std::string kAalc = kRoot + "data/designs/meta-catalina-gb200.yaml";
const std::string kL2l = kRoot + "data/designs/meta-catalina-gb200-l2l.yaml";

analysis::RunResult run(const std::string& path, const std::string& text, int failedPumps, int failedCdus = 0)
{
    analysis::RunOptions o;
    o.designPath = path;
    o.designText = text;
    o.failedPumps = failedPumps;
    o.failedCdus = failedCdus;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

std::string fmt(double v)
{
    char b[40];
    std::snprintf(b, sizeof b, "%.9f", v);
    return b;
}

} // namespace

TEST_CASE("pump-fail: a CDU whose every pump failed loses its exchanger, as cdu-fail", "[liquid]")
{
    // The AALC example: four units of two pumps a loop.
    const std::string text = slurp(kAalc);
    const analysis::RunResult base = run(kAalc, text, 0), one = run(kAalc, text, 1), two = run(kAalc, text, 2),
                              cdu = run(kAalc, text, 0, 1);
    for (std::size_t i = 0; i < base.liquid->loops.size(); ++i) {
        const liquid::LoopLiquid &b = base.liquid->loops[i], &p1 = one.liquid->loops[i], &p2 = two.liquid->loops[i],
                                 &c1 = cdu.liquid->loops[i];
        CAPTURE(b.id);
        REQUIRE(b.pumps == 8);
        // One pump of eight: every unit still moves coolant through its exchanger.
        CHECK(p1.running == 4);
        CHECK(p1.pumpsRunning == 7);
        CHECK(p1.capacityW == Approx(b.capacityW).epsilon(1e-12));
        CHECK(p1.ratedFlowM3s == Approx(b.ratedFlowM3s).epsilon(1e-12));
        // Two: taken together they stop one unit, whose exchanger carries nothing (until 2026-12-06 the
        // pumps were pooled and the four exchangers kept: 322.0 kW, where three units give 241.5).
        CHECK(p2.running == 3);
        CHECK(p2.pumpsRunning == 6);
        CHECK(p2.capacityW == Approx(c1.capacityW).epsilon(1e-12));
        CHECK(p2.capacityW < 0.76 * b.capacityW);
        CHECK(p2.ratedFlowM3s == Approx(c1.ratedFlowM3s).epsilon(1e-12));
        CHECK_THAT(p2.scenario, Contains("2 of 8 pumps failed") && Contains("1 CDU with no pump running"));
        // The unit without pumps still draws its fans and controls: the budget keeps them.
        CHECK(p2.fanPowerW == Approx(b.fanPowerW));
    }
}

TEST_CASE("pump-fail: liquid.cdu.heat fires just over what the CDUs left with a pump can remove", "[liquid]")
{
    // The liquid-to-liquid example: two units of two pumps. Find the facility water at which one unit's
    // capacity at its rated flow equals the loop's heat (linear in the approach), then a hair either side.
    const std::string text = slurp(kL2l);
    const analysis::RunResult lost = run(kL2l, text, 0, 1);
    const liquid::LoopLiquid& lo = lost.liquid->loops.front();
    REQUIRE(lo.running == 1);
    const double perK = lo.capacityW / (lo.setpointC - lo.facilityC);
    const double atHeatC = lo.setpointC - std::max(lo.heatW, lo.basisHeatW) / perK;
    REQUIRE(atHeatC > 5.0);
    auto at = [&](double c) { return edited(text, {{"facility_water: 25 degC", "facility_water: " + fmt(c) + " degC"}}); };
    const std::string over = at(atHeatC + 1e-5), under = at(atHeatC - 1e-5);
    // Both pumps of one unit: the other unit alone carries the heat.
    CHECK(subjects(run(kL2l, over, 2), "liquid.cdu.heat") == std::vector<std::string>{lo.id});
    CHECK(subjects(run(kL2l, under, 2), "liquid.cdu.heat").empty());
    // One pump: both exchangers still work, far from the limit.
    CHECK(subjects(run(kL2l, over, 1), "liquid.cdu.heat").empty());
}

TEST_CASE("pump-fail with cdu-fail counts the pumps of the CDUs left", "[liquid]")
{
    const std::string text = slurp(kAalc);
    // Three of four units failed leave two pumps: two more failed leave none, which is refused by name.
    CHECK_THROWS_WITH(run(kAalc, text, 2, 3), Contains("liquid loop pod1-aalc has 2 pumps") &&
                                                  Contains("3 CDUs failed") && Contains("none running"));
    const analysis::RunResult r = run(kAalc, text, 1, 3);
    CHECK(r.liquid->loops.front().running == 1);
    CHECK(r.liquid->loops.front().pumpsRunning == 1);
    CHECK(core::pumpFailWhatIfError(r.design, 2, 0).empty());
}
