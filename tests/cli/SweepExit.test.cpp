// rdt sweep's exit code is rdt check's over its variants (trust trial, 2026-12-07): a sweep exited 0
// when none of its variants ran ("0 pass every verdict, 0 fail a rule or target, 3 failed to run"),
// so a script could not tell a clean study from a broken one. And the outage case on racks that take
// AC directly is reported as not judged, in text and JSON alike.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/Sweep.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

std::string spec(const std::string& dir, const std::string& axes)
{
    const std::string p = dir + "/s.yaml";
    std::ofstream(p) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n" << axes;
    return p;
}

} // namespace

TEST_CASE("sweep exit codes: 0 clean, 1 a rule violated, 2 a variant that did not run", "[cli][sweep][exit]")
{
    test::TempDir t;
    // single-rack at 25 and 30 degC: warnings only (rdt check exits 0 on it).
    const test::Run clean = test::runRdt("sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 30 degC]}\n"));
    INFO(clean.out);
    CHECK(clean.code == 0);
    CHECK_THAT(clean.out, Contains("2 pass every verdict"));
    // 35.1 degC is over A2's 35 degC at the inlet: an error rule in that variant only.
    const test::Run hot = test::runRdt("sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 36 degC]}\n"));
    INFO(hot.out);
    CHECK(hot.code == 1);
    CHECK_THAT(hot.out, Contains("1 pass every verdict") && Contains("thermal.inlet.chassis"));
    CHECK(test::runRdt("check data/designs/single-rack.yaml --inlet 36degC").code == 1); // the same verdict
    // Every variant refused by the loader: exit 2 and a line that says so (text and --json alike).
    const std::string none = spec(t.path, "  - {axis: field, path: site.ashrae_class, values: [Z8, Z9]}\n");
    const test::Run bad = test::runRdt("sweep " + none);
    INFO(bad.out);
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("2 failed to run") && Contains("2 of 2 variants failed to run"));
    const test::Run badJson = test::runRdt("sweep " + none + " --json", false);
    CHECK(badJson.code == 2);
    const json j = json::parse(badJson.out);
    CHECK(j["failed_to_run"] == 2);
    for (const json& v : j["variants"]) {
        CHECK(v["ok"] == false);
        CHECK(v["not_converged"] == false);
        CHECK_THAT(v["error"].get<std::string>(), Contains("Z"));
    }
}

TEST_CASE("sweep frontier: variants that did not run are no verdict", "[cli][sweep][exit]")
{
    test::TempDir t;
    const test::Run r = test::runRdt(
        "sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 30 degC]}\n"
                                "  - {axis: field, path: site.ashrae_class, values: [A2, Z9]}\n"));
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("frontier: site.ashrae_class A2: inlet up to 30 degC passes every verdict"));
    // It read "no inlet in the sweep passes every verdict", as if every value had been judged.
    CHECK_THAT(r.out, Contains("frontier: site.ashrae_class Z9: no variant ran, so no frontier"));
}

TEST_CASE("a variant that did not converge keeps that through the ranks' wire format", "[cli][sweep][exit]")
{
    analysis::VariantResult r;
    r.index = 7;
    r.ok = false;
    r.notConverged = true;
    r.error = "field solver did not converge";
    const analysis::VariantResult back = analysis::decodeVariant(analysis::encodeVariant(r, true));
    CHECK(back.index == 7);
    CHECK_FALSE(back.ok);
    CHECK(back.notConverged);
    CHECK(back.error == r.error);
    r.notConverged = false;
    CHECK_FALSE(analysis::decodeVariant(analysis::encodeVariant(r, true)).notConverged);
}

TEST_CASE("the utility outage is not judged for racks taking AC directly, in text and JSON", "[cli][failure]")
{
    const test::Run text = test::runRdt("check data/designs/meta-rsc-a100.yaml");
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("failure  with a utility outage (on battery): not judged for 1,000 racks whose "
                                  "load takes AC directly"));
    CHECK_FALSE(text.out.find("0 PFLOPS in all") != std::string::npos);
    const json j = json::parse(test::runRdt("check data/designs/meta-rsc-a100.yaml --json", false).out);
    bool seen = false;
    for (const json& f : j["throughput"]["failure_cases"])
        if (f["case"] == "utility outage (on battery)") {
            seen = true;
            CHECK(f["racks_not_judged"] == 1000);
            CHECK(f["racks_limited"] == 0);
        }
    CHECK(seen);
}
