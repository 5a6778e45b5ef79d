// rdt nccl compare: a public nccl-tests log against the design's predicted busbw, the algorithm
// the log's settings pick (moved from Cli.test.cpp, which held every command).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "support/RunRdt.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("rdt nccl compare: measured against predicted busbw per size", "[cli][throughput][nccl]")
{
    const Run r = runRdt(
        "nccl compare data/nccl-tests/all_reduce_perf_1x8_h100.log --design data/designs/meta-24k-roce.yaml --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("op") == "allreduce");
    CHECK(j.at("gpus") == 8);
    CHECK(j.at("scope") == "chassis");
    CHECK(j.at("rows").size() == 31);
    CHECK(j.at("median_ratio_large").get<double>() == Approx(1.0).epsilon(0.05));
    const Run text = runRdt("nccl compare data/nccl-tests/all_gather_perf_2x8_h100_roce.log --design "
                            "data/designs/meta-24k-roce.yaml");
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("allgather, 16 GPUs"));
    CHECK_THAT(text.out, Contains("median measured/predicted busbw"));
    // CSV has no device list: the ranks come from nccl-tests' busbw/algbw factor, said so.
    const Run csv = runRdt("nccl compare tests/fixtures/nccl/all_reduce_perf_ring.csv --design "
                           "data/designs/meta-24k-roce.yaml --json");
    CHECK(csv.code == 0);
    CHECK(nlohmann::json::parse(csv.out).at("gpus") == 8);
    CHECK_THAT(nlohmann::json::parse(csv.out).at("notes").dump(), Contains("busbw/algbw"));
    CHECK(runRdt("nccl compare tests/fixtures/nccl/all_reduce_perf_ring.csv --gpus 8 --design "
                 "data/designs/meta-24k-roce.yaml")
              .code == 0);
    const Run trunc = runRdt("nccl compare tests/fixtures/nccl/bad/truncated_row.log --design "
                             "data/designs/meta-24k-roce.yaml");
    CHECK(trunc.code == 2);
    CHECK_THAT(trunc.out, Contains("truncated_row.log:40"));
}

TEST_CASE("rdt nccl compare: the log's NCCL_ALGO and --algo pick the algorithm, ranks from the busbw factor",
          "[cli][throughput][nccl]")
{
    const std::string log = "tests/fixtures/nccl/all_reduce_perf_quoted_timestamped.log";
    const std::string design = " --design data/designs/meta-24k-ib.yaml";
    // The log ran NCCL_ALGO=Ring on 16 GPUs (no rank lines: the factor says 16): predicted as a ring.
    const Run r = runRdt("nccl compare " + log + design + " --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("gpus") == 16);
    CHECK(j.at("nccl_algo") == "Ring");
    for (const auto& row : j.at("rows"))
        CHECK(row.at("algorithm") == "ring");
    const std::string notes = j.at("notes").dump();
    CHECK_THAT(notes, Contains("busbw/algbw") && Contains("NCCL_ALGO=Ring (the log's)"));
    // Without the restriction NCCL's default on two H100 nodes is NVLS-tree.
    const auto free =
        nlohmann::json::parse(runRdt("nccl compare " + log + design + " --algo ^collnetchain --json").out);
    CHECK(free.at("rows")[0].at("algorithm") == "nvls_tree");
    // A ring over two nodes cannot beat a tree that also may run: the ring-only prediction is lower.
    CHECK(j.at("rows")[0].at("predicted_busbw_GBps").get<double>() <
          free.at("rows")[0].at("predicted_busbw_GBps").get<double>());
    // An algorithm rdt does not model: not checked, said so; a name NCCL does not know: an error.
    const Run collnet = runRdt("nccl compare " + log + design + " --algo CollNetDirect");
    CHECK(collnet.code == 0);
    CHECK_THAT(collnet.out, Contains("not checked (collnetdirect is not modelled)"));
    // CollNetChain is modelled, but needs SHARP, which the example's fabric does not declare.
    const Run chain = runRdt("nccl compare " + log + design + " --algo CollNetChain");
    CHECK(chain.code == 0);
    CHECK_THAT(chain.out, Contains("CollNetChain needs switches that reduce (SHARP)"));
    const Run none = runRdt("nccl compare " + log + design + " --algo ^ring,tree,nvls,nvlstree");
    CHECK(none.code == 0);
    CHECK_THAT(none.out, Contains("not checked (NCCL_ALGO leaves none of the algorithms rdt models)"));
    // NVLS alone cannot cross nodes: those sizes are not predicted, never a 0 GB/s "ring".
    const auto nvls = nlohmann::json::parse(runRdt("nccl compare " + log + design + " --algo NVLS --json").out);
    CHECK(nvls.at("rows")[0].at("predicted_busbw_GBps").is_null());
    CHECK_THAT(nvls.at("notes").dump(), Contains("no allowed algorithm applies"));
    // An echoed script line in the log (NCCL_ALGO=$ALGO) is noted, not fatal.
    const Run echoed = runRdt("nccl compare tests/fixtures/nccl/all_reduce_perf_echoed_algo.log" + design);
    CHECK(echoed.code == 0);
    CHECK_THAT(echoed.out, Contains("the log's NCCL_ALGO names \"$algo\"") && Contains("ignored"));
    const Run bad = runRdt("nccl compare " + log + design + " --algo Rings");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("--algo") && Contains("\"rings\""));
    // A log cut after its rows is read, with its note.
    const Run cut = runRdt("nccl compare tests/fixtures/nccl/all_reduce_perf_cut_after_rows.log" + design);
    CHECK(cut.code == 0);
    CHECK_THAT(cut.out, Contains("note     no \"# Out of bounds values\""));
}
