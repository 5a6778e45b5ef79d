#pragma once
/// \file OpenFoamResult.h
/// An exported OpenFOAM case read back after its run (`rdt field DESIGN --from-openfoam DIR`): each
/// rack's mean intake temperature as OpenFOAM has it — its zones' intake patches' last sampled
/// means (postProcessing/<patch>/0/surfaceFieldValue.dat), or for a transient case (rdt-reference.txt)
/// their time means from its averaging start to the end, weighted by the zones' flows
/// (rdt-compare.txt) — under the design's rack ids (rdt-racks.txt), with how the run ended.

#include <cmath>
#include <string>
#include <vector>

namespace rdt::room {

/// One rack of the case.
struct OpenFoamIntake {
    std::string patch; ///< rack_N, as in the case
    std::string id;    ///< the design's rack id
    double intakeC = 0;    ///< OpenFOAM's mean intake, °C
    double rdtIntakeC = 0; ///< rdt's when the case was exported, °C
    /// Steady: OpenFOAM's change over its last 10 samples (500 iterations); transient: the second
    /// half of the averaging window's mean less the first half's (K).
    double driftK = 0;
    /// Per zone (a layer of cells, the chassis there; bottom to top, as the case numbers them):
    /// OpenFOAM's mean intake (°C) and the flow rdt gave the zone (m³/s).
    std::vector<double> zoneIntakeC, zoneFlowM3s;
};

struct OpenFoamResult {
    std::string dir;
    std::vector<OpenFoamIntake> racks;
    int iterations = 0;     ///< SIMPLE iterations (transient: time steps) the solver ran (its log)
    bool converged = false; ///< on the case's residual targets (transient: it ran to its end)
    bool transient = false; ///< a time-averaged transient reference
    double averageFromS = NAN, endS = NAN; ///< its averaging window (s of the room's time)
    int ranks = 1;          ///< MPI ranks it ran on
};

/// Read the case in `dir`. Throws core::InputError naming the file (and line) for a case that was
/// not exported by rdt, has not been run, or whose files are malformed.
OpenFoamResult readOpenFoamResult(const std::string& dir);

} // namespace rdt::room
