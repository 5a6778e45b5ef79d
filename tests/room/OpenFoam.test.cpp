// The OpenFOAM export of the row-pair example runs with Debian 12's OpenFOAM (v1912, installed by
// scripts/test) and couples its racks by itself: each zone's exhaust is its own intake (mapped by
// OpenFOAM) plus its heat (an fvOption), so OpenFOAM's answer does not contain rdt's (issue 36).
// Measured (docs/thermal.md, 2026-12-04): checkMesh "Mesh OK" on rdt's grid; the solver converges
// on its residual targets; the heat OpenFOAM carries out of the returns is the racks' heat; the
// middle racks agree within 0.1 K; the row ends do not yet: OpenFOAM 29.8 degC, rdt's k-epsilon
// 28.3 degC at racks 1 and 32 (1.4 K optimistic) — the "known gap" case below fails until the
// model closes it. The same case on 2 MPI ranks gives the same intakes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "support/RuleHarness.h"
#include "report/OpenFoamOutput.h"
#include "room/OpenFoamExport.h"
#include "room/OpenFoamResult.h"
#include "room/RoomReference.h"
#include "support/Hdf5Read.h"
#include "room/RoomThermal.h"

using namespace rdt;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A volScalarField's internal values (nonuniform list) from an OpenFOAM field file.
std::vector<double> internalField(const fs::path& file)
{
    const std::string text = slurp(file);
    std::size_t at = text.find("internalField");
    REQUIRE(at != std::string::npos);
    at = text.find("List<scalar>", at);
    REQUIRE(at != std::string::npos);
    std::istringstream in(text.substr(at + 12));
    std::size_t count = 0;
    char paren = 0;
    in >> count >> paren;
    std::vector<double> v(count);
    for (double& x : v)
        in >> x;
    REQUIRE(in.good());
    return v;
}

/// Mean and 90th percentile.
std::array<double, 2> spread(std::vector<double> v)
{
    double mean = 0;
    for (double x : v)
        mean += x / static_cast<double>(v.size());
    std::sort(v.begin(), v.end());
    return {mean, v[v.size() * 9 / 10]};
}

/// Rack intakes (°C) from Allrun's intake-comparison.txt: rack → {OpenFOAM, rdt}.
std::map<int, std::array<double, 2>> intakeComparison(const fs::path& dir)
{
    std::map<int, std::array<double, 2>> intake;
    std::istringstream lines(slurp(dir / "intake-comparison.txt"));
    std::string name;
    double of = 0, rdt = 0, diff = 0;
    while (lines >> name >> of >> rdt >> diff)
        intake[std::stoi(name.substr(5))] = {of, rdt};
    return intake;
}

/// The last value of a surfaceFieldValue series.
double lastValue(const fs::path& dat)
{
    std::istringstream series(slurp(dat));
    std::string line;
    double last = NAN;
    while (std::getline(series, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream row(line);
        double iteration = 0, value = 0;
        if (row >> iteration >> value)
            last = value;
    }
    return last;
}

/// The row pair (32 racks, rdt's k-epsilon, the exported case's closure), exported and run once
/// for the test cases below.
struct RowPairRun {
    fs::path dir;
    std::size_t cells = 0, air = 0;
    std::map<int, std::array<double, 2>> intake;
    std::vector<double> eddyViscosity; ///< rdt's, per air cell in export order
    RowPairRun() = default;
    RowPairRun(RowPairRun&&) = default;
    RowPairRun& operator=(RowPairRun&&) = default;
    ~RowPairRun()
    {
        std::error_code ec;
        if (!dir.empty())
            fs::remove_all(dir, ec); // the case, when the test program ends
    }
};

const RowPairRun& rowPairRun()
{
    static const RowPairRun run = [] {
        RowPairRun r;
        core::Design d = core::loadDesign(test::kDataDir + "/designs/row-pair.yaml", test::kDataDir + "/catalog");
        REQUIRE(d.thermalModel == core::ThermalModel::Field);
        d.room.turbulence = core::RoomTurbulence::KEpsilon; // the exported case's closure
        const thermal::ThermalResult t = room::computeThermalField(d);
        const room::RoomField& room = room::fieldOf(t)->rooms.front();
        r.dir = fs::temp_directory_path() / ("rdt-openfoam-test-" + std::to_string(::getpid()));
        fs::remove_all(r.dir);
        room::OpenFoamOptions o;
        o.iterations = 2000;
        o.title = "rdt test";
        r.cells = room::exportOpenFoam(room.geometry, *room.solver, r.dir.string(), o);
        const room::FieldGrid& g = room.solver->grid();
        for (int k = 0; k < g.cells(2); ++k)
            for (int j = 0; j < g.cells(1); ++j)
                for (int i = 0; i < g.cells(0); ++i)
                    if (!room.solver->solid(i, j, k)) {
                        ++r.air;
                        r.eddyViscosity.push_back(room.solver->eddyViscosity(i, j, k));
                    }
        // Run as a user would, from inside the case (`sh Allrun`: the script finds its own folder).
        REQUIRE(std::system(("cd '" + r.dir.string() + "' && sh Allrun > allrun.out 2>&1").c_str()) == 0);
        r.intake = intakeComparison(r.dir);
        return r;
    }();
    return run;
}

/// The error reading `dir` back gives, or "no error".
std::string readBackError(const fs::path& dir)
{
    try {
        room::readOpenFoamResult(dir.string());
    } catch (const core::InputError& e) {
        return std::string(e.what());
    }
    return std::string("no error");
}

bool haveOpenFoam()
{
    return std::system("command -v buoyantBoussinesqSimpleFoam >/dev/null 2>&1 && command -v checkMesh >/dev/null") ==
           0;
}

} // namespace

