// Verdicts you can sign, round three (2026-12-05): each defect a new-user trial found has a test
// here that failed on the code before the fix, with the hand calculation behind each number.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "analysis/Pipeline.h"
#include "support/RunSubjects.h"
#include "analysis/Sweep.h"
#include <nlohmann/json.hpp>
#include "core/Error.h"
#include "core/Yaml.h"
#include "report/PowerOutput.h"
#include "report/ThermalOutput.h"
#include "signal/LinkAnalysis.h"
#include "room/RoomThermal.h"

using namespace rdt;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";

/// `text` without the catalog line that starts at `key` (a "\n"-led prefix: a field, not a comment).
void dropLine(std::string& text, const std::string& key)
{
    const std::size_t at = text.find(key);
    REQUIRE(at != std::string::npos);
    text.erase(at + 1, text.find('\n', at + 1) - at);
}

analysis::RunResult runText(const std::string& text, double gpuCapW = NAN,
                            core::ThermalModel model = core::ThermalModel::Network)
{
    analysis::RunOptions o;
    o.designPath = kRoot + "tests/fixtures/signoff/round3.yaml";
    o.designText = text;
    o.gpuCapW = gpuCapW;
    o.thermalModel = model;
    core::Progress progress;
    return analysis::run(o, progress);
}

using test::subjects;

/// One HPR rack, shelves on feeds A and B, batteries, `slots` after them (YAML flow items).
std::string rack(const std::string& slots, const std::string& psuB = "feed: B")
{
    return "rdt: 1\nname: round3\nsite: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
           "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: orv3-hpr, slots: [\n"
           "  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A},\n"
           "  {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b" +
           (psuB.empty() ? "" : ", " + psuB) +
           "},\n"
           "  {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a},\n"
           "  {ou: 4, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-b},\n" +
           slots + "]}]}]}]}\n";
}

const std::string kGt = "part: meta-grand-teton-h100";

const thermal::ChassisThermal& chassis(const analysis::RunResult& r, const std::string& id)
{
    for (const thermal::ChassisThermal& c : r.thermal->racks.at(0).chassis)
        if (c.id == "lab/row1/rack1/" + id)
            return c;
    FAIL("no chassis " << id);
    throw 0;
}

} // namespace

