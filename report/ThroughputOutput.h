#pragma once
/// \file ThroughputOutput.h
/// The throughput results in `rdt check --json` (`throughput`) and in the HDF5 report (`/throughput`).

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "analysis/Throughput.h"

namespace rdt::report {

/// `throughput.gpu_classes[]` (id, gpus, sustained_tflops_bf16, clock_ratio, limited_by, …),
/// `throughput.collectives[]` (op, scope, gpus, size_B, algorithm, algbw_GBps, busbw_GBps),
/// `throughput.allgather_scaling[]`, `throughput.targets[]` (id, metric, value, limit, unit,
/// verdict), `throughput.fabric` and the cluster totals.
nlohmann::json throughputJson(const analysis::ThroughputResult& result);

/// `/throughput/gpu_classes`, `/throughput/collectives`, `/throughput/allgather_scaling`,
/// `/throughput/targets` tables and attributes for the totals.
void writeThroughputGroup(hid_t file, const analysis::ThroughputResult& result);

} // namespace rdt::report
