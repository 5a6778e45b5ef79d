// The Redfish client against real servers: DMTF's Redfish Mockup Server serving our Grand Teton BMC
// and ORv3 power shelf mockups, and tests/hil/fault_server.py for what a static server cannot do
// (authentication, 500, malformed and enormous answers, dropped connections).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/Design.h"
#include "core/Error.h"
#include "hil/Redfish.h"
#include "hil/Series.h"
#include "tests/hil/Server.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string kRack = RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml";
const std::string kCatalog = RDT_SOURCE_DIR "/data/catalog";

const core::Design& rack()
{
    static const core::Design d = core::loadDesign(kRack, kCatalog);
    return d;
}

hil::TelemetryMap mapOf(const std::string& text)
{
    return hil::parseTelemetryMap(text, "map.yaml", rack());
}

const hil::PartReading& reading(const hil::Poller& p, const hil::Sample& s, const std::string& part)
{
    for (std::size_t i = 0; i < p.map().parts.size(); ++i)
        if (p.map().parts[i].part == part)
            return s.parts[i];
    FAIL("part " << part << " not mapped");
    static hil::PartReading none;
    return none;
}

std::string allErrors(const hil::Sample& s)
{
    std::string e;
    for (const auto& p : s.parts)
        for (const auto& x : p.errors)
            e += x + "\n";
    return e;
}

} // namespace

TEST_CASE("Grand Teton BMC and ORv3 power shelf read over Redfish, current and legacy resources", "[hil][redfish]")
{
    test::Server gt(test::mockupServer(test::kHilDir + "mockups/grand-teton"));
    test::Server shelf(test::mockupServer(test::kHilDir + "mockups/orv3-power-shelf"));
    hil::Poller poller(
        mapOf("telemetry: 1\ntargets:\n"
              "  - parts: lab/row1/rack1/gt0\n    bmc: " +
              gt.url() +
              "\n    chassis: GT\n    sensors: {gpu_power: 'Chassis/{chassis}/Sensors/GPU_Power', airflow: "
              "'Chassis/{chassis}/Sensors/Airflow', pressure: '/redfish/v1/Chassis/GT/Sensors/Chassis_DeltaP'}\n"
              "  - parts: lab/row1/rack1/gt1\n    bmc: " +
              gt.url() +
              "/\n    chassis: GT\n    api: legacy\n"
              "  - parts: '*/psu-a'\n    bmc: " +
              shelf.url() +
              "\n    chassis: PowerShelf\n"
              "  - parts: '*/psu-b'\n    bmc: " +
              shelf.url() + "\n    chassis: PowerShelf\n    api: legacy\n"));
    CHECK(poller.map().unmapped ==
          std::vector<std::string>{"lab/row1/rack1/gt2", "lab/row1/rack1/gt3", "lab/row1/rack1/rtsw"});
    const hil::Sample s = poller.poll();
    INFO(allErrors(s));
    CHECK(s.errorCount() == 0);
    const hil::PartReading& a = reading(poller, s, "lab/row1/rack1/gt0");
    CHECK(a.powerW == 8150);
    CHECK(a.inletC == 25.0);
    CHECK(a.exhaustC == 44.6);
    CHECK(a.fanPct == 62);
    CHECK(a.fanMaxPct == 62);
    CHECK(a.powerLimitW == 10200);
    CHECK(a.gpuPowerW == 5600);
    CHECK(a.airflowM3s == Approx(1050 * 0.00047194745));
    CHECK(a.pressurePa == 455);
    const hil::PartReading& b = reading(poller, s, "lab/row1/rack1/gt1"); // legacy Power and Thermal
    CHECK(b.powerW == 8150);
    CHECK(b.powerLimitW == 10200);
    CHECK(b.inletC == 25.0);
    CHECK(b.exhaustC == 44.6);
    CHECK(b.fanPct == 62);
    for (const char* id : {"lab/row1/rack1/psu-a", "lab/row1/rack1/psu-b"}) {
        const hil::PartReading& p = reading(poller, s, id);
        REQUIRE(p.psuInW.size() == 6);
        for (std::size_t k = 0; k < 6; ++k) {
            CHECK(p.psuInW[k] == 2870);
            CHECK(p.psuOutW[k] == 2800);
            CHECK(p.psuCapacityW[k] == 5500);
        }
    }
}

