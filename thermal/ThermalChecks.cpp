#include "thermal/ThermalChecks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/WhatIf.h"
#include "models/AirProperties.h"
#include "thermal/Thermal.h"
#include "thermal/ThermalChecksDetail.h"

namespace rdt::thermal {

namespace {
constexpr double kC = 273.15;
}

namespace {

const core::Slot& slotOf(const core::CheckContext& ctx, const ChassisThermal& c)
{
    return ctx.design().racks[static_cast<std::size_t>(c.rack)].slots[static_cast<std::size_t>(c.slot)];
}

std::string gpuOf(const core::CheckContext& ctx, const ChassisThermal& c)
{
    const std::string gpu = slotOf(ctx, c).part->text("gpus.part");
    return gpu.empty() ? slotOf(ctx, c).part->slug : gpu;
}

/// thermal.inlet.chassis: every chassis at its own inlet (ChassisThermal::inletK — with the room
/// field model the mean air over its own band of the intake face plus what its rack's recirculation
/// and leakage add: the figure JSON, HDF5, text and the studio report as its inlet). The rack's
/// front is the mean over all its OU; a chassis high in a stratified front draws warmer air.
void checkChassisInlets(core::CheckContext& ctx)
{
    using core::Dimension;
    const auto t = thermalFor(ctx.design(), ctx.results());
    const core::Site& s = ctx.design().site;
    const double maxK = deratedMaxInletK(s.ashraeClass, s.altitudeM);
    const bool field = t->model == core::ThermalModel::Field;
    for (const RackThermal& r : t->racks)
        for (const ChassisThermal& c : r.chassis) {
            if (!(c.inletK > maxK + 1e-9))
                continue;
            // Four figures: a value just over the limit must not print as the limit itself.
            // Both hot-air paths into the front: over the top and through its open OU (with blanking
            // panels missing the leak is most of it: the message named the recirculation alone).
            std::string recirculation =
                "its rack's recirculation " + core::formatQuantity(r.recirculationM3s, Dimension::VolumeFlow, 2);
            if (r.leakM3s > 0)
                recirculation += " and rear-to-front leak through its empty OU " +
                                 core::formatQuantity(r.leakM3s, Dimension::VolumeFlow, 2);
            const std::string air = t->intakesFrom.empty() ? "the room field's air" : "OpenFOAM's air";
            const std::string why = field ? air + " at its own intake with " + recirculation +
                                                "; the rack's front mean " +
                                                core::formatQuantity(r.frontK, Dimension::Temperature, 4)
                                          : "cold-aisle air with " + recirculation;
            ctx.report(c.id,
                       "chassis inlet " + core::formatQuantity(c.inletK, Dimension::Temperature, 4) + " (" + why +
                           ") is above the " + s.ashraeClass + " allowable " +
                           core::formatQuantityBeside(maxK, c.inletK, Dimension::Temperature, 4),
                       c.inletK - kC, maxK - kC, "degC", slotOf(ctx, c).loc);
        }
}

/// Figures the junction and fan-control rules need but the catalog lacks: one info per part.
void checkMissingLimits(core::CheckContext& ctx)
{
    const auto t = thermalFor(ctx.design(), ctx.results());
    std::set<std::string> seen;
    for (const RackThermal& r : t->racks)
        for (const ChassisThermal& c : r.chassis) {
            const core::Slot& slot = slotOf(ctx, c);
            if (core::Design::gpuCount(*slot.part) == 0)
                continue;
            std::vector<std::string> missing;
            if (std::isnan(c.gpuJunctionK)) {
                std::string lacks;
                for (const char* key : {"thermal.r_jc", "thermal.r_sink", "thermal.sink_flow"})
                    if (!slot.part->find(key))
                        lacks += std::string(lacks.empty() ? "" : ", ") + key;
                missing.push_back(slot.part->slug + " has no " + (lacks.empty() ? "junction model" : lacks) +
                                  " (GPU junction not modelled: thermal.gpu.junction; fans at full speed)");
            }
            if (std::isnan(c.maxOperatingK))
                missing.push_back(gpuOf(ctx, c) + " has no max_operating_temp (thermal.gpu.junction)");
            if (std::isnan(c.maxOperatingK) && std::isnan(c.slowdownK))
                missing.push_back(gpuOf(ctx, c) + " has no slowdown_temp (thermal throttling not modelled)");
            if (std::isnan(c.setpointK))
                missing.push_back(slot.part->slug + " has no fans.setpoint (fans run at full speed; "
                                                    "thermal.gpu.setpoint)");
            for (const std::string& m : missing)
                if (seen.insert(m).second)
                    ctx.report(slot.part->slug, "not checked: " + m, NAN, NAN, "", slot.part->loc);
        }
}

/// What an RCI_HI below 0 means, in words; empty at 0 or above. RCI_HI = (1 − Σ over-temperature /
/// (n × (allowable − recommended))) × 100 % (Herrlin 2005), so below 0 the intakes' mean excess over
/// the recommended maximum is more than the whole recommended-to-allowable span: more over-temperature
/// than if every intake stood at the allowable maximum, the end of the index's scale.
std::string rciBelowZero(double rciHiPercent, double recMaxK, double allMaxK)
{
    if (!(rciHiPercent < 0) || !(allMaxK > recMaxK))
        return {};
    const double meanExcessK = (1.0 - rciHiPercent / 100.0) * std::max(allMaxK - recMaxK, 0.1); // as rciHi
    return "below 0: the intakes' mean excess over the recommended " +
           core::formatQuantity(recMaxK, core::Dimension::Temperature, 3) + " is " +
           core::formatQuantity(meanExcessK, core::Dimension::TemperatureDelta, 3) + ", more than the " +
           core::formatQuantity(allMaxK - recMaxK, core::Dimension::TemperatureDelta, 3) + " up to the allowable " +
           core::formatQuantity(allMaxK, core::Dimension::Temperature, 3) +
           ": the index is off its scale, more over-temperature than every intake at the allowable maximum; ";
}

} // namespace

InletRange ashraeAllowable(const std::string& c)
{
    // ASHRAE TC 9.9 2021 reference card, Table 2.1 [T1]; H1 upper limit from [T2], lower assumed 5 °C.
    if (c == "A1")
        return {15 + kC, 32 + kC};
    if (c == "A2")
        return {10 + kC, 35 + kC};
    if (c == "A3")
        return {5 + kC, 40 + kC};
    if (c == "A4")
        return {5 + kC, 45 + kC};
    if (c == "H1")
        return {5 + kC, 25 + kC};
    return {};
}

InletRange ashraeRecommended(const std::string& c)
{
    // ASHRAE TC 9.9 2021 reference card [T1]: recommended 18–27 °C for A1–A4; H1 18–22 °C [T2].
    if (c == "A1" || c == "A2" || c == "A3" || c == "A4")
        return {18 + kC, 27 + kC};
    if (c == "H1")
        return {18 + kC, 22 + kC};
    return {};
}

double deratingMetresPerK(const std::string& ashraeClass)
{
    return ashraeClass == "A3" ? 175.0 : ashraeClass == "A4" ? 125.0 : ashraeClass == "H1" ? 500.0 : 300.0;
}

double deratedMaxInletK(const std::string& ashraeClass, double altitudeM)
{
    const double derate = altitudeM > 900.0 ? (altitudeM - 900.0) / deratingMetresPerK(ashraeClass) : 0.0;
    return ashraeAllowable(ashraeClass).maxK - derate;
}

RciBounds rciHiBounds(const std::string& ashraeClass, double altitudeM)
{
    const double all = deratedMaxInletK(ashraeClass, altitudeM);
    return {std::min(ashraeRecommended(ashraeClass).maxK, all), all};
}

HumidityRange ashraeHumidity(const std::string& c)
{
    if (c == "A1" || c == "H1")
        return {0.08, 0.80, -12.0, 17.0};
    if (c == "A2")
        return {0.08, 0.80, -12.0, 21.0};
    if (c == "A3")
        return {0.08, 0.85, -12.0, 24.0};
    if (c == "A4")
        return {0.08, 0.90, -12.0, 24.0};
    return {};
}

/// The coarsest grid the room field was validated on against OpenFOAM (docs/thermal.md).
constexpr double kValidatedGridM = 0.3;
/// A reference whose rack intakes moved more than this over its last samples is not yet steady.
constexpr double kSteadyReferenceK = 0.1;

void registerChecks(core::CheckRegistry& registry)
{
    registry.add({"thermal.ashrae.inlet",
                  "Supply air within the site's ASHRAE class",
                  core::Severity::Error,
                  "ASHRAE TC 9.9 (2021) Table 2.1 allowable ranges [T1]; altitude derating above 900 m of 1 K per "
                  "300 m (A1, A2), 175 m (A3), 125 m (A4), 500 m (H1) (the table's footnotes as commonly cited; "
                  "estimate)",
                  "The design's supply-air temperature, or a cooling unit's own supply_air (subject "
                  "room/<unit>), lies outside the allowable dry-bulb range of its ASHRAE class, with the upper "
                  "limit derated for altitude.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const core::Site& s = ctx.design().site;
                     const InletRange r = ashraeAllowable(s.ashraeClass);
                     const double maxK = deratedMaxInletK(s.ashraeClass, s.altitudeM);
                     if (s.supplyAirK > maxK)
                         ctx.report("site",
                                    "supply air " + core::formatQuantityBeside(s.supplyAirK, maxK, core::Dimension::Temperature) +
                                        " is above the " + s.ashraeClass + " allowable " +
                                        core::formatQuantityBeside(maxK, s.supplyAirK, core::Dimension::Temperature) +
                                        " at " +
                                        core::formatQuantity(s.altitudeM, core::Dimension::Length),
                                    s.supplyAirK - kC, maxK - kC, "degC", s.loc);
                     else if (s.supplyAirK < r.minK)
                         ctx.report("site",
                                    "supply air " + core::formatQuantity(s.supplyAirK, core::Dimension::Temperature) +
                                        " is below the " + s.ashraeClass + " allowable " +
                                        core::formatQuantity(r.minK, core::Dimension::Temperature),
                                    s.supplyAirK - kC, r.minK - kC, "degC", s.loc);
                     // A cooling unit that states its own supply air is judged as the site's is (a CRAH
                     // blowing 36 degC under a 25 degC site passed): subject `room/<unit>`.
                     for (const core::CoolingUnit& u : ctx.design().room.units) {
                         if (!u.supplyK)
                             continue;
                         const double k = *u.supplyK;
                         if (k > maxK)
                             ctx.report("room/" + u.name,
                                        "cooling unit " + u.name + " supplies " +
                                            core::formatQuantityBeside(k, maxK, core::Dimension::Temperature) +
                                            ", above the " + s.ashraeClass + " allowable " +
                                            core::formatQuantityBeside(maxK, k, core::Dimension::Temperature) + " at " +
                                            core::formatQuantity(s.altitudeM, core::Dimension::Length),
                                        k - kC, maxK - kC, "degC", u.loc);
                         else if (k < r.minK)
                             ctx.report("room/" + u.name,
                                        "cooling unit " + u.name + " supplies " +
                                            core::formatQuantityBeside(k, r.minK, core::Dimension::Temperature) +
                                            ", below the " + s.ashraeClass + " allowable " +
                                            core::formatQuantity(r.minK, core::Dimension::Temperature),
                                        k - kC, r.minK - kC, "degC", u.loc);
                     }
                 });
    registry.add({"thermal.ashrae.humidity",
                  "Supply air's moisture within the site's ASHRAE class",
                  core::Severity::Error,
                  "ASHRAE TC 9.9 (2021) Table 2.1 allowable humidity [T1]: 8 % RH and −12 degC dew point up to "
                  "80 % RH and 17 degC (A1), 21 degC (A2), 85 % and 24 degC (A3), 90 % and 24 degC (A4); H1 taken "
                  "as A1 (estimate)",
                  "The site's relative humidity at its supply-air temperature, or the dew point they give (Magnus "
                  "form), lies outside the allowable range of its ASHRAE class: condensing or corrosive air above, "
                  "electrostatic discharge below.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const core::Site& s = ctx.design().site;
                     const HumidityRange h = ashraeHumidity(s.ashraeClass);
                     if (std::isnan(h.maxRh))
                         return;
                     const double airC = s.supplyAirK - kC, rh = s.relativeHumidity;
                     const double dp = models::dewPointC(airC, rh);
                     char at[128];
                     std::snprintf(at, sizeof at, "supply air at %.3g degC and %.3g %% RH (site.humidity; 45 %% when not given)",
                                   airC, rh * 100);
                     auto dewPoint = [&](const char* side, double limit) {
                         char m[256];
                         std::snprintf(m, sizeof m, "%s has a dew point of %.1f degC, %s the %s allowable %.0f degC", at,
                                       dp, side, s.ashraeClass.c_str(), limit);
                         ctx.report("site", m, dp, limit, "degC", s.loc);
                     };
                     auto relative = [&](const char* side, double limit) {
                         char m[256];
                         std::snprintf(m, sizeof m, "%s: relative humidity %s the %s allowable %.0f %%", at, side,
                                       s.ashraeClass.c_str(), limit * 100);
                         ctx.report("site", m, rh * 100, limit * 100, "%", s.loc);
                     };
                     if (dp > h.maxDewPointC)
                         dewPoint("above", h.maxDewPointC);
                     if (rh > h.maxRh)
                         relative("above", h.maxRh);
                     if (dp < h.minDewPointC)
                         dewPoint("below", h.minDewPointC);
                     if (rh < h.minRh)
                         relative("below", h.minRh);
                 });
    using core::Dimension;
    using core::Severity;
    registry.add(
        {"thermal.gpu.junction",
         "GPU junction below its maximum operating temperature",
         Severity::Error,
         "the GPU's own max_operating_temp from its catalog entry (H100 SXM5: max operating 87 °C, "
         "slowdown 89 °C, nvidia-smi [C5])",
         "The hottest GPU of a chassis, from the airflow network and the compact junction model, exceeds "
         "the GPU's max_operating_temp: the GPU lowers its clocks to hold it (limited by thermal). A GPU "
         "without the figure is reported by thermal.limits.missing instead.",
         {}},
        [](core::CheckContext& ctx) {
            const auto t = thermalFor(ctx.design(), ctx.results());
            for (const RackThermal& r : t->racks)
                for (const ChassisThermal& c : r.chassis)
                    if (!std::isnan(c.maxOperatingK) && std::isinf(c.gpuJunctionK))
                        ctx.report(c.id,
                                   "GPU junction unbounded: no air flows through the chassis "
                                   "(thermal.chassis.airflow), so nothing holds " +
                                       gpuOf(ctx, c) + " below its " +
                                       core::formatQuantity(c.maxOperatingK, Dimension::Temperature) +
                                       " maximum operating temperature: the GPUs throttle to a stop",
                                   c.gpuJunctionK, c.maxOperatingK - 273.15, "degC",
                                   slotOf(ctx, c).loc);
                    else if (!std::isnan(c.maxOperatingK) && c.gpuJunctionK > c.maxOperatingK)
                        ctx.report(c.id,
                                   "GPU junction " +
                                       core::formatQuantityBeside(c.gpuJunctionK, c.maxOperatingK,
                                                                  Dimension::Temperature, 3) +
                                       " exceeds the " + core::formatQuantity(c.maxOperatingK, Dimension::Temperature) +
                                       " maximum operating temperature of " + gpuOf(ctx, c) +
                                       (c.throttled ? ": the GPU throttles to hold it" : "") + " (inlet " +
                                       core::formatQuantity(c.inletK, Dimension::Temperature, 3) + ", fans " +
                                       core::formatQuantity(c.fanSpeed, Dimension::Ratio, 3) + ")",
                                   c.gpuJunctionK - 273.15, c.maxOperatingK - 273.15, "degC",
                                   slotOf(ctx, c).loc);
        });
    registry.add(
        {"thermal.chassis.airflow",
         "Air through every chassis that releases heat",
         Severity::Error,
         "energy balance: a part's heat leaves in the air its fans move through it, Q = rho c_p V dT",
         "A chassis that releases heat into the air but has no air flowing through it from front to rear "
         "(every fan rotor failed, or its neighbours' fans draw the rear's air back through it): its heat has "
         "no way out and its GPUs have no junction temperature below any limit; they throttle to a stop and "
         "throughput counts them at no clock.",
         {}},
        [](core::CheckContext& ctx) {
            const auto t = thermalFor(ctx.design(), ctx.results());
            for (const RackThermal& r : t->racks)
                for (const ChassisThermal& c : r.chassis)
                    if (c.noAirflow) {
                        const core::Slot& slot = slotOf(ctx, c);
                        const long long rotors = core::rotorCount(*slot.part);
                        ctx.report(c.id,
                                   "no air flows through it from front to rear (" + std::to_string(c.failedRotors) +
                                       " of " + std::to_string(rotors) + " fan rotors failed; the airflow network gives " +
                                       core::formatQuantity(c.airflowM3s, Dimension::VolumeFlow, 3) +
                                       (c.airflowM3s < 0 ? ", drawn back from the rear" : "") + "): its " +
                                       core::formatQuantity(c.heatW, Dimension::Power, 3) +
                                       " has no way out" + (std::isinf(c.gpuJunctionK) ? " and its GPUs stop" : ""),
                                   c.airflowM3s, kNoAirM3s, "m3/s", slot.loc);
                    }
        });
    registry.add({"thermal.limits.missing",
                  "GPU thermal limits present for every GPU in the design",
                  Severity::Info,
                  "rdt: a figure a check needs but the catalog lacks is reported, never borrowed from another part",
                  "A GPU without max_operating_temp (or slowdown_temp), a chassis without a fan-control setpoint, "
                  "or one without any of thermal.r_jc, r_sink and sink_flow (the junction model needs all three): "
                  "the junction rules are not checked for it and its fans are taken at full speed.",
                  {}},
                 checkMissingLimits);
    registry.add({"thermal.gpu.setpoint",
                  "GPU held at the fan-control setpoint",
                  Severity::Warning,
                  "Grand Teton fan control: GPU PID setpoint 79 °C [G8]",
                  "Fans at full speed cannot hold the hottest GPU at the chassis' fan-control setpoint (a warning "
                  "band below the maximum operating temperature).",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     for (const RackThermal& r : t->racks)
                         for (const ChassisThermal& c : r.chassis)
                             if (!std::isnan(c.setpointK) && c.gpuJunctionK > c.setpointK + 0.05 &&
                                 !(c.gpuJunctionK > c.maxOperatingK) && !std::isinf(c.gpuJunctionK))
                                 ctx.report(
                                     c.id,
                                     "GPU junction " + core::formatQuantity(c.gpuJunctionK, Dimension::Temperature, 3) +
                                         " is above the " + core::formatQuantity(c.setpointK, Dimension::Temperature) +
                                         " fan-control setpoint with fans at " +
                                         core::formatQuantity(c.fanSpeed, Dimension::Ratio, 3),
                                     c.gpuJunctionK - 273.15, c.setpointK - 273.15, "degC",
                                     ctx.design()
                                         .racks[static_cast<std::size_t>(c.rack)]
                                         .slots[static_cast<std::size_t>(c.slot)]
                                         .loc);
                 });
    registry.add({"thermal.inlet.chassis",
                  "Chassis inlet within the ASHRAE class",
                  Severity::Error,
                  "ASHRAE TC 9.9 (2021) Table 2.1 allowable ranges [T1]",
                  "A chassis' inlet air — supply mixed with recirculated hot air; with the room field model the air "
                  "over the chassis' own intake — exceeds the allowable upper limit of the site's class, derated for "
                  "altitude. Each chassis is judged at its own inlet, never its rack's mean.",
                  {}},
                 checkChassisInlets);
    registerInletChecks(registry); // thermal.inlet.switch, thermal.row.rci_lo (InletChecks.cpp)
    registry.add({"thermal.field.validated",
                  "Room field used only where it is validated against OpenFOAM",
                  Severity::Warning,
                  "rdt's validation of the room field against OpenFOAM v1912 with the racks coupled by OpenFOAM "
                  "(docs/thermal.md, the validation matrix, 2026-12-04)",
                  "The room field model judges a room of a class in which its rack intakes were more than 0.5 K "
                  "cooler (optimistic) than OpenFOAM's in rdt's validation: overhead supply without containment "
                  "(up to 5.26 K; OpenFOAM's own solution there starves either row), the k-epsilon closure "
                  "without containment (row ends 0.96 K), or a grid coarser than the validated 0.3 m (a whole hall "
                  "at 0.6 m: up to 1.59 K). A pass there is not earned: run the room in OpenFOAM "
                  "(rdt field --openfoam DIR, then its Allrun) and check with --intakes-from DIR, which the rules "
                  "then judge and which clears this warning, unless that reference's intakes still move by more than "
                  "0.1 K over its last samples (OpenFOAM: 500 iterations).",
                  {}},
                 [](core::CheckContext& ctx) {
                     const core::Design& d = ctx.design();
                     if (d.thermalModel != core::ThermalModel::Field)
                         return;
                     if (!d.intakesFrom.empty()) {
                         // OpenFOAM's air judges the room: unless that reference is still moving.
                         const auto t = thermalFor(d, ctx.results());
                         if (t->referenceDriftK > kSteadyReferenceK)
                             ctx.report("room",
                                        "the reference's rack intakes still move by up to " +
                                            core::formatQuantity(t->referenceDriftK, core::Dimension::TemperatureDelta, 2) +
                                            " over its last samples (" + t->intakesFrom +
                                            "): run the case longer before its air signs the room off",
                                        t->referenceDriftK, kSteadyReferenceK, "K", d.intakesFromLoc);
                         return;
                     }
                     std::string why;
                     const auto add = [&why](const std::string& reason) { why += (why.empty() ? "" : "; ") + reason; };
                     const bool open = d.room.containment == core::Containment::None;
                     if (open && d.room.supply == core::AirSupply::Overhead)
                         add("overhead supply without containment: rack intakes up to 5.26 K cooler than OpenFOAM's "
                             "in rdt's validation, where OpenFOAM starves either row");
                     else if (open && d.room.turbulence == core::RoomTurbulence::KEpsilon)
                         add("the k-epsilon closure without containment: row ends 0.96 K cooler than OpenFOAM's in "
                             "rdt's validation (the zero-equation default is within 0.5 K there)");
                     if (d.room.cellM > kValidatedGridM + 1e-9)
                         add("a grid of " + core::formatQuantity(d.room.cellM, core::Dimension::Length) +
                             ", coarser than the 0.3 m the validation used: the 24k hall at 0.6 m had 24 of its 1,536 "
                             "racks up to 1.59 K cooler than OpenFOAM's");
                     if (why.empty())
                         return;
                     ctx.report("room",
                                "the room field is not validated for this room (" + why +
                                    "): its intakes may be optimistic; judge it on OpenFOAM's air with rdt field "
                                    "--openfoam DIR, the case's Allrun, then --intakes-from DIR",
                                NAN, NAN, "", d.room.loc.file.empty() ? d.site.loc : d.room.loc);
                 });
    registry.add({"thermal.exhaust.dt",
                  "Exhaust temperature rise at least the efficiency target",
                  Severity::Info,
                  "Meta network hardware requirements: exhaust ΔT ≥ 12.3 °C with all fans healthy [R8]",
                  "A chassis' air temperature rise is below the profile's min_exhaust_dt: it moves more air than its "
                  "heat needs. Judged with all its fans healthy, as the target is set: a chassis with a failed rotor "
                  "runs its fans flat out by design and is not judged.",
                  {{"min_exhaust_dt", {12.3, Dimension::TemperatureDelta}}}},
                 [](core::CheckContext& ctx) {
                     const double minDt = ctx.constraint("min_exhaust_dt");
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     for (const RackThermal& r : t->racks)
                         for (const ChassisThermal& c : r.chassis)
                             if (c.heatW > 0 && c.failedRotors == 0 && c.exhaustK - c.inletK < minDt)
                                 ctx.report(
                                     c.id,
                                     "exhaust rise " +
                                         core::formatQuantity(c.exhaustK - c.inletK, Dimension::TemperatureDelta, 3) +
                                         " is below the " +
                                         core::formatQuantity(minDt, Dimension::TemperatureDelta, 3) + " target",
                                     c.exhaustK - c.inletK, minDt, "K",
                                     ctx.design()
                                         .racks[static_cast<std::size_t>(c.rack)]
                                         .slots[static_cast<std::size_t>(c.slot)]
                                         .loc);
                 });
    registry.add({"thermal.row.rci",
                  "Row intake temperatures: RCI_HI at least 96 %",
                  Severity::Warning,
                  "Herrlin, Rack Cooling Index, ASHRAE Trans. 111(2) 2005: ≥ 96 % good, ≤ 90 % poor",
                  "RCI_HI of a row's chassis intakes against the class's recommended and allowable maxima is below the "
                  "profile's min_rci.",
                  {{"min_rci", {0.96, Dimension::Ratio}}}},
                 [](core::CheckContext& ctx) {
                     const double minRci = ctx.constraint("min_rci") * 100.0;
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     const std::string& cls = ctx.design().site.ashraeClass;
                     const RciBounds b = rciHiBounds(cls, ctx.design().site.altitudeM);
                     const double recK = b.recommendedMaxK, allK = b.allowableMaxK;
                     for (std::size_t i = 0; i < t->rows.size(); ++i)
                         if (t->rows[i].rciHi < minRci)
                             ctx.report(
                                 t->rows[i].id,
                                 "RCI_HI " + core::formatQuantity(t->rows[i].rciHi / 100.0, Dimension::Ratio, 3) +
                                     " (" + rciBelowZero(t->rows[i].rciHi, recK, allK) + "cold aisle " +
                                     core::formatQuantity(t->rows[i].coldAisleK, Dimension::Temperature, 3) + ", RTI " +
                                     (std::isfinite(t->rows[i].rti)
                                          ? core::formatQuantity(t->rows[i].rti / 100.0, Dimension::Ratio, 3)
                                          : std::string("undefined, no air through the chassis")) +
                                     ")",
                                 t->rows[i].rciHi, minRci, "%", ctx.design().rows[i].loc);
                 });
    registry.add({"thermal.network.shortfall",
                  "A row short of supply air is solved in the room, not mixed",
                  Severity::Warning,
                  "rdt docs/thermal.md: the network model mixes a row's recirculated shortfall evenly along its "
                  "cold aisle; the room field resolves it (row pair at 80 % supply: network 29.4 degC warmest "
                  "inlet, field 42.7 degC at the row ends)",
                  "Under the network model, a row whose cooling supplies less air than its racks draw: its cold "
                  "aisle is taken as the supply mixed evenly with the hot aisle's shortfall, while the racks at "
                  "the row's ends draw far more of it. Its inlet and junction verdicts are not ones to sign: "
                  "solve the room (thermal: {model: field}, or --thermal field).",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     if (t->model != core::ThermalModel::Network)
                         return;
                     for (std::size_t i = 0; i < t->rows.size() && i < ctx.design().rows.size(); ++i) {
                         const RowThermal& r = t->rows[i];
                         if (!(r.demandM3s > 0) || !(r.supplyM3s < r.demandM3s * (1.0 - 1e-9)))
                             continue;
                         ctx.report(r.id,
                                    "the cooling supplies " +
                                        core::formatQuantity(r.supplyM3s / r.demandM3s, Dimension::Ratio, 3) +
                                        " of the air the row's racks draw: the network model mixes the shortfall "
                                        "evenly (cold aisle " +
                                        core::formatQuantity(r.coldAisleK, Dimension::Temperature, 3) +
                                        "); its end racks draw more of it: solve the room (--thermal field)",
                                    r.supplyM3s / r.demandM3s * 100.0, 100.0, "%", ctx.design().rows[i].loc);
                     }
                 });
    registry.add({"thermal.network.supply",
                  "Under the network model, a cooling unit warmer than the site's air sets every row's supply",
                  Severity::Info,
                  "rdt docs/thermal.md: the network model cannot place cooling units, so it takes every row's "
                  "supply at the warmest unit's supply_air; the room field takes each unit's own",
                  "Under the network model, a cooling unit (room.cooling_units) states a supply_air warmer than "
                  "site.supply_air: every rack is judged on the warmest unit's air (conservative where the units' "
                  "air mixes; until 2026-12-07 the network judged them at the site's cooler air). Solve the room "
                  "(thermal: {model: field}, or --thermal field) to give each unit its own.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     if (t->model != core::ThermalModel::Network)
                         return;
                     const core::Site& s = ctx.design().site;
                     for (const core::CoolingUnit& u : ctx.design().room.units)
                         if (u.supplyK && *u.supplyK > s.supplyAirK)
                             ctx.report("room/" + u.name,
                                        "cooling unit " + u.name + " supplies " +
                                            core::formatQuantityBeside(*u.supplyK, s.supplyAirK,
                                                                       Dimension::Temperature) +
                                            ", warmer than the site's " +
                                            core::formatQuantityBeside(s.supplyAirK, *u.supplyK,
                                                                       Dimension::Temperature) +
                                            ": the network model judges every rack on the warmest unit's air; "
                                            "the room field gives each unit its own (--thermal field)",
                                        *u.supplyK - kC, s.supplyAirK - kC, "degC", u.loc);
                 });
}

} // namespace rdt::thermal
