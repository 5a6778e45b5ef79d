#include <catch2/catch.hpp>

#include "support/RuleHarness.h"
#include "thermal/ThermalChecks.h"

using namespace rdt;

static std::vector<core::Violation> check(const std::string& site)
{
    return test::runRules("site: " + site + "\n" + test::oneRack("orv3-600a", ""), thermal::registerChecks);
}
TEST_CASE("ASHRAE allowable ranges (TC 9.9 2021 Table 2.1)", "[thermal][ashrae]")
{
    CHECK(thermal::ashraeAllowable("A1").maxK == Approx(305.15));
    CHECK(thermal::ashraeAllowable("A2").minK == Approx(283.15));
    CHECK(thermal::ashraeAllowable("A4").maxK == Approx(318.15));
    CHECK(thermal::ashraeAllowable("H1").maxK == Approx(298.15));
    // 1 K per 300 m above 900 m: at 1,800 m the A2 limit is 35 − 3 = 32 °C.
    CHECK(thermal::deratedMaxInletK("A2", 1800.0) == Approx(305.15));
    CHECK(thermal::deratedMaxInletK("A2", 500.0) == Approx(308.15));
}

TEST_CASE("supply air outside the class is a violation on the site", "[thermal][ashrae]")
{
    CHECK(check("{supply_air: 35 degC, ashrae_class: A2}").empty());
    const auto hot = check("{supply_air: 36 degC, ashrae_class: A2}");
    REQUIRE(hot.size() == 1);
    CHECK(hot[0].rule == "thermal.ashrae.inlet");
    CHECK(hot[0].subject == "site");
    CHECK(hot[0].measured == Approx(36.0));
    CHECK(hot[0].limit == Approx(35.0));
    CHECK(hot[0].unit == "degC");
    CHECK(check("{supply_air: 33 degC, ashrae_class: A2, altitude: 1800 m}").size() == 1);
    CHECK(check("{supply_air: 8 degC, ashrae_class: A2}").size() == 1);
}
