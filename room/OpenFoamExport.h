#pragma once
/// \file OpenFoamExport.h
/// The same room as an OpenFOAM case, for cross-checking rdt's field with the reference open CFD
/// code (Debian 12's `openfoam` package, v1912). The mesh is rdt's own grid written as a
/// polyMesh (air cells only: racks and containment panels are holes in it), so both codes solve
/// on the same cells. Boundaries: floor, walls and ceiling are no-slip adiabatic walls; each
/// supply (tile or diffuser) a fixed velocity at the supply temperature; each return a
/// zero-pressure outlet; each rack's front a patch drawing the rack's flow (fixed velocity out of
/// the room), its rear a patch releasing it, its other faces walls. Each rack is coupled by
/// OpenFOAM itself, per zone (a layer of cells: the chassis there): the zone's exhaust patch takes
/// the flow-weighted mean temperature of the zone's own intake patch as OpenFOAM has it at each
/// iteration (stock `outletMappedUniformInlet`: v1912 compiles no coded conditions without its
/// development files, and its mapped inlet has no offset), and the zone's heat Q enters the air
/// cells just behind the exhaust (an fvOption `scalarSemiImplicitSource`, Q / (ρ c_p) in the
/// temperature equation's units) — so the air leaving a zone is its own intake plus Q / (ṁ c_p),
/// and nothing in the case comes from rdt's solution but the racks' flows and heats. A cooler
/// (in-row unit) releases its air at its fixed supply temperature. Solver:
/// buoyantBoussinesqSimpleFoam with the standard k-epsilon model and wall functions, on one
/// process or N MPI ranks (`decomposePar`, scotch). `Allrun` runs it, writes each zone's mean
/// intake temperature to postProcessing/ and prints each rack's intake beside rdt's
/// (`rdt-compare.txt` holds rdt's values).

#include <string>
#include <vector>

#include "room/FieldSolver.h"
#include "room/RoomGeometry.h"

namespace rdt::room {

struct OpenFoamOptions {
    int iterations = 2000; ///< SIMPLE iterations (endTime); the residual controls may stop it earlier
    std::string title;     ///< into the case's README
    int ranks = 1;         ///< MPI ranks for the solver (> 1: decomposePar, mpirun, reconstructPar)
    /// > 0: a transient reference instead of the steady one — buoyantBoussinesqPimpleFoam (PIMPLE,
    /// Euler, Courant number 2) for this many seconds of the room's time, each intake averaged over
    /// time from `averageFromS` (default: a third of the run) to the end. A room whose plumes never
    /// settle has no steady answer: SIMPLE's last iteration is one sample of an oscillation, and
    /// its time mean is the reference (docs/thermal.md).
    double transientS = 0;
    double averageFromS = NAN;
    /// Per black box (racks, then in-row units) its name in the design, into rdt-racks.txt for
    /// readOpenFoamResult; empty: rack_N.
    std::vector<std::string> boxNames;
};

/// Write the case into `dir` (created; files replaced). `solved` is rdt's converged field of the
/// room (exhaust temperatures, the comparison file). Returns the number of cells written.
/// Throws std::runtime_error when the directory cannot be written.
std::size_t exportOpenFoam(const RoomGeometry& room, const FieldSolver& solved, const std::string& dir,
                           const OpenFoamOptions& options = {});

} // namespace rdt::room
