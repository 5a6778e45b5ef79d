#pragma once
/// \file FanCurve.h
/// Fan pressure–flow curves (table or polynomial) with the affinity laws for speed and air
/// density [T7], and dual-rotor fans where a failed rotor becomes a resistance.

#include <vector>

namespace rdt::models {

/// Static pressure rise Δp(Q) of one fan at full speed and reference density, decreasing in Q.
class FanCurve {
public:
    FanCurve() = default;
    /// Table of (flow m³/s, pressure Pa), flow strictly increasing, pressure non-increasing.
    static FanCurve table(std::vector<std::pair<double, double>> points);
    /// Δp = Σ cᵢ Qⁱ (SI); must be decreasing over [0, free flow].
    static FanCurve polynomial(std::vector<double> coefficients);

    /// Δp (Pa) at flow `q` (m³/s), full speed, reference density. Beyond the free-delivery point
    /// the curve continues with its last slope (negative pressure), and for q < 0 with its first.
    double pressure(double q) const;
    /// dΔp/dQ at q (Pa per m³/s), < 0.
    double slope(double q) const;
    double shutoffPa() const { return pressure(0.0); }
    /// Flow at Δp = 0 (computed once, when the curve is made).
    double freeFlow() const { return m_freeFlow; }

private:
    double findFreeFlow() const;
    double m_freeFlow = 0.0;
    std::vector<std::pair<double, double>> m_table;
    std::vector<double> m_poly;
};

/// Δp of a fan at `speed` (fraction of full) and density ratio ρ/ρ_ref: the affinity laws give
/// Δp(Q, s) = (ρ/ρ_ref) · s² · Δp₁(Q / s).
double fanPressure(const FanCurve& c, double q, double speed, double densityRatio);
/// d/dQ of fanPressure.
double fanSlope(const FanCurve& c, double q, double speed, double densityRatio);

/// A dual-rotor (counter-rotating, in series) fan: each rotor gives half the fan's pressure; a
/// failed rotor is a locked-rotor resistance whose drop at the fan's free flow equals half the
/// fan's shut-off pressure (an estimate, stated in docs/thermal.md).
double dualRotorPressure(const FanCurve& c, double q, double speed, double densityRatio, int failedRotors);
double dualRotorSlope(const FanCurve& c, double q, double speed, double densityRatio, int failedRotors);

} // namespace rdt::models