TEST_CASE("Fan speeds and the power limit from ThermalSubsystem/Fans and Controls when EnvironmentMetrics lacks them",
          "[hil][redfish]")
{
    test::TempDir dir;
    REQUIRE(
        std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path + "/m --grand-teton gt0 > /dev/null")
                        .c_str()) == 0);
    test::Server bmc(test::mockupServer(dir.path + "/m"));
    const std::string env = bmc.url() + "/redfish/v1/Chassis/gt0/EnvironmentMetrics";
    REQUIRE(test::patch(env, R"({"FanSpeedsPercent": null, "PowerLimitWatts": null})") == 204);
    REQUIRE(test::patch(bmc.url() + "/redfish/v1/Chassis/gt0/ThermalSubsystem/Fans/Fan3",
                        R"({"SpeedPercent": {"Reading": 78}})") == 204);
    hil::Poller poller(mapOf("telemetry: 1\ntargets:\n  - {parts: '*/gt0', bmc: '" + bmc.url() + "'}\n"));
    const hil::Sample s = poller.poll();
    INFO(allErrors(s));
    CHECK(s.errorCount() == 0);
    CHECK(s.parts[0].fanPct == Approx((15 * 62 + 78) / 16.0));
    CHECK(s.parts[0].fanMaxPct == 78);
    CHECK(s.parts[0].powerLimitW == 10200);
    CHECK(s.requests == 4); // EnvironmentMetrics, ThermalMetrics, then Fans (expanded) and Controls/PowerLimit
}

TEST_CASE("Payloads a BMC should never send are errors naming the endpoint, not crashes", "[hil][redfish]")
{
    hil::PartReading r;
    hil::readEnvironmentMetrics("https://bmc/x", R"({"PowerWatts": {"Reading": 1e999}})", r);
    REQUIRE(r.errors.size() == 1);
    CHECK_THAT(r.errors[0], Contains("https://bmc/x") && Contains("unreadable JSON"));
    hil::readThermalMetrics("https://bmc/y", "[1, 2]", r);
    CHECK_THAT(r.errors.back(), Contains("https://bmc/y") && Contains("expected a JSON object"));
    hil::readSensor("https://bmc/z", R"({"Reading": "hot", "ReadingUnits": "Cel"})", "inlet", r);
    CHECK_THAT(r.errors.back(), Contains("no Reading"));
    CHECK(std::isnan(r.inletC));
}

TEST_CASE("Snapshots are HDF5 files that read back whole, written atomically", "[hil][series]")
{
    test::Server gt(test::mockupServer(test::kHilDir + "mockups/grand-teton"));
    test::TempDir dir;
    hil::Poller poller(mapOf("telemetry: 1\ntargets:\n  - {parts: 'lab/*/gt*', bmc: '" + gt.url() +
                             "', chassis: GT, sensors: {gpu_power: 'Chassis/GT/Sensors/GPU_Power'}}\n"));
    const hil::Sample s = poller.poll();
    const std::string file = dir.path + "/snap.h5";
    hil::writeSnapshot(file, poller.map(), {"design.yaml", "map.yaml", "test"}, s);
    hil::writeSnapshot(file, poller.map(), {"design.yaml", "map.yaml", "test"}, s); // replaces it
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path), std::filesystem::directory_iterator{}) == 1);
    const hil::Series back = hil::readSeries(file);
    CHECK(back.info.design == "design.yaml");
    CHECK(back.parts.size() == 4);
    CHECK(back.kinds[0] == "chassis");
    REQUIRE(back.samples.size() == 1);
    CHECK(back.samples[0].unixTime == s.unixTime);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t q = 0; q < hil::seriesQuantities().size(); ++q) {
            const double want = hil::quantityValue(s.parts[i], q),
                         got = hil::quantityValue(back.samples[0].parts[i], q);
            CHECK((std::isnan(want) ? std::isnan(got) : got == want));
        }
    CHECK(back.samples[0].parts[0].gpuPowerW == 5600);
    // A series is never overwritten; anything but an rdt telemetry file is refused by name.
    CHECK_THROWS_WITH(hil::SeriesWriter(file, poller.map(), {}), Contains("snap.h5") && Contains("never overwritten"));
    std::ofstream(dir.path + "/junk.h5") << "not hdf5";
    CHECK_THROWS_WITH(hil::readSeries(dir.path + "/junk.h5"), Contains("junk.h5") && Contains("not an HDF5 file"));
}

