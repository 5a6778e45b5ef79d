// A power shelf's supplies as the BMC reports them. Until 2026-12-07 a supply whose Status said
// Absent was counted a read error ("Metrics" missing, "(1 read errors)"), the shelf's N+1 was never
// judged against what was running, and a supply delivering 937 W against its own 400 W capacity
// (DMTF's public-rackmount1 mockup) was at most a warning on its efficiency. Now: the state of each
// supply is read (current and legacy resources), kept in the series (psu_state), and judged by
// hil.psu.lost and hil.psu.load, each at its own shelf or supply, just over and at the limit.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/Hil.h"
#include "analysis/Pipeline.h"
#include "core/Design.h"
#include "hil/Redfish.h"
#include "hil/Series.h"
#include "tests/hil/Server.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string kRack = RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml";
const std::string kShelfDir = "/Chassis/PowerShelf/PowerSubsystem/PowerSupplies/";

nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

void writeJson(const std::string& path, const nlohmann::json& j)
{
    std::ofstream(path) << j.dump(2);
}

/// The shelf mockup copied to `dir`, with supply `n` (1-based) given `status` in both the current
/// resource and the legacy Power resource, and supply 1's output set to `out1` W.
std::string shelfMockup(const std::string& dir, int n, const nlohmann::json& status, double out1)
{
    const std::string m = dir + "/shelf";
    std::filesystem::copy(test::kHilDir + "mockups/orv3-power-shelf", m, std::filesystem::copy_options::recursive);
    const std::string psu = m + kShelfDir + "PSU" + std::to_string(n) + "/index.json";
    nlohmann::json j = readJson(psu);
    j["Status"] = status;
    writeJson(psu, j);
    const std::string metrics = m + kShelfDir + "PSU1/Metrics/index.json";
    j = readJson(metrics);
    j["OutputPowerWatts"]["Reading"] = out1;
    writeJson(metrics, j);
    const std::string legacy = m + "/Chassis/PowerShelf/Power/index.json";
    j = readJson(legacy);
    j["PowerSupplies"][n - 1]["Status"] = status;
    j["PowerSupplies"][0]["PowerOutputWatts"] = out1;
    writeJson(legacy, j);
    return m;
}

const analysis::RunResult& rackRun()
{
    static const analysis::RunResult run = [] {
        analysis::RunOptions o;
        o.designPath = kRack;
        core::Progress quiet;
        return analysis::run(o, quiet);
    }();
    return run;
}

std::vector<const core::Violation*> of(const std::vector<core::Violation>& v, const std::string& rule)
{
    std::vector<const core::Violation*> out;
    for (const core::Violation& x : v)
        if (x.rule == rule)
            out.push_back(&x);
    return out;
}

/// Poll psu-a (current resources) and psu-b (legacy) once, and judge the sweep.
struct Polled {
    hil::Sample sample;
    hil::Series series;
    analysis::HilComparison comparison;
    std::vector<core::Violation> violations;
};

Polled pollShelves(const std::string& mockup)
{
    test::Server shelf(test::mockupServer(mockup));
    const core::Design& d = rackRun().design;
    hil::Poller poller(hil::parseTelemetryMap("telemetry: 1\ntargets:\n"
                                              "  - {parts: '*/psu-a', bmc: '" +
                                                  shelf.url() +
                                                  "', chassis: PowerShelf}\n"
                                                  "  - {parts: '*/psu-b', bmc: '" +
                                                  shelf.url() + "', chassis: PowerShelf, api: legacy}\n",
                                              "map.yaml", d));
    Polled p;
    p.sample = poller.poll();
    for (const hil::MappedPart& m : poller.map().parts) {
        p.series.parts.push_back(m.part);
        p.series.kinds.push_back(m.kind);
    }
    p.series.samples = {p.sample};
    p.comparison = analysis::compareTelemetry(rackRun(), p.series);
    p.violations = analysis::judgeTelemetry(rackRun(), p.comparison);
    return p;
}

