// rdt nccl compare: a log of another GPU than the model's is not compared. An H100 log against the
// V100 design gave "median measured/predicted busbw 3.87" with no word: the log's device name was
// read and never set beside the design's GPUs.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/NcclCompare.h"
#include "hil/NcclLog.h"

using namespace rdt;
using Catch::Matchers::Contains;

TEST_CASE("nccl compare: a log of another GPU is not checked, and says whose GPU it is", "[nccl]")
{
    const hil::NcclLog h100 = hil::readNcclLog(RDT_SOURCE_DIR "/data/nccl-tests/all_reduce_perf_1x8_h100.log");
    REQUIRE(h100.device == "NVIDIA H100 80GB HBM3");
    const analysis::NcclModel v100 = analysis::ncclModelFor(RDT_SOURCE_DIR "/data/designs/meta-v100-2017.yaml");
    const analysis::NcclModel gt = analysis::ncclModelFor(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    REQUIRE(v100.gpuParts == std::vector<std::string>{"nvidia-v100-sxm2"});
    REQUIRE(gt.gpuParts == std::vector<std::string>{"nvidia-h100-sxm5"});

    const analysis::NcclComparison other = analysis::compareNccl(h100, v100, {});
    CHECK(other.unmodelledOnly);
    CHECK(std::isnan(other.medianLarge));
    CHECK_THAT(other.unmodelledWhy, Contains("NVIDIA H100 80GB HBM3") && Contains("nvidia-v100-sxm2"));

    const analysis::NcclComparison same = analysis::compareNccl(h100, gt, {});
    CHECK_FALSE(same.unmodelledOnly);
    CHECK(same.medianLarge == Approx(1.0).margin(0.1));

    // Names as nccl-tests prints them: the model number stands alone, GB200 is not B200.
    struct Case {
        const char* device;
        const char* gpuPart;
        bool same;
    };
    const Case cases[] = {
        {"Tesla V100-SXM2-32GB", "nvidia-v100-sxm2", true},
        {"NVIDIA A100-SXM4-80GB", "nvidia-a100-sxm4-80gb", true},
        {"NVIDIA H100 80GB HBM3", "nvidia-h200-sxm", false},
        {"NVIDIA H200", "nvidia-h200-sxm", true},
        {"NVIDIA GB200", "nvidia-gb200-blackwell", true},
        {"NVIDIA B200", "nvidia-gb200-blackwell", false},
        {"NVIDIA GB200", "nvidia-b200-sxm", false},
        {"", "nvidia-v100-sxm2", true}, // no name: not judged
        {"Some GPU", "nvidia-v100-sxm2", true},
    };
    for (const Case& c : cases) {
        CAPTURE(c.device, c.gpuPart);
        hil::NcclLog log = h100;
        log.device = c.device;
        analysis::NcclModel m = gt;
        m.gpuParts = {c.gpuPart};
        CHECK(analysis::compareNccl(log, m, {}).unmodelledOnly == !c.same);
    }
}
