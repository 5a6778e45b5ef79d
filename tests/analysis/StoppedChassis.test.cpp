// A chassis whose GPUs heat stops (every rotor failed: no air through it) is a class of its own, as an
// unfed rack's: one dead chassis set its whole class at 0, a 2,328-GPU design read 0 PFLOPS, and
// capping a healthy chassis 1 W lower gave back its 3.16 PFLOPS (trust trial, 2026-12-07).
#include <catch2/catch.hpp>

#include <fstream>

#include "analysis/Pipeline.h"
#include "core/Yaml.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;

namespace {

/// single-rack with gt0's every rotor failed and gt1 at `gt1Cap` (its own line otherwise).
analysis::RunResult deadGt0(const std::string& dir, const std::string& gt1Cap)
{
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    const std::string gt0 = "id: gt0}", gt1 = "id: gt1, gpu_power_cap: 600 W}";
    REQUIRE(text.find(gt0) != std::string::npos);
    REQUIRE(text.find(gt1) != std::string::npos);
    text.replace(text.find(gt0), gt0.size(), "id: gt0, failed_fans: 32}");
    text.replace(text.find(gt1), gt1.size(), "id: gt1, gpu_power_cap: " + gt1Cap + "}");
    const std::string path = dir + "/dead-" + gt1Cap.substr(0, 3) + ".yaml";
    std::ofstream(path) << text;
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    return analysis::run(o, quiet);
}

} // namespace

TEST_CASE("a chassis that heat stops runs no GPU and sets no other chassis' pace", "[throughput]")
{
    test::TempDir t;
    // gt1 at gt0's own cap (700 W, the H100's TDP): the two shared one class, which the dead gt0 held at 0.
    const analysis::RunResult same = deadGt0(t.path, "700 W");
    REQUIRE(same.throughput);
    const analysis::ThroughputResult& tp = *same.throughput;
    REQUIRE(tp.classes.size() == 2);
    const analysis::GpuClass* stopped = nullptr;
    const analysis::GpuClass* running = nullptr;
    for (const analysis::GpuClass& c : tp.classes)
        (c.id.find(" stopped") != std::string::npos ? stopped : running) = &c;
    REQUIRE(stopped);
    REQUIRE(running);
    CHECK(stopped->gpus == 8);
    CHECK(stopped->clockRatio == 0.0);
    CHECK(stopped->slowest == "lab/row1/rack1/gt0");
    CHECK(running->gpus == 8);
    CHECK(running->clockRatio > 0.5);
    // The design's total is the running chassis' 8 GPUs at their own pace, to rounding.
    CHECK(tp.sustainedPflopsBf16 == Approx(running->sustainedTflopsBf16 * 8 / 1e3).epsilon(1e-9));
    CHECK(tp.sustainedPflopsBf16 > 3.0);
    // Capping the healthy chassis lower never raises the total (it did by 3.16 PFLOPS at 699 W).
    const analysis::RunResult lower = deadGt0(t.path, "699 W");
    CHECK(lower.throughput->sustainedPflopsBf16 <= tp.sustainedPflopsBf16 + 1e-12);
    CHECK(lower.throughput->sustainedPflopsBf16 > 0.99 * tp.sustainedPflopsBf16);
    // The text names the slowest class and its share of the GPUs.
    const test::Run text = test::runRdt("check " + t.path + "/dead-700.yaml");
    CHECK_THAT(text.out, Catch::Matchers::Contains("the slowest of 2 GPU classes, 8 of the 16 GPUs), 3.") &&
                             Catch::Matchers::Contains("PFLOPS for 16 GPUs"));
}