std::string errorsOf(const hil::Sample& s)
{
    std::string e;
    for (const hil::PartReading& p : s.parts)
        for (const std::string& x : p.errors)
            e += x + "\n";
    return e;
}

} // namespace

TEST_CASE("An Absent supply is read as lost, not as a read error, and spends the shelf N+1", "[hil][redfish][power]")
{
    test::TempDir dir;
    const Polled p = pollShelves(shelfMockup(dir.path, 3, {{"State", "Absent"}}, 2800));
    INFO(errorsOf(p.sample));
    CHECK(p.sample.errorCount() == 0); // no "Metrics" missing for a supply that is not there
    for (const hil::PartReading& r : p.sample.parts) {
        REQUIRE(r.psuState.size() == 6);
        for (std::size_t k = 0; k < 6; ++k)
            CHECK(r.psuState[k] == (k == 2 ? hil::kPsuAbsent : 0.0));
        CHECK(std::isnan(r.psuOutW[2]));
    }
    const auto lost = of(p.violations, "hil.psu.lost");
    REQUIRE(lost.size() == 2); // each shelf, at its own subject
    for (const core::Violation* v : lost) {
        CHECK(v->severity == core::Severity::Error);
        CHECK(v->measured == 1);
        CHECK(v->limit == 0);
        CHECK_THAT(v->message, Contains("supply 3 Absent in 1 of 1 sweeps") &&
                                   Contains("it runs on 5 of its 6 supplies, its N+1 reserve spent") &&
                                   Contains("one more loss leaves 4 × 5.5 kW = 22 kW for the 14 kW it delivered"));
    }
    CHECK(lost[0]->subject != lost[1]->subject);
    CHECK(of(p.violations, "hil.psu.load").empty());
    for (const core::Violation* v : of(p.violations, "hil.telemetry.missing"))
        CHECK(v->message.find("psu-") == std::string::npos); // the shelves were read: only unmapped parts
}

TEST_CASE("Offline, disabled and Critical supplies are lost, a hot spare (StandbySpare) is not", "[hil][redfish][power]")
{
    for (const auto& [status, word] : std::vector<std::pair<nlohmann::json, std::string>>{
             {{{"State", "UnavailableOffline"}}, "offline"},
             {{{"State", "Disabled"}}, "offline"},
             {{{"State", "Enabled"}, {"Health", "Critical"}}, "Critical"}}) {
        INFO(status.dump());
        test::TempDir dir;
        const Polled p = pollShelves(shelfMockup(dir.path, 5, status, 2800));
        const auto lost = of(p.violations, "hil.psu.lost");
        REQUIRE(lost.size() == 2);
        CHECK_THAT(lost[0]->message, Contains("supply 5 " + word));
        // A Critical supply may still deliver: its output is read, and judged; an offline one has none.
        CHECK(std::isfinite(p.sample.parts[0].psuOutW[4]) == (word == "Critical"));
    }
    test::TempDir dir;
    const Polled spare = pollShelves(shelfMockup(dir.path, 5, {{"State", "StandbySpare"}, {"Health", "OK"}}, 2800));
    CHECK(of(spare.violations, "hil.psu.lost").empty());
    CHECK(spare.sample.parts[0].psuState[4] == 0);
}

