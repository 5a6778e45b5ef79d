#pragma once
/// \file NcclCommand.h
/// `rdt nccl compare LOG --design DESIGN|CLUSTER [--op OP] [--gpus N] [--algo A] [--proto P] [--json]`: measured busbw from a
/// nccl-tests log against the model's prediction for the same collective, GPU count and sizes.

#include <string>

namespace rdt::cli {

struct NcclArgs {
    std::string log;
    std::string design;
    std::string op; ///< allreduce, allgather, reducescatter, alltoall; empty = from the file name
    int gpus = 0;   ///< 0 = from the log's device list
    std::string algo; ///< NCCL_ALGO syntax; empty = the log's NCCL_ALGO, else NCCL's choice
    std::string proto; ///< NCCL_PROTO syntax; empty = the log's NCCL_PROTO, else NCCL's choice
    bool json = false;
};

int runNcclCompare(const NcclArgs& args);

} // namespace rdt::cli