TEST_CASE("Faults cost only the faulty endpoint's readings, each named", "[hil][redfish][faults]")
{
    test::TempDir dir;
    REQUIRE(std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path +
                         "/m --grand-teton gt0 gt1 gt2 gt3 --power-shelf psu-a psu-b > /dev/null")
                            .c_str()) == 0);
    const std::string c = "/redfish/v1/Chassis/";
    test::Server faults(
        {test::kHilDir + "fault_server.py", "-D", dir.path + "/m", "-p", "{port}", "--fault",
         c + "gt1/EnvironmentMetrics=500", "--fault", c + "gt2/ThermalSubsystem/ThermalMetrics=malformed", "--fault",
         c + "gt3/Sensors/GPU_Power=404", "--fault", c + "psu-a/PowerSubsystem/PowerSupplies=enormous", "--fault",
         c + "psu-b/PowerSubsystem/PowerSupplies=slow:3", "--fault", c + "gt0/ThermalSubsystem/ThermalMetrics=drop"});
    const int down = test::freePort();
    hil::Poller poller(mapOf("telemetry: 1\ndefaults: {timeout: 1 s, retries: 1, max_response: 1048576}\ntargets:\n"
                             "  - {parts: '*/gt*', bmc: '" +
                             faults.url() +
                             "', sensors: {gpu_power: 'Chassis/{slot}/Sensors/GPU_Power'}}\n"
                             "  - {parts: '*/psu-*', bmc: '" +
                             faults.url() +
                             "'}\n"
                             "  - {parts: '*/rtsw', bmc: 'http://127.0.0.1:" +
                             std::to_string(down) + "'}\n"));
    const auto t0 = std::chrono::steady_clock::now();
    const hil::Sample s = poller.poll();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(allErrors(s));
    auto errorsOf = [&](const char* part) {
        std::string e;
        for (const auto& x : reading(poller, s, part).errors)
            e += x + "\n";
        return e;
    };
    // gt0: its ThermalMetrics connection drops; the power and fans still arrive.
    CHECK_THAT(errorsOf("lab/row1/rack1/gt0"),
               Contains(c + "gt0/ThermalSubsystem/ThermalMetrics") && Contains("closed the connection"));
    CHECK(reading(poller, s, "lab/row1/rack1/gt0").powerW == 8150);
    // gt1: 500 twice (one retry), the Redfish message shown; its inlet still read.
    CHECK_THAT(errorsOf("lab/row1/rack1/gt1"),
               Contains(c + "gt1/EnvironmentMetrics: HTTP 500 Internal Server Error (2 attempts)"));
    CHECK(std::isnan(reading(poller, s, "lab/row1/rack1/gt1").powerW));
    CHECK(reading(poller, s, "lab/row1/rack1/gt1").inletC == 25.0);
    // gt2: malformed JSON, located by byte.
    CHECK_THAT(errorsOf("lab/row1/rack1/gt2"),
               Contains(c + "gt2/ThermalSubsystem/ThermalMetrics: malformed JSON at byte"));
    CHECK(reading(poller, s, "lab/row1/rack1/gt2").powerW == 8150);
    // gt3: the mapped GPU power sensor is missing.
    CHECK_THAT(errorsOf("lab/row1/rack1/gt3"), Contains(c + "gt3/Sensors/GPU_Power: HTTP 404 Not Found"));
    CHECK(reading(poller, s, "lab/row1/rack1/gt3").inletC == 25.0);
    // psu-a: 64 MiB answer cut off at the 1 MiB limit; psu-b: 3 s answer past the 1 s timeout.
    CHECK_THAT(errorsOf("lab/row1/rack1/psu-a"), Contains("PowerSupplies") && Contains("larger than 1 MiB"));
    CHECK_THAT(errorsOf("lab/row1/rack1/psu-b"),
               Contains("PowerSupplies") && Contains("no answer within 1 s (timeout)"));
    // rtsw: nobody listening.
    CHECK_THAT(errorsOf("lab/row1/rack1/rtsw"),
               Contains("127.0.0.1:" + std::to_string(down)) && Contains("connection refused"));
    CHECK(took < 6.0); // timeouts are bounded: 2 attempts of 1 s, endpoints polled concurrently
    // A missing property: the Reading of PowerWatts removed on gt0.
    REQUIRE(test::patch(faults.url() + c + "gt0/EnvironmentMetrics", R"({"PowerWatts": null})") / 100 == 2);
    const hil::Sample again = poller.poll();
    CHECK_THAT(reading(poller, again, "lab/row1/rack1/gt0").errors.front(),
               Contains(c + "gt0/EnvironmentMetrics: no PowerWatts.Reading in the response"));
    CHECK(reading(poller, again, "lab/row1/rack1/gt0").fanPct == 62);
    // Nothing is lost from a series: every sweep is written, with its errors counted.
    const std::string file = dir.path + "/series.h5";
    {
        hil::SeriesWriter w(file, poller.map(), {});
        w.append(s);
        w.append(again);
    }
    const hil::Series back = hil::readSeries(file);
    REQUIRE(back.samples.size() == 2);
    CHECK_THAT(back.log[0], Contains("HTTP 500"));
    CHECK(back.samples[0].parts[0].powerW == 8150);
    CHECK(std::isnan(back.samples[1].parts[0].powerW));
}

