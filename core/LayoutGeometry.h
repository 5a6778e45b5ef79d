#pragma once
/// \file LayoutGeometry.h
/// Where everything sits in 3D, in metres: racks along their row (x), rows one behind the
/// other (y), OU positions up (z). Rows alternate: the first row of a pod faces +y, the next −y,
/// so fronts share a cold aisle (`room.cold_aisle` wide) and rears a hot aisle (`room.hot_aisle`).
/// Pods form a grid; halls follow one another along y. The 3D view and the room field solver
/// both place racks from here.
/// The 3D view draws these boxes; the elevation uses the OU mapping.

#include <array>
#include <vector>

#include "core/Design.h"

namespace rdt::core {

/// An axis-aligned box. `slot` is -1 for a rack frame.
struct Box {
    std::array<double, 3> min{};
    std::array<double, 3> max{};
    int rack = -1;
    int slot = -1;
    int facing = 0; ///< rack frames: +1 when the front (air intake) faces +y, −1 when it faces −y
};

struct LayoutGeometry {
    std::vector<Box> frames; ///< one per rack
    std::vector<Box> parts;  ///< one per slot
    std::array<double, 3> boundsMin{};
    std::array<double, 3> boundsMax{};
};

/// Layout constants (m).
struct LayoutSpacing {
    double rackPitch = 0.6;  ///< ORv3 outer width [R1]
    double podGap = 3.0;     ///< clearance between pods (assumed)
    double ouPitch = 0.048;  ///< OpenU
    double baseHeight = 0.1; ///< floor to OU 1 (assumed)
    int podsPerLine = 4;     ///< pods per line of the pod grid
};

/// Boxes for every rack and slot of `design`.
LayoutGeometry computeLayout(const Design& design, const LayoutSpacing& spacing = {});

/// Lower z (m) of OU `ou` in a rack standing at z = 0.
double ouBottomZ(int ou, const LayoutSpacing& spacing = {});

/// The OU whose span contains height `z` (m) above the rack floor, clamped to 1…usable.
int ouAtHeight(double z, int usableOu, const LayoutSpacing& spacing = {});

} // namespace rdt::core