TEST_CASE("a chassis with every fan rotor failed is an error, its GPUs stop, the room still carries its heat",
          "[signoff][thermal][throughput]")
{
    // Grand Teton: 8 fans x 4 rotors = 32. With 31 failed the last rotor still moves air forward
    // and the junction rule judges the (very hot) GPUs; with all 32 the network draws the rear's
    // air back through the dead chassis (negative flow): before the fix the junction came out as
    // the inlet (28.5 degC), 0 errors, and throughput counted its 8 GPUs at full clock.
    const std::string others = "  {ou: 15, " + kGt + ", id: gt1},\n  {ou: 24, part: meta-minipack2, id: rtsw}\n";
    const auto dead = runText(rack("  {ou: 6, " + kGt + ", id: gt0, failed_fans: 32},\n" + others));
    const auto one = runText(rack("  {ou: 6, " + kGt + ", id: gt0, failed_fans: 31},\n" + others));
    REQUIRE(dead.thermal);
    REQUIRE(one.thermal);
    const thermal::ChassisThermal& d0 = chassis(dead, "gt0");
    CHECK_FALSE(d0.airflowM3s > 0);
    CHECK(d0.noAirflow);
    CHECK(std::isinf(d0.gpuJunctionK));
    CHECK(d0.throttled);
    CHECK_FALSE(chassis(dead, "gt1").noAirflow);
    CHECK(subjects(dead, "thermal.chassis.airflow") == std::vector<std::string>{"lab/row1/rack1/gt0"});
    CHECK(subjects(dead, "thermal.gpu.junction") == std::vector<std::string>{"lab/row1/rack1/gt0"});
    // Just inside: one rotor left moves air; no airflow error, the junction rule fires on its own.
    const thermal::ChassisThermal& o0 = chassis(one, "gt0");
    CHECK(o0.airflowM3s > 0);
    CHECK_FALSE(o0.noAirflow);
    CHECK(std::isfinite(o0.gpuJunctionK));
    CHECK(subjects(one, "thermal.chassis.airflow").empty());
    CHECK(subjects(one, "thermal.gpu.junction") == std::vector<std::string>{"lab/row1/rack1/gt0"});
    // JSON and HDF5 say it; the junction is null in JSON (not a number), never the inlet.
    const auto j = report::thermalJson(*dead.thermal);
    bool seen = false;
    for (const auto& c : j["chassis"])
        if (c["id"] == "lab/row1/rack1/gt0") {
            seen = true;
            CHECK(c["no_airflow"].get<bool>());
            CHECK(c["throttled"].get<bool>());
            CHECK(c["gpu_junction_max_C"].is_null());
        }
    CHECK(seen);
    // Throughput: the dead chassis' GPUs at no clock, the other chassis' unchanged.
    REQUIRE(dead.throughput);
    REQUIRE(one.throughput);
    double slowest = 1.0;
    for (const analysis::GpuClass& g : dead.throughput->classes)
        slowest = std::min(slowest, g.clockRatio);
    CHECK(slowest == 0.0);
    CHECK(dead.throughput->sustainedPflopsBf16 < 0.55 * dead.throughput->peakPflopsBf16 * dead.throughput->mfu / 0.4);
    // The room field takes the rack (before: an internal error on the negative share), every watt
    // of the rack released into the room.
    const auto field = runText(rack("  {ou: 6, " + kGt + ", id: gt0, failed_fans: 32},\n" + others), NAN,
                               core::ThermalModel::Field);
    REQUIRE(field.thermal);
    CHECK(subjects(field, "thermal.chassis.airflow") == std::vector<std::string>{"lab/row1/rack1/gt0"});
    const room::FieldThermal* f = room::fieldOf(*field.thermal);
    REQUIRE(f);
    CHECK(f->rooms.at(0).heatW == Approx(field.thermal->racks.at(0).heatW).epsilon(1e-3)); // gt0's heat too
    CHECK(f->rooms.at(0).heatOutW == Approx(f->rooms.at(0).heatW).epsilon(1e-3));
}

TEST_CASE("a busbar clip is judged with a feed lost, as the whips are", "[signoff][power]")
{
    // Three Grand Tetons (10.2 kW each at nameplate) and a Minipack2 (1.5 kW): 32.1 kW. Both feeds
    // up, each 33 kW shelf carries half: 16.05 kW / 45 V = 356.7 A per clip, within 700 A. Feed B
    // lost, psu-a carries it all: 32.1 kW / 45 V = 713.3 A > 700 A. Before the fix the rack passed
    // (orv3.feed.loss compares watts only: 32.1 < 33 kW) while `--scenario feed-loss=A` failed.
    const std::string slots = "  {ou: 6, " + kGt + ", id: gt0},\n  {ou: 15, " + kGt + ", id: gt1},\n  {ou: 24, " +
                              kGt + ", id: gt2},\n  {ou: 33, part: meta-minipack2, id: rtsw}\n";
    const auto over = runText(rack(slots));
    REQUIRE(over.power);
    const power::RackPower& p = over.power->racks.at(0);
    CHECK(p.itLoadW == Approx(32100.0));
    CHECK(p.clipRatingA == Approx(700.0));
    int shelves = 0;
    for (const power::ClipCurrent& c : p.clips)
        if (c.id == "lab/row1/rack1/psu-a" || c.id == "lab/row1/rack1/psu-b") {
            ++shelves;
            CHECK(c.currentA == Approx(32100.0 / 45.0).epsilon(1e-9));
            CHECK(c.lostFeed == (c.id == "lab/row1/rack1/psu-a" ? "B" : "A"));
        }
    CHECK(shelves == 2);
    const auto clipped = subjects(over, "orv3.busbar.current");
    CHECK(clipped == std::vector<std::string>{"lab/row1/rack1/psu-a", "lab/row1/rack1/psu-b"});
    bool named = false;
    for (const core::Violation& v : over.violations)
        named = named || (v.rule == "orv3.busbar.current" && v.message.find("with feed B lost") != std::string::npos);
    CHECK(named);
    // JSON says which feed's loss gives the current.
    const auto j = report::powerJson(*over.power);
    for (const auto& c : j["racks"][0]["clips"])
        if (c["id"] == "lab/row1/rack1/psu-a") {
            CHECK(c["feed_lost"] == "B");
            CHECK_FALSE(c["fits"].get<bool>());
        }
    // Just under: GPUs capped at 660 W bring the load under 31.5 kW (700 A x 45 V), so no clip
    // fails even with a feed lost.
    const auto under = runText(rack(slots), 660.0);
    REQUIRE(under.power);
    CHECK(under.power->racks.at(0).itLoadW < 31500.0);
    CHECK(under.power->racks.at(0).itLoadW > 30000.0);
    CHECK(subjects(under, "orv3.busbar.current").empty());
}

