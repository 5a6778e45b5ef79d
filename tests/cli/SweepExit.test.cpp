// rdt sweep's exit code is rdt check's over its variants (trust trial, 2026-12-07): a sweep exited 0
// when none of its variants ran ("0 pass every verdict, 0 fail a rule or target, 3 failed to run"),
// so a script could not tell a clean study from a broken one. And the outage case on racks that take
// AC directly is reported as not judged, in text and JSON alike.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <thread>
#include <nlohmann/json.hpp>

#include "analysis/Sweep.h"
#include "tests/support/RunRdt.h"
#include "tests/support/SpawnRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

std::string spec(const std::string& dir, const std::string& axes)
{
    const std::string p = dir + "/s.yaml";
    std::ofstream(p) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n" << axes;
    return p;
}

} // namespace

TEST_CASE("sweep exit codes: 0 clean, 1 a rule violated, 2 a variant that did not run", "[cli][sweep][exit]")
{
    test::TempDir t;
    // single-rack at 25 and 30 degC: warnings only (rdt check exits 0 on it).
    const test::Run clean = test::runRdt("sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 30 degC]}\n"));
    INFO(clean.out);
    CHECK(clean.code == 0);
    CHECK_THAT(clean.out, Contains("2 pass every verdict"));
    // 35.1 degC is over A2's 35 degC at the inlet: an error rule in that variant only.
    const test::Run hot = test::runRdt("sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 36 degC]}\n"));
    INFO(hot.out);
    CHECK(hot.code == 1);
    CHECK_THAT(hot.out, Contains("1 pass every verdict") && Contains("thermal.inlet.chassis"));
    CHECK(test::runRdt("check data/designs/single-rack.yaml --inlet 36degC").code == 1); // the same verdict
    // Every variant refused by the loader: exit 2 and a line that says so (text and --json alike).
    const std::string none = spec(t.path, "  - {axis: field, path: site.ashrae_class, values: [Z8, Z9]}\n");
    const test::Run bad = test::runRdt("sweep " + none);
    INFO(bad.out);
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("2 failed to run") && Contains("2 of 2 variants failed to run"));
    const test::Run badJson = test::runRdt("sweep " + none + " --json", false);
    CHECK(badJson.code == 2);
    const json j = json::parse(badJson.out);
    CHECK(j["failed_to_run"] == 2);
    for (const json& v : j["variants"]) {
        CHECK(v["ok"] == false);
        CHECK(v["not_converged"] == false);
        CHECK_THAT(v["error"].get<std::string>(), Contains("Z"));
    }
}

TEST_CASE("sweep frontier: variants that did not run are no verdict", "[cli][sweep][exit]")
{
    test::TempDir t;
    const test::Run r = test::runRdt(
        "sweep " + spec(t.path, "  - {axis: inlet, values: [25 degC, 30 degC]}\n"
                                "  - {axis: field, path: site.ashrae_class, values: [A2, Z9]}\n"));
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("frontier: site.ashrae_class A2: inlet up to 30 degC passes every verdict"));
    // It read "no inlet in the sweep passes every verdict", as if every value had been judged.
    CHECK_THAT(r.out, Contains("frontier: site.ashrae_class Z9: no variant ran, so no frontier"));
}

TEST_CASE("a variant that did not converge keeps that through the ranks' wire format", "[cli][sweep][exit]")
{
    analysis::VariantResult r;
    r.index = 7;
    r.ok = false;
    r.notConverged = true;
    r.error = "field solver did not converge";
    const analysis::VariantResult back = analysis::decodeVariant(analysis::encodeVariant(r, true));
    CHECK(back.index == 7);
    CHECK_FALSE(back.ok);
    CHECK(back.notConverged);
    CHECK(back.error == r.error);
    r.notConverged = false;
    CHECK_FALSE(analysis::decodeVariant(analysis::encodeVariant(r, true)).notConverged);
}

