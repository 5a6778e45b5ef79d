#pragma once
/// \file OpenFoamExport.h
/// The same room as an OpenFOAM case, for cross-checking rdt's field with the reference open CFD
/// code (Debian 12's `openfoam` package, v1912). The mesh is rdt's own grid written as a
/// polyMesh (air cells only: racks and containment panels are holes in it), so both codes solve
/// on the same cells. Boundaries: floor, walls and ceiling are no-slip adiabatic walls; each
/// supply (tile or diffuser) a fixed velocity at the supply temperature; each return a
/// zero-pressure outlet; each rack's front a patch drawing the rack's flow (fixed velocity out of
/// the room), its rear a patch releasing it at the exhaust temperature rdt's coupled solution
/// gives (fixed), its other faces walls. Solver: buoyantBoussinesqSimpleFoam with the standard
/// k-epsilon model and wall functions. `Allrun` runs it and writes each rack's mean intake
/// temperature to postProcessing/; `rdt-compare.txt` holds rdt's own values to compare with.

#include <string>

#include "room/FieldSolver.h"
#include "room/RoomGeometry.h"

namespace rdt::room {

struct OpenFoamOptions {
    int iterations = 2000; ///< SIMPLE iterations (endTime); the residual controls may stop it earlier
    std::string title;     ///< into the case's README
};

/// Write the case into `dir` (created; files replaced). `solved` is rdt's converged field of the
/// room (exhaust temperatures, the comparison file). Returns the number of cells written.
/// Throws std::runtime_error when the directory cannot be written.
std::size_t exportOpenFoam(const RoomGeometry& room, const FieldSolver& solved, const std::string& dir,
                           const OpenFoamOptions& options = {});

} // namespace rdt::room
