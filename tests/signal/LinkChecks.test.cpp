#include <catch2/catch.hpp>

#include "signal/LinkAnalysis.h"
#include "signal/LinkChecks.h"
#include "support/RuleHarness.h"

using namespace rdt;

static std::vector<core::Violation> check(const std::string& slots, const std::string& cable,
                                          const std::string& extra = "")
{
    return test::runRules(
        test::oneRack("orv3-600a", slots) +
            "links:\n  - {class: dac, medium: copper, from: {part: meta-grand-teton-h100, interfaces: "
            "\"nic*\"}, to: {part: meta-minipack2}, cable: " +
            cable + extra + "}\n",
        signal::registerChecks);
}
TEST_CASE("required cable length from placement", "[signal][reach]")
{
    core::Part gt, sw;
    gt.ouHeight = 8;
    sw.ouHeight = 4;
    core::Slot a{"a", "a", &gt, 1, {}, {}};
    core::Slot b{"b", "b", &sw, 41, {}, {}};
    // Middles at 4 OU and 42 OU above the rack floor: 38 OU × 48 mm = 1.824 m, plus 0.5 m slack.
    CHECK(signal::requiredCableLengthM(a, b, 0.048, 0.5) == Approx(2.324));
    CHECK(signal::requiredCableLengthM(b, a, 0.048, 0.0) == Approx(1.824));
}

TEST_CASE("a DAC too short for the placement, and a far end that is missing", "[signal][reach]")
{
    // Chassis at OU 1–8 and switch at OU 9–12: 0.288 m + 0.5 m slack fits a 1 m DAC.
    CHECK(check("{ou: 1, part: meta-grand-teton-h100, id: g}, {ou: 9, part: meta-minipack2}", "dac-400g-osfp-1m")
              .empty());
    const auto far =
        check("{ou: 1, part: meta-grand-teton-h100, id: g}, {ou: 41, part: meta-minipack2}", "dac-400g-osfp-1m");
    REQUIRE(far.size() == 1);
    CHECK(far[0].rule == "signal.cable.reach");
    CHECK(far[0].measured == Approx(2.324));
    CHECK(far[0].limit == Approx(1.0));
    CHECK(far[0].unit == "m");
    const auto missing = check("{ou: 1, part: meta-grand-teton-h100, id: g}", "dac-400g-osfp-1m");
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].rule == "link.endpoint.missing");
}

TEST_CASE("a declared length beyond the cable's reach", "[signal][reach]")
{
    auto all = check("{ou: 1, part: meta-grand-teton-h100}, {ou: 9, part: meta-minipack2}", "dac-400g-osfp-2m",
                     ", length: 3 m");
    std::vector<core::Violation> v;
    for (auto& x : all)
        if (x.rule == "signal.cable.reach")
            v.push_back(x);
    REQUIRE(v.size() == 1);
    CHECK(v[0].subject == "links/dac");
    CHECK(v[0].measured == Approx(3.0));
    CHECK(v[0].limit == Approx(2.0));
}

TEST_CASE("link verdicts carry the longest run the placement needs", "[signal][reach][placement]")
{
    // Chassis middles at 4 OU and 36 OU, the switch's at 42 OU: the far chassis needs
    // 38 OU × 48 mm + 0.5 m slack = 2.324 m; the copper class is analysed at its cable's 2 m.
    const std::string text =
        test::oneRack("orv3-600a", "{ou: 1, part: meta-grand-teton-h100, id: g1}, {ou: 33, part: "
                                   "meta-grand-teton-h100, id: g2}, {ou: 41, part: meta-minipack2, id: sw}") +
        "links:\n"
        "  - {class: dac, medium: copper, from: {part: meta-grand-teton-h100, interfaces: \"nic*\"}, to: {part: "
        "meta-minipack2}, cable: dac-400g-osfp-2m}\n"
        "  - {class: one, medium: copper, from: \"h/w/k/g2:nic0\", to: \"h/w/k/g1:nic0\", cable: dac-400g-osfp-1m}\n"
        "  - {class: pcie, medium: pcie-gen5, scope: chassis, from: {part: meta-grand-teton-h100}, to: {part: "
        "meta-grand-teton-h100}}\n";
    const core::Design d = core::loadDesignText(text, "test.yaml", test::kDataDir + "/catalog");
    const signal::SignalResult r = signal::analyseLinks(d, signal::siProfileDir());
    REQUIRE(r.links.size() == 3);
    CHECK(r.links[0].placementLengthM == Approx(2.324));
    CHECK(r.links[0].lengthM == Approx(2.0));
    // Port to port: middles 36 OU and 4 OU: 32 × 0.048 + 0.5 = 2.036 m (more than its 1 m cable,
    // which signal.cable.reach reports; the channel is still the cable's).
    CHECK(r.links[1].placementLengthM == Approx(2.036));
    CHECK(r.links[1].lengthM == Approx(1.0));
    // Inside the chassis there is no rack placement: the PCIe default length is used.
    CHECK(std::isnan(r.links[2].placementLengthM));
    CHECK(r.links[2].lengthM == Approx(signal::kPcieDefaultM));
}
