// The field solver's racks as black boxes, and solid panels.
#include "room/FieldSolver.h"
#include "room/FieldSolverDetail.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace rdt::room {

using namespace detail;

std::vector<char> openLayers(const FieldGrid& g, const FieldBlackBox& box)
{
    const int nz = g.cells(2);
    std::vector<char> open(static_cast<std::size_t>(nz), box.bands.empty() ? 1 : 0);
    for (const auto& band : box.bands) {
        bool any = false;
        int nearest = 0;
        double best = std::numeric_limits<double>::infinity();
        const double mid = 0.5 * (band[0] + band[1]);
        for (int k = 0; k < nz; ++k) {
            const double z = g.centre(2, k);
            if (z < box.min[2] || z > box.max[2])
                continue;
            if (z >= band[0] && z <= band[1]) {
                open[static_cast<std::size_t>(k)] = 1;
                any = true;
            }
            if (std::abs(z - mid) < best) {
                best = std::abs(z - mid);
                nearest = k;
            }
        }
        if (!any && std::isfinite(best))
            open[static_cast<std::size_t>(nearest)] = 1;
    }
    return open;
}

int FieldSolver::addBlackBox(const FieldBlackBox& spec)
{
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (!std::isfinite(spec.min[D]) || !std::isfinite(spec.max[D]) || !(spec.max[D] > spec.min[D]))
            throw std::invalid_argument("field solver: a black box needs finite bounds with max > min");
    }
    if (!(spec.massFlow >= 0) || !std::isfinite(spec.massFlow) || !(spec.heat >= 0) || !std::isfinite(spec.heat))
        throw std::invalid_argument("field solver: a black box's flow and heat must be finite and non-negative");
    if (spec.heat > 0 && spec.massFlow == 0)
        throw std::invalid_argument("field solver: a black box that releases heat needs an air flow to carry it");
    if (std::isfinite(spec.fixedExhaustC) && spec.heat != 0)
        throw std::invalid_argument("field solver: a cooler (fixed exhaust temperature) takes no heat of its own");
    const auto range = cellsInside(spec.min, spec.max);
    const std::array<int, 3> lo = range[0], hi = range[1];
    const int d = axisOf(spec.intake);
    const auto D = static_cast<std::size_t>(d);
    const int front = isHigh(spec.intake) ? hi[D] + 1 : lo[D] - 1;
    const int back = isHigh(spec.intake) ? lo[D] - 1 : hi[D] + 1;
    if (front < 0 || front >= m_grid.cells(d) || back < 0 || back >= m_grid.cells(d))
        throw std::invalid_argument("field solver: a black box's intake or exhaust face lies on the domain's edge");
    for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i)
                if (m_solid[m_grid.cell(i, j, k)])
                    throw std::invalid_argument("field solver: black boxes overlap");
    Box box;
    box.spec = spec;
    const auto plane = planeAxes(d);
    double intakeArea = 0;
    const std::vector<char> open =
        d == 2 ? std::vector<char>(static_cast<std::size_t>(m_grid.cells(2)), 1) : openLayers(m_grid, spec);
    for (int b = lo[static_cast<std::size_t>(plane[1])]; b <= hi[static_cast<std::size_t>(plane[1])]; ++b)
        for (int a = lo[static_cast<std::size_t>(plane[0])]; a <= hi[static_cast<std::size_t>(plane[0])]; ++a) {
            Index3 f{}, r{};
            f[static_cast<std::size_t>(plane[0])] = r[static_cast<std::size_t>(plane[0])] = a;
            f[static_cast<std::size_t>(plane[1])] = r[static_cast<std::size_t>(plane[1])] = b;
            if (!open[static_cast<std::size_t>(f[2])])
                continue; // a closed (blanked) part of the face
            f[D] = front;
            r[D] = back;
            const std::size_t fc = m_grid.cell(f[0], f[1], f[2]), rc = m_grid.cell(r[0], r[1], r[2]);
            if (m_solid[fc] || m_solid[rc])
                throw std::invalid_argument("field solver: a black box's intake or exhaust face is blocked by another");
            const double area = m_grid.width(plane[0], a) * m_grid.width(plane[1], b);
            Index3 fi = f, ri = r; // the faces between the box and these cells
            fi[D] = isHigh(spec.intake) ? front : front + 1;
            ri[D] = isHigh(spec.intake) ? back + 1 : back;
            box.intake.faces.push_back(faceIndex(d, fi));
            box.exhaust.faces.push_back(faceIndex(d, ri));
            box.intake.cells.push_back(fc);
            box.intake.weights.push_back(area);
            box.exhaust.cells.push_back(rc);
            box.exhaust.weights.push_back(area);
            box.faceArea.push_back(area);
            intakeArea += area;
        }
    if (!(intakeArea > 0))
        throw std::invalid_argument("field solver: a black box's bands open none of its face");
    for (double& w : box.intake.weights)
        w /= intakeArea;
    for (double& w : box.exhaust.weights)
        w /= intakeArea;
    box.axis = d;
    box.area = intakeArea;
    buildZones(box);
    applyShares(box, spec.bandFlow, spec.bandHeat); // validates them before the box takes its cells
    makeSolid(range);
    m_boxes.push_back(std::move(box));
    updateBlackBoxes();
    return static_cast<int>(m_boxes.size()) - 1;
}