TEST_CASE("Basic and session authentication, credentials stay out of messages", "[hil][redfish][auth]")
{
    test::Server bmc({test::kHilDir + "fault_server.py", "-D", test::kHilDir + "mockups/grand-teton", "-p", "{port}",
                      "--basic", "admin:s3cret-pw"});
    const std::string body = "telemetry: 1\ndefaults: {auth: AUTH, retries: 0}\ntargets:\n  - {parts: '*/gt0', bmc: '" +
                             bmc.url() + "', chassis: GT}\n";
    auto withAuth = [&](const std::string& mode) {
        std::string t = body;
        t.replace(t.find("AUTH"), 4, mode);
        return mapOf(t);
    };
    ::setenv("RDT_REDFISH_USER", "admin", 1);
    ::setenv("RDT_REDFISH_PASSWORD", "s3cret-pw", 1);
    for (const char* mode : {"basic", "session"}) {
        hil::TelemetryMap m = withAuth(mode);
        hil::resolveCredentials(m);
        hil::Poller p(m);
        const hil::Sample s = p.poll();
        INFO(mode << ": " << allErrors(s));
        CHECK(s.errorCount() == 0);
        CHECK(s.parts[0].powerW == 8150);
    }
    // Without credentials the BMC answers 401, named with its endpoint.
    {
        hil::Poller p(withAuth("none"));
        const hil::Sample s = p.poll();
        REQUIRE(s.parts[0].errors.size() >= 1);
        CHECK_THAT(s.parts[0].errors[0], Contains("/redfish/v1/Chassis/GT/") && Contains("HTTP 401 Unauthorized"));
    }
    // A wrong password: the login fails by name, and the password never appears.
    ::setenv("RDT_REDFISH_PASSWORD", "wrong-pw-123", 1);
    for (const char* mode : {"basic", "session"}) {
        hil::TelemetryMap m = withAuth(mode);
        hil::resolveCredentials(m);
        hil::Poller p(m);
        const hil::Sample s = p.poll();
        const std::string e = allErrors(s);
        CHECK_THAT(e, Contains("401"));
        CHECK(e.find("wrong-pw-123") == std::string::npos);
    }
    ::unsetenv("RDT_REDFISH_USER");
    ::unsetenv("RDT_REDFISH_PASSWORD");
    // A credentials file must be private (0600).
    test::TempDir dir;
    const std::string cred = dir.path + "/bmc";
    std::ofstream(cred) << "admin:s3cret-pw\n";
    ::chmod(cred.c_str(), 0644);
    hil::TelemetryMap m = withAuth("basic");
    m.credentialsFile = cred;
    CHECK_THROWS_WITH(hil::resolveCredentials(m), Contains("chmod 600"));
    ::chmod(cred.c_str(), 0600);
    hil::resolveCredentials(m);
    CHECK(m.http.user == "admin");
    hil::Poller p(m);
    CHECK(p.poll().parts[0].powerW == 8150);
    m.credentialsFile.clear();
    m.http.user.clear();
    CHECK_THROWS_WITH(hil::resolveCredentials(m), Contains("RDT_REDFISH_USER"));
}