TEST_CASE("OpenFOAM: the row pair's exported case couples its racks itself, conserves their heat and agrees mid-row "
          "(validation)",
          "[thermal][room][openfoam]")
{
    INFO("needs Debian's openfoam package (scripts/test installs it)");
    REQUIRE(haveOpenFoam());
    const RowPairRun& run = rowPairRun();
    const fs::path& dir = run.dir;
    // The mesh is rdt's grid without the racks' cells.
    CHECK(run.cells == run.air);
    CHECK(slurp(dir / "log.checkMesh").find("Mesh OK") != std::string::npos);

    // Honest reference: no rack exhaust is a fixed temperature (rdt's answer); each maps its own
    // intake, and each zone's heat is an fvOption.
    const std::string tField = slurp(dir / "0" / "T");
    std::size_t exhausts = 0, mapped = 0;
    for (std::size_t at = tField.find("_exhaust\n"); at != std::string::npos; at = tField.find("_exhaust\n", at + 1)) {
        ++exhausts;
        const std::size_t close = tField.find('}', at);
        mapped += tField.substr(at, close - at).find("outletMappedUniformInlet") != std::string::npos ? 1 : 0;
    }
    CHECK(exhausts >= 32);
    CHECK(mapped == exhausts);
    const std::string options = slurp(dir / "system" / "fvOptions");
    // Zones of equal heat per volume (to three figures) share a source: its K/s over its cells' m³.
    std::size_t sources = 0, points = 0;
    double suSum = 0; // K m³/s
    for (std::size_t at = options.find("T           ("); at != std::string::npos;
         at = options.find("T           (", at + 1)) {
        ++sources;
        const std::size_t in = options.find(" W in ", at);
        REQUIRE(in != std::string::npos);
        suSum += std::stod(options.substr(at + 13)) * std::stod(options.substr(in + 6));
    }
    for (std::size_t at = options.find("            ("); at != std::string::npos; at = options.find("            (", at + 1))
        ++points;
    CHECK(sources >= 1);
    CHECK(sources < exhausts);
    CHECK(points >= exhausts); // every zone's cells, at least one each

    // Converged on the case's residual targets, or every rack's intake steady: within 0.05 K
    // over the last 500 iterations (sampled every 50).
    const std::string log = slurp(dir / "log.buoyantBoussinesqSimpleFoam");
    const bool converged = log.find("SIMPLE solution converged") != std::string::npos;
    for (int n = 1; n <= 32 && !converged; ++n) {
        // The rack's bottom zone (its own intake patch; every zone is sampled alike).
        const std::string stem = "rack_" + std::to_string(n);
        fs::path zone = dir / "postProcessing" / (stem + "_intake");
        if (!fs::exists(zone))
            zone = dir / "postProcessing" / (stem + "_z1_intake");
        std::istringstream series(slurp(zone / "0" / "surfaceFieldValue.dat"));
        std::vector<double> values;
        std::string line;
        while (std::getline(series, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            std::istringstream row(line);
            double iteration = 0, kelvin = 0;
            if (row >> iteration >> kelvin)
                values.push_back(kelvin);
        }
        REQUIRE(values.size() > 10);
        INFO("rack " << n << ": intake " << values.back() - 273.15 << " degC, 500 iterations before "
                     << values[values.size() - 11] - 273.15);
        CHECK(std::abs(values.back() - values[values.size() - 11]) < 0.05);
    }

    // OpenFOAM's own heat balance: the net enthalpy flux out of the room's openings, Σ φ T over
    // supplies (φ < 0) and returns (φ > 0), is the racks' heat Σ Q / (ρ c_p) within 1.5 %.
    // Measured: 1.03 %, constant from iteration 650 to 3,000, every rack's intake and exhaust
    // carrying the same enthalpy to 1e-5 — the rest leaves by turbulent diffusion through the
    // fixed-temperature faces (each exhaust at its intake's mean, the heated cell behind it
    // warmer; the supply tiles), which OpenFOAM's stock mapped inlet conducts and rdt's black-box
    // faces do not. A lost zone's heat (≈ 1 % each on this room) or a source in the wrong units
    // fails it.
    double carried = 0; // K m³/s
    int openings = 0;
    for (const auto& e : fs::directory_iterator(dir / "postProcessing")) {
        const std::string name = e.path().filename().string();
        if (name.size() < 5 || name.substr(name.size() - 5) != "_flow")
            continue;
        const std::string stem = name.substr(0, name.size() - 5);
        const double flow = lastValue(e.path() / "0" / "surfaceFieldValue.dat");
        const double t = lastValue(dir / "postProcessing" / (stem + "_temperature") / "0" / "surfaceFieldValue.dat");
        carried += flow * t;
        ++openings;
    }
    REQUIRE(openings > 1);
    INFO("the openings carry out " << carried << " K m3/s; the racks' sources add " << suSum);
    CHECK(suSum > 0);
    CHECK(std::abs(carried - suSum) < 0.015 * suSum);

    // Rack intakes: 32 racks; the middle ones (3–14 of each row of 16) within 0.1 K.
    const auto& intake = run.intake;
    REQUIRE(intake.size() == 32);
    for (int n = 1; n <= 32; ++n) {
        const bool middle = (n - 1) % 16 >= 2 && (n - 1) % 16 <= 13;
        if (!middle)
            continue;
        INFO("rack " << n << ": OpenFOAM " << intake.at(n)[0] << " degC, rdt " << intake.at(n)[1] << " degC");
        CHECK(std::abs(intake.at(n)[0] - intake.at(n)[1]) < 0.1);
    }
    // Reported, not asserted here: the row ends as each code has them (docs/thermal.md quotes
    // them; the known-gap case below asserts them).
    WARN("end racks 1 / 16 / 17 / 32, OpenFOAM "
         << intake.at(1)[0] << " / " << intake.at(16)[0] << " / " << intake.at(17)[0] << " / " << intake.at(32)[0]
         << " degC, rdt " << intake.at(1)[1] << " / " << intake.at(16)[1] << " / " << intake.at(17)[1] << " / "
         << intake.at(32)[1] << " degC; second racks OpenFOAM " << intake.at(2)[0] << ", rdt " << intake.at(2)[1]);
    // Both codes find the row ends the warmest.
    for (int code = 0; code < 2; ++code) {
        CHECK(intake.at(1)[static_cast<std::size_t>(code)] > intake.at(8)[static_cast<std::size_t>(code)] + 2.0);
        CHECK(intake.at(16)[static_cast<std::size_t>(code)] > intake.at(8)[static_cast<std::size_t>(code)] + 2.0);
    }
    // The eddy viscosities, rdt's k-epsilon against OpenFOAM's on the same cells: reported, not
    // asserted (docs/thermal.md). The closure itself is validated in FieldTurbulence.test.cpp
    // (exact decay, Dean's channel).
    fs::path last;
    double latest = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string entry = e.path().filename().string();
        char* end = nullptr;
        const double time = std::strtod(entry.c_str(), &end);
        if (e.is_directory() && end && *end == 0 && time > latest && fs::exists(e.path() / "nut")) {
            latest = time;
            last = e.path();
        }
    }
    REQUIRE(!last.empty());
    const std::vector<double> theirs = internalField(last / "nut");
    REQUIRE(theirs.size() == run.eddyViscosity.size());
    const auto a = spread(run.eddyViscosity), b = spread(theirs);
    WARN("eddy viscosity, rdt vs OpenFOAM: mean " << a[0] << " vs " << b[0] << " m2/s, 90th percentile " << a[1]
                                                  << " vs " << b[1]);
}

