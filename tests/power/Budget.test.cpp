#include <catch2/catch.hpp>

#include <cmath>

#include "models/PowerModels.h"
#include "power/Budget.h"
#include "power/Busbar.h"
#include "support/RuleHarness.h"

using namespace rdt;

namespace {

core::Design load(const std::string& text)
{
    return core::loadDesignText(text, RDT_SOURCE_DIR "/tests/fixtures/hand.yaml", test::kDataDir + "/catalog");
}

/// One ORv3 standard rack: a 6 × 3 kW shelf at OU 1, a BBU shelf at OU 2, two 2–6 kW test sleds at 50 %.
const char* kHandRack = R"(
catalog: [power-parts]
power: {basis: modelled}
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-standard, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw, id: psu},
  {ou: 2, part: orv3-bbu-shelf-6x3kw, id: bbu},
  {ou: 3, part: test-sled, id: s1, utilisation: 50 %},
  {ou: 10, part: test-sled, id: s2, utilisation: 50 %}]}]}]}]}
)";

} // namespace

TEST_CASE("a rack checked on paper: two 4 kW sleds on one 6 × 3 kW shelf", "[power][hand]")
{
    const core::Design d = load(kHandRack);
    const power::RackPower r = power::rackPower(d, 0);
    CHECK(r.itLoadW == Approx(8000.0)); // 2 × (2 + 0.5 × (6 − 2)) kW
    CHECK(r.capacityNW == Approx(18000.0));
    CHECK(r.capacityN1W == Approx(15000.0));
    CHECK(r.capacityShelfLossW == Approx(0.0));
    CHECK(std::isnan(r.capacityFeedLossW)); // no feeds declared
    CHECK(r.fits);
    // Each rectifier carries 8/18 = 44.4 %: between 30 % (96.5 %) and 50 % (97.5 %) on the curve.
    REQUIRE(r.shelves.size() == 1);
    CHECK(r.shelves[0].loadFraction == Approx(8.0 / 18.0));
    const double eff = 0.965 + (8.0 / 18.0 - 0.3) / 0.2 * 0.010;
    CHECK(r.shelves[0].efficiency == Approx(eff).epsilon(1e-12));
    CHECK(r.acInputW == Approx(8000.0 / eff).epsilon(1e-12));
    CHECK(r.psuLossW == Approx(8000.0 / eff - 8000.0).epsilon(1e-9));
    // Balanced three-phase, 277 V line to neutral, two whips per shelf.
    CHECK(r.acPhaseCurrentA == Approx(8000.0 / eff / (3 * 277.0)).epsilon(1e-12));
    CHECK(r.whipCurrentA == Approx(r.acPhaseCurrentA / 2));
    // Busbar current at the 45 V minimum, and battery seconds from 18 kW × 90 s = 1.62 MJ.
    CHECK(r.busbarCurrentA == Approx(8000.0 / 45.0));
    CHECK(r.bbuEnergyJ == Approx(1.62e6));
    CHECK(r.bbuHoldupS == Approx(202.5));
    CHECK(std::isnan(r.gpuCapToFitW));
}

TEST_CASE("busbar drop: the ladder from the shelf to each sled", "[power][hand][busbar]")
{
    const core::Design d = load(kHandRack);
    const power::RackPower r = power::rackPower(d, 0);
    REQUIRE(r.loads.size() == 2);
    // Hand solution: shelf 50 V with 0.5 V droop at 360 A (1.389 mΩ) at z = 24 mm; sleds of 4 kW at
    // z = 144 mm and 480 mm; bar 0.14 mΩ/m. Fixed point on V1, V2 with I = P / V.
    const double rd = 0.5 / (18000.0 / 50.0), r01 = 0.14e-3 * 0.120, r12 = 0.14e-3 * 0.336;
    double v1 = 50, v2 = 50;
    for (int i = 0; i < 200; ++i) {
        const double i1 = 4000 / v1, i2 = 4000 / v2;
        const double v0 = 50 - rd * (i1 + i2);
        v1 = v0 - r01 * (i1 + i2);
        v2 = v1 - r12 * i2;
    }
    CHECK(r.loads[0].voltageV == Approx(v1).epsilon(1e-9));
    CHECK(r.loads[1].voltageV == Approx(v2).epsilon(1e-9));
    CHECK(r.lowestVoltageV == Approx(v2).epsilon(1e-9));
    CHECK(v1 - v2 == Approx(r12 * 4000 / v2).epsilon(1e-6));
}

