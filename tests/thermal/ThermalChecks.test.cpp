#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <memory>

#include "support/RuleHarness.h"
#include "thermal/Thermal.h"
#include "thermal/ThermalChecks.h"

using namespace rdt;

static std::vector<core::Violation> check(const std::string& site, const std::string& rule = "thermal.ashrae.inlet")
{
    std::vector<core::Violation> out;
    for (core::Violation& v :
         test::runRules("site: " + site + "\n" + test::oneRack("orv3-600a", ""), thermal::registerChecks))
        if (v.rule == rule)
            out.push_back(std::move(v));
    return out;
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
    // The steeper classes derate faster (until 2026-12-06 every class took A1's 300 m): A3 1 K per
    // 175 m, A4 1 K per 125 m. At 3,000 m: A3 40 − 2,100/175 = 28 degC, A4 45 − 2,100/125 = 28.2.
    CHECK(thermal::deratedMaxInletK("A3", 3000.0) == Approx(273.15 + 28.0));
    CHECK(thermal::deratedMaxInletK("A4", 3000.0) == Approx(273.15 + 28.2));
    CHECK(thermal::deratedMaxInletK("A1", 3000.0) == Approx(273.15 + 25.0));
    CHECK(thermal::deratedMaxInletK("H1", 2400.0) == Approx(273.15 + 22.0)); // 25 − 1,500/500
}

TEST_CASE("A3 and A4 supply air at altitude is judged at those classes' own derating", "[thermal][ashrae]")
{
    // Just under and just over each class's derated limit at 3,000 m (28 and 28.2 degC): before,
    // 33 and 38 degC passed.
    CHECK(check("{supply_air: 27.9 degC, ashrae_class: A3, altitude: 3000 m}").empty());
    CHECK(check("{supply_air: 28.1 degC, ashrae_class: A3, altitude: 3000 m}").size() == 1);
    CHECK(check("{supply_air: 28.1 degC, ashrae_class: A4, altitude: 3000 m}").empty());
    const auto a4 = check("{supply_air: 28.3 degC, ashrae_class: A4, altitude: 3000 m}");
    REQUIRE(a4.size() == 1);
    CHECK(a4[0].limit == Approx(28.2));
}

