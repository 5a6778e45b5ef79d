#include "room/RoomGeometry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/LayoutGeometry.h"
#include "room/RoomGeometryDetail.h"

namespace rdt::room {
using detail::AalcFrame;
using detail::aalcFrames;
namespace {

std::string fmt(double v, const char* unit)
{
    char b[48];
    std::snprintf(b, sizeof b, "%.3g %s", v, unit);
    return b;
}

/// Widths over an interval of `length` from both ends: `first` at each end, growing by at most
/// `kGrowth` a cell, never wider than `cell`; scaled so they fill the interval exactly (the
/// scale is at most 1, so no cell is wider than `cell` and the ends stay at most `first`).
constexpr double kGrowth = 1.25;
std::vector<double> gradedWidths(double length, double cell, double first)
{
    std::vector<double> lo, hi; // from the low end and from the high end
    double sum = 0, w = first;
    while (sum < length - 1e-12) {
        auto& side = lo.size() <= hi.size() ? lo : hi;
        side.push_back(w);
        sum += w;
        if (&side == &hi)
            w = std::min(cell, w * kGrowth);
    }
    std::vector<double> out(lo.begin(), lo.end());
    out.insert(out.end(), hi.rbegin(), hi.rend());
    for (double& x : out)
        x *= length / sum;
    return out;
}

/// Faces over [0, length] through every breakpoint (merged when closer than 0.3 cells), each
/// interval split into equal cells no wider than `cell` — or, with `refine` > 1, into cells of
/// `cell / refine` at both its ends growing by at most 1.25 a cell toward `cell` in its middle
/// (the breakpoints are the racks' faces, the aisles' and tiles' edges, the walls).
std::vector<double> axisFaces(std::vector<double> points, double length, double cell, double refine = 1.0)
{
    points.push_back(0.0);
    points.push_back(length);
    std::sort(points.begin(), points.end());
    std::vector<double> breaks;
    for (double p : points) {
        if (p < 0.0 || p > length)
            continue;
        if (breaks.empty() || p - breaks.back() > 0.3 * cell)
            breaks.push_back(p);
        else if (p == length)
            breaks.back() = length;
    }
    std::vector<double> faces{breaks.front()};
    for (std::size_t i = 1; i < breaks.size(); ++i) {
        const double a = breaks[i - 1], b = breaks[i];
        if (refine > 1.0) {
            double x = a;
            const std::vector<double> widths = gradedWidths(b - a, cell, cell / refine);
            for (std::size_t k = 0; k + 1 < widths.size(); ++k)
                faces.push_back(x += widths[k]);
            faces.push_back(b);
            continue;
        }
        const int n = std::max(1, static_cast<int>(std::ceil((b - a) / cell - 1e-9)));
        for (int k = 1; k <= n; ++k)
            faces.push_back(k == n ? b : a + (b - a) * k / n);
    }
    return faces;
}

struct Strip {
    double x0, x1, y0, y1;
};

/// Merge strips into as few rectangles as they exactly cover: strips with the same y range that
/// touch or overlap along x (racks side by side), and strips with the same x range that touch or
/// overlap along y (two rows' fronts on one aisle). Repeats until nothing merges.
std::vector<Strip> merged(std::vector<Strip> s)
{
    constexpr double eps = 1e-6;
    const auto same = [&](double a, double b) { return std::abs(a - b) < eps; };
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::size_t i = 0; i < s.size() && !changed; ++i)
            for (std::size_t j = i + 1; j < s.size() && !changed; ++j) {
                Strip& a = s[i];
                const Strip& b = s[j];
                const bool alongX = same(a.y0, b.y0) && same(a.y1, b.y1) && a.x0 <= b.x1 + eps && b.x0 <= a.x1 + eps;
                const bool alongY = same(a.x0, b.x0) && same(a.x1, b.x1) && a.y0 <= b.y1 + eps && b.y0 <= a.y1 + eps;
                if (alongX || alongY) {
                    a = {std::min(a.x0, b.x0), std::max(a.x1, b.x1), std::min(a.y0, b.y0), std::max(a.y1, b.y1)};
                    s.erase(s.begin() + static_cast<long>(j));
                    changed = true;
                }
            }
    }
    std::sort(s.begin(), s.end(),
              [](const Strip& a, const Strip& b) { return a.y0 < b.y0 || (a.y0 == b.y0 && a.x0 < b.x0); });
    return s;
}

