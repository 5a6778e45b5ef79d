#pragma once
/// \file Parallelism.h
/// How a training iteration splits between compute and the time its GPUs wait (docs/dynamics.md,
/// `compute_share: auto`): the pipeline's bubble (Narayanan et al., SC'21: (p − 1)/(v·m) of the
/// compute time for p stages, m microbatches and v virtual stages a GPU) and the data-parallel
/// gradient synchronisation — a reduce-scatter of the gradients and an all-gather of the weights
/// over the ranks that hold the same weights, on the collective model — less the share of it the
/// backward pass hides. Tensor-parallel collectives run inside each layer, milliseconds apart, at
/// compute power: they are compute time here.

#include <string>

#include "models/Collectives.h"

namespace rdt::models {

/// The training job's parallel layout (a workload's `training.parallel:`).
struct ParallelLayout {
    int tensor = 1;        ///< GPUs a layer is split over (inside the NVLink node)
    int pipeline = 1;      ///< pipeline stages
    int microbatches = 1;  ///< per pipeline, per iteration
    int virtualStages = 1; ///< interleaved stages a GPU holds (1: plain 1F1B)
    double gradientBytes = 2; ///< bytes a parameter's gradient is reduce-scattered in
    double gatherBytes = 2;   ///< bytes a parameter is all-gathered in (a plain all-reduce: the gradient's)
    double overlap = 0;       ///< share of the synchronisation the backward pass hides
};

/// The data-parallel group as collectives see it: one rank per model replica (`replicaGpus` GPUs
/// apart), each on its own rail NIC — the node's network rate over its GPUs — with the cluster's
/// tiers, switch latencies and oversubscription; no NVLink inside the group.
Hierarchy dataParallelGroup(const Hierarchy& h, int replicaGpus);

struct IterationSplit {
    int replicaGpus = 0;      ///< tensor × pipeline
    int dataParallel = 0;     ///< the job's GPUs over the replica: the ranks that sync
    double parametersPerRank = 0;
    CollectiveTime reduceScatter, allGather; ///< the gradients', the weights'
    double syncS = 0;         ///< both
    double exposedSyncS = 0;  ///< (1 − overlap) × syncS
    double bubbleShare = 0;   ///< of the compute time: (p − 1)/(v·m)
    double bubbleS = 0, computeS = 0;
    double computeShare = 0;  ///< computeS over the period
    std::string error;        ///< why the split does not hold (the layout, the period); empty when it does
};

/// The split of an iteration of `periodS` for a model of `parameters` trained on `gpus` GPUs:
/// period = compute × (1 + bubble share) + exposed synchronisation.
IterationSplit splitIteration(double periodS, double parameters, int gpus, const ParallelLayout& layout,
                              const Hierarchy& h, const NcclParams& p);

} // namespace rdt::models