TEST_CASE("busbar solver against the closed form for one load", "[power][busbar]")
{
    // V = (Vs + √(Vs² − 4RP)) / 2 for a constant-power load behind a resistance R.
    const double vs = 50, rd = 0.002, rbar = 0.5e-3, len = 1.0, p = 20000;
    const power::BusSolution s = power::solveBusbar({{0.0, vs, rd}}, {{len, p}}, rbar);
    REQUIRE(s.converged);
    const double rtot = rd + rbar * len;
    CHECK(s.loadVoltageV[0] == Approx((vs + std::sqrt(vs * vs - 4 * rtot * p)) / 2).epsilon(1e-10));
    CHECK(s.sourceCurrentA[0] == Approx(s.loadCurrentA[0]).epsilon(1e-9)); // Kirchhoff: all current from the shelf
    // Beyond Vs² / 4R the bar cannot deliver: voltage collapse, reported, not a number.
    const power::BusSolution collapse = power::solveBusbar({{0.0, vs, rd}}, {{len, vs * vs / (4 * rtot) * 1.2}}, rbar);
    CHECK_FALSE(collapse.converged);
}

TEST_CASE("energy is conserved: AC in = IT load + PSU losses", "[power][conservation]")
{
    for (const char* name : {"meta-24k-roce.yaml", "meta-24k-ib.yaml", "single-rack.yaml", "tight-rack.yaml"}) {
        INFO(name);
        const core::Design d = core::loadDesign(test::kDataDir + "/designs/" + name, test::kDataDir + "/catalog");
        const power::PowerResult p = power::computePower(d);
        CHECK(p.cluster.acInputW == Approx(p.cluster.itLoadW + p.cluster.psuLossW).epsilon(1e-9));
        for (const power::RackPower& r : p.racks) {
            double out = 0, in = 0;
            for (const auto& s : r.shelves) {
                out += s.outputW;
                in += s.inputW;
            }
            CHECK(out == Approx(r.itLoadW).epsilon(1e-12));
            CHECK(in == Approx(r.acInputW).epsilon(1e-12));
        }
    }
}

TEST_CASE("more load never raises hold-up time", "[power][monotone]")
{
    double lastLoad = 0, lastHoldup = INFINITY;
    for (int pct = 0; pct <= 100; pct += 5) {
        const std::string text = R"(
catalog: [power-parts]
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-600a, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw}, {ou: 2, part: orv3-power-shelf-6x3kw}, {ou: 3, part: orv3-bbu-shelf-6x3kw},
  {ou: 4, part: test-sled, utilisation: )" +
                                 std::to_string(pct) + R"( %},
  {ou: 6, part: test-sled, utilisation: )" +
                                 std::to_string(pct) + R"( %},
  {ou: 8, part: test-sled, utilisation: )" +
                                 std::to_string(pct) + R"( %}]}]}]}]}
)";
        const power::RackPower r = power::rackPower(load(text), 0);
        CHECK(r.itLoadW >= lastLoad);
        CHECK(r.bbuHoldupS <= lastHoldup);
        lastLoad = r.itLoadW;
        lastHoldup = r.bbuHoldupS;
    }
    // 3 sleds at 6 kW are exactly the BBU shelf's 18 kW: 90 s, the rating point of [R5].
    CHECK(lastHoldup == Approx(90.0));
}