TEST_CASE("A supply delivering more than its capacity fails hil.psu.load at its own subject", "[hil][redfish][power]")
{
    // The shelf's supplies report PowerCapacityWatts 5500: 5500 W is at the limit, 5500.5 W over it.
    test::TempDir at, over;
    const Polled ok = pollShelves(shelfMockup(at.path, 3, {{"State", "Enabled"}, {"Health", "OK"}}, 5500));
    CHECK(of(ok.violations, "hil.psu.load").empty());
    CHECK(of(ok.violations, "hil.psu.lost").empty());
    const Polled bad = pollShelves(shelfMockup(over.path, 3, {{"State", "Enabled"}, {"Health", "OK"}}, 5500.5));
    const auto load = of(bad.violations, "hil.psu.load");
    REQUIRE(load.size() == 2);
    for (const core::Violation* v : load) {
        CHECK(v->subject.size() > 8);
        CHECK(v->subject.substr(v->subject.size() - 8) == "/supply1");
        CHECK(v->measured == 5500.5);
        CHECK(v->limit == 5500);
        CHECK(v->unit == "W");
        CHECK_THAT(v->message, Contains("supply 1 delivered 5500.5 W, above its 5500.0 W capacity (its PowerCapacityWatts)"));
    }
    // Every supply's figure is in the comparison: the other five are within their capacity.
    std::size_t supplies = 0;
    for (const analysis::HilSupply& x : bad.comparison.supplies) {
        ++supplies;
        CHECK(x.capacityRead);
        CHECK((x.maxOutputW <= x.capacityW) == (x.index != 1));
    }
    CHECK(supplies == 12);
}

TEST_CASE("Without a reported capacity a supply is judged against the catalog's module_rating", "[hil][power]")
{
    const analysis::RunResult& run = rackRun();
    hil::Series s;
    s.parts = {"lab/row1/rack1/psu-a"};
    s.kinds = {"power-shelf"};
    hil::Sample smp;
    smp.parts.resize(1);
    hil::PartReading& r = smp.parts[0];
    r.psuInW.assign(6, 2900);
    r.psuOutW.assign(6, 2800);
    r.psuCapacityW.assign(6, NAN);
    r.psuState.assign(6, 0);
    r.psuOutW[4] = 5501; // the catalog's orv3-hpr module: 5.5 kW
    s.samples = {smp};
    const analysis::HilComparison c = analysis::compareTelemetry(run, s);
    const std::vector<core::Violation> v = analysis::judgeTelemetry(run, c);
    const auto load = of(v, "hil.psu.load");
    REQUIRE(load.size() == 1);
    CHECK(load[0]->subject == "lab/row1/rack1/psu-a/supply5");
    CHECK_THAT(load[0]->message, Contains("the catalog's module_rating"));
    // A shelf listing five supplies where its catalog part holds six has lost one.
    r.psuOutW[4] = 2800;
    for (std::vector<double>* field : {&r.psuInW, &r.psuOutW, &r.psuCapacityW, &r.psuState})
        field->resize(5);
    s.samples = {smp};
    const std::vector<core::Violation> v5 = analysis::judgeTelemetry(run, analysis::compareTelemetry(run, s));
    const auto lost = of(v5, "hil.psu.lost");
    REQUIRE(lost.size() == 1);
    CHECK_THAT(lost[0]->message, Contains("5 supplies listed (in 1 of 1 sweeps), its catalog part holds 6"));
    // Six listed in the first sweep, five in the second (one pulled): the second sweep's listing counts.
    hil::Sample six = smp;
    for (std::vector<double>* field : {&six.parts[0].psuInW, &six.parts[0].psuOutW, &six.parts[0].psuCapacityW,
                                       &six.parts[0].psuState})
        field->resize(6, field == &six.parts[0].psuState ? 0.0 : 2800.0);
    s.samples = {six, smp};
    const std::vector<core::Violation> v6 = analysis::judgeTelemetry(run, analysis::compareTelemetry(run, s));
    const auto pulled = of(v6, "hil.psu.lost");
    REQUIRE(pulled.size() == 1);
    CHECK_THAT(pulled[0]->message, Contains("5 supplies listed (in 1 of 2 sweeps)"));
    s.samples = {six, six};
    const std::vector<core::Violation> all6 = analysis::judgeTelemetry(run, analysis::compareTelemetry(run, s));
    CHECK(of(all6, "hil.psu.lost").empty());
}

