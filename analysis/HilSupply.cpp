// A power shelf's supplies as read (hardware in the loop): each one's Status and highest output,
// judged by `hil.psu.lost` (a supply that delivers nothing spends the shelf's N+1 redundancy) and
// `hil.psu.load` (a supply delivering more than its capacity).
#include <algorithm>
#include <cstdio>

#include "analysis/Hil.h"
#include "analysis/HilDetail.h"
#include "core/Units.h"

namespace rdt::analysis {

using namespace hildetail;

void compareSupplies(const core::Design& design, const hil::Series& series, std::size_t i, HilComparison& out)
{
    const auto index = slotIndex(design);
    const auto it = index.find(series.parts[i]);
    if (it == index.end())
        return;
    const core::Slot& slot = design.racks[static_cast<std::size_t>(it->second.rack)]
                                 .slots[static_cast<std::size_t>(it->second.slot)];
    HilShelf shelf;
    shelf.shelf = slot.id;
    shelf.modules = static_cast<int>(slot.part->value("modules", 0));
    shelf.moduleRatingW = slot.part->value("module_rating", NAN);
    Mean output;
    std::vector<HilSupply> supplies;
    for (const hil::Sample& s : series.samples) {
        const hil::PartReading& p = s.parts[i];
        // Each sweep's listing on its own: a supply pulled after the first sweep is missing from the
        // later ones (the most listed in any sweep hid it).
        const int listed = static_cast<int>(p.psuOutW.size());
        if (listed > 0) {
            shelf.reported = shelf.listedSweeps == 0 ? listed : std::min(shelf.reported, listed);
            ++shelf.listedSweeps;
            shelf.shortSweeps += shelf.modules > 0 && listed < shelf.modules ? 1 : 0;
        }
        output.add(sum(p.psuOutW));
        for (std::size_t k = 0; k < p.psuOutW.size(); ++k) {
            if (supplies.size() <= k) {
                HilSupply x;
                x.shelf = slot.id;
                x.index = k + 1;
                supplies.push_back(x);
            }
            HilSupply& x = supplies[k];
            if (std::isfinite(p.psuOutW[k]))
                x.maxOutputW = std::isfinite(x.maxOutputW) ? std::max(x.maxOutputW, p.psuOutW[k]) : p.psuOutW[k];
            if (k < p.psuCapacityW.size() && std::isfinite(p.psuCapacityW[k]) && p.psuCapacityW[k] > 0) {
                x.capacityW = p.psuCapacityW[k];
                x.capacityRead = true;
            }
            const double state = k < p.psuState.size() ? p.psuState[k] : NAN;
            if (std::isfinite(state)) {
                ++x.sweeps;
                if (state > 0)
                    ++x.offSweeps;
                x.worstState = std::isfinite(x.worstState) ? std::max(x.worstState, state) : state;
            }
        }
    }
    shelf.meanOutputW = output.value();
    for (HilSupply& x : supplies) {
        if (!x.capacityRead)
            x.capacityW = shelf.moduleRatingW;
        out.supplies.push_back(x);
    }
    out.shelves.push_back(shelf);
}

namespace {

core::SourceLoc slotLoc(const core::Design& d, const std::string& id)
{
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots)
            if (s.id == id)
                return s.loc;
    return {};
}

std::string kw(double w)
{
    return core::formatQuantity(w, core::Dimension::Power);
}

} // namespace

void registerHilSupplyChecks(core::CheckRegistry& registry)
{
    const char* source = "DMTF PowerSupply Status (DSP8010); ORv3 power shelf N+1 rectifiers (docs/power.md)";
    registry.add({"hil.psu.lost",
                  "Every supply of a power shelf delivers",
                  core::Severity::Error,
                  source,
                  "A power shelf supply whose Status said Absent, offline, disabled or Critical in any sweep, or a "
                  "shelf listing fewer supplies than its catalog part holds: the shelf runs without the rectifier "
                  "that its N+1 budget (orv3.shelf.n1) keeps in reserve, so one more loss is an overload the "
                  "check never judged.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp)
                         return;
                     for (const HilShelf& sh : cmp->shelves) {
                         std::string which;
                         int lost = 0;
                         for (const HilSupply& x : cmp->supplies) {
                             if (x.shelf != sh.shelf || x.offSweeps == 0)
                                 continue;
                             ++lost;
                             char one[160];
                             std::snprintf(one, sizeof one, "%ssupply %zu %s in %d of %d sweeps",
                                           which.empty() ? "" : ", ", x.index, hil::psuStateName(x.worstState),
                                           x.offSweeps, x.sweeps);
                             which += one;
                         }
                         const int unlisted = sh.modules > 0 && sh.reported > 0 ? std::max(0, sh.modules - sh.reported)
                                                                                : 0;
                         if (unlisted > 0)
                             which += (which.empty() ? "" : "; ") + std::to_string(sh.reported) +
                                      " supplies listed (in " + std::to_string(sh.shortSweeps) + " of " +
                                      std::to_string(sh.listedSweeps) + " sweeps), its catalog part holds " +
                                      std::to_string(sh.modules);
                         lost += unlisted;
                         if (lost == 0)
                             continue;
                         std::string msg = sh.shelf + ": " + which;
                         if (sh.modules > 0) {
                             const int running = std::max(0, sh.modules - lost);
                             msg += ": it runs on " + std::to_string(running) + " of its " +
                                    std::to_string(sh.modules) + " supplies, its N+1 reserve spent";
                             if (running == 0) {
                                 msg = sh.shelf + ": " + which + ": none of its " + std::to_string(sh.modules) +
                                       " supplies delivers";
                             } else if (running <= 1) {
                                 msg += "; one more loss leaves it without a supply";
                             } else if (std::isfinite(sh.moduleRatingW)) {
                                 msg += "; one more loss leaves " + std::to_string(running - 1) + " × " +
                                        kw(sh.moduleRatingW) + " = " + kw((running - 1) * sh.moduleRatingW);
                                 if (std::isfinite(sh.meanOutputW))
                                     msg += " for the " + kw(sh.meanOutputW) + " it delivered";
                             }
                         }
                         ctx.report(sh.shelf, msg, lost, 0, "supplies", slotLoc(ctx.design(), sh.shelf));
                     }
                 });
    registry.add({"hil.psu.load",
                  "No supply delivers more than its capacity",
                  core::Severity::Error,
                  source,
                  "Each power-shelf supply's highest measured output (OutputPowerWatts) over the series against its "
                  "capacity: the PowerCapacityWatts it reports, else the catalog's module_rating. Above it the "
                  "supply is overloaded, whatever the shelf's total.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const auto cmp = ctx.results().get<HilComparison>("hil");
                     if (!cmp)
                         return;
                     for (const HilSupply& x : cmp->supplies) {
                         if (!std::isfinite(x.maxOutputW) || !std::isfinite(x.capacityW) ||
                             x.maxOutputW <= x.capacityW)
                             continue;
                         char msg[384];
                         std::snprintf(msg, sizeof msg, "%s supply %zu delivered %.1f W, above its %.1f W capacity (%s)",
                                       x.shelf.c_str(), x.index, x.maxOutputW, x.capacityW,
                                       x.capacityRead ? "its PowerCapacityWatts" : "the catalog's module_rating");
                         ctx.report(x.shelf + "/supply" + std::to_string(x.index), msg, x.maxOutputW, x.capacityW, "W",
                                    slotLoc(ctx.design(), x.shelf));
                     }
                 });
}

} // namespace rdt::analysis
