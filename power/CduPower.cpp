#include "power/BudgetDetail.h"

#include <cmath>

namespace rdt::power::detail {

/// Each liquid loop's CDU draw, shared over its racks by their liquid heat (the modelled draw of
/// every part times its liquid.fraction; equal shares when none carries any).
void addCdus(const core::Design& d, const PowerOptions& o, PowerResult& res)
{
    for (std::size_t li = 0; li < d.liquid.loops.size(); ++li) {
        const core::LiquidLoop& loop = d.liquid.loops[li];
        if (!loop.cdu)
            continue;
        CduPower c;
        c.loop = loop.id;
        c.part = loop.cdu->slug;
        c.units = loop.count;
        if (const double max = loop.cdu->value("power.max", NAN); !std::isnan(max))
            c.nameplateW = max * loop.count;
        if (li < o.cduModelledW.size())
            c.modelledW = o.cduModelledW[li];
        // Nameplate is the sign-off basis; peak takes every unit flat out too.
        const bool modelled = o.basis == core::PowerBasis::Modelled && !std::isnan(c.modelledW);
        c.budgetW = modelled ? c.modelledW : (std::isnan(c.nameplateW) ? c.modelledW : c.nameplateW);
        const double modelledOrMore = std::isnan(c.modelledW) ? c.budgetW : c.modelledW;
        std::vector<double> heat;
        double total = 0;
        for (int ri : loop.racks) {
            if (ri < 0 || static_cast<std::size_t>(ri) >= res.racks.size())
                continue;
            c.racks.push_back(ri);
            double h = 0;
            for (const PartPower& p : res.racks[static_cast<std::size_t>(ri)].parts)
                if (const core::Part* part = d.catalog->find(p.part))
                    h += p.modelledW * part->value("liquid.fraction", 0.0);
            heat.push_back(h);
            total += h;
        }
        for (std::size_t k = 0; k < c.racks.size(); ++k) {
            const double share = total > 0 ? heat[k] / total : 1.0 / static_cast<double>(c.racks.size());
            RackPower& r = res.racks[static_cast<std::size_t>(c.racks[k])];
            r.cduW += std::isnan(c.budgetW) ? 0.0 : share * c.budgetW;
            r.cduModelledW += std::isnan(modelledOrMore) ? 0.0 : share * modelledOrMore;
            if (std::isnan(c.budgetW))
                r.notes.push_back("CDU " + c.part + " of loop " + c.loop +
                                  " has no power.max and its draw was not solved: not in the facility's draw");
            else if (std::isnan(c.modelledW))
                r.notes.push_back("loop " + c.loop + ": CDU draw at nameplate (its pumps were not solved)");
        }
        res.cdus.push_back(std::move(c));
    }
}

} // namespace rdt::power::detail
