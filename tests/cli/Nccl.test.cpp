#include <catch2/catch.hpp>

#include "support/RunRdt.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

namespace {

const std::string kLog = "tests/fixtures/nccl/all_reduce_perf_quoted_timestamped.log";
const std::string kDesign = " --design data/designs/meta-24k-ib.yaml";

/// A cluster file in /tmp with `body` under `cluster:`.
std::string clusterFile(const std::string& name, const std::string& body)
{
    const std::string path = "/tmp/rdt-cluster-" + name + ".yaml";
    std::ofstream(path) << "rdt: 1\ncluster:\n" << body;
    return path;
}

const std::string kGood = "  name: two-hgx\n"
                          "  gpu: nvidia-h100-sxm5\n"
                          "  gpus_per_node: 8\n"
                          "  nodes: 2\n"
                          "  nics: {count: 8, rate: {value: 400 Gb/s, source: \"[K4]\"}}\n"
                          "  fabric:\n"
                          "    kind: infiniband\n"
                          "    nic_latency: {value: 1.5 us, estimate: \"test\"}\n"
                          "    switch_latency: {value: 0.2 us, estimate: \"test\"}\n";

} // namespace

TEST_CASE("rdt nccl compare: NCCL_PROTO from the log or --proto", "[cli][throughput][nccl]")
{
    // The log says NCCL_PROTO=Simple: Simple is predicted, and said so.
    const auto j = nlohmann::json::parse(runRdt("nccl compare " + kLog + kDesign + " --json").out);
    CHECK(j.at("nccl_proto") == "Simple");
    CHECK(j.at("rows")[0].at("protocol") == "Simple");
    // --proto LL128: the same ring, 92 % of its bandwidth (NCCL's LL128 refinement) at 1 GiB and up.
    const auto l = nlohmann::json::parse(runRdt("nccl compare " + kLog + kDesign + " --proto LL128 --json").out);
    REQUIRE(l.at("rows").size() == j.at("rows").size());
    for (std::size_t i = 0; i < l.at("rows").size(); ++i) {
        CHECK(l.at("rows")[i].at("protocol") == "LL128");
        CHECK(l.at("rows")[i].at("algorithm") == "ring");
        const double ratio = l.at("rows")[i].at("predicted_busbw_GBps").get<double>() /
                             j.at("rows")[i].at("predicted_busbw_GBps").get<double>();
        CHECK(ratio < 0.925);
        CHECK(ratio > 0.915);
    }
    CHECK_THAT(l.at("notes").dump(), Contains("NCCL_PROTO=LL128 (--proto): LL128 predicted"));
    const Run text = runRdt("nccl compare " + kLog + kDesign + " --proto LL128");
    CHECK_THAT(text.out, Contains("ring/LL128"));
    const Run bad = runRdt("nccl compare " + kLog + kDesign + " --proto LL64");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("--proto") && Contains("\"ll64\""));
    const Run none = runRdt("nccl compare " + kLog + kDesign + " --proto ^LL,LL128,Simple");
    CHECK(none.code == 2);
    CHECK_THAT(none.out, Contains("leaves no protocol"));
}

