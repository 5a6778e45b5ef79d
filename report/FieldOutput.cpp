#include "report/FieldOutput.h"

#include "core/JsonNumber.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

namespace {
constexpr double kC = 273.15;
json residualJson(const room::ResidualRecord& r)
{
    return {{"continuity", jsonNumber(r.continuity)},
            {"momentum", {jsonNumber(r.momentum[0]), jsonNumber(r.momentum[1]), jsonNumber(r.momentum[2])}},
            {"energy", jsonNumber(r.energy)},
            {"turbulence", jsonNumber(r.turbulence)}};
}
double balance(const room::RoomField& r)
{
    return r.heatW > 0 ? (r.heatOutW - (r.heatW - r.coolerW)) / r.heatW : 0.0;
}
} // namespace

json fieldJson(const thermal::ThermalResult& t)
{
    if (t.model != core::ThermalModel::Field || !room::fieldOf(t))
        return nullptr;
    json rooms = json::array();
    const room::FieldSettings s = room::roomFieldSettings(0, room::fieldOf(t)->turbulence);
    for (const room::RoomField& r : room::fieldOf(t)->rooms) {
        const room::FieldGrid& g = r.solver->grid();
        json sequence = json::array();
        for (const room::RoomField::Step& step : r.sequence)
            sequence.push_back({{"cells", step.cells},
                                {"iterations", step.iterations},
                                {"couplings", step.couplings},
                                {"seconds", jsonNumber(step.seconds)}});
        rooms.push_back({{"id", r.geometry.id},
                         {"same_as", r.sameAs},
                         {"racks", r.geometry.racks.size()},
                         {"size_m", {r.geometry.size[0], r.geometry.size[1], r.geometry.size[2]}},
                         {"cells", g.cellCount()},
                         {"grid", {g.cells(0), g.cells(1), g.cells(2)}},
                         {"iterations", r.iterations},
                         {"couplings", r.couplings},
                         {"coupling_change_K", jsonNumber(r.couplingChangeK)},
                         {"residuals", residualJson(r.residuals)},
                         {"converged_on", r.criterion},
                         {"pseudo_time_step_s", jsonNumber(r.pseudoTimeStepS)},
                         {"seconds", jsonNumber(r.seconds)},
                         {"supply_C", jsonNumber(r.geometry.supplyC)},
                         {"supply_m3s", jsonNumber(r.geometry.supplyM3s)},
                         {"demand_m3s", jsonNumber(r.geometry.demandM3s)},
                         {"return_C", jsonNumber(r.returnC)},
                         {"mass_in_kg_s", jsonNumber(r.massInKgS)},
                         {"mass_out_kg_s", jsonNumber(r.massOutKgS)},
                         {"heat_W", jsonNumber(r.heatW)},
                         {"heat_out_W", jsonNumber(r.heatOutW)},
                         {"in_row_units", r.geometry.coolers},
                         {"in_row_flow_m3s", jsonNumber(r.geometry.inRowM3s)},
                         {"in_row_removed_W", jsonNumber(r.coolerW)},
                         {"energy_balance", jsonNumber(balance(r))},
                         {"started_from", sequence},
                         {"containment_open", jsonNumber(r.geometry.containmentOpen)}});
    }
    json chassis = json::array();
    for (const thermal::RackThermal& rk : t.racks)
        for (const thermal::ChassisThermal& c : rk.chassis)
            chassis.push_back({{"id", c.id},
                               {"inlet_mean_C", jsonNumber(c.fieldInletK - kC)},
                               {"inlet_max_C", jsonNumber(c.fieldInletMaxK - kC)},
                               {"rack_intake_C", jsonNumber(rk.fieldIntakeK - kC)}});
    return {{"model", "field"},         {"turbulence", room::turbulenceDescription(room::fieldOf(t)->turbulence)},
            {"tolerance", s.tolerance}, {"intake_tolerance_K", s.intakeTolerance},
            {"rooms", rooms},           {"chassis", chassis}};
}