// Issue 36's criterion, at every rack of the row pair: within 1 K of the honest reference, and
// never more than 0.5 K cooler than it. Not met yet at the row ends (rdt 1.4 K cooler): Catch's
// [!shouldfail] keeps the suite green while the gap is open and fails it the day the model
// closes the gap, so that the tag comes off and the criterion guards from then on.
TEST_CASE("OpenFOAM: every rack of the row pair within 1 K and never 0.5 K cooler, a known gap "
          "(validation)",
          "[thermal][room][openfoam][!shouldfail]")
{
    REQUIRE(haveOpenFoam());
    const auto& intake = rowPairRun().intake;
    REQUIRE(intake.size() == 32);
    for (const auto& [n, v] : intake) {
        INFO("rack " << n << ": OpenFOAM " << v[0] << " degC, rdt " << v[1] << " degC");
        CHECK(std::abs(v[0] - v[1]) <= 1.0);
        CHECK(v[1] - v[0] >= -0.5);
    }
}

TEST_CASE("OpenFOAM: the case runs on 2 MPI ranks (decomposePar, mpirun, reconstructPar) with the serial answer "
          "(OpenFOAM run)",
          "[thermal][room][openfoam][mpi]")
{
    REQUIRE(haveOpenFoam());
    REQUIRE(std::system("command -v mpirun >/dev/null 2>&1 && command -v decomposePar >/dev/null") == 0);
    const core::Design d =
        core::loadDesign(RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml", test::kDataDir + "/catalog");
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomField& room = room::fieldOf(t)->rooms.front();
    std::map<int, std::array<double, 2>> answer[2];
    for (int ranks : {1, 2}) {
        const fs::path dir = fs::temp_directory_path() /
                             ("rdt-openfoam-mpi-" + std::to_string(::getpid()) + "-" + std::to_string(ranks));
        fs::remove_all(dir);
        room::OpenFoamOptions o;
        o.iterations = 2000;
        o.ranks = ranks;
        o.boxNames = room::boxNames(room.geometry, d);
        room::exportOpenFoam(room.geometry, *room.solver, dir.string(), o);
        INFO(ranks << " rank(s): " << dir.string());
        REQUIRE(std::system(("sh '" + (dir / "Allrun").string() + "' > '" + (dir / "allrun.out").string() + "' 2>&1")
                                .c_str()) == 0);
        if (ranks == 2) {
            CHECK(slurp(dir / "system" / "decomposeParDict").find("numberOfSubdomains 2;") != std::string::npos);
            CHECK(fs::exists(dir / "processor0"));
            CHECK(fs::exists(dir / "processor1"));
            const std::string log = slurp(dir / "log.buoyantBoussinesqSimpleFoam");
            CHECK(log.find("Finalising parallel run") != std::string::npos);
            CHECK(slurp(dir / "log.reconstructPar").find("End") != std::string::npos);
        }
        answer[ranks - 1] = intakeComparison(dir);
        if (ranks == 2) {
            // Read back (rdt field --from-openfoam): the design's rack ids, OpenFOAM's intakes as
            // Allrun printed them, and the run's facts; then the comparison as HDF5, read back.
            const room::OpenFoamResult back = room::readOpenFoamResult(dir.string());
            CHECK(back.ranks == 2);
            CHECK(back.iterations > 100);
            REQUIRE(back.racks.size() == 6);
            report::OpenFoamComparison c;
            c.result = back;
            for (std::size_t i = 0; i < back.racks.size(); ++i) {
                const room::OpenFoamIntake& r = back.racks[i];
                INFO(r.patch << " = " << r.id);
                CHECK(r.id == d.racks[static_cast<std::size_t>(room.geometry.racks[i])].id);
                CHECK(std::abs(r.intakeC - answer[1].at(static_cast<int>(i) + 1)[0]) <= 0.006); // printed to 0.01
                c.rdtIntakeC.push_back(t.racks[static_cast<std::size_t>(room.geometry.racks[i])].fieldIntakeK - 273.15);
                // The same solve exported it (the rack's value is the one of its last coupling pass).
                CHECK(std::abs(c.rdtIntakeC.back() - r.rdtIntakeC) < 1e-3);
            }
            const fs::path h5 = dir / "comparison.h5";
            report::writeOpenFoamH5(h5.string(), c);
            const hid_t file = H5Fopen(h5.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
            REQUIRE(file >= 0);
            const std::vector<double> ours = test::realColumn(file, "/openfoam/intakes", "rdt_intake");
            const std::vector<double> theirs = test::realColumn(file, "/openfoam/intakes", "openfoam_intake");
            const std::vector<double> diff = test::realColumn(file, "/openfoam/intakes", "difference");
            H5Fclose(file);
            REQUIRE(ours.size() == 6);
            for (std::size_t i = 0; i < 6; ++i) {
                CHECK(ours[i] == c.rdtIntakeC[i]);
                CHECK(theirs[i] == back.racks[i].intakeC);
                CHECK(diff[i] == Approx(ours[i] - theirs[i]).margin(1e-12));
            }
            const report::ComparisonWorst w = report::worstOf(c);
            CHECK(std::abs(w.largestK) == Approx(std::abs(diff[w.largestAt])));
            CHECK(report::openFoamText(c).find(back.racks[w.largestAt].id) != std::string::npos);
            // The racks' intakes from this run (thermal: {intakes_from:}): every rack's mean is
            // OpenFOAM's; every chassis' inlet lies within its rack's zones; the rows follow.
            const thermal::ThermalResult ref = room::computeThermalFromOpenFoam(d, back);
            CHECK_THAT(ref.intakesFrom, Catch::Matchers::Contains("OpenFOAM case " + dir.string()) &&
                                            Catch::Matchers::Contains("on 2 ranks"));
            for (std::size_t i = 0; i < back.racks.size(); ++i) {
                const thermal::RackThermal& rk = ref.racks[static_cast<std::size_t>(room.geometry.racks[i])];
                INFO(back.racks[i].id);
                CHECK(rk.fieldIntakeK - 273.15 == Approx(back.racks[i].intakeC).margin(1e-9));
                CHECK(std::isnan(rk.fieldIntakeMaxK)); // the case samples means only
                const auto [lo, hi] = std::minmax_element(back.racks[i].zoneIntakeC.begin(), back.racks[i].zoneIntakeC.end());
                REQUIRE(back.racks[i].zoneIntakeC.size() == 4);
                // The mapping's direction: the upper chassis sits in front of the upper zones.
                const auto& z = back.racks[i].zoneIntakeC;
                REQUIRE(rk.chassis.size() == 2);
                const thermal::ChassisThermal& low = rk.chassis[0].slot < rk.chassis[1].slot ? rk.chassis[0] : rk.chassis[1];
                const thermal::ChassisThermal& high = &low == &rk.chassis[0] ? rk.chassis[1] : rk.chassis[0];
                if (z[3] > z[0] + 0.05)
                    CHECK(high.fieldInletK > low.fieldInletK);
                if (z[3] < z[0] - 0.05)
                    CHECK(high.fieldInletK < low.fieldInletK);
                for (const thermal::ChassisThermal& ch : rk.chassis) {
                    CHECK(ch.fieldInletK - 273.15 >= *lo - 1e-9);
                    CHECK(ch.fieldInletK - 273.15 <= *hi + 1e-9);
                    CHECK(ch.inletK >= ch.fieldInletK - 1e-9); // its rack's recirculation only adds
                }
            }
            for (const thermal::RowThermal& row : ref.rows) {
                INFO(row.id);
                CHECK(row.coldAisleK > 273.15 + 20);
            }
        }
        fs::remove_all(dir);
    }
    REQUIRE(answer[0].size() == 6);
    REQUIRE(answer[1].size() == 6);
    for (const auto& [n, v] : answer[0]) {
        INFO("rack " << n << ": 1 rank " << v[0] << " degC, 2 ranks " << answer[1].at(n)[0] << " degC");
        CHECK(std::abs(v[0] - answer[1].at(n)[0]) <= 0.02); // printed to 0.01 K; the partition changes the sums' order
    }
}

TEST_CASE("OpenFOAM read-back: a folder rdt did not export, a case not run and a malformed line are located errors",
          "[thermal][room][openfoam]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-openfoam-back-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto message = [&] { return readBackError(dir); };
    CHECK_THAT(message(), Catch::Matchers::Contains("rdt-racks.txt") && Catch::Matchers::Contains("not a case rdt exported"));
    std::ofstream(dir / "rdt-racks.txt") << "# rack   its id in the design\nrack_1 h/p/a/r1\n";
    std::ofstream(dir / "rdt-compare.txt") << "# header\nrack_1 300.0 rack_1_intake 0.5\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("surfaceFieldValue.dat") &&
                              Catch::Matchers::Contains("run the case's Allrun first"));
    fs::create_directories(dir / "postProcessing" / "rack_1_intake" / "0");
    std::ofstream(dir / "postProcessing" / "rack_1_intake" / "0" / "surfaceFieldValue.dat")
        << "# Time areaAverage(T)\n50 301.0\n100 oops\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("surfaceFieldValue.dat:3") &&
                              Catch::Matchers::Contains("expected an iteration and a temperature"));
    std::ofstream(dir / "postProcessing" / "rack_1_intake" / "0" / "surfaceFieldValue.dat")
        << "# Time areaAverage(T)\n50 301.0\n100 302.15\n";
    std::ofstream(dir / "rdt-compare.txt") << "# header\nrack_1 300.0 rack_1_intake -1\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("rdt-compare.txt:2") && Catch::Matchers::Contains("flow"));
    std::ofstream(dir / "rdt-compare.txt") << "# header\nrack_1 300.0 ../../../etc/passwd 0.5\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("rdt-compare.txt:2") && Catch::Matchers::Contains("not a patch name"));
    std::ofstream(dir / "rdt-compare.txt") << "# header\nrack_1 300.0 rack_1_intake 0.5\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("log.buoyantBoussinesqSimpleFoam"));
    std::ofstream(dir / "log.buoyantBoussinesqSimpleFoam") << "nProcs : 1\nTime = 1\n\nTime = 2\n";
    const room::OpenFoamResult r = room::readOpenFoamResult(dir.string());
    REQUIRE(r.racks.size() == 1);
    CHECK(r.racks[0].id == "h/p/a/r1");
    CHECK(r.racks[0].intakeC == Approx(29.0));
    CHECK(r.racks[0].driftK == Approx(1.15));
    CHECK(r.iterations == 2);
    CHECK_FALSE(r.converged);
    fs::remove_all(dir);
}