TEST_CASE("Telemetry maps: templates expand per part, mistakes are located", "[hil][map]")
{
    ::setenv("RDT_TEST_DOMAIN", "lab.example.net", 1);
    const hil::TelemetryMap m =
        mapOf("telemetry: 1\ndefaults: {timeout: 750 ms, retries: 3, concurrency: 16, per_bmc: 2}\ntargets:\n"
              "  - parts: 'lab/row1/*/gt*'\n    bmc: 'https://{rack}-{slot}.{env:RDT_TEST_DOMAIN}:8443'\n"
              "    chassis: 'HGX_{slot}'\n    sensors: {gpu_power: 'Chassis/{chassis}/Sensors/P_{rack_index}'}\n");
    REQUIRE(m.parts.size() == 4);
    CHECK(m.parts[1].bmc == "https://rack1-gt1.lab.example.net:8443");
    CHECK(m.parts[1].chassis == "HGX_gt1");
    CHECK(m.parts[1].sensors.at("gpu_power") == "Chassis/HGX_gt1/Sensors/P_0");
    CHECK(m.http.timeoutS == Approx(0.75));
    CHECK(m.http.retries == 3);
    CHECK(m.http.maxPerHost == 2);
    CHECK_FALSE(m.http.insecure);
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ntargets:\n  - {parts: 'nowhere/*', bmc: 'https://x'}\n"),
                      Contains("map.yaml:3") && Contains("matches no chassis"));
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ntargets:\n  - {parts: '*', bmc: 'https://{host}'}\n"),
                      Contains("map.yaml:3") && Contains("unknown placeholder {host}"));
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ntargets:\n  - {parts: '*', bmc: 'https://{env:RDT_NOT_SET_ANYWHERE}'}\n"),
                      Contains("RDT_NOT_SET_ANYWHERE") && Contains("not set"));
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ntargets:\n  - {parts: '*', bmc: 'ftp://x'}\n"),
                      Contains("targets[0].bmc") && Contains("https://"));
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ntargets:\n  - {parts: '*', bmc: 'https://x', sensor: {}}\n"),
                      Contains("sensor") && Contains("sensors"));
    CHECK_THROWS_WITH(mapOf("telemetry: 1\ndefaults: {timeout: 3}\ntargets: []\n"), Contains("defaults.timeout"));
    CHECK(hil::globMatch("lab/*/gt?", "lab/row1/rack1/gt3"));
    CHECK_FALSE(hil::globMatch("lab/*/gt?", "lab/row1/rack1/gt10"));
}

TEST_CASE("HTTPS: certificates are verified unless explicitly not", "[hil][redfish][tls]")
{
    test::TempDir dir;
    const std::string cert = dir.path + "/bmc.pem", key = dir.path + "/bmc.key";
    REQUIRE(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext "
                         "subjectAltName=IP:127.0.0.1 -keyout " +
                         key + " -out " + cert + " > /dev/null 2>&1")
                            .c_str()) == 0);
    std::vector<std::string> args = test::mockupServer(test::kHilDir + "mockups/grand-teton");
    for (const char* a : {"-s", "--cert"})
        args.push_back(a);
    args.push_back(cert);
    args.push_back("--key");
    args.push_back(key);
    test::Server bmc(args, "/dev/null", true);
    const std::string text =
        "telemetry: 1\ndefaults: {retries: 0}\ntargets:\n  - {parts: '*/gt0', bmc: '" + bmc.url() + "', chassis: GT}\n";
    // Default: verification on, and this self-signed certificate is not trusted.
    {
        hil::Poller p(mapOf(text));
        const hil::Sample s = p.poll();
        REQUIRE(s.parts[0].errors.size() == 1);
        CHECK_THAT(s.parts[0].errors[0], Contains(bmc.url()) && Contains("TLS certificate not trusted") &&
                                             Contains("--ca-cert") && Contains("--insecure"));
    }
    // The BMC's CA given: verified and read.
    {
        hil::TelemetryMap m = mapOf(text);
        m.http.caCert = cert;
        hil::Poller p(m);
        const hil::Sample s = p.poll();
        INFO(allErrors(s));
        CHECK(s.parts[0].powerW == 8150);
    }
    // Explicitly insecure: read without verification.
    {
        hil::TelemetryMap m = mapOf(text);
        m.http.insecure = true;
        hil::Poller p(m);
        CHECK(p.poll().parts[0].powerW == 8150);
    }
}

