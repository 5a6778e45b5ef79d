// Independent jobs in every output (issue 38): the text line, JSON and the HDF5 report give the same
// jobs, phases and each level's running swing, read back from a real file.
#include <catch2/catch.hpp>

#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "analysis/Pipeline.h"
#include "models/PowerDynamics.h"
#include "report/DynamicsOutput.h"
#include "report/ReportWriter.h"
#include "tests/support/Hdf5Read.h"

using namespace rdt;

TEST_CASE("Two jobs a quarter iteration apart: text, JSON and HDF5 give the jobs, their phases and each level's swing",
          "[report][dynamics]")
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/fuzz/corpus/design/dynamics-jobs.yaml";
    core::Progress quiet;
    const analysis::RunResult r = analysis::run(o, quiet);
    REQUIRE(r.dynamics);
    const analysis::DynamicsResult& d = *r.dynamics;
    REQUIRE(d.notChecked.empty());
    REQUIRE(d.levels.size() == 4); // site, hall, two rows
    // Each row is one job and swings whole; a quarter iteration apart at half compute, both jobs
    // compute together a quarter of the time and wait together another: the site swings whole too,
    // but its fundamental is the two lines' phasor sum, |1 + e^(-i pi/2)| / 2 = 0.7071 of lockstep.
    for (const analysis::DynamicsLevel& l : d.levels)
        if (l.kind == "row")
            CHECK(l.runningSwingW == Approx(l.swingW()).epsilon(1e-9));
    CHECK(d.levels[0].runningSwingW == Approx(d.levels[0].swingW()).epsilon(1e-9));
    CHECK(d.fundamentalW ==
          Approx(std::sqrt(0.5) * models::squareWaveHarmonic(1, d.levels[0].swingW(), 0.5, 0.02, 2.0)).epsilon(2e-3));

    const std::string text = report::dynamicsSummaryText(d);
    CHECK_THAT(text, Catch::Matchers::Contains("32 GPUs in 2 independent jobs"));
    CHECK_THAT(text, Catch::Matchers::Contains("in lockstep"));

    const nlohmann::json j = report::dynamicsJson(d);
    CHECK(j["jobs"] == 2);
    REQUIRE(j["job_phases_s"].size() == 2);
    CHECK(j["job_phases_s"][1].get<double>() == Approx(0.5));
    for (std::size_t i = 0; i < d.levels.size(); ++i)
        CHECK(j["levels"][i]["running_swing_W"].get<double>() == Approx(d.levels[i].runningSwingW));

    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("rdt-jobs-" + std::to_string(::getpid()) + ".h5");
    report::writeReport(r, file.string(), "test");
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const std::vector<double> running = test::realColumn(f, "/dynamics/levels", "running_swing");
    REQUIRE(running.size() == d.levels.size());
    for (std::size_t i = 0; i < running.size(); ++i)
        CHECK(running[i] == Approx(d.levels[i].runningSwingW));
    const test::TableInfo t = test::tableInfo(f, "/dynamics/levels");
    CHECK(t.units.back() == "W");
    const hid_t ds = H5Dopen2(f, "/dynamics/job_phases", H5P_DEFAULT);
    REQUIRE(ds >= 0);
    double phases[2] = {-1, -1};
    REQUIRE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, phases) >= 0);
    CHECK(phases[0] == 0.0);
    CHECK(phases[1] == Approx(0.5));
    H5Dclose(ds);
    H5Fclose(f);
    std::filesystem::remove(file);
}

namespace {

/// The design at `path` with `from` replaced by `to`, written beside the temp files; its path.
std::string variant(const std::string& path, const std::string& from, const std::string& to, const std::string& name)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() / ("rdt-" + name + "-" + std::to_string(::getpid()) + ".yaml");
    std::ofstream(out) << text;
    return out.string();
}

/// The "site swings X unit" figure of the dynamics line, in W.
double textSwingW(const std::string& text)
{
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("site swings ([0-9.]+) (W|kW|MW)")));
    return std::stod(m[1]) * (m[2] == "MW" ? 1e6 : m[2] == "kW" ? 1e3 : 1.0);
}

} // namespace

TEST_CASE("A ramp-down limit that keeps the trace from its levels: the line's swing is the trace's, as JSON's",
          "[report][dynamics]")
{
    // dynamics-grid: 1.5 s iterations at 70 % compute, so a 0.45 s communication phase; GPUs between
    // 700 W and the 40 % floor (280 W). At 1,500 W/s the 420 W fall takes 0.28 s and the trace reaches
    // its low level; at 300 W/s it falls only 0.45 s x 300 W/s = 135 W, 135 / 420 = 32 % of the levels'
    // difference, and the line used to give the levels' difference as the site's swing.
    const std::string base = RDT_SOURCE_DIR "/fuzz/corpus/design/dynamics-grid.yaml";
    core::Progress quiet;
    for (const bool slow : {false, true}) {
        CAPTURE(slow);
        analysis::RunOptions o;
        o.designPath = slow ? variant(base, "ramp_down: 1500 W/s", "ramp_down: 300 W/s", "ramp-down") : base;
        const analysis::RunResult r = analysis::run(o, quiet);
        if (slow)
            std::filesystem::remove(o.designPath);
        REQUIRE(r.dynamics);
        const analysis::DynamicsResult& d = *r.dynamics;
        REQUIRE(d.notChecked.empty());
        const analysis::DynamicsLevel& site = d.levels.front();
        if (slow)
            CHECK(site.runningSwingW / site.swingW() == Approx(135.0 / 420.0).epsilon(0.05));
        else
            CHECK(site.runningSwingW == Approx(site.swingW()).epsilon(1e-3));
        const std::string text = report::dynamicsSummaryText(d);
        CHECK(textSwingW(text) == Approx(site.runningSwingW).epsilon(5e-3)); // 3 significant digits
        CHECK((text.find("short of its levels") != std::string::npos) == slow);
        const nlohmann::json j = report::dynamicsJson(d);
        CHECK(j["levels"][0]["running_swing_W"].get<double>() == Approx(site.runningSwingW));
        CHECK(j["connection_swing_W"].get<double>() == Approx(site.runningSwingW)); // no site storage
    }
}
