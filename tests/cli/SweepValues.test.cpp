// rdt sweep: an axis's values are the values rdt check would take. A range's values came from a
// running sum of its step (34 degC + 10 x 0.1 K was 35.000000000000014 degC, labelled "35 degC" and
// over the 35 degC allowable that rdt check --inlet 35degC is not over); an inlet at or below
// absolute zero read as "as designed" and passed; values the command line refuses were run.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/Pipeline.h"
#include "analysis/Sweep.h"
#include "core/Units.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

std::string spec(const std::string& dir, const std::string& axes)
{
    const std::string p = dir + "/v.yaml";
    std::ofstream(p) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n" << axes;
    return p;
}

std::vector<std::string> rules(const json& variant)
{
    std::vector<std::string> out;
    std::string r = variant["failed_rules"].get<std::string>();
    for (std::size_t at = 0; !r.empty() && at != std::string::npos;) {
        const std::size_t comma = r.find(',', at);
        out.push_back(r.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        at = comma == std::string::npos ? comma : comma + 1;
    }
    return out;
}

} // namespace

TEST_CASE("sweep: a range's values are from + i x step, each the value its label names", "[cli][sweep]")
{
    test::TempDir t;
    const analysis::SweepSpec s =
        analysis::loadSweepSpec(spec(t.path, "  - {axis: inlet, from: 34.0 degC, to: 35.2 degC, step: 0.1 K}\n"));
    REQUIRE(s.axes.size() == 1);
    const analysis::SweepAxis& a = s.axes[0];
    REQUIRE(a.values.size() == 13);
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        CAPTURE(i, a.labels[i]);
        // The value rdt check's --inlet gives for the label's text, to the bit.
        const core::ParsedQuantity p =
            core::parseQuantity(a.labels[i], core::Dimension::Temperature, core::Range::any());
        REQUIRE(p.value);
        CHECK(a.values[i] == *p.value);
    }
    CHECK(a.labels[10] == "35 degC");
    CHECK(a.values[10] == 35.0 + 273.15);
    CHECK(a.labels.back() == "35.2 degC");
    // A range whose end is not on the step stops before it.
    const analysis::SweepSpec g =
        analysis::loadSweepSpec(spec(t.path, "  - {axis: gpu_cap, from: 500 W, to: 701 W, step: 100 W}\n"));
    CHECK(g.axes[0].values == std::vector<double>{500, 600, 700});
}

TEST_CASE("sweep: the 35 degC point of a 0.1 K range has rdt check's verdicts at 35 degC", "[cli][sweep]")
{
    test::TempDir t;
    const test::Run r = test::runRdt(
        "sweep " + spec(t.path, "  - {axis: inlet, from: 34.9 degC, to: 35.1 degC, step: 0.1 K}\n") + " --json", false);
    INFO(r.out);
    const json v = json::parse(r.out)["variants"];
    REQUIRE(v.size() == 3);
    const char* inlets[] = {"34.9degC", "35degC", "35.1degC"};
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        const json c = json::parse(
            test::runRdt("check data/designs/single-rack.yaml --json --inlet " + std::string(inlets[i]), false).out);
        CHECK(v[i]["errors"] == c["counts"]["errors"]);
        CHECK(v[i]["warnings"] == c["counts"]["warnings"]);
        std::set<std::string> checked;
        for (const json& x : c["violations"])
            if (x["severity"] == "error") // the sweep lists the error rules
                checked.insert(x["rule"].get<std::string>());
        const std::vector<std::string> swept = rules(v[i]);
        CHECK(std::set<std::string>(swept.begin(), swept.end()) == checked);
        // thermal.ashrae.inlet judges the supply air against A2's 35 degC: over it at 35.1 only.
        CHECK((checked.count("thermal.ashrae.inlet") == 1) == (i == 2));
    }
}

TEST_CASE("sweep: inlet and altitude values outside the command line's ranges are refused, located",
          "[cli][sweep][bad-input]")
{
    test::TempDir t;
    for (const char* axis :
         {"  - {axis: inlet, values: [25 degC, -274 degC]}\n", "  - {axis: inlet, values: [25 degC, -273.15 degC]}\n",
          "  - {axis: inlet, values: [25 degC, 150 degC]}\n",
          "  - {axis: inlet, from: 90 degC, to: 110 degC, step: 10 K}\n",
          "  - {axis: altitude, values: [0 m, 20000 m]}\n",
          "  - {axis: altitude, from: -1000 m, to: 0 m, step: 500 m}\n"}) {
        CAPTURE(axis);
        const test::Run r = test::runRdt("sweep " + spec(t.path, axis));
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("v.yaml:4") && Contains("outside the allowed range"));
    }
    // The limits themselves are values the command line takes.
    CHECK_NOTHROW(analysis::loadSweepSpec(spec(t.path, "  - {axis: inlet, values: [-50 degC, 100 degC]}\n")));
    CHECK_NOTHROW(analysis::loadSweepSpec(spec(t.path, "  - {axis: altitude, values: [-500 m, 6000 m]}\n")));
}

TEST_CASE("what-if inlet: NaN is as designed, any value in range is applied, 0 K included in the check", "[cli][sweep]")
{
    analysis::RunOptions o;
    CHECK(std::isnan(o.inletK));
    CHECK_FALSE(o.anyWhatIf());
    o.inletK = analysis::RunOptions::kInletRange.min;
    CHECK(o.anyWhatIf());
}

TEST_CASE("sweep: an axis with values and a range is refused at the range's key", "[cli][sweep][bad-input]")
{
    // Trust trial (2026-12-07): `values: [30 degC]` beside `from/to/step` ran the one value and
    // dropped the range without a word.
    test::TempDir t;
    for (const char* key : {"from", "to", "step"}) {
        CAPTURE(key);
        const std::string range = std::string(key) == "from" ? "from: 20 degC"
                                  : std::string(key) == "to" ? "to: 24 degC"
                                                             : "step: 2 K";
        const test::Run r = test::runRdt("sweep " + spec(t.path, "  - {axis: inlet, values: [30 degC], " + range + "}\n"));
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("v.yaml:4") && Contains("not both (" + std::string(key) + " beside values)"));
    }
    CHECK_NOTHROW(analysis::loadSweepSpec(spec(t.path, "  - {axis: inlet, from: 20 degC, to: 24 degC, step: 2 K}\n")));
}
