#include "analysis/ThermalOutput.h"

#include <cmath>
#include <stdexcept>

#include "analysis/H5Table.h"

namespace rdt::analysis {

using nlohmann::json;

namespace {
constexpr double kC = 273.15;
constexpr double kM3sToCfm = 60.0 / (0.3048 * 0.3048 * 0.3048);
json num(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}
} // namespace

json thermalJson(const thermal::ThermalResult& t)
{
    json chassis = json::array(), racks = json::array(), rows = json::array();
    for (const thermal::RackThermal& r : t.racks) {
        racks.push_back({{"id", r.id},
                         {"heat_W", num(r.heatW)},
                         {"intake_m3s", num(r.doorFlowM3s)},
                         {"recirculation_m3s", num(r.recirculationM3s)},
                         {"leak_m3s", num(r.leakM3s)},
                         {"front_C", num(r.frontK - kC)},
                         {"rear_C", num(r.rearK - kC)}});
        for (const thermal::ChassisThermal& c : r.chassis)
            chassis.push_back({{"id", c.id},
                               {"heat_W", num(c.heatW)},
                               {"airflow_m3s", num(c.airflowM3s)},
                               {"airflow_cfm", num(c.airflowM3s * kM3sToCfm)},
                               {"cfm_per_kW", num(c.heatW > 0 ? c.airflowM3s * kM3sToCfm / (c.heatW / 1e3) : NAN)},
                               {"inlet_C", num(c.inletK - kC)},
                               {"exhaust_C", num(c.exhaustK - kC)},
                               {"exhaust_dt_K", num(c.exhaustK - c.inletK)},
                               {"gpu_junction_max_C", num(c.gpuJunctionK - kC)},
                               {"margin_to_max_operating_K", num(c.maxOperatingK - c.gpuJunctionK)},
                               {"fan_speed", num(c.fanSpeed)},
                               {"failed_rotors", c.failedRotors},
                               {"throttled", c.throttled}});
    }
    for (const thermal::RowThermal& r : t.rows)
        rows.push_back({{"id", r.id},
                        {"rci_hi", num(r.rciHi)},
                        {"rci_lo", num(r.rciLo)},
                        {"rti", num(r.rti)},
                        {"shi", num(r.shi)},
                        {"cold_aisle_C", num(r.coldAisleK - kC)},
                        {"hot_aisle_C", num(r.hotAisleK - kC)},
                        {"demand_m3s", num(r.demandM3s)},
                        {"supply_m3s", num(r.supplyM3s)}});
    return {{"scenario", t.scenario.empty() ? json("as designed") : json(t.scenario)},
            {"air_density_kg_m3", num(t.densityKgM3)},
            {"throttled_chassis", t.throttledChassis},
            {"chassis", chassis},
            {"racks", racks},
            {"rows", rows}};
}

void writeThermalGroup(hid_t file, const thermal::ThermalResult& t)
{
    H5Handle g(H5Gcreate2(file, "thermal", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!g.valid())
        throw std::runtime_error("HDF5 error while creating /thermal");
    writeStringAttribute(g.get(), "scenario", t.scenario.empty() ? "as designed" : t.scenario);
    H5Table c;
    const auto id = c.textColumn("id"), heat = c.realColumn("heat", "W"), flow = c.realColumn("airflow", "m3/s"),
               in = c.realColumn("inlet", "degC"), out = c.realColumn("exhaust", "degC"),
               tj = c.realColumn("gpu_junction_max", "degC"), fan = c.realColumn("fan_speed", "1"),
               failed = c.intColumn("failed_rotors", "1"), thr = c.intColumn("throttled", "1");
    for (const auto& r : t.racks)
        for (const auto& ch : r.chassis) {
            c.addRow();
            c.set(id, ch.id);
            c.set(heat, ch.heatW);
            c.set(flow, ch.airflowM3s);
            c.set(in, ch.inletK - kC);
            c.set(out, ch.exhaustK - kC);
            c.set(tj, ch.gpuJunctionK - kC);
            c.set(fan, ch.fanSpeed);
            c.set(failed, static_cast<long long>(ch.failedRotors));
            c.set(thr, static_cast<long long>(ch.throttled ? 1 : 0));
        }
    c.write(g.get(), "chassis");
    H5Table rows;
    const auto rid = rows.textColumn("id"), hi = rows.realColumn("rci_hi", "%"), lo = rows.realColumn("rci_lo", "%"),
               rti = rows.realColumn("rti", "%"), shi = rows.realColumn("shi", "1"),
               cold = rows.realColumn("cold_aisle", "degC"), hot = rows.realColumn("hot_aisle", "degC");
    for (const auto& r : t.rows) {
        rows.addRow();
        rows.set(rid, r.id);
        rows.set(hi, r.rciHi);
        rows.set(lo, r.rciLo);
        rows.set(rti, r.rti);
        rows.set(shi, r.shi);
        rows.set(cold, r.coldAisleK - kC);
        rows.set(hot, r.hotAisleK - kC);
    }
    rows.write(g.get(), "rows");
}

} // namespace rdt::analysis