TEST_CASE("a shelf on no named feed beside one on feed A is lost with either feed", "[signoff][power]")
{
    // psu-a on feed A, psu-b on none: which feed psu-b hangs on is not known, so each feed-loss
    // case takes it away with the lost feed. Feed A lost: no shelf left, 0 W for a 10.2 kW load.
    // Before, psu-b survived the loss of either feed (33 kW, a pass).
    const auto r = runText(rack("  {ou: 6, " + kGt + ", id: gt0}\n", ""));
    REQUIRE(r.power);
    const power::RackPower& p = r.power->racks.at(0);
    CHECK(p.unnamedFeedShelves == 1);
    CHECK(p.capacityFeedLossW == Approx(0.0).margin(1e-9));
    CHECK(subjects(r, "orv3.feed.loss") == std::vector<std::string>{"lab/row1/rack1"});
    bool said = false;
    for (const core::Violation& v : r.violations)
        said = said || (v.rule == "orv3.feed.loss" &&
                        v.message.find("1 shelf names no feed: counted lost with either feed") != std::string::npos);
    CHECK(said);
    // The what-if says the same (until 2026-12-06 `--scenario feed-loss=A` kept psu-b running, a
    // rack over its feed-loss limit fitting in the scenario): feed A lost takes both shelves, feed
    // B lost takes psu-b and leaves psu-a on feed A.
    for (const std::string lost : {"A", "B"}) {
        analysis::RunOptions o;
        o.designPath = kRoot + "tests/fixtures/signoff/round3.yaml";
        o.designText = rack("  {ou: 6, " + kGt + ", id: gt0}\n", "");
        o.lostFeed = lost;
        core::Progress quiet;
        const auto w = analysis::run(o, quiet);
        REQUIRE(w.power);
        INFO("feed " << lost << " lost");
        const power::RackPower& q = w.power->racks.at(0);
        CHECK(q.shelves.size() == (lost == "A" ? 0u : 1u));
        if (lost == "B")
            CHECK(q.shelves.at(0).id == "lab/row1/rack1/psu-a");
        CHECK(q.fits == (lost == "B"));
    }
    // Both named: one 33 kW shelf carries the 10.2 kW with either feed lost.
    const auto both = runText(rack("  {ou: 6, " + kGt + ", id: gt0}\n"));
    REQUIRE(both.power);
    CHECK(both.power->racks.at(0).unnamedFeedShelves == 0);
    CHECK(both.power->racks.at(0).capacityFeedLossW == Approx(33000.0));
    CHECK(subjects(both, "orv3.feed.loss").empty());
}

