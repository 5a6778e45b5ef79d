#include <catch2/catch.hpp>

#include "signal/LinkAnalysis.h"
#include "signal/LinkChecks.h"
#include "support/RuleHarness.h"

using namespace rdt;

/// Violations of the reach and endpoint rules (the 400G NIC meeting a 200G Minipack2 port is the
/// rate-mismatch warning, tested on its own below).
static std::vector<core::Violation> check(const std::string& slots, const std::string& cable,
                                          const std::string& extra = "")
{
    std::vector<core::Violation> out;
    for (core::Violation& v :
         test::runRules(test::oneRack("orv3-600a", slots) +
                            "links:\n  - {class: dac, medium: copper, from: {part: meta-grand-teton-h100, interfaces: "
                            "\"nic*\"}, to: {part: meta-minipack2}, cable: " +
                            cable + extra + "}\n",
                        signal::registerChecks))
        if (v.rule != "link.rate.mismatch")
            out.push_back(std::move(v));
    return out;
}

/// Violations of `rule` for a rack of `slots` and the given `links:` section.
static std::vector<core::Violation> ruleOn(const std::string& rule, const std::string& slots, const std::string& links)
{
    std::vector<core::Violation> out;
    for (core::Violation& v : test::runRules(test::oneRack("orv3-600a", slots) + links, signal::registerChecks))
        if (v.rule == rule)
            out.push_back(std::move(v));
    return out;
}

namespace {
const std::string kThreeGtsWedge =
    "{ou: 1, part: orv3-power-shelf-6x3kw}, {ou: 3, part: meta-grand-teton-h100, id: g0}, "
    "{ou: 11, part: meta-grand-teton-h100, id: g1}, "
    "{ou: 19, part: meta-grand-teton-h100, id: g2}, {ou: 27, part: meta-wedge400, id: sw}";
std::string linksPerGt(int n)
{
    return "links:\n  - {class: nic-sw, medium: copper, from: {part: meta-grand-teton-h100, count: " +
           std::to_string(n) + "}, to: {part: meta-wedge400}, cable: dac-400g-osfp-2m}\n";
}
} // namespace

TEST_CASE("ports are counted per switch and interfaces per chassis (issue 33, 4)", "[signal][ports]")
{
    // 30 links from each of three Grand Tetons: 90 land on the 48-port Wedge 400 (one violation,
    // on the switch) and each chassis takes 30 through its 10 catalogued interfaces (three, one
    // per chassis). Before: no rule counted either.
    const auto sw = ruleOn("switch.ports", kThreeGtsWedge, linksPerGt(30));
    REQUIRE(sw.size() == 1);
    CHECK(sw[0].subject == "h/w/k/sw");
    CHECK(sw[0].measured == Approx(90));
    CHECK(sw[0].limit == Approx(48));
    const auto gt = ruleOn("chassis.interfaces", kThreeGtsWedge, linksPerGt(30));
    REQUIRE(gt.size() == 3);
    CHECK(gt[0].subject == "h/w/k/g0");
    CHECK(gt[0].measured == Approx(30));
    CHECK(gt[0].limit == Approx(10));
    // Just over, and at, the limit: 16 a chassis is 48 on the switch (passes) but over 10 interfaces;
    // 10 a chassis fits both (30 of 48 ports, 10 of 10 interfaces); 17 is 51 > 48.
    CHECK(ruleOn("switch.ports", kThreeGtsWedge, linksPerGt(16)).empty());
    CHECK(ruleOn("switch.ports", kThreeGtsWedge, linksPerGt(17)).size() == 1);
    CHECK(ruleOn("chassis.interfaces", kThreeGtsWedge, linksPerGt(10)).empty());
    CHECK(ruleOn("chassis.interfaces", kThreeGtsWedge, linksPerGt(11)).size() == 3);
}

