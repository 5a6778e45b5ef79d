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

/// `rdt nccl predict --design DESIGN|CLUSTER [--op LIST] [--size S] [--gpus LIST]`: the model's busbw
/// for each collective at each GPU count, from 16 GPUs to the whole cluster by default.
struct NcclPredictArgs {
    std::string design;
    std::string ops = "allreduce,allgather,alltoall";
    std::string size = "1 GiB";
    std::string gpus;  ///< comma list; empty: powers of two from 16, the pod and the whole cluster
    std::string algo;  ///< NCCL_ALGO syntax
    std::string proto; ///< NCCL_PROTO syntax
    bool json = false;
};

int runNcclPredict(const NcclPredictArgs& args);

} // namespace rdt::cli
