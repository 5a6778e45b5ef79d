// The `dynamics.*` rules: the site's power waveform against the design's `grid:` limits, and the
// GPU power floor against what the part supports (docs/dynamics.md).
#include <algorithm>
#include <cmath>
#include <set>
#include <cstdio>

#include "analysis/Dynamics.h"

namespace rdt::analysis {

namespace {

/// The messages' powers: 4 digits, so that a value just over its limit never reads as equal to it.
std::string mw(double w, const char* unit = "W")
{
    return powerText(w, 4, unit);
}

/// The GPU parts of the design, each once.
std::vector<const core::Part*> floorGpus(const core::Design& d)
{
    std::vector<const core::Part*> out;
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots) {
            const core::Part* gpu =
                s.part->value("gpus.count", 0) > 0 ? d.catalog->find(s.part->text("gpus.part")) : nullptr;
            if (gpu && std::find(out.begin(), out.end(), gpu) == out.end())
                out.push_back(gpu);
        }
    return out;
}

} // namespace

void registerDynamicsChecks(core::CheckRegistry& registry)
{
    auto result = [](core::CheckContext& ctx) { return ctx.results().get<DynamicsResult>("dynamics"); };
    registry.add({"dynamics.not_checked",
                  "The training job's waveform was built",
                  core::Severity::Info,
                  "rdt: a figure a check needs but the catalog lacks is reported, never borrowed from another part",
                  "A design with `dynamics:` whose GPUs lack the figures the waveform needs (power.communication, "
                  "power.idle): the dynamics rules are not checked. A battery shelf smoothing the swing without "
                  "charge_power or round_trip_efficiency, a GPU under a power floor without power.floor_max: that "
                  "figure's check or cost, named.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     if (r && r->declared && !r->notChecked.empty())
                         ctx.report("dynamics", "not checked: " + r->notChecked, NAN, NAN, "", r->notCheckedLoc);
                     // A power floor on a GPU whose supported maximum the catalog lacks.
                     const core::Design& d = ctx.design();
                     if (!d.dynamics.declared)
                         return;
                     // Battery smoothing on shelves whose charge power or round trip the catalog lacks.
                     if (r && d.dynamics.bbuSmoothing) {
                         std::set<std::string> said;
                         auto missing = [&](const std::string& slug, const std::string& what) {
                             if (slug.empty() || !said.insert(slug + "/" + what).second)
                                 return;
                             const core::Part* shelf = d.catalog->find(slug);
                             ctx.report(slug, "not checked: " + slug + " has no " + what, NAN, NAN, "",
                                        shelf ? shelf->loc : d.dynamics.loc);
                         };
                         for (const DynamicsBbu& b : r->bbu)
                             missing(b.chargeMissing,
                                     "charge_power (what its modules take recharging): dynamics.bbu.charge");
                         for (const DynamicsBbu& b : r->bbu)
                             missing(b.efficiencyMissing, "round_trip_efficiency: the smoothing's energy cost leaves "
                                                          "out the batteries' round-trip loss");
                     }
                     if (std::isnan(d.dynamics.floorShare))
                         return;
                     for (const core::Part* gpu : floorGpus(d))
                         if (std::isnan(gpu->value("power.floor_max", NAN)))
                             ctx.report(gpu->slug,
                                        "not checked: " + gpu->slug +
                                            " has no power.floor_max (the highest power floor it supports): "
                                            "dynamics.gpu.floor",
                                        NAN, NAN, "", gpu->loc);
                 });
    registry.add({"dynamics.grid.ramp",
                  "The site's power ramp within the interconnection's limit",
                  core::Severity::Error,
                  "Southern Company: <= 20 MW/min in normal operation [PD-U1]; the design's grid.ramp",
                  "The largest change of the site's mean power from one `grid.ramp_window` (default 1 min) to the "
                  "next, over the window, with the job's start from idle and its iterations, against grid.ramp.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Grid& g = ctx.design().grid;
                     if (!r || !r->notChecked.empty() || !r->declared || std::isnan(g.rampWps) ||
                         !(r->rampGridWps > g.rampWps))
                         return;
                     // As many figures as it takes for a ramp just over its limit not to print as the
                     // limit itself (0.00593 over 0.00593 MW/min).
                     const double ramp = r->rampGridWps * 60 / 1e6, limit = g.rampWps * 60 / 1e6;
                     int digits = 4;
                     for (char a[32], b[32]; digits < 12; ++digits) {
                         std::snprintf(a, sizeof a, "%.*g", digits, ramp);
                         std::snprintf(b, sizeof b, "%.*g", digits, limit);
                         if (std::string(a) != b)
                             break;
                     }
                     char msg[320];
                     std::snprintf(msg, sizeof msg,
                                   "site ramps %.*g MW/min over %.0f s windows, over the grid's %.*g MW/min (%s)",
                                   digits, ramp, g.rampWindowS, digits, limit, g.source.c_str());
                     ctx.report("site", msg, r->rampGridWps * 60 / 1e6, g.rampWps * 60 / 1e6, "MW/min", g.loc);
                 });
    registry.add({"dynamics.grid.band",
                  "The site's swing energy in the grid's sensitive band within its share",
                  core::Severity::Warning,
                  "Choukse et al. 2025's example specification: at most 20 % of the energy in 0.1-20 Hz [PD-A1]; "
                  "the design's grid.band",
                  "The share of the site's AC energy (the variance of its running power, Hann spectrum) in the band "
                  "grid.band names, against its share.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Grid& g = ctx.design().grid;
                     if (!r || !r->notChecked.empty() || !r->declared)
                         return;
                     for (const DynamicsBand& b : r->bands) {
                         if (!b.grid || !(b.share > g.bandShare))
                             continue;
                         char msg[256];
                         std::snprintf(msg, sizeof msg,
                                       "%.4g %% of the swing's energy in %.3g-%.3g Hz (RMS %s), over the grid's "
                                       "%.4g %% (%s)",
                                       b.share * 100, b.loHz, b.hiHz, mw(b.rmsW).c_str(), g.bandShare * 100,
                                       g.source.c_str());
                         ctx.report("site", msg, b.share * 100, g.bandShare * 100, "%", g.loc);
                     }
                 });
    registry.add({"dynamics.grid.voltage",
                  "The swing's voltage change at the connection within the limit",
                  core::Severity::Error,
                  "Dominion Energy: <= 3 % voltage fluctuation at the point of interconnection [PD-U1]; the design's "
                  "grid.voltage_change",
                  "dV/V = dP cos(theta) / S_sc for the swing dP at the connection (its running trace's peak to peak, "
                  "after any site storage; rectifiers at unity power factor), theta = "
                  "atan(X/R) of the connection (cos 1 without x_over_r), against grid.voltage_change.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Grid& g = ctx.design().grid;
                     if (!r || !r->notChecked.empty() || !r->declared || std::isnan(g.voltageChange) ||
                         !(r->voltageChange > g.voltageChange))
                         return;
                     char msg[256];
                     std::snprintf(msg, sizeof msg,
                                   "connection swing %s on a %s connection changes the voltage %.4g %%, over %.4g %% (%s)",
                                   mw(r->poiSwingW).c_str(), mw(g.shortCircuitVA, "VA").c_str(),
                                   r->voltageChange * 100, g.voltageChange * 100, g.source.c_str());
                     ctx.report("site", msg, r->voltageChange * 100, g.voltageChange * 100, "%", g.loc);
                 });
    registry.add({"dynamics.grid.large_load",
                  "The site is a large load for its utility",
                  core::Severity::Info,
                  "ERCOT: large loads from 75 MW; Southern Company, Dominion: from 50 MW [PD-U1]; the design's "
                  "grid.large_load",
                  "The site's peak power at or over grid.large_load: the utility's large-load process applies "
                  "(ride-through data and a dynamic model of the load are asked for).",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Grid& g = ctx.design().grid;
                     if (!r || !r->notChecked.empty() || !r->declared || std::isnan(g.largeLoadW) ||
                         r->levels.empty() || r->levels.front().highW < g.largeLoadW)
                         return;
                     ctx.report("site",
                                "site peaks at " + mw(r->levels.front().highW) + ", a large load from " +
                                    mw(g.largeLoadW) + " (" + g.source + "): ride-through data and a dynamic model "
                                                                         "of the load will be asked for",
                                r->levels.front().highW / 1e6, g.largeLoadW / 1e6, "MW", g.loc);
                 });
    registry.add({"dynamics.bbu.cycles",
                  "Battery shelves smoothing the swing within their cycle budget",
                  core::Severity::Error,
                  "ORv3 battery backup units: 8-year life, end of life at 90 s of full power [PD-O1]; the design's "
                  "dynamics.bbu_cycle_budget",
                  "With dynamics.smoothing: bbu, each rack's battery shelves give and take its swing every "
                  "iteration: the energy swing*D(1-D)*T a cycle, times the iterations a day, over the shelves' "
                  "energy, in equivalent full cycles a day, against bbu_cycle_budget; a rack without battery "
                  "shelves, or whose shelves cannot discharge the swing's compute part, is a violation too.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Dynamics& dy = ctx.design().dynamics;
                     if (!r || !r->notChecked.empty() || !dy.bbuSmoothing)
                         return;
                     for (const DynamicsBbu& b : r->bbu) {
                         char msg[320];
                         if (!(b.storeJ > 0)) {
                             std::snprintf(msg, sizeof msg, "%s has no battery shelf to smooth its %s swing",
                                           b.rack.c_str(), mw(b.swingW).c_str());
                             ctx.report(b.rack, msg, 0, NAN, "", dy.loc);
                         } else if (!b.dischargeOk) {
                             std::snprintf(msg, sizeof msg,
                                           "%s's battery shelves discharge %s, less than the %s the swing asks",
                                           b.rack.c_str(), mw(b.dischargeW).c_str(),
                                           mw((1.0 - r->computeShare) * b.swingW).c_str());
                             ctx.report(b.rack, msg, b.dischargeW / 1e3, (1.0 - r->computeShare) * b.swingW / 1e3,
                                        "kW", dy.loc);
                         } else if (b.cyclesPerDay > dy.bbuCyclesPerDay) {
                             std::snprintf(msg, sizeof msg,
                                           "%s's battery shelves (%.3g MJ) would cycle %.4g times a day smoothing "
                                           "its %s swing (%.3g kJ an iteration), over their budget of %.4g",
                                           b.rack.c_str(), b.storeJ / 1e6, b.cyclesPerDay, mw(b.swingW).c_str(),
                                           b.cycleJ / 1e3, dy.bbuCyclesPerDay);
                             ctx.report(b.rack, msg, b.cyclesPerDay, dy.bbuCyclesPerDay, "cycles/day", dy.loc);
                         }
                     }
                 });
    registry.add({"dynamics.bbu.charge",
                  "Battery shelves smoothing the swing recharge within their charge power",
                  core::Severity::Error,
                  "ORv3 BBUs are normally charging and can modulate their charge current [PD-R2]; the shelf's "
                  "catalog charge_power",
                  "With dynamics.smoothing: bbu, each rack draws its mean, so in the communication phase its "
                  "battery shelves take D*swing back (D the compute share), plus their round trip's loss: against "
                  "the sum of its shelves' charge_power. A shelf without charge_power is reported not checked (dynamics.not_checked).",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Dynamics& dy = ctx.design().dynamics;
                     if (!r || !r->notChecked.empty() || !dy.bbuSmoothing)
                         return;
                     for (const DynamicsBbu& b : r->bbu)
                         if (std::isfinite(b.chargeW) && b.chargeNeedW > b.chargeW) {
                             char msg[320];
                             std::snprintf(msg, sizeof msg,
                                           "%s's battery shelves charge at %s, less than the %s the swing gives back "
                                           "each communication phase",
                                           b.rack.c_str(), mw(b.chargeW).c_str(), mw(b.chargeNeedW).c_str());
                             ctx.report(b.rack, msg, b.chargeNeedW / 1e3, b.chargeW / 1e3, "kW", dy.loc);
                         }
                 });
    registry.add({"dynamics.bbu.holdup",
                  "Battery shelves smoothing the swing keep the rack's ride-through",
                  core::Severity::Error,
                  "ORv3 BBU: end of life at 90 s of full-power backup [PD-O1]; the profile's ride_through "
                  "(orv3.bbu.holdup)",
                  "With dynamics.smoothing: bbu, the shelves start each compute phase full and give it "
                  "swing*D(1-D)*T, each shelf its rating's share: at their lowest charge, the hold-up of what is "
                  "left at the rack's IT load (the budget's basis; shelves sharing the load by their ratings, as "
                  "orv3.bbu.holdup takes them) must still cover the ride-through orv3.bbu.holdup judges the racks by.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Dynamics& dy = ctx.design().dynamics;
                     if (!r || !r->notChecked.empty() || !dy.bbuSmoothing)
                         return;
                     for (const DynamicsBbu& b : r->bbu)
                         if (std::isfinite(b.holdupLeftS) && b.holdupLeftS < b.rideThroughS) {
                             char msg[320];
                             // Each figure with the digits that tell it from the other ("282 s, less
                             // than its 282 s" read as a contradiction).
                             std::snprintf(msg, sizeof msg,
                                           "%s's battery shelves at their lowest charge while smoothing (%.3g %%) hold "
                                           "the rack's %s for %s, less than its %s ride-through",
                                           b.rack.c_str(), b.socLow * 100, mw(b.itLoadW).c_str(),
                                           core::formatQuantityBeside(b.holdupLeftS, b.rideThroughS,
                                                                      core::Dimension::Time)
                                               .c_str(),
                                           core::formatQuantityBeside(b.rideThroughS, b.holdupLeftS,
                                                                      core::Dimension::Time)
                                               .c_str());
                             ctx.report(b.rack, msg, b.holdupLeftS, b.rideThroughS, "s", dy.loc);
                         }
                 });
    registry.add({"dynamics.grid.resonance",
                  "No harmonic of the iteration in one of the grid's oscillation modes",
                  core::Severity::Warning,
                  "Choukse et al. 2025: periodic training swings in 0.1-20 Hz can excite grid modes and shaft "
                  "torsionals [PD-A1]; the design's grid.modes (the utility's study)",
                  "Each harmonic n of the connection's swing (a trapezoid: swing, compute share, edge) of at least 5 % "
                  "of the swing, at n/T, against each of grid.modes' half-power bands f(1 +- damping); the "
                  "dynamics line (text, JSON risky_periods, HDF5) lists the iteration periods from 0.2 s to 60 s "
                  "that would put a harmonic in a mode.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Grid& g = ctx.design().grid;
                     if (!r || !r->notChecked.empty() || !r->declared)
                         return;
                     for (const DynamicsResonance& x : r->resonances) {
                         char msg[320];
                         std::snprintf(msg, sizeof msg,
                                       "harmonic %d of the %.4g s iteration (%.4g Hz, %s) lies in the grid's %.4g Hz "
                                       "mode (%.4g-%.4g Hz at %.3g %% damping; %s): change the iteration period",
                                       x.harmonic, r->iterationS, x.harmonicHz, mw(x.amplitudeW).c_str(), x.modeHz,
                                       x.modeHz * (1 - x.damping), x.modeHz * (1 + x.damping), x.damping * 100,
                                       g.source.c_str());
                         // Measured: how far the harmonic is from the mode; limit: the band's half-width.
                         ctx.report("site", msg, std::abs(x.harmonicHz / x.modeHz - 1) * 100, x.damping * 100,
                                    "% from the mode", g.loc);
                     }
                 });
    registry.add({"dynamics.storage.site",
                  "The site storage takes the swing within its power and energy",
                  core::Severity::Warning,
                  "Choukse et al. 2025: a site battery or supercapacitor takes the fast part of the swing [PD-A1]; "
                  "the design's dynamics.site_storage",
                  "With dynamics.site_storage, the power the filter split asks of the storage (the site's swing "
                  "above its cutoff) against its rating, and the energy it needs (twice its largest excursion from "
                  "half full; the grid makes up its losses) against its capacity: either limit leaves the grid the "
                  "rest of the swing.",
                  {}},
                 [result](core::CheckContext& ctx) {
                     const auto r = result(ctx);
                     const core::Dynamics& dy = ctx.design().dynamics;
                     if (!r || !r->notChecked.empty() || !r->siteStorage)
                         return;
                     const DynamicsSiteStorage& st = r->store;
                     char msg[320];
                     if (st.powerLimited) {
                         std::snprintf(msg, sizeof msg,
                                       "site storage is asked %s against its %s rating: the connection still swings "
                                       "%s of the site's %s",
                                       mw(st.demandW).c_str(), mw(st.powerW).c_str(), mw(r->poiSwingW).c_str(),
                                       mw(st.loadSwingW).c_str());
                         ctx.report("site storage", msg, st.demandW / 1e6, st.powerW / 1e6, "MW", dy.siteStorage.loc);
                     }
                     if (st.energyLimited) {
                         std::snprintf(msg, sizeof msg,
                                       "site storage needs %.4g MJ (twice its largest excursion from half full) against "
                                       "its %.4g MJ: it runs empty or full, and the connection still swings %s",
                                       st.neededJ / 1e6, st.energyJ / 1e6, mw(r->poiSwingW).c_str());
                         ctx.report("site storage", msg, st.neededJ / 1e6, st.energyJ / 1e6, "MJ", dy.siteStorage.loc);
                     }
                 });
    registry.add({"dynamics.gpu.floor",
                  "The GPU power floor within what the GPU supports",
                  core::Severity::Error,
                  "NVIDIA GB200: the power floor is at most 90 % of TDP [PD-A1]; NVML PERCENT_TMP_FLOOR [PD-N1]",
                  "dynamics.power_floor (share of TDP) against each GPU part's power.floor_max; a GPU without "
                  "power.floor_max is reported as not checked.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const core::Design& d = ctx.design();
                     if (!d.dynamics.declared || std::isnan(d.dynamics.floorShare))
                         return;
                     for (const core::Part* gpu : floorGpus(d)) {
                         const double max = gpu->value("power.floor_max", NAN);
                         if (!(d.dynamics.floorShare > max + 1e-12))
                             continue; // NaN: not checked (dynamics.not_checked)
                         char msg[256];
                         std::snprintf(msg, sizeof msg, "power floor %.4g %% of TDP is above the %.4g %% %s supports",
                                       d.dynamics.floorShare * 100, max * 100, gpu->slug.c_str());
                         ctx.report(gpu->slug, msg, d.dynamics.floorShare * 100, max * 100, "%", d.dynamics.loc);
                     }
                 });
}

} // namespace rdt::analysis
