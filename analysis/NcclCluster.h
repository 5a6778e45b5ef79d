#pragma once
/// \file NcclCluster.h
/// A cluster as the collectives model sees it, for a public nccl-tests log whose machines are not
/// rack designs (cloud instances, vendors' servers): its GPU (a catalog part), GPUs and NICs per node,
/// the NICs' rate, node count and fabric latencies, each figure sourced or marked an estimate. The
/// calibration set (data/calibration/nccl/) describes each log's cluster this way; `rdt nccl compare
/// LOG --design FILE` takes one in place of a design.

#include <string>

#include "models/Collectives.h"

namespace rdt::analysis {

struct NcclCluster {
    std::string name, description, fabric;
    std::string gpuPart; ///< the GPU's catalog slug
    int gpus = 0;
    models::Hierarchy hierarchy;
    models::NcclParams nccl;
};

/// True when the YAML file at `path` is a cluster file (a top-level `cluster:` section).
bool isNcclClusterFile(const std::string& path);

/// Read a cluster file: InputError naming file, line and field on bad input, an unknown GPU part,
/// a figure without `source:` or `estimate:`, or a source key the catalog's sources.yaml lacks.
NcclCluster loadNcclCluster(const std::string& path);
/// The same from text; `fileName` names the file in messages.
NcclCluster parseNcclCluster(const std::string& text, const std::string& fileName);

} // namespace rdt::analysis
