#pragma once
/// \file LiquidDesign.h
/// A design's liquid cooling solved: every loop of its `liquid:` section (core/Design.h) built from
/// the catalog — the CDUs' pumps and exchangers, the header along the loop's racks, each rack's
/// hoses, connector and manifold, each liquid-cooled part's connector pair, cold-plate loop and
/// plates — and solved as one network per loop (liquid/RackLoop.h), with the what-ifs `pump-fail`,
/// `cdu-fail` and `facility-water`. Every figure in SI; temperatures in degC as the loop solver
/// keeps them.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/ResultStore.h"

namespace rdt::liquid {

/// One liquid-cooled part (a compute or switch tray).
struct TrayLiquid {
    std::string id; ///< the slot's full id
    int rack = -1, slot = -1;
    double drawW = 0; ///< the part's draw (W)
    double heatW = 0; ///< of it, into the coolant
    /// The heat on the power budget's basis (LiquidResult::basis; the peak basis sizes on nameplate, its
    /// excursions being milliseconds the coolant absorbs): what the CDUs are sized for.
    double basisHeatW = 0;
    double flowM3s = 0;
    double inletC = 0, outletC = 0;
    double caseC = NAN;     ///< each plate's case; NaN when starved (below its measured flow)
    double caseRiseK = NAN; ///< case − inlet
    bool plateMeasured = true;
    double gpuW = 0; ///< per GPU (0 for parts without GPUs)
    /// case + GPU power × thermal.r_jc; NaN without r_jc; +∞ when the plate is starved (its case not known)
    double junctionC = NAN;
    /// The reference the GPU clock's thermal limit scales from (analysis/GpuClocks.cpp): the power
    /// it gives is P (T_limit − this) / (junction − this). Computed as the junction with the GPUs at
    /// 0 W (the inlet plus the plate's rise from the tray's other heat: its draw less its GPUs', a
    /// conservative split, their conversion loss staying in the rest); where the tray throttles, a
    /// fitted value, not a temperature (withThrottleReferences), and its limit where the throttled
    /// loop starves its plate (its GPUs stop). NaN with junctionC; the inlet where the plate is starved.
    double idleJunctionC = NAN;
    double maxJunctionC = NAN; ///< the GPU's max_operating_temp (else slowdown_temp); NaN: not in the catalog
    double supplyPortPa = 0;   ///< gauge (the fill pressure included)
    double returnPortPa = 0;
    double dropPa = 0;
    /// The tray connector pair's ratings; NaN where the catalog lacks them.
    double connectorRatedM3s = NAN, connectorMaxPa = NAN, connectorMaxC = NAN;
};

struct RackLiquid {
    std::string id;
    int rack = -1;
    int loop = -1;
    double heatW = 0, flowM3s = 0;
    double supplyC = 0, returnC = 0;
    double spread = 0;  ///< of the flow of its trays of one part, (largest − smallest) / mean (the widest part)
    double inletPa = 0; ///< gauge at the rack's supply connector
    double manifoldVelocity = 0; ///< m/s where the manifold carries the whole rack's flow
    double lineVelocity = 0;     ///< m/s in its supply and return hoses
    double connectorRatedM3s = NAN, connectorMaxPa = NAN, manifoldMaxPa = NAN;
    /// Gauge pressure the rack connector may see, bounded by the pumps' outlet (their rise plus the fill).
    double connectorBoundPa = 0;
    std::vector<int> trays; ///< indices into LiquidResult::trays
    /// Leak-detection zones watching the rack (its rack type's `liquid.leak.zones`, and any part in
    /// it with them, e.g. a leak-detection module), where they come from, and what a leak does:
    /// `power-off` (the rack's controller cuts tray power: Meta's RMC) when every zone does so,
    /// `alarm` when any only alarms, empty when the catalog does not say.
    int leakZones = 0;
    std::vector<std::string> leakSources;
    std::string leakResponse;
};

struct LoopLiquid {
    std::string id;
    std::string cdu;                 ///< the CDU part's slug
    std::string type;                ///< liquid-to-liquid, liquid-to-air
    int count = 0, running = 0;      ///< CDUs, and those running under the what-if
    int pumps = 0, pumpsRunning = 0; ///< over all its CDUs
    double heatW = 0, flowM3s = 0;
    double basisHeatW = 0;           ///< its trays' heat on the budget's basis: what liquid.cdu.heat judges
    double supplyC = 0, returnC = 0; ///< the CDUs' IT side
    double setpointC = 0;
    double facilityC = 0; ///< facility water (liquid-to-air: the air the units draw)
    /// Liquid-to-air: the density of that air at the site's altitude (kg/m³); the units' fans move
    /// their rated volume of it. NaN for liquid-to-liquid.
    double airDensity = NAN;
    /// What the running CDUs remove holding the setpoint at facilityC with their rated IT flow (the
    /// vendor's re-rating convention; UA from the rating point).
    double capacityW = 0;
    bool holdsSetpoint = true; ///< at the loop's actual flow, the supply stays at the setpoint
    /// What the running CDUs remove holding the setpoint at basisFlowM3s (never more than at the
    /// running flow). Above their rated flow it is less than capacityW; NaN at or below it where the
    /// setpoint holds (there the rating, capacityW, is the limit).
    double capacityAtFlowW = NAN;
    /// The flow the control sets for basisHeatW (as asked, at least the running flow): where
    /// capacityAtFlowW is taken.
    double basisFlowM3s = 0;
    double ratedFlowM3s = 0;  ///< the running CDUs' rated IT flow
    double sourcePa = 0;      ///< the pumps' rise
    double pumpSpeed = 1;     ///< the speed the pump control settled at (fraction of full)
    double targetFlowM3s = 0; ///< what the control aims for: liquid: {flow_per_kw} × the loop's heat
    double pumpPowerW = NAN;  ///< the pumps' draw; NaN without their efficiency
    double fanPowerW = 0;     ///< liquid-to-air units' fans at rating (0 for liquid-to-liquid)
    /// The running CDUs' electrical draw: pumps + fans, at least their idle draw (power.idle, the
    /// controls); NaN when the pumps' draw is not known. Facility AC in the power budget.
    double electricalW = NAN;
    double airHeatW = 0;       ///< liquid-to-air: the heat the units give the room's air
    double headerVelocity = 0; ///< m/s in the header's first segment
    /// The capacity liquid.cdu.heat judges basisHeatW against: the lower of capacityW and
    /// capacityAtFlowW (where that is a limit). Every output's load against capacity uses it.
    double limitW() const { return std::isnan(capacityAtFlowW) ? capacityW : std::min(capacityW, capacityAtFlowW); }
    std::vector<int> racks; ///< indices into LiquidResult::racks
    std::string scenario;   ///< what-ifs that changed it, in words
    /// Non-empty when the loop's mean temperature lies outside the coolant's property table: the
    /// properties were taken at the table's edge, and this says so (never a silent extrapolation).
    std::string propertiesNote;
};

struct LiquidResult {
    std::string coolant;
    /// The basis of each part's and loop's basisHeatW: the power budget's (nameplate unless the run
    /// says otherwise), so the CDUs are sized for the load the budget signs; the loops run at the
    /// modelled draw (heatW).
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    double dewPointC = NAN; ///< of the room's air (site supply air and humidity)
    std::vector<LoopLiquid> loops;
    std::vector<RackLiquid> racks;
    std::vector<TrayLiquid> trays;
    /// Index into racks by design rack index (-1 for air-cooled racks).
    std::vector<int> rackOf;
};

/// Solve every loop. Throws core::InputError located at the loop or part for a figure the loop
/// needs and the catalog lacks, a loop that cannot be solved, or coolant temperatures outside the
/// property tables. An empty result for a design without `liquid:`.
LiquidResult computeLiquid(const core::Design& design, core::PowerBasis basis = core::PowerBasis::Nameplate);

/// The junction each throttling tray's GPU clock limit scales from (TrayLiquid::idleJunctionC),
/// refined so that the power the limit gives holds the junction at its GPUs' limit in the loop as
/// solved at that power. A loop's flow follows its heat (flow per kW), so a plate's rise is not
/// linear in GPU power: secant steps on each such tray's junction against its GPUs' power, each a
/// solve of the whole design with every throttling tray capped (they throttle together), until
/// every one is within 0.01 K of its limit (at most 6 solves, each as costly as the loop's own).
/// A tray whose plate starves at the throttled flow stops (its reference is its limit). Trays
/// within their limit at the design point keep the linear reference, and are not re-judged in the
/// throttled loop (its lower flow could warm them: not modelled). A throttled loop that does not
/// solve leaves the linear references. computeLiquid's result with the references refined.
LiquidResult withThrottleReferences(const core::Design& design, LiquidResult result);

/// From `store` (key "liquid"), computed on first use at the basis the store holds under
/// "power-basis" (analysis::solveCoupled puts it there), nameplate when none.
std::shared_ptr<const LiquidResult> liquidFor(const core::Design& design, core::ResultStore& store);

} // namespace rdt::liquid
