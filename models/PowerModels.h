#pragma once
/// \file PowerModels.h
/// Electrical behaviour of parts: efficiency curves, draw versus utilisation and power cap,
/// fan power by the affinity law, and a GPU chassis' draw built from its components.

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/Catalog.h"

namespace rdt::models {

/// Efficiency versus load fraction, linear between catalog points and flat beyond the ends.
class EfficiencyCurve {
public:
    EfficiencyCurve() = default;
    /// From catalog points (load fraction, efficiency); both strictly positive.
    explicit EfficiencyCurve(std::vector<std::pair<double, double>> points);
    /// A flat curve.
    static EfficiencyCurve constant(double efficiency);
    /// Efficiency (0…1] at `loadFraction` (output / rating).
    double at(double loadFraction) const;
    bool empty() const { return m_points.empty(); }

private:
    std::vector<std::pair<double, double>> m_points;
};

/// Linear draw between idle and maximum at utilisation u (0…1), W.
double drawAt(double idleW, double maxW, double utilisation);

/// Fan power at `speed` (fraction of full speed) by the affinity law, P ∝ N³ [T7]; W.
double fanPowerAt(double fullSpeedW, double speed);

/// Where a chassis' power goes at one operating point (W, on the 48 V input unless noted).
struct ChassisDraw {
    double gpuW = 0;            ///< all GPUs, 12 V side
    double cpuW = 0;            ///< all CPUs, 12 V side
    double nicW = 0;            ///< all NICs, 12 V side
    double fanW = 0;            ///< all fans, 12 V side
    double baseW = 0;           ///< the rest of the platform, 12 V side
    double conversionLossW = 0; ///< 48 V → 12 V bricks
    double inputW = 0;          ///< total from the busbar
};

/// Operating point of a chassis.
struct ChassisOperating {
    double utilisation = 1.0; ///< 0…1
    double gpuCapW = 0.0;     ///< per-GPU cap; ≤ 0 means the GPU's TDP
    bool peak = false;        ///< GPUs at their short-term peak (cap × peak_power_ratio)
    /// Fan speed (fraction of full) set by the thermal solver's fan control; NaN: follow
    /// utilisation from the fans' floor (the estimate used before the airflow is solved).
    double fanSpeed = NAN;
    /// Failed fan rotors in the chassis (design and scenario together). A failed rotor draws
    /// nothing: the fans' power is that of the rotors still turning, each `fans.power /
    /// fans.rotors_per_fan` at full speed.
    int failedRotors = 0;
};

/// Draw of a GPU chassis built from its catalog components: GPUs between idle and their cap,
/// CPUs and NICs between idle and maximum, fans from the affinity law at a speed that follows
/// utilisation from their floor, platform base load, and the 48 → 12 V conversion loss from its
/// efficiency curve. Parts without a component breakdown draw idle + u·(max − idle).
ChassisDraw chassisDraw(const core::Part& chassis, const core::Catalog& catalog, const ChassisOperating& op);

/// chassisDraw() of one chassis at one operating point for any fan speed: the catalog is read
/// once, each speed costs a few multiplications (the thermal solver's fan control tries many).
class ChassisDrawModel {
public:
    ChassisDrawModel() = default;
    /// `op.fanSpeed` is ignored: at() takes the speed.
    ChassisDrawModel(const core::Part& chassis, const core::Catalog& catalog, const ChassisOperating& op);
    /// The draw with the fans at `fanSpeed` (fraction of full speed, already clamped to 0…1).
    ChassisDraw at(double fanSpeed) const;
    /// One GPU's draw at the operating point from the GPU's own catalog figures (its idle, TDP or the
    /// cap, peak ratio), whether or not the chassis has a breakdown: a chassis drawn on its own
    /// idle…max line still has GPUs that heat their junctions (0 without a GPU part).
    double perGpuW() const { return m_perGpuW; }
    /// Whether the catalog gives the chassis' breakdown (power.base_max and a GPU part): at() then
    /// splits its draw; otherwise at() gives its idle…max line as inputW alone.
    bool composed() const { return m_composed; }

private:
    ChassisDraw m_fixed; ///< everything but the fans and the conversion
    double m_perGpuW = 0;
    bool m_composed = false; ///< false: the part's own idle…max line, fans included
    double m_fanFullW = 0;   ///< all fans at full speed
    double m_rating = NAN;   ///< conversion_rating; NaN: the output itself (load fraction 1)
    EfficiencyCurve m_efficiency;
};

/// Draw from the busbar of any rack part at utilisation u (W): chassis through chassisDraw();
/// switches and devices at typical (or idle + u·(max−idle)); shelves draw nothing.
double partDrawW(const core::Part& part, const core::Catalog& catalog, const ChassisOperating& op);

/// A power shelf's rated output (W): modules × module_rating.
double shelfRatingW(const core::Part& shelf);

/// A power shelf's efficiency against its load fraction: its `efficiency_curve`, else flat at
/// `efficiency_full_load`; empty (lossless, EfficiencyCurve::at gives 1) when the catalog has neither.
EfficiencyCurve shelfEfficiency(const core::Part& shelf);

/// Shelves sharing a busbar load in proportion to their ratings (as the power budget shares it),
/// their ratings and efficiency curves read from the catalog once (the rack network asks for
/// every fan speed it tries).
class ShelfLosses {
public:
    explicit ShelfLosses(const std::vector<const core::Part*>& shelves);
    /// Each shelf's conversion loss at `loadW` shared: output / efficiency − output at the shared
    /// load fraction (W). Every watt of it is heat released at the shelf.
    std::vector<double> at(double loadW) const;

private:
    std::vector<double> m_ratingW;
    std::vector<EfficiencyCurve> m_efficiency;
    double m_totalW = 0;
};

/// Nameplate draw of a part from the busbar or its own AC supply (W): the catalog's `power.max`;
/// for a GPU chassis with its GPUs capped below TDP, `power.max` less the cap's saving through
/// the 48 → 12 V conversion at full load. NaN when the part has no `power.max`.
double nameplateDrawW(const core::Part& part, const core::Catalog& catalog, const ChassisOperating& op);

/// The fan speed chassisDraw() uses for `op` (fraction of full speed).
double fanSpeedFor(const core::Part& chassis, const ChassisOperating& op);

/// The per-GPU cap of the chassis' GPU (TDP when the GPU has no cap range).
double gpuTdpW(const core::Part& chassis, const core::Catalog& catalog);
/// The lowest settable cap of the chassis' GPU: its `min_power_cap`, NaN when the catalog lacks it.
double gpuMinCapW(const core::Part& chassis, const core::Catalog& catalog);

/// The largest x in [lo, hi] with f(x) ≤ limit for f non-decreasing; NaN when f(lo) > limit.
/// Bracketed to `tolerance` by false position (Illinois) with bisection as its fallback: a few
/// evaluations for a near-linear f, about as many as bisection for any other monotone f.
double largestWithin(double lo, double hi, double limit, double tolerance, const std::function<double(double)>& f);

} // namespace rdt::models
