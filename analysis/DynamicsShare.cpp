// `compute_share: auto` (docs/dynamics.md): the share of the iteration the GPUs compute, from the
// workload's parallel layout on the design's collective model; and the checks a period or a share
// found this way must pass (the design's own are in core/DesignDynamics.cpp).
#include <cmath>
#include <cstdio>

#include "analysis/DynamicsDetail.h"
#include "analysis/Throughput.h"

namespace rdt::analysis::detail {

void resolveComputeShare(core::Dynamics& dy, DynamicsResult& out, int jobGpus, const Workload* workload,
                         const ThroughputResult* throughput)
{
    if (!workload || !workload->parallel) {
        out.notChecked = "compute_share: auto needs the design's workload: file with training: {parallel: {tensor, "
                         "pipeline, microbatches, gradient_bytes, overlap, source}}";
        out.notCheckedLoc = dy.loc;
        return;
    }
    if (!throughput) {
        out.notChecked = "compute_share: auto needs the collective model (the throughput analysis)";
        out.notCheckedLoc = dy.loc;
        return;
    }
    if (!(workload->checkpoint.parameters > 0))
        throw core::InputError(workload->parallelLoc, "compute_share: auto needs the model's size: checkpoint: "
                                                      "{parameters} in " + workload->file);
    const models::IterationSplit s = models::splitIteration(dy.iterationS, workload->checkpoint.parameters, jobGpus,
                                                            *workload->parallel, throughput->hierarchy, throughput->nccl);
    if (!s.error.empty())
        throw core::InputError(workload->parallelLoc, "compute_share: auto: " + s.error);
    if (!std::isfinite(s.computeShare)) {
        // The model carries the gradient sync over the NICs (data-parallel groups span nodes), whose
        // rate the design does not give.
        out.notChecked = "compute_share: auto carries the gradient sync over the NICs, whose bandwidth is not known: " +
                         (throughput->hierarchy.scaleOutUnknown.empty() ? std::string("the collective model gives none")
                                                                        : throughput->hierarchy.scaleOutUnknown);
        out.notCheckedLoc = dy.loc;
        return;
    }
    out.split = s;
    dy.computeShare = s.computeShare;
    const models::ParallelLayout& l = *workload->parallel;
    char b[480];
    std::snprintf(b, sizeof b,
                  "tensor %d x pipeline %d x data %d; gradient sync %.3g s (reduce-scatter %.3g GB at %.3g GB/s busbw, "
                  "all-gather %.3g GB at %.3g GB/s), %.0f %% hidden: %.3g s exposed; pipeline bubble %d-1 stages over "
                  "%d x %d microbatches = %.3g of the compute (%.3g s); compute %.3g s of %.3g s (%s)",
                  l.tensor, l.pipeline, s.dataParallel, s.syncS, s.parametersPerRank * l.gradientBytes / 1e9,
                  s.reduceScatter.busbwGBps, s.parametersPerRank * l.gatherBytes / 1e9, s.allGather.busbwGBps,
                  l.overlap * 100, s.exposedSyncS, l.pipeline, l.virtualStages, l.microbatches, s.bubbleShare,
                  s.bubbleS, s.computeS, dy.iterationS, workload->name.c_str());
    out.computeShareFrom = b;
}

void checkResolved(const core::Dynamics& dy)
{
    auto refuse = [&](const std::string& why) {
        char share[64];
        std::snprintf(share, sizeof share, "%.1f %% compute", dy.computeShare * 100);
        const std::string what = dy.iterationAuto ? "iteration: auto gives " +
                                                        core::formatQuantity(dy.iterationS, core::Dimension::Time)
                                                  : std::string("compute_share: auto gives ") + share;
        throw core::InputError(dy.loc, what + ": " + why);
    };
    const double shorter = 0.5 * dy.iterationS * std::min(dy.computeShare, 1.0 - dy.computeShare);
    if (dy.computeShare < 1.0 && dy.edgeS > shorter)
        refuse("the edge is longer than half its shorter phase (" +
               core::formatQuantity(shorter, core::Dimension::Time) + "): shorten dynamics.edge");
    if (dy.durationS < dy.startS + 4 * dy.iterationS)
        refuse("the simulated duration must hold the start ramp and at least four iterations (" +
               core::formatQuantity(dy.startS + 4 * dy.iterationS, core::Dimension::Time) +
               "): lengthen dynamics.duration");
    if (dy.durationS / dy.stepS > 2e7)
        refuse("more than 20 million samples: lengthen dynamics.step");
}

} // namespace rdt::analysis::detail
