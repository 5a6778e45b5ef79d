// Calibration of the liquid model from telemetry: a loop's pressure drop against flow
// (Δp = k·Q^n, from its CDUs' flow and head) and a cold plate's case-to-inlet resistance against
// flow (from trays' coolant flow, inlet and return, and their GPUs' temperature and power).
#include <algorithm>
#include <cstdio>
#include <map>

#include "analysis/Hil.h"
#include "analysis/HilDetail.h"
#include "models/Coolant.h"

namespace rdt::analysis {

using namespace hildetail;

namespace {

constexpr double kLpm = 1.0 / 60000.0; // m³/s per L/min

/// y = a + b·x by least squares, with the standard uncertainties of a and b and their covariance.
struct Line {
    double a = NAN, b = NAN, sa = NAN, sb = NAN, cov = NAN;
    bool ok = false;
};

Line fitLine(const std::vector<double>& x, const std::vector<double>& y)
{
    Line l;
    const std::size_t n = x.size();
    if (n < 3)
        return l;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0))
        return l;
    l.b = sxy / sxx;
    l.a = my - l.b * mx;
    double rss = 0;
    for (std::size_t i = 0; i < n; ++i)
        rss += std::pow(y[i] - l.a - l.b * x[i], 2);
    const double s2 = rss / static_cast<double>(n - 2);
    l.sb = std::sqrt(s2 / sxx);
    l.sa = std::sqrt(s2 * (1.0 / static_cast<double>(n) + mx * mx / sxx));
    l.cov = -mx * s2 / sxx;
    l.ok = true;
    return l;
}

/// The catalog curve's value at x, linear between its points, its end values beyond them.
double curveAt(const std::vector<std::pair<double, double>>& pts, double x)
{
    if (x <= pts.front().first)
        return pts.front().second;
    for (std::size_t i = 1; i < pts.size(); ++i)
        if (x <= pts[i].first) {
            const double f = (x - pts[i - 1].first) / (pts[i].first - pts[i - 1].first);
            return pts[i - 1].second + f * (pts[i].second - pts[i - 1].second);
        }
    return pts.back().second;
}

} // namespace

