#include <Eigen/Dense>

#include <algorithm>
#include <cstdio>
#include <map>

#include "analysis/Hil.h"
#include "analysis/HilDetail.h"
#include "models/FanCurve.h"
#include "models/PowerModels.h"

namespace rdt::analysis {

using namespace hildetail;

namespace {

/// Ordinary least squares y = X·β with the parameters' covariance (σ² from the residuals).
struct Ols {
    Eigen::VectorXd beta;
    Eigen::MatrixXd cov;
    double rms = NAN;
    bool ok = false;
};

Ols leastSquares(const Eigen::MatrixXd& x, const Eigen::VectorXd& y)
{
    Ols o;
    const auto n = x.rows(), p = x.cols();
    if (n <= p)
        return o;
    const Eigen::MatrixXd xtx = x.transpose() * x;
    Eigen::FullPivLU<Eigen::MatrixXd> lu(xtx);
    if (lu.rank() < p)
        return o;
    o.beta = lu.solve(x.transpose() * y);
    const Eigen::VectorXd r = y - x * o.beta;
    const double s2 = r.squaredNorm() / static_cast<double>(n - p);
    o.cov = s2 * lu.inverse();
    o.rms = std::sqrt(r.squaredNorm() / static_cast<double>(n));
    o.ok = true;
    return o;
}

std::string measuredSource(const Calibration& c, int points, const std::string& sigma)
{
    std::string files;
    for (std::size_t i = 0; i < c.files.size() && i < 3; ++i)
        files += (i ? ", " : "") + c.files[i];
    if (c.files.size() > 3)
        files += ", +" + std::to_string(c.files.size() - 3) + " more";
    return "measured: rdt hil calibrate, " + std::to_string(points) + " readings in " + std::to_string(c.sweeps) +
           " sweeps (" + files + "), " + sigma + " (1 sigma)";
}

} // namespace

Calibration calibrate(const RunResult& run, const std::vector<hil::Series>& series)
{
    Calibration c;
    const auto index = slotIndex(run.design);
    const core::Catalog& catalog = *run.design.catalog;
    struct PowerPoint {
        double u, base;
    };
    struct AirPoint {
        double speed, flow, dp;
    };
    struct PsuPoint {
        double out, in, cap;
    };
    std::map<std::string, std::vector<PowerPoint>> power; // by chassis slug
    std::map<std::string, std::vector<AirPoint>> air;
    std::map<std::string, std::vector<PsuPoint>> psu;
    std::map<std::string, const core::Part*> parts;
    for (const hil::Series& s : series) {
        c.files.push_back(s.info.design.empty() ? "series" : s.info.map);
        c.sweeps += s.samples.size();
        for (std::size_t i = 0; i < s.parts.size(); ++i) {
            if (isLiquidTelemetryPart(run.design, s.parts[i], s.kinds[i]))
                continue; // a CDU: calibrateLiquid
            const auto it = index.find(s.parts[i]);
            if (it == index.end())
                throw core::InputError(core::SourceLoc{run.design.file, 0, 0, "layout"},
                                       "the telemetry names " + s.parts[i] + ", which this design does not have");
            const core::Slot& slot = run.design.racks[it->second.rack].slots[it->second.slot];
            const core::Part& part = *slot.part;
            parts[part.slug] = &part;
            for (const hil::Sample& smp : s.samples) {
                const hil::PartReading& r = smp.parts[i];
                if (part.kind == core::PartKind::PowerShelf) {
                    const double rating = part.value("module_rating", NAN);
                    for (std::size_t k = 0; k < r.psuInW.size(); ++k)
                        if (std::isfinite(r.psuInW[k]) && std::isfinite(r.psuOutW[k]) && r.psuOutW[k] > 0)
                            psu[part.slug].push_back({r.psuOutW[k], r.psuInW[k],
                                                      std::isfinite(r.psuCapacityW[k]) ? r.psuCapacityW[k] : rating});
                    continue;
                }
                const double n = r.fanPct / 100.0;
                if (std::isfinite(r.airflowM3s) && std::isfinite(r.pressurePa) && std::isfinite(n) && n > 0)
                    air[part.slug].push_back({n, r.airflowM3s, r.pressurePa});
                if (!std::isfinite(r.powerW) || !std::isfinite(r.gpuPowerW) || !part.find("power.base_max"))
                    continue;
                // The load the GPUs' power says, then the platform power the chassis' input leaves.
                models::ChassisOperating op;
                op.gpuCapW = slot.overrides.gpuPowerCapW.value_or(0.0);
                op.fanSpeed = std::isfinite(n) ? n : NAN;
                auto gpuAt = [&](double u) {
                    op.utilisation = u;
                    return models::chassisDraw(part, catalog, op).gpuW;
                };
                const double u = models::largestWithin(0.0, 1.0, r.gpuPowerW, 1e-6, gpuAt);
                if (!std::isfinite(u))
                    continue;
                op.utilisation = u;
                const models::ChassisDraw d = models::chassisDraw(part, catalog, op);
                const double through = (d.inputW - d.conversionLossW) / d.inputW; // conversion efficiency
                power[part.slug].push_back({u, d.baseW + (r.powerW - d.inputW) * through - (r.gpuPowerW - d.gpuW)});
            }
        }
    }
    // Platform power versus load: base = idle + (max − idle)·u.
    for (const auto& [slug, pts] : power) {
        double lo = 1, hi = 0;
        for (const PowerPoint& p : pts) {
            lo = std::min(lo, p.u);
            hi = std::max(hi, p.u);
        }
        if (pts.size() < 3 || hi - lo < 0.2) {
            c.notes.push_back(slug + ": platform power not fitted: the readings span GPU load " +
                              std::to_string(static_cast<int>(lo * 100)) + "-" +
                              std::to_string(static_cast<int>(hi * 100)) +
                              " % (at least 3 readings over 20 % of load are needed: take snapshots at several loads)");
            continue;
        }
        Eigen::MatrixXd x(static_cast<Eigen::Index>(pts.size()), 2);
        Eigen::VectorXd y(static_cast<Eigen::Index>(pts.size()));
        for (std::size_t k = 0; k < pts.size(); ++k) {
            x(static_cast<Eigen::Index>(k), 0) = 1.0;
            x(static_cast<Eigen::Index>(k), 1) = pts[k].u;
            y(static_cast<Eigen::Index>(k)) = pts[k].base;
        }
        const Ols o = leastSquares(x, y);
        if (!o.ok)
            continue;
        const core::Part& p = *parts[slug];
        const int m = static_cast<int>(pts.size());
        c.values.push_back(
            {slug, "power.base_idle", "W", o.beta(0), std::sqrt(o.cov(0, 0)), p.value("power.base_idle", NAN), m});
        c.values.push_back({slug, "power.base_max", "W", o.beta(0) + o.beta(1),
                            std::sqrt(o.cov(0, 0) + o.cov(1, 1) + 2 * o.cov(0, 1)), p.value("power.base_max", NAN), m});
    }
    // Chassis impedance Δp = k·Q² and fan curve scale Δp = s·n²·f(Q / (N·n)).
    for (const auto& [slug, pts] : air) {
        const core::Part& p = *parts[slug];
        const core::Curve* curve = p.curve("fans.curve");
        const int fans = static_cast<int>(p.value("fans.count", 0));
        if (pts.size() < 3 || !curve || fans == 0) {
            c.notes.push_back(slug + ": fan curve and impedance not fitted (" +
                              (pts.size() < 3
                                   ? std::string("fewer than 3 readings with airflow, pressure and fan speed")
                                   : std::string("the catalog has no fans.curve / fans.count")) +
                              ")");
            continue;
        }
        double sq4 = 0, pq2 = 0;
        for (const AirPoint& a : pts) {
            sq4 += std::pow(a.flow, 4);
            pq2 += a.dp * a.flow * a.flow;
        }
        const double k = pq2 / sq4;
        double rss = 0;
        for (const AirPoint& a : pts)
            rss += std::pow(a.dp - k * a.flow * a.flow, 2);
        const double sk = std::sqrt(rss / static_cast<double>(pts.size() - 1) / sq4);
        const double qRef = p.value("impedance.flow", NAN);
        if (std::isfinite(qRef))
            c.values.push_back({slug, "impedance.pressure", "Pa", k * qRef * qRef, sk * qRef * qRef,
                                p.value("impedance.pressure", NAN), static_cast<int>(pts.size())});
        const models::FanCurve fc = models::FanCurve::table(curve->points);
        Mean scale;
        std::vector<double> ratios;
        for (const AirPoint& a : pts) {
            const double f = models::fanPressure(fc, a.flow / fans, a.speed, 1.0);
            if (f > 1.0) {
                ratios.push_back(a.dp / f);
                scale.add(a.dp / f);
            }
        }
        if (ratios.size() >= 3) {
            const double s = scale.value();
            double var = 0;
            for (double r : ratios)
                var += (r - s) * (r - s);
            const double ss =
                std::sqrt(var / static_cast<double>(ratios.size() - 1) / static_cast<double>(ratios.size()));
            FittedCurve fcv{slug, "fans.curve", "CFM", "Pa", {}, {}, {}, {}, NAN, NAN, static_cast<int>(ratios.size())};
            for (const auto& [q, dp] : curve->points) {
                fcv.x.push_back(q / kCfm);
                fcv.y.push_back(dp * s);
                fcv.sigma.push_back(dp * ss);
                fcv.catalogY.push_back(dp);
            }
            c.curves.push_back(fcv);
            c.values.push_back({slug, "fans.curve (scale)", "1", s, ss, 1.0, static_cast<int>(ratios.size())});
        }
    }
    // PSU efficiency: loss = a + b·P + c·P² (fixed, proportional and resistive losses).
    for (const auto& [slug, pts] : psu) {
        const core::Part& p = *parts[slug];
        double lo = 1e300, hi = 0;
        for (const PsuPoint& q : pts) {
            lo = std::min(lo, q.out / q.cap);
            hi = std::max(hi, q.out / q.cap);
        }
        if (pts.size() < 4 || hi - lo < 0.1) {
            c.notes.push_back(slug + ": efficiency curve not fitted: readings span " +
                              std::to_string(static_cast<int>(lo * 100)) + "-" +
                              std::to_string(static_cast<int>(hi * 100)) +
                              " % load (at least 4 readings over 10 % of load are needed)");
            continue;
        }
        Eigen::MatrixXd x(static_cast<Eigen::Index>(pts.size()), 3);
        Eigen::VectorXd y(static_cast<Eigen::Index>(pts.size()));
        double cap = 0;
        for (std::size_t k = 0; k < pts.size(); ++k) {
            const double o = pts[k].out / 1000.0; // kW keeps the normal equations well scaled
            x.row(static_cast<Eigen::Index>(k)) << 1.0, o, o * o;
            y(static_cast<Eigen::Index>(k)) = (pts[k].in - pts[k].out) / 1000.0;
            cap = std::max(cap, pts[k].cap);
        }
        const Ols o = leastSquares(x, y);
        if (!o.ok)
            continue;
        const core::Curve* catCurve = p.curve("efficiency_curve");
        FittedCurve f{slug,     "efficiency_curve",          "%", "%", {}, {}, {}, {}, lo * 100,
                      hi * 100, static_cast<int>(pts.size())};
        std::vector<double> loads;
        if (catCurve)
            for (const auto& [l, e] : catCurve->points)
                loads.push_back(l);
        else
            loads = {0.1, 0.2, 0.3, 0.5, 0.75, 1.0};
        for (double l : loads) {
            const double out = l * cap / 1000.0;
            Eigen::Vector3d g(1.0, out, out * out);
            const double loss = g.dot(o.beta), sl = std::sqrt(g.dot(o.cov * g));
            const double eta = out / (out + loss);
            f.x.push_back(l * 100);
            f.y.push_back(eta * 100);
            f.sigma.push_back(out / std::pow(out + loss, 2) * sl * 100);
            f.catalogY.push_back(catCurve ? models::EfficiencyCurve(catCurve->points).at(l) * 100 : NAN);
        }
        c.curves.push_back(f);
    }
    if (power.empty())
        c.notes.push_back("platform power: no chassis readings with both power and GPU power (map a gpu_power sensor, "
                          "or read GPUs through DCGM)");
    if (air.empty())
        c.notes.push_back("fan curve and impedance: no chassis readings with airflow and pressure sensors (map "
                          "sensors: {airflow: …, pressure: …})");
    if (psu.empty())
        c.notes.push_back("PSU efficiency: no power shelf readings");
    calibrateLiquid(run, series, c);
    return c;
}

std::string calibrationCatalogLines(const Calibration& c)
{
    std::string out;
    std::map<std::string, std::string> byPart;
    char b[512];
    for (const FittedValue& v : c.values) {
        if (v.field.find(' ') != std::string::npos)
            continue; // the fan-curve scale is printed as the scaled curve
        std::snprintf(b, sizeof b, "±%.3g %s", v.sigma, v.unit.c_str());
        const std::string leaf = v.field.substr(v.field.rfind('.') + 1), group = v.field.substr(0, v.field.rfind('.'));
        std::snprintf(b + 64, sizeof b - 64, "  %s:\n    %s: {value: %.4g %s, source: \"%s\"}\n", group.c_str(),
                      leaf.c_str(), v.value, v.unit.c_str(), measuredSource(c, v.points, b).c_str());
        byPart[v.part] += b + 64;
    }
    for (const FittedCurve& f : c.curves) {
        std::string pts;
        double worst = 0;
        for (std::size_t k = 0; k < f.x.size(); ++k) {
            if (std::isfinite(f.xMin) && (f.x[k] < f.xMin - 5 || f.x[k] > f.xMax + 5))
                continue; // never extrapolate a measured curve into the catalog
            std::snprintf(b, sizeof b, "%s[%.4g %s, %.4g %s]", pts.empty() ? "" : ", ", f.x[k], f.xUnit.c_str(), f.y[k],
                          f.yUnit.c_str());
            pts += b;
            worst = std::max(worst, f.sigma[k]);
        }
        if (pts.empty())
            continue;
        std::snprintf(b, sizeof b, "±%.2g %s", worst, f.yUnit.c_str());
        const bool plate = f.field == "liquid.plate.resistance";
        const std::string indent = f.field == "fans.curve" ? "    " : plate ? "      " : "  ";
        const std::string head = f.field == "fans.curve" ? "  fans:\n    curve:\n"
                                 : plate                 ? "  liquid:\n    plate:\n      resistance:\n"
                                                         : "  efficiency_curve:\n";
        byPart[f.part] += head + indent + "  value: [" + pts + "]\n" + indent + "  source: \"" +
                          measuredSource(c, f.points, b) + "\"\n";
    }
    for (const auto& [part, lines] : byPart)
        out += "# data/catalog/" + part + ".yaml, under rdt:\n" + lines;
    return out;
}

} // namespace rdt::analysis
