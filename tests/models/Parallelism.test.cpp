// The iteration's split between compute and waiting (models/Parallelism.h, `compute_share: auto`):
// a hand-worked case of a 128-GPU cluster — the data-parallel group's ring reduce-scatter and
// all-gather over each rank's own NIC, the 1F1B bubble (p − 1)/(v·m), the period's split — and the
// limits: no pipeline, no data parallelism, a hidden sync, a layout that does not divide the GPUs
// and a synchronisation longer than the iteration.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/Parallelism.h"

using namespace rdt::models;

namespace {

Hierarchy cluster()
{
    Hierarchy h; // 8 GPUs a node, 2 nodes a rack, 4 racks a pod, 2 pods: 128 GPUs
    h.gpusPerNode = 8;
    h.nodeNetBps = 400e9; // 8 rail NICs of 50 GB/s
    h.nodesPerRack = 2;
    h.racksPerPod = 4;
    h.pods = 2;
    return h;
}

} // namespace

TEST_CASE("Data-parallel sync and pipeline bubble split a 1 s iteration as worked by hand", "[models][parallel]")
{
    const Hierarchy h = cluster();
    const NcclParams p;
    ParallelLayout l;
    l.tensor = 8;
    l.pipeline = 2;
    l.microbatches = 8;
    l.gradientBytes = 4;
    l.gatherBytes = 2;
    l.overlap = 0.25;
    // A replica is 16 GPUs (one rack): 8 data-parallel ranks, one a rack, four a pod.
    const Hierarchy g = dataParallelGroup(h, 16);
    CHECK(g.gpusPerNode == 1);
    CHECK(g.nodeNetBps == Approx(50e9));
    CHECK(g.gpusPerRack() == 1);
    CHECK(g.gpusPerPod() == 4);
    CHECK(g.gpus() == 8);
    const IterationSplit s = splitIteration(1.0, 16e9, 128, l, h, p);
    REQUIRE(s.error.empty());
    CHECK(s.dataParallel == 8);
    CHECK(s.parametersPerRank == Approx(1e9));
    // Ring over 8 ranks across pods: each of the 7 steps crosses NIC, two rack and two pod switch
    // traversals and the cluster switch (2 + 2·1 + 2·2 + 2 = 10 us) plus a ring step (0.7 us);
    // each rank moves 7/8 of the buffer at its NIC's 50 GB/s.
    const double step = 10e-6 + 0.7e-6;
    const double rs = 7 * step + 7.0 / 8 * 4e9 / 50e9, ag = 7 * step + 7.0 / 8 * 2e9 / 50e9;
    CHECK(s.reduceScatter.timeS == Approx(rs).epsilon(1e-12));
    CHECK(s.allGather.timeS == Approx(ag).epsilon(1e-12));
    CHECK(s.syncS == Approx(rs + ag).epsilon(1e-12));
    CHECK(s.exposedSyncS == Approx(0.75 * (rs + ag)).epsilon(1e-12));
    CHECK(s.bubbleShare == Approx(1.0 / 8).epsilon(1e-12));
    // period = compute (1 + bubble) + exposed
    const double compute = (1.0 - 0.75 * (rs + ag)) / 1.125;
    CHECK(s.computeS == Approx(compute).epsilon(1e-12));
    CHECK(s.computeShare == Approx(compute).epsilon(1e-12));
    CHECK(s.bubbleS == Approx(compute / 8).epsilon(1e-12));
    CHECK(s.computeS + s.bubbleS + s.exposedSyncS == Approx(1.0).epsilon(1e-12));

    SECTION("interleaving divides the bubble by the virtual stages")
    {
        l.virtualStages = 4;
        CHECK(splitIteration(1.0, 16e9, 128, l, h, p).bubbleShare == Approx(1.0 / 32).epsilon(1e-12));
    }
    SECTION("a fully hidden sync leaves only the bubble")
    {
        l.overlap = 1.0;
        CHECK(splitIteration(1.0, 16e9, 128, l, h, p).computeShare == Approx(1 / 1.125).epsilon(1e-12));
    }
    SECTION("no pipeline, no bubble; one replica, nothing to sync")
    {
        l.pipeline = 1;
        CHECK(splitIteration(1.0, 16e9, 128, l, h, p).bubbleS == 0.0);
        l.tensor = 128;
        const IterationSplit one = splitIteration(1.0, 16e9, 128, l, h, p);
        CHECK(one.dataParallel == 1);
        CHECK(one.syncS == 0.0);
        CHECK(one.computeShare == Approx(1.0));
    }
    SECTION("a layout that does not divide the GPUs, and a sync longer than the iteration, are refused")
    {
        CHECK_THAT(splitIteration(1.0, 16e9, 120, l, h, p).error,
                   Catch::Matchers::Contains("120 GPUs do not split into replicas of tensor 8 x pipeline 2"));
        CHECK_THAT(splitIteration(1.0, 16e9, 8, l, h, p).error, Catch::Matchers::Contains("8 GPUs do not split"));
        ParallelLayout huge = l;
        huge.tensor = huge.pipeline = 1 << 20; // their product is past an int: refused, not overflowed
        CHECK_FALSE(splitIteration(1.0, 16e9, 128, huge, h, p).error.empty());
        l.overlap = 0;
        CHECK_THAT(splitIteration(0.1, 16e9, 128, l, h, p).error,
                   Catch::Matchers::Contains("leave under 1 % of the 0.1 s iteration"));
    }
}
