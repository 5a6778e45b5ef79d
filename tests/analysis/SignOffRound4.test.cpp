// Verdicts you can sign, round four (2026-12-06): each defect a new-user trial found in the liquid
// loops, the power caps and the throughput has a test here that failed on the code before the fix,
// with the hand calculation behind each number.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "analysis/Pipeline.h"
#include "cli/TextOutput.h"
#include "core/Error.h"
#include "liquid/LiquidDesign.h"
#include "power/Budget.h"
#include "support/RunSubjects.h"
#include "support/TextEdit.h"
#include "thermal/Thermal.h"

using namespace rdt;
namespace fs = std::filesystem;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";
const std::string kCatalina = kRoot + "data/designs/meta-catalina-gb200.yaml";

using test::edited;
using test::slurp;

analysis::RunResult run(const std::string& path, const std::string& text, analysis::RunOptions o = {})
{
    o.designPath = path;
    o.designText = text;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

/// The Catalina example with pod1's loop on `unit`, a copy of the shipped AALC unit with `edits`
/// (written beside the design, as a user's own part), run with `o`.
analysis::RunResult withUnit(const std::vector<std::pair<std::string, std::string>>& edits, analysis::RunOptions o = {})
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-signoff4-" + std::to_string(::getpid()));
    fs::create_directories(dir / "parts");
    std::vector<std::pair<std::string, std::string>> all = {{"slug: meta-catalina-aalc", "slug: x-aalc"}};
    all.insert(all.end(), edits.begin(), edits.end());
    std::ofstream(dir / "parts" / "x-aalc.yaml") << edited(slurp(kRoot + "data/catalog/meta-catalina-aalc.yaml"), all);
    const std::string text =
        edited(slurp(kCatalina), {{"profile: default\n", "profile: default\ncatalog: [parts]\n"},
                                  {"{id: pod1-aalc, cdu: meta-catalina-aalc", "{id: pod1-aalc, cdu: x-aalc"}});
    analysis::RunResult r = run((dir / "unit.yaml").string(), text, o);
    fs::remove_all(dir);
    return r;
}

using test::subjects;

} // namespace

TEST_CASE("liquid pressures are gauge: a tray port lies between the fill pressure and the pumps' outlet",
          "[liquid][signoff]")
{
    // Until 2026-12-06 the loop's reference node held one atmosphere (101.3 kPa absolute) and the
    // fill pressure was added on top, so every port and manifold figure called "gauge" was 101.3 kPa
    // high: at a 250 kPa fill every tray "failed" the connectors' 50 psi (344.7 kPa) at 383.9 kPa,
    // downstream of pumps whose outlet was 300.8 kPa. A port downstream of the pumps can be no higher
    // than their outlet (fill + rise) and no lower than the fill at their suction.
    for (const char* fill : {"70 kPa", "250 kPa"}) {
        INFO("fill " << fill);
        const analysis::RunResult r = run(
            kCatalina, edited(slurp(kCatalina), {{"fill_pressure: 70 kPa", std::string("fill_pressure: ") + fill}}));
        REQUIRE(r.liquid);
        const double fillPa = std::stod(fill) * 1e3;
        REQUIRE(!r.liquid->racks.empty());
        for (const liquid::RackLiquid& rack : r.liquid->racks) {
            const liquid::LoopLiquid& loop = r.liquid->loops.at(static_cast<std::size_t>(rack.loop));
            CHECK(rack.connectorBoundPa == Approx(fillPa + loop.sourcePa).epsilon(1e-12));
            CHECK(rack.inletPa <= rack.connectorBoundPa);
            for (int ti : rack.trays) {
                const liquid::TrayLiquid& t = r.liquid->trays.at(static_cast<std::size_t>(ti));
                INFO(t.id << ": supply port " << t.supplyPortPa << " Pa, pumps' outlet " << rack.connectorBoundPa);
                CHECK(t.supplyPortPa > fillPa);
                CHECK(t.supplyPortPa <= rack.connectorBoundPa);
                CHECK(t.returnPortPa >= fillPa - 1.0);
                CHECK(t.returnPortPa < t.supplyPortPa);
            }
        }
        // 250 kPa + the pumps' ~51 kPa rise is within the connectors' 344.7 kPa: no verdict.
        CHECK(subjects(r, "liquid.connector.pressure").empty());
    }
}

