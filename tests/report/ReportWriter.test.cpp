#include <catch2/catch.hpp>

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/Pipeline.h"
#include "report/ReportWriter.h"
#include "support/Hdf5Read.h"
#include <unistd.h>

using namespace rdt;
using test::realColumn;
using test::tableInfo;
using test::TableInfo;
namespace fs = std::filesystem;

static const std::string kDesigns = RDT_SOURCE_DIR "/data/designs/";

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string readStringDataset(hid_t file, const char* path)
{
    const hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t type = H5Dget_type(ds);
    char* value = nullptr;
    REQUIRE(H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) >= 0);
    std::string out = value ? value : "";
    const hid_t space = H5Dget_space(ds);
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, &value);
    H5Sclose(space);
    H5Tclose(type);
    H5Dclose(ds);
    return out;
}

std::string readStringAttribute(hid_t object, const char* name)
{
    const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
    REQUIRE(attr >= 0);
    const hid_t type = H5Aget_type(attr);
    char* value = nullptr;
    REQUIRE(H5Aread(attr, type, &value) >= 0);
    std::string out = value ? value : "";
    H5free_memory(value);
    H5Tclose(type);
    H5Aclose(attr);
    return out;
}

fs::path tempDir()
{
    const fs::path d = fs::temp_directory_path() / ("rdt-report-test-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}

} // namespace

TEST_CASE("the report reads back through the HDF5 API", "[report][hdf5]")
{
    core::Progress progress;
    const analysis::RunResult r = analysis::run({kDesigns + "broken-rack.yaml", "", ""}, progress);
    const fs::path out = tempDir() / "broken.h5";
    report::writeReport(r, out.string(), "9.9.9");
    REQUIRE(fs::exists(out));
    for (const auto& e : fs::directory_iterator(out.parent_path()))
        CHECK(e.path().string().find(".tmp-") == std::string::npos); // no temporary left behind

    const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    CHECK(readStringDataset(f, "/meta/design_text") == readAll(kDesigns + "broken-rack.yaml"));
    const hid_t meta = H5Gopen2(f, "/meta", H5P_DEFAULT);
    CHECK(readStringAttribute(meta, "tool_version") == "9.9.9");
    CHECK(readStringAttribute(meta, "created").size() == 20); // 2026-11-29T18:00:00Z
    H5Gclose(meta);

    const TableInfo racks = tableInfo(f, "/design/racks");
    CHECK(racks.rows == 3);
    REQUIRE(racks.members.size() == racks.units.size());
    for (std::size_t i = 0; i < racks.members.size(); ++i)
        if (racks.members[i] == "payload_mass")
            CHECK(racks.units[i] == "kg");
    const auto mass = realColumn(f, "/design/racks", "payload_mass");
    CHECK(mass[1] == Approx(1650.0)); // sled 1,500 kg + Grand Teton 130 kg + power shelf 20 kg (estimates)

    const TableInfo slots = tableInfo(f, "/design/slots");
    CHECK(slots.rows == 8);
    const TableInfo violations = tableInfo(f, "/checks/violations");
    CHECK(violations.rows == r.violations.size());
    CHECK(std::find(violations.members.begin(), violations.members.end(), "rule") != violations.members.end());
    const auto measured = realColumn(f, "/checks/violations", "measured");
    for (std::size_t i = 0; i < r.violations.size(); ++i) {
        if (std::isnan(r.violations[i].measured))
            CHECK(std::isnan(measured[i])); // a rule with no figure (thermal.network.open_aisles) stays NaN
        else
            CHECK(measured[i] == Approx(r.violations[i].measured));
    }
    const TableInfo power = tableInfo(f, "/power/racks");
    CHECK(power.rows == 3);
    const auto itLoad = realColumn(f, "/power/racks", "it_load");
    CHECK(itLoad[0] == Approx(r.power->racks[0].itLoadW));
    // The voltage the busbar current is judged at, beside the lowest solved voltage (both as in JSON).
    const auto atVolts = realColumn(f, "/power/racks", "busbar_current_voltage");
    const auto lowest = realColumn(f, "/power/racks", "busbar_min_voltage");
    CHECK(atVolts[0] == Approx(r.power->racks[0].busbarVminV));
    CHECK(lowest[0] == Approx(r.power->racks[0].lowestVoltageV));
    CHECK(tableInfo(f, "/power/rollups").rows == 1 + 1 + 1); // one row, one hall, the cluster
    CHECK(tableInfo(f, "/thermal/chassis").rows == 5);
    CHECK(tableInfo(f, "/thermal/rows").rows == 1);
    const auto junction = realColumn(f, "/thermal/chassis", "gpu_junction_max");
    CHECK(junction[0] == Approx(r.thermal->racks[0].chassis[0].gpuJunctionK - 273.15));
    const TableInfo catalog = tableInfo(f, "/meta/catalog");
    CHECK(catalog.rows == r.design.catalog->files().size());
    // Throughput: one row per GPU class, the busbw sweep per op and scope, units on every column.
    const TableInfo classes = tableInfo(f, "/throughput/gpu_classes");
    CHECK(classes.rows == r.throughput->classes.size());
    const auto sustained = realColumn(f, "/throughput/gpu_classes", "sustained_tflops_bf16");
    CHECK(sustained[0] == Approx(r.throughput->classes[0].sustainedTflopsBf16));
    const TableInfo coll = tableInfo(f, "/throughput/collectives");
    CHECK(coll.rows == r.throughput->collectives.size());
    for (std::size_t i = 0; i < coll.members.size(); ++i)
        if (coll.members[i] == "busbw")
            CHECK(coll.units[i] == "GB/s");
    const auto busbw = realColumn(f, "/throughput/collectives", "busbw");
    CHECK(busbw.back() == Approx(r.throughput->collectives.back().busbwGBps));
    CHECK(tableInfo(f, "/throughput/allgather_scaling").rows == r.throughput->allgatherScaling.size());
    H5Fclose(f);
    fs::remove_all(out.parent_path());
}

TEST_CASE("large tables are chunked and compressed", "[report][hdf5]")
{
    core::Progress progress;
    const analysis::RunResult r = analysis::run({kDesigns + "meta-24k-roce.yaml", "", ""}, progress);
    const fs::path out = tempDir() / "roce.h5";
    report::writeReport(r, out.string(), "1");
    const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const TableInfo slots = tableInfo(f, "/design/slots");
    CHECK(slots.rows == 1536 * 7);
    const hid_t ds = H5Dopen2(f, "/design/slots", H5P_DEFAULT);
    const hid_t dcpl = H5Dget_create_plist(ds);
    CHECK(H5Pget_layout(dcpl) == H5D_CHUNKED);
    bool deflate = false;
    for (int i = 0; i < H5Pget_nfilters(dcpl); ++i) {
        unsigned flags = 0;
        size_t n = 0;
        deflate = deflate || H5Pget_filter2(dcpl, static_cast<unsigned>(i), &flags, &n, nullptr, 0, nullptr, nullptr) ==
                                 H5Z_FILTER_DEFLATE;
    }
    CHECK(deflate);
    H5Pclose(dcpl);
    H5Dclose(ds);
    H5Fclose(f);
    fs::remove_all(out.parent_path());
}

TEST_CASE("an unwritable output path is bad input and leaves nothing behind", "[report][hdf5]")
{
    core::Progress progress;
    const analysis::RunResult r = analysis::run({kDesigns + "single-rack.yaml", "", ""}, progress);
    CHECK_THROWS_AS(report::writeReport(r, "/nonexistent-dir/x.h5", "1"), core::InputError);
    const fs::path dir = tempDir() / "ro";
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    if (::geteuid() != 0) { // root ignores permissions
        CHECK_THROWS_AS(report::writeReport(r, (dir / "x.h5").string(), "1"), core::InputError);
        CHECK(fs::is_empty(dir));
    }
    fs::permissions(dir, fs::perms::owner_all);
    // The target is a folder: the rename fails, the temporary file is removed.
    const fs::path blocked = tempDir() / "blocked.h5";
    fs::create_directories(blocked);
    CHECK_THROWS_AS(report::writeReport(r, blocked.string(), "1"), core::InputError);
    for (const auto& e : fs::directory_iterator(tempDir()))
        CHECK(e.path().string().find(".tmp-") == std::string::npos);
    // An existing report is replaced only by a complete one.
    const fs::path target = tempDir() / "keep.h5";
    report::writeReport(r, target.string(), "1");
    const auto size = fs::file_size(target);
    report::writeReport(r, target.string(), "1");
    CHECK(fs::file_size(target) == size);
    fs::remove_all(tempDir());
}

namespace {

/// Everything wrong with the report as data, found by walking every object in the file.
struct SchemaWalk {
    std::vector<std::string> problems;
    std::set<std::string> units;
    std::size_t datasets = 0;

    /// "0.000000 s", "1e-12", "42": text that is a number (with or without a unit).
    static bool looksNumeric(const std::string& s)
    {
        static const std::regex number(R"(\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(\s*[A-Za-z/%]+)?\s*)");
        return !s.empty() && std::regex_match(s, number);
    }

    std::vector<std::string> stringAttribute(hid_t obj, const char* name) const
    {
        std::vector<std::string> out;
        const hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
        const hid_t space = H5Aget_space(attr);
        const hssize_t n = std::max<hssize_t>(1, H5Sget_simple_extent_npoints(space));
        std::vector<char*> values(static_cast<std::size_t>(n));
        const hid_t type = H5Aget_type(attr);
        if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0 &&
            H5Aread(attr, type, values.data()) >= 0) {
            for (char* v : values)
                out.emplace_back(v ? v : "");
            H5Dvlen_reclaim(type, space, H5P_DEFAULT, values.data());
        }
        H5Tclose(type);
        H5Sclose(space);
        H5Aclose(attr);
        return out;
    }

    void attributes(hid_t obj, const std::string& path)
    {
        const int n = H5Aget_num_attrs(obj);
        for (int i = 0; i < n; ++i) {
            char name[256];
            const hid_t attr = H5Aopen_idx(obj, static_cast<unsigned>(i));
            H5Aget_name(attr, sizeof name, name);
            const hid_t type = H5Aget_type(attr);
            const bool isString = H5Tget_class(type) == H5T_STRING;
            H5Tclose(type);
            H5Aclose(attr);
            if (!isString) {
                problems.push_back(path + "@" + name + ": a numeric attribute (numbers belong in datasets with units)");
                continue;
            }
            if (std::string(name) == "units")
                continue;
            for (const std::string& v : stringAttribute(obj, name))
                if (looksNumeric(v))
                    problems.push_back(path + "@" + name + ": number stored as text \"" + v + "\"");
        }
    }

    void dataset(hid_t ds, const std::string& path)
    {
        ++datasets;
        attributes(ds, path);
        const hid_t type = H5Dget_type(ds);
        const H5T_class_t cls = H5Tget_class(type);
        const bool hasUnits = H5Aexists(ds, "units") > 0;
        if (cls == H5T_STRING) {
            if (path != "/meta/design_text")
                problems.push_back(path + ": a text dataset");
        } else if (!hasUnits)
            problems.push_back(path + ": no units attribute");
        else if (cls == H5T_COMPOUND) {
            const std::vector<std::string> u = stringAttribute(ds, "units");
            const int members = H5Tget_nmembers(type);
            if (static_cast<int>(u.size()) != members)
                problems.push_back(path + ": units do not match the columns");
            for (int m = 0; m < members && m < static_cast<int>(u.size()); ++m) {
                char* name = H5Tget_member_name(type, static_cast<unsigned>(m));
                const hid_t mt = H5Tget_member_type(type, static_cast<unsigned>(m));
                const bool text = H5Tget_class(mt) == H5T_STRING;
                if (!text && u[static_cast<std::size_t>(m)].empty())
                    problems.push_back(path + "." + name + ": a numeric column without a unit");
                if (!text)
                    units.insert(u[static_cast<std::size_t>(m)]);
                // Temperatures are degC throughout; K is for differences (margins, rises) only.
                const std::string col = name;
                if (u[static_cast<std::size_t>(m)] == "K" && col.find("margin") == std::string::npos &&
                    col.find("dt") == std::string::npos)
                    problems.push_back(path + "." + col + ": a temperature in K");
                H5Tclose(mt);
                H5free_memory(name);
            }
            checkTextColumns(ds, type, path);
        } else {
            const std::vector<std::string> u = stringAttribute(ds, "units");
            if (u.size() != 1 || u[0].empty())
                problems.push_back(path + ": units attribute is not one unit");
            else {
                units.insert(u[0]);
                if (u[0] == "K" && path.find("margin") == std::string::npos)
                    problems.push_back(path + ": a temperature in K");
            }
        }
        H5Tclose(type);
    }

    /// No text column holds numbers.
    void checkTextColumns(hid_t ds, hid_t type, const std::string& path)
    {
        const hid_t space = H5Dget_space(ds);
        hsize_t rows = 0;
        H5Sget_simple_extent_dims(space, &rows, nullptr);
        for (int m = 0; m < H5Tget_nmembers(type); ++m) {
            const hid_t mt = H5Tget_member_type(type, static_cast<unsigned>(m));
            if (H5Tget_class(mt) == H5T_STRING && rows > 0) {
                char* name = H5Tget_member_name(type, static_cast<unsigned>(m));
                const hid_t str = H5Tcopy(H5T_C_S1);
                H5Tset_size(str, H5T_VARIABLE);
                const hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(char*));
                H5Tinsert(mem, name, 0, str);
                std::vector<char*> values(rows);
                if (H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0) {
                    for (char* v : values)
                        if (v && looksNumeric(v) && std::string(name) != "id" && std::string(name) != "fnv1a64")
                            problems.push_back(path + "." + name + ": number stored as text \"" + v + "\"");
                    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, values.data());
                }
                H5Tclose(mem);
                H5Tclose(str);
                H5free_memory(name);
            }
            H5Tclose(mt);
        }
        H5Sclose(space);
    }

    void group(hid_t g, const std::string& path)
    {
        attributes(g, path);
        hsize_t n = 0;
        H5Gget_num_objs(g, &n);
        for (hsize_t i = 0; i < n; ++i) {
            char name[512];
            H5Gget_objname_by_idx(g, i, name, sizeof name);
            const std::string child = (path == "/" ? "" : path) + "/" + name;
            const int kind = H5Gget_objtype_by_idx(g, i);
            if (kind == H5G_GROUP) {
                const hid_t sub = H5Gopen2(g, name, H5P_DEFAULT);
                group(sub, child);
                H5Gclose(sub);
            } else if (kind == H5G_DATASET) {
                const hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
                dataset(ds, child);
                H5Dclose(ds);
            }
        }
    }
};