TEST_CASE("the tight rack fails N+1 and the suggested cap makes it fit", "[power][cap]")
{
    const core::Design d = core::loadDesign(test::kDataDir + "/designs/tight-rack.yaml", test::kDataDir + "/catalog");
    const power::PowerResult p = power::computePower(d);
    const power::RackPower& r = p.racks[0];
    CHECK_FALSE(r.fits);
    CHECK(r.usableW == Approx(15000.0)); // N+1 (15 kW) binds before the bar (375 A × 45 V = 16.9 kW)
    REQUIRE(r.capCanFit);
    CHECK(r.gpuCapToFitW > 200.0);
    CHECK(r.gpuCapToFitW < 700.0);
    CHECK(p.suggestedGpuCapW == Approx(r.gpuCapToFitW));
    // Apply the cap: the rack fits; one watt more per GPU and it does not.
    auto withCap = [&](double cap) {
        core::Design capped = d;
        for (core::Slot& s : capped.racks[0].slots)
            if (s.part->kind == core::PartKind::Chassis)
                s.overrides.gpuPowerCapW = cap;
        return power::rackPower(capped, 0).itLoadW;
    };
    CHECK(withCap(r.gpuCapToFitW) <= 15000.0);
    CHECK(withCap(r.gpuCapToFitW + 1.0) > 15000.0);
}

TEST_CASE("feed loss and shelf loss with A/B shelves", "[power]")
{
    const core::Design d =
        core::loadDesign(RDT_SOURCE_DIR "/tests/fixtures/signoff/gt-600a-feeds.yaml", test::kDataDir + "/catalog");
    const power::RackPower r = power::rackPower(d, 0);
    CHECK(r.capacityNW == Approx(36000.0));
    CHECK(r.capacityN1W == Approx(33000.0));
    CHECK(r.capacityShelfLossW == Approx(18000.0));
    CHECK(r.capacityFeedLossW == Approx(18000.0));
    // With feed A lost, shelf B carries everything: twice the phase current.
    CHECK(r.acPhaseCurrentFeedLossA > 1.9 * r.acPhaseCurrentA);
}

TEST_CASE("racks sharing a template get the budget of a direct computation", "[power]")
{
    const core::Design d =
        core::loadDesign(test::kDataDir + "/designs/meta-24k-roce.yaml", test::kDataDir + "/catalog");
    const power::PowerResult all = power::computePower(d);
    for (std::size_t i : {std::size_t{1}, std::size_t{777}, std::size_t{1535}}) {
        const power::RackPower direct = power::rackPower(d, i);
        const power::RackPower& shared = all.racks[i];
        CHECK(shared.id == direct.id);
        CHECK(shared.itLoadW == direct.itLoadW);
        CHECK(shared.lowestVoltageV == direct.lowestVoltageV);
        CHECK(shared.acInputW == direct.acInputW);
        REQUIRE(shared.loads.size() == direct.loads.size());
        CHECK(shared.loads[1].id == direct.loads[1].id);
        CHECK(shared.shelves[0].id == direct.shelves[0].id);
    }
    CHECK(all.cluster.racks == 1536);
    CHECK(all.pods.size() == 8);
    CHECK(all.pods[0].itLoadW == Approx(all.cluster.itLoadW / 8).epsilon(1e-12));
}

