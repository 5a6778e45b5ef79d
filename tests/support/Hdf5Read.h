#pragma once
// Reading HDF5 report tables back in tests: a compound dataset's rows, member names and units,
// and one double column. Shared by the report tests.
#include <catch2/catch.hpp>

#include <hdf5.h>

#include <string>
#include <vector>

namespace rdt::test {

/// Rows of a 1-D dataset and the names of its compound members.
struct TableInfo {
    hsize_t rows = 0;
    std::vector<std::string> members;
    std::vector<std::string> units;
};

inline TableInfo tableInfo(hid_t file, const char* path)
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
inline std::vector<double> realColumn(hid_t file, const char* path, const char* member)
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

} // namespace rdt::test