void writeFieldGroup(hid_t thermalGroup, const thermal::ThermalResult& t)
{
    if (t.model != core::ThermalModel::Field || !room::fieldOf(t))
        return;
    H5Handle fg = createGroup(thermalGroup, "field");
    writeStringAttribute(fg.get(), "model",
                         "steady RANS, Boussinesq, " + room::turbulenceDescription(room::fieldOf(t)->turbulence) +
                             " turbulence");
    H5Table rooms;
    const auto id = rooms.textColumn("id"), cells = rooms.intColumn("cells", "1"),
               its = rooms.intColumn("iterations", "1"), cpl = rooms.intColumn("couplings", "1"),
               cont = rooms.realColumn("continuity_residual", "1"), en = rooms.realColumn("energy_residual", "1"),
               sec = rooms.realColumn("seconds", "s"), heat = rooms.realColumn("heat", "W"),
               out = rooms.realColumn("heat_out", "W"), removed = rooms.realColumn("in_row_removed", "W"),
               sup = rooms.realColumn("supply", "degC"), ret = rooms.realColumn("return", "degC"),
               flow = rooms.realColumn("supply_flow", "m3/s"), coarseCells = rooms.intColumn("coarse_cells", "1"),
               coarseIts = rooms.intColumn("coarse_iterations", "1"),
               contOpen = rooms.realColumn("containment_open", "1");
    for (const room::RoomField& r : room::fieldOf(t)->rooms) {
        rooms.addRow();
        rooms.set(id, r.geometry.id);
        rooms.set(cells, static_cast<long long>(r.geometry.cellCount()));
        rooms.set(its, static_cast<long long>(r.iterations));
        rooms.set(cpl, static_cast<long long>(r.couplings));
        rooms.set(cont, r.residuals.continuity);
        rooms.set(en, r.residuals.energy);
        rooms.set(sec, r.seconds);
        rooms.set(heat, r.heatW);
        rooms.set(out, r.heatOutW);
        rooms.set(removed, r.coolerW);
        rooms.set(sup, r.geometry.supplyC);
        rooms.set(ret, r.returnC);
        rooms.set(flow, r.geometry.supplyM3s);
        // Grid sequencing: the coarser grids solved first (0 when none).
        long long cc = 0, ci = 0;
        for (const room::RoomField::Step& step : r.sequence) {
            cc += static_cast<long long>(step.cells);
            ci += step.iterations;
        }
        rooms.set(coarseCells, cc);
        rooms.set(coarseIts, ci);
        rooms.set(contOpen, r.geometry.containmentOpen);
    }
    rooms.write(fg.get(), "rooms");
    // Per chassis, the air the field brings it (JSON thermal.field.chassis).
    H5Table chassis;
    const auto cid = chassis.textColumn("id"), cMean = chassis.realColumn("inlet_mean", "degC"),
               cMax = chassis.realColumn("inlet_max", "degC"), cRack = chassis.realColumn("rack_intake", "degC");
    for (const thermal::RackThermal& rk : t.racks)
        for (const thermal::ChassisThermal& c : rk.chassis) {
            chassis.addRow();
            chassis.set(cid, c.id);
            chassis.set(cMean, c.fieldInletK - kC);
            chassis.set(cMax, c.fieldInletMaxK - kC);
            chassis.set(cRack, rk.fieldIntakeK - kC);
        }
    chassis.write(fg.get(), "chassis");
    for (std::size_t n = 0; n < room::fieldOf(t)->rooms.size(); ++n) {
        const room::RoomField& r = room::fieldOf(t)->rooms[n];
        const room::FieldSolver& s = *r.solver;
        const room::FieldGrid& g = s.grid();
        // Group names may not hold '/': room ids are paths (hall1/pod1).
        std::string name = r.geometry.id;
        std::replace(name.begin(), name.end(), '/', '.');
        H5Handle rg = createGroup(fg.get(), name);
        writeStringAttribute(rg.get(), "id", r.geometry.id);
        writeStringAttribute(rg.get(), "layout", "arrays are [z][y][x] (x fastest); coordinates local to the room");
        for (int a = 0; a < 3; ++a) {
            std::vector<double> f(static_cast<std::size_t>(g.cells(a) + 1));
            for (int i = 0; i <= g.cells(a); ++i)
                f[static_cast<std::size_t>(i)] = g.face(a, i);
            writeArray(rg.get(), std::string(1, "xyz"[a]) + "_faces", f, {f.size()}, "m");
        }
        writeArray(rg.get(), "origin", {r.geometry.origin[0], r.geometry.origin[1], r.geometry.origin[2]}, {3}, "m");
        const std::size_t nc = g.cellCount();
        std::vector<double> temp(nc), pres(nc), vel(3 * nc), solid(nc);
        for (int k = 0; k < g.cells(2); ++k)
            for (int j = 0; j < g.cells(1); ++j)
                for (int i = 0; i < g.cells(0); ++i) {
                    const std::size_t c = g.cell(i, j, k);
                    temp[c] = s.temperature(i, j, k);
                    pres[c] = s.pressure(i, j, k);
                    solid[c] = s.solid(i, j, k) ? 1.0 : 0.0;
                    const auto v = s.velocity(i, j, k);
                    for (std::size_t d = 0; d < 3; ++d)
                        vel[3 * c + d] = v[d];
                }
        const std::vector<hsize_t> dims{static_cast<hsize_t>(g.cells(2)), static_cast<hsize_t>(g.cells(1)),
                                        static_cast<hsize_t>(g.cells(0))};
        writeArray(rg.get(), "temperature", temp, dims, "degC");
        writeArray(rg.get(), "pressure", pres, dims, "Pa");
        writeArray(rg.get(), "solid", solid, dims, "1");
        writeArray(rg.get(), "velocity", vel, {dims[0], dims[1], dims[2], 3}, "m/s");
        // Every iteration's residuals over the coupling passes (the fine grid's): how it converged.
        H5Table history;
        const auto hIt = history.intColumn("iteration", "1"), hCont = history.realColumn("continuity", "1"),
                   hU = history.realColumn("momentum_x", "1"), hV = history.realColumn("momentum_y", "1"),
                   hW = history.realColumn("momentum_z", "1"), hE = history.realColumn("energy", "1"),
                   hT = history.realColumn("turbulence", "1");
        long long step = 0;
        for (const room::ResidualRecord& rec : r.history) {
            history.addRow();
            history.set(hIt, ++step);
            history.set(hCont, rec.continuity);
            history.set(hU, rec.momentum[0]);
            history.set(hV, rec.momentum[1]);
            history.set(hW, rec.momentum[2]);
            history.set(hE, rec.energy);
            history.set(hT, rec.turbulence);
        }
        history.write(rg.get(), "residuals");
    }
}

