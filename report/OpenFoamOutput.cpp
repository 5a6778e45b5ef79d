#include "report/OpenFoamOutput.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/JsonNumber.h"
#include "hil/H5Table.h"

namespace rdt::report {

using nlohmann::json;
using rdt::core::jsonNumber;

ComparisonWorst worstOf(const OpenFoamComparison& c)
{
    ComparisonWorst w;
    for (std::size_t i = 0; i < c.result.racks.size(); ++i) {
        const double d = c.rdtIntakeC[i] - c.result.racks[i].intakeC;
        if (std::abs(d) > std::abs(w.largestK)) {
            w.largestK = d;
            w.largestAt = i;
        }
        if (d < w.coolestK) {
            w.coolestK = d;
            w.coolestAt = i;
        }
    }
    return w;
}

json openFoamJson(const OpenFoamComparison& c)
{
    json racks = json::array();
    for (std::size_t i = 0; i < c.result.racks.size(); ++i) {
        const room::OpenFoamIntake& r = c.result.racks[i];
        racks.push_back({{"rack", r.id},
                         {"patch", r.patch},
                         {"rdt_intake_C", jsonNumber(c.rdtIntakeC[i])},
                         {"openfoam_intake_C", jsonNumber(r.intakeC)},
                         {"difference_K", jsonNumber(c.rdtIntakeC[i] - r.intakeC)},
                         {"openfoam_drift_K", jsonNumber(r.driftK)}});
    }
    const ComparisonWorst w = worstOf(c);
    return {{"dir", c.result.dir},
            {"iterations", c.result.iterations},
            {"converged", c.result.converged},
            {"reference", c.result.transient ? "transient" : "steady"},
            {"end_time_s", jsonNumber(c.result.endS)},
            {"average_from_s", jsonNumber(c.result.averageFromS)},
            {"ranks", c.result.ranks},
            {"largest_difference_K", jsonNumber(w.largestK)},
            {"most_optimistic_K", jsonNumber(w.coolestK)},
            {"racks", racks}};
}

std::string openFoamText(const OpenFoamComparison& c)
{
    std::string out;
    char line[256];
    if (c.result.transient)
        std::snprintf(line, sizeof line,
                      "OpenFOAM in %s: transient, %d time steps to %.0f s on %d rank%s%s; intakes are time means from "
                      "%.0f s\n",
                      c.result.dir.c_str(), c.result.iterations, c.result.endS, c.result.ranks,
                      c.result.ranks == 1 ? "" : "s", c.result.converged ? "" : " (NOT run to its end)",
                      c.result.averageFromS);
    else
        std::snprintf(line, sizeof line, "OpenFOAM in %s: %d iterations on %d rank%s, %s\n", c.result.dir.c_str(),
                      c.result.iterations, c.result.ranks, c.result.ranks == 1 ? "" : "s",
                      c.result.converged ? "converged on its residual targets" : "NOT converged on its residual targets");
    out += line;
    std::snprintf(line, sizeof line, "  %-28s %10s %12s %16s %22s\n", "rack", "rdt degC", "OpenFOAM degC",
                  "rdt - OpenFOAM K", c.result.transient ? "2nd - 1st half mean K" : "OpenFOAM last 500 it K");
    out += line;
    for (std::size_t i = 0; i < c.result.racks.size(); ++i) {
        const room::OpenFoamIntake& r = c.result.racks[i];
        const double d = c.rdtIntakeC[i] - r.intakeC;
        std::snprintf(line, sizeof line, "  %-28s %10.2f %12.2f %+16.2f %+22.2f%s\n", r.id.c_str(), c.rdtIntakeC[i],
                      r.intakeC, d, r.driftK, d < -0.5 ? "  rdt cooler (optimistic)" : "");
        out += line;
    }
    if (!c.result.racks.empty()) {
        const ComparisonWorst w = worstOf(c);
        std::snprintf(line, sizeof line, "  largest difference %+.2f K (%s); most optimistic %+.2f K (%s)\n", w.largestK,
                      c.result.racks[w.largestAt].id.c_str(), w.coolestK,
                      w.coolestK < 0 ? c.result.racks[w.coolestAt].id.c_str() : "none cooler");
        out += line;
    }
    return out;
}

void writeOpenFoamH5(const std::string& path, const OpenFoamComparison& c)
{
    namespace fs = std::filesystem;
    const hil::H5Quiet quiet; // errors are reported below, with the file
    const core::SourceLoc at{path, 0, 0, "--h5"};
    core::removeStaleTemporaries(path);
    const std::string tmp = core::temporaryFor(path);
    std::error_code ec;
    {
        hil::H5Handle file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        if (!file.valid())
            throw core::InputError(at, "cannot create the file (does its folder exist, is it writable?)");
        const hil::H5Handle group = hil::createGroup(file.get(), "openfoam");
        hil::writeStringAttribute(group.get(), "dir", c.result.dir);
        hil::writeStringAttribute(group.get(), "converged", c.result.converged ? "yes" : "no");
        hil::writeScalar(group.get(), "iterations", c.result.iterations, "1");
        hil::writeScalar(group.get(), "ranks", c.result.ranks, "1");
        hil::writeStringAttribute(group.get(), "reference", c.result.transient ? "transient" : "steady");
        if (c.result.transient) {
            hil::writeScalar(group.get(), "end_time", c.result.endS, "s");
            hil::writeScalar(group.get(), "average_from", c.result.averageFromS, "s");
        }
        hil::H5Table t;
        const auto rack = t.textColumn("rack"), patch = t.textColumn("patch"),
                   ours = t.realColumn("rdt_intake", "degC"), theirs = t.realColumn("openfoam_intake", "degC"),
                   diff = t.realColumn("difference", "K"), drift = t.realColumn("openfoam_drift", "K");
        for (std::size_t i = 0; i < c.result.racks.size(); ++i) {
            const room::OpenFoamIntake& r = c.result.racks[i];
            t.addRow();
            t.set(rack, r.id);
            t.set(patch, r.patch);
            t.set(ours, c.rdtIntakeC[i]);
            t.set(theirs, r.intakeC);
            t.set(diff, c.rdtIntakeC[i] - r.intakeC);
            t.set(drift, r.driftK);
        }
        t.write(group.get(), "intakes");
    }
    if (!core::syncFileAndFolder(tmp)) {
        fs::remove(tmp, ec);
        throw core::InputError(at, "cannot flush the file to disk");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        const std::string why = fs::is_directory(path) ? "it is a folder: give a file name" : ec.message();
        std::error_code rm;
        fs::remove(tmp, rm);
        throw core::InputError(at, "cannot replace the file: " + why);
    }
    core::syncFileAndFolder(path);
}

} // namespace rdt::report