namespace {

/// The single-rack example's parts in one or two racks, with one port-to-port DAC from gt0:nic0 of
/// rack1 to nic0 of `toSlot` (`rack1/gt1` or `rack2/gt1`), gt1 at `gt1Ou`.
std::string bringUp(int gt1Ou, const std::string& toSlot, const std::string& cable = "dac-400g-osfp-1m",
                    const std::string& port = "nic0")
{
    const std::string rackBody = "rack_type: orv3-hpr, slots: [\n"
                                 "  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A},\n"
                                 "  {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B},\n"
                                 "  {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a},\n"
                                 "  {ou: 6, part: meta-grand-teton-h100, id: gt0},\n"
                                 "  {ou: " +
                                 std::to_string(gt1Ou) + ", part: meta-grand-teton-h100, id: gt1}]";
    return "rdt: 1\nname: round3\nsite: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
           "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, " +
           rackBody + "}, {id: rack2, " + rackBody +
           "}]}]}]}\n"
           "links:\n"
           "  - {class: bring-up, medium: copper, from: \"lab/row1/rack1/gt0:" + port + "\", to: \"lab/row1/" +
           toSlot + ":" + port + "\", cable: " + cable + "}\n";
}

} // namespace

TEST_CASE("a port-to-port link's cable is checked against its run, in its rack and between racks",
          "[signoff][signal]")
{
    // In one rack: |OU 6 - OU n| x 48 mm + 0.5 m routing slack against a 1 m DAC. gt1 at OU 16:
    // 10 x 0.048 + 0.5 = 0.98 m, fits; at OU 17: 1.028 m, does not. Before the fix no port-to-port
    // link was checked at all (a 1.94 m run passed on a 1 m DAC).
    const auto fits = runText(bringUp(16, "rack1/gt1"));
    const auto over = runText(bringUp(17, "rack1/gt1"));
    CHECK(subjects(fits, "signal.cable.reach").empty());
    REQUIRE(subjects(over, "signal.cable.reach") == std::vector<std::string>{"links/bring-up"});
    for (const core::Violation& v : over.violations)
        if (v.rule == "signal.cable.reach") {
            CHECK(v.measured == Approx(11 * 0.048 + 0.5).epsilon(1e-9));
            CHECK(v.limit == Approx(1.0));
        }
    // Both ends' port rates come from the slots' parts (the NIC's 400 Gb/s), not "no port rate".
    REQUIRE(fits.signal);
    const signal::LinkVerdict& link = fits.signal->links.at(0);
    CHECK(link.fromPort.find("400 Gb/s") != std::string::npos);
    CHECK(link.toPort.find("400 Gb/s") != std::string::npos);
    CHECK(link.portRateGbps == Approx(400.0));
    // The link's verdict (text, JSON, HDF5, the studio) says so, as a class's does (until 2026-12-06
    // the one link too short for its run still read "COM 8.3 dB, pass").
    CHECK(link.pass);
    REQUIRE(over.signal);
    CHECK_FALSE(over.signal->links.at(0).pass);
    CHECK(over.signal->links.at(0).verdict == "fail (signal.cable.reach)");
    // Between two racks side by side: up each rack to its top, 0.6 m along the row, the slack: a
    // 1 m DAC is short; before, the link passed with its length never compared to anything.
    const auto apart = runText(bringUp(16, "rack2/gt1"));
    REQUIRE(subjects(apart, "signal.cable.reach") == std::vector<std::string>{"links/bring-up"});
    for (const core::Violation& v : apart.violations)
        if (v.rule == "signal.cable.reach") {
            CHECK(v.measured > 0.6 + 0.5 + 1.0); // and two climbs of more than half a metre each
            CHECK(v.message.find("rack lab/row1/rack2") != std::string::npos);
        }
    CHECK(apart.signal->links.at(0).verdict == "fail (signal.cable.reach)");
}

