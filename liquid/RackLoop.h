#pragma once
/// \file RackLoop.h
/// One liquid-cooled rack's loop, built as a hydraulic network (liquid/Hydraulics.h) and solved
/// with its heat: a source (the CDU's pumps, or the facility's differential pressure at the rack)
/// feeds a supply line and the rack's connector into a vertical supply manifold; every tray draws
/// from its port through its quick-disconnect pair and its cold-plate loop into the return
/// manifold, which leaves at the bottom (direct return: the lowest trays' paths are shortest) or at
/// the top (reverse return: every path about as long). Each tray's coolant rises by its heat over
/// ṁ c_p; each of its cold plates (in parallel, sharing the tray's flow and heat) reaches
/// T_in + R(V̇) P at its case.

#include <string>
#include <vector>

#include "liquid/Exchangers.h"
#include "liquid/Hydraulics.h"
#include "models/Coolant.h"

namespace rdt::liquid {

struct TraySpec {
    std::string id;
    double heatW = 0; ///< into the liquid
    /// Trays of one kind (the same part) share a spread: the manifold's flow spread is judged among
    /// equal trays, as the ORv3 manifold's criterion is written.
    std::string kind;
    Curve loop;                    ///< the tray's cold-plate loop, Δp against flow
    std::vector<Element> couplers; ///< in series with the loop: the quick-disconnect pairs, hoses
    ColdPlate plate;               ///< each of its plates
    int plates = 1;                ///< in parallel, sharing flow and heat alike
};

enum class ManifoldReturn { Direct, Reverse };

struct RackLoopSpec {
    models::Coolant coolant = models::Coolant::PG25;
    double supplyC = 30.0; ///< coolant arriving at the rack
    Element source;        ///< a pump (the CDU's, or the facility's Δp at the rack as a flat curve)
    std::vector<Element> supplyLine, returnLine; ///< source to the rack's connector and back, connector included
    Pipe manifoldSegment;                        ///< between two adjacent tray ports, supply and return alike
    ManifoldReturn returns = ManifoldReturn::Reverse;
    std::vector<TraySpec> trays; ///< bottom to top
};

struct TrayResult {
    std::string id;
    double flowM3s = 0;
    double dropPa = 0; ///< supply port to return port
    double inletC = 0, outletC = 0;
    double caseRiseK = 0;      ///< each plate's T_case − T_in; NaN when a plate is starved
    double caseC = 0;          ///< NaN when starved
    bool plateMeasured = true; ///< false: the plate's flow is below its measured range
    double supplyPortPa = 0, returnPortPa = 0;
};

struct RackLoopResult {
    std::vector<TrayResult> trays;
    double flowM3s = 0; ///< through the rack
    double returnC = 0; ///< mixed
    double heatW = 0;
    double spread = 0;      ///< of the flow of trays of one kind: (largest − smallest) / mean, the widest kind
    double sourcePa = 0;    ///< the source's pressure rise
    double pumpPowerW = 0;  ///< the source's electrical draw, Q Δp / η; NaN when its efficiency is not given
    double propertiesC = 0; ///< the coolant's properties taken at this temperature (the loop's mean)
    Solution hydraulics;
};

/// A row's racks on one CDU: its pumps drive a supply header along the row with a tee per rack and
/// a return header back (direct: leaving at the first rack; reverse: at the last); its exchanger
/// (UA from its rating, liquid/Exchangers.h) gives the heat to facility water arriving at
/// `facilitySupplyC` with capacity rate `facilityRate` (ṁ c_p, W/K). The racks' own sources and
/// supply temperatures are not used: the CDU holds its supply setpoint while its capacity there
/// covers the heat; beyond that the supply floats up to the steady state where its whole UA removes
/// what the racks put in.
struct RowLoopSpec {
    models::Coolant coolant = models::Coolant::PG25;
    Element source;          ///< the CDU's pumps
    double ua = 0;           ///< the CDU exchanger's UA, W/K
    double facilityRate = 0; ///< W/K
    double facilitySupplyC = 25.0;
    double supplySetpointC = 30.0; ///< the IT supply the CDU holds while it can (throttling facility water)
    Pipe headerSegment;            ///< between two racks' tees (and from the CDU to the first)
    ManifoldReturn headerReturns = ManifoldReturn::Reverse;
    std::vector<RackLoopSpec> racks;
};

struct RowLoopResult {
    std::vector<RackLoopResult> racks; ///< without their own hydraulics (the row's is `hydraulics`)
    double flowM3s = 0, heatW = 0;
    double supplyC = 0, returnC = 0; ///< the CDU's IT side: the setpoint held, or above it when it cannot be
    double capacityW = 0;            ///< what the CDU can remove holding its setpoint at this facility water
    bool holdsSetpoint = true;       ///< capacity ≥ heat
    double sourcePa = 0, propertiesC = 0;
    double pumpPowerW = 0; ///< the CDU pumps' draw, Q Δp / η; NaN when their efficiency is not given
    Solution hydraulics;
};

/// Throws NetworkError as solveRackLoop, and when the CDU's pumps move no coolant.
RowLoopResult solveRowLoop(const RowLoopSpec& spec);

/// Throws NetworkError, naming the flow and the heat, where the coolant would return past boiling
/// (100 degC) at the loop's flow: too little flow for its heat, where the single-phase model does
/// not hold. `returnC`: the return with the supply at its setpoint (a supply that floats because
/// the CDUs are short of capacity is judged by the rules, not refused).
void checkCarries(double returnC, double flowM3s, double heatW);

/// Build and solve. Throws NetworkError for a loop that cannot be solved (a tray or element named),
/// std::out_of_range for coolant temperatures outside the property tables.
RackLoopResult solveRackLoop(const RackLoopSpec& spec);

} // namespace rdt::liquid
