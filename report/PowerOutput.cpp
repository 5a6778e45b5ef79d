#include "report/PowerOutput.h"

#include "core/JsonNumber.h"

#include <cmath>
#include <stdexcept>

#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

namespace {

json groupJson(const power::GroupPower& g)
{
    return {{"id", g.id},
            {"racks", g.racks},
            {"racks_over_budget", g.racksOverBudget},
            {"it_load_W", jsonNumber(g.itLoadW)},
            {"modelled_load_W", jsonNumber(g.modelledLoadW)},
            {"nameplate_load_W", jsonNumber(g.nameplateLoadW)},
            {"peak_load_W", jsonNumber(g.peakLoadW)},
            {"unfed_load_W", jsonNumber(g.unfedLoadW)},
            {"ac_input_W", jsonNumber(g.acInputW)},
            {"psu_loss_W", jsonNumber(g.psuLossW)},
            {"chassis_conversion_loss_W", jsonNumber(g.conversionLossW)},
            {"cdu_W", jsonNumber(g.cduW)},
            {"cdu_modelled_W", jsonNumber(g.cduModelledW)}};
}

json adviceJson(const power::CapAdvice& a)
{
    return {{"needed", a.needed}, {"possible", a.possible}, {"gpu_cap_W", jsonNumber(a.capW)}};
}

json feedsJson(const power::RackPower& r)
{
    json out = json::array();
    for (const power::FeedPower& f : r.feeds)
        out.push_back({{"name", f.name},
                       {"available_W", jsonNumber(f.availableW)},
                       {"input_W", jsonNumber(f.inputW)},
                       {"worst_W", jsonNumber(f.worstW)},
                       {"fits", f.worstW <= f.availableW}});
    return out;
}

json capByRuleJson(const power::RackPower& r)
{
    json out = json::object();
    for (const auto& [rule, a] : r.capByRule)
        out[rule] = adviceJson(a);
    return out;
}

json clipsJson(const power::RackPower& r)
{
    json out = json::array();
    for (const power::ClipCurrent& c : r.clips)
        out.push_back({{"id", c.id},
                       {"power_W", jsonNumber(c.powerW)},
                       {"current_A", jsonNumber(c.currentA)},
                       {"rating_A", jsonNumber(r.clipRatingA)},
                       {"feed_lost", c.lostFeed.empty() ? json(nullptr) : json(c.lostFeed)},
                       {"fits", std::isnan(r.clipRatingA) || c.currentA <= r.clipRatingA}});
    return out;
}

json partJson(const power::PartPower& p)
{
    return {{"id", p.id},
            {"part", p.part},
            {"busbar", p.busbar},
            {"budget_W", jsonNumber(p.budgetW)},
            {"modelled_W", jsonNumber(p.modelledW)},
            {"nameplate_W", jsonNumber(p.nameplateW)},
            {"peak_W", jsonNumber(p.peakW)},
            {"gpu_W", jsonNumber(p.gpuW)},
            {"cpu_W", jsonNumber(p.cpuW)},
            {"nic_W", jsonNumber(p.nicW)},
            {"fan_W", jsonNumber(p.fanW)},
            {"base_W", jsonNumber(p.baseW)},
            {"conversion_loss_W", jsonNumber(p.conversionLossW)},
            {"fan_speed", jsonNumber(p.fanSpeed)},
            {"fan_speed_from_thermal", p.fanSpeedSolved}};
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
                               {"output_W", jsonNumber(s.outputW)},
                               {"load_fraction", jsonNumber(s.loadFraction)},
                               {"efficiency", jsonNumber(s.efficiency)},
                               {"input_W", jsonNumber(s.inputW)},
                               {"phase_current_A", jsonNumber(s.phaseCurrentA)},
                               {"whip_current_A", jsonNumber(s.whipCurrentA)},
                               {"whip_current_worst_A", jsonNumber(s.whipCurrentWorstA)},
                               {"whip_breaker_A", jsonNumber(s.whipBreakerA)}});
        json parts = json::array();
        for (const power::PartPower& p : r.parts)
            parts.push_back(partJson(p));
        racks.push_back({{"id", r.id},
                         {"gpus", r.gpus},
                         {"basis", std::string(core::powerBasisName(r.basis))},
                         {"it_load_W", jsonNumber(r.itLoadW)},
                         {"modelled_load_W", jsonNumber(r.modelledLoadW)},
                         {"nameplate_load_W", jsonNumber(r.nameplateLoadW)},
                         {"peak_load_W", jsonNumber(r.peakLoadW)},
                         {"fed", r.fed},
                         {"ac_direct_W", jsonNumber(r.acDirectW)},
                         {"busbar_current_A", jsonNumber(r.busbarCurrentA)},
                         {"busbar_rating_A", jsonNumber(r.busbarRatingA)},
                         {"busbar_current_voltage_V", jsonNumber(r.busbarVminV)},
                         {"clip_rating_A", jsonNumber(r.clipRatingA)},
                         {"max_clip_current_A", jsonNumber(r.maxClipCurrentA)},
                         {"clips", clipsJson(r)},
                         {"busbar_min_voltage_V", jsonNumber(r.lowestVoltageV)},
                         {"busbar_max_voltage_V", jsonNumber(r.highestVoltageV)},
                         {"capacity_n_W", jsonNumber(r.capacityNW)},
                         {"capacity_n1_W", jsonNumber(r.capacityN1W)},
                         {"rack_rating_n1_W", jsonNumber(r.rackRatingN1W)},
                         {"capacity_shelf_loss_W", jsonNumber(r.capacityShelfLossW)},
                         {"capacity_feed_loss_W", jsonNumber(r.capacityFeedLossW)},
                         {"usable_W", jsonNumber(r.usableW)},
                         {"fits", r.fits},
                         {"failures", r.failures},
                         {"cap_advice",
                          {{"n1", adviceJson(r.capN1)},
                           {"shelf_loss", adviceJson(r.capShelfLoss)},
                           {"feed_loss", adviceJson(r.capFeedLoss)},
                           {"busbar", adviceJson(r.capBusbar)},
                           {"normal", adviceJson(r.capNormal)},
                           {"by_rule", capByRuleJson(r)}}},
                         {"cap_can_fit", r.capCanFit},
                         {"notes", r.notes},
                         {"bbu_energy_J", jsonNumber(r.bbuEnergyJ)},
                         {"bbu_holdup_s", jsonNumber(r.bbuHoldupS)},
                         {"ac_input_W", jsonNumber(r.acInputW)},
                         {"psu_loss_W", jsonNumber(r.psuLossW)},
                         {"ac_phase_current_A", jsonNumber(r.acPhaseCurrentA)},
                         {"ac_phase_current_feed_loss_A", jsonNumber(r.acPhaseCurrentFeedLossA)},
                         {"whip_current_A", jsonNumber(r.whipCurrentA)},
                         {"whip_current_normal_A", jsonNumber(r.whipCurrentNormalA)},
                         {"whip_limit_A", jsonNumber(r.whipLimitA)},
                         {"bbu_discharge_W", jsonNumber(r.bbuDischargeW)},
                         {"chassis_conversion_loss_W", jsonNumber(r.conversionLossW)},
                         {"cdu_W", jsonNumber(r.cduW)},
                         {"cdu_modelled_W", jsonNumber(r.cduModelledW)},
                         {"gpu_cap_to_fit_W", jsonNumber(r.gpuCapToFitW)},
                         {"shelves", shelves},
                         {"feeds", feedsJson(r)},
                         {"parts", parts}});
    }
    json rows = json::array(), pods = json::array(), halls = json::array();
    for (const auto& g : res.rows)
        rows.push_back(groupJson(g));
    for (const auto& g : res.pods)
        pods.push_back(groupJson(g));
    for (const auto& g : res.halls)
        halls.push_back(groupJson(g));
    json totals = groupJson(res.cluster);
    totals["suggested_gpu_cap_W"] = jsonNumber(res.suggestedGpuCapW);
    json cdus = json::array();
    for (const power::CduPower& c : res.cdus)
        cdus.push_back({{"loop", c.loop},
                        {"part", c.part},
                        {"units", c.units},
                        {"nameplate_W", jsonNumber(c.nameplateW)},
                        {"modelled_W", jsonNumber(c.modelledW)},
                        {"budget_W", jsonNumber(c.budgetW)}});
    return {{"basis", std::string(core::powerBasisName(res.basis))},
            {"cdus", cdus},
            {"fan_power_from_thermal", res.fanSpeedsSolved},
            {"racks", racks},
            {"rows", rows},
            {"pods", pods},
            {"halls", halls},
            {"totals", totals}};
}

