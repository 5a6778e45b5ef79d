// A cooling unit's own supply air is judged (2026-12-06): a CRAH blowing 36 degC under a 25 degC
// site passed thermal.ashrae.inlet, which judged only site.supply_air, and the network model, which
// takes every rack's supply at the site's, said nothing while judging every rack on cooler air.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/Pipeline.h"
#include "support/RunSubjects.h"
#include "support/TextEdit.h"

using namespace rdt;
using test::subjects;

namespace {

/// single-rack.yaml (site 27 degC, A2 at 0 m: allowable 10-35 degC) with one CRAH at `supply`.
analysis::RunResult withUnit(const std::string& supply, std::optional<core::ThermalModel> model = {})
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    o.designText = test::slurp(o.designPath) + "\nroom:\n  cooling_units:\n    - {name: crah-1, supply_air: " + supply +
                   ", return: ceiling}\n";
    o.thermalModel = model;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

const std::vector<std::string> kUnit{"room/crah-1"};

} // namespace

TEST_CASE("thermal.ashrae.inlet judges each cooling unit's own supply air, just either side of A2's range",
          "[rules][thermal]")
{
    struct Case {
        const char* supply;
        bool over; // beyond the allowable range
    };
    for (const Case c : {Case{"35 degC", false}, Case{"35.01 degC", true}, Case{"10 degC", false},
                         Case{"9.99 degC", true}, Case{"27 degC", false}}) {
        CAPTURE(c.supply);
        const analysis::RunResult r = withUnit(c.supply);
        CHECK(subjects(r, "thermal.ashrae.inlet") == (c.over ? kUnit : std::vector<std::string>{}));
        for (const core::Violation& v : r.violations)
            if (v.rule == "thermal.ashrae.inlet") {
                CHECK(v.loc.line > 0); // the unit's line in the design
                CHECK(v.message.find("cooling unit crah-1 supplies") == 0);
            }
    }
}

TEST_CASE("thermal.network.supply: a unit warmer than the site's air sets the network's supply, and is said",
          "[rules][thermal]")
{
    CHECK(subjects(withUnit("27 degC"), "thermal.network.supply").empty());
    CHECK(subjects(withUnit("26.99 degC"), "thermal.network.supply").empty()); // cooler: the network is conservative
    const analysis::RunResult over = withUnit("27.01 degC");
    CHECK(subjects(over, "thermal.network.supply") == kUnit);
    for (const core::Violation& v : over.violations)
        if (v.rule == "thermal.network.supply") {
            CHECK(v.measured == Approx(27.01));
            CHECK(v.limit == Approx(27.0));
            CHECK(v.severity == core::Severity::Info); // the network judges on the warmer air now
        }
    // Every chassis is judged on the warmest unit's air (it was judged on the site's 27 degC): the
    // 30 degC unit lifts every inlet by 3 K, to the tenth.
    const analysis::RunResult site = withUnit("27 degC"), warm = withUnit("30 degC");
    REQUIRE(site.thermal);
    REQUIRE(warm.thermal);
    for (std::size_t r = 0; r < site.thermal->racks.size(); ++r)
        for (std::size_t c = 0; c < site.thermal->racks[r].chassis.size(); ++c)
            CHECK(warm.thermal->racks[r].chassis[c].inletK - site.thermal->racks[r].chassis[c].inletK ==
                  Approx(3.0).margin(0.1));
    // 35.01 degC at the unit: its air and the chassis on it are over A2's 35 degC (the chassis were
    // judged at 27 degC and passed).
    const analysis::RunResult hot = withUnit("35.01 degC");
    CHECK_FALSE(subjects(hot, "thermal.inlet.chassis").empty());
    // The room field takes each unit's own supply: nothing to say there.
    CHECK(subjects(withUnit("30 degC", core::ThermalModel::Field), "thermal.network.supply").empty());
}
