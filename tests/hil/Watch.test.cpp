// `rdt hil watch` against a running mockup: a PATCHed sensor arrives in the live table and in the
// series file; the file stays readable while it grows and after the watcher is killed.
#include <catch2/catch.hpp>

#include <fcntl.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hil/Series.h"
#include "tests/hil/Server.h"
#include "tests/support/RunRdt.h"
#include "tests/support/SpawnRdt.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

/// The series as far as it is written (empty while the file is not there yet).
hil::Series peek(const std::string& file)
{
    try {
        return hil::readSeries(file);
    } catch (const std::exception&) {
        return {};
    }
}

template <typename Pred>
bool waitFor(Pred pred, double seconds)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (pred())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

std::string slurp(const std::string& f)
{
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("watch: a PATCHed sensor arrives live, a killed watch leaves a readable series", "[hil][watch]")
{
    test::TempDir dir;
    REQUIRE(std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path +
                         "/m --grand-teton gt0 gt1 gt2 gt3 --power-shelf psu-a psu-b > /dev/null")
                            .c_str()) == 0);
    test::Server bmc(test::mockupServer(dir.path + "/m"));
    const std::string map = dir.path + "/map.yaml", series = dir.path + "/series.h5", log = dir.path + "/watch.log";
    std::ofstream(map) << "telemetry: 1\ntargets:\n  - {parts: '*/gt*', bmc: '" << bmc.url()
                       << "'}\n  - {parts: '*/psu-*', bmc: '" << bmc.url() << "'}\n";
    const pid_t watch = test::spawnRdt(
        {"hil", "watch", "tests/fixtures/hil/hil-rack.yaml", "--map", map, "--interval", "200ms", "-o", series}, log);
    REQUIRE(watch > 0);
    // Readers may open the series while it grows.
    REQUIRE(waitFor([&] { return peek(series).samples.size() >= 2; }, 30));
    CHECK(peek(series).samples[0].parts[0].powerW == 8150);
    REQUIRE(test::patch(bmc.url() + "/redfish/v1/Chassis/gt2/EnvironmentMetrics",
                        R"({"PowerWatts": {"Reading": 9321}})") == 204);
    std::size_t seenAt = 0;
    REQUIRE(waitFor(
        [&] {
            const hil::Series s = peek(series);
            for (std::size_t t = 0; t < s.samples.size(); ++t)
                if (s.samples[t].parts[2].powerW == 9321) {
                    seenAt = t;
                    return true;
                }
            return false;
        },
        30));
    CHECK(seenAt >= 2);
    REQUIRE(waitFor([&] { return slurp(log).find("9321 (") != std::string::npos; }, 10)); // the live table
    // Kill it without warning: everything flushed before stays readable.
    const std::size_t before = peek(series).samples.size();
    ::kill(watch, SIGKILL);
    ::waitpid(watch, nullptr, 0);
    const hil::Series after = hil::readSeries(series);
    CHECK(after.samples.size() >= before);
    CHECK(after.samples.size() <= before + 1);
    CHECK(after.samples[seenAt].parts[2].powerW == 9321);
    CHECK(after.samples.back().parts[0].powerW == 8150);
    CHECK(after.samples.back().parts[4].psuOutW.size() == 6);
    // A clean stop (SIGTERM / Ctrl-C) finishes the sweep, closes the file and says so.
    const std::string series2 = dir.path + "/series2.h5";
    const pid_t second = test::spawnRdt(
        {"hil", "watch", "tests/fixtures/hil/hil-rack.yaml", "--map", map, "--interval", "100ms", "-o", series2}, log);
    REQUIRE(second > 0);
    REQUIRE(waitFor([&] { return peek(series2).samples.size() >= 1; }, 30));
    ::kill(second, SIGTERM);
    int status = 0;
    ::waitpid(second, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK_THAT(slurp(log), Contains("series2.h5: ") && Contains(" sweeps"));
    // The same file name again is refused: a series is never overwritten.
    const test::Run again =
        test::runRdt("hil watch tests/fixtures/hil/hil-rack.yaml --map " + map + " --count 1 -o " + series2);
    CHECK(again.code == 2);
    CHECK_THAT(again.out, Contains("series2.h5") && Contains("never overwritten"));
}

