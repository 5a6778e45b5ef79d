#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/Pipeline.h"

using namespace rdt;

static const std::string kDesigns = RDT_SOURCE_DIR "/data/designs/";

static std::multiset<std::pair<std::string, std::string>> expected(const std::string& path)
{
    std::multiset<std::pair<std::string, std::string>> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream ss(line);
        std::string rule, subject;
        ss >> rule >> subject;
        out.insert({rule, subject});
    }
    return out;
}

TEST_CASE("broken-rack raises exactly the violations its fixture lists", "[pipeline][fixture]")
{
    core::Progress progress;
    const analysis::RunResult r = analysis::run({kDesigns + "broken-rack.yaml", "", ""}, progress);
    std::multiset<std::pair<std::string, std::string>> got;
    for (const auto& v : r.violations)
        got.insert({v.rule, v.subject});
    const auto want = expected(RDT_SOURCE_DIR "/tests/fixtures/broken-rack.expected");
    REQUIRE(want.size() >= 10);
    CHECK(got == want);
    std::size_t errors = 0;
    for (const auto& v : r.violations)
        errors += v.severity == core::Severity::Error ? 1 : 0;
    CHECK(core::countViolations(r.violations).errors == errors);
    CHECK(errors >= 18);
    // Each violation points at the design text (or the extra catalog for part data).
    for (const auto& v : r.violations)
        CHECK(v.loc.line > 0);
}

TEST_CASE("rule fixtures raise exactly the violations they list", "[pipeline][fixture]")
{
    // Each tests/fixtures/rules/*.yaml lists `# expect: RULE SUBJECT [waived]` lines, or `# expect: (none)`.
    std::size_t fixtures = 0;
    for (const auto& e : std::filesystem::directory_iterator(RDT_SOURCE_DIR "/tests/fixtures/rules")) {
        if (e.path().extension() != ".yaml")
            continue;
        ++fixtures;
        std::multiset<std::string> want;
        std::ifstream in(e.path());
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("# expect: ", 0) == 0 && line != "# expect: (none)")
                want.insert(line.substr(10));
        core::Progress progress;
        const analysis::RunResult r = analysis::run({e.path().string(), "", ""}, progress);
        std::multiset<std::string> got;
        for (const auto& v : r.violations)
            got.insert(v.rule + " " + v.subject + (v.waived ? " waived" : ""));
        INFO(e.path().filename().string());
        CHECK(got == want);
    }
    CHECK(fixtures >= 3);
}

TEST_CASE("the shipped examples pass their default profile", "[pipeline]")
{
    for (const char* name : {"meta-24k-roce.yaml", "meta-24k-ib.yaml", "single-rack.yaml"}) {
        INFO(name);
        core::Progress progress;
        const analysis::RunResult r = analysis::run({kDesigns + name, "", ""}, progress);
        CHECK(core::countViolations(r.violations).errors == 0);
        CHECK(r.profile.name == "default");
    }
}

TEST_CASE("every shipped rule profile loads against the registry", "[pipeline][profile]")
{
    const core::CheckRegistry reg = analysis::makeRegistry();
    for (const char* name : {"default", "ocp-strict", "mechanical"})
        CHECK(core::Profile::load(analysis::profilePath(name), reg).name == name);
    CHECK_THROWS_AS(
        analysis::run({kDesigns + "single-rack.yaml", "no-such-profile", ""}, *std::make_unique<core::Progress>()),
        core::InputError);
}

TEST_CASE("progress reaches 1 and cancellation stops the run", "[pipeline][progress]")
{
    struct Recorder : core::Progress {
        double last = -1;
        bool monotonic = true;
        void update(double f, std::string_view) override
        {
            monotonic = monotonic && f >= last;
            last = f;
        }
    } rec;
    analysis::run({kDesigns + "single-rack.yaml", "", ""}, rec);
    CHECK(rec.last == 1.0);
    CHECK(rec.monotonic);
    core::Progress cancelled;
    cancelled.cancel();
    CHECK_THROWS_AS(analysis::run({kDesigns + "single-rack.yaml", "", ""}, cancelled), core::Cancelled);
}

TEST_CASE("the supply what-if sets every cooling unit that states its own supply air", "[whatif]")
{
    // row-pair's CRAH states supply_air: 25 degC; "inlet=30 degC" kept it at 25 °C in the room
    // field solve (issue 34's field-view review): the what-if is the supply air, wherever it is given.
    core::Design d = core::loadDesign(RDT_SOURCE_DIR "/data/designs/row-pair.yaml", RDT_SOURCE_DIR "/data/catalog");
    REQUIRE_FALSE(d.room.units.empty());
    REQUIRE(d.room.units[0].supplyK);
    CHECK(*d.room.units[0].supplyK == Approx(298.15));
    analysis::RunOptions o;
    o.inletK = 303.15;
    analysis::applyScenario(d, o);
    CHECK(d.site.supplyAirK == Approx(303.15));
    for (const core::CoolingUnit& u : d.room.units)
        if (u.supplyK)
            CHECK(*u.supplyK == Approx(303.15));
}