TEST_CASE("a liquid-to-air unit's capacity follows the density of the air it moves", "[liquid][signoff]")
{
    // The AALC units' fans move their rated 9,000 CFM of the air they stand in. Until 2026-12-06 that
    // air was 1.2 kg/m³ whatever the site, so at 1,500 m and 30 degC with two of four units failed
    // the loop "held" 110.4 kW with 127.3 kW of capacity. By hand: ISA pressure at 1,500 m is
    // 101,325 × (1 − 0.0065 × 1500 / 288.15)^5.2559 = 84,556 Pa; ρ = 84,556 / (287.05 × 303.15 K)
    // = 0.9717 kg/m³, 19 % below standard air: the air's heat-capacity rate falls by that and the
    // coil's UA by (ρ/1.2)^0.8, and the two units fall short of the loop's heat.
    const std::string text = slurp(kCatalina);
    analysis::RunOptions o;
    o.inletK = 273.15 + 30.0;
    o.failedCdus = 2;
    o.altitudeM = 0.0;
    const analysis::RunResult sea = run(kCatalina, text, o);
    o.altitudeM = 1500.0;
    const analysis::RunResult high = run(kCatalina, text, o);
    REQUIRE(sea.liquid);
    REQUIRE(high.liquid);
    for (std::size_t k = 0; k < high.liquid->loops.size(); ++k) {
        const liquid::LoopLiquid& s = sea.liquid->loops[k];
        const liquid::LoopLiquid& h = high.liquid->loops[k];
        INFO(h.id << ": capacity " << s.capacityW << " W at sea level, " << h.capacityW << " W at 1,500 m; heat "
                  << h.heatW << " W");
        CHECK(s.airDensity == Approx(101325.0 / (287.05 * 303.15)).epsilon(1e-3));
        CHECK(h.airDensity == Approx(0.9717).epsilon(1e-3));
        CHECK(s.capacityW > s.heatW); // two units hold the loop in sea-level air at 30 degC
        CHECK(h.capacityW < h.heatW); // not in the thinner air at 1,500 m
        CHECK_FALSE(h.holdsSetpoint);
    }
    CHECK(subjects(sea, "liquid.cdu.heat").empty());
    CHECK(subjects(high, "liquid.cdu.heat") == std::vector<std::string>{"pod1-aalc", "pod2-aalc"});
}

TEST_CASE("a loop held at its own flow but beyond its units' rated capacity says so on its line", "[liquid][signoff]")
{
    // Four 20 kW AALC units (the shipped unit with its rating cut from 70 kW) on pod1: 92.8 kW of
    // rated capacity for 110.4 kW. At the loop's 177 L/min, below the units' rated flow, the same
    // UA still holds 40 degC with a hotter return, so the loop line said "supply 40.0 degC" and
    // nothing else while liquid.cdu.heat failed it; now the line carries the verdict too.
    const analysis::RunResult r = withUnit({{"heat: {value: 70 kW", "heat: {value: 20 kW"}});
    REQUIRE(r.liquid);
    const liquid::LoopLiquid& small = r.liquid->loops.at(0);
    REQUIRE(small.cdu == "x-aalc");
    CHECK(small.holdsSetpoint);
    CHECK(small.capacityW < small.heatW);
    CHECK(subjects(r, "liquid.cdu.heat") == std::vector<std::string>{"pod1-aalc"});
    const std::string text1 = cli::liquidSummaryText(*r.liquid);
    const std::string pod1 = text1.substr(0, text1.find('\n')), pod2 = text1.substr(text1.find('\n') + 1);
    CHECK_THAT(pod1,
               Catch::Matchers::Contains("supply 40.0 degC (held at this flow, beyond the units' rated capacity)"));
    CHECK_THAT(pod2, !Catch::Matchers::Contains("rated capacity") && !Catch::Matchers::Contains("capacity short"));
}

