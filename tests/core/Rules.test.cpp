#include <catch2/catch.hpp>

#include "core/MechanicalChecks.h"
#include "core/Rules.h"
#include "support/RuleHarness.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static Design rack(const std::string& slots, const std::string& extra = "")
{
    return loadDesignText(rdt::test::oneRack("orv3-standard", slots) + extra, "r.yaml",
                          rdt::test::kDataDir + "/catalog");
}

static std::vector<Violation> check(const Design& d, const std::string& profileText = "name: t\n")
{
    CheckRegistry reg;
    registerChecks(reg);
    Progress progress;
    return runChecks(d, reg, Profile::loadText(profileText, "p.yaml", reg), progress);
}

TEST_CASE("overlap is measured in OU and names both parts", "[rules]")
{
    // Grand Teton is 8 OU: at 1 it spans 1–8, at 6 it spans 6–13 → 3 OU in common.
    const auto v =
        check(rack("{ou: 1, part: meta-grand-teton-h100, id: a}, {ou: 6, part: meta-grand-teton-h100, id: b}"));
    REQUIRE(v.size() == 1);
    CHECK(v[0].rule == "orv3.slot.overlap");
    CHECK(v[0].subject == "h/w/k/b");
    CHECK(v[0].measured == 3);
    CHECK(v[0].unit == "OU");
    CHECK_THAT(v[0].message, Contains("overlaps a"));
    CHECK(v[0].loc.file == "r.yaml");
}

TEST_CASE("adjacent parts and a part ending at OU 44 are fine", "[rules]")
{
    CHECK(check(rack("{ou: 1, part: meta-grand-teton-h100}, {ou: 9, part: meta-grand-teton-h100}, "
                     "{ou: 41, part: meta-minipack2}"))
              .empty());
    const auto v = check(rack("{ou: 42, part: meta-minipack2}"));
    REQUIRE(v.size() == 1);
    CHECK(v[0].rule == "orv3.slot.range");
    CHECK(v[0].measured == 45);
    CHECK(v[0].limit == 44);
}

TEST_CASE("payload mass sums catalog weights", "[rules]")
{
    // 11 Grand Tetons at 130 kg (catalog estimate) = 1,430 kg > 1,400 kg. They overlap; the mass
    // rule does not care about positions, and the other rules' findings are ignored here.
    std::string slots;
    for (int i = 0; i < 11; ++i)
        slots += (i ? ", " : "") + std::string("{ou: ") + std::to_string(1 + 4 * i) +
                 ", part: meta-grand-teton-h100, id: g" + std::to_string(i) + "}";
    const auto mass = check(rack(slots));
    std::size_t massViolations = 0;
    for (const auto& x : mass)
        if (x.rule == "orv3.rack.mass") {
            ++massViolations;
            CHECK(x.measured == Approx(1430.0));
            CHECK(x.limit == 1400.0);
            CHECK(x.unit == "kg");
        }
    CHECK(massViolations == 1);
}

TEST_CASE("profiles switch rules off, change severity and limits", "[rules][profile]")
{
    const Design d = rack("{ou: 1, part: meta-grand-teton-h100, id: a}, {ou: 6, part: meta-grand-teton-h100, id: b}");
    CHECK(check(d, "name: t\nrules:\n  orv3.slot.overlap: off\n").empty());
    const auto w = check(d, "name: t\nrules:\n  orv3.slot.overlap: warning\n");
    REQUIRE(w.size() == 1);
    CHECK(w[0].severity == Severity::Warning);
    CHECK(countViolations(w).errors == 0);
    CHECK(countViolations(w).warnings == 1);
    CHECK(check(d, "name: t\nonly_listed: true\nrules: {orv3.rack.mass: error}\n").empty());

    CheckRegistry reg;
    registerChecks(reg);
    CHECK_THROWS_WITH(Profile::loadText("name: t\nrules: {orv3.slot.overlp: off}\n", "p.yaml", reg),
                      Contains("p.yaml:2:") &&
                          Contains("unknown rule \"orv3.slot.overlp\" (did you mean \"orv3.slot.overlap\"?)"));
    CHECK_THROWS_WITH(Profile::loadText("name: t\nrules: {orv3.slot.overlap: maybe}\n", "p.yaml", reg),
                      Contains("expected off, info, warning or error"));
    const Profile p = Profile::loadText("name: t\nrules: {catalog.part.width: {bay_width: 500 mm}}\n", "p.yaml", reg);
    CHECK(p.configFor(*reg.find("catalog.part.width")).constraints.at("bay_width").value == Approx(0.5));
}

TEST_CASE("waivers keep the violation but mark it waived with its justification", "[rules][waiver]")
{
    const Design d = rack("{ou: 42, part: meta-minipack2, id: sw}",
                          "waivers: [{rule: orv3.slot.range, subject: h/w/k/sw, justification: Top-of-rack extension "
                          "frame adds 4 OU in this lab.}]\n");
    const auto v = check(d);
    REQUIRE(v.size() == 1);
    CHECK(v[0].waived);
    CHECK_THAT(v[0].justification, Contains("extension frame"));
    CHECK(countViolations(v).errors == 0);
    CHECK(countViolations(v).waived == 1);
}

TEST_CASE("rule ids are unique and every rule cites a source", "[rules]")
{
    CheckRegistry reg;
    registerChecks(reg);
    CHECK_THROWS(registerChecks(reg)); // a second registration is a programming error
    for (const auto& e : reg.entries()) {
        CHECK_FALSE(e.info.spec.empty());
        CHECK_FALSE(e.info.title.empty());
    }
}

TEST_CASE("default_severity sets every rule the profile does not name", "[rules][profile]")
{
    // ocp-strict says "every rule is an error" (issue 33, defect 9): default_severity makes it so for
    // every rule, including those added after the profile was written.
    CheckRegistry reg;
    registerChecks(reg);
    const Profile strict =
        Profile::loadText("name: s\ndefault_severity: error\nrules: {orv3.rack.mass: warning}\n", "s.yaml", reg);
    for (const auto& e : reg.entries())
        CHECK(strict.configFor(e.info).severity ==
              (e.info.id == "orv3.rack.mass" ? Severity::Warning : Severity::Error));
    // A rule named with only a limit takes the default severity too.
    const Profile limit =
        Profile::loadText("name: s\ndefault_severity: info\nrules: {orv3.rack.mass: {enabled: true}}\n", "s.yaml", reg);
    CHECK(limit.configFor(*reg.find("orv3.rack.mass")).severity == Severity::Info);
    CHECK_THROWS_WITH(Profile::loadText("name: s\ndefault_severity: fatal\n", "s.yaml", reg),
                      Contains("s.yaml:2") && Contains("default_severity must be info, warning or error"));
}
