#include "room/RoomReference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>

#include "core/Error.h"
#include "core/LayoutGeometry.h"
#include "room/RoomThermal.h"

namespace rdt::room {
namespace {

constexpr double kZeroC = 273.15;
/// rdt's own intake now against the one the case recorded at export: beyond this the case was
/// solved for other conditions (a what-if, an edit) and its air is not this design's. The solve
/// repeats itself to ~0.01 K.
constexpr double kStaleK = 0.1;

/// The box a case patch stands for: `rack_N` is box N − 1; -1 when the name is not of that form.
int boxOfPatch(const std::string& patch)
{
    if (patch.rfind("rack_", 0) != 0 || patch.size() == 5)
        return -1;
    char* end = nullptr;
    const long n = std::strtol(patch.c_str() + 5, &end, 10);
    return *end == '\0' && n >= 1 && n < std::numeric_limits<int>::max() ? static_cast<int>(n - 1) : -1;
}

/// One zone of a box's front as the solver lays it out: the height of its layer of cells (m) and
/// how many face cells it has.
struct Zone {
    double z = 0;
    int faces = 0;
};

/// The box's zones bottom to top, in the order the export numbered them (solver zone order).
std::vector<Zone> zonesOf(const FieldSolver& solver, int box)
{
    std::map<int, Zone> byZone;
    for (const BlackBoxFace& f : solver.blackBoxFaces(box)) {
        Zone& z = byZone[f.zone];
        z.z += solver.grid().centre(2, f.intakeCell[2]);
        ++z.faces;
    }
    std::vector<Zone> out;
    for (auto& [id, z] : byZone) {
        z.z /= z.faces;
        out.push_back(z);
    }
    return out;
}

/// Flow-weighted mean (°C) of the case's zones whose layers lie between zLo and zHi; the nearest
/// layer's when none does (a chassis thinner than a cell), as FieldSolver::intakeBetween chooses.
double bandMean(const std::vector<Zone>& zones, const OpenFoamIntake& ref, double zLo, double zHi)
{
    const double mid = 0.5 * (zLo + zHi);
    double nearest = std::numeric_limits<double>::infinity();
    for (const Zone& z : zones)
        nearest = std::min(nearest, std::abs(z.z - mid));
    double sum = 0, weight = 0;
    for (std::size_t n = 0; n < zones.size(); ++n) {
        const bool inBand = zones[n].z >= zLo && zones[n].z <= zHi;
        if (!inBand && std::abs(std::abs(zones[n].z - mid) - nearest) > 1e-9)
            continue;
        sum += ref.zoneFlowM3s[n] * ref.zoneIntakeC[n];
        weight += ref.zoneFlowM3s[n];
    }
    return weight > 0 ? sum / weight : ref.intakeC;
}

} // namespace

std::string referenceDescription(const OpenFoamResult& reference)
{
    char b[160];
    std::snprintf(b, sizeof b, " (%d iterations on %d rank%s, %s)", reference.iterations, reference.ranks,
                  reference.ranks == 1 ? "" : "s",
                  reference.converged ? "converged" : "not converged on its residuals");
    return "OpenFOAM case " + reference.dir + b;
}

thermal::ThermalResult computeThermalFromOpenFoam(const core::Design& d, const OpenFoamResult& ref,
                                                  const thermal::RackAirflowParams& prm, core::Progress* progress)
{
    const core::SourceLoc at{(std::filesystem::path(ref.dir) / "rdt-racks.txt").string(), 0, 0, ""};
    thermal::ThermalResult res = computeThermalField(d, prm, progress);
    const FieldThermal& field = *fieldOf(res);
    std::map<std::string, std::size_t> rackIndex;
    for (std::size_t i = 0; i < d.racks.size(); ++i)
        rackIndex.emplace(d.racks[i].id, i);

    // The room the case holds: the solved room whose boxes are its racks, box for box.
    int room = -1;
    std::map<int, const OpenFoamIntake*> byBox;
    for (const OpenFoamIntake& r : ref.racks) {
        const int box = boxOfPatch(r.patch);
        if (box < 0)
            throw core::InputError(at, r.patch + ": not a rack of the case (rack_N)");
        byBox[box] = &r;
        const auto it = rackIndex.find(r.id);
        if (room < 0 && it != rackIndex.end())
            room = field.roomOfRack[it->second];
    }
    if (room < 0)
        throw core::InputError(at, "none of the case's racks" +
                                       (ref.racks.empty() ? std::string() : " (" + ref.racks.front().id + ", …)") +
                                       " is a rack of " + d.file + ": the case was exported from another design");
    const RoomField& solved = field.rooms[static_cast<std::size_t>(room)];
    const RoomGeometry& g = solved.geometry;
    for (std::size_t k = 0; k < g.racks.size(); ++k) {
        const std::string& id = d.racks[static_cast<std::size_t>(g.racks[k])].id;
        const auto it = byBox.find(static_cast<int>(k));
        const std::string patch = "rack_" + std::to_string(k + 1);
        if (it == byBox.end())
            throw core::InputError(at, "rack " + id + " (" + patch + " of room " + g.id +
                                           ") is not in the case: export the room again");
        if (it->second->id != id)
            throw core::InputError(at, patch + " is " + it->second->id + " in the case but " + id + " in " + d.file +
                                           ": the case was exported from another design; export it again");
    }
    const std::vector<std::string> names = boxNames(g, d);
    for (const auto& [box, r] : byBox) {
        if (box >= static_cast<int>(g.racks.size()) && box < static_cast<int>(names.size()) &&
            r->id == names[static_cast<std::size_t>(box)])
            continue; // an in-row cooler of the room
        if (box >= static_cast<int>(g.racks.size()))
            throw core::InputError(at, r->patch + " (" + r->id + ") is not a rack or cooler of room " + g.id + " in " +
                                           d.file + ": the case was exported from another design; export it again");
    }
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri)
        if (field.roomOfRack[ri] != room)
            throw core::InputError(at, "rack " + d.racks[ri].id +
                                           " is in a room the case does not hold (the case is room " + g.id +
                                           "): a reference solve must hold every rack of the design");