TEST_CASE("the CDUs are sized for the heat on the power budget's basis", "[liquid][signoff]")
{
    // Four 24.5 kW units: 113.6 kW of capacity at 27 degC air. The loop runs at the modelled 110.4 kW;
    // on the nameplate basis (the default, what the power budget signs) its trays put in
    // 36 × 3.3 kW × 87 % + 18 × 1.2 kW × 80 % = 120.6 kW. Until 2026-12-06 the CDUs were judged at
    // the modelled draw on every basis and passed a nameplate sign-off.
    const std::vector<std::pair<std::string, std::string>> mid = {{"heat: {value: 70 kW", "heat: {value: 24.5 kW"}};
    const analysis::RunResult nameplate = withUnit(mid);
    analysis::RunOptions o;
    o.powerBasis = core::PowerBasis::Modelled;
    const analysis::RunResult modelled = withUnit(mid, o);
    const liquid::LoopLiquid& n = nameplate.liquid->loops.at(0);
    const liquid::LoopLiquid& m = modelled.liquid->loops.at(0);
    CHECK(n.heatW == Approx(m.heatW).epsilon(1e-12)); // the loop runs at the same draw
    CHECK(n.basisHeatW == Approx(36 * 3300.0 * 0.87 + 18 * 1200.0 * 0.80).epsilon(1e-9));
    CHECK(m.basisHeatW == Approx(m.heatW).epsilon(1e-12));
    CHECK(n.capacityW == Approx(m.capacityW).epsilon(1e-12));
    INFO("capacity " << n.capacityW << " W, modelled heat " << m.heatW << " W, nameplate " << n.basisHeatW << " W");
    CHECK(m.heatW < n.capacityW);
    CHECK(n.basisHeatW > n.capacityW);
    CHECK(subjects(nameplate, "liquid.cdu.heat") == std::vector<std::string>{"pod1-aalc"});
    CHECK(subjects(modelled, "liquid.cdu.heat").empty());
    for (const core::Violation& v : nameplate.violations)
        if (v.rule == "liquid.cdu.heat")
            CHECK_THAT(v.message, Catch::Matchers::Contains("at nameplate (110 kW modelled)"));
}

