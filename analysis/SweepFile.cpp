/// \file SweepFile.cpp
/// The sweep's HDF5 file (`/sweep/variants`, written atomically; the studio's Sweep panel reads it
/// back) and the one-line JSON a variant travels in between MPI ranks and worker processes.

#include "analysis/Sweep.h"

#include "core/JsonNumber.h"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "hil/H5Table.h"
#include "core/AtomicFile.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::analysis {

namespace fs = std::filesystem;

void writeSweep(const std::string& path, const SweepSpec& spec, const std::vector<VariantResult>& results)
{
    H5Table t;
    const std::size_t cVariant = t.intColumn("variant", "1");
    std::vector<std::size_t> cAxis;
    for (const SweepAxis& a : spec.axes)
        cAxis.push_back(!a.numeric()           ? t.textColumn(a.name())
                        : a.axis == "fan_fail" ? t.intColumn(a.name(), "1")
                                               : t.realColumn(a.name(), a.unit));
    const std::size_t cOk = t.intColumn("ok", "1"), cErr = t.intColumn("errors", "1"),
                      cWarn = t.intColumn("warnings", "1"), cTf = t.intColumn("targets_failed", "1"),
                      cT = t.intColumn("targets", "1"), cPass = t.intColumn("passes", "1"),
                      cSus = t.realColumn("sustained_pflops_bf16", "PFLOP/s"),
                      cPeak = t.realColumn("peak_pflops_bf16", "PFLOP/s"), cIn = t.realColumn("max_inlet", "degC"),
                      cTj = t.realColumn("max_gpu_junction", "degC"), cThr = t.intColumn("throttled_chassis", "1"),
                      cIt = t.realColumn("it_load", "W"), cAc = t.realColumn("facility_ac", "W"),
                      cRules = t.textColumn("failed_rules"), cMsg = t.textColumn("error"),
                      cNc = t.intColumn("not_converged", "1"), cBad = t.intColumn("bad_input", "1"),
                      cInt = t.intColumn("interrupted", "1"),
                      cSec = t.realColumn("seconds", "s");
    for (const VariantResult& r : results) {
        t.addRow();
        t.set(cVariant, static_cast<long long>(r.index));
        const std::vector<std::size_t> at = spec.at(r.index);
        for (std::size_t k = 0; k < spec.axes.size(); ++k) {
            const SweepAxis& a = spec.axes[k];
            if (!a.numeric())
                t.set(cAxis[k], a.labels[at[k]]);
            else if (a.axis == "fan_fail")
                t.set(cAxis[k], static_cast<long long>(a.values[at[k]]));
            else
                t.set(cAxis[k], a.display[at[k]]);
        }
        t.set(cOk, static_cast<long long>(r.ok));
        t.set(cErr, static_cast<long long>(r.errors));
        t.set(cWarn, static_cast<long long>(r.warnings));
        t.set(cTf, static_cast<long long>(r.targetsFailed));
        t.set(cT, static_cast<long long>(r.targets));
        t.set(cPass, static_cast<long long>(r.passes()));
        t.set(cSus, r.sustainedPflops);
        t.set(cPeak, r.peakPflops);
        t.set(cIn, r.maxInletC);
        t.set(cTj, r.maxJunctionC);
        t.set(cThr, static_cast<long long>(r.throttled));
        t.set(cIt, r.itLoadW);
        t.set(cAc, r.acInputW);
        t.set(cRules, r.failedRules);
        t.set(cMsg, r.error);
        t.set(cNc, static_cast<long long>(r.notConverged));
        t.set(cBad, static_cast<long long>(r.badInput));
        t.set(cInt, static_cast<long long>(r.interrupted));
        t.set(cSec, r.seconds);
    }
    core::removeStaleTemporaries(path);
    const std::string tmp = core::temporaryFor(path);
    {
        H5Handle file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        if (!file.valid())
            throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot create the sweep file");
        H5Handle g = createGroup(file.get(), "sweep");
        t.write(g.get(), "variants");
        writeStringDataset(g.get(), "spec", core::readTextFile(spec.file));
        writeStringDataset(g.get(), "design", spec.designText);
        writeStringAttribute(g.get(), "design_file", spec.design);
    }
    std::error_code ec;
    if (!core::syncFileAndFolder(tmp)) {
        fs::remove(tmp, ec);
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot write the sweep file (disk full?)");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        const std::string why = fs::is_directory(path) ? "it is a folder: give a file name" : ec.message();
        std::error_code rm;
        fs::remove(tmp, rm); // no temporary left beside it
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot replace the file: " + why);
    }
}

std::string encodeVariant(const VariantResult& r, bool betweenRanks)
{
    // Between MPI ranks an unbounded figure (a chassis with no air has an unbounded junction) stays
    // unbounded, not a missing one (JSON has no infinity); `rdt sweep --json` writes null, as rdt check.
    const auto wire = [betweenRanks](double v) {
        return betweenRanks && std::isinf(v) ? nlohmann::json(v > 0 ? "inf" : "-inf") : jsonNumber(v);
    };
    return nlohmann::json{{"variant", r.index},
                          {"ok", r.ok},
                          {"error", r.error},
                          {"not_converged", r.notConverged},
                          {"bad_input", r.badInput},
                          {"interrupted", r.interrupted},
                          {"errors", r.errors},
                          {"warnings", r.warnings},
                          {"targets_failed", r.targetsFailed},
                          {"targets", r.targets},
                          {"sustained_pflops_bf16", wire(r.sustainedPflops)},
                          {"peak_pflops_bf16", wire(r.peakPflops)},
                          {"max_inlet_degC", wire(r.maxInletC)},
                          {"max_gpu_junction_degC", wire(r.maxJunctionC)},
                          {"throttled_chassis", r.throttled},
                          {"it_load_W", wire(r.itLoadW)},
                          {"facility_ac_W", wire(r.acInputW)},
                          {"failed_rules", r.failedRules},
                          {"seconds", r.seconds}}
        .dump();
}