TEST_CASE("a value just beyond its limit is printed apart from it, and a waiver names a rule rdt has",
          "[signoff][bad-input]")
{
    // tight-rack at 281.7 W a GPU: 15.0002 kW on a 15 kW N+1 capacity; before, "load 15.0 kW exceeds
    // the N+1 shelf capacity 15.0 kW".
    analysis::RunOptions o;
    o.designPath = kRoot + "data/designs/tight-rack.yaml";
    o.gpuCapW = 281.7;
    core::Progress progress;
    const auto r = analysis::run(o, progress);
    bool seen = false;
    for (const core::Violation& v : r.violations)
        if (v.rule == "orv3.shelf.n1") {
            seen = true;
            INFO(v.message);
            CHECK(v.measured > v.limit);
            CHECK(v.message.find("load 15.0002 kW exceeds the N+1 shelf capacity 15 kW") != std::string::npos);
        }
    CHECK(seen);
    // A waiver for a rule that does not exist waived nothing and said nothing: now a located error.
    std::string text = rack("  {ou: 6, " + kGt + ", id: gt0}\n");
    text += "waivers:\n  - {rule: orv3.bbu.hold-up, subject: \"lab/row1/rack1\", justification: \"Lab rack on a UPS circuit.\"}\n";
    try {
        runText(text);
        FAIL("a waiver for an unknown rule was accepted");
    } catch (const core::InputError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("round3.yaml:12:5: waivers[0]") != std::string::npos);
        CHECK(what.find("no rule matches \"orv3.bbu.hold-up\"") != std::string::npos);
        CHECK(what.find("did you mean \"orv3.bbu.holdup\"") != std::string::npos);
    }
}

TEST_CASE("a sweep variant's unbounded junction stays unbounded between MPI ranks", "[signoff][sweep]")
{
    // A variant with a chassis that moves no air has an unbounded junction; the ranks' JSON lines
    // carried it as null, so `rdt sweep --mpi` wrote NaN ("no figure") where OpenMP wrote inf.
    analysis::VariantResult r;
    r.ok = true;
    r.maxJunctionC = INFINITY;
    r.maxInletC = 30.5;
    const analysis::VariantResult back = analysis::decodeVariant(analysis::encodeVariant(r, true));
    CHECK(std::isinf(back.maxJunctionC));
    CHECK(back.maxJunctionC > 0);
    CHECK(back.maxInletC == 30.5);
    CHECK(std::isnan(back.sustainedPflops)); // a missing figure stays missing
    r.maxJunctionC = -INFINITY;
    CHECK(analysis::decodeVariant(analysis::encodeVariant(r, true)).maxJunctionC == -INFINITY);
    // rdt sweep --json keeps JSON's numbers: null, as rdt check --json writes an unbounded junction.
    CHECK(nlohmann::json::parse(analysis::encodeVariant(r)).at("max_gpu_junction_degC").is_null());
}