    const thermal::AirState base = roomAir(d, res);
    const core::LayoutSpacing spacing;
    double staleK = 0;
    std::string staleRack;
    std::string error;
    std::exception_ptr failure; // the first exception of the loop, rethrown after it
#pragma omp parallel for schedule(dynamic)
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
        try {
            const int k = field.boxOfRack[ri];
            const OpenFoamIntake& r = *byBox.at(k);
            const std::vector<Zone> zones = zonesOf(*solved.solver, k);
            if (zones.size() != r.zoneIntakeC.size()) {
#pragma omp critical
                error = r.patch + " has " + std::to_string(r.zoneIntakeC.size()) + " zones in the case, " +
                        std::to_string(zones.size()) + " in " + d.file + ": the case was exported from another design";
                continue;
            }
            const core::Rack& rack = d.racks[ri];
            thermal::AirState a = base;
            a.coldAisleK = r.intakeC + kZeroC;
            a.hotAisleK = solved.solver->blackBoxState(k).exhaust + kZeroC; // behind the rack: rdt's
            a.slotInletOffsetK.assign(rack.slots.size(), NAN);
            std::vector<double> chassisC(rack.slots.size(), NAN);
            for (std::size_t s = 0; s < rack.slots.size(); ++s) {
                const core::Slot& slot = rack.slots[s];
                if (slot.part->kind != core::PartKind::Chassis && slot.part->kind != core::PartKind::Switch)
                    continue; // the parts judged at their own intake (thermal.inlet.chassis, .switch)
                const double z0 = core::ouBottomZ(slot.ou, spacing);
                chassisC[s] = bandMean(zones, r, z0, z0 + slot.part->ouHeight * spacing.ouPitch);
                a.slotInletOffsetK[s] = chassisC[s] - r.intakeC;
            }
            const double ownK = res.racks[ri].fieldIntakeK;
            thermal::RackThermal rt = thermal::solveRack(d, ri, a, prm, &res.racks[ri]);
            rt.fieldIntakeK = r.intakeC + kZeroC;
            rt.fieldIntakeMaxK = NAN; // the case samples each zone's mean only
            for (thermal::ChassisThermal& c : rt.chassis) {
                c.fieldInletK = chassisC[static_cast<std::size_t>(c.slot)] + kZeroC;
                c.fieldInletMaxK = NAN;
            }
            res.racks[ri] = std::move(rt);
#pragma omp critical
            {
                // A non-finite intake (rdt's own or the case's) is as stale as any: never a silent match.
                const double drift = std::abs(ownK - kZeroC - r.rdtIntakeC);
                if (!std::isfinite(drift) || drift > staleK) {
                    staleK = std::isfinite(drift) ? drift : std::numeric_limits<double>::infinity();
                    staleRack = rack.id;
                }
            }
        } catch (...) {
#pragma omp critical
            if (!failure)
                failure = std::current_exception();
        }
    }
    if (failure)
        std::rethrow_exception(failure);
    if (!error.empty())
        throw core::InputError(at, error);
    rowsFromField(d, field, res);
    res.intakesFrom = referenceDescription(ref);
    for (const OpenFoamIntake& r : ref.racks)
        res.referenceDriftK = std::max(res.referenceDriftK, std::abs(r.driftK));
    if (staleK > kStaleK) {
        char b[200];
        std::snprintf(b, sizeof b,
                      "rdt's own intake of rack %s is %.2f K from the one it had when the case was exported",
                      staleRack.c_str(), staleK);
        throw core::InputError(d.intakesFromLoc.file.empty() ? at : d.intakesFromLoc,
                               b + std::string(": the case was solved for other conditions (a what-if, or the "
                                               "design changed since); export and run it again"));
    }
    if (progress)
        progress->update(0.98, "rack intakes from the OpenFOAM case");
    return res;
}

} // namespace rdt::room
