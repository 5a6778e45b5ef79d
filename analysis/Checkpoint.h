#pragma once
/// \file Checkpoint.h
/// How long a training job's checkpoint takes to write and to read back on a design, how long it
/// stalls training, and what checkpoints and failures cost in goodput.
///
/// The checkpoint (parameters × bytes of saved state per parameter, sharded over every GPU) moves
/// GPU memory → host → front-end NICs → front-end fabric → storage; each stage is an aggregate
/// bandwidth and the slowest sets the time (stages pipeline). Synchronous checkpointing stalls for
/// the whole write; asynchronous for the copy to host memory only. Failures arrive at a rate that
/// scales with the GPU count (from a reference: Llama 3 saw 466 interruptions in 54 days on 16,384
/// GPUs [M8]). The checkpoint interval is the workload's or the optimum of Daly (2006), the
/// higher-order form of Young (1974); goodput is Daly's expected useful fraction of wall time.
///
/// J. W. Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9), 1974.
/// J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps",
/// Future Generation Computer Systems 22(3), 303–312, 2006.

#include <cmath>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Error.h"

namespace rdt::analysis {

/// The workload's checkpoint (`checkpoint:` in a targets file).
struct CheckpointSpec {
    double parameters = 0;            ///< model parameters
    double bytesPerParameter = 14;    ///< saved state: bf16 weights 2 + fp32 master 4 + Adam moments 8
    double intervalS = NAN;           ///< compute time between checkpoints; NaN: Daly's optimum
    bool asynchronous = false;        ///< training resumes once the state is in host memory
    double interruptionsPerDay = NAN; ///< at `referenceGpus`; scaled in proportion to the job's GPUs
    double referenceGpus = 0;
    std::string interruptionSource;
    double restartS = 0;      ///< job restart before the restore read (scheduling, initialisation)
    std::string workload;     ///< the workload's name, when it came from a workload file
    std::string workloadFile; ///< that file
    core::SourceLoc loc;
};

/// One stage of the write or read path.
struct PathStage {
    std::string name;     ///< "GPU to host", "front-end NICs", "front-end fabric", "storage"
    double bytesPerS = 0; ///< aggregate over the job
    std::string basis;    ///< how it was counted
};

struct CheckpointResult {
    bool checked = false;
    std::string workload, workloadFile; ///< the spec's workload (empty when given inline)
    std::vector<std::string> missing;   ///< design figures the model needs but the design lacks
    int gpus = 0, nodes = 0;
    double bytes = 0;                   ///< the whole checkpoint
    std::vector<PathStage> write, read; ///< in path order
    std::string writeBottleneck, readBottleneck;
    double saveS = NAN, restoreS = NAN;
    double stallS = NAN;              ///< what training waits per checkpoint
    double mtbfS = NAN;               ///< mean time between job interruptions at this size
    double youngS = NAN, dalyS = NAN; ///< optimum intervals
    double intervalS = NAN;           ///< used: the workload's, else Daly's
    double goodput = NAN;             ///< useful fraction of wall time at intervalS
    double goodputAtOptimum = NAN;
    double lostGpuHoursPerDay = NAN;
    int storageServers = 0;            ///< placed storage servers (0: the tier is `storage:` only)
    double storageCapacityBytes = NAN; ///< their raw flash
};

/// Young (1974): τ = √(2 δ M).
double youngInterval(double stallS, double mtbfS);
/// Daly (2006), eq. 37: τ = √(2δM)·[1 + ⅓·√(δ/2M) + ⅑·(δ/2M)] − δ for δ < 2M, else τ = M.
double dalyInterval(double stallS, double mtbfS);
/// Daly (2006): useful fraction of wall time with compute τ between checkpoints of δ, restart R
/// and exponential failures of mean M: τ / (M·e^{R/M}·(e^{(τ+δ)/M} − 1)).
double checkpointGoodput(double intervalS, double stallS, double restartS, double mtbfS);

/// The storage servers a design places (parts with `drives:`), summed.
struct ServerTier {
    int count = 0;
    double writeBps = 0, readBps = 0; ///< bit/s, each server the least of drives, drive path, NICs
    double capacityBytes = 0;         ///< raw, before redundancy
    std::string basis, readBasis;     ///< per server part, how its rate was counted
    std::string lacking;              ///< catalog figures a server lacks (then not checked)
};
ServerTier storageServers(const core::Design& design);

/// The checkpoint of `spec` on `design` (its GPUs and `storage:` figures).
CheckpointResult analyseCheckpoint(const core::Design& design, const CheckpointSpec& spec);

} // namespace rdt::analysis
