#pragma once
/// \file RoomThermal.h
/// The room field model of a design (`--thermal field`, `thermal: {model: field}`): each room
/// (room/RoomGeometry.h) solved by the field solver with its racks as the airflow network's
/// black boxes, coupled to a fixed point — the network gives each rack's flow (fan curves and
/// impedances at the fan speeds its control settles) and heat; the field gives each rack the air
/// at its front, mean and per chassis height, and the air behind it. Rows, RCI/RTI/SHI and the
/// thermal rules then come from the field. Rooms of one layout and templates are solved once.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Progress.h"
#include "room/FieldSolver.h"
#include "room/RoomGeometry.h"
#include "thermal/Thermal.h"

namespace rdt::room {

/// One solved room.
struct RoomField {
    RoomGeometry geometry;
    std::vector<std::string> sameAs; ///< other rooms of the same layout that share this solution
    int iterations = 0;              ///< field iterations over all coupling passes
    int couplings = 0;               ///< field ↔ network passes to the fixed point
    double couplingChangeK = 0;      ///< largest rack-intake change of the last pass
    double seconds = 0;
    double pseudoTimeStepS = 0;
    ResidualRecord residuals;             ///< the last iteration's
    std::string criterion;                ///< what ended the last solve: "residuals", or a plateau with steady intakes
    std::vector<ResidualRecord> history;  ///< every iteration of every pass
    double heatW = 0;                     ///< released by the racks and liquid-to-air units
    double coolerW = 0;                   ///< removed by the in-row units
    double heatOutW = 0;                  ///< carried out through the returns
    double returnC = 0;                   ///< mass-weighted air leaving (°C)
    double massInKgS = 0, massOutKgS = 0; ///< entering through the supplies, leaving by the returns
    std::shared_ptr<const FieldSolver> solver; ///< the converged field
    /// Grid sequencing: the coarser grids solved first (coarsest first), each coupled to its own
    /// fixed point; the room's field started from the last one's.
    struct Step {
        std::size_t cells = 0;
        int iterations = 0, couplings = 0;
        double seconds = 0; ///< since the room's solve began
    };
    std::vector<Step> sequence;
};

/// The room field's solutions, attached to a ThermalResult as its detail (model Field only).
struct FieldThermal : thermal::ThermalDetail {
    std::vector<RoomField> rooms;
    core::RoomTurbulence turbulence = core::RoomTurbulence::ZeroEquation; ///< the closure every room used
    /// Room index (into `rooms`, the one solved) per design room id, and which box each rack is.
    std::vector<int> roomOfRack, boxOfRack;
};

/// The room field solutions `result` carries; nullptr for a network result.
const FieldThermal* fieldOf(const thermal::ThermalResult& result);

/// The air every rack of the design's rooms sees but its temperatures: density (the network
/// result's), its ratio to the fans' reference, c_p, and the scenario's failed rotors.
thermal::AirState roomAir(const core::Design& d, const thermal::ThermalResult& network);

/// Every row's cold and hot aisle, RCI, RTI and SHI, and the count of throttled chassis, from the
/// racks' intakes in `res` and the rooms in `field` (computeThermalField's last step; also after
/// the intakes are replaced by a reference solve's, room/RoomReference.h).
void rowsFromField(const core::Design& d, const FieldThermal& field, thermal::ThermalResult& res);

/// Solver settings the room model uses (documented in docs/thermal.md).
/// `turbulence` chooses the closure (`room.turbulence`; default the zero-equation model).
FieldSettings roomFieldSettings(double pseudoTimeStepS,
                                core::RoomTurbulence turbulence = core::RoomTurbulence::ZeroEquation);
/// The closure's name with its reference, as JSON, HDF5 and `rdt field` print it.
std::string turbulenceDescription(core::RoomTurbulence turbulence);

/// Rooms of more cells than this start from the same room solved on coarser grids (grid sequencing).
inline constexpr std::size_t kSequenceCells = 20000;

/// Solve the design's rooms and couple them with the rack network. Throws core::InputError for
/// rooms that cannot be built, FieldConvergenceError when a room does not converge, core::Cancelled
/// when `progress` asks to stop.
/// `pressure` picks the pressure-correction solver (bench_room compares them); `sequenceCells` the
/// size above which a room is first solved on coarser grids (tests set it to compare both paths).
thermal::ThermalResult computeThermalField(const core::Design& design, const thermal::RackAirflowParams& params = {},
                                  core::Progress* progress = nullptr,
                                  PressureSolver pressure = PressureSolver::MultigridCG,
                                  std::size_t sequenceCells = kSequenceCells);

} // namespace rdt::room
