#include "analysis/PowerOutput.h"

#include <cmath>
#include <stdexcept>

#include "analysis/H5Table.h"

namespace rdt::analysis {

using nlohmann::json;

namespace {

json num(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json groupJson(const power::GroupPower& g)
{
    return {{"id", g.id},
            {"racks", g.racks},
            {"it_load_W", num(g.itLoadW)},
            {"peak_load_W", num(g.peakLoadW)},
            {"ac_input_W", num(g.acInputW)},
            {"psu_loss_W", num(g.psuLossW)}};
}

} // namespace

json powerJson(const power::PowerResult& res)
{
    json racks = json::array();
    for (const power::RackPower& r : res.racks) {
        json shelves = json::array();
        for (const power::ShelfPower& s : r.shelves)
            shelves.push_back({{"id", s.id},
                               {"feed", s.feed},
                               {"output_W", num(s.outputW)},
                               {"load_fraction", num(s.loadFraction)},
                               {"efficiency", num(s.efficiency)},
                               {"input_W", num(s.inputW)},
                               {"phase_current_A", num(s.phaseCurrentA)}});
        racks.push_back({{"id", r.id},
                         {"gpus", r.gpus},
                         {"it_load_W", num(r.itLoadW)},
                         {"peak_load_W", num(r.peakLoadW)},
                         {"ac_direct_W", num(r.acDirectW)},
                         {"busbar_current_A", num(r.busbarCurrentA)},
                         {"busbar_rating_A", num(r.busbarRatingA)},
                         {"busbar_min_voltage_V", num(r.lowestVoltageV)},
                         {"busbar_max_voltage_V", num(r.highestVoltageV)},
                         {"capacity_n_W", num(r.capacityNW)},
                         {"capacity_n1_W", num(r.capacityN1W)},
                         {"capacity_shelf_loss_W", num(r.capacityShelfLossW)},
                         {"capacity_feed_loss_W", num(r.capacityFeedLossW)},
                         {"usable_W", num(r.usableW)},
                         {"fits", r.fits},
                         {"bbu_energy_J", num(r.bbuEnergyJ)},
                         {"bbu_holdup_s", num(r.bbuHoldupS)},
                         {"ac_input_W", num(r.acInputW)},
                         {"psu_loss_W", num(r.psuLossW)},
                         {"ac_phase_current_A", num(r.acPhaseCurrentA)},
                         {"ac_phase_current_feed_loss_A", num(r.acPhaseCurrentFeedLossA)},
                         {"whip_current_A", num(r.whipCurrentA)},
                         {"gpu_cap_to_fit_W", num(r.gpuCapToFitW)},
                         {"shelves", shelves}});
    }
    json rows = json::array(), pods = json::array(), halls = json::array();
    for (const auto& g : res.rows)
        rows.push_back(groupJson(g));
    for (const auto& g : res.pods)
        pods.push_back(groupJson(g));
    for (const auto& g : res.halls)
        halls.push_back(groupJson(g));
    std::size_t failing = 0;
    for (const auto& r : res.racks)
        failing += r.fits ? 0 : 1;
    json totals = groupJson(res.cluster);
    totals["racks_over_budget"] = failing;
    totals["suggested_gpu_cap_W"] = num(res.suggestedGpuCapW);
    totals["conversion_loss_W"] = num(res.cluster.psuLossW);
    return {{"racks", racks}, {"rows", rows}, {"pods", pods}, {"halls", halls}, {"totals", totals}};
}

void writePowerGroup(hid_t file, const power::PowerResult& res)
{
    H5Handle g(H5Gcreate2(file, "power", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!g.valid())
        throw std::runtime_error("HDF5 error while creating /power");
    H5Table t;
    const auto id = t.textColumn("id");
    const auto gpus = t.intColumn("gpus", "1");
    struct Col {
        std::size_t index;
        double power::RackPower::*field;
    };
    std::vector<Col> cols;
    auto real = [&](const char* name, const char* unit, double power::RackPower::*f) {
        cols.push_back({t.realColumn(name, unit), f});
    };
    real("it_load", "W", &power::RackPower::itLoadW);
    real("peak_load", "W", &power::RackPower::peakLoadW);
    real("ac_direct", "W", &power::RackPower::acDirectW);
    real("busbar_current", "A", &power::RackPower::busbarCurrentA);
    real("busbar_rating", "A", &power::RackPower::busbarRatingA);
    real("busbar_min_voltage", "V", &power::RackPower::lowestVoltageV);
    real("capacity_n", "W", &power::RackPower::capacityNW);
    real("capacity_n1", "W", &power::RackPower::capacityN1W);
    real("capacity_shelf_loss", "W", &power::RackPower::capacityShelfLossW);
    real("capacity_feed_loss", "W", &power::RackPower::capacityFeedLossW);
    real("bbu_energy", "J", &power::RackPower::bbuEnergyJ);
    real("bbu_holdup", "s", &power::RackPower::bbuHoldupS);
    real("ac_input", "W", &power::RackPower::acInputW);
    real("psu_loss", "W", &power::RackPower::psuLossW);
    real("ac_phase_current", "A", &power::RackPower::acPhaseCurrentA);
    real("whip_current", "A", &power::RackPower::whipCurrentA);
    real("gpu_cap_to_fit", "W", &power::RackPower::gpuCapToFitW);
    for (const power::RackPower& r : res.racks) {
        t.addRow();
        t.set(id, r.id);
        t.set(gpus, static_cast<long long>(r.gpus));
        for (const Col& c : cols)
            t.set(c.index, r.*(c.field));
    }
    t.write(g.get(), "racks");

    H5Table groups;
    const auto gl = groups.textColumn("level"), gid = groups.textColumn("id"), gr = groups.intColumn("racks", "1"),
               git = groups.realColumn("it_load", "W"), gpk = groups.realColumn("peak_load", "W"),
               gac = groups.realColumn("ac_input", "W"), gloss = groups.realColumn("psu_loss", "W");
    auto addGroups = [&](const char* level, const std::vector<power::GroupPower>& list) {
        for (const power::GroupPower& p : list) {
            groups.addRow();
            groups.set(gl, std::string(level));
            groups.set(gid, p.id);
            groups.set(gr, static_cast<long long>(p.racks));
            groups.set(git, p.itLoadW);
            groups.set(gpk, p.peakLoadW);
            groups.set(gac, p.acInputW);
            groups.set(gloss, p.psuLossW);
        }
    };
    addGroups("row", res.rows);
    addGroups("pod", res.pods);
    addGroups("hall", res.halls);
    addGroups("cluster", {res.cluster});
    groups.write(g.get(), "rollups");
    writeScalar(g.get(), "suggested_gpu_cap", res.suggestedGpuCapW, "W");
}

} // namespace rdt::analysis
