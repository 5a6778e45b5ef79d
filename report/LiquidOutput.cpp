#include "report/LiquidOutput.h"

#include <cmath>

#include "core/JsonNumber.h"
#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

namespace {
constexpr double kLpm = 1e-3 / 60.0;
} // namespace

json liquidJson(const liquid::LiquidResult& L)
{
    if (L.loops.empty())
        return nullptr;
    json loops = json::array(), racks = json::array(), trays = json::array();
    for (const liquid::LoopLiquid& l : L.loops)
        loops.push_back({{"id", l.id},
                         {"cdu", l.cdu},
                         {"type", l.type},
                         {"cdus", l.count},
                         {"cdus_running", l.running},
                         {"pumps", l.pumps},
                         {"pumps_running", l.pumpsRunning},
                         {"pump_speed", jsonNumber(l.pumpSpeed)},
                         {"heat_W", jsonNumber(l.heatW)},
                         {"heat_on_basis_W", jsonNumber(l.basisHeatW)},
                         {"flow_L_min", jsonNumber(l.flowM3s / kLpm)},
                         {"target_flow_L_min", jsonNumber(l.targetFlowM3s / kLpm)},
                         {"rated_flow_L_min", jsonNumber(l.ratedFlowM3s / kLpm)},
                         {"supply_C", jsonNumber(l.supplyC)},
                         {"setpoint_C", jsonNumber(l.setpointC)},
                         {"return_C", jsonNumber(l.returnC)},
                         {"facility_C", jsonNumber(l.facilityC)},
                         {"air_density_kg_m3", jsonNumber(l.airDensity)},
                         {"capacity_W", jsonNumber(l.capacityW)},
                         {"capacity_at_flow_W", jsonNumber(l.capacityAtFlowW)},
                         {"holds_setpoint", l.holdsSetpoint},
                         {"pump_rise_kPa", jsonNumber(l.sourcePa / 1e3)},
                         {"pump_power_W", jsonNumber(l.pumpPowerW)},
                         {"fan_power_W", jsonNumber(l.fanPowerW)},
                         {"electrical_W", jsonNumber(l.electricalW)},
                         {"heat_to_room_air_W", jsonNumber(l.airHeatW)},
                         {"header_velocity_m_s", jsonNumber(l.headerVelocity)},
                         {"scenario", l.scenario.empty() ? json("as designed") : json(l.scenario)},
                         {"properties_note", l.propertiesNote.empty() ? json(nullptr) : json(l.propertiesNote)}});
    for (const liquid::RackLiquid& r : L.racks)
        racks.push_back({{"id", r.id},
                         {"loop", L.loops[static_cast<std::size_t>(r.loop)].id},
                         {"heat_W", jsonNumber(r.heatW)},
                         {"flow_L_min", jsonNumber(r.flowM3s / kLpm)},
                         {"supply_C", jsonNumber(r.supplyC)},
                         {"return_C", jsonNumber(r.returnC)},
                         {"spread", jsonNumber(r.spread)},
                         {"manifold_kPa", jsonNumber(r.inletPa / 1e3)},
                         {"manifold_velocity_m_s", jsonNumber(r.manifoldVelocity)},
                         {"manifold_max_kPa", jsonNumber(r.manifoldMaxPa / 1e3)},
                         {"connector_rated_L_min", jsonNumber(r.connectorRatedM3s / kLpm)},
                         {"connector_max_kPa", jsonNumber(r.connectorMaxPa / 1e3)},
                         {"connector_bound_kPa", jsonNumber(r.connectorBoundPa / 1e3)},
                         {"leak_zones", r.leakZones},
                         {"leak_response", r.leakResponse.empty() ? json(nullptr) : json(r.leakResponse)},
                         {"leak_sources", r.leakSources}});
    for (const liquid::TrayLiquid& t : L.trays)
        trays.push_back({{"id", t.id},
                         {"draw_W", jsonNumber(t.drawW)},
                         {"heat_on_basis_W", jsonNumber(t.basisHeatW)},
                         {"heat_W", jsonNumber(t.heatW)},
                         {"flow_L_min", jsonNumber(t.flowM3s / kLpm)},
                         {"flow_L_min_per_kW", jsonNumber(t.heatW > 0 ? t.flowM3s / kLpm / (t.heatW / 1e3) : NAN)},
                         {"inlet_C", jsonNumber(t.inletC)},
                         {"outlet_C", jsonNumber(t.outletC)},
                         {"case_C", jsonNumber(t.caseC)},
                         {"plate_measured", t.plateMeasured},
                         {"gpu_junction_C", jsonNumber(t.junctionC)},
                         // null above: no r_jc, or (this true) a starved plate whose case is not known
                         {"gpu_junction_unbounded", std::isinf(t.junctionC)},
                         {"gpu_max_operating_C", jsonNumber(t.maxJunctionC)},
                         {"supply_port_kPa", jsonNumber(t.supplyPortPa / 1e3)},
                         {"drop_kPa", jsonNumber(t.dropPa / 1e3)},
                         {"connector_rated_L_min", jsonNumber(t.connectorRatedM3s / kLpm)},
                         {"connector_max_kPa", jsonNumber(t.connectorMaxPa / 1e3)},
                         {"connector_max_C", jsonNumber(t.connectorMaxC)}});
    return {{"coolant", L.coolant},
            {"heat_basis", std::string(core::powerBasisName(L.basis))},
            {"dew_point_C", jsonNumber(L.dewPointC)},
            {"loops", loops},
            {"racks", racks},
            {"trays", trays}};
}

