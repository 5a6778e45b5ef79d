// No silent change (issue 33, defect 6): a what-if the design file would refuse is the same located
// error on the command line (exit 2), never clamped; a what-if or selection that matches nothing says
// so (exit 2) instead of running unchanged or printing an empty table.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("rdt check --gpu-cap outside the GPU's range is the design file's error, not a clamp", "[cli][whatif]")
{
    // nvidia-h100-sxm5 takes caps from its min_power_cap 200 W to its 700 W TDP, as gpu_power_cap in
    // the file does. Before: 100 W was clamped to 200 W, exit 0, and the run said "gpu-cap=100 W".
    const Run low = runRdt("check data/designs/single-rack.yaml --gpu-cap 100W");
    CHECK(low.code == 2);
    CHECK_THAT(low.out, Contains("command line: --gpu-cap: \"100 W\" is outside the allowed range 200 W … 700 W") &&
                            Contains("nvidia-h100-sxm5"));
    CHECK_THAT(low.out, !Contains("scenario gpu-cap"));
    // Just over the top of the range, at its own subject: 701 W refused, 700 W and 200 W run as asked.
    CHECK(runRdt("check data/designs/single-rack.yaml --gpu-cap 701W").code == 2);
    // A hair over says the value as given, not "700 W is outside … 700 W" (trust trial, 2026-12-07).
    CHECK_THAT(runRdt("check data/designs/single-rack.yaml --gpu-cap 700.0001W").out,
               Contains("\"700.0001 W\" is outside the allowed range 200 W … 700 W"));
    const Run top = runRdt("check data/designs/single-rack.yaml --gpu-cap 700W");
    CHECK(top.code == 0);
    CHECK_THAT(top.out, Contains("scenario gpu-cap=700 W"));
    CHECK_THAT(runRdt("check data/designs/single-rack.yaml --gpu-cap 200W").out, Contains("scenario gpu-cap=200 W"));
}

TEST_CASE("fan-fail=N beyond a chassis' rotors is a range error, not an unknown scenario", "[cli][whatif]")
{
    // Grand Teton has 16 dual-rotor fans: 32 rotors, failed_fans 0 … 32 in the file.
    const Run many = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=99");
    CHECK(many.code == 2);
    CHECK_THAT(many.out, Contains("--scenario: fan-fail=99: value 99 is outside the allowed range 0 … 32") &&
                             !Contains("unknown scenario"));
    CHECK(runRdt("check data/designs/single-rack.yaml --scenario fan-fail=33").code == 2);
    const Run all = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=32");
    CHECK(all.code != 2);
    CHECK_THAT(all.out, Contains("scenario fan-fail=32"));
    const Run words = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=two");
    CHECK(words.code == 2);
    CHECK_THAT(words.out, Contains("\"two\" is not a whole number"));
    CHECK_THAT(runRdt("check data/designs/single-rack.yaml --scenario fan-flail=1").out,
               Contains("unknown scenario \"fan-flail=1\""));
}

TEST_CASE("feed-loss on a design whose shelves name no feed says so and exits 2", "[cli][whatif]")
{
    // meta-rsc-a100's racks have shelves without feed: (before: exit 0, "scenario feed-loss=A", nothing
    // changed). single-rack's shelves are on A and B: the what-if runs.
    const Run none = runRdt("check data/designs/meta-rsc-a100.yaml --scenario feed-loss=A");
    CHECK(none.code == 2);
    CHECK_THAT(none.out,
               Contains("feed-loss=A: no power shelf of the design is on feed A") && Contains("would change nothing"));
    CHECK_THAT(runRdt("check data/designs/single-rack.yaml --scenario feed-loss=A").out,
               Contains("scenario feed-loss=A"));
    CHECK(runRdt("check data/designs/single-rack.yaml --scenario feed-loss=C").code == 2);
    // The same in rdt report and validate, which take the same what-ifs.
    CHECK(runRdt("validate data/designs/meta-rsc-a100.yaml --scenario feed-loss=B").code == 2);
}

