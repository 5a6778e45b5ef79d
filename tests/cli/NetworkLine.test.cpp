// The network line says what the model knows (trust review, 2026-12-07): the 2017 example's Big
// Basin chassis, GPU boxes with no NICs of their own, read "0 GB/s across a pod; 0 GB/s across all",
// a figure of a network the design does not describe; and a 16-GPU rack read "351 GB/s across a pod".
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/RunRdt.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

TEST_CASE("a chassis without NICs: bandwidth between nodes not checked, in text and JSON", "[cli][throughput]")
{
    const test::Run text = test::runRdt("check data/designs/meta-v100-2017.yaml");
    CHECK_THAT(text.out, Contains("AllReduce 123 GB/s in a node; across nodes not checked: chassis "
                                  "meta-big-basin-v2 has no NICs in the catalog"));
    CHECK(text.out.find("0 GB/s across") == std::string::npos);
    const json j = json::parse(test::runRdt("check data/designs/meta-v100-2017.yaml --json", false).out);
    int beyond = 0;
    for (const json& c : j["throughput"]["collectives"])
        if (c["gpus"].get<int>() > 8) {
            CHECK(c["busbw_GBps"].is_null()); // not a zero
            ++beyond;
        }
    CHECK(beyond > 0);
}

TEST_CASE("a design of one pod or less says across all its GPUs, not across a pod", "[cli][throughput]")
{
    CHECK_THAT(test::runRdt("check data/designs/single-rack.yaml").out,
               Contains("351 GB/s across all 16 GPUs; AllGather 186 GB/s, AlltoAll 44 GB/s across all"));
    // A design of several pods keeps both scopes.
    CHECK_THAT(test::runRdt("check data/designs/meta-24k-ib.yaml").out,
               Contains("361 GB/s across a pod; AllGather 94 GB/s across a pod, 13 GB/s across all"));
}
