// Labels that say what they mean (issue 33, defect 9): ocp-strict makes every rule an error as its
// description says; a negative RCI_HI says what it means; the two "hottest" air figures have names
// that tell them apart in rdt check and rdt field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <regex>

#include "analysis/Pipeline.h"
#include "tests/support/RunRdt.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("ocp-strict: every rule is an error, as it says", "[cli][labels][profile]")
{
    // Before: the profile said "every rule is an error" while thermal.gpu.setpoint, thermal.row.rci,
    // orv3.psu.pulse, signal.link.rate and the hil.* warnings stayed warnings.
    const rdt::core::CheckRegistry reg = rdt::analysis::makeRegistry();
    const rdt::core::Profile strict = rdt::core::Profile::load(rdt::analysis::profilePath("ocp-strict"), reg);
    CHECK_THAT(strict.description, Contains("every rule is an error"));
    for (const auto& e : reg.entries()) {
        INFO(e.info.id);
        CHECK(strict.configFor(e.info).enabled);
        CHECK(strict.configFor(e.info).severity == rdt::core::Severity::Error);
    }
    // single-rack's row: RCI_HI below 96 % - a warning by default (exit 0), an error under ocp-strict
    // (exit 1), in text and SARIF alike.
    const Run byDefault = runRdt("check data/designs/single-rack.yaml");
    CHECK(byDefault.code == 0);
    CHECK_THAT(byDefault.out, Contains("warning  thermal.row.rci"));
    const Run text = runRdt("check data/designs/single-rack.yaml --profile ocp-strict");
    CHECK(text.code == 1);
    CHECK_THAT(text.out, Contains("error  thermal.row.rci") && Contains("0 warnings"));
    const Run sarif = runRdt("validate data/designs/single-rack.yaml --profile ocp-strict --format sarif", false);
    CHECK(sarif.code == 1);
    const nlohmann::json log = nlohmann::json::parse(sarif.out); // kept: a range over a temporary's member dangles
    for (const auto& res : log["runs"][0]["results"])
        CHECK(res["level"] == "error");
}

TEST_CASE("a negative RCI_HI says what it means", "[cli][labels][thermal]")
{
    // RCI_HI = (1 - mean over-temperature above the recommended 27 degC / (35 - 27) K) x 100 % for
    // ASHRAE A2 (Herrlin 2005). Supply air at 45 degC: every intake at least 18 K over 27 degC, so
    // RCI_HI <= (1 - 18/8) x 100 % = -125 %. Before: "RCI_HI -132 %" and nothing more.
    const Run hot = runRdt("check data/designs/single-rack.yaml --inlet 45degC --json", false);
    const auto j = nlohmann::json::parse(hot.out);
    double rci = 0;
    for (const auto& v : j["violations"])
        if (v["rule"] == "thermal.row.rci")
            rci = v["measured"].get<double>();
    CHECK(rci <= -125.0);
    const Run text = runRdt("check data/designs/single-rack.yaml --inlet 45degC");
    std::smatch m;
    const std::regex re("RCI_HI (-[0-9.]+) % \\(below 0: the intakes' mean excess over the recommended 27 degC is "
                        "([0-9.]+) K, more than the 8 K up to the allowable 35 degC: the index is off its scale");
    REQUIRE(std::regex_search(text.out, m, re));
    // The mean excess it names is the index turned back: (1 - RCI_HI/100) x 8 K, to its 3 figures.
    CHECK(std::stod(m[2]) == Approx((1 - rci / 100) * 8.0).epsilon(0.005));
    // At 0 % or above, no such words.
    CHECK_THAT(runRdt("check data/designs/single-rack.yaml").out, !Contains("below 0:"));
}

TEST_CASE("rdt check's and rdt field's air figures have names that tell them apart", "[cli][labels][field]")
{
    // Before: rdt field said "hottest air at a rack front 34.2 degC", rdt check "warmest inlet
    // 31.8 degC" for the same room: one grid cell in front of a rack against the mean air a chassis
    // draws. Both now name what they are, and rdt field prints both. (A room of six racks: the
    // labels are the room's, whatever its size.)
    const std::string design = "tests/fixtures/room/row-pair-6.yaml";
    const Run check = runRdt("check " + design);
    std::smatch c;
    REQUIRE(std::regex_search(check.out, c, std::regex("warmest chassis inlet ([0-9.]+) degC")));
    const Run field = runRdt("field " + design);
    std::smatch f;
    REQUIRE(std::regex_search(field.out, f,
                              std::regex("hottest air cell at a rack front ([0-9.]+) degC \\([^;]+; one grid cell\\), "
                                         "warmest chassis inlet ([0-9.]+) degC \\([^;]+; the mean air a chassis "
                                         "draws\\)")));
    CHECK(f[2].str() == c[1].str());                  // the same figure, the same name, in both commands
    CHECK(std::stod(f[1]) >= std::stod(f[2]) - 0.05); // one cell is at least as hot as a chassis' mean
    CHECK_THAT(check.out + field.out, !Contains("warmest inlet") && !Contains("hottest air at a rack front"));
}