std::array<std::array<int, 3>, 2> FieldSolver::cellsInside(const std::array<double, 3>& min,
                                                           const std::array<double, 3>& max) const
{
    std::array<int, 3> lo{}, hi{};
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        if (!std::isfinite(min[D]) || !std::isfinite(max[D]) || !(max[D] > min[D]))
            throw std::invalid_argument("field solver: a box needs finite bounds with max > min");
        lo[D] = m_grid.cells(d);
        hi[D] = -1;
        for (int i = 0; i < m_grid.cells(d); ++i)
            if (m_grid.centre(d, i) > min[D] && m_grid.centre(d, i) < max[D]) {
                lo[D] = std::min(lo[D], i);
                hi[D] = std::max(hi[D], i);
            }
        if (hi[D] < lo[D])
            throw std::invalid_argument("field solver: a box covers no cell of the grid (refine the grid)");
    }
    return {lo, hi};
}

void FieldSolver::makeSolid(const std::array<std::array<int, 3>, 2>& range)
{
    m_region.clear(); // the bodies of air change
    for (int k = range[0][2]; k <= range[1][2]; ++k)
        for (int j = range[0][1]; j <= range[1][1]; ++j)
            for (int i = range[0][0]; i <= range[1][0]; ++i) {
                m_solid[m_grid.cell(i, j, k)] = 1;
                for (int a = 0; a < 3; ++a) { // no flow through a solid's faces (a box sets its own)
                    Index3 f0{i, j, k}, f1{i, j, k};
                    f1[static_cast<std::size_t>(a)] += 1;
                    m_u[static_cast<std::size_t>(a)][faceIndex(a, f0)] = 0;
                    m_u[static_cast<std::size_t>(a)][faceIndex(a, f1)] = 0;
                }
            }
}

void FieldSolver::addSolid(std::array<double, 3> min, std::array<double, 3> max)
{
    makeSolid(cellsInside(min, max));
}

void FieldSolver::setBlackBoxFlow(int box, double massFlow, double heat)
{
    if (box < 0 || box >= blackBoxCount())
        throw std::out_of_range("field solver: no such black box");
    if (!(massFlow >= 0) || !std::isfinite(massFlow) || !(heat >= 0) || !std::isfinite(heat))
        throw std::invalid_argument("field solver: a black box's flow and heat must be finite and non-negative");
    if (heat > 0 && massFlow == 0)
        throw std::invalid_argument("field solver: a black box that releases heat needs an air flow to carry it");
    m_boxes[static_cast<std::size_t>(box)].spec.massFlow = massFlow;
    m_boxes[static_cast<std::size_t>(box)].spec.heat = heat;
    updateBlackBoxes();
}

