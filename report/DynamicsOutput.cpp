#include "report/DynamicsOutput.h"

#include <cmath>
#include <cstdio>

#include "core/JsonNumber.h"
#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

namespace {

/// 24576 → "24,576".
std::string grouped(long long n)
{
    std::string s = std::to_string(n), out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i > 0 && (s.size() - i) % 3 == 0)
            out += ',';
        out += s[i];
    }
    return out;
}

/// The summary line's powers: 3 digits (analysis::powerText).
std::string watts(double w, const char* per = "")
{
    return analysis::powerText(w, 3, "W", per);
}

/// Energy in GJ from 1 GJ, MJ from 1 MJ, else kJ.
std::string joules(double j)
{
    const double a = std::abs(j);
    char b[48];
    std::snprintf(b, sizeof b, a >= 1e9 ? "%.3g GJ" : a >= 1e6 ? "%.3g MJ" : "%.3g kJ",
                  a >= 1e9 ? j / 1e9 : a >= 1e6 ? j / 1e6 : j / 1e3);
    return b;
}

/// A storage's capacity as it is rated: MWh from 1 MWh, kWh from 1 kWh, else joules.
std::string capacity(double j)
{
    if (std::abs(j) < 3.6e6)
        return joules(j);
    char b[48];
    std::snprintf(b, sizeof b, std::abs(j) >= 3.6e9 ? "%.3g MWh" : "%.3g kWh", std::abs(j) >= 3.6e9 ? j / 3.6e9 : j / 3.6e6);
    return b;
}

} // namespace

