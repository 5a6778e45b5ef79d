#include "core/LayoutGeometry.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rdt::core {

double ouBottomZ(int ou, const LayoutSpacing& s)
{
    return s.baseHeight + (ou - 1) * s.ouPitch;
}

int ouAtHeight(double z, int usableOu, const LayoutSpacing& s)
{
    const int ou = static_cast<int>(std::floor((z - s.baseHeight) / s.ouPitch)) + 1;
    return std::clamp(ou, 1, usableOu);
}

LayoutGeometry computeLayout(const Design& d, const LayoutSpacing& s)
{
    LayoutGeometry g;
    // Size of a pod block: the deepest row count and longest row of any pod (or pod-less hall).
    double frameDepth = 1.068, frameHeight = 2.286;
    for (const Rack& r : d.racks) {
        frameDepth = std::max(frameDepth, r.rackType->value("frame_depth", 1.068));
        frameHeight = std::max(frameHeight, r.rackType->value("frame_height", 2.286));
    }
    // y of each row inside its block: rows alternate, fronts facing across a cold aisle.
    const auto rowY = [&](int r) {
        double y = 0;
        for (int k = 0; k < r; ++k)
            y += frameDepth + (k % 2 == 0 ? d.room.coldAisleM : d.room.hotAisleM);
        return y;
    };

    // Each "block" is a pod, or the set of pod-less rows of a hall.
    std::map<std::pair<int, int>, int> blockOf; // (hall, pod) → block index
    std::vector<int> blockHall;
    std::map<int, int> rowInBlock; // row → index inside its block
    std::vector<int> rowsPerBlock;
    std::size_t longestRow = 1;
    for (std::size_t i = 0; i < d.rows.size(); ++i) {
        const Group& row = d.rows[i];
        const auto key = std::make_pair(row.parent, row.pod);
        auto [it, added] = blockOf.emplace(key, static_cast<int>(rowsPerBlock.size()));
        if (added) {
            rowsPerBlock.push_back(0);
            blockHall.push_back(row.parent);
        }
        rowInBlock[static_cast<int>(i)] = rowsPerBlock[static_cast<std::size_t>(it->second)]++;
        longestRow = std::max(longestRow, row.racks.size());
    }
    const int maxRows = rowsPerBlock.empty() ? 1 : *std::max_element(rowsPerBlock.begin(), rowsPerBlock.end());
    const double blockW = static_cast<double>(longestRow) * s.rackPitch + s.podGap;
    const double blockD = rowY(maxRows) + s.podGap;

    // Blocks of one hall form a grid; halls follow along y.
    std::vector<std::array<double, 2>> blockOrigin(rowsPerBlock.size());
    std::map<int, int> blocksInHall;
    std::map<int, double> hallY;
    double y = 0.0;
    for (std::size_t b = 0; b < blockOrigin.size(); ++b) {
        const int hall = blockHall[b];
        if (!hallY.count(hall)) {
            hallY[hall] = y;
            int n = 0;
            for (int h : blockHall)
                n += h == hall;
            y += std::ceil(static_cast<double>(n) / s.podsPerLine) * blockD + 2 * s.podGap;
        }
        const int k = blocksInHall[hall]++;
        blockOrigin[b] = {(k % s.podsPerLine) * blockW, hallY[hall] + (k / s.podsPerLine) * blockD};
    }

    g.boundsMin = {1e300, 1e300, 0.0};
    g.boundsMax = {-1e300, -1e300, frameHeight};
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
        const Rack& r = d.racks[ri];
        const Group& row = d.rows[static_cast<std::size_t>(r.row)];
        const auto& origin = blockOrigin[static_cast<std::size_t>(blockOf.at({row.parent, row.pod}))];
        const double x0 = origin[0] + r.positionInRow * s.rackPitch;
        const int rowIndex = rowInBlock.at(r.row);
        const double y0 = origin[1] + rowY(rowIndex);
        const int facing = rowIndex % 2 == 0 ? 1 : -1;
        const double depth = r.rackType->value("frame_depth", 1.068);
        const double height = r.rackType->value("frame_height", 2.286);
        g.frames.push_back(
            Box{{x0, y0, 0.0}, {x0 + s.rackPitch, y0 + depth, height}, static_cast<int>(ri), -1, facing});
        const double bay = r.rackType->value("bay_width", 0.537);
        for (std::size_t si = 0; si < r.slots.size(); ++si) {
            const Slot& slot = r.slots[si];
            const double w = std::min(slot.part->value("width", bay), s.rackPitch);
            const double dep = std::min(slot.part->value("depth", depth * 0.8), depth * 1.2);
            const double xa = x0 + (s.rackPitch - w) / 2;
            const double za = ouBottomZ(slot.ou, s);
            // A millimetre gap keeps neighbouring parts visibly separate.
            const double ya = facing > 0 ? y0 + depth - dep : y0; // parts sit at the front
            g.parts.push_back(Box{{xa, ya, za + 0.001},
                                  {xa + w, ya + dep, za + slot.part->ouHeight * s.ouPitch - 0.001},
                                  static_cast<int>(ri),
                                  static_cast<int>(si),
                                  facing});
        }
        for (int a = 0; a < 2; ++a) {
            g.boundsMin[a] = std::min(g.boundsMin[a], g.frames.back().min[a]);
            g.boundsMax[a] = std::max(g.boundsMax[a], g.frames.back().max[a]);
        }
    }
    return g;
}

} // namespace rdt::core