void FieldSolver::buildZones(Box& box) const
{
    const std::size_t faces = box.faceArea.size();
    box.faceZone.assign(faces, 0);
    box.zoneArea.assign(1, box.area);
    box.bandZones.clear();
    const bool shared = !box.spec.bandFlow.empty() || !box.spec.bandHeat.empty();
    if (!shared || box.axis == 2 || box.spec.bands.empty())
        return; // one zone: the flow by area, one exhaust temperature
    // A zone per layer of cells the face is open at.
    std::vector<int> layerOfZone;
    box.zoneArea.clear();
    for (std::size_t n = 0; n < faces; ++n) {
        const int k = m_grid.index(box.intake.cells[n])[2];
        auto it = std::find(layerOfZone.begin(), layerOfZone.end(), k);
        if (it == layerOfZone.end()) {
            layerOfZone.push_back(k);
            box.zoneArea.push_back(0.0);
            it = layerOfZone.end() - 1;
        }
        const auto z = static_cast<int>(it - layerOfZone.begin());
        box.faceZone[n] = z;
        box.zoneArea[static_cast<std::size_t>(z)] += box.faceArea[n];
    }
    // Each band over the open layers it overlaps, by height; one thinner than a cell that overlaps
    // none of them (openLayers opened the row nearest its middle for it) to the nearest.
    for (const auto& band : box.spec.bands) {
        std::vector<std::pair<int, double>> split;
        double total = 0;
        for (std::size_t z = 0; z < layerOfZone.size(); ++z) {
            const int k = layerOfZone[z];
            const double overlap = std::min(band[1], m_grid.face(2, k + 1)) - std::max(band[0], m_grid.face(2, k));
            if (overlap > 0) {
                split.emplace_back(static_cast<int>(z), overlap);
                total += overlap;
            }
        }
        if (!(total > 0)) {
            const double mid = 0.5 * (band[0] + band[1]);
            std::size_t best = 0;
            for (std::size_t z = 1; z < layerOfZone.size(); ++z)
                if (std::abs(m_grid.centre(2, layerOfZone[z]) - mid) <
                    std::abs(m_grid.centre(2, layerOfZone[best]) - mid))
                    best = z;
            split = {{static_cast<int>(best), 1.0}};
            total = 1.0;
        }
        for (auto& [z, f] : split)
            f /= total;
        box.bandZones.push_back(std::move(split));
    }
}

void FieldSolver::applyShares(Box& box, const std::vector<double>& bandFlow, const std::vector<double>& bandHeat) const
{
    const std::size_t zones = box.zoneArea.size();
    box.zoneFlow.assign(zones, 0.0);
    box.zoneHeat.assign(zones, 0.0);
    if (bandFlow.empty() && bandHeat.empty()) {
        for (std::size_t z = 0; z < zones; ++z)
            box.zoneFlow[z] = box.zoneHeat[z] = box.zoneArea[z] / box.area;
    } else {
        const std::size_t bands = box.spec.bands.size();
        if (bandFlow.size() != bands || bandHeat.size() != bands)
            throw std::invalid_argument("field solver: a black box's flow and heat shares need one value per band (" +
                                        std::to_string(bands) + " bands)");
        double flowSum = 0, heatSum = 0;
        for (std::size_t b = 0; b < bands; ++b) {
            if (!(bandFlow[b] >= 0) || !std::isfinite(bandFlow[b]) || !(bandHeat[b] >= 0) ||
                !std::isfinite(bandHeat[b]))
                throw std::invalid_argument("field solver: a black box's flow and heat shares must be finite and "
                                            "non-negative");
            if (bandHeat[b] > 0 && bandFlow[b] == 0)
                throw std::invalid_argument("field solver: band " + std::to_string(b + 1) +
                                            " of a black box releases heat but draws no air");
            flowSum += bandFlow[b];
            heatSum += bandHeat[b];
        }
        if (!(flowSum > 0))
            throw std::invalid_argument("field solver: a black box's flow shares are all zero");
        for (std::size_t b = 0; b < bands; ++b) {
            // One zone (a vertical box) takes every band's share.
            const std::vector<std::pair<int, double>> whole{{0, 1.0}};
            const auto& split = box.bandZones.empty() ? whole : box.bandZones[b];
            for (const auto& [z, f] : split) {
                box.zoneFlow[static_cast<std::size_t>(z)] += f * bandFlow[b] / flowSum;
                box.zoneHeat[static_cast<std::size_t>(z)] +=
                    f * (heatSum > 0 ? bandHeat[b] / heatSum : bandFlow[b] / flowSum);
            }
        }
    }
    box.flowShare.resize(box.faceArea.size());
    for (std::size_t n = 0; n < box.faceArea.size(); ++n) {
        const auto z = static_cast<std::size_t>(box.faceZone[n]);
        box.flowShare[n] = box.zoneFlow[z] * box.faceArea[n] / box.zoneArea[z];
    }
    box.zoneIntake.assign(zones, 0.0);
    box.zoneExhaust.assign(zones, 0.0);
    box.spec.bandFlow = bandFlow;
    box.spec.bandHeat = bandHeat;
}