json dynamicsJson(const analysis::DynamicsResult& r)
{
    if (!r.declared)
        return nullptr;
    if (!r.notChecked.empty())
        return {{"not_checked", r.notChecked}};
    json levels = json::array(), bands = json::array();
    for (const analysis::DynamicsLevel& l : r.levels)
        levels.push_back({{"id", l.id},
                          {"kind", l.kind},
                          {"gpus", l.gpus},
                          {"high_W", jsonNumber(l.highW)},
                          {"low_W", jsonNumber(l.lowW)},
                          {"idle_W", jsonNumber(l.idleW)},
                          {"swing_W", jsonNumber(l.swingW())},
                          {"running_swing_W", jsonNumber(l.runningSwingW)}});
    for (const analysis::DynamicsBand& b : r.bands)
        bands.push_back({{"from_Hz", b.loHz},
                         {"to_Hz", b.hiHz},
                         {"share", jsonNumber(b.share)},
                         {"rms_W", jsonNumber(b.rmsW)},
                         {"grid", b.grid}});
    json bbu = json::array();
    for (const analysis::DynamicsBbu& b : r.bbu)
        bbu.push_back({{"rack", b.rack},
                       {"swing_W", jsonNumber(b.swingW)},
                       {"cycle_J", jsonNumber(b.cycleJ)},
                       {"store_J", jsonNumber(b.storeJ)},
                       {"cycles_per_day", jsonNumber(b.cyclesPerDay)},
                       {"discharge_W", jsonNumber(b.dischargeW)},
                       {"discharge_ok", b.dischargeOk},
                       {"charge_need_W", jsonNumber(b.chargeNeedW)},
                       {"charge_W", jsonNumber(b.chargeW)},
                       {"round_trip_efficiency", jsonNumber(b.efficiency)},
                       {"round_trip_loss_W", jsonNumber(b.lossW)},
                       {"lowest_charge", jsonNumber(b.socLow)},
                       {"holdup_left_s", jsonNumber(b.holdupLeftS)},
                       {"ride_through_s", jsonNumber(b.rideThroughS)}});
    json psu = nullptr, store = nullptr, resonances = json::array(), risky = json::array();
    if (!std::isnan(r.psuStorageJ))
        psu = {{"storage_per_gpu_J", jsonNumber(r.psuStorageJ)},
               {"edge_s", jsonNumber(r.psuEdgeS)},
               {"share_of_flattening", jsonNumber(r.psuShare)},
               {"ride_through_s", jsonNumber(r.psuRideS)}};
    if (r.siteStorage) {
        const analysis::DynamicsSiteStorage& st = r.store;
        store = {{"power_W", jsonNumber(st.powerW)},       {"energy_J", jsonNumber(st.energyJ)},
                 {"cutoff_Hz", jsonNumber(st.cutoffHz)},    {"efficiency", jsonNumber(st.efficiency)},
                 {"peak_W", jsonNumber(st.peakW)},          {"demand_W", jsonNumber(st.demandW)},
                 {"energy_needed_J", jsonNumber(st.neededJ)}, {"energy_span_J", jsonNumber(st.spanJ)},
                 {"energy_drift_J", jsonNumber(st.driftJ)}, {"loss_J", jsonNumber(st.lossJ)},
                 {"power_limited", st.powerLimited},        {"energy_limited", st.energyLimited},
                 {"site_swing_W", jsonNumber(st.loadSwingW)}};
    }
    for (const analysis::DynamicsResonance& x : r.resonances)
        resonances.push_back({{"mode_Hz", x.modeHz},
                              {"damping", x.damping},
                              {"harmonic", x.harmonic},
                              {"harmonic_Hz", jsonNumber(x.harmonicHz)},
                              {"amplitude_W", jsonNumber(x.amplitudeW)}});
    for (const auto& [a, b] : r.riskyPeriods)
        risky.push_back({{"from_s", jsonNumber(a)}, {"to_s", jsonNumber(b)}});
    json phases = json::array();
    for (const double p : r.jobPhaseS)
        phases.push_back(jsonNumber(p));
    return {{"gpus", r.gpus},
            {"jobs", r.jobs},
            {"job_phases_s", phases},
            {"bbu_smoothing", bbu},
            {"psu_storage", psu},
            {"site_storage", store},
            {"connection_swing_W", jsonNumber(r.poiSwingW)},
            {"checkpoint", {{"stall_s", jsonNumber(r.checkpointStallS)},
                            {"interval_s", jsonNumber(r.checkpointIntervalS)},
                            {"at_s", jsonNumber(r.checkpointAtS)},
                            {"drop_W", jsonNumber(r.checkpointDropW)},
                            {"note", r.checkpointNote}}},
            {"resonances", resonances},
            {"risky_periods", risky},
            {"iteration_s", r.iterationS},
            {"iteration_from", r.iterationFrom},
            {"compute_share", r.computeShare},
            {"compute_share_from", r.computeShareFrom},
            {"iteration_split",
             r.split.dataParallel > 0
                 ? nlohmann::json{{"tensor_x_pipeline", r.split.replicaGpus},
                                  {"data_parallel", r.split.dataParallel},
                                  {"gradient_sync_s", jsonNumber(r.split.syncS)},
                                  {"reduce_scatter_busbw_GBps", jsonNumber(r.split.reduceScatter.busbwGBps)},
                                  {"all_gather_busbw_GBps", jsonNumber(r.split.allGather.busbwGBps)},
                                  {"exposed_sync_s", jsonNumber(r.split.exposedSyncS)},
                                  {"pipeline_bubble_share", jsonNumber(r.split.bubbleShare)},
                                  {"pipeline_bubble_s", jsonNumber(r.split.bubbleS)},
                                  {"compute_s", jsonNumber(r.split.computeS)}}
                 : nlohmann::json(nullptr)},
            {"edge_s", r.edgeS},
            {"start_s", r.startS},
            {"gpu_compute_W", jsonNumber(r.computeW)},
            {"gpu_communication_W", jsonNumber(r.commW)},
            {"gpu_communication_catalog_W", jsonNumber(r.commCatalogW)},
            {"gpu_floor_W", jsonNumber(r.floorW)},
            {"gpu_ramp_limited", r.rampLimited},
            {"levels", levels},
            {"mean_W", jsonNumber(r.meanW)},
            {"fundamental_Hz", jsonNumber(r.fundamentalHz)},
            {"fundamental_W", jsonNumber(r.fundamentalW)},
            {"bands", bands},
            {"ramp_1s_W_per_s", jsonNumber(r.ramp1sWps)},
            {"ramp_1min_W_per_s", jsonNumber(r.ramp1minWps)},
            {"ramp_5min_W_per_s", jsonNumber(r.ramp5minWps)},
            {"ramp_grid_window_W_per_s", jsonNumber(r.rampGridWps)},
            {"voltage_change", jsonNumber(r.voltageChange)},
            {"unmitigated_swing_W", jsonNumber(r.unmitigatedSwingW)},
            {"extra_energy_share", jsonNumber(r.extraEnergyShare)},
            {"extra_energy_MWh_per_year", jsonNumber(r.extraMWhPerYear)},
            {"pue", jsonNumber(r.pue)},
            {"throughput_lost_share", jsonNumber(r.throughputLost)},
            {"ramp_throughput_factor", jsonNumber(r.rampThroughputFactor)},
            // The job's energy for the same training work: its power over the throughput it keeps.
            {"extra_energy_per_work_share", jsonNumber(r.energyPerWorkShare())}};
}

