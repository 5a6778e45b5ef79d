#include "report/ReportWriter.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "hil/H5Table.h"
#include "report/PowerOutput.h"
#include "report/DynamicsOutput.h"
#include "report/LiquidOutput.h"
#include "report/ThermalOutput.h"
#include "report/ThroughputOutput.h"
#include "core/AtomicFile.h"

using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

// What analysis computed, by its own names.
using analysis::EnergyGroup;
using analysis::EnergyLevel;
using analysis::EnergyResult;
using analysis::RunResult;
namespace {

/// The report's one timestamp: now, or SOURCE_DATE_EPOCH (seconds since 1970, the reproducible-builds
/// convention) when set, so that two runs on the same input give the same bytes.
std::string isoTimeUtc()
{
    std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        char* end = nullptr;
        const long long v = std::strtoll(epoch, &end, 10);
        if (end && *end == '\0' && v >= 0 && v < 253402300800LL) // up to year 9999
            now = static_cast<std::time_t>(v);
    }
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string hex(std::uint64_t v)
{
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

H5Handle group(hid_t parent, const char* name)
{
    return createGroup(parent, name);
}

void writeMeta(hid_t file, const RunResult& r, const std::string& toolVersion)
{
    const H5Handle meta = group(file, "meta");
    writeStringAttribute(meta.get(), "tool", "rdt");
    writeStringAttribute(meta.get(), "tool_version", toolVersion);
    writeStringAttribute(meta.get(), "created", isoTimeUtc());
    writeStringAttribute(meta.get(), "design_file", r.design.file);
    writeStringAttribute(meta.get(), "design_name", r.design.name);
    writeStringAttribute(meta.get(), "profile", r.profile.name);
    writeStringAttribute(meta.get(), "profile_file", r.profile.file);
    writeStringAttribute(meta.get(), "schema", "rdt-report/1");
    writeStringDataset(meta.get(), "design_text", r.design.text);
    H5Table catalog;
    const auto file_ = catalog.textColumn("file");
    const auto hash = catalog.textColumn("fnv1a64");
    for (const auto& [path, h] : r.design.catalog->files()) {
        catalog.addRow();
        catalog.set(file_, path);
        catalog.set(hash, hex(h));
    }
    catalog.write(meta.get(), "catalog");
}

std::string groupId(const std::vector<core::Group>& groups, int index)
{
    return index >= 0 ? groups[static_cast<std::size_t>(index)].id : std::string();
}

void writeDesign(hid_t file, const RunResult& r)
{
    const H5Handle g = group(file, "design");
    const core::Design& d = r.design;
    const core::Summary s = d.summary();
    writeScalar(g.get(), "rack_count", static_cast<double>(s.racks), "1");
    writeScalar(g.get(), "chassis_count", static_cast<double>(s.chassis), "1");
    writeScalar(g.get(), "gpu_count", static_cast<double>(s.gpus), "1");
    // The site as the design file states it; a what-if's values are in /scenario.
    const core::Site& site = d.scenario.designedSite;
    writeScalar(g.get(), "site_altitude", site.altitudeM, "m");
    writeScalar(g.get(), "site_supply_air", site.supplyAirK - 273.15, "degC");
    writeScalar(g.get(), "site_relative_humidity", site.relativeHumidity, "1");
    writeStringAttribute(g.get(), "ashrae_class", site.ashraeClass);
    writeStringAttribute(g.get(), "power_basis",
                         d.power.basis ? std::string(core::powerBasisName(*d.power.basis)) : "not stated");

    H5Table racks;
    const auto rId = racks.textColumn("id"), rHall = racks.textColumn("hall"), rPod = racks.textColumn("pod"),
               rRow = racks.textColumn("row"), rType = racks.textColumn("rack_type"),
               rPos = racks.intColumn("position_in_row", "1"), rOu = racks.intColumn("used_ou", "OU"),
               rMass = racks.realColumn("payload_mass", "kg"), rGpu = racks.intColumn("gpus", "1");
    H5Table slots;
    const auto sRack = slots.textColumn("rack"), sId = slots.textColumn("id"), sPart = slots.textColumn("part"),
               sKind = slots.textColumn("kind"), sOu = slots.intColumn("ou", "OU"),
               sH = slots.intColumn("height", "OU"), sCap = slots.realColumn("gpu_power_cap", "W"),
               sUtil = slots.realColumn("utilisation", "1"), sFans = slots.intColumn("failed_fan_rotors", "1");
    for (const core::Rack& rack : d.racks) {
        long long used = 0, gpus = 0;
        double mass = 0.0;
        for (const core::Slot& sl : rack.slots) {
            used += sl.part->ouHeight;
            gpus += core::Design::gpuCount(*sl.part);
            mass += sl.part->value("weight", 0.0);
            slots.addRow();
            slots.set(sRack, rack.id);
            slots.set(sId, sl.id);
            slots.set(sPart, sl.part->slug);
            slots.set(sKind, std::string(core::partKindName(sl.part->kind)));
            slots.set(sOu, static_cast<long long>(sl.ou));
            slots.set(sH, static_cast<long long>(sl.part->ouHeight));
            slots.set(sCap, sl.overrides.gpuPowerCapW.value_or(NAN));
            slots.set(sUtil, sl.overrides.utilisation.value_or(NAN));
            slots.set(sFans, static_cast<long long>(sl.overrides.failedFanRotors));
        }
        racks.addRow();
        racks.set(rId, rack.id);
        racks.set(rHall, groupId(d.halls, rack.hall));
        racks.set(rPod, groupId(d.pods, rack.pod));
        racks.set(rRow, groupId(d.rows, rack.row));
        racks.set(rType, rack.rackType->slug);
        racks.set(rPos, static_cast<long long>(rack.positionInRow));
        racks.set(rOu, used);
        racks.set(rMass, mass);
        racks.set(rGpu, gpus);
    }
    racks.write(g.get(), "racks");
    slots.write(g.get(), "slots");

    H5Table parts;
    const auto pSlug = parts.textColumn("slug"), pMan = parts.textColumn("manufacturer"),
               pModel = parts.textColumn("model"), pKind = parts.textColumn("kind"),
               pOu = parts.intColumn("ou_height", "OU"), pW = parts.realColumn("width", "m"),
               pD = parts.realColumn("depth", "m"), pMass = parts.realColumn("weight", "kg"),
               pPow = parts.realColumn("max_power", "W");
    for (const std::string& slug : d.catalog->slugs()) {
        const core::Part& p = *d.catalog->find(slug);
        parts.addRow();
        parts.set(pSlug, p.slug);
        parts.set(pMan, p.manufacturer);
        parts.set(pModel, p.model);
        parts.set(pKind, std::string(core::partKindName(p.kind)));
        parts.set(pOu, static_cast<long long>(p.ouHeight));
        parts.set(pW, p.value("width", NAN));
        parts.set(pD, p.value("depth", NAN));
        parts.set(pMass, p.value("weight", NAN));
        parts.set(pPow, p.value("power.max", NAN));
    }
    parts.write(g.get(), "parts");

    H5Table links;
    const auto lId = links.textColumn("class"), lMed = links.textColumn("medium"),
               lFrom = links.textColumn("from_part"), lTo = links.textColumn("to_part"),
               lScope = links.textColumn("scope"), lCable = links.textColumn("cable"),
               lCount = links.intColumn("count", "1"), lLen = links.realColumn("length", "m");
    for (const core::LinkClass& l : d.links) {
        links.addRow();
        links.set(lId, l.id);
        links.set(lMed, l.medium);
        links.set(lFrom, l.scope == "port" ? l.fromSlot + ":" + l.fromPort : l.from.partSlug);
        links.set(lTo, l.scope == "port" ? l.toSlot + ":" + l.toPort : l.to.partSlug);
        links.set(lScope, l.scope);
        links.set(lCable, l.cable ? l.cable->slug : std::string());
        links.set(lCount, static_cast<long long>(l.count));
        links.set(lLen, l.lengthM.value_or(l.cable ? l.cable->value("length", NAN) : NAN));
    }
    links.write(g.get(), "links");
}

void writeChecks(hid_t file, const RunResult& r)
{
    const H5Handle g = group(file, "checks");
    H5Table t;
    const auto cRule = t.textColumn("rule"), cSev = t.textColumn("severity"), cSub = t.textColumn("subject"),
               cMsg = t.textColumn("message"), cMeas = t.realColumn("measured", "see column unit"),
               cLim = t.realColumn("limit", "see column unit"), cUnit = t.textColumn("unit"),
               cFile = t.textColumn("file"), cLine = t.intColumn("line", "1"), cCol = t.intColumn("column", "1"),
               cPath = t.textColumn("path"), cWaived = t.intColumn("waived", "1"),
               cJust = t.textColumn("justification");
    for (const core::Violation& v : r.violations) {
        t.addRow();
        t.set(cRule, v.rule);
        t.set(cSev, std::string(core::severityName(v.severity)));
        t.set(cSub, v.subject);
        t.set(cMsg, v.message);
        t.set(cMeas, v.measured);
        t.set(cLim, v.limit);
        t.set(cUnit, v.unit);
        t.set(cFile, v.loc.file);
        t.set(cLine, static_cast<long long>(v.loc.line));
        t.set(cCol, static_cast<long long>(v.loc.column));
        t.set(cPath, v.loc.path);
        t.set(cWaived, static_cast<long long>(v.waived ? 1 : 0));
        t.set(cJust, v.justification);
    }
    t.write(g.get(), "violations");
    // Waivers that waive nothing, as the text and JSON name them (a table with no rows when none).
    H5Table u;
    const auto uRule = u.textColumn("rule"), uSub = u.textColumn("subject"), uFile = u.textColumn("file"),
               uLine = u.intColumn("line", "1");
    for (const core::Waiver& w : r.unusedWaivers) {
        u.addRow();
        u.set(uRule, w.rule);
        u.set(uSub, w.subject);
        u.set(uFile, w.loc.file);
        u.set(uLine, static_cast<long long>(w.loc.line));
    }
    u.write(g.get(), "unused_waivers");
    const core::CheckCounts c = core::countViolations(r.violations);
    writeScalar(g.get(), "error_count", static_cast<double>(c.errors), "1");
    writeScalar(g.get(), "warning_count", static_cast<double>(c.warnings), "1");
}

void writeSignalGroup(hid_t file, const signal::SignalResult& s)
{
    const H5Handle g = group(file, "signal");
    H5Table t;
    const auto id = t.textColumn("id"), kind = t.textColumn("kind"), len = t.realColumn("length", "m"),
               placed = t.realColumn("placement_length", "m"), il = t.realColumn("il_nyquist", "dB"),
               com = t.realColumn("com", "dB"), eye = t.realColumn("eye_height", "V"),
               rate = t.realColumn("lane_rate", "Gb/s"), verdict = t.textColumn("verdict");
    for (const signal::LinkVerdict& v : s.links) {
        t.addRow();
        t.set(id, v.id);
        t.set(kind, v.kind);
        t.set(len, v.lengthM);
        t.set(placed, v.placementLengthM);
        t.set(il, v.ilNyquistDb);
        t.set(com, v.comDb);
        t.set(eye, v.eyeHeightV);
        t.set(rate, v.laneRateGbps);
        t.set(verdict, v.verdict);
    }
    t.write(g.get(), "links");
    // Ports per switch and chassis: the port budget and the rack tier's oversubscription.
    H5Table pt;
    const auto pId = pt.textColumn("id"), pPart = pt.textColumn("part"), pRack = pt.textColumn("rack"),
               pSwitch = pt.intColumn("switch", "1"), pAvail = pt.intColumn("available", "1"),
               pUsed = pt.intColumn("used", "1"), pDown = pt.intColumn("downlinks", "1"),
               pUp = pt.intColumn("uplinks", "1"), pDownBw = pt.realColumn("down_bandwidth", "Gb/s"),
               pUpBw = pt.realColumn("up_bandwidth", "Gb/s"), pOver = pt.realColumn("oversubscription", "1");
    for (const signal::PartPorts& p : s.ports) {
        pt.addRow();
        pt.set(pId, p.id);
        pt.set(pPart, p.part);
        pt.set(pRack, p.rack);
        pt.set(pSwitch, static_cast<long long>(p.isSwitch ? 1 : 0));
        pt.set(pAvail, static_cast<long long>(p.available));
        pt.set(pUsed, static_cast<long long>(p.used));
        pt.set(pDown, static_cast<long long>(p.downlinks));
        pt.set(pUp, static_cast<long long>(p.uplinks));
        pt.set(pDownBw, p.downGbps);
        pt.set(pUpBw, p.upGbps);
        pt.set(pOver, p.oversubscription);
    }
    pt.write(g.get(), "ports");
    // Equalised pulse response of each copper class: a group with the samples and their spacing.
    const H5Handle pulses = group(g.get(), "pulses");
    for (const signal::LinkVerdict& v : s.links) {
        if (v.pulse.v.empty())
            continue;
        const H5Handle p = group(pulses.get(), v.id.c_str());
        writeArray(p.get(), "response", v.pulse.v, {v.pulse.v.size()}, "V/V");
        writeScalar(p.get(), "sample_spacing", v.pulse.dtS, "s");
        writeScalar(p.get(), "main_cursor_index", static_cast<double>(v.pulse.peak), "1");
    }
    // Statistical eye of each copper class: [BER][phase] inner-eye opening with its axes.
    const H5Handle eyes = group(g.get(), "eyes");
    for (const signal::LinkVerdict& v : s.links) {
        if (v.eyeOpeningV.empty())
            continue;
        std::vector<double> flat;
        for (const auto& row : v.eyeOpeningV)
            flat.insert(flat.end(), row.begin(), row.end());
        const H5Handle e = group(eyes.get(), v.id.c_str());
        writeArray(e.get(), "opening", flat, {v.eyeBer.size(), v.eyePhaseUi.size()}, "V");
        writeArray(e.get(), "ber", v.eyeBer, {v.eyeBer.size()}, "1");
        writeArray(e.get(), "phase", v.eyePhaseUi, {v.eyePhaseUi.size()}, "UI");
    }
}

/// What-if inputs of this run (`--scenario`, `--inlet`, `--altitude`, `--power-basis`): kept apart
/// from /design, which is the design as written.
/// `/energy`: the facility's figures in all and per hall.
void writeEnergy(hid_t file, const EnergyResult& e)
{
    H5Handle g = createGroup(file, "energy");
    writeStringAttribute(g.get(), "pue_source", e.pueSource);
    writeStringAttribute(g.get(), "grid_source", e.gridSource);
    writeStringAttribute(g.get(), "peak_basis", std::string(core::powerBasisName(e.basis)));
    writeScalar(g.get(), "pue", e.pue, "1");
    writeScalar(g.get(), "load_factor", e.loadFactor, "1");
    writeScalar(g.get(), "hours_per_year", e.hoursPerYear, "h");
    writeScalar(g.get(), "grid_intensity", e.gridKgPerKWh, "kg/kWh");
    H5Table t;
    const auto id = t.textColumn("id"), it = t.realColumn("it_modelled", "W"), itb = t.realColumn("it_basis", "W"),
               cdu = t.realColumn("cdu_modelled", "W"), cdub = t.realColumn("cdu_basis", "W"),
               fac = t.realColumn("facility", "W"), peak = t.realColumn("facility_peak", "W"),
               mwh = t.realColumn("annual_energy", "MWh"), co2 = t.realColumn("co2", "t");
    std::vector<const EnergyGroup*> rows;
    for (const EnergyGroup& h : e.halls)
        rows.push_back(&h);
    rows.push_back(&e.total);
    for (const EnergyGroup* x : rows) {
        t.addRow();
        t.set(id, x->id);
        t.set(it, x->itModelledW);
        t.set(itb, x->itBasisW);
        t.set(cdu, x->cduModelledW);
        t.set(cdub, x->cduBasisW);
        t.set(fac, x->facilityW);
        t.set(peak, x->facilityPeakW);
        t.set(mwh, x->annualMWh);
        t.set(co2, x->co2Tonnes);
    }
    t.write(g.get(), "halls");
    if (e.model) {
        writeStringAttribute(g.get(), "pue_model_cooling", e.model->cooling);
        writeStringAttribute(g.get(), "pue_model_climate_zone", e.model->zone);
        writeScalar(g.get(), "pue_p05", e.model->p05, "1");
        writeScalar(g.get(), "pue_p95", e.model->p95, "1");
    }
    if (!e.profile.empty()) {
        H5Table p;
        const auto share = p.realColumn("hours_share", "1"), load = p.realColumn("load", "1"),
                   itw = p.realColumn("it", "W"), fw = p.realColumn("facility", "W");
        for (const EnergyLevel& l : e.profile) {
            p.addRow();
            p.set(share, l.share);
            p.set(load, l.load);
            p.set(itw, l.itW);
            p.set(fw, l.facilityW);
        }
        p.write(g.get(), "utilisation_profile");
    }
}

void writeScenario(hid_t file, const RunResult& r)
{
    const H5Handle g = group(file, "scenario");
    const core::Scenario& sc = r.design.scenario;
    writeStringAttribute(g.get(), "name", sc.name.empty() ? "as designed" : sc.name);
    writeScalar(g.get(), "extra_failed_rotors", sc.failedRotors, "1");
    writeScalar(g.get(), "supply_air", r.design.site.supplyAirK - 273.15, "degC");
    writeScalar(g.get(), "altitude", r.design.site.altitudeM, "m");
    if (r.power)
        writeStringAttribute(g.get(), "power_basis", std::string(core::powerBasisName(r.power->basis)));
}

} // namespace

void writeReport(const RunResult& result, const std::string& outPath, const std::string& toolVersion)
{
    namespace fs = std::filesystem;
    const H5Quiet quiet; // errors are reported below, with the file
    const fs::path target(outPath);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw core::InputError(core::SourceLoc{outPath, 0, 0, "-o"},
                               "output folder \"" + dir.string() + "\" does not exist");
    // Temporaries of killed runs are removed; this run's goes in the same folder, is flushed and
    // fsynced, then renamed over the target.
    core::removeStaleTemporaries(outPath);
    const std::string tmp = core::temporaryFor(outPath);
    {
        H5Handle file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        if (!file.valid())
            throw core::InputError(core::SourceLoc{outPath, 0, 0, "-o"},
                                   "cannot create the report (is the folder writable?)");
        try {
            writeMeta(file.get(), result, toolVersion);
            writeDesign(file.get(), result);
            writeChecks(file.get(), result);
            writeScenario(file.get(), result);
            if (result.power)
                writePowerGroup(file.get(), *result.power);
            if (result.thermal)
                writeThermalGroup(file.get(), *result.thermal, result.design);
            if (result.liquid)
                writeLiquidGroup(file.get(), *result.liquid);
            if (result.signal)
                writeSignalGroup(file.get(), *result.signal);
            if (result.throughput)
                writeThroughputGroup(file.get(), *result.throughput);
            if (result.energy)
                writeEnergy(file.get(), *result.energy);
            if (result.dynamics)
                writeDynamicsGroup(file.get(), *result.dynamics);
        } catch (...) {
            file = H5Handle();
            fs::remove(tmp, ec);
            throw;
        }
    }
    if (!core::syncFileAndFolder(tmp)) {
        fs::remove(tmp, ec);
        throw core::InputError(core::SourceLoc{outPath, 0, 0, "-o"}, "cannot flush the report to disk");
    }
    fs::rename(tmp, target, ec);
    if (!ec)
        core::syncFileAndFolder(outPath);
    if (ec) {
        // The rename's reason, not the clean-up's (it read "Success" for a folder).
        const std::string why = fs::is_directory(target) ? "it is a folder: give a file name" : ec.message();
        std::error_code rm;
        fs::remove(tmp, rm);
        throw core::InputError(core::SourceLoc{outPath, 0, 0, "-o"}, "cannot move the report into place: " + why);
    }
}

} // namespace rdt::report