TEST_CASE("feed capacity: each feed against its circuit, healthy and with the other feed lost", "[power][hand]")
{
    // The hand rack on two shelves, A and B: 8 kW shared 4 + 4 kW, or 8 kW on one when a feed is lost.
    const core::Design d = load(R"(
catalog: [power-parts]
power: {basis: modelled}
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-standard,
  feeds: {A: 9 kW, B: {value: 20 kW, source: "panel 2 circuit 14"}}, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw, id: psu-a, feed: A},
  {ou: 2, part: orv3-power-shelf-6x3kw, id: psu-b, feed: B},
  {ou: 3, part: orv3-bbu-shelf-6x3kw, id: bbu},
  {ou: 4, part: test-sled, id: s1, utilisation: 50 %},
  {ou: 10, part: test-sled, id: s2, utilisation: 50 %}]}]}]}]}
)");
    const power::RackPower r = power::rackPower(d, 0);
    REQUIRE(r.feeds.size() == 2);
    const core::Curve* c = d.catalog->find("orv3-power-shelf-6x3kw")->curve("efficiency_curve");
    const models::EfficiencyCurve eff =
        c ? models::EfficiencyCurve(c->points)
          : models::EfficiencyCurve::constant(
                d.catalog->find("orv3-power-shelf-6x3kw")->value("efficiency_full_load", 1.0));
    const double healthy = 4000.0 / eff.at(4000.0 / 18000.0), alone = 8000.0 / eff.at(8000.0 / 18000.0);
    CHECK(r.feeds[0].inputW == Approx(healthy).epsilon(1e-9));
    CHECK(r.feeds[0].worstW == Approx(alone).epsilon(1e-9));
    CHECK(r.feeds[1].worstW == Approx(alone).epsilon(1e-9));
    CHECK(r.feeds[1].availableW == 20000.0);
    // 8.2 kW or so on feed A alone is within 9 kW: it fits; a 8 kW feed A does not.
    CHECK(alone < 9000.0);
    CHECK_FALSE(r.fails("power.feed.capacity"));
    std::string tight = d.text;
    tight.replace(tight.find("A: 9 kW"), 7, "A: 8 kW");
    const power::RackPower t = power::rackPower(load(tight), 0);
    CHECK(t.fails("power.feed.capacity"));
    CHECK_FALSE(t.fits);
    CHECK(std::isnan(t.gpuCapToFitW)); // test sleds have no GPUs to cap
}

TEST_CASE("rack feeds are checked against the shelves' feed: at load", "[power][bad-input]")
{
    auto error = [&](const std::string& feeds, const std::string& shelfB) {
        try {
            load("catalog: [power-parts]\nlayout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: "
                 "orv3-standard, feeds: " +
                 feeds +
                 ", slots: [{ou: 1, part: orv3-power-shelf-6x3kw, id: psu-a, feed: A}, {ou: 2, part: "
                 "orv3-power-shelf-6x3kw, id: psu-b" +
                 shelfB + "}]}]}]}]}\n");
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error("{A: 9 kW, C: 9 kW}", ", feed: B"), Catch::Matchers::Contains("feeds are A and B"));
    CHECK_THAT(error("{A: 9 kW}", ""), Catch::Matchers::Contains("shelf psu-b names no feed"));
    // Feed B declared, psu-b on none: the shelf meant is named (trust trial, 2026-12-07).
    CHECK_THAT(error("{A: 9 kW, B: 9 kW}", ""),
               Catch::Matchers::Contains("feed B is declared but no power shelf of this rack is on it (feed: B); "
                                         "psu-b names no feed"));
    CHECK_THAT(error("{A: 9 kW}", ", feed: B"),
               Catch::Matchers::Contains("shelf psu-b is on feed B, which feeds: does not declare"));
    CHECK_THAT(error("{A: 9 kW, B: -3 kW}", ", feed: B"), Catch::Matchers::Contains("feeds.B"));
    CHECK_THAT(error("{A: 9, B: 9 kW}", ", feed: B"),
               Catch::Matchers::Contains("feeds.A") && Catch::Matchers::Contains("unit"));
    CHECK(error("{A: 9 kW, B: 9 kW}", ", feed: B") == "no error");
}

TEST_CASE("a busbar-fed part with no power figure is not checked, not counted as 0 W in silence", "[power][bad]")
{
    // Until 2026-12-06 such a part was budgeted at 0 W with no note: a rack 1 W under its limit
    // passed whatever the switch draws.
    const core::Design d = load(R"(
catalog: [power-parts]
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-standard, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw, id: psu},
  {ou: 3, part: test-sled, id: s1},
  {ou: 10, part: test-unpowered-switch, id: sw}]}]}]}]}
)");
    const power::RackPower r = power::rackPower(d, 0);
    bool said = false;
    for (const std::string& n : r.notes)
        said = said || n.find("test-unpowered-switch has no power.max or power.idle: its draw is not known") !=
                           std::string::npos;
    CHECK(said);
    // A part with its figures gets no such note.
    for (const std::string& n : r.notes)
        CHECK(n.find("test-sled has no power") == std::string::npos);
}

