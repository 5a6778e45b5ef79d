// The checkpoint model: Young's and Daly's intervals against Daly's published optima, goodput
// against its own optimum and its first-order form, and the write path one bottleneck at a time.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "analysis/Checkpoint.h"
#include "analysis/Throughput.h"
#include "core/Design.h"
#include "core/Error.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

/// The single rack (16 GPUs on 2 nodes) with a storage section.
core::Design rackWith(const std::string& storage)
{
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    text += "storage:\n" + storage;
    return core::loadDesignText(text, "rack.yaml", RDT_SOURCE_DIR "/data/catalog");
}

analysis::CheckpointSpec spec(double bytes)
{
    analysis::CheckpointSpec s;
    s.parameters = bytes / 14.0;
    s.interruptionsPerDay = 1.0;
    s.referenceGpus = 16;
    s.restartS = 600;
    return s;
}

} // namespace

TEST_CASE("checkpoint interval: Daly's higher-order optimum reproduces his published figures", "[checkpoint]")
{
    // Daly (2006), figs. 3-5: delta = 5 min; M = 24 h, 6 h, 15 min -> 117, 57 and 9.1 min.
    CHECK(analysis::dalyInterval(5, 24 * 60) == Approx(117).margin(0.5));
    CHECK(analysis::dalyInterval(5, 6 * 60) == Approx(57).margin(0.5));
    CHECK(analysis::dalyInterval(5, 15) == Approx(9.1).margin(0.05));
    // Young (1974): sqrt(2 delta M); Daly's first term; beyond delta >= 2M the interval is M.
    CHECK(analysis::youngInterval(5, 24 * 60) == Approx(120.0).epsilon(1e-12));
    CHECK(analysis::dalyInterval(100, 40) == 40);
}

TEST_CASE("goodput: Daly's interval is the optimum of the expected useful fraction", "[checkpoint]")
{
    for (const auto& [delta, restart, mtbf] :
         {std::tuple{3.0, 600.0, 6700.0}, std::tuple{300.0, 600.0, 86400.0}, std::tuple{60.0, 0.0, 3600.0}}) {
        const double tau = analysis::dalyInterval(delta, mtbf);
        // Golden-section search for the numeric optimum of the same goodput function.
        double a = tau / 10, b = tau * 10;
        const double phi = (std::sqrt(5.0) - 1) / 2;
        for (int i = 0; i < 200; ++i) {
            const double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
            if (analysis::checkpointGoodput(x1, delta, restart, mtbf) >
                analysis::checkpointGoodput(x2, delta, restart, mtbf))
                b = x2;
            else
                a = x1;
        }
        const double best = 0.5 * (a + b);
        INFO("delta " << delta << " M " << mtbf << ": Daly " << tau << " numeric " << best);
        CHECK(tau == Approx(best).epsilon(0.02)); // Daly's series is within 2 % of the exact optimum here
        CHECK(analysis::checkpointGoodput(tau, delta, restart, mtbf) >=
              analysis::checkpointGoodput(best, delta, restart, mtbf) * (1 - 1e-4));
        // First order: lost ~ delta/tau + (tau/2 + R)/M for delta, tau, R << M.
        const double first = 1 - delta / tau - (tau / 2 + restart) / mtbf;
        CHECK(analysis::checkpointGoodput(tau, delta, restart, mtbf) == Approx(first).margin(0.02));
    }
    // No failures to speak of: goodput is the compute share between checkpoints.
    CHECK(analysis::checkpointGoodput(3600, 36, 0, 1e12) == Approx(3600.0 / 3636.0).epsilon(1e-6));
}