void writeLiquidGroup(hid_t file, const liquid::LiquidResult& L)
{
    if (L.loops.empty())
        return;
    H5Handle g = createGroup(file, "liquid");
    writeStringAttribute(g.get(), "coolant", L.coolant);
    writeStringAttribute(g.get(), "heat_basis", std::string(core::powerBasisName(L.basis)));
    writeScalar(g.get(), "dew_point", L.dewPointC, "degC");
    H5Table loops;
    const auto lId = loops.textColumn("id"), lCdu = loops.textColumn("cdu"), lRun = loops.intColumn("cdus_running", "1"),
               lPumps = loops.intColumn("pumps_running", "1"), lSpeed = loops.realColumn("pump_speed", "1"),
               lHeat = loops.realColumn("heat", "W"), lFlow = loops.realColumn("flow", "L/min"),
               lTarget = loops.realColumn("target_flow", "L/min"), lRated = loops.realColumn("rated_flow", "L/min"),
               lSup = loops.realColumn("supply", "degC"), lRet = loops.realColumn("return", "degC"),
               lFac = loops.realColumn("facility", "degC"), lCap = loops.realColumn("capacity", "W"),
               lRise = loops.realColumn("pump_rise", "kPa"), lPw = loops.realColumn("pump_power", "W"),
               lFan = loops.realColumn("fan_power", "W"), lEl = loops.realColumn("electrical", "W"),
               lRho = loops.realColumn("air_density", "kg/m3"), lCount = loops.intColumn("cdus", "1"),
               lHolds = loops.intColumn("holds_setpoint", "1"), lBasisHeat = loops.realColumn("heat_on_basis", "W"),
               lCapFlow = loops.realColumn("capacity_at_flow", "W");
    for (const liquid::LoopLiquid& l : L.loops) {
        loops.addRow();
        loops.set(lId, l.id);
        loops.set(lCdu, l.cdu);
        loops.set(lRun, static_cast<long long>(l.running));
        loops.set(lPumps, static_cast<long long>(l.pumpsRunning));
        loops.set(lSpeed, l.pumpSpeed);
        loops.set(lHeat, l.heatW);
        loops.set(lFlow, l.flowM3s / kLpm);
        loops.set(lTarget, l.targetFlowM3s / kLpm);
        loops.set(lRated, l.ratedFlowM3s / kLpm);
        loops.set(lSup, l.supplyC);
        loops.set(lRet, l.returnC);
        loops.set(lFac, l.facilityC);
        loops.set(lCap, l.capacityW);
        loops.set(lRise, l.sourcePa / 1e3);
        loops.set(lPw, l.pumpPowerW);
        loops.set(lFan, l.fanPowerW);
        loops.set(lEl, l.electricalW);
        loops.set(lRho, l.airDensity);
        loops.set(lCount, static_cast<long long>(l.count));
        loops.set(lHolds, static_cast<long long>(l.holdsSetpoint ? 1 : 0));
        loops.set(lBasisHeat, l.basisHeatW);
        loops.set(lCapFlow, l.capacityAtFlowW);
    }
    loops.write(g.get(), "loops");
    H5Table racks;
    const auto rId = racks.textColumn("id"), rHeat = racks.realColumn("heat", "W"),
               rFlow = racks.realColumn("flow", "L/min"), rSup = racks.realColumn("supply", "degC"),
               rRet = racks.realColumn("return", "degC"), rSpread = racks.realColumn("spread", "1"),
               rP = racks.realColumn("manifold_pressure", "kPa"), rV = racks.realColumn("manifold_velocity", "m/s"),
               rLeak = racks.intColumn("leak_zones", "1"), rLeakR = racks.textColumn("leak_response");
    for (const liquid::RackLiquid& r : L.racks) {
        racks.addRow();
        racks.set(rId, r.id);
        racks.set(rHeat, r.heatW);
        racks.set(rFlow, r.flowM3s / kLpm);
        racks.set(rSup, r.supplyC);
        racks.set(rRet, r.returnC);
        racks.set(rSpread, r.spread);
        racks.set(rP, r.inletPa / 1e3);
        racks.set(rV, r.manifoldVelocity);
        racks.set(rLeak, static_cast<long long>(r.leakZones));
        racks.set(rLeakR, r.leakResponse);
    }
    racks.write(g.get(), "racks");
    H5Table trays;
    const auto tId = trays.textColumn("id"), tHeat = trays.realColumn("heat", "W"),
               tFlow = trays.realColumn("flow", "L/min"), tIn = trays.realColumn("inlet", "degC"),
               tOut = trays.realColumn("outlet", "degC"), tCase = trays.realColumn("case", "degC"),
               tTj = trays.realColumn("gpu_junction", "degC"), tPort = trays.realColumn("supply_port", "kPa"),
               tDrop = trays.realColumn("drop", "kPa"), tBasis = trays.realColumn("heat_on_basis", "W");
    for (const liquid::TrayLiquid& t : L.trays) {
        trays.addRow();
        trays.set(tId, t.id);
        trays.set(tHeat, t.heatW);
        trays.set(tFlow, t.flowM3s / kLpm);
        trays.set(tIn, t.inletC);
        trays.set(tOut, t.outletC);
        trays.set(tCase, t.caseC);
        trays.set(tTj, t.junctionC);
        trays.set(tPort, t.supplyPortPa / 1e3);
        trays.set(tDrop, t.dropPa / 1e3);
        trays.set(tBasis, t.basisHeatW);
    }
    trays.write(g.get(), "trays");
}

} // namespace rdt::report