TEST_CASE("A supply's state survives the series file (psu_state)", "[hil][power]")
{
    test::TempDir dir;
    const std::string mockup = shelfMockup(dir.path, 2, {{"State", "Absent"}}, 2800);
    test::Server shelf(test::mockupServer(mockup));
    hil::Poller poller(hil::parseTelemetryMap(
        "telemetry: 1\ntargets:\n  - {parts: '*/psu-a', bmc: '" + shelf.url() + "', chassis: PowerShelf}\n", "map.yaml",
        rackRun().design));
    const hil::Sample s = poller.poll();
    const std::string file = dir.path + "/snap.h5";
    hil::writeSnapshot(file, poller.map(), {"hil-rack.yaml", "map.yaml", "test"}, s);
    const hil::Series back = hil::readSeries(file);
    REQUIRE(back.samples.size() == 1);
    const hil::PartReading& r = back.samples[0].parts[0];
    REQUIRE(r.psuState.size() == 6);
    CHECK(r.psuState[1] == hil::kPsuAbsent);
    CHECK(r.psuState[0] == 0);
    CHECK(of(analysis::judgeTelemetry(rackRun(), analysis::compareTelemetry(rackRun(), back)), "hil.psu.lost").size() ==
          1);
}

TEST_CASE("Fan speed and PSU efficiency differ in points of full scale, judged just over the tolerance", "[hil]")
{
    // "fan measured 80.0 %, model 62.0 % (+18.0 %)" read as a relative 18 %; it is 18 points.
    const analysis::RunResult& run = rackRun();
    // The violations are kept (not pointers into a temporary: ASan caught that here).
    auto judge = [&](double measured) {
        analysis::HilComparison c;
        c.sweeps = 1;
        c.rows.push_back({"lab/row1/rack1/gt0", "chassis", "fan", "%", measured, 62, measured - 62, 1});
        return analysis::judgeTelemetry(run, c);
    };
    const std::vector<core::Violation> at = judge(77);
    CHECK(of(at, "hil.fan.deviation").empty()); // 15 points: the default tolerance
    const std::vector<core::Violation> v = judge(77.1);
    const auto over = of(v, "hil.fan.deviation");
    REQUIRE(over.size() == 1);
    CHECK(over[0]->unit == "points");
    CHECK(over[0]->limit == Approx(15));
    CHECK_THAT(over[0]->message, Contains("fan measured 77.1 %, model 62.0 % (+15.1 points)"));
}

TEST_CASE("DMTF's public-rackmount1 mockup: supply 1 over its 400 W capacity, supply 2 Absent", "[hil][redfish][power]")
{
    test::Server bmc(test::mockupServer(RDT_SOURCE_DIR "/tests/third_party/redfish-mockup-server/public-rackmount1"));
    hil::Poller poller(hil::parseTelemetryMap(
        "telemetry: 1\ntargets:\n  - {parts: '*/psu-a', bmc: '" + bmc.url() + "', chassis: 1U}\n", "map.yaml",
        rackRun().design));
    hil::Series s;
    s.parts = {poller.map().parts[0].part};
    s.kinds = {poller.map().parts[0].kind};
    s.samples = {poller.poll()};
    const hil::PartReading& r = s.samples[0].parts[0];
    INFO(errorsOf(s.samples[0]));
    REQUIRE(r.psuState.size() == 2);
    CHECK(r.psuState[0] == 0); // Enabled, Health Warning: delivering
    CHECK(r.psuState[1] == hil::kPsuAbsent);
    CHECK(r.psuOutW[0] == 937.4);
    for (const std::string& e : r.errors)
        CHECK(e.find("Bay2") == std::string::npos); // an Absent bay is not a read error
    const std::vector<core::Violation> v = analysis::judgeTelemetry(rackRun(), analysis::compareTelemetry(rackRun(), s));
    const auto load = of(v, "hil.psu.load");
    REQUIRE(load.size() == 1);
    CHECK_THAT(load[0]->message, Contains("supply 1 delivered 937.4 W, above its 400.0 W capacity"));
    const auto lost = of(v, "hil.psu.lost");
    REQUIRE(lost.size() == 1);
    CHECK_THAT(lost[0]->message, Contains("supply 2 Absent") &&
                                     Contains("2 supplies listed (in 1 of 1 sweeps), its catalog part holds 6"));
    CHECK(lost[0]->measured == 5);
}
