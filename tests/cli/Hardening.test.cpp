// Hostile inputs found by a mutation campaign (issue 13): each one must give a located error with
// exit 2 in well under a second — never a crash, a hang, "internal error" or exhausted memory.
#include <catch2/catch.hpp>

#include "support/RunRdt.h"

#include <hdf5.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

using rdt::test::Run;

Run run(const std::string& args, const std::string& env = "")
{
    return rdt::test::runRdt(args, true, env);
}

struct TempDir {
    fs::path path;
    TempDir() : path(fs::temp_directory_path() / ("rdt-hardening-" + std::to_string(::getpid())))
    {
        fs::create_directories(path);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(path / name, std::ios::binary) << text;
        return (path / name).string();
    }
};

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// A located input error: exit 2, "rdt: error: FILE…", quickly, and a short message.
void locatedError(const Run& r, const std::string& file, const std::string& what)
{
    INFO(r.out.substr(0, 400));
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rdt: error: ") && Contains(file) && Contains(what));
    CHECK(r.out.find("internal error") == std::string::npos);
    CHECK(r.out.size() < 2000);
    // No timing here (speed lives in benchmarks: a loaded sanitizer run took 6.5 s for a refusal);
    // the messages themselves show the input was refused before it was parsed.
}

} // namespace

TEST_CASE("Touchstone: port counts from the name are bounded, negative frequencies refused", "[cli][hardening]")
{
    TempDir d;
    const std::string twoPort = "# GHz S MA R 50\n1 0.1 0 0.9 0 0.9 0 0.1 0\n";
    for (const char* ext : {".s2147483647p", ".s65536p", ".s-1p", ".s1000p"}) {
        CAPTURE(ext);
        const std::string f = d.write(std::string("x") + ext, twoPort);
        locatedError(run("touchstone " + f + " --info"), f + ":1", "ports");
    }
    const std::string neg = d.write("neg.s1p", "# GHz S MA R 50\n-1 0.5 0\n");
    locatedError(run("touchstone " + neg + " --info"), neg + ":2", "negative");
    // An ideal through has no Z parameters (I - S is singular): every column was NaN, exit 0.
    const std::string thru = d.write("thru.s2p", "# GHz S RI R 50\n1 0 0 1 0 1 0 0 0\n");
    const Run z = run("touchstone " + thru + " --to z");
    locatedError(z, thru, "Z parameters do not exist at 1 GHz");
    CHECK(z.out.find("nan") == std::string::npos);
    CHECK(run("touchstone " + thru + " --to abcd").code == 0); // ABCD of a through exists
}

TEST_CASE("rdt com: a non-4-port file and absurd data are located errors, not crashes", "[cli][hardening]")
{
    TempDir d;
    const std::string two = d.write("t.s2p", "# GHz S MA R 50\n1 0.1 0 0.9 0 0.9 0 0.1 0\n2 0.1 0 0.8 0 0.8 0 0.1 0\n");
    locatedError(run("com " + two), two, "COM needs a 4-port");
    // One phase of -1e308 degrees in the real KR4 through channel (was a segfault in the release build).
    std::string kr4 = readFile(RDT_SOURCE_DIR "/data/channels/kr4-example2/example2_THRU.s4p");
    const std::size_t row = kr4.find("\n0.0 ");
    REQUIRE(row != std::string::npos);
    const std::size_t second = kr4.find(' ', kr4.find(' ', row + 1) + 1); // after freq and |S11|
    const std::size_t third = kr4.find(' ', second + 1);
    kr4.replace(second + 1, third - second - 1, "-1e308");
    const std::string bad = d.write("bad.s4p", kr4);
    locatedError(run("com " + bad), bad, "not finite");
}

