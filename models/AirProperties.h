#pragma once
/// \file AirProperties.h
/// Dry-air properties for the thermal solvers: ideal gas with the standard-atmosphere
/// pressure at altitude, so fans moving the same volume at altitude move less mass.

namespace rdt::models {

/// Standard-atmosphere static pressure (Pa) at `altitudeM` metres (troposphere, ISA:
/// 101,325 Pa at sea level, lapse 6.5 K/km, 288.15 K). Valid from −500 m to 11 km.
double pressureAtAltitudePa(double altitudeM);

/// Dry-air density (kg/m³) from the ideal gas law, R = 287.05 J/(kg·K).
double airDensity(double temperatureK, double pressurePa);

/// Specific heat of dry air at constant pressure (J/(kg·K)); the 0–80 °C table [T6] is
/// 1005–1009, represented by a linear fit.
double airSpecificHeat(double temperatureK);

/// Volume flow (m³/s) that carries `heatW` with a temperature rise `deltaTK`:
/// V̇ = P / (ρ·c_p·ΔT) evaluated at `temperatureK` and `pressurePa`.
double airflowForHeat(double heatW, double deltaTK, double temperatureK, double pressurePa);

/// The dew point (degC) of air at `airC` and relative humidity `rh` (0–1): the Magnus form with
/// Sonntag's (1990) constants a = 17.62, b = 243.12 degC (within 0.1 K from −45 to 60 degC).
double dewPointC(double airC, double rh);

} // namespace rdt::models
