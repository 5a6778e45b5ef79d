#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <set>

#include "analysis/PartFields.h"
#include "analysis/Pipeline.h"
#include "analysis/SignalVerdicts.h"

using namespace rdt;

namespace {

const core::PartField& named(const std::vector<core::PartField>& fields, const std::string& name)
{
    for (const core::PartField& f : fields)
        if (f.name == name)
            return f;
    FAIL("no field " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("result fields carry the solvers' numbers per part, in display units", "[fields]")
{
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get(),
                                               r.signal.get());
    REQUIRE(fields.size() == 13); // … and clip current: orv3-hpr is rated per clip
    const core::PartField& inlet = named(fields, "Inlet temperature");
    const core::PartField& margin = named(fields, "GPU margin to limit");
    const core::PartField& bar = named(fields, "Busbar current");
    const core::PartField& link = named(fields, "Link margin");
    CHECK(inlet.unit == "degC");
    CHECK_FALSE(margin.higherIsWorse);
    for (const thermal::ChassisThermal& c : r.thermal->racks[0].chassis) {
        CHECK(inlet.at(0, c.slot) == Approx(c.inletK - 273.15));
        CHECK(margin.at(0, c.slot) == Approx(c.maxOperatingK - c.gpuJunctionK));
    }
    // Rack figures colour every part of the rack: busbar current over its rating, %.
    const power::RackPower& rp = r.power->racks[0];
    for (std::size_t s = 0; s < r.design.racks[0].slots.size(); ++s)
        CHECK(bar.at(0, static_cast<int>(s)) == Approx(100.0 * rp.busbarCurrentA / rp.busbarRatingA));
    // Parts without the figure are NaN (a power shelf has no inlet), and the range spans the rest.
    CHECK(std::isnan(inlet.at(0, 0)));
    CHECK(inlet.lo <= inlet.hi);
    // Link margin: COM minus its 3 dB pass threshold, the worst class at each end.
    double worst = INFINITY;
    for (const signal::LinkVerdict& v : r.signal->links)
        worst = std::min(worst, v.marginDb);
    double seen = INFINITY;
    for (std::size_t s = 0; s < r.design.racks[0].slots.size(); ++s)
        if (std::isfinite(link.at(0, static_cast<int>(s))))
            seen = std::min(seen, link.at(0, static_cast<int>(s)));
    CHECK(seen == Approx(worst));
    CHECK(r.signal->links[0].marginDb == Approx(r.signal->links[0].comDb - 3.0));
    // The GPU clock field is throughput's per-chassis clock.
    const auto clocks = analysis::chassisClocks(r.design, *r.power, *r.thermal);
    const core::PartField& clock = named(fields, "GPU clock");
    for (const thermal::ChassisThermal& c : r.thermal->racks[0].chassis)
        CHECK(clock.at(0, c.slot) == Approx(100.0 * clocks[0][static_cast<std::size_t>(c.slot)].ratio));
}

TEST_CASE("racks stamped from one template share results but each keeps its own values", "[fields]")
{
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get());
    const core::PartField& power = named(fields, "Part power");
    REQUIRE(power.values.size() == 1536);
    for (std::size_t rack : {std::size_t{0}, std::size_t{777}, std::size_t{1535}})
        CHECK(power.values[rack][4] == Approx(r.power->racks[rack].parts[0].budgetW / 1e3));
}

TEST_CASE("each field's fail band is its rule's violations, subject for subject", "[fields][audit]")
{
    // The studio paints a part red exactly where the checks report its rule: a value beyond the
    // field's limit ⇔ a violation of the field's rule on that part or its rack.
    for (const char* design : {"data/designs/broken-rack.yaml", "tests/fixtures/studio/six-over-n1.yaml",
                               "data/designs/tight-rack.yaml", "data/designs/single-rack.yaml"}) {
        CAPTURE(design);
        core::Progress progress;
        analysis::RunOptions o;
        o.designPath = std::string(RDT_SOURCE_DIR "/") + design;
        const analysis::RunResult r = analysis::run(o, progress);
        const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get(),
                                                   r.signal.get());
        std::set<std::pair<std::string, std::string>> reported; // (rule, subject)
        for (const core::Violation& v : r.violations)
            if (!v.waived)
                reported.insert({v.rule, v.subject});
        int failing = 0;
        for (const core::PartField& f : fields) {
            if (f.rule.empty() || !std::isfinite(f.limit))
                continue;
            for (std::size_t ri = 0; ri < r.design.racks.size(); ++ri) {
                const core::Rack& rack = r.design.racks[ri];
                bool rackFails = false;
                for (std::size_t si = 0; si < rack.slots.size(); ++si) {
                    const bool fails = f.band(static_cast<int>(ri), static_cast<int>(si)) == core::PartField::Band::Fail;
                    rackFails = rackFails || fails;
                    const bool onPart =
                        reported.count({f.ruleAt(static_cast<int>(ri), static_cast<int>(si)), rack.slots[si].id}) > 0;
                    const bool onRack = reported.count({f.rule, rack.id}) > 0;
                    INFO(f.name << " at " << rack.slots[si].id << " = " << f.at(static_cast<int>(ri), static_cast<int>(si))
                                << " " << f.unit << ", limit " << f.limitAt(static_cast<int>(ri), static_cast<int>(si)));
                    if (fails) {
                        CHECK((onPart || onRack));
                        ++failing;
                    }
                    // A part-level rule reported on a part: that part is in the fail band.
                    if (onPart && f.rule != "orv3.busbar.current")
                        CHECK(fails);
                }
                // A rack-level rule reported on the rack: the rack's figure is in the fail band (the
                // busbar rule: the bar's or a clip's).
                if (reported.count({f.rule, rack.id}) && f.rule != "orv3.busbar.current" &&
                    std::any_of(f.values[ri].begin(), f.values[ri].end(), [](double v) { return std::isfinite(v); }))
                    CHECK(rackFails);
            }
        }
        if (std::string(design).find("broken") != std::string::npos)
            CHECK(failing >= 10);
    }
}