TEST_CASE("OpenFOAM transient reference: time means over the window, read back as Allrun prints them",
          "[thermal][room][openfoam]")
{
    // A synthetic run: the intake rises linearly from 300 K at t = 0 to 306 K at t = 60 s, sampled
    // unevenly; from 30 s its time mean is 304.5 K exactly (trapezoids are exact on a line), the
    // second half's mean (45-60 s: 305.25 K) less the first half's (30-45 s: 303.75 K) is 1.5 K.
    const fs::path dir = fs::temp_directory_path() / ("rdt-openfoam-transient-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "postProcessing" / "rack_1_intake" / "0");
    std::ofstream(dir / "rdt-racks.txt") << "# rack   its id in the design\nrack_1 h/p/a/r1\n";
    std::ofstream(dir / "rdt-compare.txt") << "# header\nrack_1 300.0 rack_1_intake 0.5\n";
    {
        std::ofstream dat(dir / "postProcessing" / "rack_1_intake" / "0" / "surfaceFieldValue.dat");
        dat << "# Time areaAverage(T)\n";
        for (double t : {0.5, 7.0, 19.25, 30.0, 31.5, 37.0, 45.0, 52.75, 58.0, 60.0})
            dat << t << " " << 300.0 + t / 10.0 << "\n";
    }
    std::ofstream(dir / "log.buoyantBoussinesqPimpleFoam") << "nProcs : 1\nTime = 0.5\n\nTime = 60\n\nEnd\n";
    const auto message = [&] { return readBackError(dir); };
    std::ofstream(dir / "rdt-reference.txt") << "mode transient\nend 60\naverage_from 30\n";
    const room::OpenFoamResult r = room::readOpenFoamResult(dir.string());
    CHECK(r.transient);
    CHECK(r.converged); // ran to its end
    CHECK(r.iterations == 2);
    CHECK(r.averageFromS == 30.0);
    REQUIRE(r.racks.size() == 1);
    CHECK(r.racks[0].intakeC == Approx(304.5 - 273.15).epsilon(1e-12));
    CHECK(r.racks[0].driftK == Approx(1.5).epsilon(1e-12));
    // The same file read as a steady run: its last sample.
    std::ofstream(dir / "rdt-reference.txt") << "mode steady\n";
    std::ofstream(dir / "log.buoyantBoussinesqSimpleFoam") << "Time = 1\n";
    CHECK(room::readOpenFoamResult(dir.string()).racks[0].intakeC == Approx(306.0 - 273.15));
    // Bad references: located errors.
    std::ofstream(dir / "rdt-reference.txt") << "mode wobbly\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("rdt-reference.txt:1") && Catch::Matchers::Contains("steady or transient"));
    std::ofstream(dir / "rdt-reference.txt") << "mode transient\nend 60\naverage_from 90\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("average_from before its end"));
    std::ofstream(dir / "rdt-reference.txt") << "mode transient\nend 600\naverage_from 100\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("surfaceFieldValue.dat") &&
                              Catch::Matchers::Contains("ended before its averaging window"));
    std::ofstream(dir / "rdt-reference.txt") << "mode transient\nend 60 s\naverage_from -3\n";
    CHECK_THAT(message(), Catch::Matchers::Contains("rdt-reference.txt:3") && Catch::Matchers::Contains("time in seconds"));
    fs::remove_all(dir);
}