namespace {

/// Columns of one struct written as reals: name, unit, member.
template <typename T>
struct RealColumns {
    H5Table& table;
    std::vector<std::pair<std::size_t, double T::*>> cols;
    void add(const char* name, const char* unit, double T::*f) { cols.push_back({table.realColumn(name, unit), f}); }
    void set(const T& row)
    {
        for (const auto& [index, field] : cols)
            table.set(index, row.*field);
    }
};

void writeRacks(hid_t g, const power::PowerResult& res)
{
    H5Table t;
    const auto id = t.textColumn("id"), gpus = t.intColumn("gpus", "1"), fed = t.intColumn("fed", "1"),
               fits = t.intColumn("fits", "1"), failures = t.textColumn("failing_rules");
    RealColumns<power::RackPower> c{t, {}};
    c.add("it_load", "W", &power::RackPower::itLoadW);
    c.add("modelled_load", "W", &power::RackPower::modelledLoadW);
    c.add("nameplate_load", "W", &power::RackPower::nameplateLoadW);
    c.add("peak_load", "W", &power::RackPower::peakLoadW);
    c.add("ac_direct", "W", &power::RackPower::acDirectW);
    c.add("busbar_current", "A", &power::RackPower::busbarCurrentA);
    c.add("busbar_rating", "A", &power::RackPower::busbarRatingA);
    c.add("busbar_min_voltage", "V", &power::RackPower::lowestVoltageV);
    // The voltage busbar_current is judged at (the rack type's busbar_min_voltage), as JSON's
    // busbar_current_voltage_V: without it a reader's P / V gave 444 A for the 487 A reported.
    c.add("busbar_current_voltage", "V", &power::RackPower::busbarVminV);
    c.add("clip_rating", "A", &power::RackPower::clipRatingA);
    c.add("max_clip_current", "A", &power::RackPower::maxClipCurrentA);
    c.add("capacity_n", "W", &power::RackPower::capacityNW);
    c.add("capacity_n1", "W", &power::RackPower::capacityN1W);
    c.add("rack_rating_n1", "W", &power::RackPower::rackRatingN1W);
    c.add("capacity_shelf_loss", "W", &power::RackPower::capacityShelfLossW);
    c.add("capacity_feed_loss", "W", &power::RackPower::capacityFeedLossW);
    c.add("usable", "W", &power::RackPower::usableW);
    c.add("bbu_energy", "J", &power::RackPower::bbuEnergyJ);
    c.add("bbu_holdup", "s", &power::RackPower::bbuHoldupS);
    c.add("ac_input", "W", &power::RackPower::acInputW);
    c.add("psu_loss", "W", &power::RackPower::psuLossW);
    c.add("chassis_conversion_loss", "W", &power::RackPower::conversionLossW);
    c.add("cdu", "W", &power::RackPower::cduW);
    c.add("cdu_modelled", "W", &power::RackPower::cduModelledW);
    c.add("ac_phase_current", "A", &power::RackPower::acPhaseCurrentA);
    c.add("whip_current", "A", &power::RackPower::whipCurrentA);
    c.add("whip_current_normal", "A", &power::RackPower::whipCurrentNormalA);
    c.add("gpu_cap_to_fit", "W", &power::RackPower::gpuCapToFitW);
    const auto capN1 = t.realColumn("gpu_cap_for_n1", "W"), capShelf = t.realColumn("gpu_cap_for_shelf_loss", "W"),
               capFeed = t.realColumn("gpu_cap_for_feed_loss", "W"), capBus = t.realColumn("gpu_cap_for_busbar", "W"),
               capNormal = t.realColumn("gpu_cap_normal_operation", "W");
    for (const power::RackPower& r : res.racks) {
        t.addRow();
        t.set(id, r.id);
        t.set(gpus, static_cast<long long>(r.gpus));
        t.set(fed, static_cast<long long>(r.fed ? 1 : 0));
        t.set(fits, static_cast<long long>(r.fits ? 1 : 0));
        std::string f;
        for (const std::string& rule : r.failures)
            f += (f.empty() ? "" : " ") + rule;
        t.set(failures, f);
        c.set(r);
        t.set(capN1, r.capN1.capW);
        t.set(capShelf, r.capShelfLoss.capW);
        t.set(capFeed, r.capFeedLoss.capW);
        t.set(capBus, r.capBusbar.capW);
        t.set(capNormal, r.capNormal.capW);
    }
    t.write(g, "racks");
}

/// Every powered part (chassis, switches): its draw on each basis and the modelled breakdown.
void writeParts(hid_t g, const power::PowerResult& res)
{
    H5Table t;
    const auto rack = t.textColumn("rack"), id = t.textColumn("id"), part = t.textColumn("part"),
               busbar = t.intColumn("busbar", "1"), solved = t.intColumn("fan_speed_from_thermal", "1");
    RealColumns<power::PartPower> c{t, {}};
    c.add("budget", "W", &power::PartPower::budgetW);
    c.add("modelled", "W", &power::PartPower::modelledW);
    c.add("nameplate", "W", &power::PartPower::nameplateW);
    c.add("peak", "W", &power::PartPower::peakW);
    c.add("gpu", "W", &power::PartPower::gpuW);
    c.add("cpu", "W", &power::PartPower::cpuW);
    c.add("nic", "W", &power::PartPower::nicW);
    c.add("fan", "W", &power::PartPower::fanW);
    c.add("base", "W", &power::PartPower::baseW);
    c.add("conversion_loss", "W", &power::PartPower::conversionLossW);
    c.add("fan_speed", "1", &power::PartPower::fanSpeed);
    for (const power::RackPower& r : res.racks)
        for (const power::PartPower& p : r.parts) {
            t.addRow();
            t.set(rack, r.id);
            t.set(id, p.id);
            t.set(part, p.part);
            t.set(busbar, static_cast<long long>(p.busbar ? 1 : 0));
            t.set(solved, static_cast<long long>(p.fanSpeedSolved ? 1 : 0));
            c.set(p);
        }
    t.write(g, "parts");
}

/// Every busbar clip (shelf outputs, busbar-fed parts) at the bar's minimum steady voltage.
void writeClips(hid_t g, const power::PowerResult& res)
{
    H5Table t;
    const auto rack = t.textColumn("rack"), id = t.textColumn("id"), power = t.realColumn("power", "W"),
               current = t.realColumn("current", "A"), rating = t.realColumn("rating", "A"),
               fits = t.intColumn("fits", "1"), lost = t.textColumn("feed_lost");
    for (const power::RackPower& r : res.racks)
        for (const power::ClipCurrent& c : r.clips) {
            t.addRow();
            t.set(rack, r.id);
            t.set(id, c.id);
            t.set(lost, c.lostFeed);
            t.set(power, c.powerW);
            t.set(current, c.currentA);
            t.set(rating, r.clipRatingA);
            t.set(fits, static_cast<long long>(std::isnan(r.clipRatingA) || c.currentA <= r.clipRatingA ? 1 : 0));
        }
    t.write(g, "clips");
}

void writeShelves(hid_t g, const power::PowerResult& res)
{
    H5Table t;
    const auto rack = t.textColumn("rack"), id = t.textColumn("id"), feed = t.textColumn("feed"),
               modules = t.intColumn("modules", "1");
    RealColumns<power::ShelfPower> c{t, {}};
    c.add("rating", "W", &power::ShelfPower::ratingW);
    c.add("output", "W", &power::ShelfPower::outputW);
    c.add("load_fraction", "1", &power::ShelfPower::loadFraction);
    c.add("efficiency", "1", &power::ShelfPower::efficiency);
    c.add("input", "W", &power::ShelfPower::inputW);
    c.add("phase_current", "A", &power::ShelfPower::phaseCurrentA);
    c.add("whip_current", "A", &power::ShelfPower::whipCurrentA);
    c.add("whip_current_worst", "A", &power::ShelfPower::whipCurrentWorstA);
    c.add("whip_breaker", "A", &power::ShelfPower::whipBreakerA);
    for (const power::RackPower& r : res.racks)
        for (const power::ShelfPower& sh : r.shelves) {
            t.addRow();
            t.set(rack, r.id);
            t.set(id, sh.id);
            t.set(feed, sh.feed);
            t.set(modules, static_cast<long long>(sh.modules));
            c.set(sh);
        }
    t.write(g, "shelves");
}

void writeRollups(hid_t g, const power::PowerResult& res)
{
    H5Table t;
    const auto level = t.textColumn("level"), id = t.textColumn("id"), racks = t.intColumn("racks", "1"),
               over = t.intColumn("racks_over_budget", "1");
    RealColumns<power::GroupPower> c{t, {}};
    c.add("it_load", "W", &power::GroupPower::itLoadW);
    c.add("modelled_load", "W", &power::GroupPower::modelledLoadW);
    c.add("nameplate_load", "W", &power::GroupPower::nameplateLoadW);
    c.add("peak_load", "W", &power::GroupPower::peakLoadW);
    c.add("unfed_load", "W", &power::GroupPower::unfedLoadW);
    c.add("ac_input", "W", &power::GroupPower::acInputW);
    c.add("psu_loss", "W", &power::GroupPower::psuLossW);
    c.add("chassis_conversion_loss", "W", &power::GroupPower::conversionLossW);
    c.add("cdu", "W", &power::GroupPower::cduW);
    c.add("cdu_modelled", "W", &power::GroupPower::cduModelledW);
    auto add = [&](const char* name, const std::vector<power::GroupPower>& list) {
        for (const power::GroupPower& p : list) {
            t.addRow();
            t.set(level, std::string(name));
            t.set(id, p.id);
            t.set(racks, static_cast<long long>(p.racks));
            t.set(over, static_cast<long long>(p.racksOverBudget));
            c.set(p);
        }
    };
    add("row", res.rows);
    add("pod", res.pods);
    add("hall", res.halls);
    add("cluster", {res.cluster});
    t.write(g, "rollups");
}

/// `/power/cdus`: each liquid loop's CDUs, facility AC beside the racks.
void writeCdus(hid_t g, const power::PowerResult& res)
{
    if (res.cdus.empty())
        return;
    H5Table t;
    const auto loop = t.textColumn("loop"), part = t.textColumn("part"), units = t.intColumn("units", "1"),
               nameplate = t.realColumn("nameplate", "W"), modelled = t.realColumn("modelled", "W"),
               budget = t.realColumn("budget", "W");
    for (const power::CduPower& c : res.cdus) {
        t.addRow();
        t.set(loop, c.loop);
        t.set(part, c.part);
        t.set(units, static_cast<long long>(c.units));
        t.set(nameplate, c.nameplateW);
        t.set(modelled, c.modelledW);
        t.set(budget, c.budgetW);
    }
    t.write(g, "cdus");
}

} // namespace

void writePowerGroup(hid_t file, const power::PowerResult& res)
{
    H5Handle g = createGroup(file, "power");
    writeStringAttribute(g.get(), "basis", std::string(core::powerBasisName(res.basis)));
    writeRacks(g.get(), res);
    writeParts(g.get(), res);
    writeShelves(g.get(), res);
    writeClips(g.get(), res);
    writeRollups(g.get(), res);
    writeCdus(g.get(), res);
    writeScalar(g.get(), "suggested_gpu_cap", res.suggestedGpuCapW, "W");
}

} // namespace rdt::report