double scalar(hid_t f, const char* path)
{
    double v = NAN;
    const hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
    REQUIRE(ds >= 0);
    H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
    H5Dclose(ds);
    return v;
}

} // namespace

TEST_CASE("the report is data: every number numeric with units, degC throughout, what-ifs apart",
          "[report][hdf5][schema]")
{
    for (const char* name : {"single-rack.yaml", "broken-rack.yaml"}) {
        CAPTURE(name);
        analysis::RunOptions o;
        o.designPath = kDesigns + name;
        o.inletK = 303.15; // a what-if: 30 °C supply
        core::Progress progress;
        const analysis::RunResult r = analysis::run(o, progress);
        const fs::path out = tempDir() / "schema.h5";
        report::writeReport(r, out.string(), "0.1.0-test");
        const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        REQUIRE(f >= 0);
        SchemaWalk walk;
        const hid_t root = H5Gopen2(f, "/", H5P_DEFAULT);
        walk.group(root, "/");
        H5Gclose(root);
        CHECK(walk.datasets > 30);
        CHECK(walk.problems == std::vector<std::string>{});
        CHECK(walk.units.count("degC") == 1);
        // /design is the design as written; the what-if is in /scenario.
        CHECK(scalar(f, "/design/site_supply_air") == Approx(r.design.scenario.designedSite.supplyAirK - 273.15));
        CHECK(scalar(f, "/scenario/supply_air") == Approx(30.0));
        // Per-GPU, per-part power, per-shelf and per-rack thermal tables.
        CHECK(tableInfo(f, "/thermal/gpus").rows == r.design.summary().gpus);
        std::size_t parts = 0, shelves = 0;
        for (const auto& rack : r.power->racks) {
            parts += rack.parts.size();
            shelves += rack.shelves.size();
        }
        CHECK(tableInfo(f, "/power/parts").rows == parts);
        CHECK(tableInfo(f, "/power/shelves").rows == shelves);
        CHECK(tableInfo(f, "/thermal/racks").rows == r.design.racks.size());
        // Each rack's heat with the power shelves' conversion loss in it, read back as written.
        const auto heat = realColumn(f, "/thermal/racks", "heat");
        const auto shelfLoss = realColumn(f, "/thermal/racks", "shelf_loss");
        REQUIRE(shelfLoss.size() == r.thermal->racks.size());
        for (std::size_t i = 0; i < shelfLoss.size(); ++i) {
            CHECK(shelfLoss[i] == r.thermal->racks[i].shelfLossW);
            CHECK(heat[i] == r.thermal->racks[i].heatW);
        }
        CHECK(shelfLoss.at(0) > 0.0);
        const auto fan = realColumn(f, "/power/parts", "fan_speed");
        const auto budget = realColumn(f, "/power/parts", "budget");
        for (std::size_t i = 0; i < parts && i < 2; ++i)
            CHECK(budget[i] == Approx(r.power->racks[0].parts[i].budgetW));
        (void)fan;
        H5Fclose(f);
    }
    fs::remove_all(tempDir());
}

