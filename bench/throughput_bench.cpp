// Benchmark: the throughput analysis of the 24,576-GPU example (GPU clocks for every chassis from
// the power and thermal results, busbw curves for 4 collectives × 4 scopes × 24 sizes, the
// AllGather scaling curves and the targets), target < 100 ms. Baseline in the same run: one
// pass over every chassis reading its GPU count (the walk any per-GPU analysis must make).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "BenchUtil.h"

#include "analysis/Pipeline.h"
#include "analysis/Throughput.h"

int main(int argc, char** argv)
{
    using namespace rdt;
    const std::string design = argc > 1 ? argv[1] : analysis::dataDir() + "/designs/meta-24k-roce.yaml";
    const std::string targetsPath = analysis::dataDir() + "/targets/meta-llama3.yaml";
    const int runs = 15;
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = design;
    const analysis::RunResult r = analysis::run(o, quiet);
    const analysis::Targets targets = analysis::Targets::load(targetsPath);
    const models::NcclParams nccl = models::NcclParams::load(analysis::dataDir() + "/throughput/nccl.yaml");

    analysis::ThroughputResult last;
    const double full = medianSeconds(
        runs, [&] { last = analysis::analyseThroughput(r.design, *r.power, *r.thermal, *r.signal, nccl, &targets); });
    const double walk = medianSeconds(runs, [&] {
        volatile int gpus = 0;
        for (const auto& rack : r.design.racks)
            for (const auto& s : rack.slots)
                gpus = gpus + core::Design::gpuCount(*s.part);
    });
    const double curves = medianSeconds(runs, [&] {
        volatile double x = 0;
        for (const auto& c : last.collectives)
            x = x + last.collective(c.op, c.gpus, c.sizeB).busbwGBps;
    });
    std::printf("throughput benchmark: %s, median of %d runs\n", design.c_str(), runs);
    std::printf("  %d GPUs in %zu classes, %zu busbw points, %zu scaling points, %zu targets\n", last.gpus,
                last.classes.size(), last.collectives.size(), last.allgatherScaling.size(), last.targets.size());
    std::printf("%-44s %9.3f ms\n", "throughput analysis (clocks, curves, targets)", full * 1e3);
    std::printf("%-44s %9.3f ms\n", "  of which the busbw sweep alone", curves * 1e3);
    std::printf("%-44s %9.3f ms  (analysis costs %.1fx)\n", "baseline: walk every slot counting GPUs", walk * 1e3,
                full / walk);
    std::printf("target: < 100 ms -> %s\n", full < 0.1 ? "met" : "MISSED");
    return 0;
}
