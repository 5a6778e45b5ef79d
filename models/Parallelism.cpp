#include "models/Parallelism.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdt::models {

Hierarchy dataParallelGroup(const Hierarchy& h, int replicaGpus)
{
    Hierarchy g = h;
    g.gpusPerNode = 1;
    g.nodeScope = "chassis";
    g.racksPerNode = 1;
    g.nvls = false;
    g.nodeNetBps = h.nodeNetBps / std::max(1, h.gpusPerNode);
    const int replica = std::max(1, replicaGpus);
    // Ranks a rack and a pod hold: one per replica, at least one.
    g.nodesPerRack = std::max(1, h.gpusPerRack() / replica);
    const int perPod = std::max(1, h.gpusPerPod() / replica);
    g.racksPerPod = std::max(1, perPod / g.nodesPerRack);
    return g;
}

IterationSplit splitIteration(double periodS, double parameters, int gpus, const ParallelLayout& l,
                              const Hierarchy& h, const NcclParams& p)
{
    IterationSplit s;
    const long long replica = static_cast<long long>(l.tensor) * l.pipeline;
    char b[256];
    if (replica <= 0 || replica > gpus || gpus % replica != 0) {
        std::snprintf(b, sizeof b, "%d GPUs do not split into replicas of tensor %d x pipeline %d", gpus, l.tensor,
                      l.pipeline);
        s.error = b;
        return s;
    }
    s.replicaGpus = static_cast<int>(replica);
    s.dataParallel = gpus / s.replicaGpus;
    s.parametersPerRank = parameters / s.replicaGpus;
    if (s.dataParallel > 1) {
        const Hierarchy g = dataParallelGroup(h, s.replicaGpus);
        s.reduceScatter = bestCollective(Collective::ReduceScatter, s.dataParallel, s.parametersPerRank * l.gradientBytes,
                                         g, p);
        s.allGather = bestCollective(Collective::AllGather, s.dataParallel, s.parametersPerRank * l.gatherBytes, g, p);
        s.syncS = s.reduceScatter.timeS + s.allGather.timeS;
        if (std::isnan(s.syncS)) {
            // Over nodes whose link is not known (Hierarchy::scaleOutUnknown): no split, no error.
            s.computeShare = s.computeS = s.bubbleS = s.exposedSyncS = NAN;
            return s;
        }
    }
    s.exposedSyncS = (1.0 - l.overlap) * s.syncS;
    s.bubbleShare = l.pipeline > 1 ? (l.pipeline - 1.0) / (static_cast<double>(l.virtualStages) * l.microbatches) : 0.0;
    s.computeS = (periodS - s.exposedSyncS) / (1.0 + s.bubbleShare);
    s.bubbleS = s.bubbleShare * s.computeS;
    s.computeShare = s.computeS / periodS;
    if (!(s.computeShare >= 0.01)) {
        std::snprintf(b, sizeof b,
                      "the exposed gradient synchronisation (%.3g s) and the pipeline bubble (%.3g of the compute) "
                      "leave under 1 %% of the %.3g s iteration to compute",
                      s.exposedSyncS, s.bubbleShare, periodS);
        s.error = b;
    }
    return s;
}

} // namespace rdt::models