TEST_CASE("liquid fields: a part's colour fails exactly where its liquid rule fails it", "[fields][liquid]")
{
    // The pushed AALC variant (flow 3.6 L/min per kW, 250 kPa fill) fails connector pressure on its
    // trays and the warm one (1 L/min per kW at 48 degC) fails flow and outlet temperature: each
    // part's band is Fail exactly when its rule names it.
    std::ifstream in(RDT_SOURCE_DIR "/data/designs/meta-catalina-gb200.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string base = ss.str();
    auto variant = [&](std::vector<std::pair<std::string, std::string>> edits) {
        std::string t = base;
        for (const auto& [from, to] : edits)
            t.replace(t.find(from), from.size(), to);
        analysis::RunOptions o;
        o.designPath = RDT_SOURCE_DIR "/data/designs/meta-catalina-gb200.yaml";
        o.designText = t;
        core::Progress quiet;
        return analysis::run(o, quiet);
    };
    std::size_t fails = 0;
    for (const analysis::RunResult& r :
         {variant({}), variant({{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 3.6 L/min/kW"}, {"fill_pressure: 70 kPa", "fill_pressure: 250 kPa"}}),
          variant({{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 1.0 L/min/kW"}, {"supply: 40 degC", "supply: 48 degC"}})}) {
        std::vector<core::PartField> fields;
        analysis::appendLiquidFields(r.design, *r.liquid, &r.profile, fields);
        REQUIRE(fields.size() == 4);
        std::set<std::pair<std::string, std::string>> violations;
        for (const core::Violation& v : r.violations)
            violations.insert({v.rule, v.subject});
        for (const core::PartField& f : fields) {
            INFO(f.name);
            CHECK(f.anchored());
            for (const liquid::TrayLiquid& t : r.liquid->trays) {
                const bool fail = f.band(t.rack, t.slot) == core::PartField::Band::Fail;
                fails += fail ? 1 : 0;
                // The loop's load colours its parts; its rule names the loop.
                const std::string subject =
                    f.rule == "liquid.cdu.heat"
                        ? r.liquid->loops[static_cast<std::size_t>(
                                              r.liquid->racks[static_cast<std::size_t>(r.liquid->rackOf[static_cast<std::size_t>(t.rack)])].loop)]
                              .id
                        : t.id;
                INFO(subject);
                CHECK(fail == (violations.count({f.rule, subject}) > 0));
            }
        }
    }
    CHECK(fails > 100); // the variants do fail parts
}

TEST_CASE("a stopped GPU is in the GPU clock's fail band, a throttled one in its near band", "[fields][throughput]")
{
    // broken-rack: rack-c has no power shelf (orv3.power.source), so its GPUs run at 0 %; rack-a is
    // capped to 72 %. The unfed rack used to be amber, the colour of the throttled one.
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/broken-rack.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get());
    const core::PartField& clock = named(fields, "GPU clock");
    CHECK(clock.limit == 0.0);
    CHECK(clock.failAtLimit);
    std::set<std::string> errorsOn; // subjects of unwaived errors
    for (const core::Violation& v : r.violations)
        if (!v.waived && v.severity == core::Severity::Error)
            errorsOn.insert(v.subject);
    int stopped = 0, throttled = 0;
    for (std::size_t ri = 0; ri < r.design.racks.size(); ++ri)
        for (std::size_t si = 0; si < r.design.racks[ri].slots.size(); ++si) {
            const double v = clock.at(static_cast<int>(ri), static_cast<int>(si));
            if (!std::isfinite(v))
                continue;
            const core::PartField::Band b = clock.band(static_cast<int>(ri), static_cast<int>(si));
            INFO(r.design.racks[ri].slots[si].id << " at " << v << " %");
            if (v == 0.0) {
                CHECK(b == core::PartField::Band::Fail);
                // A stopped GPU has an error on its rack or its chassis behind it.
                CHECK((errorsOn.count(r.design.racks[ri].id) + errorsOn.count(r.design.racks[ri].slots[si].id)) > 0);
                ++stopped;
            } else if (v < 99.95) {
                CHECK(b == core::PartField::Band::Near);
                ++throttled;
            } else
                CHECK(b == core::PartField::Band::Pass);
        }
    CHECK(stopped == 1);   // rack-c/gt0
    CHECK(throttled >= 2); // rack-a's
    // Just above zero is throttled, not stopped.
    CHECK(clock.bandOf(0.01, clock.limit, clock.nearLimit) == core::PartField::Band::Near);
}

TEST_CASE("a part without its link has no link margin", "[fields][signal]")
{
    // broken-rack: rack-b and rack-c hold a GPU chassis and no switch, so class nic-rtsw runs only in
    // rack-a (link.endpoint.missing names the other two); their chassis read the class's 6.8 dB pass.
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/broken-rack.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get(),
                                               r.signal.get());
    const core::PartField& margin = named(fields, "Link margin");
    std::set<std::string> missing;
    for (const core::Violation& v : r.violations)
        if (v.rule == "link.endpoint.missing")
            missing.insert(v.subject);
    REQUIRE(missing.size() == 2);
    int withFigure = 0;
    for (std::size_t ri = 0; ri < r.design.racks.size(); ++ri)
        for (std::size_t si = 0; si < r.design.racks[ri].slots.size(); ++si) {
            const std::string& id = r.design.racks[ri].slots[si].id;
            const double v = margin.at(static_cast<int>(ri), static_cast<int>(si));
            CAPTURE(id, v);
            if (missing.count(id))
                CHECK_FALSE(std::isfinite(v));
            withFigure += std::isfinite(v) ? 1 : 0;
        }
    CHECK(withFigure >= 2); // rack-a's chassis and switch
}

TEST_CASE("a part whose link fails a link rule is coloured as failing, never by the class's margin", "[fields][signal]")
{
    // broken-rack: rack-a's gt0 and gt1 need 2.47 m and 2.28 m of cable where the class's DAC is 1 m
    // (signal.cable.reach, an error at each chassis); the studio coloured them "pass ≥ 1 dB" by the
    // class's 6.8 dB COM margin. Every part with an unwaived link error is now in the fail band.
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/broken-rack.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    std::vector<core::PartField> fields =
        analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get(), r.signal.get());
    analysis::failLinkEnds(fields, r.design, r.violations);
    const core::PartField& margin = named(fields, "Link margin");
    std::set<std::string> failing;
    for (const core::Violation& v : r.violations)
        if (!v.waived && v.severity == core::Severity::Error &&
            (v.rule.rfind("signal.", 0) == 0 || v.rule.rfind("link.", 0) == 0))
            failing.insert(v.subject);
    CHECK(failing.count("lab/row1/rack-a/gt0") == 1);
    CHECK(failing.count("lab/row1/rack-a/gt1") == 1);
    int judged = 0;
    for (std::size_t ri = 0; ri < r.design.racks.size(); ++ri)
        for (std::size_t si = 0; si < r.design.racks[ri].slots.size(); ++si) {
            const std::string& id = r.design.racks[ri].slots[si].id;
            CAPTURE(id);
            if (failing.count(id)) {
                CHECK(margin.band(static_cast<int>(ri), static_cast<int>(si)) == core::PartField::Band::Fail);
                ++judged;
            }
        }
    CHECK(judged == static_cast<int>(failing.size())); // every failing subject is a placed part here
}