TEST_CASE("OpenFOAM transient reference: the row pair runs with buoyantBoussinesqPimpleFoam and its Allrun averages "
          "(OpenFOAM run)",
          "[thermal][room][openfoam]")
{
    REQUIRE(haveOpenFoam());
    const core::Design d =
        core::loadDesign(RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml", test::kDataDir + "/catalog");
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomField& room = room::fieldOf(t)->rooms.front();
    const fs::path dir = fs::temp_directory_path() / ("rdt-openfoam-pimple-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    room::OpenFoamOptions o;
    o.transientS = 60;
    o.averageFromS = 20;
    o.boxNames = room::boxNames(room.geometry, d);
    room::exportOpenFoam(room.geometry, *room.solver, dir.string(), o);
    CHECK(slurp(dir / "system" / "controlDict").find("application     buoyantBoussinesqPimpleFoam;") != std::string::npos);
    CHECK(slurp(dir / "system" / "fvSchemes").find("default         Euler;") != std::string::npos);
    CHECK(slurp(dir / "system" / "fvSolution").find("PIMPLE") != std::string::npos);
    REQUIRE(std::system(("sh '" + (dir / "Allrun").string() + "' > '" + (dir / "allrun.out").string() + "' 2>&1")
                            .c_str()) == 0);
    const std::map<int, std::array<double, 2>> printed = intakeComparison(dir);
    const room::OpenFoamResult back = room::readOpenFoamResult(dir.string());
    CHECK(back.transient);
    CHECK(back.converged);
    CHECK(back.endS == 60.0);
    REQUIRE(back.racks.size() == 6);
    REQUIRE(printed.size() == 6);
    for (std::size_t i = 0; i < back.racks.size(); ++i) {
        INFO(back.racks[i].id);
        // Allrun's awk and rdt's reader take the same time mean (printed to 0.01 K).
        CHECK(std::abs(back.racks[i].intakeC - printed.at(static_cast<int>(i) + 1)[0]) <= 0.006);
        CHECK(back.racks[i].intakeC > 15.0);
        CHECK(back.racks[i].intakeC < 45.0);
    }
    fs::remove_all(dir);
}