/// Panels along x from x0 to x1 (one cell each), the fraction `leakage` of them (at least one) open;
/// adds their length and the open part of it to `area` ({open, all}, m).
void panels(RoomGeometry& g, const std::vector<double>& xf, double x0, double x1, std::array<double, 2> y,
            std::array<double, 2> z, double leakage, std::array<double, 2>& area)
{
    std::vector<std::size_t> cells;
    for (std::size_t i = 0; i + 1 < xf.size(); ++i) {
        const double c = 0.5 * (xf[i] + xf[i + 1]);
        if (c >= x0 && c <= x1)
            cells.push_back(i);
    }
    // Open panels, evenly spaced, for the leakage: at least one (no containment is airtight).
    const auto open =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(leakage * static_cast<double>(cells.size()))));
    for (std::size_t n = 0; n < cells.size(); ++n) {
        const bool isOpen = (n * open) / cells.size() != ((n + 1) * open) / cells.size();
        const std::size_t i = cells[n];
        area[1] += xf[i + 1] - xf[i];
        if (isOpen) {
            area[0] += xf[i + 1] - xf[i];
            continue;
        }
        g.solids.push_back(RoomSolid{{xf[i], y[0], z[0]}, {xf[i + 1], y[1], z[1]}});
    }
}

} // namespace