void writeDynamicsGroup(hid_t file, const analysis::DynamicsResult& r)
{
    if (!r.declared || !r.notChecked.empty())
        return;
    H5Handle g = createGroup(file, "dynamics");
    writeScalar(g.get(), "iteration", r.iterationS, "s");
    writeScalar(g.get(), "compute_share", r.computeShare, "1");
    if (r.split.dataParallel > 0) {
        // compute_share: auto — the split it comes from.
        writeScalar(g.get(), "gradient_sync", r.split.syncS, "s");
        writeScalar(g.get(), "exposed_sync", r.split.exposedSyncS, "s");
        writeScalar(g.get(), "pipeline_bubble", r.split.bubbleS, "s");
        writeScalar(g.get(), "compute_time", r.split.computeS, "s");
        writeScalar(g.get(), "data_parallel", static_cast<double>(r.split.dataParallel), "1");
    }
    writeScalar(g.get(), "jobs", static_cast<double>(r.jobs), "1");
    writeArray(g.get(), "job_phases", r.jobPhaseS, {static_cast<hsize_t>(r.jobPhaseS.size())}, "s");
    writeScalar(g.get(), "gpu_compute", r.computeW, "W");
    writeScalar(g.get(), "gpu_communication", r.commW, "W");
    writeScalar(g.get(), "fundamental_frequency", r.fundamentalHz, "Hz");
    writeScalar(g.get(), "fundamental", r.fundamentalW, "W");
    writeScalar(g.get(), "ramp_1s", r.ramp1sWps, "W/s");
    writeScalar(g.get(), "ramp_1min", r.ramp1minWps, "W/s");
    writeScalar(g.get(), "ramp_5min", r.ramp5minWps, "W/s");
    writeScalar(g.get(), "voltage_change", r.voltageChange, "1");
    writeScalar(g.get(), "extra_energy_share", r.extraEnergyShare, "1");
    if (std::isfinite(r.extraMWhPerYear)) {
        writeScalar(g.get(), "extra_energy_per_year", r.extraMWhPerYear, "MWh");
        writeScalar(g.get(), "pue", r.pue, "1");
    }
    writeScalar(g.get(), "throughput_lost_share", r.throughputLost, "1");
    writeScalar(g.get(), "ramp_throughput_factor", r.rampThroughputFactor, "1");
    writeScalar(g.get(), "extra_energy_per_work_share", r.energyPerWorkShare(), "1");
    writeScalar(g.get(), "time_step", r.stepS, "s");
    writeScalar(g.get(), "job_start", r.startAtS, "s");
    writeArray(g.get(), "site_power", r.siteW, {static_cast<hsize_t>(r.siteW.size())}, "W");
    writeScalar(g.get(), "connection_swing", r.poiSwingW, "W");
    if (!std::isnan(r.checkpointStallS)) {
        writeScalar(g.get(), "checkpoint_stall", r.checkpointStallS, "s");
        writeScalar(g.get(), "checkpoint_interval", r.checkpointIntervalS, "s");
        writeScalar(g.get(), "checkpoint_at", r.checkpointAtS, "s");
        writeScalar(g.get(), "checkpoint_drop", r.checkpointDropW, "W");
    }
    if (!std::isnan(r.psuStorageJ)) {
        writeScalar(g.get(), "psu_storage_per_gpu", r.psuStorageJ, "J");
        writeScalar(g.get(), "psu_edge", r.psuEdgeS, "s");
        writeScalar(g.get(), "psu_share_of_flattening", r.psuShare, "1");
        writeScalar(g.get(), "psu_ride_through", r.psuRideS, "s");
    }
    if (r.siteStorage) {
        H5Handle st = createGroup(g.get(), "site_storage");
        writeScalar(st.get(), "power", r.store.powerW, "W");
        writeScalar(st.get(), "energy", r.store.energyJ, "J");
        writeScalar(st.get(), "cutoff", r.store.cutoffHz, "Hz");
        writeScalar(st.get(), "efficiency", r.store.efficiency, "1");
        writeScalar(st.get(), "peak", r.store.peakW, "W");
        writeScalar(st.get(), "demand", r.store.demandW, "W");
        writeScalar(st.get(), "energy_needed", r.store.neededJ, "J");
        writeScalar(st.get(), "energy_span", r.store.spanJ, "J");
        writeScalar(st.get(), "energy_drift", r.store.driftJ, "J");
        writeScalar(st.get(), "loss", r.store.lossJ, "J");
        writeScalar(st.get(), "site_swing", r.store.loadSwingW, "W");
        writeArray(st.get(), "site_power_behind", r.loadW, {static_cast<hsize_t>(r.loadW.size())}, "W");
    }
    if (!r.riskyPeriods.empty() || !r.resonances.empty()) {
        H5Table res;
        const auto mode = res.realColumn("mode", "Hz"), damping = res.realColumn("damping", "1"),
                   harmonic = res.intColumn("harmonic", "1"), at = res.realColumn("frequency", "Hz"),
                   amp = res.realColumn("amplitude", "W");
        for (const analysis::DynamicsResonance& x : r.resonances) {
            res.addRow();
            res.set(mode, x.modeHz);
            res.set(damping, x.damping);
            res.set(harmonic, static_cast<long long>(x.harmonic));
            res.set(at, x.harmonicHz);
            res.set(amp, x.amplitudeW);
        }
        res.write(g.get(), "resonances");
        H5Table periods;
        const auto from = periods.realColumn("from", "s"), to = periods.realColumn("to", "s");
        for (const auto& [a, b] : r.riskyPeriods) {
            periods.addRow();
            periods.set(from, a);
            periods.set(to, b);
        }
        periods.write(g.get(), "risky_periods");
    }
    writeScalar(g.get(), "frequency_step", r.spectrumStepHz, "Hz");
    writeArray(g.get(), "spectrum", r.spectrumW, {static_cast<hsize_t>(r.spectrumW.size())}, "W");
    H5Table levels;
    const auto id = levels.textColumn("id"), kind = levels.textColumn("kind"), gpus = levels.intColumn("gpus", "1"),
               high = levels.realColumn("high", "W"), low = levels.realColumn("low", "W"),
               idle = levels.realColumn("idle", "W"), swing = levels.realColumn("swing", "W"),
               running = levels.realColumn("running_swing", "W");
    for (const analysis::DynamicsLevel& l : r.levels) {
        levels.addRow();
        levels.set(id, l.id);
        levels.set(kind, l.kind);
        levels.set(gpus, static_cast<long long>(l.gpus));
        levels.set(high, l.highW);
        levels.set(low, l.lowW);
        levels.set(idle, l.idleW);
        levels.set(swing, l.swingW());
        levels.set(running, l.runningSwingW);
    }
    levels.write(g.get(), "levels");
    H5Table bands;
    const auto lo = bands.realColumn("from", "Hz"), hi = bands.realColumn("to", "Hz"),
               share = bands.realColumn("share", "1"), rms = bands.realColumn("rms", "W"),
               grid = bands.intColumn("grid", "1");
    for (const analysis::DynamicsBand& b : r.bands) {
        bands.addRow();
        bands.set(lo, b.loHz);
        bands.set(hi, b.hiHz);
        bands.set(share, b.share);
        bands.set(rms, b.rmsW);
        bands.set(grid, static_cast<long long>(b.grid ? 1 : 0));
    }
    bands.write(g.get(), "bands");
}