void FieldSolver::setBlackBoxShares(int box, const std::vector<double>& bandFlow, const std::vector<double>& bandHeat)
{
    if (box < 0 || box >= blackBoxCount())
        throw std::out_of_range("field solver: no such black box");
    Box& b = m_boxes[static_cast<std::size_t>(box)];
    if (b.bandZones.empty() && b.zoneArea.size() == 1 && !(bandFlow.empty() && bandHeat.empty()) && b.axis != 2 &&
        !b.spec.bands.empty()) { // a box built without shares: its zones now
        b.spec.bandFlow = bandFlow;
        b.spec.bandHeat = bandHeat;
        buildZones(b);
    }
    applyShares(b, bandFlow, bandHeat);
    updateBlackBoxes();
}

std::vector<BlackBoxFace> FieldSolver::blackBoxFaces(int box) const
{
    const Box& b = m_boxes.at(static_cast<std::size_t>(box));
    std::vector<BlackBoxFace> out(b.faceArea.size());
    for (std::size_t n = 0; n < out.size(); ++n) {
        out[n].intakeCell = m_grid.index(b.intake.cells[n]);
        out[n].exhaustCell = m_grid.index(b.exhaust.cells[n]);
        out[n].speed = b.spec.massFlow * b.flowShare[n] / (m_fluid.density * b.faceArea[n]);
        out[n].exhaustC = b.zoneExhaust[static_cast<std::size_t>(b.faceZone[n])];
        out[n].zone = b.faceZone[n];
        out[n].cooler = std::isfinite(b.spec.fixedExhaustC);
        out[n].zoneHeatW = out[n].cooler ? 0.0 : b.spec.heat * b.zoneHeat[static_cast<std::size_t>(b.faceZone[n])];
    }
    return out;
}

BlackBoxState FieldSolver::blackBoxState(int box) const
{
    if (box < 0 || box >= blackBoxCount())
        throw std::out_of_range("field solver: no such black box");
    return m_boxes[static_cast<std::size_t>(box)].state;
}

// The boxes' intake temperatures from the current field, their exhaust temperatures, and the
// per-cell sinks and releases the continuity and energy equations see.
std::array<double, 2> FieldSolver::intakeBetween(int box, double zLo, double zHi) const
{
    const Box& b = m_boxes.at(static_cast<std::size_t>(box));
    const std::size_t layer = static_cast<std::size_t>(m_grid.cells(0)) * static_cast<std::size_t>(m_grid.cells(1));
    const double mid = 0.5 * (zLo + zHi);
    // The cells in the band; when the band is thinner than a cell, the row nearest its middle.
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t c : b.intake.cells)
        nearest = std::min(nearest, std::abs(m_grid.centre(2, static_cast<int>(c / layer)) - mid));
    double sum = 0, weight = 0, hottest = -std::numeric_limits<double>::infinity();
    for (std::size_t n = 0; n < b.intake.cells.size(); ++n) {
        const std::size_t c = b.intake.cells[n];
        const double z = m_grid.centre(2, static_cast<int>(c / layer));
        const bool inBand = z >= zLo && z <= zHi;
        if (!inBand && std::abs(std::abs(z - mid) - nearest) > 1e-9)
            continue;
        sum += b.intake.weights[n] * m_t[c];
        weight += b.intake.weights[n];
        hottest = std::max(hottest, m_t[c]);
    }
    return {weight > 0 ? sum / weight : b.state.intakeMean, weight > 0 ? hottest : b.state.intakeMax};
}

