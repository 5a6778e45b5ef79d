#pragma once
/// \file RoomReference.h
/// Rack intakes from a reference solve (`thermal: {model: field, intakes_from: DIR}`, or
/// `--intakes-from DIR`): the design's room solved by rdt's field model as usual, then every rack
/// of the exported OpenFOAM case (room/OpenFoamResult.h) re-solved by the airflow network under
/// OpenFOAM's intakes — per chassis the mean of the case's zones (layers of cells) in front of it —
/// so that the thermal rules, throughput and every output judge OpenFOAM's air, not rdt's. The air
/// behind each rack (its recirculation path) stays rdt's field solution.

#include <string>

#include "core/Design.h"
#include "core/Progress.h"
#include "room/OpenFoamResult.h"
#include "thermal/Thermal.h"

namespace rdt::room {

/// The design's thermal result with the intakes of `reference` (read from `reference.dir`). Pods of
/// the same layout are one room to rdt (solved once, room/RoomThermal.h): a case of one of them
/// gives its intakes to every rack in the same position of the others.
/// Throws core::InputError (naming the case's rdt-racks.txt) when the case does not hold the
/// design's racks — a rack of the design in no room the case solved, a case rack the design lacks,
/// a rack whose zones differ from the design's (exported from another design: export again), or
/// a rack whose intake in rdt's own solve now differs by more than 0.1 K from the one it had at
/// export (a what-if or an edit since: OpenFOAM's air is not this design's).
thermal::ThermalResult computeThermalFromOpenFoam(const core::Design& design, const OpenFoamResult& reference,
                                                  const thermal::RackAirflowParams& params = {},
                                                  core::Progress* progress = nullptr);

/// "OpenFOAM case DIR (N iterations on R ranks, converged|not converged on its residuals)".
std::string referenceDescription(const OpenFoamResult& reference);

} // namespace rdt::room
