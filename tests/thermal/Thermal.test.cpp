#include <catch2/catch.hpp>

#include <cmath>

#include "support/RuleHarness.h"
#include "thermal/Thermal.h"

using namespace rdt;

namespace {

core::Design design(const std::string& name)
{
    return core::loadDesign(test::kDataDir + "/designs/" + name, test::kDataDir + "/catalog");
}

const thermal::ChassisThermal& first(const thermal::ThermalResult& t)
{
    return t.racks.front().chassis.front();
}

} // namespace

TEST_CASE("RCI, RTI and SHI on small hand-computed sets", "[thermal][metrics]")
{
    // Recommended max 27 °C, allowable 35 °C: intakes 26, 29, 31 → over = 2 + 4 = 6 → 1 − 6/(8·3) = 75 %.
    const double c = 273.15;
    CHECK(thermal::rciHi({26 + c, 29 + c, 31 + c}, 27 + c, 35 + c) == Approx(75.0));
    CHECK(thermal::rciHi({20 + c, 25 + c}, 27 + c, 35 + c) == Approx(100.0));
    // Recommended min 18, allowable 15: intakes 16, 17 → under = 2 + 1 = 3 → 1 − 3/(3·2) = 50 %.
    CHECK(thermal::rciLo({16 + c, 17 + c}, 18 + c, 15 + c) == Approx(50.0));
}

TEST_CASE("energy balance: each chassis carries its heat, m·cp·ΔT = P", "[thermal][energy]")
{
    const core::Design d = design("single-rack.yaml");
    const thermal::ThermalResult t = thermal::computeThermal(d);
    const double rho = t.densityKgM3;
    for (const thermal::ChassisThermal& ch : t.racks[0].chassis) {
        INFO(ch.id);
        const double cp = 1005.0;
        CHECK(rho * ch.airflowM3s * cp * (ch.exhaustK - ch.inletK) == Approx(ch.heatW).epsilon(1e-6));
        CHECK(ch.airflowM3s > 0.2);
        CHECK(ch.gpuJunctionK < ch.maxOperatingK);
    }
    // The whole rack: air leaving by the rear door carries all heat above its intake mix.
    const thermal::RackThermal& r = t.racks[0];
    CHECK(r.massResidual <= 1e-9 * r.exhaustFlowM3s);
    CHECK(r.exhaustFlowM3s == Approx(r.doorFlowM3s + r.recirculationM3s).epsilon(1e-9));
}

TEST_CASE("fan control holds the GPU at its setpoint when it can", "[thermal][control]")
{
    const thermal::ThermalResult t = thermal::computeThermal(design("single-rack.yaml"));
    const thermal::ChassisThermal& gt0 = first(t);
    CHECK(gt0.fanSpeed < 1.0);
    CHECK(gt0.fanSpeed > 0.25);
    CHECK(gt0.gpuJunctionK == Approx(gt0.setpointK).margin(0.01));
    // The capped chassis (600 W GPUs) needs less air.
    CHECK(t.racks[0].chassis[1].airflowM3s < gt0.airflowM3s);
}

TEST_CASE("scenarios move results in the expected direction", "[thermal][scenario]")
{
    core::Design d = design("single-rack.yaml");
    const thermal::ThermalResult base = thermal::computeThermal(d);
    core::Design hot = d;
    hot.site.supplyAirK = 273.15 + 35;
    const thermal::ThermalResult warm = thermal::computeThermal(hot);
    CHECK(first(warm).inletK > first(base).inletK + 7.5); // supply 8 K warmer
    CHECK(first(warm).fanSpeed >= first(base).fanSpeed);
    CHECK(first(warm).gpuJunctionK >= first(base).gpuJunctionK);

    // Two failed rotors: Grand Teton runs every fan flat out [G8], yet the chassis moves less air
    // than it would with all rotors at full speed.
    core::Design failed = hot;
    failed.scenario.failedRotors = 2;
    const thermal::ThermalResult f = thermal::computeThermal(failed);
    CHECK(first(f).fanSpeed == 1.0);
    CHECK(first(f).airflowM3s < first(warm).airflowM3s);
    CHECK(first(f).gpuJunctionK > first(warm).gpuJunctionK);

    // Altitude: the fans move the same volume, less mass, so the air heats up more.
    core::Design high = hot;
    high.site.altitudeM = 1800;
    const thermal::ThermalResult h = thermal::computeThermal(high);
    CHECK(h.densityKgM3 < 0.82 * warm.densityKgM3);
    CHECK(first(h).exhaustK - first(h).inletK > first(warm).exhaustK - first(warm).inletK);
}

