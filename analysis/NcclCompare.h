#pragma once
/// \file NcclCompare.h
/// A nccl-tests log against the collectives model: the measured busbw of each size beside the
/// prediction for the same collective, rank count, algorithms and protocols NCCL was allowed.
/// `rdt nccl compare` prints it; the studio's Throughput panel draws it.

#include <optional>
#include <string>
#include <vector>

#include "hil/NcclLog.h"
#include "models/Collectives.h"

namespace rdt::analysis {

/// What a prediction needs, from a design's throughput result or a cluster file.
struct ThroughputResult;

struct NcclModel {
    models::Hierarchy hierarchy;
    models::NcclParams nccl;
    int gpus = 0;
    std::string name, fabric;
    std::vector<std::string> gpuParts; ///< catalog slugs of the model's GPUs (nvidia-h100-sxm5)
};

/// The model of a design (the whole pipeline runs) or of a cluster file (NcclCluster.h).
NcclModel ncclModelFor(const std::string& designOrCluster);
/// The model of a design's throughput result (the studio's, which has run the pipeline already).
NcclModel ncclModelOf(const ThroughputResult& t, const std::string& designName);

struct NcclCompareOptions {
    std::string op;    ///< empty: from the log (its file name or banner)
    int gpus = 0;      ///< 0: the log's rank lines, else its busbw/algbw factor
    std::string algo;  ///< NCCL_ALGO syntax; empty: the log's
    std::string proto; ///< NCCL_PROTO syntax; empty: the log's
};

struct NcclComparedRow {
    double sizeB = 0, measuredGBps = 0;
    models::CollectiveTime predicted; ///< NaN busbw when not predicted
    bool predictedValid = false;
    double ratio = NAN; ///< measured / predicted busbw
};

struct NcclComparison {
    hil::NcclLog log;
    models::Collective op = models::Collective::AllReduce;
    int gpus = 0;
    std::string algoSpec, protoSpec, scope, modelName, fabric;
    bool unmodelledOnly = false; ///< NCCL_ALGO left only algorithms rdt does not model: not checked
    std::string unmodelledWhy;
    std::vector<std::string> notes;
    std::vector<NcclComparedRow> rows;
    double medianLarge = NAN; ///< median ratio at sizes ≥ 64 MiB (NaN: none)
};

/// Compare `log` with `model`. InputError (naming the log or the option) when the collective or
/// the rank count cannot be told, the options are malformed, or the model has too few GPUs.
NcclComparison compareNccl(const hil::NcclLog& log, const NcclModel& model, const NcclCompareOptions& o);

} // namespace rdt::analysis
