#include "models/PowerModels.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace rdt::models {

EfficiencyCurve::EfficiencyCurve(std::vector<std::pair<double, double>> points) : m_points(std::move(points)) {}

EfficiencyCurve EfficiencyCurve::constant(double efficiency)
{
    return EfficiencyCurve({{0.0, efficiency}, {1.0, efficiency}});
}

double EfficiencyCurve::at(double x) const
{
    if (m_points.empty())
        return 1.0;
    if (x <= m_points.front().first)
        return m_points.front().second;
    if (x >= m_points.back().first)
        return m_points.back().second;
    const auto hi = std::upper_bound(m_points.begin(), m_points.end(), x,
                                     [](double v, const std::pair<double, double>& p) { return v < p.first; });
    const auto lo = hi - 1;
    const double t = (x - lo->first) / (hi->first - lo->first);
    return lo->second + t * (hi->second - lo->second);
}

double drawAt(double idleW, double maxW, double u)
{
    return idleW + std::clamp(u, 0.0, 1.0) * (maxW - idleW);
}

double fanPowerAt(double fullSpeedW, double speed)
{
    return fullSpeedW * speed * speed * speed;
}

double gpuTdpW(const core::Part& chassis, const core::Catalog& catalog)
{
    const core::Part* gpu = catalog.find(chassis.text("gpus.part"));
    return gpu ? gpu->value("tdp", 0.0) : 0.0;
}

double gpuMinCapW(const core::Part& chassis, const core::Catalog& catalog)
{
    const core::Part* gpu = catalog.find(chassis.text("gpus.part"));
    return gpu ? gpu->value("min_power_cap", NAN) : NAN;
}

ChassisDrawModel::ChassisDrawModel(const core::Part& c, const core::Catalog& catalog, const ChassisOperating& op)
{
    const double u = std::clamp(op.utilisation, 0.0, 1.0);
    const core::Part* gpu = catalog.find(c.text("gpus.part"));
    m_composed = gpu && c.find("power.base_max");
    if (gpu) {
        const double tdp = gpu->value("tdp", 0.0);
        const double cap = op.gpuCapW > 0 ? std::min(op.gpuCapW, tdp) : tdp;
        const double gpuIdle = std::min(gpu->value("power.idle", 0.0), cap);
        m_perGpuW = op.peak ? cap * gpu->value("peak_power_ratio", 1.0) : drawAt(gpuIdle, cap, u);
    }
    if (!m_composed) {
        // No breakdown in the catalog: the part's own idle…max line.
        m_fixed.inputW = drawAt(c.value("power.idle", 0.0), c.value("power.max", 0.0), u);
        return;
    }
    m_fixed.gpuW = m_perGpuW * c.value("gpus.count", 0);

    const double cpuTdp = c.value("cpus.tdp", 0.0);
    m_fixed.cpuW = drawAt(c.value("cpus.idle", cpuTdp), cpuTdp, op.peak ? 1.0 : u) * c.value("cpus.count", 0);
    if (const core::Part* nic = catalog.find(c.text("nics.part")))
        m_fixed.nicW = drawAt(nic->value("power.idle", nic->value("power.max", 0.0)), nic->value("power.max", 0.0),
                              op.peak ? 1.0 : u) *
                       c.value("nics.count", 0);
    // A failed rotor draws nothing; the rotors still turning draw their share of the fan's power.
    const double rotorsPerFan = c.value("fans.rotors_per_fan", 1.0);
    const double rotors = c.value("fans.count", 0.0) * rotorsPerFan;
    const double turning = std::max(0.0, rotors - std::max(0, op.failedRotors));
    m_fanFullW = rotors > 0 ? c.value("fans.power", 0.0) / rotorsPerFan * turning : 0.0;
    m_fixed.baseW = drawAt(c.value("power.base_idle", 0.0), c.value("power.base_max", 0.0), op.peak ? 1.0 : u);
    const core::Curve* curve = c.curve("conversion_efficiency");
    m_efficiency = curve ? EfficiencyCurve(curve->points) : EfficiencyCurve::constant(1.0);
    if (const auto rating = c.find("conversion_rating"))
        m_rating = *rating;
}

ChassisDraw ChassisDrawModel::at(double fanSpeed) const
{
    ChassisDraw d = m_fixed;
    if (!m_composed)
        return d;
    d.fanW = fanPowerAt(m_fanFullW, fanSpeed);
    const double out = d.gpuW + d.cpuW + d.nicW + d.fanW + d.baseW;
    const double rating = std::isnan(m_rating) ? (out > 0 ? out : 1.0) : m_rating;
    d.inputW = out / m_efficiency.at(out / rating);
    d.conversionLossW = d.inputW - out;
    return d;
}

