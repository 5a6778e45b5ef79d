// What-ifs take the design file's limits and words (issue 33, defect 6): a GPU cap or failed-rotor
// count the file refuses is refused with the same message, never clamped; a lost feed no shelf is on
// says it would change nothing.
#include <catch2/catch.hpp>

#include "core/Design.h"
#include "core/Error.h"
#include "core/WhatIf.h"
#include "support/RuleHarness.h"

using namespace rdt::core;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

Design fromText(const std::string& slots, const std::string& rackType = "orv3-hpr")
{
    return loadDesignText(rdt::test::oneRack(rackType, slots), "w.yaml", rdt::test::kDataDir + "/catalog");
}

/// The loader's message (without its location) for a slot list it refuses.
std::string fileError(const std::string& slots)
{
    try {
        fromText(slots);
    } catch (const InputError& e) {
        return e.message();
    }
    return "(accepted)";
}

const std::string kGt = "{ou: 6, part: meta-grand-teton-h100, id: gt0";

} // namespace

TEST_CASE("gpu-cap what-if: the caps gpu_power_cap accepts, in its words", "[whatif][core]")
{
    const Design d = fromText(kGt + "}");
    // nvidia-h100-sxm5: min_power_cap 200 W [C5], tdp 700 W: both ends accepted, one watt beyond refused.
    CHECK(gpuCapRange(*d.catalog, *d.racks[0].slots[0].part).min == 200.0);
    CHECK(gpuCapRange(*d.catalog, *d.racks[0].slots[0].part).max == 700.0);
    CHECK(gpuCapWhatIfError(d, 200.0).empty());
    CHECK(gpuCapWhatIfError(d, 700.0).empty());
    // Before: 100 W was clamped to 200 W and the run still said "gpu-cap=100 W".
    for (const double w : {100.0, 199.0, 701.0}) {
        const std::string written = formatQuantity(w, Dimension::Power, 6);
        const std::string file = fileError(kGt + ", gpu_power_cap: " + written + "}");
        INFO(written << ": file says " << file);
        CHECK_THAT(file, Contains("is outside the allowed range 200 W … 700 W"));
        CHECK_THAT(gpuCapWhatIfError(d, w), StartsWith(file) && Contains("nvidia-h100-sxm5") && Contains("h/w/k/gt0"));
    }
    // A design without GPU chassis: a cap would change nothing.
    CHECK_THAT(gpuCapWhatIfError(fromText("{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw}"), 500.0),
               Contains("no GPU chassis"));
}

TEST_CASE("fan-fail=N: within the rotors failed_fans may name", "[whatif][core]")
{
    // Grand Teton: 16 dual-rotor fans = 32 rotors [G7][G8]; the file's failed_fans takes 0 … 32.
    const Design d = fromText(kGt + "}");
    CHECK(rotorCount(*d.racks[0].slots[0].part) == 32);
    CHECK(fanFailWhatIfError(d, 32).empty());
    CHECK(fanFailWhatIfError(d, 0).empty());
    const std::string file = fileError(kGt + ", failed_fans: 33}");
    CHECK(file == "value 33 is outside the allowed range 0 … 32");
    // Before: "unknown scenario" for fan-fail=99, as if the words were wrong.
    CHECK_THAT(fanFailWhatIfError(d, 33), StartsWith(file) && Contains("meta-grand-teton-h100 has 32 fan rotors"));
    CHECK_THAT(fanFailWhatIfError(d, -1), StartsWith("value -1 is outside the allowed range 0 … 32"));
    // Rotors already failed in the file leave fewer to fail: 2 failed → at most 30 more.
    const Design worn = fromText(kGt + ", failed_fans: 2}");
    CHECK(fanFailWhatIfError(worn, 30).empty());
    CHECK_THAT(fanFailWhatIfError(worn, 31), StartsWith("value 31 is outside the allowed range 0 … 30") &&
                                                 Contains("2 of them failed in the file at h/w/k/gt0"));
    CHECK_THAT(fanFailWhatIfError(fromText("{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw}"), 1),
               Contains("would change nothing"));
}

TEST_CASE("feed-loss=A on racks whose shelves name no feed says it changes nothing", "[whatif][core]")
{
    const std::string shelves = "{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a}, "
                                "{ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b}, ";
    const Design noFeeds = fromText(shelves + kGt + "}");
    // Before: the run went ahead as designed, labelled "feed-loss=A".
    CHECK_THAT(feedLossWhatIfError(noFeeds, "A"),
               Contains("no power shelf of the design is on feed A") && Contains("would change nothing"));
    const Design fed = fromText("{ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A}, "
                                "{ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b}, " +
                                kGt + "}");
    CHECK(feedLossWhatIfError(fed, "A").empty());
    // psu-b names no feed beside psu-a's: it could be on B, and is lost with either feed (as
    // orv3.feed.loss counts it), so losing B changes something (until 2026-12-06: "changes nothing",
    // and psu-b kept running in the feed-loss=A what-if).
    CHECK(feedLossWhatIfError(fed, "B").empty());
    CHECK_THAT(feedLossWhatIfError(fed, "C"), Contains("feed must be A or B"));
}