TEST_CASE("Collections: PSUs over two pages (Members@odata.nextLink), members and Metrics followed", "[hil][redfish]")
{
    // The shelf mockup with its PowerSupplies collection split into two pages.
    test::TempDir dir;
    const std::string m = dir.path + "/shelf";
    std::filesystem::copy(test::kHilDir + "mockups/orv3-power-shelf", m, std::filesystem::copy_options::recursive);
    const std::string coll = m + "/Chassis/PowerShelf/PowerSubsystem/PowerSupplies";
    nlohmann::json c = nlohmann::json::parse(std::ifstream(coll + "/index.json"));
    REQUIRE(c["Members"].size() == 6);
    nlohmann::json page2 = c;
    const std::string base = "/redfish/v1/Chassis/PowerShelf/PowerSubsystem/PowerSupplies";
    page2["@odata.id"] = base + "/Page2";
    page2["Members"] = nlohmann::json(std::vector<nlohmann::json>(c["Members"].begin() + 4, c["Members"].end()));
    c["Members"] = nlohmann::json(std::vector<nlohmann::json>(c["Members"].begin(), c["Members"].begin() + 4));
    c["Members@odata.nextLink"] = base + "/Page2";
    std::ofstream(coll + "/index.json") << c.dump(2);
    std::filesystem::create_directories(coll + "/Page2");
    std::ofstream(coll + "/Page2/index.json") << page2.dump(2);
    // Without $expand on offer (a service root that does not list it) every member and Metrics is fetched.
    nlohmann::json root = nlohmann::json::parse(std::ifstream(m + "/index.json"));
    root.erase("ProtocolFeaturesSupported");
    std::ofstream(m + "/index.json") << root.dump(2);
    test::Server shelf(test::mockupServer(m));
    hil::Poller poller(
        mapOf("telemetry: 1\ntargets:\n  - {parts: '*/psu-a', bmc: '" + shelf.url() + "', chassis: PowerShelf}\n"));
    const hil::Sample s = poller.poll();
    INFO(allErrors(s));
    CHECK(s.errorCount() == 0);
    const hil::PartReading& r = s.parts[0];
    REQUIRE(r.psuInW.size() == 6);
    for (std::size_t k = 0; k < 6; ++k) {
        CHECK(r.psuInW[k] == 2870);
        CHECK(r.psuOutW[k] == 2800);
        CHECK(r.psuCapacityW[k] == 5500);
    }
    // page 1, page 2, six members, six Metrics (the service root is read once per BMC, before)
    CHECK(s.requests == 1 + 1 + 6 + 6);
}

TEST_CASE("A negative power or fan reading is dropped and named, never compared", "[hil][redfish]")
{
    // A BMC that answers PowerWatts -500 W (a sign fault, a stuck register) was taken as a reading
    // until 2026-12-06: `hil compare` judged "power measured -500.0 W" against the model. No part
    // draws negative power or spins its fans backwards: the reading is dropped, with an error naming
    // the part, and the other readings of the same part stay.
    test::Server gt(test::mockupServer(test::kHilDir + "mockups/grand-teton"));
    REQUIRE(test::patch(gt.url() + "/redfish/v1/Chassis/GT/EnvironmentMetrics",
                        R"({"PowerWatts": {"Reading": -500}})") == 204);
    hil::Poller poller(
        mapOf("telemetry: 1\ntargets:\n  - parts: lab/row1/rack1/gt0\n    bmc: " + gt.url() + "\n    chassis: GT\n"));
    const hil::Sample s = poller.poll();
    const hil::PartReading& a = reading(poller, s, "lab/row1/rack1/gt0");
    CHECK(std::isnan(a.powerW));
    CHECK(a.inletC == 25.0); // the part's other readings are kept
    REQUIRE(a.errors.size() == 1);
    CHECK_THAT(a.errors[0], Contains("lab/row1/rack1/gt0: power reading -500 W is negative") && Contains("dropped"));
}