std::string dynamicsSummaryText(const analysis::DynamicsResult& r)
{
    if (!r.declared)
        return {};
    if (!r.notChecked.empty())
        return "dynamics not checked: " + r.notChecked + "\n";
    const analysis::DynamicsLevel& site = r.levels.front();
    char line[640];
    double inBand = 0;
    for (const analysis::DynamicsBand& b : r.bands)
        if (!b.grid)
            inBand += b.share;
    // Independent jobs: the site's swing is its running trace's, beside the lockstep envelope.
    // The swing is the running trace's (JSON's running_swing_W): ramp limits can keep it from its
    // levels, and then the line says so rather than give the levels' difference as the swing.
    char jobs[48] = "in lockstep", lockstep[64] = "";
    const std::string swing = watts(site.runningSwingW);
    if (r.jobs > 1) {
        std::snprintf(jobs, sizeof jobs, "in %d independent jobs", r.jobs);
        std::snprintf(lockstep, sizeof lockstep, "%s in lockstep, ", watts(site.swingW()).c_str());
    } else if (site.runningSwingW < site.swingW() * (1 - 1e-3)) {
        std::snprintf(lockstep, sizeof lockstep, "short of its levels, ");
    }
    std::snprintf(line, sizeof line,
                  "dynamics %s GPUs %s, %.3g s iterations at %.0f %% compute (GPU %.0f W / %.0f W): site "
                  "swings %s (%s%s to %s AC), fundamental%s %s at %.3g Hz, %.1f %% of its energy in 0.1-20 Hz; ramps "
                  "%s over 1 s, %s over 1 min\n",
                  grouped(r.gpus).c_str(), jobs, r.iterationS, r.computeShare * 100, r.computeW, r.commW,
                  swing.c_str(), lockstep, watts(site.lowW).c_str(), watts(site.highW).c_str(),
                  r.siteStorage ? " at the connection" : "", watts(r.fundamentalW).c_str(), r.fundamentalHz, inBand * 100, watts(r.ramp1sWps, "/s").c_str(),
                  watts(r.ramp1minWps * 60, "/min").c_str());
    std::string out = line;
    // The racks the battery shelves smooth (those with shelves strong enough), the most cycled named.
    const analysis::DynamicsBbu* worst = nullptr;
    std::size_t smoothed = 0;
    for (const analysis::DynamicsBbu& b : r.bbu) {
        if (!std::isfinite(b.cyclesPerDay) || !b.dischargeOk)
            continue;
        ++smoothed;
        if (!worst || b.cyclesPerDay > worst->cyclesPerDay)
            worst = &b;
    }
    if (!r.bbu.empty()) {
        const analysis::DynamicsBbu* held = nullptr;
        for (const analysis::DynamicsBbu& b : r.bbu)
            if (std::isfinite(b.holdupLeftS) && (!held || b.holdupLeftS < held->holdupLeftS))
                held = &b;
        char hold[160] = "";
        if (held)
            std::snprintf(hold, sizeof hold, "; lowest charge %.3g %%, leaving %.3g s of hold-up (%s; ride-through %.3g s)",
                          held->socLow * 100, held->holdupLeftS, held->rack.c_str(), held->rideThroughS);
        if (worst)
            std::snprintf(line, sizeof line,
                          "         battery shelves smooth %zu of %zu racks: %s a cycle, up to %.4g equivalent full "
                          "cycles a day (%s)%s\n",
                          smoothed, r.bbu.size(), joules(worst->cycleJ).c_str(), worst->cyclesPerDay,
                          worst->rack.c_str(), hold);
        else
            std::snprintf(line, sizeof line, "         battery shelves smooth none of %zu racks (none has shelves "
                                             "strong enough)\n",
                          r.bbu.size());
        out += line;
    }
    if (!r.iterationFrom.empty())
        out += "         iteration from the workload: " + r.iterationFrom + "\n";
    if (!r.computeShareFrom.empty())
        out += "         compute share from the workload's layout: " + r.computeShareFrom + "\n";
    if (!std::isnan(r.checkpointStallS)) {
        std::snprintf(line, sizeof line,
                      "         checkpoint stall %.3g s every %.3g min (the workload's checkpoint model): the site drops "
                      "%s for it, at %.0f s in the trace\n",
                      r.checkpointStallS, r.checkpointIntervalS / 60, watts(r.checkpointDropW).c_str(), r.checkpointAtS);
        out += line;
    } else if (!r.checkpointNote.empty()) {
        out += "         no checkpoint stall: " + r.checkpointNote + "\n";
    }
    if (!std::isnan(r.psuStorageJ)) {
        char share[64] = "nothing to flatten (the job does not swing)";
        if (!std::isnan(r.psuShare))
            std::snprintf(share, sizeof share, "%.3g %% of what would flatten the swing", r.psuShare * 100);
        std::snprintf(line, sizeof line,
                      "         PSU storage %.3g J a GPU: the supplies' edges take %.3g ms; %s, %.3g ms of a GPU's "
                      "compute power\n",
                      r.psuStorageJ, r.psuEdgeS * 1e3, share, r.psuRideS * 1e3);
        out += line;
    }
    if (r.siteStorage) {
        const analysis::DynamicsSiteStorage& st = r.store;
        std::snprintf(line, sizeof line,
                      "         site storage %s / %s above %.3g Hz: the connection swings %s of the site's %s; "
                      "asked %s, needs %s, drift %s over the job, %s lost%s\n",
                      watts(st.powerW).c_str(), capacity(st.energyJ).c_str(), st.cutoffHz, watts(r.poiSwingW).c_str(),
                      watts(st.loadSwingW).c_str(), watts(st.demandW).c_str(), joules(st.neededJ).c_str(),
                      joules(st.driftJ).c_str(), joules(st.lossJ).c_str(),
                      st.powerLimited || st.energyLimited ? " (at its limits)" : "");
        out += line;
    }
    if (!r.resonances.empty() || !r.riskyPeriods.empty()) {
        std::string periods;
        // Rounded outward at four figures, so that a period just outside a printed range is safe
        // (nearest rounding printed 2.857 as 2.86, inside the band).
        const auto outward = [](double v, bool up) {
            const double scale = std::pow(10.0, 3 - std::floor(std::log10(v)));
            return (up ? std::ceil(v * scale) : std::floor(v * scale)) / scale;
        };
        for (const auto& [a, b] : r.riskyPeriods) {
            std::snprintf(line, sizeof line, "%s%.4g-%.4g s", periods.empty() ? "" : ", ", outward(a, false),
                          outward(b, true));
            periods += line;
        }
        // The list may be longer than a line buffer: appended, not formatted.
        std::snprintf(line, sizeof line, "         grid modes: %zu harmonic(s) of this iteration in a mode; risky "
                                         "iterations ",
                      r.resonances.size());
        out += line;
        out += periods.empty() ? "none from 0.2 s to 60 s" : periods;
        out += "\n";
    }
    if (r.mitigated) {
        std::string how;
        if (!std::isnan(r.floorW)) {
            std::snprintf(line, sizeof line, "GPU floor %.0f W", r.floorW);
            how = line;
        }
        if (r.rampLimited)
            how += std::string(how.empty() ? "" : ", ") + "GPU ramp limits";
        if (!r.bbu.empty()) {
            // Their round-trip loss is in the energy when every smoothing shelf has its efficiency.
            double loss = 0;
            bool unknown = false, smoothing = false;
            for (const analysis::DynamicsBbu& b : r.bbu)
                if (b.storeJ > 0 && b.dischargeOk) {
                    smoothing = true;
                    unknown = unknown || std::isnan(b.lossW);
                    loss += std::isnan(b.lossW) ? 0.0 : b.lossW;
                }
            how += std::string(how.empty() ? "" : ", ") +
                   (!smoothing ? "battery shelves (none strong enough to smooth)"
                    : unknown  ? "battery shelves (round-trip loss not counted: no round_trip_efficiency)"
                               : "battery shelves losing " + watts(loss) + " on their round trips");
        }
        if (!std::isnan(r.psuStorageJ))
            how += std::string(how.empty() ? "" : ", ") + "PSU storage";
        if (r.siteStorage)
            how += std::string(how.empty() ? "" : ", ") + "site storage";
        char year[96] = ", no facility: section for the year's energy";
        if (std::isfinite(r.extraMWhPerYear))
            std::snprintf(year, sizeof year, std::abs(r.extraMWhPerYear) >= 100 ? " (%+.0f MWh a year at PUE %.3g)"
                                                                               : " (%+.3g MWh a year at PUE %.3g)",
                          r.extraMWhPerYear, r.pue);
        char compute[320] = "; no compute lost";
        // The same work then takes longer: its energy is the power over the throughput kept (a
        // symmetric ramp limit read "+0.00 % energy" though each unit of work cost 6.4 % more).
        if (r.throughputLost > 0)
            std::snprintf(compute, sizeof compute,
                          "; the ramp-up limit withholds %.3g %% of each compute phase's work: sustained throughput "
                          "-%.3g %%%s, %+.2f %% energy for the same work",
                          r.throughputLost * 100, (1 - r.rampThroughputFactor) * 100,
                          r.extraEnergyShare < 0 ? " (the energy it saves is that work, not done)" : "",
                          r.energyPerWorkShare() * 100);
        std::snprintf(line, sizeof line, "         mitigated from a %s swing (%s): %+.2f %% energy%s%s\n",
                      watts(r.unmitigatedSwingW).c_str(), how.c_str(), r.extraEnergyShare * 100, year, compute);
        out += line;
    }
    return out;
}

} // namespace rdt::report
