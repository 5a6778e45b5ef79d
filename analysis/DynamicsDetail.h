#pragma once
/// \file DynamicsDetail.h
/// Internals of analyseDynamics (analysis/Dynamics.cpp, analysis/DynamicsWave.cpp).

#include "analysis/Dynamics.h"

#include <algorithm>
#include <cmath>

namespace rdt::analysis::detail {

/// A GPU's power one step on from `g` towards `want` under the design's per-GPU ramp limits
/// (NVML RAMP_UP_RATE / RAMP_DOWN_RATE; NaN: unlimited).
inline double rampStep(double g, double want, const core::Dynamics& dy, double dt)
{
    if (!std::isnan(dy.rampUpWps) && want > g)
        return std::min(want, g + dy.rampUpWps * dt);
    if (!std::isnan(dy.rampDownWps) && want < g)
        return std::max(want, g - dy.rampDownWps * dt);
    return want;
}

/// The site storage at the connection: a first-order low-pass of the site's draw at the cutoff goes
/// to the grid, the storage gives (takes) the rest within its power rating and energy; the
/// connection's trace replaces out.siteW, the site's own draw moves to out.loadW.
void applySiteStorage(DynamicsResult& out, const core::Dynamics::SiteStorage& st, double dt);

/// Each job's start within the iteration (s): the design's job_phases, or drawn uniformly over
/// [0, iteration) from phase_seed; the first job's at 0 when drawn.
std::vector<double> jobPhases(const core::Dynamics& dy, double iterationS);

/// Per rack (its GPU count in `gpus`, in order), the jobs its GPUs belong to with their shares of
/// them: the GPUs split into `jobs` equal shares in rack order.
std::vector<std::vector<std::pair<int, double>>> rackJobs(const std::vector<int>& gpus, int jobs);

/// `compute_share: auto`: the share from the workload's parallel layout over one job's GPUs on the
/// throughput analysis' collective model (models/Parallelism.h), into dy and out (its split and how);
/// out.notChecked when a figure is missing, InputError when the layout does not hold.
void resolveComputeShare(core::Dynamics& dy, DynamicsResult& out, int jobGpus, const Workload* workload,
                         const ThroughputResult* throughput);
/// The checks a period or share found with `auto` must pass (the edge, the duration, the samples):
/// InputError naming which `auto` gave it.
void checkResolved(const core::Dynamics& dy);

} // namespace rdt::analysis::detail