void FieldSolver::updateBlackBoxes()
{
    std::fill(m_sink.begin(), m_sink.end(), 0.0);
    std::fill(m_release.begin(), m_release.end(), 0.0);
    std::fill(m_releaseEnthalpy.begin(), m_releaseEnthalpy.end(), 0.0);
    const double cp = m_fluid.specificHeat;
    for (Box& b : m_boxes) {
        // Mass-weighted over the whole face; per zone (a layer's chassis) by area.
        double mean = 0, hottest = -std::numeric_limits<double>::infinity();
        std::fill(b.zoneIntake.begin(), b.zoneIntake.end(), 0.0);
        for (std::size_t n = 0; n < b.intake.cells.size(); ++n) {
            const double t = m_t[b.intake.cells[n]];
            mean += b.flowShare[n] * t;
            hottest = std::max(hottest, t);
            b.zoneIntake[static_cast<std::size_t>(b.faceZone[n])] += b.faceArea[n] * t;
        }
        const bool cooler = std::isfinite(b.spec.fixedExhaustC);
        for (std::size_t z = 0; z < b.zoneIntake.size(); ++z) {
            b.zoneIntake[z] /= b.zoneArea[z];
            // Each zone's air leaves heated by its own share: T_in,z + Q_z / (ṁ_z c_p).
            const double m = b.spec.massFlow * b.zoneFlow[z];
            b.zoneExhaust[z] = cooler  ? b.spec.fixedExhaustC
                               : m > 0 ? b.zoneIntake[z] + b.spec.heat * b.zoneHeat[z] / (m * cp)
                                       : b.zoneIntake[z];
        }
        b.state.intakeMean = mean;
        b.state.intakeMax = hottest;
        b.state.exhaust = cooler                ? b.spec.fixedExhaustC
                          : b.spec.massFlow > 0 ? mean + b.spec.heat / (b.spec.massFlow * cp)
                                                : mean;
        // The box's faces carry its flow (along +axis when it draws from its low side).
        const double sign = isHigh(b.spec.intake) ? -1.0 : 1.0;
        auto& u = m_u[static_cast<std::size_t>(b.axis)];
        for (std::size_t n = 0; n < b.intake.faces.size(); ++n) {
            const double m = b.spec.massFlow * b.flowShare[n];
            const double velocity = sign * m / (m_fluid.density * b.faceArea[n]);
            u[b.intake.faces[n]] = velocity;
            u[b.exhaust.faces[n]] = velocity;
            m_sink[b.intake.cells[n]] += m;
            m_release[b.exhaust.cells[n]] += m;
            m_releaseEnthalpy[b.exhaust.cells[n]] += m * b.zoneExhaust[static_cast<std::size_t>(b.faceZone[n])];
        }
    }
}

