#pragma once
/// \file FormatsAgree.h
/// The limit audit's check that JSON, text and HDF5 list the same violations, rule by rule: the
/// text output's headings and the HDF5 report's /checks/violations read back and counted.

#include <catch2/catch.hpp>

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/Pipeline.h"
#include "cli/TextOutput.h"
#include "report/CheckFormats.h"
#include "report/ReportWriter.h"

namespace rdt::test {

/// Violations per rule in the text output's headings ("error  rule — title (N subjects)").
inline std::map<std::string, std::size_t> textCounts(const analysis::RunResult& r)
{
    const std::string text = cli::violationsText(r.violations, analysis::makeRegistry(), 1);
    std::map<std::string, std::size_t> out;
    const std::regex heading(R"(^(?:error|warning|info)\s+(\S+) — .*\((\d[\d,]*) subjects?\)$)");
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, heading)) {
            std::string n = m[2];
            n.erase(std::remove(n.begin(), n.end(), ','), n.end());
            out[m[1]] += std::stoul(n);
        }
    }
    return out;
}

/// The rule column of /checks/violations in the HDF5 report.
inline std::map<std::string, std::size_t> hdf5Counts(const analysis::RunResult& r)
{
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("rdt-audit-" + std::to_string(::getpid()) + ".h5");
    report::writeReport(r, file.string(), "test");
    std::map<std::string, std::size_t> out;
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const hid_t ds = H5Dopen2(f, "/checks/violations", H5P_DEFAULT);
    REQUIRE(ds >= 0);
    const hid_t space = H5Dget_space(ds);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(space, &rows, nullptr);
    const hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    H5Tset_cset(str, H5T_CSET_UTF8);
    const hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(char*));
    H5Tinsert(mem, "rule", 0, str);
    std::vector<char*> rules(rows);
    REQUIRE(H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rules.data()) >= 0);
    for (char* s : rules)
        ++out[s ? s : ""];
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, rules.data());
    H5Tclose(mem);
    H5Tclose(str);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
    std::filesystem::remove(file);
    return out;
}

/// JSON, text and HDF5 list the same violations, rule by rule.
inline void formatsAgree(const analysis::RunResult& r)
{
    const nlohmann::json j = report::checkJson(r);
    std::map<std::string, std::size_t> fromJson;
    for (const nlohmann::json& v : j["violations"])
        ++fromJson[v["rule"].get<std::string>()];
    CHECK(textCounts(r) == fromJson);
    CHECK(hdf5Counts(r) == fromJson);
}

} // namespace rdt::test