TEST_CASE("a link's rate is negotiated from both ends' ports (issue 33, 4)", "[signal][ports]")
{
    // The 24k example's NIC (ConnectX-7: one 400G port of 4 × 106.25 Gb/s lanes) into a Minipack2
    // (200G ports of 4 × 53.125 Gb/s lanes): the link runs at 200 Gb/s on 53.125 Gb/s lanes, COM is
    // taken with the 50 Gb/s-per-lane (802.3cd) table, and a warning names both ends. Before: judged
    // at 100 Gb/s per lane with the 802.3ck table, no warning.
    const std::string links = "links:\n  - {class: nic-rtsw, medium: copper, from: {part: meta-grand-teton-h100, "
                              "interfaces: \"nic*\"}, to: {part: meta-minipack2}, cable: dac-400g-osfp-1m}\n";
    const std::string slots = "{ou: 1, part: meta-grand-teton-h100, id: g}, {ou: 9, part: meta-minipack2, id: sw}";
    const core::Design d =
        core::loadDesignText(test::oneRack("orv3-600a", slots) + links, "t.yaml", test::kDataDir + "/catalog");
    const signal::SignalResult r = signal::analyseLinks(d, test::kDataDir + "/si-profiles");
    REQUIRE(r.links.size() == 1);
    const signal::LinkVerdict& v = r.links[0];
    CHECK(v.portRateGbps == Approx(200.0));
    CHECK(v.fasterPortGbps == Approx(400.0));
    CHECK(v.negotiatedLaneGbps == Approx(53.125));
    CHECK(v.downgraded);
    CHECK(v.laneRateGbps == Approx(50.0));
    CHECK(v.marginDb == Approx(v.comDb - 3.0)); // the 802.3cd table's 3 dB threshold
    const auto w = ruleOn("link.rate.mismatch", slots, links);
    REQUIRE(w.size() == 1);
    CHECK(w[0].severity == core::Severity::Warning);
    CHECK_THAT(w[0].message, Catch::Contains("nvidia-connectx7-400g 400 Gb/s, 4 × 106.25 Gb/s lanes") &&
                                 Catch::Contains("meta-minipack2 200 Gb/s, 4 × 53.125 Gb/s lanes"));
    // The same NIC into a Quantum-2 (400G ports of 4 × 106.25 Gb/s): no mismatch, 100 Gb/s per lane.
    const std::string ib = "links:\n  - {class: nic-ib, medium: copper, from: {part: meta-grand-teton-h100, "
                           "interfaces: \"nic*\"}, to: {part: nvidia-quantum2-qm9700}, cable: dac-400g-osfp-1m}\n";
    const std::string ibSlots = "{ou: 1, part: meta-grand-teton-h100, id: g}, {ou: 9, part: nvidia-quantum2-qm9700}";
    const signal::SignalResult same = signal::analyseLinks(
        core::loadDesignText(test::oneRack("orv3-600a", ibSlots) + ib, "t.yaml", test::kDataDir + "/catalog"),
        test::kDataDir + "/si-profiles");
    CHECK_FALSE(same.links[0].downgraded);
    CHECK(same.links[0].laneRateGbps == Approx(100.0));
    CHECK(ruleOn("link.rate.mismatch", ibSlots, ib).empty());
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
    // Its ends are PCIe ports, at the generation's 32 GT/s lanes: it read the NIC's Ethernet port
    // ("400 Gb/s, 4 × 106.25 Gb/s lanes") at both ends and a 106.25 Gb/s lane (trust trial).
    CHECK(r.links[2].fromPort == "meta-grand-teton-h100 PCIe (pcie-gen5)");
    CHECK(r.links[2].negotiatedLaneGbps == 32.0);
    CHECK(std::isnan(r.links[2].portRateGbps));
    CHECK_FALSE(r.links[2].downgraded);
}

TEST_CASE("a link class that makes no link is said so, and an interface glob that matches no port is refused",
          "[signal][links]")
{
    // Trust trial, 2026-12-07: `interfaces: "nix*"` (for "nic*") made 0 links without a word, and the
    // network checks read the design as one with nothing to judge; a class whose part is not placed
    // did the same.
    const std::string cls = "links:\n  - {class: dac, medium: copper, from: {part: meta-grand-teton-h100, interfaces: "
                            "\"nic*\"}, to: {part: meta-minipack2}, cable: dac-400g-osfp-2m}\n";
    // One Grand Teton placed: the class makes its 8 links, nothing to say.
    CHECK(ruleOn("link.class.empty", "{ou: 1, part: meta-grand-teton-h100, id: g}, {ou: 9, part: meta-minipack2}", cls)
              .empty());
    // None placed: one warning, at the class.
    const auto empty =
        ruleOn("link.class.empty", "{ou: 1, part: orv3-power-shelf-6x3kw}, {ou: 9, part: meta-minipack2}", cls);
    REQUIRE(empty.size() == 1);
    CHECK(empty[0].subject == "links/dac");
    CHECK(empty[0].severity == core::Severity::Warning);
    CHECK(empty[0].measured == 0);
    CHECK(empty[0].limit == 1);
    CHECK_THAT(empty[0].message, Catch::Matchers::Contains("no meta-grand-teton-h100 is placed in the layout"));
    // A glob that matches none of the part's interfaces: refused where it is written, naming the ports.
    std::string typo = cls;
    typo.replace(typo.find("nic*"), 4, "nix*");
    CHECK_THROWS_WITH(test::runRules(test::oneRack("orv3-600a", "{ou: 1, part: meta-grand-teton-h100, id: g}, "
                                                                "{ou: 9, part: meta-minipack2}") +
                                         typo,
                                     signal::registerChecks),
                      Catch::Matchers::Contains("links[0].from.interfaces") &&
                          Catch::Matchers::Contains("\"nix*\" matches none of meta-grand-teton-h100's interfaces") &&
                          Catch::Matchers::Contains("nic0"));
    // With `count:` the glob names no port (count comes first): not judged (review).
    std::string counted = typo;
    counted.replace(counted.find("\"nix*\"}"), 7, "\"nix*\", count: 8}");
    CHECK_NOTHROW(test::runRules(test::oneRack("orv3-600a", "{ou: 1, part: meta-grand-teton-h100, id: g}, "
                                                            "{ou: 9, part: meta-minipack2}") +
                                     counted,
                                 signal::registerChecks));
}