TEST_CASE("a GPU on a starved cold plate is judged unbounded and throttles, never at full clock", "[liquid][signoff]")
{
    // Compute trays with r_jc 0.02 K/W and a GPU whose maximum operating temperature is 95 degC (the
    // shipped parts have neither: a user's own), and in each rack's ct05 the same tray with a cold-
    // plate loop of 20,000 kPa at its reference flow: it gets 0.21 L/min, each plate 0.10, below the
    // curve's lowest measured 0.4 L/min. Until 2026-12-06 that tray's junction was NaN: no
    // liquid.gpu.junction verdict, not throttled, and the compute line said 1000 TFLOPS (clock 100 %)
    // while a milder blockage that could still be judged throttled. Now it is unbounded: judged beyond
    // 95 degC at ct05 alone, throttled, and the slowest GPU is at clock 0.
    const fs::path dir = fs::temp_directory_path() / ("rdt-signoff4-starved-" + std::to_string(::getpid()));
    fs::create_directories(dir / "parts");
    std::ofstream(dir / "parts" / "x-gb200.yaml")
        << edited(slurp(kRoot + "data/catalog/nvidia-gb200-blackwell.yaml"),
                  {{"slug: nvidia-gb200-blackwell", "slug: x-gb200"},
                   {"\n  min_power_cap:", "\n  max_operating_temp: {value: 95 degC, estimate: test}\n  min_power_cap:"},
                   {"\n    idle: {value: 140 W",
                    "\n    communication: {value: 300 W, estimate: test}\n    idle: {value: 140 W"}});
    const std::string tray = slurp(kRoot + "data/catalog/meta-catalina-compute-tray.yaml");
    const auto trayPart = [&](const std::string& slug, const std::string& loopPressure) {
        std::ofstream(dir / "parts" / (slug + ".yaml"))
            << edited(tray, {{"slug: meta-catalina-compute-tray", "slug: " + slug},
                             {"part: nvidia-gb200-blackwell", "part: x-gb200"},
                             {"pressure: {value: 50 kPa", "pressure: {value: " + loopPressure},
                             {"\n  liquid:", "\n  thermal:\n    r_jc: {value: 0.02 K/W, estimate: test}\n  liquid:"}});
    };
    trayPart("x-tray", "50 kPa");
    trayPart("x-tray-starved", "20000 kPa");
    std::string text = edited(slurp(kCatalina), {{"profile: default\n", "profile: default\ncatalog: [parts]\n"}});
    for (std::size_t at; (at = text.find("part: meta-catalina-compute-tray")) != std::string::npos;)
        text.replace(at, 32, "part: x-tray");
    const std::string healthy = text;
    text = edited(text, {{"{ou: 16, part: x-tray, id: ct05}", "{ou: 16, part: x-tray-starved, id: ct05}"}});
    // With the training job's waveform at `iteration: auto`, the stopped GPUs leave the job no pace,
    // and the reason named is the coolant's, not "no air" (as it said until 2026-12-06).
    text += "workload: " + kRoot +
            "data/workloads/llama3-405b.yaml\n"
            "dynamics:\n  iteration: auto\n  compute_share: 50 %\n  edge: 20 ms\n";
    const analysis::RunResult ok = run((dir / "ok.yaml").string(), healthy);
    const analysis::RunResult r = run((dir / "starved.yaml").string(), text);
    fs::remove_all(dir);
    REQUIRE(r.liquid);
    std::vector<std::string> starved;
    for (const liquid::TrayLiquid& t : r.liquid->trays) {
        INFO(t.id << ": junction " << t.junctionC << " degC");
        if (!t.plateMeasured) {
            starved.push_back(t.id);
            CHECK(std::isinf(t.junctionC));
        } else if (t.gpuW > 0)
            CHECK(std::isfinite(t.junctionC));
    }
    REQUIRE(starved.size() == 4);
    CHECK(starved.front().ends_with("/ct05"));
    CHECK(subjects(r, "liquid.plate.starved") == starved);
    CHECK(subjects(r, "liquid.gpu.junction") == starved);
    CHECK(subjects(ok, "liquid.gpu.junction").empty());
    // The text's hottest case is among the plates measured, and says that two trays' are not known
    // (it named the hottest known case alone: trust trial, 2026-12-08).
    const std::string text1 = cli::liquidSummaryText(*r.liquid);
    CHECK_THAT(text1.substr(0, text1.find('\n')),
               Catch::Matchers::Contains("among measured plates; 2 trays' plates starved, cases not known"));
    CHECK_THAT(cli::liquidSummaryText(*ok.liquid), !Catch::Matchers::Contains("starved"));
    // Throttled where starved, and the throughput's slowest GPU stops.
    int throttled = 0;
    for (const thermal::RackThermal& rt : r.thermal->racks)
        for (const thermal::ChassisThermal& c : rt.chassis)
            throttled += c.throttled ? 1 : 0;
    CHECK(throttled == 4);
    CHECK(r.thermal->throttledChassis == 4);
    REQUIRE(r.throughput);
    REQUIRE(!r.throughput->classes.empty());
    double slowest = 1;
    std::string limitedBy;
    for (const analysis::GpuClass& g : r.throughput->classes)
        if (g.clockRatio < slowest) {
            slowest = g.clockRatio;
            limitedBy = g.limitedBy;
        }
    CHECK(slowest == 0.0);
    CHECK(limitedBy == "thermal");
    for (const std::string& n : r.throughput->notes) // stopped by heat, not held below its static power
        CHECK(n.find("static power") == std::string::npos);
    // A failed fan rotor changes the air, not the coolant: the "rotor failed" case keeps the starved
    // trays' junctions (until 2026-12-06 it re-solved the air alone, the liquid junctions were lost,
    // and the case showed every GPU at full clock, better than as built).
    bool rotorCase = false;
    for (const analysis::FailureCase& f : r.throughput->failureCases)
        if (f.name.starts_with("rotor failed")) {
            rotorCase = true;
            CHECK(f.solved);
            CHECK(f.clockRatio <= slowest);
        }
    CHECK(rotorCase);
    REQUIRE(r.dynamics);
    INFO(r.dynamics->notChecked);
    CHECK(r.dynamics->notChecked.find("/ct05 stop (its cold plates' coolant cannot hold its junction: "
                                      "liquid.gpu.junction)") != std::string::npos);
    for (const analysis::GpuClass& g : ok.throughput->classes)
        CHECK(g.limitedBy != "thermal");
}

