#include <catch2/catch.hpp>

#include "power/PowerChecks.h"
#include "support/RuleHarness.h"

using namespace rdt;

/// Violations of `orv3.power.source` only.
static std::vector<core::Violation> check(const std::string& slots)
{
    std::vector<core::Violation> out;
    for (auto& v : test::runRules(test::oneRack("orv3-600a", slots), power::registerChecks))
        if (v.rule == "orv3.power.source")
            out.push_back(v);
    return out;
}
TEST_CASE("a busbar-fed chassis needs a power shelf in its rack", "[power]")
{
    const auto v = check("{ou: 5, part: meta-grand-teton-h100, id: gt0}, {ou: 20, part: meta-minipack2, id: sw}");
    REQUIRE(v.size() == 2); // both the chassis and the busbar-fed switch
    CHECK(v[0].rule == "orv3.power.source");
    CHECK(v[0].subject == "h/w/k/gt0");
    CHECK(v[1].subject == "h/w/k/sw");
    CHECK(check("{ou: 1, part: orv3-power-shelf-6x3kw}, {ou: 5, part: meta-grand-teton-h100}").empty());
    // An AC-powered switch alone needs no shelf.
    CHECK(check("{ou: 5, part: nvidia-quantum2-qm9700}").empty());
}