TEST_CASE("a battery shelf's busbar clip carries its share of the rack with the AC lost", "[power][clip]")
{
    // One HPR battery shelf (33 kW) behind three HPR power shelves; six 2-6 kW sleds at the
    // modelled basis. With the AC lost the battery carries the rack through its own 700 A clip:
    // 6 x (2 + 4 x 0.82) kW = 31.68 kW / 45 V = 704 A, over; at 0.81, 31.44 kW = 698.7 A, within.
    // Until 2026-12-06 battery clips were never checked.
    const auto rack = [](const char* util) {
        std::string slots;
        for (int i = 0; i < 6; ++i)
            slots += ",\n  {ou: " + std::to_string(5 + 3 * i) + ", part: test-sled, id: s" + std::to_string(i) +
                     ", utilisation: " + util + "}";
        return load(std::string("catalog: [power-parts]\npower: {basis: modelled}\n"
                                "layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-hpr, "
                                "slots: [\n"
                                "  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu1},\n"
                                "  {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu2},\n"
                                "  {ou: 3, part: orv3-hpr-power-shelf-6x5p5kw, id: psu3},\n"
                                "  {ou: 4, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu}") +
                    slots + "]}]}]}]}\n");
    };
    const auto bbuClip = [](const power::RackPower& r) {
        for (const power::ClipCurrent& c : r.clips)
            if (c.id == "h/r/k/bbu")
                return c;
        FAIL("no clip for the battery shelf");
        return power::ClipCurrent{};
    };
    const power::RackPower over = power::rackPower(rack("82 %"), 0);
    CHECK(over.itLoadW == Approx(31680.0));
    const power::ClipCurrent c = bbuClip(over);
    CHECK(c.currentA == Approx(31680.0 / 45.0));
    CHECK(c.lostFeed == "all");
    CHECK(over.maxClipCurrentA == Approx(31680.0 / 45.0));
    CHECK(over.maxClipCurrentNormalA < 700.0); // with the AC up every clip is well within
    CHECK(over.fails("orv3.busbar.current"));
    const power::RackPower under = power::rackPower(rack("81 %"), 0);
    CHECK(bbuClip(under).currentA == Approx(31440.0 / 45.0));
    CHECK_FALSE(under.fails("orv3.busbar.current"));
}

