// Liquid findings of a new-user trial (2026-12-08), each on the code before it a wrong verdict, a
// meaningless figure or a misplaced message: the CDU limit at the loop's own flow judged on the
// modelled heat while the rating took nameplate; "capacity at flow" in gigawatts; a trickle of
// coolant returning at 3,300 degC "holding its setpoint"; trays at part load read as a manifold
// that shares flow badly; a limit printed in fewer digits than the value it refuses; a supply out of
// the coolant's table told at the loop's line; facility water beside liquid-to-air units ignored.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/Pipeline.h"
#include "core/Error.h"
#include "support/RunSubjects.h"
#include "support/TempDir.h"
#include "support/TextEdit.h"

using namespace rdt;
using rdt::test::edited;
using rdt::test::slurp;
using rdt::test::subjects;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";
const std::string kAalc = kRoot + "data/designs/meta-catalina-gb200.yaml";
const std::string kL2l = kRoot + "data/designs/meta-catalina-gb200-l2l.yaml";

analysis::RunResult runText(const std::string& path, const std::string& text, int failedCdus = 0,
                            double facilityDeltaK = 0)
{
    analysis::RunOptions o;
    o.designPath = path;
    o.designText = text;
    o.failedCdus = failedCdus;
    o.facilityWaterDeltaK = facilityDeltaK;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

bool names(const analysis::RunResult& r, const std::string& rule, const std::string& subject)
{
    for (const std::string& s : subjects(r, rule))
        if (s == subject)
            return true;
    return false;
}

/// The 1-based line of the first `needle` in `text`.
int lineOf(const std::string& text, const std::string& needle)
{
    const std::size_t at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

core::InputError refusal(const std::string& path, const std::string& text)
{
    try {
        runText(path, text);
    } catch (const core::InputError& e) {
        return e;
    }
    FAIL("the design was accepted");
    return core::InputError({}, "");
}

} // namespace

TEST_CASE("liquid.cdu.heat judges the loop's own flow on the budget's heat, as it judges the rating", "[liquid]")
{
    // The control asks 3 L/min per kW; with one unit of four lost in each loop the loop runs above the
    // three running units' rated flow, where the same exchangers hold the setpoint for less heat. Warmer
    // air lowers that capacity: find where it crosses the loop's nameplate heat. Just past it the
    // modelled heat is still held (the old rule, judging it, passed) and the rule fails; just before it,
    // it passes.
    const std::string text = edited(slurp(kAalc), {{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 3 L/min/kW"}});
    const auto at = [&](double deltaK) { return runText(kAalc, text, 1, deltaK); };
    const auto short_ = [](const analysis::RunResult& r) {
        const liquid::LoopLiquid& lo = r.liquid->loops.front();
        return lo.capacityAtFlowW < lo.basisHeatW;
    };
    double lo = 0, hi = 12;
    REQUIRE_FALSE(short_(at(lo)));
    REQUIRE(short_(at(hi)));
    for (int i = 0; i < 24; ++i) {
        const double mid = 0.5 * (lo + hi);
        (short_(at(mid)) ? hi : lo) = mid;
    }
    const analysis::RunResult over = at(hi), under = at(lo);
    const liquid::LoopLiquid& loop = over.liquid->loops.front();
    INFO("+" << hi << " K: heat " << loop.heatW << " W modelled, " << loop.basisHeatW << " W at nameplate; capacity "
             << loop.capacityW << " W rated, " << loop.capacityAtFlowW << " W at the loop's flow");
    REQUIRE(loop.flowM3s > loop.ratedFlowM3s);
    REQUIRE(loop.basisHeatW <= loop.capacityW);  // the rating alone passes
    REQUIRE(loop.heatW <= loop.capacityAtFlowW); // and the modelled heat is held: the old rule passed
    CHECK(names(over, "liquid.cdu.heat", loop.id));
    for (const core::Violation& v : over.violations)
        if (v.rule == "liquid.cdu.heat" && v.subject == loop.id) {
            CHECK(v.measured == Approx(loop.basisHeatW / 1e3).epsilon(1e-12));
            CHECK(v.limit == Approx(loop.capacityAtFlowW / 1e3).epsilon(1e-12));
            CHECK_THAT(v.message, Catch::Matchers::Contains("at nameplate"));
        }
    CHECK_FALSE(names(under, "liquid.cdu.heat", under.liquid->loops.front().id));
}

TEST_CASE("capacity at the loop's flow is reported only where it is a limit, never in gigawatts", "[liquid]")
{
    // The liquid-to-liquid example runs its two 1.4 MW units at about half their rated flow: the same UA
    // would "hold" the setpoint for 5 GW with a return near 100,000 degC. Not reported there.
    const analysis::RunResult r = runText(kL2l, slurp(kL2l));
    REQUIRE(r.liquid);
    for (const liquid::LoopLiquid& lo : r.liquid->loops) {
        INFO(lo.id << ": " << lo.flowM3s * 6e4 << " L/min of " << lo.ratedFlowM3s * 6e4 << " rated");
        REQUIRE(lo.flowM3s <= lo.ratedFlowM3s);
        REQUIRE(lo.holdsSetpoint);
        CHECK(std::isnan(lo.capacityAtFlowW));
        CHECK(lo.capacityW < 1e7); // the rating, re-rated: megawatts
    }
}

TEST_CASE("trays at part load beside full ones are not a manifold's flow spread", "[liquid]")
{
    // Every compute tray but ct08 at 50 %: the manifold gives each tray the same flow, so the spread of
    // flow per watt the trays are sized for stays the example's own (it read 51 % on the running heat).
    std::string text = slurp(kAalc);
    for (int t = 0; t < 18; ++t) {
        if (t == 8)
            continue;
        char from[64], to[80];
        std::snprintf(from, sizeof from, "id: ct%02d}", t);
        std::snprintf(to, sizeof to, "id: ct%02d, utilisation: 50 %%}", t);
        text = edited(text, {{from, to}});
    }
    const analysis::RunResult full = runText(kAalc, slurp(kAalc)), part = runText(kAalc, text);
    REQUIRE(part.liquid->racks.size() == full.liquid->racks.size());
    for (std::size_t i = 0; i < part.liquid->racks.size(); ++i) {
        INFO(part.liquid->racks[i].id);
        CHECK(part.liquid->racks[i].spread == Approx(full.liquid->racks[i].spread).margin(0.01));
        CHECK(part.liquid->racks[i].spread < 0.05);
    }
    CHECK(subjects(part, "liquid.tray.spread").empty());
}

TEST_CASE("a GPU junction just over its limit prints the limit in digits that differ", "[liquid]")
{
    // A tray with r_jc and a GPU with a maximum operating temperature (the shipped parts have neither),
    // the limit set 0.0001 K under the hottest junction: "79.20905 degC exceeds 79.21 degC" read as a
    // refusal of a value under its limit.
    test::TempDir dir;
    std::filesystem::create_directories(dir.path + "/parts");
    const auto part = [&](const std::string& limit) {
        std::ofstream(dir.path + "/parts/y-gb200.yaml")
            << edited(slurp(kRoot + "data/catalog/nvidia-gb200-blackwell.yaml"),
                      {{"slug: nvidia-gb200-blackwell", "slug: y-gb200"},
                       {"\n  min_power_cap:",
                        "\n  max_operating_temp: {value: " + limit + " degC, estimate: test}\n  min_power_cap:"}});
    };
    std::ofstream(dir.path + "/parts/y-tray.yaml")
        << edited(slurp(kRoot + "data/catalog/meta-catalina-compute-tray.yaml"),
                  {{"slug: meta-catalina-compute-tray", "slug: y-tray"},
                   {"part: nvidia-gb200-blackwell", "part: y-gb200"},
                   {"\n  liquid:", "\n  thermal:\n    r_jc: {value: 0.01 K/W, estimate: test}\n  liquid:"}});
    std::string text = edited(slurp(kAalc), {{"profile: default\n", "profile: default\ncatalog: [parts]\n"}});
    test::replaceAll(text, "part: meta-catalina-compute-tray", "part: y-tray");
    const std::string path = dir.path + "/design.yaml";
    part("120");
    const analysis::RunResult cool = runText(path, text);
    double hottest = 0;
    for (const liquid::TrayLiquid& t : cool.liquid->trays)
        hottest = std::max(hottest, t.junctionC);
    REQUIRE(hottest > 60);
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.4f", hottest - 1e-4);
    part(limit);
    const analysis::RunResult r = runText(path, text);
    int seen = 0;
    for (const core::Violation& v : r.violations)
        if (v.rule == "liquid.gpu.junction") {
            ++seen;
            INFO(v.message);
            const std::size_t j = v.message.find("GPU junction "), e = v.message.find(") exceeds ");
            REQUIRE(j != std::string::npos);
            REQUIRE(e != std::string::npos);
            const std::string measured = v.message.substr(j + 13, v.message.find(" degC", j) - j - 13);
            const std::string judged = v.message.substr(e + 10, v.message.find(" degC", e) - e - 10);
            CHECK(measured != judged);
            CHECK(std::stod(judged) == Approx(hottest - 1e-4).margin(5e-5));
        }
    CHECK(seen > 0);
}

TEST_CASE("a loop that moves a trickle is refused as past boiling, not reported at 3,300 degC", "[liquid]")
{
    test::TempDir dir;
    std::filesystem::create_directories(dir.path + "/parts");
    std::ofstream(dir.path + "/parts/weak.yaml") << edited(
        slurp(kRoot + "data/catalog/meta-catalina-aalc.yaml"),
        {{"slug: meta-catalina-aalc", "slug: weak-aalc"}, {"shutoff: {value: 300 kPa", "shutoff: {value: 0.001 kPa"}});
    std::string text = edited(slurp(kAalc), {{"profile: default\n", "profile: default\ncatalog: [parts]\n"}});
    test::replaceAll(text, "cdu: meta-catalina-aalc", "cdu: weak-aalc");
    const core::InputError e = refusal(dir.path + "/design.yaml", text);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("past boiling") && Catch::Matchers::Contains("pod1-aalc"));
    CHECK(e.loc().line == lineOf(text, "- {id: pod1-aalc"));
    // A control asking too little flow is refused the same way (the search for its pump speed once
    // settled at the boiling edge, 28 L/min for a 22 L/min target and "return 100.0 degC": review).
    const std::string slow = edited(slurp(kAalc), {{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 0.2 L/min/kW"}});
    CHECK_THAT(refusal(kAalc, slow).what(), Catch::Matchers::Contains("past boiling"));
    // A supply that floats because the CDUs are short is judged, not refused: warm air, three of four
    // units lost, the return above 100 degC with ample flow (review: it was refused, blaming the pumps).
    const std::string hot = edited(slurp(kAalc), {{"supply_air: 27 degC", "supply_air: 45 degC"}});
    const analysis::RunResult floated = runText(kAalc, hot, 3, 25);
    const liquid::LoopLiquid& lo = floated.liquid->loops.front();
    INFO("supply " << lo.supplyC << " degC, return " << lo.returnC << " degC at " << lo.flowM3s * 6e4 << " L/min");
    CHECK_FALSE(lo.holdsSetpoint);
    CHECK(lo.returnC > 100);
    CHECK(names(floated, "liquid.cdu.heat", lo.id));
}

TEST_CASE("a supply outside the coolant's table is told at liquid.supply, and facility water with no use is refused",
          "[liquid]")
{
    const std::string warm = edited(slurp(kAalc), {{"supply: 40 degC", "supply: 50.5 degC"}});
    const core::InputError e = refusal(kAalc, warm);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("liquid.supply") && Catch::Matchers::Contains("50.50 degC") &&
                             Catch::Matchers::Contains("20 to 50 degC"));
    CHECK(e.loc().line == lineOf(warm, "supply: 50.5 degC"));
    // The table's edge itself is in it.
    CHECK_NOTHROW(runText(kAalc, edited(slurp(kAalc), {{"supply: 40 degC", "supply: 50 degC"}})));

    const std::string ignored =
        edited(slurp(kAalc), {{"  supply: 40 degC", "  supply: 40 degC\n  facility_water: 25 degC"}});
    const core::InputError f = refusal(kAalc, ignored);
    CHECK_THAT(f.what(), Catch::Matchers::Contains("liquid-to-liquid CDUs only"));
    CHECK(f.loc().line == lineOf(ignored, "facility_water: 25 degC"));
    // Where a loop is liquid-to-liquid it is read (the example).
    CHECK_NOTHROW(runText(kL2l, slurp(kL2l)));
}