TEST_CASE("a GPU capped at or below its clock model's static power is said to have no known clock",
          "[throughput][signoff]")
{
    // GB200: min_power_cap 200 W (the design may cap there), the DVFS placeholder's static power
    // 260 W. At 250 W the model gives clock 0 and the compute line said "0 TFLOPS" as if it were a
    // figure; now a note says the clock is not known. At 270 W (just above) the model has a clock.
    analysis::RunOptions o;
    const auto noted = [&](double capW) {
        o.gpuCapW = capW;
        const analysis::RunResult r = run(kCatalina, slurp(kCatalina), o);
        REQUIRE(r.throughput);
        bool note = false;
        for (const std::string& n : r.throughput->notes)
            note = note || n.find("at or below the clock model's static power 260 W") != std::string::npos;
        double slowest = 1;
        for (const analysis::GpuClass& g : r.throughput->classes)
            slowest = std::min(slowest, g.clockRatio);
        return std::make_pair(note, slowest);
    };
    const auto [at250, clock250] = noted(250.0);
    CHECK(at250);
    CHECK(clock250 == 0.0);
    const auto [at260, clock260] = noted(260.0);
    CHECK(at260); // at the static power itself: still no clock
    CHECK(clock260 == 0.0);
    const auto [at270, clock270] = noted(270.0);
    CHECK_FALSE(at270);
    CHECK(clock270 > 0.0);
}

TEST_CASE("a power figure missing in many racks is named once with how many racks share it", "[power][signoff]")
{
    // GB200 has no peak_power_ratio. The note is reported once (a fleet would repeat it per rack), at
    // the first rack; until 2026-12-06 it named that rack alone, as if the others had the figure.
    const auto message = [](const analysis::RunResult& r) {
        std::vector<std::string> out;
        for (const core::Violation& v : r.violations)
            if (v.rule == "power.figure.missing" && v.message.find("peak_power_ratio") != std::string::npos)
                out.push_back(v.subject + ": " + v.message);
        return out;
    };
    const std::string text = slurp(kCatalina);
    const std::vector<std::string> four = message(run(kCatalina, text));
    REQUIRE(four.size() == 1);
    CHECK_THAT(four[0], Catch::Matchers::StartsWith("cat/pod1/row01/rack01: ") &&
                            Catch::Matchers::EndsWith("(this rack and 3 other racks)"));
    std::string two = text;
    for (std::size_t at; (at = two.find("count: 2, id: \"rack{n:02}\"")) != std::string::npos;)
        two.replace(at, 8, "count: 1");
    const std::vector<std::string> pair = message(run(kCatalina, two));
    REQUIRE(pair.size() == 1);
    CHECK_THAT(pair[0], Catch::Matchers::EndsWith("(this rack and 1 other rack)"));
}