TEST_CASE("a row short of cooling air recirculates hot air into the cold aisle", "[thermal][room]")
{
    core::Design d = design("single-rack.yaml");
    d.site.supplyFlowRatio = 0.8;
    const thermal::ThermalResult t = thermal::computeThermal(d);
    const thermal::RowThermal& row = t.rows[0];
    CHECK(row.coldAisleK > row.supplyK + 1.0);
    // 20 % of the intake comes from the hot aisle.
    CHECK(row.coldAisleK == Approx(0.8 * row.supplyK + 0.2 * row.hotAisleK).epsilon(1e-9));
    CHECK(row.rti > 100.0); // net recirculation
    CHECK(row.shi > 0.1);
    d.site.supplyFlowRatio = 1.3;
    const thermal::RowThermal bypass = thermal::computeThermal(d).rows[0];
    CHECK(bypass.rti < 100.0); // net bypass
    CHECK(bypass.coldAisleK == Approx(bypass.supplyK));
}

TEST_CASE("every chassis and row of the 24,576-GPU example", "[thermal]")
{
    const thermal::ThermalResult t = thermal::computeThermal(design("meta-24k-roce.yaml"));
    std::size_t chassis = 0;
    for (const auto& r : t.racks)
        chassis += r.chassis.size();
    CHECK(chassis == 3072);
    CHECK(t.rows.size() == 96);
    CHECK(t.racks[1535].chassis[1].id == "dc1/pod8/row12/rack16/gt1");
    CHECK(t.throttledChassis == 0);
}

TEST_CASE("a chassis with heat and no fan curve is bad input", "[thermal][bad-input]")
{
    const std::string text = R"(
catalog: [power-parts]
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-600a, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw}, {ou: 3, part: test-sled, id: s}]}]}]}]}
)";
    const core::Design d =
        core::loadDesignText(text, RDT_SOURCE_DIR "/tests/fixtures/x.yaml", test::kDataDir + "/catalog");
    CHECK_THROWS_WITH(thermal::computeThermal(d), Catch::Matchers::Contains("has no air path"));
    CHECK_THROWS_AS(thermal::computeThermal(d), core::InputError);
}

TEST_CASE("missing blanking panels let exhaust back to the front through the empty OU", "[thermal][blanking]")
{
    // The single-rack example (44 OU, 24 filled) with its 20 empty OU open (`blanking: missing`):
    // each a 537 mm × 48 mm sharp-edged opening (Cd 0.6) instead of a blanked panel's 1e-3 m²
    // leak. The rear-to-front flow grows by more than 10×, the chassis draw warmer air than the
    // front door brings, and fan control answers with more speed; the front door draws less.
    // The energy balance still holds (m·cp·ΔT = P per chassis).
    const core::Design blanked = design("single-rack.yaml");
    core::Design open = blanked;
    open.racks.front().blankingMissing = true;
    const thermal::ThermalResult a = thermal::computeThermal(blanked), b = thermal::computeThermal(open);
    const thermal::RackThermal &ra = a.racks.front(), &rb = b.racks.front();
    INFO("leak " << ra.leakM3s << " -> " << rb.leakM3s << " m3/s, front " << ra.frontK - 273.15 << " -> "
                 << rb.frontK - 273.15 << " degC, door " << ra.doorFlowM3s << " -> " << rb.doorFlowM3s);
    CHECK(rb.leakM3s > 10.0 * ra.leakM3s);
    CHECK(rb.frontK > ra.frontK + 0.5);
    CHECK(rb.doorFlowM3s < ra.doorFlowM3s);
    for (std::size_t c = 0; c < rb.chassis.size(); ++c) {
        CHECK(rb.chassis[c].inletK > ra.chassis[c].inletK);
        CHECK(rb.chassis[c].fanSpeed >= ra.chassis[c].fanSpeed);
        const double rho = b.densityKgM3, cp = 1006.0;
        CHECK(rho * rb.chassis[c].airflowM3s * cp * (rb.chassis[c].exhaustK - rb.chassis[c].inletK) ==
              Approx(rb.chassis[c].heatW).epsilon(0.01));
    }
    // The key as a design writes it, and a typo refused at its line.
    const std::string text = R"(
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-hpr, blanking: missing, slots: [
  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw}, {ou: 6, part: meta-grand-teton-h100, id: gt}]}]}]}]}
)";
    const core::Design d =
        core::loadDesignText(text, RDT_SOURCE_DIR "/tests/fixtures/x.yaml", test::kDataDir + "/catalog");
    CHECK(d.racks.front().blankingMissing);
    std::string bad = text;
    bad.replace(bad.find("missing"), 7, "absent");
    CHECK_THROWS_WITH(core::loadDesignText(bad, RDT_SOURCE_DIR "/tests/fixtures/x.yaml", test::kDataDir + "/catalog"),
                      Catch::Matchers::Contains("x.yaml:2") && Catch::Matchers::Contains("blanking is installed"));
}
