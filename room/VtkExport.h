#pragma once
/// \file VtkExport.h
/// A solved field as a VTK XML rectilinear grid (`.vtr`) that ParaView and VTK open: the grid's
/// face coordinates (m) and, per cell, temperature (°C), pressure (Pa, relative), velocity (m/s,
/// at the cell centre) and whether the cell is solid (inside a rack or a panel). Array names carry
/// their units, so ParaView's legends do.

#include <string>

#include "room/FieldSolver.h"

namespace rdt::room {

/// The `.vtr` document (ASCII).
std::string fieldToVtr(const FieldSolver& solver);

/// Write it to `path` atomically (InputError, located at `path`, when it cannot be written).
void writeFieldVtr(const FieldSolver& solver, const std::string& path);

} // namespace rdt::room
