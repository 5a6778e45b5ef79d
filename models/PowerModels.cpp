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
    return gpu ? gpu->value("min_power_cap", gpu->value("tdp", 0.0)) : 0.0;
}

ChassisDraw chassisDraw(const core::Part& c, const core::Catalog& catalog, const ChassisOperating& op)
{
    ChassisDraw d;
    const double u = std::clamp(op.utilisation, 0.0, 1.0);
    const core::Part* gpu = catalog.find(c.text("gpus.part"));
    const bool composed = gpu && c.find("power.base_max");
    if (!composed) {
        // No breakdown in the catalog: the part's own idle…max line.
        d.inputW = drawAt(c.value("power.idle", 0.0), c.value("power.max", 0.0), u);
        return d;
    }
    const double tdp = gpu->value("tdp", 0.0);
    const double cap = op.gpuCapW > 0 ? std::min(op.gpuCapW, tdp) : tdp;
    const double gpuIdle = std::min(gpu->value("power.idle", 0.0), cap);
    double perGpu = drawAt(gpuIdle, cap, u);
    if (op.peak)
        perGpu = cap * gpu->value("peak_power_ratio", 1.0);
    d.gpuW = perGpu * c.value("gpus.count", 0);

    const double cpuTdp = c.value("cpus.tdp", 0.0);
    d.cpuW = drawAt(c.value("cpus.idle", cpuTdp), cpuTdp, op.peak ? 1.0 : u) * c.value("cpus.count", 0);
    if (const core::Part* nic = catalog.find(c.text("nics.part")))
        d.nicW = drawAt(nic->value("power.idle", nic->value("power.max", 0.0)), nic->value("power.max", 0.0),
                        op.peak ? 1.0 : u) *
                 c.value("nics.count", 0);
    // Fans follow load from their floor; the thermal solver will set the real operating speed.
    const double floor = c.value("fans.min_speed", 1.0);
    const double speed = floor + (1.0 - floor) * (op.peak ? 1.0 : u);
    d.fanW = fanPowerAt(c.value("fans.power", 0.0), speed) * c.value("fans.count", 0);
    d.baseW = drawAt(c.value("power.base_idle", 0.0), c.value("power.base_max", 0.0), op.peak ? 1.0 : u);

    const double out = d.gpuW + d.cpuW + d.nicW + d.fanW + d.baseW;
    const core::Curve* curve = c.curve("conversion_efficiency");
    const EfficiencyCurve eff = curve ? EfficiencyCurve(curve->points) : EfficiencyCurve::constant(1.0);
    const double rating = c.value("conversion_rating", out > 0 ? out : 1.0);
    d.inputW = out / eff.at(out / rating);
    d.conversionLossW = d.inputW - out;
    return d;
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

double largestWithin(double lo, double hi, double limit, double tolerance, const std::function<double(double)>& f)
{
    if (f(lo) > limit)
        return NAN;
    if (f(hi) <= limit)
        return hi;
    while (hi - lo > tolerance) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) <= limit ? lo : hi) = mid;
    }
    return lo;
}

} // namespace rdt::models