TEST_CASE("a port claimed by two links is an error on its part instance, one claim each passes",
          "[signoff][signal]")
{
    // The bundled single-rack example cabled gt0:nic0 and gt1:nic0 twice (its nic* class to the rack
    // switch and a bring-up DAC) and passed: only the totals per chassis were counted.
    const std::string fabric = "  - {class: nic-fabric, medium: optical, from: {part: meta-grand-teton-h100, "
                               "interfaces: \"nic*\"}, to: {part: arista-7816r3}, scope: fabric, "
                               "cable: optic-400g-dr4-osfp, length: 50 m}\n";
    const auto twice = runText(bringUp(16, "rack1/gt1") + fabric);
    CHECK(subjects(twice, "link.port.reused") ==
          std::vector<std::string>{"lab/row1/rack1/gt0", "lab/row1/rack1/gt1"});
    for (const core::Violation& v : twice.violations)
        if (v.rule == "link.port.reused") {
            INFO(v.message);
            CHECK(v.measured == 2);
            CHECK(v.limit == 1);
            CHECK(v.message.find("nic0 carries 2 links (link class nic-fabric, link bring-up)") != std::string::npos);
            CHECK(v.loc.line > 0);
        }
    // The class on the mezzanine ports (one claim a port): passes; so do two DACs on different ports.
    std::string mezz = fabric;
    mezz.replace(mezz.find("\"nic*\""), 6, "\"mezz*\"");
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + mezz), "link.port.reused").empty());
    const std::string second = "  - {class: bring-up-2, medium: copper, from: \"lab/row1/rack1/gt0:nic1\", "
                               "to: \"lab/row1/rack1/gt1:nic1\", cable: dac-400g-osfp-1m}\n";
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + second), "link.port.reused").empty());
    // Two DACs on one port: each end's instance.
    std::string same = second;
    same.replace(same.find("gt0:nic1"), 8, "gt0:nic0");
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + same), "link.port.reused") ==
          std::vector<std::string>{"lab/row1/rack1/gt0"});
    // A class that does not apply to rack1 claims nothing there.
    std::string rack2Only = fabric;
    rack2Only.replace(rack2Only.find("scope: fabric"), 13, "scope: fabric, racks: \"lab/row1/rack2\"");
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + rack2Only), "link.port.reused").empty());
    // Two classes whose globs overlap (nic* and nic0) on every chassis of both racks.
    std::string nic0 = fabric;
    nic0.replace(nic0.find("nic-fabric"), 10, "nic0-spare");
    nic0.replace(nic0.find("\"nic*\""), 6, "\"nic0\"");
    CHECK(subjects(runText(bringUp(16, "rack1/gt1", "dac-400g-osfp-1m", "mezz0") + fabric + nic0),
                   "link.port.reused")
              .size() == 4);
    // Inside the chassis (scope chassis: GPU to NIC over PCIe) and a class that gives a count claim
    // no external port.
    const std::string pcie = "  - {class: gpu-nic, medium: pcie-gen5, from: {part: meta-grand-teton-h100, "
                             "interfaces: \"nic*\"}, to: {part: meta-grand-teton-h100, component: gpus}, "
                             "scope: chassis}\n";
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + pcie), "link.port.reused").empty());
    std::string counted = fabric;
    counted.replace(counted.find("interfaces: \"nic*\""), 18, "interfaces: \"nic*\", count: 4");
    CHECK(subjects(runText(bringUp(16, "rack1/gt1") + counted), "link.port.reused").empty());
    // The rack-scope class of the bundled example beside its DAC, now on mezz0: no port twice.
    const auto example = runText(core::readTextFile(kRoot + "data/designs/single-rack.yaml"));
    CHECK(subjects(example, "link.port.reused").empty());
}

