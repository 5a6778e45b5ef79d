#include "room/OpenFoamResult.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/Error.h"

namespace rdt::room {
namespace {

namespace fs = std::filesystem;
constexpr double kZeroC = 273.15;

/// Calls fn(row, location) for each line of `file` that is not blank or a `#` comment; throws
/// core::InputError with `missing` when the file cannot be opened.
template <class Fn>
void forEachRow(const fs::path& file, const std::string& missing, Fn&& fn)
{
    std::ifstream in(file);
    if (!in)
        throw core::InputError(core::SourceLoc{file.string(), 0, 0, ""}, missing);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream row(line);
        fn(row, core::SourceLoc{file.string(), n, 0, ""});
    }
}

/// The sampled values of a surfaceFieldValue series, in order.
std::vector<double> series(const fs::path& file)
{
    std::vector<double> v;
    forEachRow(file, "no OpenFOAM result: run the case's Allrun first",
               [&](std::istringstream& row, const core::SourceLoc& at) {
                   double iteration = 0, value = 0;
                   if (!(row >> iteration >> value) || !std::isfinite(value))
                       throw core::InputError(at, "expected an iteration and a temperature (K)");
                   // Air in a room: anything outside 200–400 K is a broken run, not an answer.
                   if (value < 200.0 || value > 400.0)
                       throw core::InputError(at, "a temperature of " + std::to_string(value) +
                                                      " K is not air in a room (200 to 400 K): the run diverged");
                   v.push_back(value);
               });
    if (v.empty())
        throw core::InputError(core::SourceLoc{file.string(), 0, 0, ""}, "no samples: the run stopped before its first");
    return v;
}

} // namespace

OpenFoamResult readOpenFoamResult(const std::string& dirName)
{
    const fs::path dir(dirName);
    OpenFoamResult out;
    out.dir = dirName;
    const fs::path racksFile = dir / "rdt-racks.txt", compareFile = dir / "rdt-compare.txt";
    std::map<std::string, std::string> ids;
    forEachRow(racksFile, "not a case rdt exported (rdt field DESIGN --openfoam DIR writes it)",
               [&](std::istringstream& row, const core::SourceLoc& at) {
                   std::string patch, id;
                   if (!(row >> patch >> id))
                       throw core::InputError(at, "expected: rack_N RACK-ID");
                   ids[patch] = id;
               });
    forEachRow(compareFile, "not a case rdt exported", [&](std::istringstream& row, const core::SourceLoc& at) {
        OpenFoamIntake r;
        double rdtK = 0;
        if (!(row >> r.patch >> rdtK))
            throw core::InputError(at, "expected: rack_N, rdt's intake (K), then zone patches and flows");
        if (!std::isfinite(rdtK) || rdtK < 200.0 || rdtK > 400.0)
            throw core::InputError(at, r.patch + ": rdt's intake must be a temperature of air (200 to 400 K)");
        const auto id = ids.find(r.patch);
        if (id == ids.end())
            throw core::InputError(at, r.patch + " is not in " + racksFile.filename().string());
        r.id = id->second;
        r.rdtIntakeC = rdtK - kZeroC;
        std::string patch;
        double flow = 0, sum = 0, weight = 0, drift = 0;
        while (row >> patch) {
            // A patch names a folder under postProcessing/: OpenFOAM's word, nothing that leaves it.
            if (patch.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                std::string::npos)
                throw core::InputError(at, "\"" + patch + "\" is not a patch name (letters, digits and _)");
            if (!(row >> flow) || !(flow > 0) || !std::isfinite(flow))
                throw core::InputError(at, patch + ": expected its flow (m3/s, > 0)");
            const std::vector<double> v = series(dir / "postProcessing" / patch / "0" / "surfaceFieldValue.dat");
            sum += flow * v.back();
            r.zoneIntakeC.push_back(v.back() - kZeroC);
            r.zoneFlowM3s.push_back(flow);
            weight += flow;
            drift += flow * (v.back() - v[v.size() > 10 ? v.size() - 11 : 0]);
        }
        if (!(weight > 0))
            throw core::InputError(at, r.patch + " has no zones");
        r.intakeC = sum / weight - kZeroC;
        r.driftK = drift / weight;
        out.racks.push_back(r);
    });
    const fs::path logFile = dir / "log.buoyantBoussinesqSimpleFoam";
    std::ifstream log(logFile);
    if (!log)
        throw core::InputError(core::SourceLoc{logFile.string(), 0, 0, ""}, "no solver log: run the case's Allrun");
    std::string line;
    while (std::getline(log, line)) {
        if (line.rfind("Time = ", 0) == 0)
            ++out.iterations;
        out.converged = out.converged || line.find("SIMPLE solution converged") != std::string::npos;
        if (line.rfind("nProcs", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                out.ranks = std::atoi(line.c_str() + colon + 1);
        }
    }
    return out;
}

} // namespace rdt::room