TEST_CASE("hil compare: residuals, hil.* rules and the exit status", "[hil][compare]")
{
    test::TempDir dir;
    REQUIRE(std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path +
                         "/m --grand-teton gt0 gt1 gt2 gt3 --power-shelf psu-a psu-b > /dev/null")
                            .c_str()) == 0);
    test::Server bmc(test::mockupServer(dir.path + "/m"));
    const std::string map = dir.path + "/map.yaml", rack = "tests/fixtures/hil/hil-rack.yaml";
    std::ofstream(map) << "telemetry: 1\ntargets:\n  - {parts: '*/gt*', bmc: '" << bmc.url()
                       << "'}\n  - {parts: '*/psu-*', bmc: '" << bmc.url() << "'}\n";
    // The model's own figures, PATCHed into the mockup, must pass.
    const test::Run first = test::runRdt("hil snapshot " + rack + " --map " + map + " -o " + dir.path + "/a.h5");
    REQUIRE(first.code == 0);
    const test::Run j = test::runRdt("hil compare " + rack + " " + dir.path + "/a.h5 --json", false);
    const auto doc = nlohmann::json::parse(j.out);
    for (const auto& r : doc["residuals"]) {
        const std::string part = r["part"], q = r["quantity"];
        const std::string chassis = part.substr(part.rfind('/') + 1);
        const double v = r["predicted"];
        const std::string c = bmc.url() + "/redfish/v1/Chassis/" + chassis;
        if (q == "power" && r["kind"] == "chassis")
            REQUIRE(test::patch(c + "/EnvironmentMetrics", nlohmann::json{{"PowerWatts", {{"Reading", v}}}}.dump()) ==
                    204);
        if (q == "fan") {
            nlohmann::json fans = nlohmann::json::array();
            for (int f = 0; f < 16; ++f)
                fans.push_back({{"DeviceName", "Fan " + std::to_string(f)}, {"Reading", v}});
            REQUIRE(test::patch(c + "/EnvironmentMetrics", nlohmann::json{{"FanSpeedsPercent", fans}}.dump()) == 204);
        }
        if (q == "inlet")
            REQUIRE(test::patch(c + "/ThermalSubsystem/ThermalMetrics",
                                nlohmann::json{{"TemperatureReadingsCelsius",
                                                {{{"DeviceName", "Intake"}, {"Reading", v}},
                                                 {{"DeviceName", "Exhaust"}, {"Reading", v + 18}}}}}
                                    .dump()) == 204);
        if (q == "power" && r["kind"] == "power-shelf")
            for (int m = 1; m <= 6; ++m) {
                const double out = v / 6, in = out / 0.975;
                REQUIRE(test::patch(c + "/PowerSubsystem/PowerSupplies/PSU" + std::to_string(m) + "/Metrics",
                                    nlohmann::json{{"InputPowerWatts", {{"Reading", in}}},
                                                   {"OutputPowerWatts", {{"Reading", out}}}}
                                        .dump()) == 204);
            }
    }
    REQUIRE(test::runRdt("hil snapshot " + rack + " --map " + map + " -o " + dir.path + "/b.h5").code == 0);
    const test::Run ok = test::runRdt("hil compare " + rack + " " + dir.path + "/b.h5");
    INFO(ok.out);
    CHECK_THAT(ok.out, Contains("0 errors"));
    CHECK_THAT(ok.out, Contains("not checked: lab/row1/rack1/rtsw")); // mapped nowhere, said so
    CHECK(ok.code == 0);
    // 25 % over the model on one chassis: hil.power.deviation, exit 1; the same verdict in JSON.
    const double model = doc["residuals"][0]["predicted"];
    REQUIRE(test::patch(bmc.url() + "/redfish/v1/Chassis/gt0/EnvironmentMetrics",
                        nlohmann::json{{"PowerWatts", {{"Reading", model * 1.25}}}}.dump()) == 204);
    REQUIRE(test::runRdt("hil snapshot " + rack + " --map " + map + " -o " + dir.path + "/c.h5").code == 0);
    const test::Run bad = test::runRdt("hil compare " + rack + " " + dir.path + "/c.h5");
    CHECK(bad.code == 1);
    CHECK_THAT(bad.out, Contains("hil.power.deviation") && Contains("lab/row1/rack1/gt0") && Contains("+25.0 %"));
    const test::Run badJson = test::runRdt("hil compare " + rack + " " + dir.path + "/c.h5 --json", false);
    CHECK(badJson.code == 1);
    const auto bj = nlohmann::json::parse(badJson.out);
    CHECK(bj["errors"] == 1);
    CHECK(bj["violations"][0]["rule"] == "hil.power.deviation");
    CHECK(bj["violations"][0]["measured"].get<double>() == Approx(25.0).margin(0.01));
    // A looser profile tolerance passes it.
    std::ofstream(dir.path + "/loose.yaml") << "name: loose\nrules:\n  hil.power.deviation: {tolerance: 30 %}\n";
    CHECK(test::runRdt("hil compare " + rack + " " + dir.path + "/c.h5 --profile " + dir.path + "/loose.yaml").code ==
          0);
    // Another design's snapshot is refused by name.
    const test::Run wrong = test::runRdt("hil compare data/designs/single-rack.yaml " + dir.path + "/c.h5");
    CHECK(wrong.code == 2);
    CHECK_THAT(wrong.out, Contains("lab/row1/rack1/gt2") && Contains("does not have"));
}