// The pressure correction balances mass per connected body of air. The outlets carry exactly the
// inflow in all (applyVelocityBoundaries), so one body may hold outlets; a body sealed off by
// solids, joined to the rest only through black boxes (which carry fixed flows), must have its
// fixed flows balance by themselves — otherwise no velocity field conserves mass and the
// iterations would run away. Located errors instead.
void FieldSolver::checkAirRegions() const
{
    const std::size_t n = m_grid.cellCount();
    const std::array<std::size_t, 3> stride{1, static_cast<std::size_t>(m_grid.cells(0)),
                                            static_cast<std::size_t>(m_grid.cells(0)) *
                                                static_cast<std::size_t>(m_grid.cells(1))};
    // The bodies of air, labelled once per geometry (makeSolid clears them).
    if (m_region.size() != n) {
        m_region.assign(n, -1);
        m_regionSeeds.clear();
        std::vector<std::size_t> stack;
        for (std::size_t seed = 0; seed < n; ++seed) {
            if (m_solid[seed] || m_region[seed] >= 0)
                continue;
            const int id = static_cast<int>(m_regionSeeds.size());
            m_regionSeeds.push_back(seed);
            m_region[seed] = id;
            stack.push_back(seed);
            while (!stack.empty()) {
                const std::size_t c = stack.back();
                stack.pop_back();
                const Index3 at = m_grid.index(c);
                for (int d = 0; d < 3; ++d)
                    for (int side : {-1, 1}) {
                        const int next = at[static_cast<std::size_t>(d)] + side;
                        if (next < 0 || next >= m_grid.cells(d))
                            continue;
                        const std::size_t nb = side < 0 ? c - stride[static_cast<std::size_t>(d)]
                                                        : c + stride[static_cast<std::size_t>(d)];
                        if (!m_solid[nb] && m_region[nb] < 0) {
                            m_region[nb] = id;
                            stack.push_back(nb);
                        }
                    }
            }
        }
    }
    const std::vector<int>& region = m_region;
    const std::vector<std::size_t>& seeds = m_regionSeeds;
    if (seeds.size() < 2)
        return;
    // Per body: its outlets, and the fixed flows (m³/s) into it — inlets, and the boxes' draw and
    // release.
    std::vector<char> outlet(seeds.size(), 0);
    std::vector<double> net(seeds.size(), 0.0), moved(seeds.size(), 0.0);
    for (int sd = 0; sd < 6; ++sd) {
        const Side side = static_cast<Side>(sd);
        const double sign = isHigh(side) ? 1.0 : -1.0;
        forEachBoundaryFace(side, [&](const Index3& cell, std::size_t, double area, const BoundaryCondition& bc) {
            const std::size_t c = m_grid.cell(cell[0], cell[1], cell[2]);
            if (m_solid[c])
                return;
            const auto r = static_cast<std::size_t>(region[c]);
            if (bc.kind == BoundaryKind::Outlet)
                outlet[r] = 1;
            else if (bc.kind == BoundaryKind::Inlet) {
                const double q = -sign * bc.velocity[static_cast<std::size_t>(axisOf(side))] * area;
                net[r] += q;
                moved[r] += std::abs(q);
            }
        });
    }
    for (const Box& b : m_boxes) {
        const double q = b.spec.massFlow / m_fluid.density;
        for (std::size_t k = 0; k < b.intake.cells.size(); ++k) {
            const auto r = static_cast<std::size_t>(region[b.intake.cells[k]]);
            net[r] -= q * b.flowShare[k];
            moved[r] += q * b.flowShare[k];
        }
        for (std::size_t k = 0; k < b.exhaust.cells.size(); ++k) {
            const auto r = static_cast<std::size_t>(region[b.exhaust.cells[k]]);
            net[r] += q * b.flowShare[k];
            moved[r] += q * b.flowShare[k];
        }
    }
    const auto where = [&](std::size_t r) {
        const Index3 at = m_grid.index(seeds[r]);
        char text[96];
        std::snprintf(text, sizeof text, "(%.2f, %.2f, %.2f) m", m_grid.centre(0, at[0]), m_grid.centre(1, at[1]),
                      m_grid.centre(2, at[2]));
        return std::string(text);
    };
    std::vector<std::size_t> withOutlet;
    for (std::size_t r = 0; r < seeds.size(); ++r)
        if (outlet[r])
            withOutlet.push_back(r);
    if (withOutlet.size() > 1)
        throw std::invalid_argument(
            "field solver: the air falls into separate regions that each have an outlet (the cells at " +
            where(withOutlet[0]) + " and " + where(withOutlet[1]) +
            "), joined only through black boxes or not at all, so their outflows cannot be shared out; open a "
            "path between them or solve them apart");
    for (std::size_t r = 0; r < seeds.size(); ++r) {
        if (outlet[r] || !(std::abs(net[r]) > 1e-9 * std::max(moved[r], 1e-12)))
            continue;
        char flow[96];
        std::snprintf(flow, sizeof flow,
                      net[r] > 0 ? "put %.3g m3/s more into it than they take out"
                                 : "take %.3g m3/s more out of it than they put in",
                      std::abs(net[r]));
        throw std::invalid_argument("field solver: the air around the cell at " + where(r) +
                                    " is sealed off from every outlet (enclosed by solids, joined to the rest "
                                    "only through black boxes) and its inlets and boxes " +
                                    flow + "; open a path to an outlet");
    }
}

} // namespace rdt::room
