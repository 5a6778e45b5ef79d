#pragma once
/// \file ThermalChecks.h
/// Thermal rules that need only the site (the airflow solver brings per-chassis rules).

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

/// Upper allowable inlet (K) at altitude: the sea-level limit less 1 K per 300 m above 900 m
/// (the commonly cited ASHRAE derating; an unsourced estimate in hardware-facts §5.1).
double deratedMaxInletK(const std::string& ashraeClass, double altitudeM);

/// Register `thermal.ashrae.inlet`.
void registerChecks(core::CheckRegistry& registry);

} // namespace rdt::thermal