TEST_CASE("supply air too moist or too dry for its class is a violation on the site", "[thermal][ashrae]")
{
    // A2 allows 8–80 % RH and a dew point from −12 to 21 degC [T1]. At 27 degC, 95 % RH has a dew
    // point of 26.1 degC (Magnus, a = 17.62, b = 243.12: γ = ln 0.95 + 17.62·27/270.12 = 1.7100,
    // 243.12·γ/(17.62 − γ) = 26.13): both limits fail. Until 2026-12-06 nothing judged humidity.
    const std::string hum = "thermal.ashrae.humidity";
    const auto wet = check("{supply_air: 27 degC, humidity: 95 %, ashrae_class: A2}", hum);
    REQUIRE(wet.size() == 2);
    CHECK(wet[0].measured == Approx(26.13).margin(0.01));
    CHECK(wet[0].limit == 21.0);
    CHECK(wet[0].unit == "degC");
    CHECK(wet[1].measured == Approx(95.0));
    CHECK(wet[1].limit == 80.0);
    // Just under and over 80 % RH at 20 degC (dew point 16.4 degC, within 21).
    CHECK(check("{supply_air: 20 degC, humidity: 79.9 %, ashrae_class: A2}", hum).empty());
    CHECK(check("{supply_air: 20 degC, humidity: 80.1 %, ashrae_class: A2}", hum).size() == 1);
    // The dew point alone: 30 degC at 60 % RH has 21.4 degC (over A2's 21), at 58 % 20.9 (under).
    CHECK(check("{supply_air: 30 degC, humidity: 58 %, ashrae_class: A2}", hum).empty());
    const auto dew = check("{supply_air: 30 degC, humidity: 60 %, ashrae_class: A2}", hum);
    REQUIRE(dew.size() == 1);
    CHECK(dew[0].limit == 21.0);
    // A3 and A4 allow more (24 degC, 85 / 90 %): the same 30 degC at 60 % passes there.
    CHECK(check("{supply_air: 30 degC, humidity: 60 %, ashrae_class: A3}", hum).empty());
    // A4 at 25 degC: 91 % RH is over its 90 % (dew point 23.4 degC, under its 24); 89 % passes.
    CHECK(check("{supply_air: 25 degC, humidity: 89 %, ashrae_class: A4}", hum).empty());
    CHECK(check("{supply_air: 25 degC, humidity: 91 %, ashrae_class: A4}", hum).size() == 1);
    // Too dry: below 8 % RH.
    CHECK(check("{supply_air: 27 degC, humidity: 8.1 %, ashrae_class: A2}", hum).empty());
    const auto dry = check("{supply_air: 27 degC, humidity: 2 %, ashrae_class: A2}", hum);
    REQUIRE(!dry.empty());
    CHECK(dry.back().limit == 8.0);
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

namespace {

/// One rack of two Grand Tetons in row `w`, its network solution edited by `edit`, and the thermal
/// rules run on it: each rule judges each subject at its own value.
std::vector<core::Violation> judged(const std::function<void(thermal::ThermalResult&)>& edit,
                                    const std::string& site = "{supply_air: 25 degC, ashrae_class: A2}",
                                    const std::string& more = "")
{
    const core::Design d = core::loadDesignText(
        "site: " + site + "\n" +
            test::oneRack("orv3-hpr", "{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu, feed: A}, "
                                      "{ou: 6, part: meta-grand-teton-h100, id: gt0}, "
                                      "{ou: 15, part: meta-grand-teton-h100, id: gt1}" +
                                          more),
        "test.yaml", test::kDataDir + "/catalog");
    auto t = std::make_shared<thermal::ThermalResult>(thermal::computeThermal(d));
    REQUIRE(t->racks.at(0).chassis.size() == 2);
    edit(*t);
    core::ResultStore store;
    store.put<thermal::ThermalResult>("thermal", t);
    core::CheckRegistry reg;
    thermal::registerChecks(reg);
    core::Progress progress;
    return core::runChecks(d, reg, core::Profile::loadText("name: t\n", "profile.yaml", reg), progress, &store);
}

std::vector<core::Violation> of(const std::vector<core::Violation>& all, const std::string& rule)
{
    std::vector<core::Violation> v;
    for (const core::Violation& x : all)
        if (x.rule == rule)
            v.push_back(x);
    return v;
}

constexpr double kZero = 273.15;

} // namespace

TEST_CASE("thermal.inlet.chassis judges each chassis at its own inlet, not its rack's mean", "[thermal][rules]")
{
    // A stratified front as the room field gives it: the rack's mean 34.8 degC, under the A2
    // allowable 35 degC; gt0 draws 34.6 degC, gt1 35.2 degC — just over. Until issue 33 the rule
    // judged the rack's mean and raised nothing.
    const auto v = of(judged([](thermal::ThermalResult& t) {
                          t.model = core::ThermalModel::Field;
                          t.racks[0].frontK = 34.8 + kZero;
                          t.racks[0].chassis[0].inletK = 34.6 + kZero;
                          t.racks[0].chassis[1].inletK = 35.2 + kZero;
                      }),
                      "thermal.inlet.chassis");
    REQUIRE(v.size() == 1);
    CHECK(v[0].subject == "h/w/k/gt1");
    CHECK(v[0].measured == Approx(35.2));
    CHECK(v[0].limit == Approx(35.0));
    CHECK(v[0].unit == "degC");
    CHECK(v[0].loc.line == 2); // the slot's line in the design text
    CHECK_THAT(v[0].message, Catch::Matchers::StartsWith("chassis inlet 35.2 degC (the room field's air at its own "
                                                         "intake") &&
                                 Catch::Matchers::Contains("the rack's front mean 34.8 degC") &&
                                 Catch::Matchers::EndsWith("is above the A2 allowable 35 degC"));
    // 0.01 K over prints as such (four figures), never as the limit itself.
    const auto justOver = of(judged([](thermal::ThermalResult& t) {
                                 for (auto& c : t.racks[0].chassis)
                                     c.inletK = 35.01 + kZero;
                             }),
                             "thermal.inlet.chassis");
    REQUIRE(justOver.size() == 2);
    CHECK_THAT(justOver[0].message, Catch::Matchers::StartsWith("chassis inlet 35.01 degC (cold-aisle air with"));
    // At 1,800 m the A2 limit is 35 − (1800 − 900) / 300 = 32 degC: 32.1 is over, 31.9 is not.
    const auto high = of(judged(
                             [](thermal::ThermalResult& t) {
                                 t.racks[0].chassis[0].inletK = 31.9 + kZero;
                                 t.racks[0].chassis[1].inletK = 32.1 + kZero;
                             },
                             "{supply_air: 25 degC, ashrae_class: A2, altitude: 1800 m}"),
                         "thermal.inlet.chassis");
    REQUIRE(high.size() == 1);
    CHECK(high[0].subject == "h/w/k/gt1");
    CHECK(high[0].limit == Approx(32.0));
}

TEST_CASE("thermal.inlet.switch judges each switch at its own inlet", "[thermal][rules]")
{
    // Trust trial (2026-12-07): no rule judged a switch's inlet, so a rack of switches in air over the
    // allowable passed. Two switches in the rack: the network gives both the rack's front air.
    const std::string two = ", {ou: 30, part: meta-wedge400, id: sw0}, {ou: 40, part: meta-wedge400, id: sw1}";
    bool solved = false;
    const auto none = of(judged(
                             [&](thermal::ThermalResult& t) {
                                 REQUIRE(t.racks[0].switches.size() == 2);
                                 CHECK(t.racks[0].switches[1].id == "h/w/k/sw1");
                                 for (const auto& sw : t.racks[0].switches)
                                     CHECK(sw.inletK == t.racks[0].frontK);
                                 solved = true;
                             },
                             "{supply_air: 25 degC, ashrae_class: A2}", two),
                         "thermal.inlet.switch");
    CHECK(solved);
    CHECK(none.empty());
    // sw1 at 35.01 degC, just over the A2 allowable 35; sw0 at 34.99, just under: one violation, on sw1.
    const auto v = of(judged(
                          [](thermal::ThermalResult& t) {
                              t.model = core::ThermalModel::Field;
                              t.racks[0].frontK = 34.8 + kZero;
                              t.racks[0].switches[0].inletK = 34.99 + kZero;
                              t.racks[0].switches[1].inletK = 35.01 + kZero;
                          },
                          "{supply_air: 25 degC, ashrae_class: A2}", two),
                      "thermal.inlet.switch");
    REQUIRE(v.size() == 1);
    CHECK(v[0].subject == "h/w/k/sw1");
    CHECK(v[0].measured == Approx(35.01));
    CHECK(v[0].limit == Approx(35.0));
    CHECK(v[0].unit == "degC");
    CHECK(v[0].severity == core::Severity::Error);
    CHECK(v[0].loc.line == 2);
    CHECK_THAT(v[0].message, Catch::Matchers::StartsWith("switch inlet 35.01 degC (the room field's air at its own "
                                                         "intake; the rack's front mean 34.8 degC)") &&
                                 Catch::Matchers::EndsWith("is above the A2 allowable 35 degC"));
    // At 1,800 m the A2 limit is 32 degC: 32.1 is over, 31.9 is not.
    const auto high = of(judged(
                             [](thermal::ThermalResult& t) {
                                 t.racks[0].switches[0].inletK = 32.1 + kZero;
                                 t.racks[0].switches[1].inletK = 31.9 + kZero;
                             },
                             "{supply_air: 25 degC, ashrae_class: A2, altitude: 1800 m}", two),
                         "thermal.inlet.switch");
    REQUIRE(high.size() == 1);
    CHECK(high[0].subject == "h/w/k/sw0");
    CHECK(high[0].limit == Approx(32.0));
    CHECK_THAT(high[0].message, Catch::Matchers::Contains("(the rack's front air) is above"));
}

TEST_CASE("each per-chassis thermal rule fires on the one chassis just past its limit", "[thermal][rules]")
{
    // gt1 alone just past each limit, gt0 just inside it: the violation names gt1 and its value.
    SECTION("thermal.gpu.junction: 0.01 K over the GPU's maximum operating temperature")
    {
        double limitC = NAN;
        const auto v = of(judged([&](thermal::ThermalResult& t) {
                              for (auto& c : t.racks[0].chassis)
                                  c.gpuJunctionK = c.maxOperatingK - 0.01;
                              t.racks[0].chassis[1].gpuJunctionK = t.racks[0].chassis[1].maxOperatingK + 0.01;
                              limitC = t.racks[0].chassis[1].maxOperatingK - kZero;
                          }),
                          "thermal.gpu.junction");
        REQUIRE(v.size() == 1);
        CHECK(v[0].subject == "h/w/k/gt1");
        CHECK(v[0].measured == Approx(limitC + 0.01));
        CHECK(v[0].limit == Approx(limitC)); // H100 SXM5: 87 degC
        CHECK(limitC == Approx(87.0));
    }
    SECTION("thermal.gpu.setpoint: 0.06 K over the fan-control setpoint (its band is 0.05 K)")
    {
        const auto v = of(judged([](thermal::ThermalResult& t) {
                              for (auto& c : t.racks[0].chassis)
                                  c.gpuJunctionK = c.setpointK + 0.04;
                              t.racks[0].chassis[1].gpuJunctionK = t.racks[0].chassis[1].setpointK + 0.06;
                          }),
                          "thermal.gpu.setpoint");
        REQUIRE(v.size() == 1);
        CHECK(v[0].subject == "h/w/k/gt1");
        CHECK(v[0].measured - v[0].limit == Approx(0.06));
    }
    SECTION("thermal.exhaust.dt: 0.01 K under the 12.3 K target")
    {
        const auto v = of(judged([](thermal::ThermalResult& t) {
                              for (auto& c : t.racks[0].chassis)
                                  c.exhaustK = c.inletK + 12.31;
                              t.racks[0].chassis[1].exhaustK = t.racks[0].chassis[1].inletK + 12.29;
                          }),
                          "thermal.exhaust.dt");
        REQUIRE(v.size() == 1);
        CHECK(v[0].subject == "h/w/k/gt1");
        CHECK(v[0].measured == Approx(12.29));
        CHECK(v[0].limit == Approx(12.3));
    }
    SECTION("thermal.row.rci: 0.1 % under the 96 % minimum, on the row")
    {
        const auto v = of(judged([](thermal::ThermalResult& t) { t.rows.at(0).rciHi = 95.9; }), "thermal.row.rci");
        REQUIRE(v.size() == 1);
        CHECK(v[0].subject == "h/w");
        CHECK(v[0].measured == Approx(95.9));
    }
    SECTION("thermal.row.rci_lo: 0.1 % under the 96 % minimum, on the row; 96.1 % passes")
    {
        const auto v = of(judged([](thermal::ThermalResult& t) { t.rows.at(0).rciLo = 95.9; }), "thermal.row.rci_lo");
        REQUIRE(v.size() == 1);
        CHECK(v[0].subject == "h/w");
        CHECK(v[0].measured == Approx(95.9));
        CHECK(v[0].limit == Approx(96.0));
        CHECK_THAT(v[0].message, Catch::Matchers::StartsWith("RCI_LO 95.9 %") &&
                                     Catch::Matchers::Contains("intakes below the A2 recommended minimum 18 degC"));
        CHECK(of(judged([](thermal::ThermalResult& t) { t.rows.at(0).rciLo = 96.1; }), "thermal.row.rci_lo").empty());
    }
}

TEST_CASE("an overcooled row warns RCI_LO, by hand", "[thermal][ashrae]")
{
    // Supply at 15 degC, A2 (recommended 18–27, allowable 10–35 degC): the intakes 15–17 degC (with
    // the rack's recirculation) under the recommended minimum. By hand from the solved intakes:
    // RCI_LO = (1 − Σ max(0, 18 − T) / (n × 8 K)) × 100 %, a warning on the row (it was computed and
    // never judged: trust trial, 2026-12-07).
    double byHand = NAN;
    const auto all = judged(
        [&](thermal::ThermalResult& t) {
            double under = 0;
            int n = 0;
            for (const auto& c : t.racks.at(0).chassis) {
                under += std::max(0.0, 18.0 + kZero - c.inletK);
                ++n;
            }
            byHand = (1.0 - under / (n * 8.0)) * 100.0;
        },
        "{supply_air: 15 degC, ashrae_class: A2}");
    const auto v = of(all, "thermal.row.rci_lo");
    REQUIRE(v.size() == 1);
    CHECK(v[0].measured == Approx(byHand).epsilon(1e-12));
    CHECK(v[0].measured < 90.0);
    CHECK(v[0].severity == core::Severity::Warning);
    CHECK(of(judged([](thermal::ThermalResult&) {}), "thermal.row.rci_lo").empty()); // 25 degC: none
}

TEST_CASE("RCI_HI at altitude judges intakes against the derated allowable", "[thermal][ashrae]")
{
    // At 3,000 m the A2 allowable is 35 − 2,100/300 = 28 degC: the index's span from the recommended
    // 27 degC is 1 K, not the sea-level 8 K, so intakes at 27.5 degC are half-way to the limit.
    // Until 2026-12-06 RCI_HI used the sea-level 35 degC (83.5 % where the inlet rule failed every
    // chassis). By hand: RCI_HI = (1 − Σ max(0, T − 27) / (n × 1 K)) × 100 %.
    const core::Design d = core::loadDesignText(
        "site: {supply_air: 27.5 degC, ashrae_class: A2, altitude: 3000 m}\n" +
            test::oneRack("orv3-hpr", "{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu, feed: A}, "
                                      "{ou: 6, part: meta-grand-teton-h100, id: gt0}, "
                                      "{ou: 15, part: meta-grand-teton-h100, id: gt1}"),
        "test.yaml", test::kDataDir + "/catalog");
    const thermal::ThermalResult t = thermal::computeThermal(d);
    const thermal::RciBounds b = thermal::rciHiBounds("A2", 3000.0);
    CHECK(b.allowableMaxK == Approx(273.15 + 28.0));
    CHECK(b.recommendedMaxK == Approx(273.15 + 27.0));
    double over = 0;
    int n = 0;
    for (const thermal::ChassisThermal& c : t.racks.at(0).chassis) {
        over += std::max(0.0, c.inletK - b.recommendedMaxK);
        ++n;
    }
    REQUIRE(n == 2);
    REQUIRE(!t.rows.empty());
    CHECK(t.rows[0].rciHi == Approx((1.0 - over / (n * 1.0)) * 100.0).epsilon(1e-9));
    CHECK(t.rows[0].rciHi < 60.0);
    // Where the derated allowable falls to the recommended maximum (A1 at 2,400 m: 32 − 5 = 27 degC),
    // the recommended takes the derated figure.
    CHECK(thermal::rciHiBounds("A1", 3000.0).recommendedMaxK == Approx(273.15 + 25.0));
}
