#pragma once
/// \file Room.h
/// The room around the racks (`room:` in a design), as the room field solver and the 3D view see
/// it: aisle widths (rows alternate, so fronts share a cold aisle and rears a hot aisle), the
/// ceiling, the clearance to the walls, how cold air arrives (raised-floor perforated tiles in the
/// cold aisles, or overhead diffusers above them), where it returns (ceiling grilles above the hot
/// aisles, or the room's end walls), containment with its leakage, and the grid the solver uses.
/// Every default makes a design without `room:` solvable; docs/design-format.md lists them.

#include <optional>
#include <string>
#include <vector>

#include "core/Error.h"

namespace rdt::core {

enum class AirSupply { RaisedFloor, Overhead };
enum class AirReturn { Ceiling, Walls };
enum class Containment { None, ColdAisle, HotAisle };
/// The room field solver's turbulence closure (`room.turbulence`): the zero-equation model of
/// Chen & Xu (1998, the fast default) or the standard k–ε model with wall functions (as the
/// exported OpenFOAM case).
enum class RoomTurbulence { ZeroEquation, KEpsilon };
/// Which thermal model the rules and reports use (`thermal: {model: …}`, `--thermal`).
enum class ThermalModel { Network, Field };

/// A cooling unit (CRAH or in-row): the air it supplies and where it takes it back. A CRAH
/// supplies the tiles or diffusers and takes the room's air back through the returns; an in-row
/// unit stands at one end of a row, facing as its racks do: it draws the hot aisle's air at its
/// rear and blows its flow into the cold aisle at its supply temperature.
struct CoolingUnit {
    enum class Kind { Crah, InRow };
    std::string name;
    Kind kind = Kind::Crah;
    std::string row;               ///< in-row: the row's full id (`hall1/pod1/row01`)
    bool atStart = false;          ///< in-row: before the row's first rack (default: after its last)
    double widthM = 0.3;           ///< in-row: its width along the row
    std::optional<double> flowM3s; ///< unset: its share of `site.supply_flow` × the racks' demand
    std::optional<double> supplyK; ///< unset: `site.supply_air`
    AirReturn airReturn = AirReturn::Ceiling;
    SourceLoc loc;
};

struct Room {
    bool declared = false;
    double ceilingM = 3.6;   ///< floor to ceiling (returns and diffusers sit in it)
    double coldAisleM = 1.2; ///< between facing fronts (two 600 mm tiles)
    double hotAisleM = 1.2;  ///< between facing rears
    double clearanceM = 1.8; ///< racks to the walls, all round (unless the room's size is given)
    /// The room's floor, along the rows (x) and across them (y), m; unset: the racks' extent plus
    /// `clearanceM` all round. Given, the racks stand in its middle and must fit inside it.
    std::optional<double> lengthM, widthM;
    SourceLoc lengthLoc, widthLoc;
    AirSupply supply = AirSupply::RaisedFloor;
    Containment containment = Containment::None;
    double leakage = 0.05;          ///< open fraction of the containment's panels and doors
    std::vector<CoolingUnit> units; ///< empty: one unit with the site's supply air and flow ratio
    double cellM = 0.3;             ///< grid spacing of the field solver
    /// Local refinement: the cells at every rack face, aisle edge, tile edge, wall, floor and
    /// ceiling are `cellM / refine`, growing by at most 1.25 a cell to `cellM` (1: uniform).
    double refine = 1.0;
    RoomTurbulence turbulence = RoomTurbulence::ZeroEquation;
    /// What one room holds: each pod its own room (the default), or each hall one room with all
    /// its pods (their air mixes; a whole hall's solve, or its OpenFOAM case).
    enum class Scope { Pod, Hall } scope = Scope::Pod;
    long long maxCells = 4000000; ///< larger grids are refused (memory: about 0.5 kB a cell)
    SourceLoc loc;
};

/// `ceiling`, `walls`; `raised-floor`, `overhead`; `none`, `cold-aisle`, `hot-aisle`; `network`, `field`.
std::string_view airReturnName(AirReturn r);
std::string_view airSupplyName(AirSupply s);
std::string_view containmentName(Containment c);
/// `zero-equation`, `k-epsilon`.
std::string_view roomTurbulenceName(RoomTurbulence t);
std::string_view thermalModelName(ThermalModel m);
std::optional<ThermalModel> parseThermalModel(std::string_view s);

} // namespace rdt::core