TEST_CASE("battery hold-up: shelves share the load by their ratings, each until its own energy is spent",
          "[power][hand][holdup]")
{
    // Trust trial (2026-12-07): the hold-up was the shelves' pooled energy over the load. A 33 kW
    // shelf holding 60 s at rating (1.98 MJ) beside an 18 kW one holding 90 s (1.62 MJ) share P as
    // 33 : 18; the first is empty after 1.98 MJ / (P x 33/51), and above 18 kW the second cannot
    // carry the rack alone: at 38 kW 80.5 s, where the pooled 3.6 MJ / 38 kW read 94.7 s and a 90 s
    // ride-through passed. 90 s exactly at P = 1.98 MJ x 51 / (33 x 90 s) = 34 kW.
    const auto rack = [](const std::string& utilisation) {
        std::string sleds;
        for (int i = 0; i < 8; ++i)
            sleds += ",\n  {ou: " + std::to_string(10 + 2 * i) + ", part: test-sled, id: s" + std::to_string(i) +
                     ", utilisation: " + utilisation + "}";
        return load(R"(
catalog: [power-parts]
power: {basis: modelled}
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-hpr, slots: [
  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a}, {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b},
  {ou: 3, part: test-bbu-short, id: bbu-a}, {ou: 4, part: orv3-bbu-shelf-6x3kw, id: bbu-b})" +
                    sleds + "]}]}]}]}\n");
    };
    const double joules = 1.98e6, share = 33.0 / 51.0;
    struct Case {
        const char* utilisation; // 8 sleds of 2 + 4 u kW
        double loadW;
    };
    for (const Case c : {Case{"68.75 %", 38000.0}, Case{"56.5625 %", 34100.0}, Case{"55.9375 %", 33900.0}}) {
        CAPTURE(c.utilisation);
        const power::RackPower r = power::rackPower(rack(c.utilisation), 0);
        REQUIRE(r.itLoadW == Approx(c.loadW).epsilon(1e-12));
        REQUIRE(r.bbus.size() == 2);
        CHECK(r.bbuEnergyJ == Approx(3.6e6));
        CHECK(r.bbuHoldupS == Approx(joules / (c.loadW * share)).epsilon(1e-9));
        CHECK(r.bbuHoldupS < r.bbuEnergyJ / r.itLoadW); // energy left in bbu-b it cannot deliver
        CHECK(r.fails("orv3.bbu.holdup") == (c.loadW > 34000.0)); // just either side of 90 s
        CHECK(power::firstEmptyBbu(r.bbus, r.itLoadW) == "h/r/k/bbu-a");
        // The load the batteries carry for the 90 s: what the cap advice brings the rack to.
        CHECK(power::bbuLoadForHoldup(r.bbus, 90.0) == Approx(34000.0).epsilon(1e-6));
    }
    // Up to 18 kW the second shelf carries the rack alone once the first is empty: every joule counts.
    const std::vector<power::BbuShelf> two{{"a", 33000.0, 1.98e6}, {"b", 18000.0, 1.62e6}};
    CHECK(power::bbuHoldupSeconds(two, 18000.0) == Approx(3.6e6 / 18000.0).epsilon(1e-12));
    CHECK(power::bbuHoldupSeconds(two, 51000.0) == Approx(1.98e6 / 33000.0).epsilon(1e-12)); // both at rating
    CHECK(power::bbuHoldupSeconds(two, 51001.0) == 0.0); // beyond their discharge rating
    CHECK(std::isnan(power::bbuHoldupSeconds(two, NAN))); // no load known: no hold-up, not an infinite one
    // A profile asking no ride-through (ride_through: 0 s) leaves the discharge rating as the only limit.
    CHECK(power::bbuLoadForHoldup(two, 0.0) == 51000.0);
    // Shelves holding their ratings equally long (the catalog's 90 s) give the pooled figure.
    const std::vector<power::BbuShelf> even{{"a", 33000.0, 2.97e6}, {"b", 18000.0, 1.62e6}};
    CHECK(power::bbuHoldupSeconds(even, 40000.0) == Approx(4.59e6 / 40000.0).epsilon(1e-12));
}

TEST_CASE("a chassis with GPUs but no breakdown: its GPUs draw their catalog figure, the rest is not known",
          "[power][bad]")
{
    // It read gpu_W 0 beside the thermal section's 700 W a GPU, and cpu, NIC, fan and base at 0 W, where
    // nothing is known of them (trust trial): the power swing model then added the GPUs on top of the
    // whole idle…max line.
    const core::Design d = load(R"(
catalog: [power-parts]
layout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, rack_type: orv3-standard, slots: [
  {ou: 1, part: orv3-power-shelf-6x3kw, id: psu},
  {ou: 3, part: test-gpu-sled, id: g}]}]}]}]}
)");
    const power::RackPower r = power::rackPower(d, 0);
    const power::PartPower* g = nullptr;
    for (const power::PartPower& p : r.parts)
        if (p.part == "test-gpu-sled")
            g = &p;
    REQUIRE(g);
    CHECK(g->modelledW == Approx(9000.0));
    CHECK(g->gpuW == Approx(8 * 700.0)); // the H100 SXM5's TDP, eight of them
    CHECK(std::isnan(g->cpuW));
    CHECK(std::isnan(g->fanW));
    CHECK(std::isnan(g->conversionLossW));
    CHECK(std::isfinite(r.conversionLossW));
}
