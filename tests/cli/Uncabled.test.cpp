// A design whose NICs are cabled to nothing (no links: class from them, no fabric: section): the
// command line says the bandwidth between nodes is not checked — rdt check's network line, and rdt
// nccl compare's verdict (checked: false, with the reason), never a comparison against a guess.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("rdt check and rdt nccl compare on NICs cabled to nothing say not checked", "[cli][throughput]")
{
    rdt::test::TempDir dir;
    std::ifstream in(std::string(RDT_SOURCE_DIR) + "/data/designs/single-rack.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    text.erase(text.find("links:\n"));
    const std::string design = dir.path + "/uncabled.yaml";
    std::ofstream(design) << text;
    const Run check = runRdt("check " + design);
    INFO(check.out);
    CHECK_THAT(check.out, Contains("across nodes not checked: no links: class runs from meta-grand-teton-h100's NICs"));
    const Run cmp = runRdt("nccl compare data/calibration/nccl/aws-p5-2n-all_reduce.log --design " + design + " --json",
                           false);
    INFO(cmp.out);
    REQUIRE(cmp.code == 0);
    const auto j = nlohmann::json::parse(cmp.out);
    CHECK(j["checked"] == false);
    CHECK_THAT(j["not_checked_because"].get<std::string>(), Contains("the bandwidth between nodes is not known"));
    // The design as shipped (its NICs on its rack switch) is compared.
    const Run shipped = runRdt(
        "nccl compare data/calibration/nccl/aws-p5-2n-all_reduce.log --design data/designs/single-rack.yaml --json",
        false);
    REQUIRE(shipped.code == 0);
    CHECK(nlohmann::json::parse(shipped.out)["checked"] == true);
}
