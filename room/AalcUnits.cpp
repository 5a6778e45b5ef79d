#include "room/RoomGeometryDetail.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"

namespace rdt::room::detail {

std::vector<AalcFrame> aalcFrames(const core::Design& d, const core::LayoutGeometry& layout, const std::vector<int>& racks,
                                  int hall, int pod, bool hallScope, const std::vector<double>& rackLiquidW,
                                  double density, std::map<std::pair<int, bool>, double>& outboard)
{
    std::vector<AalcFrame> aalc;
    // Liquid-to-air units (AALC): each loop's share of its units in each row of this room (by its
    // racks there, at least one), half at each end of the row beyond any in-row unit, as deep and
    // tall as the row's end rack, facing as it does; every unit draws its rated air (scaled by
    // the units running) and releases it with its share of the row's coolant heat and fans.
    for (const core::LiquidLoop& loop : d.liquid.loops) {
        if (!loop.cdu || loop.cdu->text("cdu.type") != "liquid-to-air" || loop.racks.empty())
            continue;
        for (std::size_t r = 0; r < d.rows.size(); ++r) {
            const core::Group& row = d.rows[r];
            if (row.racks.empty())
                continue;
            const core::Rack& r0 = d.racks[static_cast<std::size_t>(row.racks.front())];
            if (r0.hall != hall || (hallScope ? -1 : r0.pod) != pod)
                continue;
            std::vector<int> mine;
            for (int ri : loop.racks)
                if (d.racks[static_cast<std::size_t>(ri)].row == static_cast<int>(r))
                    mine.push_back(ri);
            if (mine.empty())
                continue;
            const double share = static_cast<double>(mine.size()) / static_cast<double>(loop.racks.size());
            const int n = std::max(1, static_cast<int>(std::lround(loop.count * share)));
            const double width = loop.cdu->value("width", NAN);
            if (!(width > 0))
                throw core::InputError(loop.loc, "liquid loop " + loop.id + ": the room field places its " +
                                                     loop.cdu->slug +
                                                     " units beside their racks and needs the part's width");
            const double running =
                static_cast<double>(std::max(0, loop.count - d.scenario.failedCdus)) / loop.count;
            double rowHeat = loop.cdu->value("cdu.fans.power", 0.0) * loop.count * running * share;
            for (int ri : mine)
                rowHeat += static_cast<std::size_t>(ri) < rackLiquidW.size()
                               ? std::max(0.0, rackLiquidW[static_cast<std::size_t>(ri)])
                               : 0.0;
            const core::Box& a = layout.frames[static_cast<std::size_t>(row.racks.front())];
            const core::Box& b = layout.frames[static_cast<std::size_t>(row.racks.back())];
            const double dir = b.min[0] >= a.min[0] ? 1.0 : -1.0;
            for (int u = 0; u < n; ++u) {
                const bool atStart = u < n / 2;
                const core::Box& end = atStart ? a : b;
                const double sgn = atStart ? -dir : dir;
                AalcFrame af{loop.id + " unit " + std::to_string(u + 1) + " (" + row.id + ")", end, end.facing,
                             loop.cdu->value("cdu.rating.facility_flow", 0.0) * running * density,
                             rowHeat / n};
                double& off = outboard[{static_cast<int>(r), atStart}];
                af.frame.min[0] = sgn > 0 ? end.max[0] + off : end.min[0] - off - width;
                af.frame.max[0] = sgn > 0 ? end.max[0] + off + width : end.min[0] - off;
                off += width;
                for (int ri : racks)
                    if (const core::Box& o = layout.frames[static_cast<std::size_t>(ri)];
                        af.frame.min[0] < o.max[0] - 1e-9 && o.min[0] < af.frame.max[0] - 1e-9 &&
                        af.frame.min[1] < o.max[1] - 1e-9 && o.min[1] < af.frame.max[1] - 1e-9)
                        throw core::InputError(loop.loc, "liquid loop " + loop.id + ": its unit beside " + row.id +
                                                             " would stand on rack " +
                                                             d.racks[static_cast<std::size_t>(ri)].id);
                aalc.push_back(std::move(af));
            }
        }
    }
    return aalc;
}

} // namespace rdt::room::detail