TEST_CASE("a shelf or rack type without a figure the budget needs says what it took instead", "[signoff][power]")
{
    // Without output_voltage, droop, input_phases or whips the budget took 50 V, no droop, three
    // phases and one whip without a word; three phases made a whip that fails at one phase pass.
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rdt-figures-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "parts");
    std::string shelf = core::readTextFile(kRoot + "data/catalog/orv3-hpr-power-shelf-6x5p5kw.yaml");
    shelf.replace(shelf.find("slug: orv3-hpr-power-shelf-6x5p5kw"), 34, "slug: x-shelf");
    for (const char* key : {"\n  output_voltage: {", "\n  droop: {", "\n  input_phases: 3", "\n  whips: {"})
        dropLine(shelf, key);
    std::ofstream(dir / "parts" / "x-shelf.yaml") << shelf;
    // A BBU shelf without energy and holdup_at_rating: "the rack has no BBU shelf" was the reason given.
    std::string bbu = core::readTextFile(kRoot + "data/catalog/orv3-hpr-bbu-shelf-6x5p5kw.yaml");
    bbu.replace(bbu.find("slug: orv3-hpr-bbu-shelf-6x5p5kw"), 32, "slug: x-bbu");
    for (const char* key : {"\n  holdup_at_rating:", "\n  energy:"})
        dropLine(bbu, key);
    std::ofstream(dir / "parts" / "x-bbu.yaml") << bbu;
    std::string design = "rdt: 1\nname: figures\ncatalog: [parts]\n"
                         "site: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
                         "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: orv3-hpr, "
                         "slots: [{ou: 1, part: x-shelf, id: psu-a}, {ou: 3, part: x-bbu, id: bbu-a}, "
                         "{ou: 6, part: meta-grand-teton-h100, id: gt0}, "
                         "{ou: 15, part: meta-grand-teton-h100, id: gt1}]}]}]}]}\n";
    analysis::RunOptions o;
    o.designPath = (dir / "figures.yaml").string();
    o.designText = design;
    core::Progress progress;
    const analysis::RunResult r = analysis::run(o, progress);
    std::string notes;
    for (const core::Violation& v : r.violations)
        if (v.rule == "power.figure.missing")
            notes += v.message + "\n";
    INFO(notes);
    CHECK(notes.find("x-shelf has no output_voltage (taken as 50 V") != std::string::npos);
    CHECK(notes.find("x-shelf has no droop (taken as none") != std::string::npos);
    CHECK(notes.find("x-shelf has no input_phases (taken as one phase") != std::string::npos);
    CHECK(notes.find("x-shelf has no whips (taken as one whip") != std::string::npos);
    CHECK(notes.find("x-bbu has no energy or holdup_at_rating (no stored energy counted") != std::string::npos);
    bool holdup = false;
    for (const core::Violation& v : r.violations)
        if (v.rule == "orv3.bbu.holdup") {
            holdup = true;
            CHECK(v.message.find("its BBU shelves' catalog entries give no energy or holdup_at_rating") !=
                  std::string::npos);
        }
    CHECK(holdup);
    // One phase, one whip: the whole input on one conductor, against the shelf's 30 A breaker.
    REQUIRE(r.power);
    const power::ShelfPower& sh = r.power->racks.at(0).shelves.at(0);
    CHECK(sh.whipCurrentA == Approx(sh.inputW / 277.0).epsilon(1e-9));
    // The shipped shelf names them all: no such note.
    design.replace(design.find("part: x-shelf"), 13, "part: orv3-hpr-power-shelf-6x5p5kw");
    o.designText = design;
    for (const core::Violation& v : analysis::run(o, progress).violations)
        CHECK_FALSE((v.rule == "power.figure.missing" && v.message.find("psu") != std::string::npos));
    std::filesystem::remove_all(dir);
}