TEST_CASE("pulse spacing and eye BERs are numbers: 1e-12 reads back as 1e-12", "[report][hdf5][signal]")
{
    core::Progress progress;
    const analysis::RunResult r = analysis::run({kDesigns + "single-rack.yaml", "", ""}, progress);
    const fs::path out = tempDir() / "signal.h5";
    report::writeReport(r, out.string(), "1");
    const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    bool checked = false;
    for (const signal::LinkVerdict& v : r.signal->links) {
        if (v.pulse.v.empty() || v.eyeBer.empty())
            continue;
        const std::string pulse = "/signal/pulses/" + v.id + "/sample_spacing";
        CHECK(scalar(f, pulse.c_str()) == Approx(v.pulse.dtS).epsilon(1e-15));
        CHECK(scalar(f, pulse.c_str()) > 0.0);
        const std::string ber = "/signal/eyes/" + v.id + "/ber";
        const hid_t ds = H5Dopen2(f, ber.c_str(), H5P_DEFAULT);
        REQUIRE(ds >= 0);
        std::vector<double> bers(v.eyeBer.size());
        H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, bers.data());
        H5Dclose(ds);
        for (std::size_t i = 0; i < bers.size(); ++i)
            CHECK(bers[i] == Approx(v.eyeBer[i]).epsilon(1e-12));
        CHECK(*std::min_element(bers.begin(), bers.end()) < 1e-9); // not printed to 6 decimals (0)
        checked = true;
    }
    CHECK(checked);
    H5Fclose(f);
    fs::remove_all(out.parent_path());
}

