#include <catch2/catch.hpp>

#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/Pipeline.h"
#include "analysis/ReportWriter.h"

using namespace rdt;
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

/// Rows of a 1-D dataset and the names of its compound members.
struct TableInfo {
    hsize_t rows = 0;
    std::vector<std::string> members;
    std::vector<std::string> units;
};

TableInfo tableInfo(hid_t file, const char* path)
{
    TableInfo t;
    const hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t space = H5Dget_space(ds);
    H5Sget_simple_extent_dims(space, &t.rows, nullptr);
    const hid_t type = H5Dget_type(ds);
    REQUIRE(H5Tget_class(type) == H5T_COMPOUND);
    for (int i = 0; i < H5Tget_nmembers(type); ++i) {
        char* name = H5Tget_member_name(type, static_cast<unsigned>(i));
        t.members.emplace_back(name);
        H5free_memory(name);
    }
    const hid_t attr = H5Aopen(ds, "units", H5P_DEFAULT);
    REQUIRE(attr >= 0);
    const hid_t aspace = H5Aget_space(attr);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(aspace, &n, nullptr);
    std::vector<char*> units(n);
    const hid_t atype = H5Aget_type(attr);
    REQUIRE(H5Aread(attr, atype, units.data()) >= 0);
    for (char* u : units)
        t.units.emplace_back(u ? u : "");
    H5Dvlen_reclaim(atype, aspace, H5P_DEFAULT, units.data());
    H5Tclose(atype);
    H5Sclose(aspace);
    H5Aclose(attr);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(ds);
    return t;
}

/// Reads the double column `member` of a compound dataset.
std::vector<double> realColumn(hid_t file, const char* path, const char* member)
{
    const hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    const hid_t space = H5Dget_space(ds);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(space, &rows, nullptr);
    const hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(double));
    H5Tinsert(mem, member, 0, H5T_NATIVE_DOUBLE);
    std::vector<double> out(rows);
    REQUIRE(H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) >= 0);
    H5Tclose(mem);
    H5Sclose(space);
    H5Dclose(ds);
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
    analysis::writeReport(r, out.string(), "9.9.9");
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
    for (std::size_t i = 0; i < r.violations.size(); ++i)
        CHECK(measured[i] == Approx(r.violations[i].measured));
    const TableInfo power = tableInfo(f, "/power/racks");
    CHECK(power.rows == 3);
    const auto itLoad = realColumn(f, "/power/racks", "it_load");
    CHECK(itLoad[0] == Approx(r.power->racks[0].itLoadW));
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
    analysis::writeReport(r, out.string(), "1");
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
    CHECK_THROWS_AS(analysis::writeReport(r, "/nonexistent-dir/x.h5", "1"), core::InputError);
    const fs::path dir = tempDir() / "ro";
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    if (::geteuid() != 0) { // root ignores permissions
        CHECK_THROWS_AS(analysis::writeReport(r, (dir / "x.h5").string(), "1"), core::InputError);
        CHECK(fs::is_empty(dir));
    }
    fs::permissions(dir, fs::perms::owner_all);
    // The target is a folder: the rename fails, the temporary file is removed.
    const fs::path blocked = tempDir() / "blocked.h5";
    fs::create_directories(blocked);
    CHECK_THROWS_AS(analysis::writeReport(r, blocked.string(), "1"), core::InputError);
    for (const auto& e : fs::directory_iterator(tempDir()))
        CHECK(e.path().string().find(".tmp-") == std::string::npos);
    // An existing report is replaced only by a complete one.
    const fs::path target = tempDir() / "keep.h5";
    analysis::writeReport(r, target.string(), "1");
    const auto size = fs::file_size(target);
    analysis::writeReport(r, target.string(), "1");
    CHECK(fs::file_size(target) == size);
    fs::remove_all(tempDir());
}