TEST_CASE("the utility outage is not judged for racks taking AC directly, in text and JSON", "[cli][failure]")
{
    const test::Run text = test::runRdt("check data/designs/meta-rsc-a100.yaml");
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("failure  with a utility outage (on battery): not judged for 1,000 racks whose "
                                  "load takes AC directly"));
    CHECK_FALSE(text.out.find("0 PFLOPS in all") != std::string::npos);
    const json j = json::parse(test::runRdt("check data/designs/meta-rsc-a100.yaml --json", false).out);
    bool seen = false;
    for (const json& f : j["throughput"]["failure_cases"])
        if (f["case"] == "utility outage (on battery)") {
            seen = true;
            CHECK(f["racks_not_judged"] == 1000);
            CHECK(f["racks_limited"] == 0);
        }
    CHECK(seen);
}

TEST_CASE("an interrupted sweep reports and writes the variants that ran, and exits 130", "[cli][sweep][exit]")
{
    // Ctrl-C during a sweep printed nothing and wrote nothing: an hour of variants lost (noticed in a
    // trust review, 2026-12-07). Now no further variant starts, the running one finishes, and the
    // table, the frontier and -o FILE.h5 hold what ran; the rest are listed `interrupted`.
    test::TempDir t;
    const std::string s = spec(t.path, "  - {axis: inlet, values: [20 degC, 21 degC, 22 degC, 23 degC, 24 degC, 25 degC, "
                                       "26 degC, 27 degC, 28 degC, 29 degC, 30 degC, 31 degC, 32 degC, 33 degC]}\n"
                                       "  - {axis: gpu_cap, values: [300 W, 400 W, 500 W, 600 W, 700 W]}\n"
                                       "  - {axis: fan_fail, values: [0, 1, 2, 3]}\n");
    const std::string h5 = t.path + "/cut.h5", log = t.path + "/log.txt";
    const pid_t pid = test::spawnRdt({"sweep", s, "--threads", "1", "-o", h5}, log);
    REQUIRE(pid > 0);
    // Once rdt catches SIGINT (its SigCgt mask in /proc: not killed by the signal whatever the machine's
    // load), and some variants in: 280 at 0.05-0.5 s each, well under way, far from done.
    const auto caught = [pid] {
        std::ifstream status("/proc/" + std::to_string(pid) + "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("SigCgt:", 0) == 0)
                return (std::stoull(line.substr(7), nullptr, 16) >> (SIGINT - 1) & 1) != 0;
        return false;
    };
    for (int i = 0; i < 600 && !caught(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(caught());
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::ifstream in(log);
    const std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(out);
    REQUIRE(WIFEXITED(status)); // not killed by the signal
    CHECK(WEXITSTATUS(status) == 130);
    CHECK_THAT(out, Contains("rdt: interrupted: finishing the variants running") && Contains("not run (interrupted)") &&
                        Contains("interrupted after") && Contains("variants did not start") &&
                        Contains("wrote " + h5));
    // The file lists all 280, those that ran with their results, the others `interrupted`.
    const hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const hid_t d = H5Dopen2(f, "/sweep/variants", H5P_DEFAULT);
    const hid_t sp = H5Dget_space(d);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(sp));
    CHECK(n == 280);
    struct Row {
        long long ok, interrupted;
        double seconds;
    };
    const hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(Row));
    H5Tinsert(mt, "ok", HOFFSET(Row, ok), H5T_NATIVE_LLONG);
    H5Tinsert(mt, "interrupted", HOFFSET(Row, interrupted), H5T_NATIVE_LLONG);
    H5Tinsert(mt, "seconds", HOFFSET(Row, seconds), H5T_NATIVE_DOUBLE);
    std::vector<Row> rows(n);
    CHECK(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()) >= 0);
    std::size_t ran = 0, cut = 0;
    for (const Row& r : rows) {
        CHECK(r.ok + r.interrupted == 1); // every variant either ran or is marked not started
        ran += static_cast<std::size_t>(r.ok);
        cut += static_cast<std::size_t>(r.interrupted);
        if (r.interrupted)
            CHECK(r.seconds == 0);
    }
    CHECK(ran >= 1);
    CHECK(cut >= 1);
    CHECK(out.find(std::to_string(cut) + " not run (interrupted)") != std::string::npos);
    H5Tclose(mt);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
}