TEST_CASE("the checkpoint in the report: the same figures as JSON, path stage by stage", "[report][hdf5][checkpoint]")
{
    analysis::RunOptions o;
    o.designPath = kDesigns + "meta-24k-roce.yaml";
    o.targetsPath = RDT_SOURCE_DIR "/data/targets/meta-llama3.yaml";
    core::Progress progress;
    const analysis::RunResult r = analysis::run(o, progress);
    REQUIRE(r.throughput);
    REQUIRE(r.throughput->checkpoint);
    const analysis::CheckpointResult& c = *r.throughput->checkpoint;
    REQUIRE(c.checked);
    const fs::path out = tempDir() / "checkpoint.h5";
    report::writeReport(r, out.string(), "1");
    const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    CHECK(scalar(f, "/throughput/checkpoint/save") == c.saveS);
    CHECK(scalar(f, "/throughput/checkpoint/goodput") == c.goodput);
    CHECK(scalar(f, "/throughput/checkpoint/mtbf") == c.mtbfS);
    const hid_t g = H5Gopen2(f, "/throughput/checkpoint", H5P_DEFAULT);
    CHECK(readStringAttribute(g, "write_bottleneck") == "storage");
    H5Gclose(g);
    const std::vector<double> rates = realColumn(f, "/throughput/checkpoint/path", "rate");
    REQUIRE(rates.size() == c.write.size() + c.read.size());
    CHECK(*std::min_element(rates.begin(), rates.begin() + static_cast<long>(c.write.size())) == c.bytes / c.saveS);
    H5Fclose(f);
}
