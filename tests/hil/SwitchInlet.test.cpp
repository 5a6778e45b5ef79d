// A switch's intake as its BMC reports it. The model judges every switch's intake
// (thermal.inlet.switch), but until 2026-12-07 `rdt hil` set a switch's inlet readings aside as
// "not checked (the model has no air path for it)": a rack switch reading 6 K over the model passed.
// Now its mean inlet meets the model's under hil.inlet.deviation, just over and under the tolerance.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/Hil.h"
#include "analysis/Pipeline.h"
#include "hil/Series.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string kRack = RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml";
const std::string kSwitch = "lab/row1/rack1/rtsw";

/// One sweep of the rack switch reading `inletC` at its intake (and `fanPct`, NaN for none).
hil::Series switchSeries(double inletC, double fanPct = NAN)
{
    hil::Series s;
    s.parts = {kSwitch};
    s.kinds = {"switch"};
    hil::Sample smp;
    smp.parts.resize(1);
    smp.parts[0].inletC = inletC;
    smp.parts[0].fanPct = fanPct;
    s.samples = {smp, smp};
    return s;
}

} // namespace

TEST_CASE("a switch's intake reading meets the model's intake under hil.inlet.deviation", "[hil][thermal]")
{
    analysis::RunOptions o;
    o.designPath = kRack;
    core::Progress quiet;
    const analysis::RunResult run = analysis::run(o, quiet);
    REQUIRE(run.thermal);
    double modelC = NAN;
    for (const thermal::RackThermal& r : run.thermal->racks)
        for (const thermal::RackThermal::SwitchInlet& sw : r.switches)
            if (sw.id == kSwitch)
                modelC = sw.inletK - 273.15;
    REQUIRE(std::isfinite(modelC));
    const auto judged = [&](double inletC, double fanPct = NAN) {
        const analysis::HilComparison c = analysis::compareTelemetry(run, switchSeries(inletC, fanPct));
        return std::make_pair(c, analysis::judgeTelemetry(run, c));
    };
    const auto inletViolations = [](const std::vector<core::Violation>& v) {
        int n = 0;
        for (const core::Violation& x : v)
            n += x.rule == "hil.inlet.deviation" && x.subject == kSwitch ? 1 : 0;
        return n;
    };
    // Tolerance 2 K: 2.05 K over is a violation, 1.95 K is not.
    const auto [over, overV] = judged(modelC + 2.05);
    REQUIRE(over.rows.size() == 1);
    CHECK(over.rows[0].quantity == "inlet");
    CHECK(over.rows[0].predicted == Approx(modelC));
    CHECK(over.rows[0].residual == Approx(2.05));
    CHECK(inletViolations(overV) == 1);
    for (const std::string& n : over.notChecked)
        CHECK_THAT(n, !Contains(kSwitch));
    const auto [under, underV] = judged(modelC - 1.95, 40.0);
    CHECK(inletViolations(underV) == 0);
    REQUIRE(under.rows.size() == 1);
    // Its fan has nothing in the model to meet, and says so.
    bool fanNoted = false;
    for (const std::string& n : under.notChecked)
        fanNoted = fanNoted || (n.find(kSwitch) == 0 && n.find("exhaust, fan") != std::string::npos);
    CHECK(fanNoted);
}
