#pragma once
/// \file RoomGeometry.h
/// A room of a design as the field solver (and the OpenFOAM export) sees it, built from the
/// layout (core/LayoutGeometry) and `room:`: one room per pod (the rows of a hall outside pods
/// form one more), its walls `room.clearance` from the racks, a Cartesian grid whose faces fall
/// on every rack and aisle edge, perforated tiles (or overhead diffusers) over the cold aisles,
/// returns in the ceiling over the hot aisles (or high on the end walls), containment panels and
/// one black box per rack. Coordinates are local to the room (m), z up from the floor.

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "room/FieldSolver.h"

namespace rdt::room {

/// A supply or return opening on one side of the room.
struct RoomPatch {
    std::string name; ///< `tile_1`, `return_2`, …
    Side side = Side::ZMin;
    std::array<double, 2> lo{}, hi{}; ///< m, along the side's two in-plane axes (x, y, z order)
    BoundaryKind kind = BoundaryKind::Inlet;
    double speed = 0;        ///< m/s into the room (inlets)
    double temperatureC = 0; ///< °C (inlets)
    double area() const { return (hi[0] - lo[0]) * (hi[1] - lo[1]); }
};

struct RoomSolid {
    std::array<double, 3> min{}, max{};
};

struct RoomGeometry {
    std::string id;                           ///< pod id, or `hall/rows` for rows outside pods
    std::vector<int> racks;                   ///< design rack indices, in black-box order
    std::array<double, 3> origin{};           ///< the room's corner in layout coordinates (m)
    std::array<double, 3> size{};             ///< m
    std::array<std::vector<double>, 3> faces; ///< grid faces (m, local)
    std::vector<RoomPatch> patches;
    std::vector<RoomSolid> solids;    ///< containment panels and doors
    std::vector<FieldBlackBox> boxes; ///< one per rack (flow and heat as last set), then the in-row units
    std::vector<std::string> coolers; ///< the in-row units' names, boxes[racks.size() + i]
    /// Liquid-to-air CDUs (AALC) of the design's liquid loops standing at the ends of this room's
    /// rows: boxes[racks.size() + coolers.size() + i], drawing their rated air from the cold aisle
    /// and releasing it into the hot aisle with their racks' coolant heat and their fans.
    std::vector<std::string> aalcUnits;
    double aalcM3s = 0, aalcHeatW = 0;
    double inRowM3s = 0;              ///< the in-row units' flow (the tiles carry supplyM3s)
    std::vector<double> rackHeightM;  ///< frame height per rack (chassis bands use it)
    double supplyM3s = 0, demandM3s = 0;
    double supplyC = 0;  ///< supply air, °C
    double rackTopM = 0; ///< tallest frame
    /// Containment as built: the open fraction of its roof or chimney panels by area (whole cells
    /// of the grid, at least one open, so it can differ from `room.leakage`; the end doors are
    /// closed). NaN without containment.
    double containmentOpen = NAN;
    std::string signature; ///< equal for rooms of the same layout and templates
    std::size_t cellCount() const { return (faces[0].size() - 1) * (faces[1].size() - 1) * (faces[2].size() - 1); }
};

/// The rooms of a design with every rack's flow (kg/s, what it draws at its front) and heat
/// (W) from the network solution, and the air's density (kg/m³). Throws core::InputError
/// (located at `room:` or the cooling unit) for a room that cannot be built: racks under too low
/// a ceiling, overlapping racks, a return the containment closes off, no supply, a grid larger
/// than `room.max_cells`.
/// `rackLiquidW` (W per rack into its coolant, the network's RackThermal::liquidW) heats the
/// liquid-to-air units beside the loop's racks; empty: they release only their fans' heat.
std::vector<RoomGeometry> roomGeometries(const core::Design& design, const std::vector<double>& rackFlowKgS,
                                         const std::vector<double>& rackHeatW, double density,
                                         const std::vector<double>& rackLiquidW = {});

/// A field solver set up for `room` (air properties with T_ref at the supply temperature).
/// The room's black boxes by their names in `design`: its racks' ids, then its in-row units', then
/// its liquid-to-air units'.
std::vector<std::string> boxNames(const RoomGeometry& room, const core::Design& design);

std::unique_ptr<FieldSolver> makeRoomSolver(const RoomGeometry& room, const FluidProperties& air);

} // namespace rdt::room
