// `compute_share: auto` (docs/dynamics.md): the 24k example's Llama 3 405B layout gives the share
// the split's formula gives with the design's own NIC rate, in text, JSON and HDF5 read back; a
// workload without a layout is "not checked", a bad layout or a share the edge cannot fit is an
// input error naming its file and field.
#include <catch2/catch.hpp>

#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "analysis/Pipeline.h"
#include "report/DynamicsOutput.h"
#include "report/ReportWriter.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string k24k = RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml";

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The 24k design with compute_share: auto and, when given, its workload file replaced.
std::string autoDesign(const std::string& workloadPath = "")
{
    std::string t = readAll(k24k);
    t.replace(t.find("  compute_share: 50 %"), 21, "  compute_share: auto");
    if (!workloadPath.empty())
        t.replace(t.find("workload: ../workloads/llama3-405b.yaml"), 39, "workload: " + workloadPath);
    return t;
}

analysis::RunResult run(const std::string& text)
{
    analysis::RunOptions o;
    o.designPath = k24k;
    o.designText = text;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

/// The 405B workload with its parallel: block's `from` line replaced by `to` (count 1).
std::string workloadWith(const std::string& from, const std::string& to)
{
    std::string w = readAll(RDT_SOURCE_DIR "/data/workloads/llama3-405b.yaml");
    const auto at = w.find(from);
    REQUIRE(at != std::string::npos);
    w.replace(at, from.size(), to);
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("rdt-share-" + std::to_string(::getpid()) + "-" + std::to_string(std::hash<std::string>{}(to)) + ".yaml"))
                                 .string();
    std::ofstream(path) << w;
    return path;
}

} // namespace

TEST_CASE("compute_share: auto gives the 24k Llama 3 405B job's share from its layout, the same in every output",
          "[analysis][dynamics]")
{
    const analysis::RunResult r = run(autoDesign());
    REQUIRE(r.dynamics);
    REQUIRE(r.throughput);
    const analysis::DynamicsResult& d = *r.dynamics;
    REQUIRE(d.notChecked.empty());
    // By hand: tensor 8 x pipeline 16 = 128 GPUs a replica, 24,576 / 128 = 192 data-parallel ranks,
    // 405e9 / 128 parameters each; FP32 gradients reduce-scattered and BF16 weights all-gathered,
    // each rank on its own rail NIC (the node's rate over its 8 GPUs: 200 Gb/s after the example's
    // lane fallback, x 0.94); each of the two rings' 191 steps crosses the fabric's switches once
    // (the cluster's one-way latency across pods) and one NVLink-step's overhead.
    const double perRank = 405e9 / 128, nic = r.throughput->hierarchy.nodeNetBps / 8;
    CHECK(nic == Approx(200e9 / 8 * 0.94));
    const double step = models::dataParallelGroup(r.throughput->hierarchy, 128).networkLatencyS(192) +
                        r.throughput->nccl.nvlinkStepS;
    CHECK(step == Approx(r.throughput->hierarchy.networkLatencyS(24576) + 0.7e-6));
    const double sync = 2 * 191 * step + 191.0 / 192 * perRank * (4 + 2) / nic;
    CHECK(d.split.dataParallel == 192);
    CHECK(d.split.syncS == Approx(sync).epsilon(1e-9));
    CHECK(d.split.exposedSyncS == Approx(0.5 * d.split.syncS).epsilon(1e-12));
    CHECK(d.split.bubbleShare == Approx(15.0 / 64).epsilon(1e-12)); // (16 - 1) / (4 x 16)
    const double share = (2.0 - 0.5 * sync) / (1 + 15.0 / 64) / 2.0;
    CHECK(d.computeShare == Approx(share).epsilon(1e-9));
    CHECK(d.computeShare == Approx(0.646).margin(0.001));

    // The waveform uses it: the fundamental of a trapezoid at this duty, not at 50 %.
    const analysis::RunResult half = run(readAll(k24k));
    REQUIRE(half.dynamics);
    CHECK(d.fundamentalW < 0.95 * half.dynamics->fundamentalW); // sin(pi D) falls from 1 at D = 0.5
    CHECK(d.fundamentalW == Approx(half.dynamics->fundamentalW * std::sin(3.14159265358979 * d.computeShare)).epsilon(5e-3));

    const std::string text = report::dynamicsSummaryText(d);
    CHECK_THAT(text, Contains("at 65 % compute"));
    CHECK_THAT(text, Contains("compute share from the workload's layout: tensor 8 x pipeline 16 x data 192"));
    const nlohmann::json j = report::dynamicsJson(d);
    CHECK(j["compute_share"].get<double>() == Approx(d.computeShare));
    CHECK(j["iteration_split"]["data_parallel"] == 192);
    CHECK(j["iteration_split"]["exposed_sync_s"].get<double>() == Approx(d.split.exposedSyncS));
    CHECK_THAT(j["compute_share_from"].get<std::string>(), Contains("Llama 3 405B"));

    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("rdt-share-" + std::to_string(::getpid()) + ".h5");
    report::writeReport(r, file.string(), "test");
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    for (const auto& [name, want] : {std::pair<const char*, double>{"/dynamics/compute_share", d.computeShare},
                                     {"/dynamics/exposed_sync", d.split.exposedSyncS},
                                     {"/dynamics/pipeline_bubble", d.split.bubbleS}}) {
        const hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
        REQUIRE(ds >= 0);
        double v = NAN;
        REQUIRE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0);
        CHECK(v == Approx(want));
        H5Dclose(ds);
    }
    H5Fclose(f);
    std::filesystem::remove(file);
}

TEST_CASE("compute_share: auto without a layout is not checked, a bad layout or share is located", "[analysis][dynamics]")
{
    // The 70B workload has no training: section at all.
    const analysis::RunResult none = run(autoDesign(RDT_SOURCE_DIR "/data/workloads/llama3-70b.yaml"));
    REQUIRE(none.dynamics);
    CHECK_THAT(none.dynamics->notChecked, Contains("compute_share: auto needs the design's workload"));
    // A pipeline without its microbatches: the workload file and field.
    CHECK_THROWS_WITH(run(autoDesign(workloadWith("    microbatches: 16\n", ""))),
                      Contains("rdt-share-") && Contains("microbatches"));
    // 24,576 GPUs do not split into replicas of 8 x 7.
    CHECK_THROWS_WITH(run(autoDesign(workloadWith("    pipeline: 16\n", "    pipeline: 7\n"))),
                      Contains("do not split into replicas of tensor 8 x pipeline 7"));
    // The overlap is a ratio in [0, 1].
    CHECK_THROWS_WITH(run(autoDesign(workloadWith("    overlap: 50 %", "    overlap: 150 %"))), Contains("overlap"));
    // A share whose shorter phase cannot hold the edges: named as compute_share: auto's.
    std::string t = autoDesign();
    t.replace(t.find("  edge: 20 ms"), 13, "  edge: 400 ms");
    CHECK_THROWS_WITH(run(t), Contains("compute_share: auto gives 64.6 % compute") && Contains("shorten dynamics.edge"));
    // The iteration's own checks still hold with the share auto, and the jobs must split the GPUs.
    std::string steps = autoDesign();
    steps.replace(steps.find("  iteration: 2 s"), 16, "  iteration: 2.005 s");
    CHECK_THROWS_WITH(run(steps), Contains("whole number of steps"));
    std::string jobs = autoDesign();
    jobs.insert(jobs.find("  edge: 20 ms"), "  jobs: 7\n");
    CHECK_THROWS_WITH(run(jobs), Contains("24576 GPUs do not split into 7 equal jobs"));
}