std::vector<RoomGeometry> roomGeometries(const core::Design& d, const std::vector<double>& flow,
                                         const std::vector<double>& heat, double density,
                                         const std::vector<double>& rackLiquidW)
{
    const core::Room& room = d.room;
    const core::SourceLoc where = room.declared ? room.loc : core::SourceLoc{d.file, 0, 0, "room"};
    const core::LayoutGeometry layout = core::computeLayout(d);
    // Group racks by pod, or by hall for rows outside pods; `scope: hall` one room a hall.
    const bool hallScope = room.scope == core::Room::Scope::Hall;
    const auto podKey = [&](const core::Rack& r) { return hallScope ? -1 : r.pod; };
    std::map<std::pair<int, int>, std::vector<int>> groups;
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
        const core::Rack& r = d.racks[ri];
        groups[{r.hall, podKey(r)}].push_back(static_cast<int>(ri));
    }
    using Kind = core::CoolingUnit::Kind;
    double supplyK = d.site.supplyAirK;
    int crahs = 0;
    for (const core::CoolingUnit& u : room.units)
        crahs += u.kind == Kind::Crah ? 1 : 0;
    if (crahs > 0) { // the plenum mixes the CRAHs' air: flow-weighted where flows are given
        double w = 0, t = 0;
        for (const core::CoolingUnit& u : room.units) {
            if (u.kind != Kind::Crah)
                continue;
            const double f = u.flowM3s.value_or(1.0);
            w += f;
            t += f * u.supplyK.value_or(d.site.supplyAirK);
        }
        supplyK = t / w;
    }
    // In-row units: the row each stands at the end of.
    std::vector<int> unitRow(room.units.size(), -1);
    for (std::size_t u = 0; u < room.units.size(); ++u) {
        if (room.units[u].kind != Kind::InRow)
            continue;
        for (std::size_t r = 0; r < d.rows.size(); ++r)
            if (d.rows[r].id == room.units[u].row && !d.rows[r].racks.empty())
                unitRow[u] = static_cast<int>(r);
        if (unitRow[u] < 0)
            throw core::InputError(room.units[u].loc,
                                   "in-row unit \"" + room.units[u].name + "\": no row \"" + room.units[u].row +
                                       "\" with racks in the layout (give the row's full id, e.g. " +
                                       (d.rows.empty() ? std::string("hall1/pod1/row01") : d.rows.front().id) + ")");
    }
    bool ceilingReturn = crahs == 0, wallReturn = false;
    for (const core::CoolingUnit& u : room.units) {
        if (u.kind != Kind::Crah)
            continue;
        ceilingReturn = ceilingReturn || u.airReturn == core::AirReturn::Ceiling;
        wallReturn = wallReturn || u.airReturn == core::AirReturn::Walls;
        if (room.containment == core::Containment::HotAisle && u.airReturn == core::AirReturn::Walls)
            throw core::InputError(u.loc, "cooling unit \"" + u.name +
                                              "\" returns through the walls, but the hot aisles are contained: the "
                                              "exhaust has no path to it (use `return: ceiling`)");
    }
    if (room.containment == core::Containment::ColdAisle && room.supply == core::AirSupply::Overhead)
        throw core::InputError(where, "overhead supply with cold-aisle containment: the diffusers would blow onto the "
                                      "aisle's roof (use `supply: raised-floor`)");

    std::vector<RoomGeometry> rooms;
    for (const auto& [key, racks] : groups) {
        RoomGeometry g;
        g.racks = racks;
        const core::Rack& first = d.racks[static_cast<std::size_t>(racks.front())];
        g.id = hallScope && first.hall >= 0 ? d.halls[static_cast<std::size_t>(first.hall)].id
               : first.pod >= 0             ? d.pods[static_cast<std::size_t>(first.pod)].id
               : first.hall >= 0            ? d.halls[static_cast<std::size_t>(first.hall)].id + "/rows"
                                            : std::string("room");
        std::array<double, 3> lo{1e300, 1e300, 0}, hi{-1e300, -1e300, 0};
        for (int ri : racks) {
            const core::Box& f = layout.frames[static_cast<std::size_t>(ri)];
            for (int a = 0; a < 3; ++a) {
                lo[static_cast<std::size_t>(a)] =
                    std::min(lo[static_cast<std::size_t>(a)], f.min[static_cast<std::size_t>(a)]);
                hi[static_cast<std::size_t>(a)] =
                    std::max(hi[static_cast<std::size_t>(a)], f.max[static_cast<std::size_t>(a)]);
            }
        }
        // The in-row units of this room's rows: frames beyond the row's first or last rack, as deep,
        // as tall and facing as it does.
        struct UnitFrame {
            std::size_t unit;
            core::Box frame;
            int facing;
        };
        std::vector<UnitFrame> units;
        // Units at the same end of a row stand side by side, each outboard of the one before.
        std::map<std::pair<int, bool>, double> outboard;
        for (std::size_t u = 0; u < room.units.size(); ++u) {
            if (unitRow[u] < 0)
                continue;
            const core::Group& row = d.rows[static_cast<std::size_t>(unitRow[u])];
            const core::Rack& r0 = d.racks[static_cast<std::size_t>(row.racks.front())];
            if (r0.hall != first.hall || podKey(r0) != podKey(first))
                continue;
            const core::Box& a = layout.frames[static_cast<std::size_t>(row.racks.front())];
            const core::Box& b = layout.frames[static_cast<std::size_t>(row.racks.back())];
            const double dir = b.min[0] >= a.min[0] ? 1.0 : -1.0; // the row's direction along x
            const core::Box& end = room.units[u].atStart ? a : b;
            const double s = room.units[u].atStart ? -dir : dir, w = room.units[u].widthM;
            UnitFrame uf{u, end, end.facing};
            double& off = outboard[{unitRow[u], room.units[u].atStart}];
            uf.frame.min[0] = s > 0 ? end.max[0] + off : end.min[0] - off - w;
            uf.frame.max[0] = s > 0 ? end.max[0] + off + w : end.min[0] - off;
            off += w;
            // Nothing else may stand there: another row's rack or unit in line with this row.
            const auto clash = [&](const core::Box& o) {
                return uf.frame.min[0] < o.max[0] - 1e-9 && o.min[0] < uf.frame.max[0] - 1e-9 &&
                       uf.frame.min[1] < o.max[1] - 1e-9 && o.min[1] < uf.frame.max[1] - 1e-9;
            };
            for (int ri : racks)
                if (clash(layout.frames[static_cast<std::size_t>(ri)]))
                    throw core::InputError(room.units[u].loc,
                                           "in-row unit \"" + room.units[u].name + "\" would stand on rack " +
                                               d.racks[static_cast<std::size_t>(ri)].id + " at the end of " + row.id);
            for (const UnitFrame& o : units)
                if (clash(o.frame))
                    throw core::InputError(room.units[u].loc, "in-row unit \"" + room.units[u].name +
                                                                  "\" would stand on in-row unit \"" +
                                                                  room.units[o.unit].name + "\"");
            units.push_back(uf);
            for (int ax = 0; ax < 2; ++ax) {
                lo[static_cast<std::size_t>(ax)] =
                    std::min(lo[static_cast<std::size_t>(ax)], uf.frame.min[static_cast<std::size_t>(ax)]);
                hi[static_cast<std::size_t>(ax)] =
                    std::max(hi[static_cast<std::size_t>(ax)], uf.frame.max[static_cast<std::size_t>(ax)]);
            }
        }
        // Liquid-to-air units (AALC) beside their racks (AalcUnits.cpp), beyond any in-row unit.
        const std::vector<AalcFrame> aalc =
            aalcFrames(d, layout, racks, first.hall, podKey(first), hallScope, rackLiquidW, density,
                       outboard);
        for (const AalcFrame& af : aalc)
            for (int ax = 0; ax < 2; ++ax) {
                lo[static_cast<std::size_t>(ax)] =
                    std::min(lo[static_cast<std::size_t>(ax)], af.frame.min[static_cast<std::size_t>(ax)]);
                hi[static_cast<std::size_t>(ax)] =
                    std::max(hi[static_cast<std::size_t>(ax)], af.frame.max[static_cast<std::size_t>(ax)]);
            }
        g.rackTopM = hi[2];
        const double cell = room.cellM;
        if (room.ceilingM < g.rackTopM + 2 * cell)
            throw core::InputError(where, "the racks of " + g.id + " (" + fmt(g.rackTopM, "m") +
                                              " tall) do not fit under the room's " + fmt(room.ceilingM, "m") +
                                              " ceiling with two grid cells (" + fmt(2 * cell, "m") +
                                              ") of air above them for the return path");
        const double c = room.clearanceM;
        g.origin = {lo[0] - c, lo[1] - c, 0.0};
        g.size = {hi[0] - lo[0] + 2 * c, hi[1] - lo[1] + 2 * c, room.ceilingM};
        // A room of a given size: the racks in its middle, at least two grid cells from each wall
        // (the air round the row ends and behind the last rows needs room to move).
        for (int a = 0; a < 2; ++a) {
            const std::optional<double>& given = a == 0 ? room.lengthM : room.widthM;
            if (!given)
                continue;
            const auto A = static_cast<std::size_t>(a);
            const double span = hi[A] - lo[A];
            if (span + 4 * cell > *given) {
                // Name the rack farthest out along this axis.
                int far = racks.front();
                for (int ri : racks)
                    if (layout.frames[static_cast<std::size_t>(ri)].max[A] >
                        layout.frames[static_cast<std::size_t>(far)].max[A])
                        far = ri;
                throw core::InputError(
                    a == 0 ? room.lengthLoc : room.widthLoc,
                    "rack " + d.racks[static_cast<std::size_t>(far)].id + " stands outside the room: the racks of " +
                        g.id + " span " + fmt(span, "m") + (a == 0 ? " along the rows" : " across them") +
                        ", the room is " + fmt(*given, "m") + (a == 0 ? " long" : " wide") +
                        " and needs two grid cells (" + fmt(2 * cell, "m") + ") of air at each wall");
            }
            g.origin[A] = 0.5 * (lo[A] + hi[A]) - 0.5 * *given;
            g.size[A] = *given;
        }
        const double ox = g.origin[0], oy = g.origin[1];

        // Racks: overlap check, black boxes, breakpoints, the aisles in front and behind.
        std::array<std::vector<double>, 3> points;
        points[2] = {g.rackTopM, g.rackTopM + cell};
        std::vector<Strip> cold, hot;
        // A box facing +y (facing > 0) or −y: its faces are breakpoints, the aisles in front of and
        // behind it strips (tiles, containment, returns).
        const auto place = [&](const FieldBlackBox& box, int facing) {
            for (int a = 0; a < 2; ++a) {
                points[static_cast<std::size_t>(a)].push_back(box.min[static_cast<std::size_t>(a)]);
                points[static_cast<std::size_t>(a)].push_back(box.max[static_cast<std::size_t>(a)]);
            }
            const double front = facing > 0 ? box.max[1] : box.min[1];
            const double back = facing > 0 ? box.min[1] : box.max[1];
            const double s = facing > 0 ? 1.0 : -1.0;
            const double ca = room.coldAisleM, ha = room.hotAisleM;
            cold.push_back(
                Strip{box.min[0], box.max[0], std::min(front, front + s * ca), std::max(front, front + s * ca)});
            hot.push_back(Strip{box.min[0], box.max[0], std::min(back, back - s * ha), std::max(back, back - s * ha)});
        };
        double rackFlow = 0;
        for (std::size_t n = 0; n < racks.size(); ++n) {
            const int ri = racks[n];
            const core::Box& f = layout.frames[static_cast<std::size_t>(ri)];
            for (std::size_t m = 0; m < n; ++m) {
                const core::Box& o = layout.frames[static_cast<std::size_t>(racks[m])];
                bool overlap = true;
                for (int a = 0; a < 2; ++a)
                    overlap = overlap &&
                              f.min[static_cast<std::size_t>(a)] < o.max[static_cast<std::size_t>(a)] - 1e-9 &&
                              o.min[static_cast<std::size_t>(a)] < f.max[static_cast<std::size_t>(a)] - 1e-9;
                if (overlap)
                    throw core::InputError(d.racks[static_cast<std::size_t>(ri)].loc,
                                           "rack " + d.racks[static_cast<std::size_t>(ri)].id + " overlaps rack " +
                                               d.racks[static_cast<std::size_t>(racks[m])].id + " on the floor");
            }
            FieldBlackBox box;
            box.min = {f.min[0] - ox, f.min[1] - oy, 0.0};
            box.max = {f.max[0] - ox, f.max[1] - oy, f.max[2]};
            box.intake = f.facing > 0 ? Side::YMax : Side::YMin;
            // The rack draws through its occupied OU (blanking panels close the rest): one band per
            // slot, in the rack's slot order, so that each chassis draws and releases its own share
            // (RoomThermal sets the shares from the rack network).
            const core::LayoutSpacing spacing;
            for (const core::Slot& slot : d.racks[static_cast<std::size_t>(ri)].slots) {
                const double z0 = core::ouBottomZ(slot.ou, spacing);
                box.bands.push_back({z0, z0 + slot.part->ouHeight * spacing.ouPitch});
            }
            box.massFlow = flow.at(static_cast<std::size_t>(ri));
            box.heat = heat.at(static_cast<std::size_t>(ri));
            rackFlow += box.massFlow;
            g.boxes.push_back(box);
            g.rackHeightM.push_back(f.max[2]);
            points[2].push_back(f.max[2]);
            place(box, f.facing);
        }
        // The in-row units: coolers drawing at the hot-aisle side, blowing into the cold aisle.
        for (const UnitFrame& uf : units) {
            const core::CoolingUnit& u = room.units[uf.unit];
            const core::Box& f = uf.frame;
            FieldBlackBox box;
            box.min = {f.min[0] - ox, f.min[1] - oy, 0.0};
            box.max = {f.max[0] - ox, f.max[1] - oy, f.max[2]};
            box.intake = uf.facing > 0 ? Side::YMin : Side::YMax; // its rear, on the hot aisle
            box.massFlow = u.flowM3s.value_or(0.0) * density;
            box.fixedExhaustC = u.supplyK.value_or(d.site.supplyAirK) - 273.15;
            g.boxes.push_back(box);
            g.coolers.push_back(u.name);
            g.inRowM3s += u.flowM3s.value_or(0.0);
            place(box, uf.facing);
        }
        // The liquid-to-air units: racks without slots, drawing at their front like their row's racks.
        for (const AalcFrame& af : aalc) {
            FieldBlackBox box;
            box.min = {af.frame.min[0] - ox, af.frame.min[1] - oy, 0.0};
            box.max = {af.frame.max[0] - ox, af.frame.max[1] - oy, af.frame.max[2]};
            box.intake = af.facing > 0 ? Side::YMax : Side::YMin;
            box.massFlow = af.massFlow;
            box.heat = af.heat;
            g.boxes.push_back(box);
            g.aalcUnits.push_back(af.name);
            g.aalcM3s += af.massFlow / density;
            g.aalcHeatW += af.heat;
            rackFlow += af.massFlow;
            place(box, af.facing);
        }
        cold = merged(cold);
        hot = merged(hot);
        for (auto* strips : {&cold, &hot})
            for (Strip& s : *strips) {
                s.y0 = std::max(s.y0, 0.0);
                s.y1 = std::min(s.y1, g.size[1]);
                points[0].insert(points[0].end(), {s.x0, s.x1});
                points[1].insert(points[1].end(), {s.y0, s.y1});
            }
        for (int a = 0; a < 3; ++a)
            g.faces[static_cast<std::size_t>(a)] =
                axisFaces(points[static_cast<std::size_t>(a)], g.size[static_cast<std::size_t>(a)], cell, room.refine);
        const std::size_t cells = g.cellCount();
        if (static_cast<long long>(cells) > room.maxCells)
            throw core::InputError(where, "the field grid of " + g.id + " would have " + std::to_string(cells) +
                                              " cells (about " + fmt(static_cast<double>(cells) * 512.0 / 1e9, "GB") +
                                              "), more than room.max_cells = " + std::to_string(room.maxCells) +
                                              "; coarsen `room.grid` (now " + fmt(cell, "m") + ") or raise the limit");

        // Supply: the units' flows, or the site's ratio of the racks' demand.
        g.demandM3s = rackFlow / density;
        double given = 0;
        int shares = room.units.empty() ? 1 : 0;
        for (const core::CoolingUnit& u : room.units) {
            if (u.kind != Kind::Crah)
                continue; // in-row units blow their own flow (their boxes)
            given += u.flowM3s.value_or(0.0);
            shares += u.flowM3s ? 0 : 1;
        }
        g.supplyM3s = given + (shares > 0 ? d.site.supplyFlowRatio * g.demandM3s : 0.0);
        // Located at the room's first rack, with the ways on (it named the design file alone; trust
        // trial, 2026-12-07).
        if (!(g.supplyM3s + g.inRowM3s > 0))
            throw core::InputError(racks.empty() ? where : d.racks[static_cast<std::size_t>(racks.front())].loc,
                                   "no cooling air reaches " + g.id + ": " +
                                       (racks.size() == 1 ? std::string("its one rack draws no air")
                                                          : "none of its " + std::to_string(racks.size()) +
                                                                " racks draws air") +
                                       " (no part that moves air, or none with air through it) and no unit "
                                       "states a flow, so the room field has nothing to solve there; check with "
                                       "--thermal network, or give a cooling unit in room.cooling_units a flow");
        g.supplyC = supplyK - 273.15;
        double tileArea = 0;
        for (const Strip& s : cold)
            tileArea += (s.x1 - s.x0) * (s.y1 - s.y0);
        const double speed = g.supplyM3s / tileArea;
        int n = 0;
        for (const Strip& s : g.supplyM3s > 0 ? cold : std::vector<Strip>{}) {
            RoomPatch p;
            p.name = "supply_" + std::to_string(++n);
            p.side = room.supply == core::AirSupply::RaisedFloor ? Side::ZMin : Side::ZMax;
            p.lo = {s.x0, s.y0};
            p.hi = {s.x1, s.y1};
            p.kind = BoundaryKind::Inlet;
            p.speed = speed;
            p.temperatureC = g.supplyC;
            g.patches.push_back(p);
        }
        n = 0;
        if (ceilingReturn)
            for (const Strip& s : hot) {
                RoomPatch p;
                p.name = "return_" + std::to_string(++n);
                p.side = Side::ZMax;
                p.lo = {s.x0, s.y0};
                p.hi = {s.x1, s.y1};
                p.kind = BoundaryKind::Outlet;
                g.patches.push_back(p);
            }
        if (wallReturn)
            for (Side side : {Side::XMin, Side::XMax}) {
                RoomPatch p;
                p.name = side == Side::XMin ? "return_wall_west" : "return_wall_east";
                p.side = side;
                p.lo = {0.0, g.rackTopM};
                p.hi = {g.size[1], g.size[2]};
                p.kind = BoundaryKind::Outlet;
                g.patches.push_back(p);
            }

        // Containment: panels one cell thick, the fraction `leakage` of them (at least one) open.
        const auto& xf = g.faces[0];
        std::array<double, 2> panelArea{0, 0}; // {open, all}: lengths along the rows (m)
        if (room.containment == core::Containment::ColdAisle)
            for (const Strip& s : cold) {
                panels(g, xf, s.x0, s.x1, {s.y0, s.y1}, {g.rackTopM, g.rackTopM + cell}, room.leakage,
                       panelArea);                                                                      // roof
                g.solids.push_back(RoomSolid{{s.x0 - cell, s.y0, 0}, {s.x0, s.y1, g.rackTopM + cell}}); // doors
                g.solids.push_back(RoomSolid{{s.x1, s.y0, 0}, {s.x1 + cell, s.y1, g.rackTopM + cell}});
            }
        if (room.containment == core::Containment::HotAisle)
            for (const Strip& s : hot) { // a chimney from the racks' tops to the ceiling return
                if (s.y0 > cell)
                    panels(g, xf, s.x0, s.x1, {s.y0 - cell, s.y0}, {g.rackTopM, g.size[2]}, room.leakage, panelArea);
                if (s.y1 < g.size[1] - cell)
                    panels(g, xf, s.x0, s.x1, {s.y1, s.y1 + cell}, {g.rackTopM, g.size[2]}, room.leakage, panelArea);
                g.solids.push_back(RoomSolid{{s.x0 - cell, s.y0, 0}, {s.x0, s.y1, g.size[2]}});
                g.solids.push_back(RoomSolid{{s.x1, s.y0, 0}, {s.x1 + cell, s.y1, g.size[2]}});
            }

        if (panelArea[1] > 0)
            g.containmentOpen = panelArea[0] / panelArea[1];

        // Rooms of one layout and rack templates share a solution.
        char pos[96];
        for (std::size_t k = 0; k < racks.size(); ++k) {
            const core::Rack& r = d.racks[static_cast<std::size_t>(racks[k])];
            std::snprintf(pos, sizeof pos, "|%.6f,%.6f,%.6f,%.6f|", g.boxes[k].min[0], g.boxes[k].min[1],
                          g.boxes[k].massFlow, g.boxes[k].heat);
            g.signature += (r.bodyPath.empty() ? r.id : r.bodyPath) + pos;
        }
        for (std::size_t k = racks.size(); k < g.boxes.size(); ++k) { // in-row and liquid-to-air units
            std::snprintf(pos, sizeof pos, "|unit %.6f,%.6f,%.6f,%.6f,%.6f|", g.boxes[k].min[0], g.boxes[k].min[1],
                          g.boxes[k].massFlow, g.boxes[k].fixedExhaustC, g.boxes[k].heat);
            g.signature += pos;
        }
        rooms.push_back(std::move(g));
    }
    return rooms;
}

