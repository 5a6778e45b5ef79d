// NetBox round trip: a design exported as NetBox REST answers and imported back (with the original
// as the base for site, fabric and links) gives the same check results; bad dumps give located errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/Yaml.h"
#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using namespace rdt;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

/// The parts of `rdt check --json` that must not depend on how the design was written.
json verdicts(const std::string& design)
{
    const test::Run r = test::runRdt("check " + design + " --json", false);
    REQUIRE(r.code <= 1);
    json d = json::parse(r.out);
    for (json& v : d["violations"])
        v.erase("location");
    json out;
    out["counts"] = d["counts"];
    out["summary"] = d["summary"];
    out["violations"] = d["violations"];
    out["power_totals"] = d["power"]["totals"];
    out["sustained_pflops"] = d["throughput"]["sustained_pflops_bf16"];
    out["throttled"] = d["thermal"]["throttled_chassis"];
    return out;
}

} // namespace

TEST_CASE("NetBox export and import round-trip the 24k example with the same verdicts", "[cli][netbox]")
{
    test::TempDir t;
    const std::string dump = t.path + "/dump", back = t.path + "/back.yaml";
    const test::Run ex = test::runRdt("export netbox data/designs/meta-24k-roce.yaml -o " + dump + " --page-size 4000");
    INFO(ex.out);
    REQUIRE(ex.code == 0);
    CHECK_THAT(ex.out, Contains("1536 racks"));
    CHECK(std::filesystem::exists(dump + "/devices-3.json")); // 10,752 devices in 4,000-result pages
    const test::Run im =
        test::runRdt("import netbox " + dump + " -o " + back + " --base data/designs/meta-24k-roce.yaml");
    INFO(im.out);
    REQUIRE(im.code == 0);
    CHECK_THAT(im.out, Contains("1 sites, 1536 racks, 10752 devices placed"));
    const std::string text = core::readTextFile(back);
    CHECK(text.find("templates:") == std::string::npos); // every rack written out, distinct
    CHECK_THAT(text, Contains("gpu_power_cap: 700 W") && Contains("feed: A") && Contains("pods:"));
    CHECK(verdicts("data/designs/meta-24k-roce.yaml") == verdicts(back));
}

TEST_CASE("NetBox import: per-device overrides, unplaced devices listed, bad dumps located", "[cli][netbox]")
{
    test::TempDir t;
    const std::string dump = t.path + "/dump";
    REQUIRE(test::runRdt("export netbox data/designs/single-rack.yaml -o " + dump).code == 0);
    // A failed fan and a cap on one device, and a 0U PDU without a position.
    json dev = json::parse(std::ifstream(dump + "/devices.json"));
    for (json& d : dev["results"])
        if (d["name"] == "gt0")
            d["custom_fields"] = {{"rdt_failed_fans", 2}, {"rdt_gpu_power_cap", 550}};
    dev["results"].push_back({{"id", 99},
                              {"name", "pdu-left"},
                              {"device_type", {{"slug", "orv3-hpr-power-shelf-6x5p5kw"}}},
                              {"rack", {{"id", 1}}},
                              {"position", nullptr}});
    dev["count"] = dev["results"].size();
    std::ofstream(dump + "/devices.json") << dev.dump();
    const test::Run ok =
        test::runRdt("import netbox " + dump + " -o " + t.path + "/a.yaml --base data/designs/single-rack.yaml");
    INFO(ok.out);
    REQUIRE(ok.code == 0);
    CHECK_THAT(ok.out, Contains("not placed (no rack or position): pdu-left"));
    CHECK_THAT(core::readTextFile(t.path + "/a.yaml"), Contains("id: \"gt0\", gpu_power_cap: 550 W, failed_fans: 2"));
    // Unknown device types: all listed, each with file, JSON path and the nearest slug.
    json bad = dev;
    bad["results"][4]["device_type"]["slug"] = "meta-grand-teton-h10";
    bad["results"][6]["device_type"]["slug"] = "acme-widget";
    std::ofstream(dump + "/devices.json") << bad.dump();
    const test::Run unknown = test::runRdt("import netbox " + dump + " -o " + t.path + "/b.yaml");
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.out, Contains("2 device types are not in the catalog") && Contains("acme-widget") &&
                                Contains("devices.json: results[4].device_type.slug") &&
                                Contains("did you mean \"meta-grand-teton-h100\""));
    CHECK_FALSE(std::filesystem::exists(t.path + "/b.yaml"));
    // A page missing: the count says so.
    json shortPage = dev;
    shortPage["count"] = 50;
    std::ofstream(dump + "/devices.json") << shortPage.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/c.yaml").out,
               Contains("devices.json") && Contains("a page is missing"));
    // A rack without a type, a device between OpenU, and a file that is not JSON.
    std::ofstream(dump + "/devices.json") << dev.dump();
    json racks = json::parse(std::ifstream(dump + "/racks.json"));
    racks["results"][0].erase("rack_type");
    std::ofstream(dump + "/racks.json") << racks.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/d.yaml").out,
               Contains("racks.json") && Contains("results[0].rack_type") && Contains("rdt_rack_type"));
    racks["results"][0]["custom_fields"] = {{"rdt_rack_type", "orv3-hpr"}};
    std::ofstream(dump + "/racks.json") << racks.dump();
    json frac = dev;
    frac["results"][0]["position"] = 2.5;
    std::ofstream(dump + "/devices.json") << frac.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/e.yaml").out,
               Contains("results[0].position") && Contains("whole OpenU"));
    std::ofstream(dump + "/devices.json") << "{\"count\": 3, \"results\": [";
    const test::Run notJson = test::runRdt("import netbox " + dump + " -o " + t.path + "/f.yaml");
    CHECK(notJson.code == 2);
    CHECK_THAT(notJson.out, Contains("devices.json") && Contains("not JSON"));
}
