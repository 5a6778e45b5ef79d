#include "room/OpenFoamExport.h"
#include "room/OpenFoamDetail.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rdt::room {
namespace {

constexpr double kZeroC = 273.15;

} // namespace

std::string foamHeader(const std::string& cls, const std::string& object, const std::string& location)
{
    std::string h = "/*--------------------------------*- C++ -*----------------------------------*\\\n"
                    "  Written by rdt (Rack Design Toolkit) for OpenFOAM v1912\n"
                    "\\*---------------------------------------------------------------------------*/\n"
                    "FoamFile\n{\n    version     2.0;\n    format      ascii;\n    class       " +
                    cls + ";\n";
    if (!location.empty())
        h += "    location    \"" + location + "\";\n";
    return h + "    object      " + object + ";\n}\n\n";
}

void writeFoamFile(const std::filesystem::path& file, const std::string& text)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write " + file.string());
}

std::string foamNumber(double v)
{
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

namespace {

struct Face {
    std::array<std::size_t, 4> pts; ///< grid node indices, right-handed about the normal
    std::size_t owner = 0;
    long neighbour = -1;
};

struct Patch : FoamPatch {
    std::vector<Face> list;
};

} // namespace

std::size_t exportOpenFoam(const RoomGeometry& room, const FieldSolver& s, const std::string& dirName,
                           const OpenFoamOptions& o)
{
    namespace fs = std::filesystem;
    const fs::path dir(dirName);
    const FieldGrid& g = s.grid();
    const std::array<int, 3> n{g.cells(0), g.cells(1), g.cells(2)};
    // Air cells, numbered in grid order (so owner < neighbour along every axis).
    std::vector<long> air(g.cellCount(), -1);
    long nAir = 0;
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i)
                if (!s.solid(i, j, k))
                    air[g.cell(i, j, k)] = nAir++;
    const auto node = [&](int i, int j, int k) {
        return static_cast<std::size_t>(i) +
               static_cast<std::size_t>(n[0] + 1) *
                   (static_cast<std::size_t>(j) + static_cast<std::size_t>(n[1] + 1) * static_cast<std::size_t>(k));
    };
    // The face of cell `c` on its high side along `d` (normal +d), or reversed (normal −d).
    const auto quad = [&](std::array<int, 3> c, int d, bool reversed) {
        c[static_cast<std::size_t>(d)] += 1;
        const auto e1 = static_cast<std::size_t>((d + 1) % 3), e2 = static_cast<std::size_t>((d + 2) % 3);
        std::array<int, 3> a = c, b = c, cc = c;
        b[e1] += 1;
        cc[e1] += 1;
        cc[e2] += 1;
        std::array<int, 3> dd = c;
        dd[e2] += 1;
        std::array<std::size_t, 4> q{node(a[0], a[1], a[2]), node(b[0], b[1], b[2]), node(cc[0], cc[1], cc[2]),
                                     node(dd[0], dd[1], dd[2])};
        if (reversed)
            std::swap(q[1], q[3]);
        return q;
    };

    // Patches: the room's openings, each rack's front and rear, then walls.
    std::vector<Patch> patches;
    std::map<std::string, std::size_t> byName;
    for (const RoomPatch& p : room.patches) {
        Patch x;
        x.name = p.name;
        x.kind = p.kind == BoundaryKind::Inlet ? FoamPatch::Supply : FoamPatch::Return;
        const int axis = static_cast<int>(p.side) / 2;
        const bool high = static_cast<int>(p.side) % 2 == 1;
        x.velocity[static_cast<std::size_t>(axis)] = high ? -p.speed : p.speed;
        x.temperatureK = p.temperatureC + kZeroC;
        byName[x.name] = patches.size();
        patches.push_back(x);
    }
    // Each rack's zones (layers of cells, the chassis there), a patch pair each: which zone every
    // air cell in front of and behind the rack belongs to.
    struct RackZones {
        std::size_t first = 0;                           ///< its first patch (zone 0's intake)
        std::map<std::size_t, std::size_t> intake, exhaust; ///< grid cell → zone index
    };
    std::vector<RackZones> rackZones(room.boxes.size());
    for (std::size_t b = 0; b < room.boxes.size(); ++b) {
        const BlackBoxState st = s.blackBoxState(static_cast<int>(b));
        const std::vector<BlackBoxFace> faces = s.blackBoxFaces(static_cast<int>(b));
        std::map<int, std::size_t> zoneIndex; // solver zone → 0…, bottom to top
        for (const BlackBoxFace& f : faces)
            zoneIndex.emplace(f.zone, 0);
        std::size_t z = 0;
        for (auto& [zone, index] : zoneIndex)
            index = z++;
        RackZones& rz = rackZones[b];
        rz.first = patches.size();
        for (const BlackBoxFace& f : faces) {
            rz.intake[g.cell(f.intakeCell[0], f.intakeCell[1], f.intakeCell[2])] = zoneIndex.at(f.zone);
            rz.exhaust[g.cell(f.exhaustCell[0], f.exhaustCell[1], f.exhaustCell[2])] = zoneIndex.at(f.zone);
        }
        for (const auto& [zone, index] : zoneIndex) {
            const std::string stem =
                "rack_" + std::to_string(b + 1) + (zoneIndex.size() == 1 ? "" : "_z" + std::to_string(index + 1));
            for (int which = 0; which < 2; ++which) {
                Patch x;
                x.name = stem + (which == 0 ? "_intake" : "_exhaust");
                x.kind = which == 0 ? FoamPatch::Intake : FoamPatch::Exhaust;
                x.rack = b + 1;
                x.rdtIntakeK = st.intakeMean + kZeroC;
                x.temperatureK = st.exhaust + kZeroC;
                x.intakePatch = stem + "_intake";
                for (const BlackBoxFace& f : faces)
                    if (f.zone == zone) {
                        x.heatW = f.zoneHeatW;
                        x.cooler = f.cooler;
                    }
                patches.push_back(x);
            }
        }
    }
    const std::size_t rackWalls = patches.size();
    Patch wallPatch;
    wallPatch.wall = true;
    wallPatch.name = "racks";
    patches.push_back(wallPatch);
    const std::size_t walls = patches.size();
    wallPatch.name = "walls";
    patches.push_back(wallPatch);

    std::vector<std::vector<char>> layers; // per box, the layers its front and rear are open at
    for (const FieldBlackBox& box : room.boxes)
        layers.push_back(openLayers(g, box));
    // Which box a solid cell belongs to (−1: a containment panel).
    const auto boxOf = [&](const std::array<int, 3>& c) {
        for (std::size_t b = 0; b < room.boxes.size(); ++b) {
            bool in = true;
            for (std::size_t d = 0; d < 3 && in; ++d) {
                const double x = g.centre(static_cast<int>(d), c[d]);
                in = x > room.boxes[b].min[d] && x < room.boxes[b].max[d];
            }
            if (in)
                return static_cast<long>(b);
        }
        return -1L;
    };
    // Where a boundary face of air cell `c`, on its `high` side along `d`, goes.
    const auto patchOf = [&](const std::array<int, 3>& c, int d, bool high) -> std::size_t {
        std::array<int, 3> beyond = c;
        beyond[static_cast<std::size_t>(d)] += high ? 1 : -1;
        if (beyond[static_cast<std::size_t>(d)] < 0 ||
            beyond[static_cast<std::size_t>(d)] >= n[static_cast<std::size_t>(d)]) {
            const Side side = static_cast<Side>(2 * d + (high ? 1 : 0));
            std::array<double, 3> centre{g.centre(0, c[0]), g.centre(1, c[1]), g.centre(2, c[2])};
            std::array<double, 2> inPlane{};
            int m = 0;
            for (int a = 0; a < 3; ++a)
                if (a != d)
                    inPlane[static_cast<std::size_t>(m++)] = centre[static_cast<std::size_t>(a)];
            for (const RoomPatch& p : room.patches)
                if (p.side == side && inPlane[0] >= p.lo[0] && inPlane[0] <= p.hi[0] && inPlane[1] >= p.lo[1] &&
                    inPlane[1] <= p.hi[1])
                    return byName.at(p.name);
            return walls;
        }
        const long b = boxOf(beyond);
        if (b < 0)
            return walls;
        const FieldBlackBox& box = room.boxes[static_cast<std::size_t>(b)];
        const int axis = static_cast<int>(box.intake) / 2;
        if (axis != d || !layers[static_cast<std::size_t>(b)][static_cast<std::size_t>(c[2])])
            return rackWalls; // its sides, top, and blanked OU
        const bool intakeHigh = static_cast<int>(box.intake) % 2 == 1;
        // The air cell lies beyond the box's high face when the face is on the box's high side.
        const bool cellOnHighSideOfBox = !high;
        const bool isIntake = cellOnHighSideOfBox == intakeHigh;
        const RackZones& rz = rackZones[static_cast<std::size_t>(b)];
        const auto& zoneOf = isIntake ? rz.intake : rz.exhaust;
        const auto it = zoneOf.find(g.cell(c[0], c[1], c[2]));
        if (it == zoneOf.end())
            throw std::logic_error("OpenFOAM export: rack " + std::to_string(b + 1) +
                                   "'s face cells differ from the solver's");
        return rz.first + 2 * it->second + (isIntake ? 0 : 1);
    };

    std::vector<Face> internal;
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i) {
                const long a = air[g.cell(i, j, k)];
                if (a < 0)
                    continue;
                const std::array<int, 3> c{i, j, k};
                for (int d = 0; d < 3; ++d) {
                    // Low side: only boundary faces (internal ones come from the lower cell).
                    std::array<int, 3> lo = c;
                    lo[static_cast<std::size_t>(d)] -= 1;
                    const bool loAir = lo[static_cast<std::size_t>(d)] >= 0 && air[g.cell(lo[0], lo[1], lo[2])] >= 0;
                    if (!loAir) {
                        Face f{quad(lo, d, true), static_cast<std::size_t>(a), -1};
                        patches[patchOf(c, d, false)].list.push_back(f);
                    }
                    std::array<int, 3> hi = c;
                    hi[static_cast<std::size_t>(d)] += 1;
                    const bool hiIn = hi[static_cast<std::size_t>(d)] < n[static_cast<std::size_t>(d)];
                    const long b = hiIn ? air[g.cell(hi[0], hi[1], hi[2])] : -1;
                    Face f{quad(c, d, false), static_cast<std::size_t>(a), b};
                    if (b >= 0)
                        internal.push_back(f);
                    else
                        patches[patchOf(c, d, true)].list.push_back(f);
                }
            }
    // Internal faces in upper-triangular order: by owner, then neighbour (+x, +y, +z already is).

    // Rack faces: each face cell's velocity (its chassis' share of the rack's flow over its layer);
    // per zone its flow, and where its heat goes (the air cells behind its exhaust).
    for (std::size_t b = 0; b < room.boxes.size(); ++b) {
        const FieldBlackBox& box = room.boxes[b];
        const auto axis = static_cast<std::size_t>(static_cast<int>(box.intake) / 2);
        const double sign = static_cast<int>(box.intake) % 2 == 1 ? -1.0 : 1.0; // flow direction through the box
        std::map<std::size_t, const BlackBoxFace*> atIntake, atExhaust;         // by air cell
        const std::vector<BlackBoxFace> faces = s.blackBoxFaces(static_cast<int>(b));
        for (const BlackBoxFace& f : faces) {
            atIntake[static_cast<std::size_t>(air[g.cell(f.intakeCell[0], f.intakeCell[1], f.intakeCell[2])])] = &f;
            atExhaust[static_cast<std::size_t>(air[g.cell(f.exhaustCell[0], f.exhaustCell[1], f.exhaustCell[2])])] = &f;
        }
        const RackZones& rz = rackZones[b];
        for (std::size_t p0 = rz.first; p0 < patches.size() && patches[p0].rack == b + 1; ++p0) {
            Patch& p = patches[p0];
            const bool intake = p.kind == FoamPatch::Intake;
            const auto& at = intake ? atIntake : atExhaust;
            double flow = 0, area = 0;
            for (const Face& f : p.list) {
                const auto it = at.find(f.owner);
                if (it == at.end())
                    throw std::logic_error("OpenFOAM export: rack " + std::to_string(b + 1) +
                                           "'s face cells differ from the solver's");
                std::array<double, 3> v{};
                v[axis] = sign * it->second->speed;
                p.faceVelocity.push_back(v);
                p.faceTemperatureK.push_back(it->second->exhaustC + kZeroC);
                const auto e1 = (axis + 1) % 3, e2 = (axis + 2) % 3;
                const std::array<int, 3> c = intake ? it->second->intakeCell : it->second->exhaustCell;
                const double a = g.width(static_cast<int>(e1), c[e1]) * g.width(static_cast<int>(e2), c[e2]);
                flow += it->second->speed * a;
                area += a;
                if (!intake) {
                    p.heatPoints.push_back({g.centre(0, c[0]), g.centre(1, c[1]), g.centre(2, c[2])});
                    p.heatVolumes.push_back(g.width(0, c[0]) * g.width(1, c[1]) * g.width(2, c[2]));
                }
            }
            p.flowM3s = flow;
            p.velocity[axis] = area > 0 ? sign * flow / area : 0.0; // the mean, for the case's notes
        }
    }

    // polyMesh: used points only.
    std::vector<long> used((static_cast<std::size_t>(n[0]) + 1) * (static_cast<std::size_t>(n[1]) + 1) *
                               (static_cast<std::size_t>(n[2]) + 1),
                           -1);
    long nPoints = 0;
    std::ostringstream facesOut, ownerOut, neighbourOut;
    std::size_t nFaces = internal.size();
    for (const Patch& p : patches)
        nFaces += p.list.size();
    const auto emit = [&](const Face& f) {
        facesOut << "4(";
        for (int q = 0; q < 4; ++q) {
            long& id = used[f.pts[static_cast<std::size_t>(q)]];
            if (id < 0)
                id = nPoints++;
            facesOut << id << (q < 3 ? " " : ")\n");
        }
        ownerOut << f.owner << "\n";
        if (f.neighbour >= 0)
            neighbourOut << f.neighbour << "\n";
    };
    for (const Face& f : internal)
        emit(f);
    std::ostringstream boundary;
    std::size_t start = internal.size(), nPatches = 0;
    for (const Patch& p : patches) {
        if (p.list.empty())
            continue;
        ++nPatches;
        for (const Face& f : p.list)
            emit(f);
        boundary << "    " << p.name << "\n    {\n        type            " << (p.wall ? "wall" : "patch")
                 << ";\n        nFaces          " << p.list.size() << ";\n        startFace       " << start
                 << ";\n    }\n";
        start += p.list.size();
    }
    std::vector<std::array<double, 3>> points(static_cast<std::size_t>(nPoints));
    for (int k = 0; k <= n[2]; ++k)
        for (int j = 0; j <= n[1]; ++j)
            for (int i = 0; i <= n[0]; ++i)
                if (const long id = used[node(i, j, k)]; id >= 0)
                    points[static_cast<std::size_t>(id)] = {g.face(0, i), g.face(1, j), g.face(2, k)};
    std::ostringstream pts;
    for (const auto& p : points)
        pts << "(" << foamNumber(p[0]) << " " << foamNumber(p[1]) << " " << foamNumber(p[2]) << ")\n";
    const fs::path mesh = dir / "constant" / "polyMesh";
    const std::string note = "note \"nPoints:" + std::to_string(nPoints) + " nCells:" + std::to_string(nAir) +
                             " nFaces:" + std::to_string(nFaces) +
                             " nInternalFaces:" + std::to_string(internal.size()) + "\";\n";
    writeFoamFile(mesh / "points", foamHeader("vectorField", "points", "constant/polyMesh") + std::to_string(nPoints) +
                                       "\n(\n" + pts.str() + ")\n");
    writeFoamFile(mesh / "faces", foamHeader("faceList", "faces", "constant/polyMesh") + std::to_string(nFaces) +
                                      "\n(\n" + facesOut.str() + ")\n");
    std::string ownerHeader = foamHeader("labelList", "owner", "constant/polyMesh");
    ownerHeader.insert(ownerHeader.find("    object"), "    " + note);
    writeFoamFile(mesh / "owner", ownerHeader + std::to_string(nFaces) + "\n(\n" + ownerOut.str() + ")\n");
    std::string neighbourHeader = foamHeader("labelList", "neighbour", "constant/polyMesh");
    neighbourHeader.insert(neighbourHeader.find("    object"), "    " + note);
    writeFoamFile(mesh / "neighbour",
                  neighbourHeader + std::to_string(internal.size()) + "\n(\n" + neighbourOut.str() + ")\n");
    writeFoamFile(mesh / "boundary", foamHeader("polyBoundaryMesh", "boundary", "constant/polyMesh") +
                                         std::to_string(nPatches) + "\n(\n" + boundary.str() + ")\n");
    std::vector<FoamPatch> written;
    for (const Patch& p : patches)
        if (!p.list.empty()) {
            written.push_back(p);
            written.back().faces = p.list.size();
        }
    writeOpenFoamCase(room, s, dir, written, o);
    return static_cast<std::size_t>(nAir);
}

} // namespace rdt::room
