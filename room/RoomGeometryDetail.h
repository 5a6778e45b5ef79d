#pragma once
/// \file RoomGeometryDetail.h
/// Inside the room library: pieces of a room's geometry (RoomGeometry.cpp) kept in their own files.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/Design.h"
#include "core/LayoutGeometry.h"

namespace rdt::room::detail {

/// A liquid-to-air CDU (AALC) standing at a row's end: its frame in layout coordinates, which way
/// it faces, the air it draws (kg/s) and the heat it releases into it (W).
struct AalcFrame {
    std::string name;
    core::Box frame;
    int facing;
    double massFlow, heat;
};

/// Each liquid-to-air loop's units in the rows of the room of `racks` (hall `hall`, pod `pod`, or
/// -1 under hall scope): its share of units per row (by its racks there, at least one), half at
/// each end of the row beyond what `outboard` (per row and end, m) already holds, which it
/// extends; as deep and tall as the row's end rack, the CDU part's width wide; every unit drawing
/// its rated air (times the share running) with its share of the row's coolant heat
/// (`rackLiquidW`) and fans. InputError at the loop for a CDU without a width or a unit that would
/// stand on a rack.
std::vector<AalcFrame> aalcFrames(const core::Design& d, const core::LayoutGeometry& layout, const std::vector<int>& racks,
                                  int hall, int pod, bool hallScope, const std::vector<double>& rackLiquidW,
                                  double density, std::map<std::pair<int, bool>, double>& outboard);

} // namespace rdt::room::detail
