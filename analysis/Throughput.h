#pragma once
/// \file Throughput.h
/// What the rack gives: each GPU's clock under its power cap, its rack's power budget and its
/// junction temperature (from the power and thermal solvers), sustained TFLOPS at the workload's
/// MFU, and collective bandwidth over the design's hierarchy with the lane rates the signal
/// verdicts allow; checked against a targets file (`data/targets/*.yaml`).

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Checkpoint.h"
#include "core/Design.h"
#include "core/Rules.h"
#include "models/Collectives.h"
#include "models/GpuModel.h"
#include "models/Parallelism.h"
#include "power/Budget.h"
#include "signal/LinkAnalysis.h"
#include "thermal/Thermal.h"

namespace rdt::analysis {

/// One target: a metric with a lower (`min`) or upper (`max`) limit.
struct Target {
    std::string id;
    std::string metric; ///< sustained_tflops, clock_ratio, cluster_sustained, busbw, algbw, allgather_normalised
    models::DataType dtype = models::DataType::Bf16;
    bool dtypeGiven = false; ///< false: the file named no dtype and BF16 is judged (said in every output)
    models::Collective op = models::Collective::AllReduce;
    std::string scope; ///< chassis, rack, pod, cluster (or empty with `gpus`)
    int gpus = 0;
    double sizeB = 0;
    double limit = 0; ///< SI
    bool isMin = true;
    core::Dimension dim = core::Dimension::Ratio;
    core::SourceLoc loc;
};

/// A workload file (`data/workloads/NAME.yaml`): the training job a design (`workload:`) or a
/// targets file is sized for — its name, sources and checkpoint.
struct Workload {
    std::string name, description, source, file;
    CheckpointSpec checkpoint;
    /// `training:` — the iteration's work, for `dynamics: {iteration: auto}`: tokens per iteration
    /// (the global batch) and the model FLOPs per token (default 6 × the checkpoint's parameters,
    /// a dense transformer's forward and backward pass); NaN when not given.
    double batchTokens = NAN, flopsPerToken = NAN;
    std::string trainingSource;
    core::SourceLoc trainingLoc;
    /// `training.parallel:` — the job's tensor and pipeline split, microbatches, the bytes its
    /// data-parallel synchronisation moves and the share the backward pass hides, for
    /// `dynamics: {compute_share: auto}` (models/Parallelism.h); absent when not given.
    std::optional<models::ParallelLayout> parallel;
    std::string parallelSource;
    core::SourceLoc parallelLoc;
    /// InputError (file:line) on bad input; a missing file is located at `from` (who named it).
    static Workload load(const std::string& path, const core::SourceLoc& from);
    static Workload loadText(const std::string& text, const std::string& fileName);
};

/// A targets file: the workload's MFU and the targets.
struct Targets {
    std::string name, file;
    double mfu = 0.4;
    core::SourceLoc mfuLoc;
    std::vector<Target> targets;
    std::optional<CheckpointSpec> checkpoint; ///< `checkpoint:`, or its `workload:` file's
    /// InputError (file:line) on bad input: unknown metric, MFU outside (0, 1], missing unit, ...
    static Targets load(const std::string& path);
    static Targets loadText(const std::string& text, const std::string& fileName);
};

/// A targets file's checkpoint metrics (`checkpoint_save_s`, `goodput`) need its own checkpoint or
/// the design's workload: an InputError located at the first such target when there is neither.
void requireCheckpointFor(const Targets& targets, bool designHasWorkload);

struct GpuClass {
    std::string id; ///< `chassis-part/gpu-part@cap`
    std::string chassis, gpu;
    double capW = 0;
    int gpus = 0;
    double clockRatio = 1;     ///< slowest GPU of the class (synchronous training runs at its pace)
    double meanClockRatio = 1; ///< over the class
    double powerW = 0;         ///< board power of the slowest GPU
    std::string limitedBy;     ///< of the slowest GPU
    std::string slowest;       ///< chassis id of the slowest GPU
    double peakTflopsBf16 = 0, sustainedTflopsBf16 = 0, sustainedTflopsFp8 = 0;
    /// The GPU's 16-bit tensor figures: BF16, or FP16 on GPUs without BF16 (V100); "" when neither.
    std::string dtype16;
    double peakTflops16 = NAN, sustainedTflops16 = NAN;
    bool dvfsEstimate = true; ///< the clock-vs-power curve is a catalog placeholder, not calibrated
};

struct CollectivePoint {
    models::Collective op;
    std::string scope;
    int gpus = 0;
    double sizeB = 0;
    models::Algorithm algorithm;
    double algbwGBps = 0, busbwGBps = 0;
};

struct ScalingPoint {
    int gpus = 0;
    double sizeB = 0;
    double busbwGBps = 0;
    double normalised = 1; ///< busbw / busbw of one node (8 GPUs)
};

/// Throughput with one supply failure in every rack at once, each rack at its own worst of that
/// kind (the worst rectifier, shelf or AC feed lost, or all AC lost with the batteries carrying the
/// rack): its GPUs capped to what the survivors carry and to normal operation's limits. Reported
/// beside normal operation, never instead of it.
struct FailureCase {
    std::string name; ///< "rectifier lost", "shelf lost", "feed lost", "utility outage (on battery)", "rotor failed"
    std::string rule;            ///< the rule that judges the rack against it ("" when none does)
    /// Racks whose load the survivors cannot carry at the design's caps; for "rotor failed", racks
    /// with a GPU slowed by heat that its fans no longer hold.
    int racksLimited = 0;
    int racksUnfeedable = 0;     ///< of those, racks no cap down to the GPUs' minimum brings within
    /// Racks with GPUs the case cannot judge from the design, at their normal clocks in its figures:
    /// in the utility outage, racks whose load takes AC directly (the facility's UPS carries them).
    int racksNotJudged = 0;
    double lowestCapW = NAN;     ///< the lowest per-GPU cap a rack needs (NaN: none limited or none can)
    double clockRatio = NAN;     ///< the slowest GPU's clock / peak clock
    double sustainedTflops16PerGpu = NAN; ///< the slowest class' 16-bit tensor TFLOPS per GPU at the MFU
    double sustainedPflops16 = NAN;       ///< the whole design, each class at its slowest GPU's pace
    /// False when the case was not solved (rotor failed on a design of more than kRotorCaseMaxRacks
    /// racks of more than kRotorCaseMaxDistinct kinds: a second airflow solve of every rack;
    /// `--scenario fan-fail=1` solves it), said so in every output.
    bool solved = true;
};

/// rdt check solves the "rotor failed" case beside normal operation for designs of at most this
/// many racks, or of any size whose racks are at most kRotorCaseMaxDistinct kinds
/// (thermal::contentKey: racks alike share their solutions, so a fleet of templates costs little).
constexpr std::size_t kRotorCaseMaxRacks = 4096;
constexpr std::size_t kRotorCaseMaxDistinct = 64;

struct TargetResult {
    std::string id, metric;
    /// Compute metrics: the data type judged ("bf16"; "bf16, the default" when the file named none);
    /// empty for the others.
    std::string dtype;
    double value = 0, limit = 0; ///< SI
    bool isMin = true, pass = false;
    bool applicable = true; ///< false: the target asks for more GPUs than the design has ("n/a")
    std::string why;        ///< a NaN value: what is not known
    core::Dimension dim = core::Dimension::Ratio;
    core::SourceLoc loc;
    /// The value within its limit (an unknown value never is). Met at the limit itself: a target written as the figure rdt reported meets it, whatever the last
    /// bit of its unit's conversion (92.28687276256532 % read as a ratio came out 2e-16 above the value
    /// it was copied from and failed; trust trial, 2026-12-07). 1e-12 relative, far below any figure.
    bool meets() const
    {
        const double slack = 1e-12 * std::fabs(limit);
        return !std::isnan(value) && (isMin ? value >= limit - slack : value <= limit + slack);
    }
};

struct ThroughputResult {
    double mfu = 0.4;
    std::string mfuSource; ///< targets file, or "default"
    std::vector<GpuClass> classes;
    models::Hierarchy hierarchy;
    double nicRateGbps = 0; ///< per NIC, after any lane-rate fallback
    int chassisGpus = 0;    ///< GPUs in one chassis (a tray); the NVLink node when no domain spans chassis
    std::string fabric;     ///< fabric kind, or "default (no fabric: section)"
    int gpus = 0;
    double peakPflopsBf16 = 0,
           sustainedPflopsBf16 = 0; ///< whole design: the sum of the classes, each at its slowest GPU's pace
    /// The same in each class's 16-bit tensor type (BF16, else FP16: comparable across generations);
    /// dtype16 "bf16", "fp16", "bf16/fp16" when mixed, "" when no class has either (then NaN).
    std::string dtype16;
    double peakPflops16 = NAN, sustainedPflops16 = NAN;
    std::vector<CollectivePoint> collectives;
    std::vector<ScalingPoint> allgatherScaling;
    std::vector<TargetResult> targets;
    std::optional<CheckpointResult> checkpoint; ///< when the targets file has `checkpoint:`
    std::vector<FailureCase> failureCases;      ///< the supply failures the design's racks are built for
    std::vector<std::string> notes;
    /// The share of the sustained figures left by the GPUs' ramp-up limit (dynamics:, withRampLimit);
    /// 1 without one. Clocks and collectives are not scaled.
    double rampLimitFactor = 1;
    /// busbw (GB/s) of `op` at `sizeB` over n GPUs with NCCL's best algorithm.
    models::CollectiveTime collective(models::Collective op, int n, double sizeB) const;
    models::NcclParams nccl;
};

/// The clock of a chassis' slowest GPU under its cap, its rack's power budget and its junction
/// temperature; ratio NaN for parts without GPUs (or whose GPU is not in the catalog).
struct ChassisClock {
    double ratio = NAN;    ///< clock / quoted peak clock
    double powerW = 0;     ///< board power it runs at
    double capW = 0;       ///< its power cap (the design's, else TDP)
    std::string limitedBy; ///< "none", "power cap", "rack power", "thermal"
};
/// chassisClocks()[rack][slot] for every placed part, in normal operation: each rack's GPUs
/// capped to what its supply carries with every feed, shelf and rectifier up (normalRackCaps()).
std::vector<std::vector<ChassisClock>> chassisClocks(const core::Design& design, const power::PowerResult& power,
                                                     const thermal::ThermalResult& thermal);
/// The same with each rack's per-GPU cap given (W; NaN: no limit; 0: a rack no cap can feed, whose GPUs do not run).
std::vector<std::vector<ChassisClock>> chassisClocks(const core::Design& design, const std::vector<double>& rackCapsW,
                                                     const thermal::ThermalResult& thermal);
/// Each rack's per-GPU cap in normal operation (power::RackPower::capNormal): NaN when its
/// supply carries the design's caps, 0 when even the GPUs' minimum cap is too much.
std::vector<double> normalRackCaps(const core::Design& design, const power::PowerResult& power);

/// Couple the solvers' results into throughput; `targets` may be null (default MFU 0.4). The
/// checkpoint is the targets' when they have one, else `workload`'s (the design's), else none.
ThroughputResult analyseThroughput(const core::Design& design, const power::PowerResult& power,
                                   const thermal::ThermalResult& thermal, const signal::SignalResult& signal,
                                   const models::NcclParams& nccl, const Targets* targets,
                                   const CheckpointSpec* workload = nullptr);

/// The "rotor failed" case: every chassis with one more failed fan rotor (`withRotorFailed`, the
/// network model solved so), its GPUs at normal operation's caps and that solution's junctions.
FailureCase rotorFailureCase(const core::Design& design, const power::PowerResult& power,
                             const thermal::ThermalResult& asDesigned, const thermal::ThermalResult& withRotorFailed,
                             double mfu);

/// A target's value in the unit people read it in: TFLOPS, GB/s (bytes, as nccl-tests), %.
std::pair<double, const char*> targetDisplay(double si, core::Dimension dim);

/// Failed targets as rule violations (`target.<id>`), so they set the exit code and show in
/// every output format.
std::vector<core::Violation> targetViolations(const ThroughputResult& t);

/// A collective by any of nccl-tests' names (`allreduce`, `all_reduce`, `all_reduce_perf`, … as
/// hil::ncclCollectiveName reads them); nullopt when unknown.
std::optional<models::Collective> collectiveFromName(const std::string& name);

} // namespace rdt::analysis