TEST_CASE("checkpoint write path: one bottleneck at a time, hand-computed", "[checkpoint]")
{
    const double bytes = 1.2e12; // 75 GB per GPU on 16 GPUs (within their 80 GB: the job fits)
    SECTION("NIC-bound: 2 nodes x 1 x 100 Gb/s = 25 GB/s")
    {
        const auto r = analysis::analyseCheckpoint(
            rackWith("  host_link: 64 GB/s\n  frontend_nics: 1\n  frontend_nic: 100 Gb/s\n  write: 2 TB/s\n"
                     "  read: 7 TB/s\n"),
            spec(bytes));
        REQUIRE(r.checked);
        CHECK(r.gpus == 16);
        CHECK(r.nodes == 2);
        CHECK(r.writeBottleneck == "front-end NICs");
        CHECK(r.saveS == Approx(bytes / 25e9).epsilon(1e-12));
        CHECK(r.restoreS == Approx(bytes / 25e9).epsilon(1e-12));
        CHECK(r.stallS == r.saveS); // synchronous
    }
    SECTION("fabric-bound: a 10 GB/s front-end fabric")
    {
        const auto r = analysis::analyseCheckpoint(
            rackWith("  host_link: 64 GB/s\n  frontend_nics: 2\n  frontend_nic: 400 Gb/s\n  frontend_fabric: 80 Gb/s\n"
                     "  write: 2 TB/s\n  read: 2 TB/s\n"),
            spec(bytes));
        CHECK(r.writeBottleneck == "front-end fabric");
        CHECK(r.saveS == Approx(bytes / 10e9).epsilon(1e-12));
    }
    SECTION("storage-bound, asynchronous: the stall is the copy to host")
    {
        auto s = spec(bytes);
        s.asynchronous = true;
        const auto r = analysis::analyseCheckpoint(
            rackWith("  host_link: 64 GB/s\n  frontend_nics: 2\n  frontend_nic: 400 Gb/s\n  write: 5 GB/s\n"
                     "  read: 20 GB/s\n"),
            s);
        CHECK(r.writeBottleneck == "storage");
        CHECK(r.readBottleneck == "storage");
        CHECK(r.saveS == Approx(bytes / 5e9).epsilon(1e-12));
        CHECK(r.restoreS == Approx(bytes / 20e9).epsilon(1e-12));
        CHECK(r.stallS == Approx(bytes / (16 * 64e9)).epsilon(1e-12));
        // One interruption a day at 16 GPUs: M = 1 day; restart + restore before work resumes.
        CHECK(r.mtbfS == Approx(86400.0));
        CHECK(r.intervalS == Approx(analysis::dalyInterval(r.stallS, 86400.0)));
        CHECK(r.goodput == Approx(analysis::checkpointGoodput(r.intervalS, r.stallS, 600 + r.restoreS, 86400)));
    }
    SECTION("figures the design lacks: not checked, and said so")
    {
        const auto r = analysis::analyseCheckpoint(rackWith("  write: 2 TB/s\n"), spec(bytes));
        CHECK_FALSE(r.checked);
        CHECK(r.missing.size() == 3); // host_link, the front-end NICs, read
        CHECK(std::isnan(r.saveS));
    }
}

