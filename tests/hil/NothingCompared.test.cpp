// rdt hil compare: telemetry with no reading to set beside the model checked nothing, and passed
// (every BMC unreachable: "0 residuals", 0 errors, exit 0: a CI gate passed with no data at all).
// hil.telemetry.none is an error there, and silent as soon as one reading is compared.
#include <catch2/catch.hpp>

#include "analysis/Hil.h"
#include "analysis/Pipeline.h"

using namespace rdt;

namespace {

std::size_t count(const std::vector<core::Violation>& v, const std::string& rule)
{
    std::size_t n = 0;
    for (const core::Violation& x : v)
        n += x.rule == rule ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("hil.telemetry.none: no reading compared is an error, one reading is enough", "[hil]")
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    core::Progress quiet;
    const analysis::RunResult run = analysis::run(o, quiet);

    analysis::HilComparison none;
    none.sweeps = 3;
    none.notChecked = {"lab/row1/rack1/gt0: connection refused", "lab/row1/rack1/gt1: connection refused"};
    const std::vector<core::Violation> v = analysis::judgeTelemetry(run, none);
    REQUIRE(count(v, "hil.telemetry.none") == 1);
    for (const core::Violation& x : v)
        if (x.rule == "hil.telemetry.none") {
            CHECK(x.severity == core::Severity::Error);
            CHECK(x.subject == "telemetry");
            CHECK(x.message.find("2 mapped parts not checked, over 3 sweeps") != std::string::npos);
            CHECK(x.measured < x.limit);
        }
    CHECK(count(v, "hil.telemetry.missing") == 2); // each part still named

    analysis::HilComparison one = none;
    one.rows.push_back({"lab/row1/rack1/gt0", "chassis", "power", "W", 8150, 8150, 0, 3});
    CHECK(count(analysis::judgeTelemetry(run, one), "hil.telemetry.none") == 0);
}