TEST_CASE("a chassis without one of the junction model's figures is not checked, not judged on the rest",
          "[signoff][thermal]")
{
    // Without thermal.r_sink the junction was inlet + P x r_jc alone: 47 degC and a clean pass, where
    // the whole model fails the chassis at a larger r_sink. Each of the three figures, removed alone.
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rdt-junction-" + std::to_string(::getpid()));
    for (const std::string key : {"r_jc", "r_sink", "sink_flow"}) {
        CAPTURE(key);
        std::filesystem::create_directories(dir / key);
        std::string gt = core::readTextFile(kRoot + "data/catalog/meta-grand-teton-h100.yaml");
        gt.replace(gt.find("slug: meta-grand-teton-h100"), 27, "slug: x-gt");
        dropLine(gt, "\n    " + key + ": {");
        std::ofstream(dir / key / "x-gt.yaml") << gt;
        analysis::RunOptions o;
        o.designPath = (dir / key / "junction.yaml").string();
        o.designText = "rdt: 1\nname: junction\ncatalog: [.]\n"
                       "site: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
                       "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: orv3-hpr, "
                       "slots: [{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a}, "
                       "{ou: 6, part: x-gt, id: gt0}]}]}]}]}\n";
        core::Progress progress;
        const analysis::RunResult r = analysis::run(o, progress);
        REQUIRE(r.thermal);
        const thermal::ChassisThermal& c = r.thermal->racks.at(0).chassis.at(0);
        CHECK(std::isnan(c.gpuJunctionK));
        bool noted = false;
        for (const core::Violation& v : r.violations) {
            CHECK(v.rule != "thermal.gpu.junction");
            noted = noted || (v.rule == "thermal.limits.missing" &&
                              v.message.find("x-gt has no thermal." + key + " (GPU junction not modelled") !=
                                  std::string::npos);
        }
        CHECK(noted);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("a rack type or part without a figure the mechanical rules need says so", "[signoff][mechanical]")
{
    // Without bay_width, frame_depth or max_payload the width, depth and mass rules vanished for the
    // rack without a word (an oversize 1,500 kg sled passed); without weight a part counted 0 kg.
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rdt-mechanical-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string rack = core::readTextFile(kRoot + "data/catalog/orv3-hpr.yaml");
    rack.replace(rack.find("slug: orv3-hpr"), 14, "slug: x-rack");
    for (const char* key : {"\n  usable_ou:", "\n  bay_width:", "\n  frame_depth:", "\n  max_payload:"})
        dropLine(rack, key);
    std::ofstream(dir / "x-rack.yaml") << rack;
    std::string sw = core::readTextFile(kRoot + "data/catalog/meta-minipack2.yaml");
    sw.replace(sw.find("slug: meta-minipack2"), 20, "slug: x-switch");
    dropLine(sw, "\nweight:");
    std::ofstream(dir / "x-switch.yaml") << sw;
    analysis::RunOptions o;
    o.designPath = (dir / "mechanical.yaml").string();
    o.designText = "rdt: 1\nname: mechanical\ncatalog: [.]\n"
                   "site: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
                   "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: x-rack, "
                   "slots: [{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a}, "
                   "{ou: 20, part: x-switch, id: sw}]}]}]}]}\n";
    core::Progress progress;
    const analysis::RunResult r = analysis::run(o, progress);
    std::string notes;
    for (const core::Violation& v : r.violations)
        if (v.rule == "mechanical.figure.missing")
            notes += v.message + "\n";
    INFO(notes);
    for (const char* text : {"x-rack has no usable_ou (taken as 44 OU", "x-rack has no bay_width (orv3.part.width)",
                             "x-rack has no frame_depth (orv3.part.depth)", "x-rack has no max_payload (orv3.rack.mass)",
                             "x-switch has no weight (counted as 0 kg"})
        CHECK(notes.find(text) != std::string::npos);
    CHECK(notes.find("orv3-hpr-power-shelf") == std::string::npos); // the shipped shelf has them all
    std::filesystem::remove_all(dir);
}

TEST_CASE("a cable without a length is as long as its run needs, within its reach", "[signoff][signal]")
{
    // Without `length` the cable was taken as long as the placement needed and its max_reach was
    // never compared: a 2.13 m run passed on a 2 m-reach DAC.
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rdt-reach-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string dac = core::readTextFile(kRoot + "data/catalog/dac-400g-osfp-2m.yaml");
    dac.replace(dac.find("slug: dac-400g-osfp-2m"), 22, "slug: x-dac");
    dropLine(dac, "\n  length: 2 m");
    std::ofstream(dir / "x-dac.yaml") << dac;
    const auto runAt = [&](int gt1Ou) {
        std::string text = bringUp(gt1Ou, "rack1/gt1", "x-dac");
        text.replace(text.find("name: round3\n"), 13, "name: round3\ncatalog: [.]\n");
        analysis::RunOptions o;
        o.designPath = (dir / "reach.yaml").string();
        o.designText = text;
        core::Progress progress;
        return analysis::run(o, progress);
    };
    // OU 6 to OU 40: 34 x 0.048 + 0.5 = 2.132 m against the 2 m reach; to OU 36: 1.94 m, within.
    const auto over = runAt(40);
    REQUIRE(subjects(over, "signal.cable.reach") == std::vector<std::string>{"links/bring-up"});
    for (const core::Violation& v : over.violations)
        if (v.rule == "signal.cable.reach") {
            INFO(v.message);
            CHECK(v.measured == Approx(34 * 0.048 + 0.5).epsilon(1e-9));
            CHECK(v.limit == Approx(2.0));
            CHECK(v.message.find("beyond the 2 m reach of x-dac (no length in the catalog)") != std::string::npos);
        }
    CHECK(subjects(runAt(36), "signal.cable.reach").empty());
    std::filesystem::remove_all(dir);
}