TEST_CASE("checkpoint targets: save time and goodput as verdicts, bad workloads located", "[checkpoint]")
{
    const std::string head = "name: t\nmfu: 40 %\ncheckpoint:\n  parameters: 405e9\n"
                             "  interruptions: {per_day: 8.63, gpus: 16384}\n";
    const analysis::Targets t = analysis::Targets::loadText(
        head + "  restart: 10 min\ntargets:\n  - {id: save, metric: checkpoint_save_s, max: 60 s}\n"
               "  - {id: good, metric: goodput, min: 95 %}\n",
        "t.yaml");
    REQUIRE(t.checkpoint);
    CHECK(t.checkpoint->parameters == 405e9);
    CHECK(t.checkpoint->bytesPerParameter == 14);
    CHECK(t.checkpoint->restartS == 600);
    auto error = [](const std::string& text) {
        try {
            (void)analysis::Targets::loadText(text, "t.yaml");
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error(head + "targets: []\n"), Contains("t.yaml:4:3: checkpoint") && Contains("restart"));
    // Without a checkpoint of its own a goodput target takes the design's workload's: the file
    // reads, and a design with no workload: is refused at the target when checked (below).
    const std::string bare = "name: t\nmfu: 40 %\ntargets:\n  - {id: g, metric: goodput, min: 95 %}\n";
    CHECK(error(bare) == "no error");
    CHECK_THROWS_WITH(analysis::requireCheckpointFor(analysis::Targets::loadText(bare, "t.yaml"), false),
                      Contains("t.yaml:4:5") && Contains("goodput needs a checkpoint") &&
                          Contains("the design's workload:"));
    CHECK_NOTHROW(analysis::requireCheckpointFor(analysis::Targets::loadText(bare, "t.yaml"), true));
    CHECK_THAT(error(head + "  restart: 10\ntargets: []\n"), Contains("checkpoint.restart") && Contains("unit"));
}

TEST_CASE("workload files: a design names its job, the targets' own checkpoint wins, bad names located", "[checkpoint]")
{
    const std::string dir = RDT_SOURCE_DIR "/data";
    const analysis::Workload w = analysis::Workload::load(dir + "/workloads/llama3-405b.yaml", {});
    CHECK(w.name == "Llama 3 405B pretraining");
    CHECK(w.checkpoint.parameters == 405e9);
    CHECK(w.checkpoint.workload == w.name);
    // The shipped targets name the same workload: the same checkpoint, read once.
    const analysis::Targets t = analysis::Targets::load(dir + "/targets/meta-llama3.yaml");
    REQUIRE(t.checkpoint);
    CHECK(t.checkpoint->parameters == w.checkpoint.parameters);
    CHECK(t.checkpoint->restartS == w.checkpoint.restartS);
    CHECK(t.checkpoint->interruptionsPerDay == w.checkpoint.interruptionsPerDay);

    // The 24k design names the workload: its checkpoint is analysed without a targets file.
    const core::Design d = core::loadDesign(dir + "/designs/meta-24k-ib.yaml", dir + "/catalog");
    CHECK(d.workloadPath == dir + "/workloads/llama3-405b.yaml");
    const analysis::CheckpointResult r = analysis::analyseCheckpoint(d, w.checkpoint);
    CHECK(r.checked);
    CHECK(r.workload == "Llama 3 405B pretraining");
    CHECK(r.bytes == Approx(405e9 * 14).epsilon(1e-12));

    auto error = [](const std::function<void()>& fn) {
        try {
            fn();
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // A missing workload file is located where it is named.
    CHECK_THAT(error([] {
                   (void)analysis::Targets::loadText("name: t\nmfu: 40 %\nworkload: nope.yaml\ntargets: []\n",
                                                     "/tmp/t.yaml");
               }),
               Contains("t.yaml:3:11") && Contains("workload file \"/tmp/nope.yaml\" not found"));
    CHECK_THAT(error([] {
                   (void)analysis::Targets::loadText("name: t\nmfu: 40 %\ncheckpoint: {parameters: 1e9, restart: 1 "
                                                     "min}\nworkload: x.yaml\ntargets: []\n",
                                                     "t.yaml");
               }),
               Contains("not both"));
    CHECK_THAT(error([] { (void)analysis::Workload::loadText("name: w\n", "w.yaml"); }),
               Contains("w.yaml") && Contains("checkpoint"));
    CHECK_THAT(error([] {
                   (void)analysis::Workload::loadText("name: w\ncheckpoint: {parameters: -1, restart: 1 min}\n",
                                                      "w.yaml");
               }),
               Contains("w.yaml:2") && Contains("parameters"));
}

TEST_CASE("storage servers placed in the design set the storage stage, by hand", "[checkpoint]")
{
    const std::string dir = RDT_SOURCE_DIR "/data";
    const core::Design d = core::loadDesign(dir + "/designs/storage-pod.yaml", dir + "/catalog");
    const analysis::ServerTier tier = analysis::storageServers(d);
    // 20 Lightning-class servers: each the least of 30 drives x 3.2 GB/s write (96 GB/s) or x 6.5 GB/s
    // read (195 GB/s), its 63 GB/s drive path (4 hosts x PCIe Gen3 x16) and its two 400G NICs, which
    // run at the 200 Gb/s of the Minipack2 ports their link class plugs them into (2 x 25 GB/s =
    // 50 GB/s): bound by the NICs both ways. Until 2026-12-07 the NICs were taken at 400G (100 GB/s),
    // so the save read 2.33 s while link.rate.mismatch said 200G (trust trial).
    CHECK(tier.count == 20);
    CHECK(tier.lacking.empty());
    CHECK(tier.writeBps / 8 == Approx(20 * 50e9).epsilon(1e-12));
    CHECK(tier.readBps / 8 == Approx(20 * 50e9).epsilon(1e-12));
    CHECK_THAT(tier.basis, Contains("NICs 50 GB/s (200 Gb/s a port, as link class storage-tor negotiates)"));
    {
        // Without the storage network's link class the NICs are taken at their own 400G: the drive path binds.
        std::string text = core::readTextFile(dir + "/designs/storage-pod.yaml");
        const std::size_t at = text.find("  - class: storage-tor\n");
        REQUIRE(at != std::string::npos);
        text.erase(at, text.find("  - class:", at + 5) - at);
        const core::Design open = core::loadDesignText(text, dir + "/designs/storage-pod.yaml", dir + "/catalog");
        const analysis::ServerTier own = analysis::storageServers(open);
        CHECK(own.writeBps / 8 == Approx(20 * 63e9).epsilon(1e-12));
        CHECK_THAT(own.basis, Contains("NICs 100 GB/s") && !Contains("negotiates"));
    }
    CHECK(tier.capacityBytes == Approx(20 * 30 * 7.68e12).epsilon(1e-12));

    const analysis::Workload w = analysis::Workload::load(dir + "/workloads/llama3-70b.yaml", {});
    const analysis::CheckpointResult r = analysis::analyseCheckpoint(d, w.checkpoint);
    REQUIRE(r.checked);
    CHECK(r.storageServers == 20);
    // 70e9 x 14 B = 0.98 TB written three times over 1.0 TB/s of servers: 333 GB/s, 2.94 s; read once.
    CHECK(r.writeBottleneck == "storage servers");
    CHECK(r.saveS == Approx(70e9 * 14 / (20 * 50e9 / 3)).epsilon(1e-12));
    CHECK(r.restoreS == Approx(70e9 * 14 / (20 * 50e9)).epsilon(1e-12));
    CHECK(r.gpus == 128);
    CHECK(r.nodes == 16); // storage servers are not GPU nodes

    // Without a redundancy the model does not guess one.
    std::string text = core::readTextFile(dir + "/designs/storage-pod.yaml");
    text.replace(text.find("  redundancy: 3\n"), 16, "");
    const core::Design noRed = core::loadDesignText(text, dir + "/designs/storage-pod.yaml", dir + "/catalog");
    const analysis::CheckpointResult n = analysis::analyseCheckpoint(noRed, w.checkpoint);
    CHECK_FALSE(n.checked);
    REQUIRE(n.missing.size() == 1);
    CHECK_THAT(n.missing[0], Contains("storage.redundancy"));
}