TEST_CASE("catalog and designs: hostile names and sources", "[cli][hardening]")
{
    TempDir d;
    // A source string of 100,000 digits in brackets (std::regex overflowed the stack on it).
    std::string part = readFile(RDT_SOURCE_DIR "/data/catalog/nvidia-h100-sxm5.yaml");
    const std::size_t at = part.find("source: \"[C1] [C2]\"");
    REQUIRE(at != std::string::npos);
    part.replace(at, std::string("source: \"[C1] [C2]\"").size(), "source: \"[" + std::string(100000, '7') + "]\"");
    const std::string p = d.write("long-source.yaml", part);
    const Run r = run("validate " + p + " --profile ocp-strict");
    INFO(r.out.substr(0, 400));
    CHECK((r.code == 1 || r.code == 2)); // a located finding, not a crash
    CHECK(r.out.size() < 20000);
    CHECK(r.seconds < 5.0);
    // A 5 MB unknown part name is not echoed whole, and finding no suggestion is quick.
    const std::string design =
        d.write("huge-name.yaml", "rdt: 1\nlayout: {halls: [{id: h, rows: [{id: r, racks: [{id: k, "
                                  "rack_type: orv3-standard, slots: [{ou: 1, part: " +
                                      std::string(5 << 20, 'x') + "}]}]}]}]}\n");
    locatedError(run("check " + design), design, "unknown catalog entry");
    // A catalog folder name over the system's 255-byte limit.
    const std::string longCat =
        d.write("long-catalog.yaml", "rdt: 1\ncatalog: [" + std::string(300, 'a') + "]\nlayout: {halls: []}\n");
    locatedError(run("check " + longCat), longCat + ":2", "catalog folder");
}

TEST_CASE("telemetry: a 1e308 W sample is refused with its line", "[cli][hardening]")
{
    TempDir d;
    const std::string csv = d.write("t.csv", "timestamp, index, name, power.draw [W], clocks.current.sm [MHz]\n"
                                             "2026/11/29 10:00:01.037, 0, NVIDIA H100 80GB HBM3, 1e308 W, 750 MHz\n");
    locatedError(run("gpu calibrate " + csv + " --part nvidia-h100-sxm5"), csv + ":2", "beyond any GPU");
}

TEST_CASE("input size limit: named in the message and overridable", "[cli][hardening]")
{
    TempDir d;
    std::string big = "# GHz S MA R 50\n";
    for (int i = 1; big.size() < (3u << 20); ++i)
        big += std::to_string(i) + " 0.5 0\n";
    const std::string f = d.write("big.s1p", big);
    locatedError(run("touchstone " + f + " --info", "RDT_MAX_INPUT_MB=1"), f, "RDT_MAX_INPUT_MB");
    CHECK(run("touchstone " + f + " --info", "RDT_MAX_INPUT_MB=8").code == 0);
}

