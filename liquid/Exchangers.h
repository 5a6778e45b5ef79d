#pragma once
/// \file Exchangers.h
/// Where the loop meets heat: cold plates (case-to-inlet resistance against flow, measured) and
/// CDUs (a counterflow heat exchanger by ε-NTU, its UA taken from the vendor's rating point, with
/// the re-rating to the actual facility-water supply that ../shared/reference/liquid-cooling.md
/// §4.1 item 8 asks for).

#include <utility>
#include <vector>

namespace rdt::liquid {

/// A cold plate's case-to-inlet thermal resistance R(V̇) from its measured points (flow m³/s,
/// K/W; increasing flow), linear between them. Below the lowest measured flow the plate is not
/// characterised: the answer says so (a starved plate is a finding, never extrapolated); above the
/// highest it keeps the last point's R (R falls with flow, so that is the conservative side).
struct ColdPlate {
    std::vector<std::pair<double, double>> resistance;
};

struct PlateRise {
    double riseK = 0;      ///< T_case − T_inlet (K)
    double resistance = 0; ///< K/W used
    bool measured = true;  ///< false below the lowest measured flow (riseK then NaN)
};

/// T_case − T_inlet of a plate carrying `heatW` at `flowM3s`. Throws std::invalid_argument for a
/// plate without points, with non-increasing flows or a non-positive resistance.
PlateRise plateRise(const ColdPlate& plate, double flowM3s, double heatW);

/// Effectiveness of a counterflow heat exchanger: ε(NTU, C_r), C_r = C_min / C_max in [0, 1].
double counterflowEffectiveness(double ntu, double cr);
/// Its inverse: NTU for an effectiveness ε < 1 (throws std::invalid_argument when ε is out of reach).
double counterflowNtu(double effectiveness, double cr);

/// A liquid-to-liquid CDU's heat exchanger, rated by its vendor at one point: heat `ratedW` with the
/// IT-loop supply `approachK` above the facility water's supply, at capacity rates (ṁ c_p, W/K)
/// `itRate` and `facilityRate`.
struct CduRating {
    double ratedW = 0, approachK = 0;
    double itRate = 0, facilityRate = 0;
};

/// UA (W/K) that reproduces the rating point (ε from it, NTU by counterflowNtu, UA = NTU C_min).
double cduUa(const CduRating& r);

/// The heat (W) the exchanger moves with UA `ua` (W/K), the IT loop returning at `itReturnC` and the
/// facility water arriving at `facilitySupplyC`, at capacity rates `itRate`, `facilityRate` (W/K).
double cduHeat(double ua, double itReturnC, double facilitySupplyC, double itRate, double facilityRate);

/// The heat the CDU can remove (W) while holding its IT supply at `itSupplyC` with facility water at
/// `facilitySupplyC` (the re-rating: capacity at the actual supply temperatures). 0 when the facility
/// water is not cooler than the IT supply.
double cduCapacity(double ua, double itSupplyC, double facilitySupplyC, double itRate, double facilityRate);

} // namespace rdt::liquid