VariantResult decodeVariant(const std::string& text)
{
    const nlohmann::json j = nlohmann::json::parse(text);
    auto num = [&](const char* k) {
        if (j[k].is_string())
            return j[k] == "inf" ? HUGE_VAL : -HUGE_VAL;
        return j[k].is_null() ? NAN : j[k].get<double>();
    };
    VariantResult r;
    r.index = j["variant"].get<std::size_t>();
    r.ok = j["ok"];
    r.error = j["error"];
    r.notConverged = j["not_converged"];
    r.badInput = j["bad_input"];
    r.interrupted = j.value("interrupted", false);
    r.errors = j["errors"];
    r.warnings = j["warnings"];
    r.targetsFailed = j["targets_failed"];
    r.targets = j["targets"];
    r.sustainedPflops = num("sustained_pflops_bf16");
    r.peakPflops = num("peak_pflops_bf16");
    r.maxInletC = num("max_inlet_degC");
    r.maxJunctionC = num("max_gpu_junction_degC");
    r.throttled = j["throttled_chassis"];
    r.itLoadW = num("it_load_W");
    r.acInputW = num("facility_ac_W");
    r.failedRules = j["failed_rules"];
    r.seconds = j["seconds"];
    return r;
}

int SweepTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name)
            return static_cast<int>(i);
    return -1;
}

SweepTable readSweep(const std::string& path)
{
    const core::SourceLoc loc{path, 0, 0, "/sweep/variants"};
    if (!fs::exists(path))
        throw core::InputError(loc, "file not found");
    const H5Quiet quiet; // errors are reported below, with the file
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!file.valid())
        throw core::InputError(loc, "not an HDF5 file");
    if (H5Lexists(file.get(), "sweep", H5P_DEFAULT) <= 0 || H5Lexists(file.get(), "sweep/variants", H5P_DEFAULT) <= 0)
        throw core::InputError(loc, "no /sweep/variants: not an rdt sweep file (rdt sweep SPEC -o FILE.h5)");
    H5Handle d(H5Dopen2(file.get(), "sweep/variants", H5P_DEFAULT));
    H5Handle type(H5Dget_type(d.get()));
    if (H5Tget_class(type.get()) != H5T_COMPOUND)
        throw core::InputError(loc, "not a table");
    H5Handle space(H5Dget_space(d.get()));
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    SweepTable t;
    const int members = H5Tget_nmembers(type.get());
    // Units: an attribute of variable-length strings aligned with the members.
    std::vector<std::string> units(static_cast<std::size_t>(members));
    if (H5Aexists(d.get(), "units") > 0) {
        H5Handle a(H5Aopen(d.get(), "units", H5P_DEFAULT));
        H5Handle as(H5Aget_space(a.get()));
        if (H5Sget_simple_extent_npoints(as.get()) == members) {
            std::vector<char*> u(static_cast<std::size_t>(members), nullptr);
            const H5Handle str = stringType();
            if (H5Aread(a.get(), str.get(), u.data()) >= 0) {
                for (int i = 0; i < members; ++i)
                    units[static_cast<std::size_t>(i)] =
                        u[static_cast<std::size_t>(i)] ? u[static_cast<std::size_t>(i)] : "";
                H5Dvlen_reclaim(str.get(), as.get(), H5P_DEFAULT, u.data());
            }
        }
    }
    for (int i = 0; i < members; ++i) {
        char* name = H5Tget_member_name(type.get(), static_cast<unsigned>(i));
        const std::string col = name;
        H5free_memory(name);
        const bool text = H5Tget_member_class(type.get(), static_cast<unsigned>(i)) == H5T_STRING;
        t.columns.push_back(col);
        t.units.push_back(units[static_cast<std::size_t>(i)]);
        t.numeric.push_back(!text);
        t.numbers.emplace_back(n, NAN);
        t.texts.emplace_back(text ? n : 0);
        if (text) {
            const H5Handle str = stringType();
            H5Handle mem(H5Tcreate(H5T_COMPOUND, sizeof(char*)));
            H5Tinsert(mem.get(), col.c_str(), 0, str.get());
            std::vector<char*> v(n, nullptr);
            if (n > 0 && H5Dread(d.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0) {
                for (std::size_t r = 0; r < n; ++r)
                    t.texts.back()[r] = v[r] ? v[r] : "";
                H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, v.data());
            }
        } else {
            H5Handle mem(H5Tcreate(H5T_COMPOUND, sizeof(double)));
            H5Tinsert(mem.get(), col.c_str(), 0, H5T_NATIVE_DOUBLE);
            if (n > 0 && H5Dread(d.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, t.numbers.back().data()) < 0)
                throw core::InputError(loc, "cannot read column " + col);
        }
    }
    // The axes sit between `variant` and `ok`.
    const int ok = t.column("ok");
    if (t.column("variant") != 0 || ok < 1)
        throw core::InputError(loc, "not an rdt sweep table (no variant … ok columns)");
    t.axes = static_cast<std::size_t>(ok - 1);
    return t;
}

} // namespace rdt::analysis