TEST_CASE("outputs are crash-safe: killed runs leave the previous file intact and no temporaries",
          "[cli][hardening][slow]")
{
    TempDir d;
    const std::string report = (d.path / "r.h5").string();
    REQUIRE(run("report data/designs/meta-24k-roce.yaml -o " + report).code == 0);
    const auto size = fs::file_size(report);
    std::mt19937 rng(20261201);
    std::uniform_int_distribution<int> delayMs(5, 250);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    for (int k = 0; k < 12; ++k) {
        // SIGKILL at a random point of a second report to the same file.
        const std::string cmd = "timeout -s KILL " + std::to_string(delayMs(rng) / 1000.0) +
                                " " RDT_BIN_DIR "/rdt report " RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml -o " +
                                report + " >/dev/null 2>&1";
        (void)std::system(cmd.c_str());
        const hid_t f = H5Fopen(report.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        CHECK(f >= 0); // the previous (or the new, complete) report, never a half one
        if (f >= 0)
            H5Fclose(f);
        CHECK(fs::file_size(report) > size / 2);
    }
    // The next run removes what killed runs left behind.
    REQUIRE(run("report data/designs/single-rack.yaml -o " + report).code == 0);
    for (const auto& e : fs::directory_iterator(d.path))
        CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    // rdt touchstone -o and rdt channel -o write through a temporary too.
    const std::string out = (d.path / "copy.s4p").string();
    REQUIRE(run("touchstone data/channels/kr4-example2/example2_THRU.s4p --to s -o " + out).code == 0);
    CHECK(fs::file_size(out) > 1000);
    for (const auto& e : fs::directory_iterator(d.path))
        CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
    // -o naming a folder: said so, and nothing left behind ("cannot move the report into place: Success").
    fs::create_directories(d.path / "folder");
    const std::string folder = (d.path / "folder").string();
    for (const std::string& cmd : {"report data/designs/single-rack.yaml -o " + folder,
                                   "validate data/designs/single-rack.yaml -o " + folder}) {
        CAPTURE(cmd);
        const Run r = run(cmd);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("it is a folder: give a file name"));
        CHECK(r.out.find("Success") == std::string::npos);
    }
    for (const auto& e : fs::directory_iterator(d.path))
        CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("absurd magnitudes are not passive, oversized YAML is refused before it is parsed", "[cli][hardening]")
{
    TempDir d;
    const std::string huge =
        d.write("huge.s2p", "# GHz S MA R 50\n1 1e300 0 0.5 0 0.5 0 0.1 0\n2 0.1 0 0.5 0 0.5 0 0.1 0\n");
    const Run r = run("touchstone " + huge + " --info");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("NOT passive"));
    // 129 MiB of YAML, over the 128 MiB limit (a 136 MB design once took 8 GiB in yaml-cpp).
    std::string big = "rdt: 1\n# ";
    big.append(129u << 20, 'x');
    big += "\nlayout: {halls: []}\n";
    const std::string f = d.write("big.yaml", big);
    locatedError(run("check " + f), f, "RDT_MAX_YAML_MB");
}

TEST_CASE("YAML aliases: a billion-laughs document is refused at the alias that crosses the node limit",
          "[cli][hardening]")
{
    TempDir d;
    // Nine levels of ten aliases: 10^9 nodes expanded from 600 bytes.
    std::string y = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        y += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int k = 0; k < 10; ++k)
            y += std::string(k ? ", " : "") + "*a" + std::to_string(i - 1);
        y += "]\n";
    }
    y += "layout: {halls: []}\n";
    for (const char* cmd : {"check ", "validate "}) {
        const std::string f = d.write("laughs.yaml", y);
        const Run r = run(cmd + f);
        locatedError(r, f, "RDT_MAX_YAML_NODES");
        // Located at the alias that crossed 5,000,000 nodes: a5 expands to 1,111,111 nodes, and the
        // fourth *a5 on line 7 (column 25) brings the count from 1,234,582 + 3 × 1,111,111 past it.
        CHECK_THAT(r.out, Contains("laughs.yaml:7:25:"));
    }
    // The limit can be raised: a0 … a6 (12.3 million nodes expanded) pass it at 20 million and reach
    // the design's own checks.
    std::string seven = y.substr(0, y.find("a7:")) + "layout: {halls: []}\n";
    const std::string f7 = d.write("seven.yaml", seven);
    locatedError(run("check " + f7), f7, "YAML node limit");
    const Run raised = run("check " + f7, "RDT_MAX_YAML_NODES=20000000");
    locatedError(raised, f7, "a0");
    CHECK(raised.out.find("YAML node limit") == std::string::npos);
}