TEST_CASE("rdt nccl predict: busbw from 16 GPUs to the whole cluster", "[cli][throughput][nccl]")
{
    const Run r = runRdt("nccl predict" + kDesign + " --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto& rows = j.at("rows");
    REQUIRE(rows.size() >= 10);
    CHECK(rows.front().at("gpus") == 16);
    CHECK(rows.back().at("gpus") == 24576);
    CHECK(j.at("size_B") == 1073741824.0);
    // A ring's latency grows with its ranks: AllGather falls monotonically with scale; the
    // whole-cluster ring is latency-bound (under a tenth of the 2-node figure).
    double last = 1e9;
    for (const auto& row : rows) {
        const double ag = row.at("allgather").at("busbw_GBps").get<double>();
        CHECK(ag <= last * (1 + 1e-12));
        last = ag;
        CHECK(row.at("allreduce").at("busbw_GBps").get<double>() > 0);
    }
    CHECK(last < rows.front().at("allgather").at("busbw_GBps").get<double>() / 10);
    // The text table says the same.
    const Run t = runRdt("nccl predict" + kDesign + " --gpus 16,24576 --op allgather");
    REQUIRE(t.code == 0);
    char cell[32];
    std::snprintf(cell, sizeof cell, "%.1f GB/s", last);
    CHECK_THAT(t.out, Contains(cell) && Contains("busbw at 1 GiB"));
    // Bad counts, sizes and collectives name their option.
    CHECK_THAT(runRdt("nccl predict" + kDesign + " --gpus 30000").out, Contains("--gpus") && Contains("24576"));
    CHECK_THAT(runRdt("nccl predict" + kDesign + " --size 1GB/s").out, Contains("--size"));
    CHECK_THAT(runRdt("nccl predict" + kDesign + " --op allsum").out, Contains("--op") && Contains("allsum"));
}

TEST_CASE("cluster files: a log's own cluster, every figure sourced, errors located", "[cli][throughput][nccl]")
{
    const std::string good = clusterFile("good", kGood);
    const Run r = runRdt("nccl compare " + kLog + " --design " + good + " --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("design") == "two-hgx");
    CHECK(j.at("fabric") == "infiniband");
    // The same prediction as the 24k design's rack (8 x H100 and 8 x 400G NICs a node there too).
    const auto d = nlohmann::json::parse(runRdt("nccl compare " + kLog + kDesign + " --json").out);
    CHECK(j.at("rows")[0].at("predicted_busbw_GBps").get<double>() ==
          Approx(d.at("rows")[0].at("predicted_busbw_GBps").get<double>()).epsilon(0.005));
    struct Bad {
        std::string name, body, expect;
    };
    std::string noSource = kGood;
    const std::string sourced = "{value: 400 Gb/s, source: \"[K4]\"}";
    noSource.replace(noSource.find(sourced), sourced.size(), "400 Gb/s");
    std::string badKey = kGood;
    badKey.replace(badKey.find("[K4]"), 4, "[NOPE9]");
    std::string badGpu = kGood;
    badGpu.replace(badGpu.find("nvidia-h100-sxm5"), 16, "nvidia-h100-sxm6");
    std::string nic = kGood;
    nic.replace(nic.find("nvidia-h100-sxm5"), 16, "nvidia-connectx7-400g");
    std::string fabric = kGood;
    fabric.replace(fabric.find("infiniband"), 10, "ethernet");
    std::string sharpRoce = kGood;
    sharpRoce.replace(sharpRoce.find("kind: infiniband"), 16, "kind: roce\n    sharp: true");
    const Bad bads[] = {{"nosource", noSource, "nics.rate"},
                        {"sharproce", sharpRoce, "SHARP (in-network reduction) is an InfiniBand switch feature"},
                        {"badkey", badKey, "NOPE9"},
                        {"badgpu", badGpu, "nvidia-h100-sxm6"},
                        {"nic", nic, "not a gpu"},
                        {"fabric", fabric, "unknown fabric kind \"ethernet\""},
                        {"extra", kGood + "  racks: 3\n", "racks"}};
    for (const Bad& b : bads) {
        const std::string path = clusterFile(b.name, b.body);
        const Run e = runRdt("nccl compare " + kLog + " --design " + path);
        INFO(b.name << ": " << e.out);
        CHECK(e.code == 2);
        CHECK_THAT(e.out, Contains(path + ":") && Contains(b.expect));
    }
}

TEST_CASE("rdt nccl compare: CollNetChain where the cluster's fabric has SHARP", "[cli][throughput][nccl]")
{
    std::string body = kGood;
    body.replace(body.find("kind: infiniband"), 16, "kind: infiniband\n    sharp: true");
    const std::string sharp = clusterFile("sharp", body);
    const auto j =
        nlohmann::json::parse(runRdt("nccl compare " + kLog + " --design " + sharp + " --algo CollNetChain --json").out);
    for (const auto& row : j.at("rows")) {
        CHECK(row.at("algorithm") == "collnet_chain");
        CHECK(row.at("predicted_busbw_GBps").get<double>() > 380);
    }
    CHECK_THAT(j.at("notes").dump(), !Contains("needs switches that reduce"));
}

TEST_CASE("rdt nccl compare: NCCL_NVLS_ENABLE=0 excludes NVLS, channel settings are noted", "[cli][throughput][nccl]")
{
    // Two H100 nodes with NVLink SHARP off: NCCL's default would be NVLS-tree (459 GB/s); the log
    // says NCCL_NVLS_ENABLE=0, so the prediction is the ring's (about 375 GB/s).
    const std::string log = "tests/fixtures/nccl/all_reduce_perf_nvls_off.log";
    const Run r = runRdt("nccl compare " + log + kDesign + " --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("gpus") == 16);
    for (const auto& row : j.at("rows")) {
        CHECK(row.at("algorithm") != "nvls_tree");
        CHECK(row.at("predicted_busbw_GBps").get<double>() < 400);
    }
    const std::string notes = j.at("notes").dump();
    CHECK_THAT(notes, Contains("NCCL_NVLS_ENABLE=0 (the log's): NVLS and NVLS-tree excluded"));
    CHECK_THAT(notes, Contains("NCCL_MIN_CTAS=24 (the log's): noted, not modelled"));
    CHECK(j.at("median_ratio_large").get<double>() > 1.0);
    CHECK(j.at("median_ratio_large").get<double>() < 1.1);
}

TEST_CASE("nccl logs: NCCL's \"set by environment\" lines, COLLNET with NVLS off, predict's refusals",
          "[cli][throughput][nccl]")
{
    // NCCL's own INFO lines name the settings; both NCCL_COLLNET_ENABLE=1 and NCCL_NVLS_ENABLE=0:
    // CollNetChain allowed, NVLS out. On a SHARP cluster CollNetChain is then the prediction.
    const std::string path = "/tmp/rdt-nccl-env.log";
    {
        std::ofstream f(path);
        f << "node-a:1:1 [0] NCCL INFO NCCL_COLLNET_ENABLE set by environment to 1\n"
             "node-a:1:1 [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 0\n"
             "node-a:1:1 [0] NCCL INFO NCCL_PROTO set by environment to Simple\n";
        std::ifstream src(RDT_SOURCE_DIR "/tests/fixtures/nccl/all_reduce_perf_nvls_off.log");
        std::string line;
        std::getline(src, line); // its mpirun line names other settings
        f << src.rdbuf();
    }
    std::string body = kGood;
    body.replace(body.find("kind: infiniband"), 16, "kind: infiniband\n    sharp: true");
    const std::string sharp = clusterFile("sharp-env", body);
    const Run r = runRdt("nccl compare " + path + " --op allreduce --design " + sharp + " --json");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("nccl_proto") == "Simple");
    const std::string notes = j.at("notes").dump();
    CHECK_THAT(notes, Contains("NCCL_COLLNET_ENABLE=1 (the log's): CollNetChain allowed"));
    CHECK_THAT(notes, Contains("NCCL_NVLS_ENABLE=0 (the log's): NVLS and NVLS-tree excluded"));
    for (const auto& row : j.at("rows"))
        CHECK(row.at("algorithm") == "collnet_chain");
    // An NCCL_ALGO list that leaves CollNet out keeps it out.
    const auto ring = nlohmann::json::parse(
        runRdt("nccl compare " + path + " --op allreduce --design " + sharp + " --algo Ring,Tree --json").out);
    CHECK_THAT(ring.at("notes").dump(), Contains("NCCL_ALGO leaves CollNet out"));
    for (const auto& row : ring.at("rows"))
        CHECK(row.at("algorithm") != "collnet_chain");
    // predict refuses what leaves nothing to predict instead of printing NCCL's default.
    const Run pat = runRdt("nccl predict" + kDesign + " --algo PAT");
    CHECK(pat.code == 2);
    CHECK_THAT(pat.out, Contains("--algo") && Contains("pat is not modelled"));
    const Run proto = runRdt("nccl predict" + kDesign + " --proto ^LL,LL128,Simple");
    CHECK(proto.code == 2);
    CHECK_THAT(proto.out, Contains("leaves no protocol"));
    CHECK_THAT(runRdt("nccl predict" + kDesign + " --size 0B").out, Contains("outside 1 B"));
    // Counts in a cluster file are whole numbers.
    std::string half = kGood;
    half.replace(half.find("nodes: 2"), 8, "nodes: 2.5");
    const std::string bad = clusterFile("half", half);
    const Run h = runRdt("nccl compare " + kLog + " --design " + bad);
    CHECK(h.code == 2);
    CHECK_THAT(h.out, Contains(bad + ":") && Contains("cluster.nodes"));
    CHECK_THAT(runRdt("nccl compare " + kLog + kDesign + " --gpus 1").out,
               Contains("--gpus") && Contains("at least 2 GPUs"));
}