TEST_CASE("A reading beyond what any part gives (1e308 W, -300 degC, 500 % fan) is dropped and named", "[hil][redfish]")
{
    // Only negative readings were dropped: PowerWatts 1e308 went into /hil/power and cut the
    // deviation's message off mid-number; an intake of -300 degC and a fan at 500 % were compared.
    struct Case {
        const char* resource;
        const char* body;
        const char* error; // empty: kept
    };
    const Case cases[] = {
        {"EnvironmentMetrics", R"({"PowerWatts": {"Reading": 1e308}})", "power reading 1e+308 W is over 1e+07 W"},
        {"EnvironmentMetrics", R"({"PowerWatts": {"Reading": 10000001}})", "power reading 10000001 W is over 1e+07 W"},
        {"EnvironmentMetrics", R"({"PowerWatts": {"Reading": 10000000}})", ""},
        {"ThermalSubsystem/ThermalMetrics",
         R"({"TemperatureReadingsCelsius": [{"DeviceName": "Intake", "Reading": -300}, {"DeviceName": "Exhaust", "Reading": 44.6}]})",

         "inlet reading -300 degC is outside -50 … 150 degC"},
        {"ThermalSubsystem/ThermalMetrics",
         R"({"TemperatureReadingsCelsius": [{"DeviceName": "Intake", "Reading": 150.5}, {"DeviceName": "Exhaust", "Reading": 44.6}]})",
         "inlet reading 150.5 degC is outside"},
        {"ThermalSubsystem/ThermalMetrics",
         R"({"TemperatureReadingsCelsius": [{"DeviceName": "Intake", "Reading": -50}, {"DeviceName": "Exhaust", "Reading": 44.6}]})",
         ""},
        {"EnvironmentMetrics", R"({"FanSpeedsPercent": [{"DeviceName": "Fan 0", "Reading": 500}]})",
         "fan speed reading 500 % is over 100 %"},
        {"EnvironmentMetrics", R"({"FanSpeedsPercent": [{"DeviceName": "Fan 0", "Reading": 100}]})", ""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.resource, c.body);
        test::Server gt(test::mockupServer(test::kHilDir + "mockups/grand-teton"));
        REQUIRE(test::patch(gt.url() + "/redfish/v1/Chassis/GT/" + c.resource, c.body) == 204);
        hil::Poller poller(mapOf("telemetry: 1\ntargets:\n  - parts: lab/row1/rack1/gt0\n    bmc: " + gt.url() +
                                 "\n    chassis: GT\n"));
        const hil::Sample s = poller.poll();
        const hil::PartReading& a = reading(poller, s, "lab/row1/rack1/gt0");
        const std::string body = c.body;
        const bool power = body.find("PowerWatts") != std::string::npos,
                   fan = body.find("FanSpeeds") != std::string::npos;
        const double v = power ? a.powerW : fan ? a.fanPct : a.inletC;
        if (*c.error) {
            CHECK(std::isnan(v));
            REQUIRE_FALSE(a.errors.empty()); // a fan's mean and fastest speed are each said
            CHECK_THAT(a.errors[0], Contains(std::string("lab/row1/rack1/gt0: ") + c.error) && Contains("dropped"));
        } else {
            CHECK(a.errors.empty());
            CHECK(v == (power ? 10e6 : fan ? 100.0 : -50.0));
        }
    }
}

TEST_CASE("A reading sent as text is said to be text, not absent", "[hil][redfish]")
{
    // "PowerWatts": {"Reading": "8150"} was reported as "no PowerWatts.Reading in the response".
    test::Server gt(test::mockupServer(test::kHilDir + "mockups/grand-teton"));
    REQUIRE(test::patch(gt.url() + "/redfish/v1/Chassis/GT/EnvironmentMetrics", R"({"PowerWatts": {"Reading": "8150"}})") ==
            204);
    hil::Poller poller(mapOf("telemetry: 1\ntargets:\n  - parts: lab/row1/rack1/gt0\n    bmc: " + gt.url() +
                             "\n    chassis: GT\n"));
    const hil::Sample s = poller.poll();
    const hil::PartReading& a = reading(poller, s, "lab/row1/rack1/gt0");
    CHECK(std::isnan(a.powerW));
    REQUIRE(a.errors.size() == 1);
    CHECK_THAT(a.errors[0], Contains("EnvironmentMetrics: PowerWatts.Reading is \"8150\", not a number (string)"));
    CHECK(a.errors[0].find("no PowerWatts.Reading") == std::string::npos);
}