TEST_CASE("a busbar clip over its rating only with a feed lost caps the feed-lost case, not normal operation",
          "[power][throughput][signoff]")
{
    // The single-rack example with a third Grand Teton at OU 30 and no cap on gt1: 32.1 kW on the
    // nameplate basis. Every feed up, each shelf's clip carries half, 357 A of 700 A; with a feed lost
    // the survivor's clip carries all of it, 32.1 kW / 45 V = 713 A: orv3.busbar.current fails (its
    // feed-loss case). Until 2026-12-06 normal operation's clocks were capped for that (clock 98 %,
    // "limited by rack power") and the "feed lost" failure case said every rack kept its clocks.
    const std::string path = kRoot + "data/designs/single-rack.yaml";
    const std::string text =
        edited(slurp(path), {{", gpu_power_cap: 600 W", ""},
                             {"                - {ou: 24, part: meta-minipack2, id: rtsw}\n",
                              "                - {ou: 24, part: meta-minipack2, id: rtsw}\n"
                              "                - {ou: 30, part: meta-grand-teton-h100, id: gt2}\n"}});
    const analysis::RunResult r = run(path, text);
    const power::RackPower& rack = r.power->racks.at(0);
    CHECK(rack.maxClipCurrentA == Approx(32100.0 / 45.0).epsilon(1e-9));
    CHECK(rack.maxClipCurrentNormalA == Approx(32100.0 / 2 / 45.0).epsilon(1e-3));
    CHECK(subjects(r, "orv3.busbar.current").size() == 2); // each shelf's clip, with the other feed lost
    CHECK_FALSE(rack.capNormal.needed);
    for (const analysis::GpuClass& g : r.throughput->classes) {
        CHECK(g.clockRatio == 1.0);
        CHECK(g.limitedBy == "none");
    }
    const analysis::FailureCase* feed = nullptr;
    for (const analysis::FailureCase& c : r.throughput->failureCases)
        if (c.name == "feed lost")
            feed = &c;
    REQUIRE(feed);
    CHECK(feed->racksLimited == 1);
    // The cap that brings the clip to 700 A: 675.75 W (orv3.busbar.current's own advice).
    CHECK(feed->lowestCapW == Approx(rack.capBusbar.capW).margin(0.5));
    CHECK(feed->clockRatio < 1.0);
}

namespace {

/// One Grand Teton rack (16 H100 GPUs) with a `dynamics:` section ending in `extra` lines.
std::string dynamicsRack(const std::string& extra)
{
    return "rdt: 1\nname: dyn\nsite: {altitude: 0 m, supply_air: 25 degC, ashrae_class: A2}\n"
           "dynamics:\n  iteration: 2 s\n  compute_share: 50 %\n  edge: 20 ms\n" +
           extra +
           "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: orv3-hpr, slots: [\n"
           "  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A},\n"
           "  {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B},\n"
           "  {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a}, {ou: 4, part: orv3-hpr-bbu-shelf-6x5p5kw, id: "
           "bbu-b},\n"
           "  {ou: 6, part: meta-grand-teton-h100, id: gt0}, {ou: 15, part: meta-grand-teton-h100, id: gt1}]}]}]}]}\n";
}

} // namespace

TEST_CASE("dynamics: a job count the GPUs cannot hold and a site store without its efficiency are refused",
          "[dynamics][signoff]")
{
    // 32 jobs on 16 GPUs spread the swing over phases no job has: the running swing fell from 9.19 to
    // 3.45 kW and a failing dynamics.grid.voltage passed; 3 jobs on 16 GPUs were accepted too. A
    // site_storage without efficiency was taken as lossless ("0 kJ lost").
    const std::string path = kRoot + "tests/fixtures/signoff/round4-dynamics.yaml";
    for (const char* jobs : {"32", "17", "3"}) {
        INFO("jobs " << jobs);
        try {
            run(path, dynamicsRack(std::string("  jobs: ") + jobs + "\n"));
            FAIL("accepted");
        } catch (const core::InputError& e) {
            CHECK_THAT(e.what(),
                       Catch::Matchers::Contains("round4-dynamics.yaml:8:") &&
                           Catch::Matchers::Contains("16 GPUs do not split into " + std::string(jobs) + " equal jobs"));
        }
    }
    for (const char* jobs : {"1", "2", "4", "16"}) {
        INFO("jobs " << jobs);
        CHECK_NOTHROW(run(path, dynamicsRack(std::string("  jobs: ") + jobs + "\n")));
    }
    try {
        run(path, dynamicsRack("  site_storage: {power: 50 kW, energy: 20 MJ, cutoff: 0.05 Hz}\n"));
        FAIL("accepted");
    } catch (const core::InputError& e) {
        CHECK_THAT(e.what(), Catch::Matchers::Contains("site_storage") && Catch::Matchers::Contains("efficiency"));
    }
    CHECK_NOTHROW(run(path, dynamicsRack("  site_storage: {power: 50 kW, energy: 20 MJ, cutoff: 0.05 Hz, "
                                         "efficiency: 95 %}\n")));
}
