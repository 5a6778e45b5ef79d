#include "thermal/Thermal.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>

#include "models/AirProperties.h"
#include "thermal/RoomThermal.h"
#include "thermal/ThermalChecks.h"

namespace rdt::thermal {

double rciHi(const std::vector<double>& t, double maxRec, double maxAll)
{
    if (t.empty())
        return 100.0;
    double over = 0;
    for (double x : t)
        over += std::max(0.0, x - maxRec);
    return (1.0 - over / ((maxAll - maxRec) * static_cast<double>(t.size()))) * 100.0;
}

double rciLo(const std::vector<double>& t, double minRec, double minAll)
{
    if (t.empty())
        return 100.0;
    double under = 0;
    for (double x : t)
        under += std::max(0.0, minRec - x);
    return (1.0 - under / ((minRec - minAll) * static_cast<double>(t.size()))) * 100.0;
}

namespace {

/// Rack solutions shared across rows: racks of one template under the same aisle temperatures
/// are the same rack (exact key, so results do not depend on which row asked first).
class RackCache {
public:
    RackThermal get(const core::Design& d, int ri, const AirState& air, const RackAirflowParams& prm)
    {
        const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
        if (rack.bodyPath.empty())
            return solveRack(d, static_cast<std::size_t>(ri), air, prm);
        char key[96];
        std::snprintf(key, sizeof key, "|%.17g|%.17g", air.coldAisleK, air.hotAisleK);
        const std::string k = rack.bodyPath + key;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (const auto it = m_items.find(k); it != m_items.end())
                return it->second;
        }
        RackThermal r = solveRack(d, static_cast<std::size_t>(ri), air, prm);
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_items.emplace(k, std::move(r)).first->second;
    }

private:
    std::mutex m_mutex;
    std::map<std::string, RackThermal> m_items;
};

/// One row as a room: iterate the cold- and hot-aisle temperatures to consistency.
RowThermal solveRow(const core::Design& d, const core::Group& row, AirState air, const RackAirflowParams& prm,
                    std::vector<RackThermal>& racks, RackCache& cache)
{
    RowThermal out;
    out.id = row.id;
    out.supplyK = d.site.supplyAirK;
    air.coldAisleK = out.supplyK;
    air.hotAisleK = out.supplyK + 10.0;
    std::map<std::string, RackThermal> solved; // racks of one template see the same air
    for (out.iterations = 1; out.iterations <= 60; ++out.iterations) {
        solved.clear();
        double demand = 0, exhaustFlow = 0, exhaustHeat = 0;
        for (int ri : row.racks) {
            const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
            auto it = solved.find(rack.bodyPath);
            if (it == solved.end() || rack.bodyPath.empty())
                it =
                    solved.insert_or_assign(rack.bodyPath.empty() ? rack.id : rack.bodyPath, cache.get(d, ri, air, prm))
                        .first;
            const RackThermal& r = it->second;
            demand += std::max(0.0, r.doorFlowM3s);
            exhaustFlow += std::max(0.0, r.exhaustFlowM3s);
            exhaustHeat += std::max(0.0, r.exhaustFlowM3s) * r.rearK;
        }
        out.demandM3s = demand;
        out.supplyM3s = d.site.supplyFlowRatio * demand;
        const double hot = exhaustFlow > 0 ? exhaustHeat / exhaustFlow : air.coldAisleK;
        const double shortfall = demand > 0 ? std::max(0.0, (demand - out.supplyM3s) / demand) : 0.0;
        const double cold = (1.0 - shortfall) * out.supplyK + shortfall * hot;
        const double change = std::max(std::fabs(hot - air.hotAisleK), std::fabs(cold - air.coldAisleK));
        air.hotAisleK = hot;
        air.coldAisleK = cold;
        if (change < 1e-7)
            break;
    }
    out.coldAisleK = air.coldAisleK;
    out.hotAisleK = air.hotAisleK;

    // Final per-rack results with their own ids, and the row metrics.
    std::vector<double> intakes;
    double inSum = 0, outSum = 0, flowDt = 0, flowSum = 0;
    for (int ri : row.racks) {
        const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
        RackThermal r =
            solved.count(rack.bodyPath) && !rack.bodyPath.empty() ? solved.at(rack.bodyPath) : solved.at(rack.id);
        const std::string from = r.id;
        r.id = rack.id;
        r.rack = ri;
        for (ChassisThermal& c : r.chassis) {
            c.id = rack.id + c.id.substr(from.size());
            c.rack = ri;
            intakes.push_back(c.inletK);
            inSum += c.inletK - out.supplyK;
            outSum += c.exhaustK - out.supplyK;
            flowDt += c.airflowM3s * (c.exhaustK - c.inletK);
            flowSum += c.airflowM3s;
        }
        racks[static_cast<std::size_t>(ri)] = std::move(r);
    }
    const InletRange all = ashraeAllowable(d.site.ashraeClass);
    const double recMax = d.site.ashraeClass == "H1" ? 295.15 : 300.15, recMin = 291.15;
    out.rciHi = rciHi(intakes, recMax, all.maxK);
    out.rciLo = rciLo(intakes, recMin, all.minK);
    const double dtEquip = flowSum > 0 ? flowDt / flowSum : 0.0;
    const double ret =
        out.supplyM3s >= out.demandM3s && out.supplyM3s > 0
            ? (out.demandM3s * out.hotAisleK + (out.supplyM3s - out.demandM3s) * out.supplyK) / out.supplyM3s
            : out.hotAisleK;
    out.rti = dtEquip > 0 ? (ret - out.supplyK) / dtEquip * 100.0 : 100.0;
    out.shi = outSum > 0 ? inSum / outSum : 0.0;
    return out;
}

} // namespace

ThermalResult computeThermal(const core::Design& d, const RackAirflowParams& prm)
{
    ThermalResult res;
    res.scenario = d.scenario.name;
    res.altitudeM = d.site.altitudeM;
    const double p = models::pressureAtAltitudePa(d.site.altitudeM);
    AirState air;
    air.density = models::airDensity(d.site.supplyAirK, p);
    air.densityRatio = air.density / models::airDensity(d.site.supplyAirK, 101325.0);
    air.cp = models::airSpecificHeat(d.site.supplyAirK);
    air.extraFailedRotors = d.scenario.failedRotors;
    res.densityKgM3 = air.density;
    res.racks.resize(d.racks.size());
    res.rows.resize(d.rows.size());
    // Rows are independent rooms: solve them in parallel.
    RackCache cache;
    std::exception_ptr error;
#pragma omp parallel for schedule(dynamic)
    for (std::size_t i = 0; i < d.rows.size(); ++i) {
        try {
            res.rows[i] = solveRow(d, d.rows[i], air, prm, res.racks, cache);
        } catch (...) {
#pragma omp critical
            error = std::current_exception();
        }
    }
    if (error)
        std::rethrow_exception(error);
    for (const RackThermal& r : res.racks)
        for (const ChassisThermal& c : r.chassis)
            res.throttledChassis += c.throttled ? 1 : 0;
    return res;
}

std::shared_ptr<const ThermalResult> thermalFor(const core::Design& design, core::ResultStore& store,
                                                core::Progress* progress)
{
    if (auto cached = store.get<ThermalResult>("thermal"))
        return cached;
    auto result = std::make_shared<const ThermalResult>(design.thermalModel == core::ThermalModel::Field
                                                            ? computeThermalField(design, {}, progress)
                                                            : computeThermal(design));
    store.put<ThermalResult>("thermal", result);
    return result;
}

} // namespace rdt::thermal
