// Liquid cooling beyond the loop: the CDUs' draw in the power budget and energy, and leak detection
// per rack (split from Liquid.test.cpp).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/Pipeline.h"
#include "core/Error.h"
#include "room/RoomThermal.h"

using namespace rdt;
namespace fs = std::filesystem;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";
const std::string kAalc = kRoot + "data/designs/meta-catalina-gb200.yaml";
const std::string kL2l = kRoot + "data/designs/meta-catalina-gb200-l2l.yaml";

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void replace(std::string& text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

/// A scratch folder for a design with its own catalog parts and profile.
struct Scratch {
    fs::path dir;
    Scratch()
    {
        static int n = 0;
        dir = fs::temp_directory_path() / ("rdt-liquid-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
        fs::create_directories(dir / "parts");
    }
    ~Scratch()
    {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
};

analysis::RunResult run(analysis::RunOptions o)
{
    core::Progress quiet;
    return analysis::run(o, quiet);
}

analysis::RunOptions options(const std::string& path, const std::string& text = "")
{
    analysis::RunOptions o;
    o.designPath = path;
    o.designText = text;
    return o;
}

std::set<std::string> subjects(const analysis::RunResult& r, const std::string& rule)
{
    std::set<std::string> out;
    for (const core::Violation& v : r.violations)
        if (v.rule == rule)
            out.insert(v.subject);
    return out;
}

} // namespace

TEST_CASE("the CDUs' draw is facility AC in the budget: nameplate by default, the solved pumps and fans modelled",
          "[liquid]")
{
    for (const std::string& path : {kAalc, kL2l}) {
        for (const char* basis : {"nameplate", "modelled"}) {
            std::string text = readText(path);
            replace(text, "profile: default\n",
                    std::string("profile: default\npower: {basis: ") + basis +
                        "}\nfacility: {pue: 1.2, pue_source: test}\n");
            const analysis::RunResult r = run(options(path, text));
            const power::PowerResult& p = *r.power;
            REQUIRE(p.cdus.size() == r.design.liquid.loops.size());
            double sumBudget = 0, sumModelled = 0;
            for (std::size_t i = 0; i < p.cdus.size(); ++i) {
                const power::CduPower& c = p.cdus[i];
                const core::LiquidLoop& loop = r.design.liquid.loops[i];
                const liquid::LoopLiquid& l = r.liquid->loops[i];
                CAPTURE(path, basis, c.loop);
                // Nameplate: every installed unit at power.max; modelled: pumps + fans, never below idle.
                CHECK(c.nameplateW == Approx(loop.cdu->value("power.max", NAN) * loop.count));
                REQUIRE(std::isfinite(l.pumpPowerW));
                CHECK(l.electricalW == Approx(std::max(l.pumpPowerW + l.fanPowerW,
                                                       loop.cdu->value("power.idle", NAN) * l.running)));
                CHECK(c.modelledW == Approx(l.electricalW));
                CHECK(c.budgetW == Approx(std::string(basis) == "nameplate" ? c.nameplateW : c.modelledW));
                CHECK(c.modelledW < c.nameplateW);
                // The racks' shares add up to the loop, by their liquid heat (identical racks: equal).
                double shares = 0;
                for (int ri : c.racks) {
                    shares += p.racks[static_cast<std::size_t>(ri)].cduW;
                    CHECK(p.racks[static_cast<std::size_t>(ri)].cduW == Approx(c.budgetW / c.racks.size()));
                }
                CHECK(shares == Approx(c.budgetW));
                sumBudget += c.budgetW;
                sumModelled += c.modelledW;
            }
            // Every level of the roll-up carries it, outside the IT load and the shelves' AC.
            CHECK(p.cluster.cduW == Approx(sumBudget));
            CHECK(p.cluster.cduModelledW == Approx(sumModelled));
            double rows = 0;
            for (const power::GroupPower& g : p.rows)
                rows += g.cduW;
            CHECK(rows == Approx(sumBudget));
            double it = 0;
            for (const power::RackPower& rk : p.racks)
                it += rk.acInputW;
            CHECK(p.cluster.acInputW == Approx(it));
            // The facility draws it with the IT before the PUE: (IT + CDUs) × PUE.
            REQUIRE(r.energy);
            CHECK(r.energy->total.cduModelledW == Approx(sumModelled));
            CHECK(r.energy->total.facilityW ==
                  Approx((r.energy->total.itModelledW + r.energy->total.cduModelledW) * 1.2));
            CHECK(r.energy->total.facilityPeakW == Approx((r.energy->total.itBasisW + sumBudget) * 1.2));
        }
    }
    // Failed CDUs draw nothing: fewer fans run (liquid-to-air); the rest's pumps run faster for the same
    // flow against the same loop, so at one wire-to-water efficiency their draw stays (within the
    // control's 0.05 % flow band).
    analysis::RunOptions o = options(kAalc);
    o.failedCdus = 1;
    const analysis::RunResult failed = run(o);
    const analysis::RunResult base = run(options(kAalc));
    const liquid::LoopLiquid& b = base.liquid->loops.front();
    const liquid::LoopLiquid& f = failed.liquid->loops.front();
    CHECK(f.fanPowerW == Approx(b.fanPowerW * 3.0 / 4.0));
    CHECK(f.pumpSpeed > b.pumpSpeed);
    CHECK(f.pumpPowerW == Approx(b.pumpPowerW).epsilon(0.002));
    CHECK(failed.power->cdus.front().nameplateW == Approx(base.power->cdus.front().nameplateW));
}

TEST_CASE("liquid.leak.zone and liquid.leak.response judge each liquid rack by its own zones", "[liquid]")
{
    // The shipped Catalina rack type brings one zone that cuts power: both rules pass at every rack.
    const analysis::RunResult base = run(options(kAalc));
    for (const liquid::RackLiquid& r : base.liquid->racks) {
        CHECK(r.leakZones == 1);
        CHECK(r.leakResponse == "power-off");
    }
    CHECK(subjects(base, "liquid.leak.zone").empty());
    CHECK(subjects(base, "liquid.leak.response").empty());

    // A rack type without leak detection, used by one of the four racks: that rack alone fails.
    auto design = [](const Scratch& s, const std::string& leak, const std::string& module) {
        std::string rack = readText(kRoot + "data/catalog/orv3-hpr-liquid.yaml");
        replace(rack, "slug: orv3-hpr-liquid", "slug: test-rack");
        replace(rack, "    leak:\n      zones: {value: 1, source: \"[LC-F1] [LC-C3]\"}\n      response: power-off\n",
                leak);
        s.write("parts/test-rack.yaml", rack);
        if (!module.empty())
            s.write("parts/leak-module.yaml", "manufacturer: Test\nmodel: leak module\nslug: leak-module\nsource: test\n"
                                          "rdt:\n  kind: device\n  ou_height: 1 OU\n  width: 500 mm\n  depth: 500 mm\n  power: {idle: 5 W, max: 5 W}\n"
                                          "  liquid:\n    leak:\n" + module);
        std::string text = readText(kAalc);
        replace(text, "profile: default\n", "profile: default\ncatalog: [parts]\n");
        // pod2's racks get their own template on the scratch rack type.
        std::string other = text.substr(text.find("  catalina:\n"));
        other = other.substr(0, other.find("\nlayout:"));
        replace(other, "  catalina:\n", "  catalina-test:\n");
        replace(other, "rack_type: orv3-hpr-liquid", "rack_type: test-rack");
        if (!module.empty())
            replace(other, "      - {ou: 39, part: meta-wedge400, id: rtsw}",
                    "      - {ou: 39, part: meta-wedge400, id: rtsw}\n      - {ou: 40, part: leak-module, id: leak}");
        replace(text, "\nlayout:", "\n" + other + "\nlayout:");
        const auto pod2 = text.find("- id: pod2\n");
        text.replace(text.find("{template: catalina,", pod2), 20, "{template: catalina-test,");
        return run(options((s.dir / "design.yaml").string(), text));
    };
    {
        Scratch s;
        const analysis::RunResult r = design(s, "", "");
        CHECK(subjects(r, "liquid.leak.zone") ==
              std::set<std::string>{"cat/pod2/row01/rack01", "cat/pod2/row01/rack02"});
        CHECK(subjects(r, "liquid.leak.response").empty());
        for (const core::Violation& v : r.violations)
            if (v.rule == "liquid.leak.zone") {
                CHECK(v.severity == core::Severity::Error);
                CHECK(v.measured == 0.0);
                CHECK_THAT(v.message, Catch::Contains("test-rack has no liquid.leak.zones"));
            }
    }
    {
        // A leak-detection module in the rack brings a zone; it only alarms: the warning, at those racks.
        Scratch s;
        const analysis::RunResult r = design(s, "", "      zones: 1\n      response: alarm\n");
        CHECK(subjects(r, "liquid.leak.zone").empty());
        CHECK(subjects(r, "liquid.leak.response") ==
              std::set<std::string>{"cat/pod2/row01/rack01", "cat/pod2/row01/rack02"});
        const liquid::RackLiquid& rl = r.liquid->racks[static_cast<std::size_t>(r.liquid->rackOf[2])];
        CHECK(rl.leakZones == 1);
        CHECK(rl.leakResponse == "alarm");
        REQUIRE(rl.leakSources.size() == 1);
        CHECK_THAT(rl.leakSources.front(), Catch::Contains("leak-module"));
    }
    {
        // Power-off everywhere: clean; one alarm-only zone beside a power-off one: the warning.
        Scratch s;
        CHECK(subjects(design(s, "", "      zones: 1\n      response: power-off\n"), "liquid.leak.response").empty());
        Scratch s2;
        const analysis::RunResult mixed =
            design(s2, "    leak:\n      zones: 2\n      response: power-off\n", "      zones: 1\n      response: alarm\n");
        CHECK(subjects(mixed, "liquid.leak.response").size() == 2);
        CHECK(mixed.liquid->racks[2].leakZones == 3);
        Scratch s3;
        const analysis::RunResult unstated = design(s3, "    leak:\n      zones: 1\n", "");
        CHECK(subjects(unstated, "liquid.leak.response").size() == 2);
    }
    {
        Scratch s;
        CHECK_THROWS_WITH(design(s, "    leak:\n      zones: 1\n      response: shout\n", ""),
                          Catch::Contains("test-rack.yaml") && Catch::Contains("liquid.leak.response is power-off or alarm"));
    }
}