TEST_CASE("channel specs: a segment limit, and a measured segment's errors located in the spec", "[cli][hardening]")
{
    TempDir d;
    // 40,000 segments took 31 s.
    std::string many = "frequency: {from: 0 Hz, to: 40 GHz, step: 10 MHz}\nsegments:\n";
    for (int i = 0; i < 40000; ++i)
        many += "  - {kind: twinax, length: 1 mm}\n";
    const std::string f = d.write("many.yaml", many);
    locatedError(run("channel " + f + " -o " + (d.path / "o.s4p").string()), f + ":3:", "channel segment limit");

    // A missing file, a malformed file and a file measured over too narrow a band: the spec's line and
    // field first, the Touchstone file's own location after it.
    d.write("bad.s2p", "# GHz S MA R 50\n1 0.1 0 0.9 0 0.9 zero 0.1 0\n");
    d.write("narrow.s2p", "# GHz S MA R 50\n0.05 0.1 0 0.9 0 0.9 0 0.1 0\n20 0.1 0 0.5 0 0.5 0 0.1 0\n");
    // From 1 GHz on: below it the response would be made up down to 0 Hz (from 100 MHz it is taken).
    d.write("high.s2p", "# GHz S MA R 50\n1 0.1 0 0.9 0 0.9 0 0.1 0\n40 0.1 0 0.5 0 0.5 0 0.1 0\n");
    const std::pair<std::string, std::string> cases[] = {{"missing.s2p", "cannot open file"},
                                                         {"bad.s2p", "bad.s2p:2"},
                                                         {"narrow.s2p", "measured up to 20 GHz"},
                                                         {"high.s2p", "is measured from 1 GHz"}};
    for (const auto& [file, what] : cases) {
        const std::string spec = d.write("spec.yaml", "frequency: {from: 0 Hz, to: 40 GHz, step: 100 MHz}\n"
                                                      "segments:\n  - {kind: twinax, length: 1 m}\n"
                                                      "  - {kind: touchstone, file: " +
                                                          file + "}\n");
        const Run r = run("channel " + spec + " -o " + (d.path / "o.s4p").string());
        locatedError(r, spec + ":4:", what);
        CHECK_THAT(r.out, Contains("segments[1].file"));
    }
}

TEST_CASE("reports are deterministic: the same input gives the same bytes", "[cli][hardening]")
{
    TempDir d;
    // The one timestamp (/meta created) follows SOURCE_DATE_EPOCH; HDF5 records no object times.
    const std::string a = (d.path / "a.h5").string(), b = (d.path / "b.h5").string();
    for (const char* design : {"data/designs/meta-24k-roce.yaml", "data/designs/broken-rack.yaml"}) {
        INFO(design);
        REQUIRE(run(std::string("report ") + design + " -o " + a, "SOURCE_DATE_EPOCH=1764547200").code != -1);
        // Time passes between the runs (a second of HDF5 time resolution).
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        REQUIRE(run(std::string("report ") + design + " -o " + b, "SOURCE_DATE_EPOCH=1764547200").code != -1);
        const std::string x = readFile(a), y = readFile(b);
        REQUIRE(x.size() > 10000);
        CHECK(x == y);
        CHECK(x.find("2025-12-01T00:00:00Z") != std::string::npos);
    }
}

TEST_CASE("heap on huge pages: the re-executed rdt keeps its arguments, output and exit code", "[cli][heap]")
{
    // rdt re-executes itself once at start with glibc.malloc.hugetlb=1 (core/Heap.h); whatever the
    // caller's tunables and however it is switched, the run is the same run.
    for (const std::string env : {"", "GLIBC_TUNABLES=glibc.malloc.perturb=0", "RDT_SMALL_PAGES=1",
                                  "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"}) {
        INFO(env);
        const Run ok = run("check data/designs/single-rack.yaml --json", env);
        CHECK(ok.code == 0);
        CHECK_THAT(ok.out, Contains("\"violations\""));
        const Run bad = run("check data/designs/no-such-design.yaml", env);
        CHECK(bad.code == 2);
        CHECK_THAT(bad.out, Contains("no-such-design.yaml"));
        CHECK(bad.out.find("RDT_HEAP_REEXEC") == std::string::npos);
    }
}

