#pragma once
/// \file RackThermal.h
/// One rack as an airflow network — cold aisle → front door → front plenum → each chassis'
/// impedance → its fans → rear plenum → rear door → hot aisle, plus hot-aisle recirculation to
/// the front and leakage through open OU from rear to front — with each chassis' fan control
/// holding its GPUs at the setpoint, energy balances for the air temperatures, and the GPU's
/// compact junction model. All temperatures K, flows m³/s.

#include <cmath>
#include <string>
#include <vector>

#include "core/Design.h"

namespace rdt::thermal {

/// Air through a chassis the network can tell from none: ten times the scale of its flow law's
/// regularisation (FlowNetwork.cpp, 1e-6 m3/s), below which the law solved is not the fans' and
/// impedances' (10 mL/s, 0.02 CFM: 1 W would warm it 83 K). At or below it a chassis has no air
/// (ChassisThermal::noAirflow, thermal.chassis.airflow). Until 2026-12-06 any positive flow counted:
/// with every rotor of a Grand Teton failed the network left 4.4e-7 m3/s, its junction read
/// 3.7 million degC and thermal.chassis.airflow stayed silent.
inline constexpr double kNoAirM3s = 1e-5;

inline bool carriesAir(double flowM3s) { return flowM3s > kNoAirM3s; }

/// Rack-level impedances (Pa per (m³/s)²). Defaults are estimates; see docs/thermal.md.
struct RackAirflowParams {
    double frontDoorK = 1.5;       ///< perforated front door: ~6 Pa at 2 m³/s
    double rearDoorK = 1.5;        ///< perforated rear door
    double recirculationK = 4000;  ///< gaps around the rack, hot aisle to front: 10 Pa → 0.05 m³/s
    double leakPerOpenOuK = 1.7e6; ///< one open (blanked, leaky) OU: ρ/(2·Cd²·A²), A = 1e-3 m², Cd = 0.6
    /// Discharge coefficient of an OU without its blanking panel (`blanking: missing`): a sharp-edged
    /// opening of the rack type's bay width × one 48 mm OpenU.
    double missingPanelCd = 0.6;
    double otherDeltaTK = 15.0; ///< air temperature rise assumed for parts without a fan model
    int extraFailedRotors = 0;  ///< failed rotors in every chassis beyond the design's and scenario's
};

/// Boundary conditions of a rack.
struct AirState {
    double coldAisleK = 298.15; ///< air arriving at the front door
    double hotAisleK = 310.0;   ///< air the recirculation path brings back
    double densityRatio = 1.0;  ///< ρ / ρ_ref(1.2 kg/m³), scales fan and impedance pressures
    double density = 1.2;       ///< kg/m³ at the rack inlet
    double cp = 1005.0;         ///< J/(kg·K)
    int extraFailedRotors = 0;  ///< scenario: failed rotors added in every chassis
    /// Room field model: per slot, how much warmer (K) the air arriving at the slot's height is
    /// than the rack's mean intake (empty or NaN: none; the network model mixes the front).
    std::vector<double> slotInletOffsetK;
};

struct ChassisThermal {
    std::string id;
    int rack = -1, slot = -1;
    double heatW = 0;   ///< into the air (a liquid-cooled part's draw less what its cold plates carry)
    double liquidW = 0; ///< into the coolant (`liquid.fraction` of its draw); 0 for air-cooled parts
    double gpuW = 0;    ///< per GPU
    double airflowM3s = 0;
    double inletK = 0, exhaustK = 0;
    double gpuJunctionK = 0; ///< hottest GPU
    double fanSpeed = 1;     ///< fraction of full speed set by fan control
    double fanPowerW = 0;    ///< all fans at fanSpeed (part of heatW)
    int failedRotors = 0;
    /// Junction above the GPU's maximum operating temperature (its slowdown temperature when the
    /// catalog has no maximum): the GPU lowers its clocks to hold the limit.
    bool throttled = false;
    /// It releases heat into the air but no air flows through it from front to rear (every fan
    /// rotor failed, or the neighbours' fans draw air back through it): its heat has no way out, its
    /// GPUs' junction is unbounded (infinite; they throttle to a stop) — thermal.chassis.airflow.
    bool noAirflow = false;
    /// Room field model only: the air arriving at this chassis' height in front of its rack,
    /// mean and hottest cell (K); NaN with the network model.
    double fieldInletK = NAN, fieldInletMaxK = NAN;
    /// From the catalog; NaN when it lacks them (the rules then say "not checked").
    double setpointK = NAN, maxOperatingK = NAN, slowdownK = NAN;
    /// The air-cooled GPU junction with its GPUs at 0 W and the rest of the chassis' heat unchanged
    /// (the air it meets, preheated by the chassis' other heat): the clock model's thermal limit
    /// scales only the rise above this with GPU power. (It scaled the whole rise above the inlet, as
    /// if the CPUs' preheat went away with the GPUs' power: an optimistic clock.) NaN with gpuJunctionK.
    double gpuIdleJunctionK = NAN;
    /// A GPU under a cold plate: its junction from the coolant loop (liquid/LiquidDesign.h: plate case
    /// plus GPU power times r_jc), and the reference its clock's thermal limit scales from
    /// (TrayLiquid::idleJunctionC: the junction at 0 GPU W, refined where it throttles); NaN for
    /// air-cooled GPUs and where the catalog lacks the figures. The clock model throttles on these.
    double liquidJunctionK = NAN, liquidIdleJunctionK = NAN;
    /// The junction its GPUs' clocks and rules judge: the loop's under a cold plate (+inf on a starved
    /// plate), else the air's. Every output's "GPU junction" is this one.
    double judgedJunctionK() const { return liquidJunctionK == liquidJunctionK ? liquidJunctionK : gpuJunctionK; }
};

struct RackThermal {
    std::string id;
    int rack = -1;
    double heatW = 0;            ///< into the air: all parts, the power shelves' conversion loss included
    double liquidW = 0;          ///< into the coolant from its liquid-cooled parts (not in heatW)
    double shelfLossW = 0;       ///< the power shelves' conversion loss (AC in − busbar out), part of heatW
    double doorFlowM3s = 0;      ///< drawn from the cold aisle through the chassis' fans
    /// Moved by the parts without a fan model (switches, the shelves' conversion loss), heated by
    /// RackAirflowParams::otherDeltaTK: outside the fan network, but drawn from the cold aisle too.
    double otherFlowM3s = 0;
    /// All the air the rack takes from the room (m³/s): what the row's and the room's supply must meet.
    double drawM3s() const { return (doorFlowM3s > 0 ? doorFlowM3s : 0.0) + otherFlowM3s; }
    double exhaustFlowM3s = 0;   ///< through the rear door
    double recirculationM3s = 0; ///< hot aisle back to the front
    double leakM3s = 0;          ///< rear to front inside the rack
    double frontK = 0, rearK = 0;
    double fieldIntakeK = NAN, fieldIntakeMaxK = NAN; ///< room field model: air at the front face (K)
    int newtonIterations = 0;
    double massResidual = 0;
    /// The rack network's solution (branch flows, node pressures), a warm start for the next solve.
    std::vector<double> branchFlowsM3s, nodePressuresPa;
    std::vector<ChassisThermal> chassis;
    /// Per slot of the rack: the air through it (m³/s: a chassis' fans; a part without a fan
    /// model its heat at RackAirflowParams::otherDeltaTK) and its heat (W) — the room field gives
    /// each its share of the rack's front and rear.
    std::vector<double> slotFlowM3s, slotHeatW;
    /// The rack's switches at their own intake: the rack's front plus, with the room field model, the
    /// stratification at the switch's height (thermal.inlet.switch; JSON thermal.switches).
    struct SwitchInlet {
        std::string id; ///< the slot's full id
        int slot = -1;
        double inletK = 0;
    };
    std::vector<SwitchInlet> switches;
};

/// Solve one rack for the given boundary air. Throws NetworkError for a chassis that dissipates
/// heat without an air path (no fan curve). `hint`, a solution of the same rack under slightly
/// different air (its row's previous iteration), starts fan control and the network near its
/// answer; the result agrees with an unhinted solve to the fan control's tolerance.
RackThermal solveRack(const core::Design& design, std::size_t rack, const AirState& air,
                      const RackAirflowParams& params = {}, const RackThermal* hint = nullptr);

} // namespace rdt::thermal
