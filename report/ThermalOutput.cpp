#include "report/ThermalOutput.h"

#include "core/JsonNumber.h"

#include <cmath>
#include <stdexcept>

#include "report/FieldOutput.h"
#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

namespace {
constexpr double kC = 273.15;
constexpr double kM3sToCfm = 60.0 / (0.3048 * 0.3048 * 0.3048);
} // namespace

json thermalJson(const thermal::ThermalResult& t)
{
    json chassis = json::array(), racks = json::array(), rows = json::array(), switches = json::array();
    for (const thermal::RackThermal& r : t.racks) {
        for (const thermal::RackThermal::SwitchInlet& sw : r.switches)
            switches.push_back({{"id", sw.id}, {"rack", r.id}, {"inlet_C", jsonNumber(sw.inletK - kC)}});
        racks.push_back({{"id", r.id},
                         {"heat_W", jsonNumber(r.heatW)},
                         {"shelf_loss_W", jsonNumber(r.shelfLossW)},
                         {"intake_m3s", jsonNumber(r.doorFlowM3s)},
                         {"other_parts_m3s", jsonNumber(r.otherFlowM3s)},
                         {"recirculation_m3s", jsonNumber(r.recirculationM3s)},
                         {"leak_m3s", jsonNumber(r.leakM3s)},
                         {"front_C", jsonNumber(r.frontK - kC)},
                         {"rear_C", jsonNumber(r.rearK - kC)}});
        for (const thermal::ChassisThermal& c : r.chassis)
            chassis.push_back(
                {{"id", c.id},
                 {"heat_W", jsonNumber(c.heatW)},
                 {"airflow_m3s", jsonNumber(c.airflowM3s)},
                 {"airflow_cfm", jsonNumber(c.airflowM3s * kM3sToCfm)},
                 {"cfm_per_kW", jsonNumber(c.heatW > 0 ? c.airflowM3s * kM3sToCfm / (c.heatW / 1e3) : NAN)},
                 {"inlet_C", jsonNumber(c.inletK - kC)},
                 {"exhaust_C", jsonNumber(c.exhaustK - kC)},
                 {"exhaust_dt_K", jsonNumber(c.exhaustK - c.inletK)},
                 {"gpu_junction_max_C", jsonNumber(c.judgedJunctionK() - kC)},
                 {"gpu_max_operating_C", jsonNumber(c.maxOperatingK - kC)},
                 {"margin_to_max_operating_K", jsonNumber(c.maxOperatingK - c.judgedJunctionK())},
                 {"gpu_power_W", jsonNumber(c.gpuW)},
                 {"fan_speed", jsonNumber(c.fanSpeed)},
                 {"fan_power_W", jsonNumber(c.fanPowerW)},
                 {"failed_rotors", c.failedRotors},
                 {"no_airflow", c.noAirflow},
                 {"throttled", c.throttled}});
    }
    for (const thermal::RowThermal& r : t.rows)
        rows.push_back({{"id", r.id},
                        {"rci_hi", jsonNumber(r.rciHi)},
                        {"rci_lo", jsonNumber(r.rciLo)},
                        {"rti", jsonNumber(r.rti)},
                        {"shi", jsonNumber(r.shi)},
                        {"cold_aisle_C", jsonNumber(r.coldAisleK - kC)},
                        {"hot_aisle_C", jsonNumber(r.hotAisleK - kC)},
                        {"demand_m3s", jsonNumber(r.demandM3s)},
                        {"supply_m3s", jsonNumber(r.supplyM3s)},
                        {"aalc_flow_m3s", jsonNumber(r.aalcFlowM3s)},
                        {"aalc_heat_W", jsonNumber(r.aalcHeatW)}});
    return {{"scenario", t.scenario.empty() ? json("as designed") : json(t.scenario)},
            {"model", std::string(core::thermalModelName(t.model))},
            {"intakes_from", t.intakesFrom.empty() ? json("the model's own solve") : json(t.intakesFrom)},
            {"field", fieldJson(t)},
            {"air_density_kg_m3", jsonNumber(t.densityKgM3)},
            {"throttled_chassis", t.throttledChassis},
            {"chassis", chassis},
            {"racks", racks},
            {"switches", switches},
            {"rows", rows}};
}