std::unique_ptr<FieldSolver> makeRoomSolver(const RoomGeometry& g, const FluidProperties& air)
{
    auto s = std::make_unique<FieldSolver>(FieldGrid(g.faces), air);
    // Walls, floor and ceiling: adiabatic, no slip (the default). Then the openings.
    for (const RoomPatch& p : g.patches) {
        BoundaryCondition bc;
        bc.kind = p.kind;
        if (p.kind == BoundaryKind::Inlet) {
            const int axis = static_cast<int>(p.side) / 2;
            const bool high = static_cast<int>(p.side) % 2 == 1;
            bc.velocity[static_cast<std::size_t>(axis)] = high ? -p.speed : p.speed;
            bc.temperature = p.temperatureC;
        }
        s->setBoundaryPatch(p.side, p.lo, p.hi, bc);
    }
    for (const RoomSolid& x : g.solids)
        s->addSolid(x.min, x.max);
    for (const FieldBlackBox& b : g.boxes)
        s->addBlackBox(b);
    return s;
}

std::vector<std::string> boxNames(const RoomGeometry& room, const core::Design& design)
{
    std::vector<std::string> names;
    for (int ri : room.racks)
        names.push_back(design.racks.at(static_cast<std::size_t>(ri)).id);
    names.insert(names.end(), room.coolers.begin(), room.coolers.end());
    names.insert(names.end(), room.aalcUnits.begin(), room.aalcUnits.end());
    return names;
}

} // namespace rdt::room
