// Inlet and row-index rules added by the trust trial of 2026-12-07 (registered by
// thermal::registerChecks beside thermal.inlet.chassis).
#include <cmath>
#include <string>

#include "core/Design.h"
#include "core/Units.h"
#include "thermal/Thermal.h"
#include "thermal/ThermalChecks.h"
#include "thermal/ThermalChecksDetail.h"

namespace rdt::thermal {

namespace {

constexpr double kC = 273.15;

/// thermal.inlet.switch: every switch at the air over its own intake (RackThermal::switches: the
/// rack's front, with the room field model plus the stratification at the switch's height). A
/// top-of-rack switch draws the warmest air of a stratified front; it was never judged (trust
/// trial, 2026-12-07), and a rack of switches had no inlet judged at all.
void checkSwitchInlets(core::CheckContext& ctx)
{
    using core::Dimension;
    const auto t = thermalFor(ctx.design(), ctx.results());
    const core::Site& s = ctx.design().site;
    const double maxK = deratedMaxInletK(s.ashraeClass, s.altitudeM);
    const bool field = t->model == core::ThermalModel::Field;
    const std::string air = !field                  ? "the rack's front air"
                            : t->intakesFrom.empty()             ? "the room field's air at its own intake"
                                                                 : "OpenFOAM's air at its own intake";
    for (std::size_t ri = 0; ri < t->racks.size() && ri < ctx.design().racks.size(); ++ri) {
        const RackThermal& r = t->racks[ri];
        for (const RackThermal::SwitchInlet& sw : r.switches) {
            if (!(sw.inletK > maxK + 1e-9))
                continue;
            ctx.report(sw.id,
                       "switch inlet " + core::formatQuantity(sw.inletK, Dimension::Temperature, 4) + " (" + air +
                           (field ? "; the rack's front mean " + core::formatQuantity(r.frontK, Dimension::Temperature, 4)
                                  : std::string()) +
                           ") is above the " + s.ashraeClass + " allowable " +
                           core::formatQuantityBeside(maxK, sw.inletK, Dimension::Temperature, 4),
                       sw.inletK - kC, maxK - kC, "degC",
                       ctx.design().racks[ri].slots[static_cast<std::size_t>(sw.slot)].loc);
        }
    }
}

/// thermal.network.open_aisles: the network model seals every cold aisle. In a room without
/// containment the exhaust wraps around the row ends and over the racks, which only the room field
/// (or OpenFOAM) sees: the 24k example passed under the network (warmest inlet 25.7 degC) while its
/// room field put 64 chassis over A2 (up to 36.8 degC), with nothing said (trust trial, 2026-12-07).
void checkOpenAisles(core::CheckContext& ctx)
{
    const core::Design& d = ctx.design();
    if (d.thermalModel != core::ThermalModel::Network || !d.intakesFrom.empty() ||
        d.room.containment != core::Containment::None)
        return;
    const auto t = thermalFor(d, ctx.results());
    if (t->model != core::ThermalModel::Network)
        return;
    double heatW = 0;
    for (const RackThermal& r : t->racks)
        heatW += r.heatW; // every part's heat into the air: a room of switches has intakes too
    if (!(heatW > 0))
        return;
    ctx.report("room",
               std::string("aisles not contained (room.containment: none") +
                   (d.room.declared ? ")" : ", the default: the design has no room: section)") +
                   ": the network model takes every rack's intake at its row's cold aisle as if the aisle were "
                   "sealed, and exhaust wrapping around the row ends and over the racks is not in it (row-pair: "
                   "warmest chassis inlet 25.7 degC under the network, 34.3 degC in the room field); solve the room "
                   "(--thermal field) before signing its inlet and junction verdicts, or contain the aisles",
               NAN, NAN, "", d.room.loc.file.empty() ? d.site.loc : d.room.loc);
}

} // namespace

void registerInletChecks(core::CheckRegistry& registry)
{
    using core::Dimension;
    using core::Severity;
    registry.add({"thermal.inlet.switch",
                  "Switch inlet within the ASHRAE class",
                  Severity::Error,
                  "ASHRAE TC 9.9 (2021) Table 2.1 allowable ranges [T1]",
                  "A switch's inlet air — the rack's front; with the room field model the air over the switch's own "
                  "intake — exceeds the allowable upper limit of the site's class, derated for altitude. Each switch is "
                  "judged at its own inlet.",
                  {}},
                 checkSwitchInlets);
    registry.add({"thermal.network.open_aisles",
                  "Under the network model, aisles contained or the room solved",
                  Severity::Warning,
                  "rdt docs/thermal.md: the network model seals each cold aisle; in an uncontained room the exhaust "
                  "wraps around the row ends (meta-24k-roce: network warmest chassis inlet 25.7 degC, room field "
                  "36.8 degC with 64 chassis over A2)",
                  "Under the network model, a room whose aisles are not contained (room.containment: none, also the "
                  "default without a room: section): every rack's intake is taken at its row's cold aisle as if the "
                  "aisle were sealed, so hot air drawn around the row ends and over the racks is not judged, and the "
                  "inlet and junction passes are not ones to sign. Solve the room (thermal: {model: field}, or "
                  "--thermal field; or OpenFOAM's air with --intakes-from), or contain the aisles.",
                  {}},
                 checkOpenAisles);
    registry.add({"thermal.row.rci_lo",
                  "Row intake temperatures: RCI_LO at least 96 %",
                  Severity::Warning,
                  "Herrlin, Rack Cooling Index, ASHRAE Trans. 111(2) 2005: ≥ 96 % good, ≤ 90 % poor",
                  "RCI_LO of a row's chassis intakes against the class's recommended and allowable minima is below the "
                  "profile's min_rci: the row is overcooled (cooling energy spent for nothing, and condensation and "
                  "cold-start risk toward the allowable minimum).",
                  {{"min_rci", {0.96, Dimension::Ratio}}}},
                 [](core::CheckContext& ctx) {
                     // It was computed and reported but never judged (trust trial, 2026-12-07).
                     const double minRci = ctx.constraint("min_rci") * 100.0;
                     const auto t = thermalFor(ctx.design(), ctx.results());
                     const std::string& cls = ctx.design().site.ashraeClass;
                     const InletRange rec = ashraeRecommended(cls), all = ashraeAllowable(cls);
                     for (std::size_t i = 0; i < t->rows.size(); ++i)
                         if (t->rows[i].rciLo < minRci)
                             ctx.report(t->rows[i].id,
                                        "RCI_LO " + core::formatQuantity(t->rows[i].rciLo / 100.0, Dimension::Ratio, 3) +
                                            ": intakes below the " + cls + " recommended minimum " +
                                            core::formatQuantity(rec.minK, Dimension::Temperature, 3) +
                                            ", toward the allowable " +
                                            core::formatQuantity(all.minK, Dimension::Temperature, 3) +
                                            " (cold aisle mean " +
                                            core::formatQuantity(t->rows[i].coldAisleK, Dimension::Temperature, 3) + ")",
                                        t->rows[i].rciLo, minRci, "%", ctx.design().rows[i].loc);
                 });
}

} // namespace rdt::thermal