void writeThermalGroup(hid_t file, const thermal::ThermalResult& t, const core::Design& d)
{
    H5Handle g = createGroup(file, "thermal");
    writeStringAttribute(g.get(), "scenario", t.scenario.empty() ? "as designed" : t.scenario);
    writeStringAttribute(g.get(), "model", std::string(core::thermalModelName(t.model)));
    writeStringAttribute(g.get(), "intakes_from", t.intakesFrom.empty() ? "the model's own solve" : t.intakesFrom);
    writeScalar(g.get(), "air_density", t.densityKgM3, "kg/m3");
    H5Table c;
    const auto id = c.textColumn("id"), heat = c.realColumn("heat", "W"), flow = c.realColumn("airflow", "m3/s"),
               in = c.realColumn("inlet", "degC"), out = c.realColumn("exhaust", "degC"),
               tj = c.realColumn("gpu_junction_max", "degC"), tmax = c.realColumn("gpu_max_operating", "degC"),
               margin = c.realColumn("margin_to_max_operating", "K"), fan = c.realColumn("fan_speed", "1"),
               fanW = c.realColumn("fan_power", "W"), failed = c.intColumn("failed_rotors", "1"),
               thr = c.intColumn("throttled", "1"), noAir = c.intColumn("no_airflow", "1");
    H5Table gpus;
    const auto gChassis = gpus.textColumn("chassis"), gIndex = gpus.intColumn("index", "1"),
               gPart = gpus.textColumn("part"), gPower = gpus.realColumn("power", "W"),
               gTj = gpus.realColumn("junction", "degC"), gMax = gpus.realColumn("max_operating", "degC"),
               gMargin = gpus.realColumn("margin", "K"), gThr = gpus.intColumn("throttled", "1");
    H5Table racks;
    const auto rId = racks.textColumn("id"), rHeat = racks.realColumn("heat", "W"),
               rShelf = racks.realColumn("shelf_loss", "W"), rDoor = racks.realColumn("intake", "m3/s"),
               rOther = racks.realColumn("other_parts_flow", "m3/s"),
               rRec = racks.realColumn("recirculation", "m3/s"), rLeak = racks.realColumn("leak", "m3/s"),
               rFront = racks.realColumn("front", "degC"), rRear = racks.realColumn("rear", "degC"),
               rHot = racks.realColumn("hottest_gpu", "degC");
    for (const auto& r : t.racks) {
        double hottest = NAN;
        for (const auto& ch : r.chassis) {
            c.addRow();
            c.set(id, ch.id);
            c.set(heat, ch.heatW);
            c.set(flow, ch.airflowM3s);
            c.set(in, ch.inletK - kC);
            c.set(out, ch.exhaustK - kC);
            c.set(tj, ch.judgedJunctionK() - kC);
            c.set(tmax, ch.maxOperatingK - kC);
            c.set(margin, ch.maxOperatingK - ch.judgedJunctionK());
            c.set(fan, ch.fanSpeed);
            c.set(fanW, ch.fanPowerW);
            c.set(failed, static_cast<long long>(ch.failedRotors));
            c.set(thr, static_cast<long long>(ch.throttled ? 1 : 0));
            c.set(noAir, static_cast<long long>(ch.noAirflow ? 1 : 0));
            const core::Slot& slot =
                d.racks[static_cast<std::size_t>(ch.rack)].slots[static_cast<std::size_t>(ch.slot)];
            const int n = core::Design::gpuCount(*slot.part);
            if (n > 0)
                hottest = std::isnan(hottest) ? ch.judgedJunctionK() : std::max(hottest, ch.judgedJunctionK());
            // The compact model resolves the hottest GPU of a chassis; every GPU carries that figure.
            for (int k = 0; k < n; ++k) {
                gpus.addRow();
                gpus.set(gChassis, ch.id);
                gpus.set(gIndex, static_cast<long long>(k));
                gpus.set(gPart, slot.part->text("gpus.part"));
                gpus.set(gPower, ch.gpuW);
                gpus.set(gTj, ch.judgedJunctionK() - kC);
                gpus.set(gMax, ch.maxOperatingK - kC);
                gpus.set(gMargin, ch.maxOperatingK - ch.judgedJunctionK());
                gpus.set(gThr, static_cast<long long>(ch.throttled ? 1 : 0));
            }
        }
        racks.addRow();
        racks.set(rId, r.id);
        racks.set(rHeat, r.heatW);
        racks.set(rShelf, r.shelfLossW);
        racks.set(rDoor, r.doorFlowM3s);
        racks.set(rOther, r.otherFlowM3s);
        racks.set(rRec, r.recirculationM3s);
        racks.set(rLeak, r.leakM3s);
        racks.set(rFront, r.frontK - kC);
        racks.set(rRear, r.rearK - kC);
        racks.set(rHot, hottest - kC);
    }
    c.write(g.get(), "chassis");
    gpus.write(g.get(), "gpus");
    racks.write(g.get(), "racks");
    H5Table sws;
    const auto swId = sws.textColumn("id"), swRack = sws.textColumn("rack"), swIn = sws.realColumn("inlet", "degC");
    for (const auto& r : t.racks)
        for (const thermal::RackThermal::SwitchInlet& sw : r.switches) {
            sws.addRow();
            sws.set(swId, sw.id);
            sws.set(swRack, r.id);
            sws.set(swIn, sw.inletK - kC);
        }
    sws.write(g.get(), "switches");
    H5Table rows;
    const auto rid = rows.textColumn("id"), hi = rows.realColumn("rci_hi", "%"), lo = rows.realColumn("rci_lo", "%"),
               rti = rows.realColumn("rti", "%"), shi = rows.realColumn("shi", "1"),
               supply = rows.realColumn("supply", "degC"), cold = rows.realColumn("cold_aisle", "degC"),
               hot = rows.realColumn("hot_aisle", "degC"), demand = rows.realColumn("demand", "m3/s"),
               supplyFlow = rows.realColumn("supply_flow", "m3/s");
    for (const auto& r : t.rows) {
        rows.addRow();
        rows.set(rid, r.id);
        rows.set(hi, r.rciHi);
        rows.set(lo, r.rciLo);
        rows.set(rti, r.rti);
        rows.set(shi, r.shi);
        rows.set(supply, r.supplyK - kC);
        rows.set(cold, r.coldAisleK - kC);
        rows.set(hot, r.hotAisleK - kC);
        rows.set(demand, r.demandM3s);
        rows.set(supplyFlow, r.supplyM3s);
    }
    rows.write(g.get(), "rows");
    writeFieldGroup(g.get(), t);
}

} // namespace rdt::report