void calibrateLiquid(const RunResult& run, const std::vector<hil::Series>& series, Calibration& c)
{
    const core::Design& design = run.design;
    const models::Coolant coolant =
        design.liquid.coolant == "water" ? models::Coolant::Water : models::Coolant::PG25;
    // Per loop and sweep: the CDUs' flows summed, their heads averaged.
    struct LoopPoint {
        double flow = 0, dp = 0;
        int dps = 0, flows = 0, cdus = 0; ///< heads and flows read, of the loop's mapped CDUs
    };
    std::map<std::string, std::vector<LoopPoint>> loops;
    struct PlatePoint {
        double flow, resistance;
    };
    std::map<std::string, std::vector<PlatePoint>> plates; // by tray part slug
    std::map<std::string, const core::Part*> parts;
    const auto index = slotIndex(design);
    for (const hil::Series& s : series)
        for (const hil::Sample& smp : s.samples) {
            std::map<std::string, LoopPoint> sweep;
            for (std::size_t i = 0; i < s.parts.size(); ++i) {
                const hil::PartReading& r = smp.parts[i];
                if (isLiquidTelemetryPart(design, s.parts[i], s.kinds[i])) {
                    // The loop's flow is every CDU's (in parallel); its head the mean of those read.
                    LoopPoint& p = sweep[s.parts[i].substr(0, s.parts[i].rfind("/cdu"))];
                    ++p.cdus;
                    if (std::isfinite(r.coolantFlowLpm)) {
                        p.flow += r.coolantFlowLpm;
                        ++p.flows;
                    }
                    if (std::isfinite(r.coolantDpKPa)) {
                        p.dp += r.coolantDpKPa;
                        ++p.dps;
                    }
                    continue;
                }
                const auto it = index.find(s.parts[i]);
                if (it == index.end())
                    continue;
                const core::Part& part = *design.racks[it->second.rack].slots[it->second.slot].part;
                const core::Curve* curve = part.curve("liquid.plate.resistance");
                if (!curve || !std::isfinite(r.coolantFlowLpm) || !std::isfinite(r.coolantSupplyC) ||
                    !std::isfinite(r.coolantReturnC) || !std::isfinite(r.gpuTemperatureC) ||
                    !std::isfinite(r.gpuPowerW) || !(r.coolantFlowLpm > 0))
                    continue;
                parts[part.slug] = &part;
                const int n = std::max(1, static_cast<int>(part.value("liquid.plates.count", 1.0)));
                const int gpus = static_cast<int>(part.value("gpus.count", part.value("gpu.count", 0.0)));
                const double rjc = part.value("thermal.r_jc", NAN);
                // The heat the coolant carried (its own rise), shared by the plates as the model shares it.
                const double mean = 0.5 * (r.coolantSupplyC + r.coolantReturnC);
                models::CoolantProperties props;
                try {
                    props = models::coolantProperties(coolant, mean);
                } catch (const std::out_of_range&) {
                    continue;
                }
                const double q = r.coolantFlowLpm * kLpm;
                const double heat = props.density * props.specificHeat * q * (r.coolantReturnC - r.coolantSupplyC);
                if (!(heat > 0) || gpus <= 0 || !std::isfinite(rjc))
                    continue;
                const double caseC = r.gpuTemperatureC - r.gpuPowerW / gpus * rjc;
                plates[part.slug].push_back({q / n, (caseC - r.coolantSupplyC) / (heat / n)});
            }
            for (const auto& [loop, p] : sweep)
                if (p.dps > 0 && p.flows == p.cdus) // a CDU without its flow would understate the loop's
                    loops[loop].push_back({p.flow, p.dp / p.dps, 1, p.flows, p.cdus});
        }
    // Loops: ln Δp = ln k + n ln Q.
    for (const core::LiquidLoop& loop : design.liquid.loops) {
        const auto it = loops.find(loop.id);
        if (it == loops.end())
            continue;
        const std::vector<LoopPoint>& pts = it->second;
        double lo = INFINITY, hi = 0;
        std::vector<double> x, y;
        for (const LoopPoint& p : pts)
            if (p.flow > 0 && p.dp > 0) {
                lo = std::min(lo, p.flow);
                hi = std::max(hi, p.flow);
                x.push_back(std::log(p.flow));
                y.push_back(std::log(p.dp));
            }
        if (x.size() < 3 || hi < 1.3 * lo) {
            c.notes.push_back("liquid loop " + loop.id + ": pressure drop against flow not fitted (" +
                              (x.size() < 3 ? std::string("fewer than 3 sweeps with its CDUs' flow and head")
                                            : std::string("its flows span less than 1.3x: run it at several pump "
                                                          "speeds")) +
                              ")");
            continue;
        }
        const Line f = fitLine(x, y);
        if (!f.ok)
            continue;
        // Reported at the model's flow (the design point), where the model's pump rise is its drop.
        const liquid::LoopLiquid* model = nullptr;
        if (run.liquid)
            for (const liquid::LoopLiquid& l : run.liquid->loops)
                if (l.id == loop.id)
                    model = &l;
        const double qRef = model && model->flowM3s > 0 ? model->flowM3s / kLpm : std::sqrt(lo * hi);
        const double lq = std::log(qRef);
        const double dpRef = std::exp(f.a + f.b * lq);
        const double sLn = std::sqrt(f.sa * f.sa + lq * lq * f.sb * f.sb + 2 * lq * f.cov);
        char field[96];
        std::snprintf(field, sizeof field, "loop pressure drop at %.0f L/min", qRef);
        c.values.push_back({"loop " + loop.id, field, "kPa", dpRef, dpRef * sLn,
                            model ? model->sourcePa / 1000.0 : NAN, static_cast<int>(x.size())});
        c.values.push_back({"loop " + loop.id, "loop pressure exponent n", "", f.b, f.sb, NAN,
                            static_cast<int>(x.size())});
    }
    // Cold plates: a scale on the catalog's resistance curve, R = s·R_cat(q), from the mean ratio.
    for (const auto& [slug, pts] : plates) {
        const core::Curve* curve = parts[slug]->curve("liquid.plate.resistance");
        if (pts.size() < 3) {
            c.notes.push_back(slug + ": cold-plate resistance not fitted (fewer than 3 readings with the tray's "
                                     "coolant flow, supply and return, and its GPUs' temperature and power)");
            continue;
        }
        std::vector<double> ratios;
        double lo = INFINITY, hi = 0;
        for (const PlatePoint& p : pts) {
            ratios.push_back(p.resistance / curveAt(curve->points, p.flow));
            lo = std::min(lo, p.flow);
            hi = std::max(hi, p.flow);
        }
        double s = 0;
        for (double r : ratios)
            s += r;
        s /= static_cast<double>(ratios.size());
        double var = 0;
        for (double r : ratios)
            var += (r - s) * (r - s);
        const double ss = std::sqrt(var / static_cast<double>(ratios.size() - 1) / static_cast<double>(ratios.size()));
        const int n = static_cast<int>(ratios.size());
        c.values.push_back({slug, "liquid.plate.resistance (scale)", "", s, ss, 1.0, n});
        // The catalog's points inside the measured flows, scaled: never extrapolated.
        FittedCurve fc{slug, "liquid.plate.resistance", "L/min", "K/W", {}, {}, {}, {}, lo / kLpm, hi / kLpm, n};
        for (const auto& [q, r] : curve->points) {
            if (q < lo * (1 - 1e-9) || q > hi * (1 + 1e-9))
                continue;
            fc.x.push_back(q / kLpm);
            fc.y.push_back(r * s);
            fc.sigma.push_back(r * ss);
            fc.catalogY.push_back(r);
        }
        if (fc.x.empty())
            c.notes.push_back(slug + ": cold-plate scale fitted, but no catalog point lies inside the measured "
                                     "flows to print");
        else
            c.curves.push_back(std::move(fc));
    }
}

} // namespace rdt::analysis
