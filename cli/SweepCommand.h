#pragma once
/// \file SweepCommand.h
/// `rdt sweep SPEC.yaml [-o sweep.h5] [--json] [--threads N]`: every variant of a design study,
/// OpenMP across variants on one machine, or across MPI ranks under `mpirun -n N rdt sweep …`
/// (dynamic load balance: each rank takes the next variant from a shared counter on rank 0; rank 0
/// gathers and writes). Results are identical either way.

#include <string>

namespace rdt::cli {

struct SweepArgs {
    std::string spec, output;
    bool json = false;
    int threads = 0; ///< 0: OpenMP's default
};

int runSweepCommand(const SweepArgs& args);

} // namespace rdt::cli