std::string fieldSummaryText(const thermal::ThermalResult& t)
{
    if (t.model != core::ThermalModel::Field || !room::fieldOf(t))
        return {};
    std::size_t cells = 0, shared = 0, plateau = 0;
    std::string plateauWhy;
    int its = 0;
    double seconds = 0, worst = 0;
    for (const room::RoomField& r : room::fieldOf(t)->rooms) {
        if (r.criterion != "residuals") {
            ++plateau;
            if (plateauWhy.empty())
                plateauWhy = r.criterion;
        }
        cells += r.geometry.cellCount();
        its += r.iterations;
        seconds += r.seconds;
        shared += r.sameAs.size();
        worst = std::max(worst, std::abs(balance(r)));
    }
    char b[320];
    std::snprintf(b, sizeof b,
                  "room field: %zu room%s solved (%zu cells, %d iterations, %.1f s)%s, heat balance within %.1e; "
                  "inlets and RCI from the field",
                  room::fieldOf(t)->rooms.size(), room::fieldOf(t)->rooms.size() == 1 ? "" : "s", cells, its, seconds,
                  shared > 0 ? (", " + std::to_string(shared) + " more of the same layout share them").c_str() : "",
                  worst);
    std::string text = b;
    // A room that ended on the residual plateau converged on its intakes, not on its residuals:
    // say so where the verdicts are read, not only in JSON's converged_on.
    if (plateau > 0)
        text += "; " + std::to_string(plateau) + " room" + (plateau == 1 ? "" : "s") +
                " ended on a residual plateau (" + plateauWhy + ")";
    return text;
}

} // namespace rdt::report
