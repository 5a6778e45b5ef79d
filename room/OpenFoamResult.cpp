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

/// The samples (iteration or time, value) of a surfaceFieldValue series, in order.
std::vector<std::pair<double, double>> series(const fs::path& file)
{
    std::vector<std::pair<double, double>> v;
    forEachRow(file, "no OpenFOAM result: run the case's Allrun first",
               [&](std::istringstream& row, const core::SourceLoc& at) {
                   double iteration = 0, value = 0;
                   if (!(row >> iteration >> value) || !std::isfinite(value))
                       throw core::InputError(at, "expected an iteration and a temperature (K)");
                   // Air in a room: anything outside 200–400 K is a broken run, not an answer.
                   if (value < 200.0 || value > 400.0)
                       throw core::InputError(at, "a temperature of " + std::to_string(value) +
                                                      " K is not air in a room (200 to 400 K): the run diverged");
                   v.emplace_back(iteration, value);
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
    // Steady (the last sample) or transient (the time mean over a window): rdt-reference.txt;
    // a case exported before it existed is steady.
    const fs::path referenceFile = dir / "rdt-reference.txt";
    if (fs::exists(referenceFile))
        forEachRow(referenceFile, "", [&](std::istringstream& row, const core::SourceLoc& at) {
            std::string key, value;
            if (!(row >> key >> value))
                throw core::InputError(at, "expected: key value");
            if (key == "mode") {
                if (value != "steady" && value != "transient")
                    throw core::InputError(at, "mode is steady or transient, not \"" + value + "\"");
                out.transient = value == "transient";
            } else if (key == "end" || key == "average_from") {
                char* e = nullptr;
                const double x = std::strtod(value.c_str(), &e);
                if (*e != '\0' || !std::isfinite(x) || x < 0)
                    throw core::InputError(at, key + " must be a time in seconds (>= 0), not \"" + value + "\"");
                (key == "end" ? out.endS : out.averageFromS) = x;
            } else
                throw core::InputError(at, "unknown key \"" + key + "\" (mode, end, average_from)");
        });
    if (out.transient && !(out.averageFromS < out.endS))
        throw core::InputError(core::SourceLoc{referenceFile.string(), 0, 0, ""},
                               "a transient case needs average_from before its end");
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
            const fs::path file = dir / "postProcessing" / patch / "0" / "surfaceFieldValue.dat";
            const std::vector<std::pair<double, double>> v = series(file);
            double value = v.back().second, change = value - v[v.size() > 10 ? v.size() - 11 : 0].second;
            if (out.transient) {
                // The time mean (trapezoids) over the window, and its halves' difference.
                const double mid = 0.5 * (out.averageFromS + v.back().first);
                double s[2] = {0, 0}, d[2] = {0, 0};
                for (std::size_t k = 1; k < v.size(); ++k)
                    if (v[k - 1].first >= out.averageFromS) {
                        const int h = v[k - 1].first >= mid ? 1 : 0;
                        s[h] += 0.5 * (v[k].second + v[k - 1].second) * (v[k].first - v[k - 1].first);
                        d[h] += v[k].first - v[k - 1].first;
                    }
                if (!(d[0] > 0 && d[1] > 0))
                    throw core::InputError(core::SourceLoc{file.string(), 0, 0, ""},
                                           "the run ended before its averaging window (from " +
                                               std::to_string(out.averageFromS) + " s) was covered");
                value = (s[0] + s[1]) / (d[0] + d[1]);
                change = s[1] / d[1] - s[0] / d[0];
            }
            sum += flow * value;
            r.zoneIntakeC.push_back(value - kZeroC);
            r.zoneFlowM3s.push_back(flow);
            weight += flow;
            drift += flow * change;
        }
        if (!(weight > 0))
            throw core::InputError(at, r.patch + " has no zones");
        r.intakeC = sum / weight - kZeroC;
        r.driftK = drift / weight;
        out.racks.push_back(r);
    });
    const fs::path logFile =
        dir / (out.transient ? "log.buoyantBoussinesqPimpleFoam" : "log.buoyantBoussinesqSimpleFoam");
    std::ifstream log(logFile);
    if (!log)
        throw core::InputError(core::SourceLoc{logFile.string(), 0, 0, ""}, "no solver log: run the case's Allrun");
    std::string line;
    while (std::getline(log, line)) {
        if (line.rfind("Time = ", 0) == 0)
            ++out.iterations;
        out.converged = out.converged || line.find("SIMPLE solution converged") != std::string::npos ||
                        (out.transient && line == "End");
        if (line.rfind("nProcs", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                out.ranks = std::atoi(line.c_str() + colon + 1);
        }
    }
    return out;
}

} // namespace rdt::room