ChassisDraw chassisDraw(const core::Part& c, const core::Catalog& catalog, const ChassisOperating& op)
{
    return ChassisDrawModel(c, catalog, op).at(fanSpeedFor(c, op));
}

double fanSpeedFor(const core::Part& c, const ChassisOperating& op)
{
    if (op.peak)
        return 1.0;
    if (std::isfinite(op.fanSpeed))
        return std::clamp(op.fanSpeed, 0.0, 1.0);
    // Before the airflow is solved fans follow load from their floor.
    const double floor = c.value("fans.min_speed", 1.0);
    return floor + (1.0 - floor) * std::clamp(op.utilisation, 0.0, 1.0);
}

double nameplateDrawW(const core::Part& p, const core::Catalog& catalog, const ChassisOperating& op)
{
    const auto max = p.find("power.max");
    if (!max)
        return NAN;
    if (p.kind != core::PartKind::Chassis || op.gpuCapW <= 0)
        return *max;
    const core::Part* gpu = catalog.find(p.text("gpus.part"));
    if (!gpu)
        return *max;
    const double tdp = gpu->value("tdp", 0.0);
    const double saving = std::max(0.0, tdp - op.gpuCapW) * p.value("gpus.count", 0);
    // The cap's saving reaches the busbar through the bricks at their full-load efficiency.
    const core::Curve* curve = p.curve("conversion_efficiency");
    const double eff = curve ? EfficiencyCurve(curve->points).at(1.0) : 1.0;
    return *max - saving / eff;
}

double partDrawW(const core::Part& p, const core::Catalog& catalog, const ChassisOperating& op)
{
    switch (p.kind) {
    case core::PartKind::Chassis: return chassisDraw(p, catalog, op).inputW;
    case core::PartKind::PowerShelf:
    case core::PartKind::BbuShelf: return 0.0;
    default: {
        const double idle = p.value("power.idle", p.value("power.typical", p.value("power.max", 0.0)));
        const double max = p.value("power.max", idle);
        // Network gear runs near its typical draw whatever the GPUs do; peaks go to max.
        if (op.peak)
            return max;
        return p.find("power.typical") ? *p.find("power.typical") : drawAt(idle, max, op.utilisation);
    }
    }
}

double shelfRatingW(const core::Part& p)
{
    return p.value("modules", 0) * p.value("module_rating", 0);
}

EfficiencyCurve shelfEfficiency(const core::Part& p)
{
    if (const core::Curve* c = p.curve("efficiency_curve"))
        return EfficiencyCurve(c->points);
    if (const auto full = p.find("efficiency_full_load"))
        return EfficiencyCurve::constant(*full);
    return {};
}

ShelfLosses::ShelfLosses(const std::vector<const core::Part*>& shelves)
{
    for (const core::Part* s : shelves) {
        m_ratingW.push_back(shelfRatingW(*s));
        m_efficiency.push_back(shelfEfficiency(*s));
        m_totalW += m_ratingW.back();
    }
}

std::vector<double> ShelfLosses::at(double loadW) const
{
    std::vector<double> loss(m_ratingW.size(), 0.0);
    if (!(m_totalW > 0) || !(loadW > 0))
        return loss;
    const double fraction = loadW / m_totalW;
    for (std::size_t i = 0; i < loss.size(); ++i) {
        const double out = fraction * m_ratingW[i];
        loss[i] = out / m_efficiency[i].at(fraction) - out;
    }
    return loss;
}

double largestWithin(double lo, double hi, double limit, double tolerance, const std::function<double(double)>& f)
{
    double gLo = f(lo) - limit;
    if (gLo > 0)
        return NAN;
    double gHi = f(hi) - limit;
    if (gHi <= 0)
        return hi;
    // Secant steps through the last two points, kept inside the bracket and at least 0.45 of the
    // tolerance from its ends: a rack's load is nearly linear in the cap, so a step lands within
    // the tolerance of the root and the next closes the bracket (5-6 evaluations where bisection
    // takes 13). A step that does not halve the bracket is followed by a bisection, so no
    // monotone f costs much more than bisection does.
    double xa = lo, ga = gLo, xb = hi, gb = gHi;
    bool bisect = false;
    while (hi - lo > tolerance) {
        const double width = hi - lo;
        double x = 0.5 * (lo + hi);
        if (!bisect && gb != ga) {
            const double secant = xb - gb * (xb - xa) / (gb - ga);
            if (secant >= lo && secant <= hi)
                x = secant;
        }
        x = std::clamp(x, lo + 0.45 * tolerance, hi - 0.45 * tolerance);
        const double g = f(x) - limit;
        (g <= 0 ? lo : hi) = x;
        xa = xb;
        ga = gb;
        xb = x;
        gb = g;
        bisect = !bisect && hi - lo > 0.5 * width;
    }
    return lo;
}

} // namespace rdt::models
