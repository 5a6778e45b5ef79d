#pragma once
/// \file Coolant.h
/// Coolant properties for the liquid loops (liquid/): water and PG25 (25 % propylene glycol by
/// volume) as functions of temperature. PG25: the values of ../shared/reference/liquid-cooling.md
/// §2.1 (derived from Melinder 2010's polynomials as Modelica Buildings implements them [M5]) at
/// 20, 30, 40 and 50 °C, interpolated — linearly for density, specific heat and conductivity, in
/// log for viscosity; outside 20–50 °C a std::out_of_range names the range (never extrapolated).
/// Water, 0–90 °C: density by Tanaka et al. (2001), viscosity by Vogel's equation (A 2.414e-5
/// Pa·s, B 247.8 K, C 140 K; within 1 % of IAPWS 2008), specific heat (IAPWS-95) and conductivity
/// (IAPWS 2011) at 0.1 MPa tabulated every 10 °C, interpolated linearly.

#include <string>
#include <string_view>

namespace rdt::models {

enum class Coolant { Water, PG25 };

struct CoolantProperties {
    double density = 0;      ///< kg/m³
    double specificHeat = 0; ///< J/(kg·K)
    double viscosity = 0;    ///< dynamic, Pa·s
    double conductivity = 0; ///< W/(m·K)
};

/// The coolant's properties at `temperatureC`. Throws std::out_of_range (naming the coolant and
/// its valid range) outside it.
CoolantProperties coolantProperties(Coolant coolant, double temperatureC);

/// The range (°C) within which coolantProperties answers.
struct CoolantRange {
    double minC = 0, maxC = 0;
};
CoolantRange coolantRange(Coolant coolant);

std::string_view coolantName(Coolant coolant);

/// Temperature rise (K) of `flowM3s` of the coolant at `temperatureC` carrying `heatW`:
/// ΔT = P / (ρ V̇ c_p).
double coolantRiseK(Coolant coolant, double temperatureC, double heatW, double flowM3s);

} // namespace rdt::models