TEST_CASE("a sweep's refused value fails its variant with the design file's words", "[cli][whatif][sweep]")
{
    rdt::test::TempDir t;
    const std::string spec = t.path + "/cap.yaml";
    std::ofstream(spec) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n"
                           "  - {axis: gpu_cap, values: [150 W, 600 W]}\n";
    const Run w = runRdt("sweep " + spec);
    INFO(w.out);
    CHECK(w.code == 2); // a variant failed to run on its input
    // Before: 150 W ran clamped to 200 W and the variant passed.
    CHECK_THAT(w.out, Contains("1 failed to run") && Contains("cap.yaml:4:5: axes[0] (gpu_cap 150 W)") &&
                          Contains("\"150 W\" is outside the allowed range 200 W … 700 W"));
}

TEST_CASE("rdt catalog list --kind that matches nothing says so", "[cli][whatif][catalog]")
{
    // Before: a header and no rows, exit 0.
    const Run typo = runRdt("catalog list --kind gpus");
    CHECK(typo.code == 2);
    CHECK_THAT(typo.out, Contains("--kind: unknown part kind \"gpus\"") && Contains("did you mean \"gpu\""));
    const Run gpus = runRdt("catalog list --kind gpu");
    CHECK(gpus.code == 0);
    CHECK_THAT(gpus.out, Contains("nvidia-h100-sxm5"));
}

TEST_CASE("what-ifs combine: --scenario repeated or comma-separated, each at most once", "[cli][whatif]")
{
    // One --scenario only was taken (CLI11's "At Most 1 required but received 2", without rdt's
    // prefix), and "fan-fail=2,feed-loss=A" read as a rotor count: a fan failure with a feed lost could
    // not be checked (trust trial, 2026-12-07).
    const Run both = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=2 --scenario feed-loss=A --json",
                            false);
    const Run comma = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=2,feed-loss=A --json", false);
    REQUIRE(both.code == comma.code);
    const nlohmann::json a = nlohmann::json::parse(both.out), b = nlohmann::json::parse(comma.out);
    CHECK(a["scenario"] == "fan-fail=2, feed-loss=A");
    CHECK(b["scenario"] == a["scenario"]);
    CHECK(a["thermal"]["chassis"][0]["fan_speed"] == 1.0); // two failed rotors: full speed [G8]
    CHECK(a["thermal"]["chassis"][0]["failed_rotors"] == 2);
    CHECK(a["power"]["racks"][0]["it_load_W"] == b["power"]["racks"][0]["it_load_W"]);
    CHECK(a["counts"] == b["counts"]);
    // The form the summary echoes reads back, and an empty item is none (review).
    const Run echoed = runRdt("check data/designs/single-rack.yaml --scenario \"fan-fail=2, feed-loss=A,\" --json",
                              false);
    CHECK(nlohmann::json::parse(echoed.out)["scenario"] == "fan-fail=2, feed-loss=A");
    CHECK(runRdt("check data/designs/single-rack.yaml --scenario \"\"").code == 0);
    const Run twice = runRdt("check data/designs/single-rack.yaml --scenario fan-fail=2,fan-fail=3");
    CHECK(twice.code == 2);
    CHECK_THAT(twice.out, Contains("rdt: error: command line: --scenario: \"fan-fail\" is given twice"));
}

TEST_CASE("a rack whose shelves a lost feed takes is said so, not 'has no power shelf'", "[cli][whatif]")
{
    // psu-a on feed A, psu-b on no named feed (lost with either): feed-loss=A takes both, and
    // orv3.power.source read "rack … has no power shelf" beside its two shelves (trust trial, 2026-12-07).
    rdt::test::TempDir t;
    std::ifstream in(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string b = ", id: psu-b, feed: B}";
    REQUIRE(text.find(b) != std::string::npos);
    text.replace(text.find(b), b.size(), ", id: psu-b}");
    std::ofstream(t.path + "/unnamed.yaml") << text;
    const Run lost = runRdt("check " + t.path + "/unnamed.yaml --scenario feed-loss=A");
    CHECK(lost.code == 1);
    CHECK_THAT(lost.out, Contains("rack lab/row1/rack1's 2 power shelves are lost with feed A") &&
                             !Contains("has no power shelf"));
}