TEST_CASE("a waiver that waives nothing is named in the text, JSON, HDF5, SARIF and JUnit", "[cli][waivers]")
{
    // A waiver whose subject is mistyped (or gone from the layout) was accepted without a word, and
    // the engineer believed the rack waived.
    TempDir d;
    fs::create_directory_symlink(RDT_SOURCE_DIR "/data/designs/broken-parts", d.path / "broken-parts");
    std::string text = readFile(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml");
    const int line = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 4;
    // A waiver for rdt hil's rules is not rdt check's to judge: never named here.
    text += "waivers:\n"
            "  - {rule: orv3.rack.mass, subject: lab/row1/rack-b, justification: \"Floor-bolted lab rack.\"}\n"
            "  - {rule: hil.telemetry.missing, subject: \"*\", justification: \"Lab BMCs report late.\"}\n"
            "  - {rule: orv3.rack.mass, subject: lab/row1/rack-x, justification: \"Mistyped rack.\"}\n";
    const std::string f = d.write("waived.yaml", text);
    const Run t = run("check " + f);
    INFO(t.out);
    CHECK(t.code == 1);
    CHECK_THAT(t.out, Contains("1 waived"));
    CHECK_THAT(t.out, Contains("waiver   orv3.rack.mass on lab/row1/rack-x (" + f + ":" + std::to_string(line) +
                               ":5) waived nothing"));
    CHECK(t.out.find("on lab/row1/rack-b (") == std::string::npos);
    CHECK(t.out.find("hil.telemetry.missing on") == std::string::npos);
    const Run j = rdt::test::runRdt("check " + f + " --json", false);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["counts"]["waived"] == 1);
    REQUIRE(doc["unused_waivers"].size() == 1);
    CHECK(doc["unused_waivers"][0]["subject"] == "lab/row1/rack-x");
    CHECK(doc["unused_waivers"][0]["location"]["line"] == line);
    // The HDF5 report's /checks/unused_waivers has the same one row.
    const std::string h5 = (d.path / "waived.h5").string();
    REQUIRE(run("report " + f + " -o " + h5).code != -1);
    const auto rows = [](const std::string& file) {
        const hid_t h = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        REQUIRE(h >= 0);
        const hid_t set = H5Dopen2(h, "/checks/unused_waivers", H5P_DEFAULT);
        hsize_t n = 99;
        if (set >= 0) {
            const hid_t space = H5Dget_space(set);
            H5Sget_simple_extent_dims(space, &n, nullptr);
            H5Sclose(space);
            H5Dclose(set);
        }
        H5Fclose(h);
        return n;
    };
    CHECK(rows(h5) == 1);
    // SARIF: a configuration notification at the waiver's line; JUnit: a passing "waivers" case.
    const auto sarif = nlohmann::json::parse(rdt::test::runRdt("validate " + f + " --format sarif", false).out);
    const auto& notes = sarif["runs"][0]["invocations"][0]["toolConfigurationNotifications"];
    REQUIRE(notes.size() == 1);
    CHECK(notes[0]["message"]["text"] == "waiver orv3.rack.mass on lab/row1/rack-x waived nothing");
    CHECK(notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == line);
    const std::string junit = rdt::test::runRdt("validate " + f + " --format junit", false).out;
    CHECK_THAT(junit, Contains("<testsuite name=\"waivers\" tests=\"1\" failures=\"0\"") &&
                          Contains("<testcase name=\"orv3.rack.mass on lab/row1/rack-x\" classname=\"waivers\">"));
    // Every waiver used: no line, an empty list.
    text.erase(text.rfind("  - {rule: orv3.rack.mass, subject: lab/row1/rack-x"));
    const std::string g = d.write("used.yaml", text);
    CHECK(run("check " + g).out.find("waived nothing") == std::string::npos);
    CHECK(nlohmann::json::parse(rdt::test::runRdt("check " + g + " --json", false).out)["unused_waivers"].empty());
    REQUIRE(run("report " + g + " -o " + h5).code != -1);
    CHECK(rows(h5) == 0);
    CHECK_FALSE(nlohmann::json::parse(rdt::test::runRdt("validate " + g + " --format sarif", false).out)["runs"][0]
                    .contains("invocations"));
    CHECK(rdt::test::runRdt("validate " + g + " --format junit", false).out.find("waivers") == std::string::npos);
}
