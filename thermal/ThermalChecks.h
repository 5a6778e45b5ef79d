#pragma once
/// \file ThermalChecks.h
/// Thermal rules that need only the site (the airflow solver brings per-chassis rules).

#include <cmath>

#include "core/Rules.h"

namespace rdt::thermal {

/// Allowable dry-bulb inlet range (K) of an ASHRAE class at sea level; {0,0} when unknown.
struct InletRange {
    double minK = 0.0;
    double maxK = 0.0;
};
InletRange ashraeAllowable(const std::string& ashraeClass);
/// Recommended inlet range (K) of an ASHRAE class: 18–27 °C for A1–A4, 18–22 °C for H1 (the
/// limits RCI_HI/RCI_LO and the studio's iso-surface use); {0,0} when unknown.
InletRange ashraeRecommended(const std::string& ashraeClass);

/// Upper allowable inlet (K) at altitude: the sea-level limit less 1 K per 300 m above 900 m for A1
/// and A2, per 175 m for A3, per 125 m for A4 and per 500 m for H1 (the commonly cited footnotes of
/// ASHRAE's Table 2.1, which hardware-facts §5.1 could not read: estimates).
double deratedMaxInletK(const std::string& ashraeClass, double altitudeM);
/// The metres of altitude per kelvin of that derating (300, 175, 125 or 500).
double deratingMetresPerK(const std::string& ashraeClass);

/// The maxima RCI_HI judges intakes against at the site: the allowable derated for altitude, and
/// the recommended no higher than it (ASHRAE: where the derated allowable falls below the
/// recommended maximum, it takes precedence).
struct RciBounds {
    double recommendedMaxK = 0.0, allowableMaxK = 0.0;
};
RciBounds rciHiBounds(const std::string& ashraeClass, double altitudeM);

/// The allowable humidity of an ASHRAE class: relative humidity and dew point, each from below and
/// above (ASHRAE TC 9.9 2021 Table 2.1 [T1]: A1 8–80 % RH and −12 to 17 degC DP, A2 to 21 degC DP,
/// A3 to 85 % and 24 degC, A4 to 90 % and 24 degC; H1 taken as A1, an estimate); NaN when unknown.
struct HumidityRange {
    double minRh = NAN, maxRh = NAN, minDewPointC = NAN, maxDewPointC = NAN;
};
HumidityRange ashraeHumidity(const std::string& ashraeClass);

/// Register `thermal.ashrae.inlet`, `thermal.ashrae.humidity` and the site's other thermal rules.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::thermal
