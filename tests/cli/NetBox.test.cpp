// NetBox round trip: a design exported as NetBox REST answers and imported back (with the original
// as the base for site, fabric and links) gives the same check results; bad dumps give located errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

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

/// single-rack.yaml with `feeds:` declared on its rack (e.g. "{A: 30 kW, B: 30 kW}").
std::string singleRackWithFeeds(const std::string& feeds)
{
    std::string design = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    const std::string type = "              rack_type: orv3-hpr\n";
    design.replace(design.find(type), type.size(), type + "              feeds: " + feeds + "\n");
    return design;
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
    shortPage["count"] = 3; // fewer than the page holds: not a missing page
    std::ofstream(dump + "/devices.json") << shortPage.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/c.yaml").out,
               Contains("devices.json") && Contains("more results than NetBox answered"));
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

TEST_CASE("NetBox import: power feeds letter the shelves and cap their rack, cables set link lengths",
          "[cli][netbox][power]")
{
    test::TempDir t;
    // The single rack with its two feeds declared, exported: power-feeds.json and the shelves' cables.
    const std::string base = t.path + "/base.yaml", dump = t.path + "/dump";
    std::ofstream(base) << singleRackWithFeeds("{A: 30 kW, B: 30 kW}");
    REQUIRE(test::runRdt("export netbox " + base + " -o " + dump).code == 0);
    REQUIRE(std::filesystem::exists(dump + "/power-feeds.json"));
    const test::Run back = test::runRdt("import netbox " + dump + " -o " + t.path + "/back.yaml --base " + base);
    INFO(back.out);
    REQUIRE(back.code == 0);
    CHECK_THAT(back.out, Contains("2 power feeds, 2 shelf power cables"));
    CHECK_THAT(core::readTextFile(t.path + "/back.yaml"),
               Contains("A: {value: 29.9") && Contains("source: \"NetBox power feed rack1-A") &&
                   Contains("id: \"psu-b\", feed: B"));
    CHECK(verdicts(base) == verdicts(t.path + "/back.yaml"));

    // The feeds as NetBox states them without available_power: 415 V three-phase 16 A at 80 % is
    // 9.2 kW, short of the 21.7 kW one feed carries when the other is lost.
    json feeds = json::parse(std::ifstream(dump + "/power-feeds.json"));
    for (json& f : feeds["results"]) {
        f.erase("available_power");
        f["amperage"] = 16;
    }
    std::ofstream(dump + "/power-feeds.json") << feeds.dump();
    // Cables: two NIC-to-switch DACs (150 cm and 8.2 ft), one between the shelves (no class joins them).
    json cables = json::parse(std::ifstream(dump + "/cables.json"));
    const json devices = json::parse(std::ifstream(dump + "/devices.json"));
    std::map<std::string, long long> id;
    for (const json& d : devices["results"])
        id[d["name"]] = d["id"];
    auto iface = [&](const std::string& dev, const std::string& port) {
        return json::array({{{"object_type", "dcim.interface"},
                             {"object", {{"id", 1000 + id[dev]}, {"name", port}, {"device", {{"id", id[dev]}}}}}}});
    };
    auto cable = [&](const std::string& a, const std::string& b, double len, const std::string& unit) {
        cables["results"].push_back({{"id", 100 + cables["results"].size()},
                                     {"type", "dac-passive"},
                                     {"a_terminations", iface(a, "nic0")},
                                     {"b_terminations", iface(b, "swp1")},
                                     {"length", len},
                                     {"length_unit", {{"value", unit}}}});
    };
    cable("gt0", "rtsw", 150, "cm");
    cable("gt1", "rtsw", 8.2, "ft");
    cable("psu-a", "bbu-a", 1, "m");
    cables["count"] = cables["results"].size();
    std::ofstream(dump + "/cables.json") << cables.dump();
    const test::Run im = test::runRdt("import netbox " + dump + " -o " + t.path + "/a.yaml --base " + base);
    INFO(im.out);
    REQUIRE(im.code == 0);
    CHECK_THAT(im.out, Contains("link class nic-rtsw: 2 cables in NetBox, the longest 2.49936 m") &&
                           Contains("longer than the 2 m the class assumed: checked at 2.49936 m") &&
                           Contains("not checked: 1 cables between orv3-hpr-bbu-shelf-6x5p5kw and "
                                    "orv3-hpr-power-shelf-6x5p5kw"));
    const std::string text = core::readTextFile(t.path + "/a.yaml");
    CHECK_THAT(text, Contains("length: 2.49936 m") && Contains("415 V three-phase 16 A x 80 %"));
    const test::Run chk = test::runRdt("check " + t.path + "/a.yaml --json", false);
    CHECK(chk.code == 1);
    const json v = json::parse(chk.out);
    std::set<std::string> rules;
    for (const json& x : v["violations"])
        rules.insert(x["rule"].get<std::string>());
    CHECK(rules.count("power.feed.capacity") == 1); // 9.2 kW feeds
    CHECK(rules.count("signal.cable.reach") == 1);  // a 2.5 m run on a 2 m DAC
    const json& rack = v["power"]["racks"][0];
    CHECK(rack["feeds"][0]["available_W"].get<double>() == Approx(415.0 * 16 * 0.8 * std::sqrt(3.0)));
    CHECK_FALSE(rack["feeds"][0]["fits"].get<bool>());

    // Broken references and what rdt does not model are located errors.
    json broken = cables;
    broken["results"][2]["a_terminations"][0]["object"]["device"]["id"] = 999;
    std::ofstream(dump + "/cables.json") << broken.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/b.yaml").out,
               Contains("cables.json: results[2].a_terminations") && Contains("device 999"));
    broken = cables;
    broken["results"][0]["b_terminations"][0]["object_id"] = 77;
    std::ofstream(dump + "/cables.json") << broken.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/c.yaml").out,
               Contains("cables.json: results[0]") && Contains("power feed 77"));
    // A length past any link rdt models is the cable's error, not the base's link class's (it was told
    // at single-rack.yaml's links[0]); a bare unit string, as a hand-written page gives it, is read.
    broken = cables;
    broken["results"][3]["length"] = 200000;
    broken["results"][3]["length_unit"] = "m";
    std::ofstream(dump + "/cables.json") << broken.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/f.yaml --base " + base).out,
               Contains("cables.json: results[3].length") && Contains("over 100 km"));
    broken["results"][3]["length"] = 3;
    std::ofstream(dump + "/cables.json") << broken.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/g.yaml --base " + base).out,
               Contains("the longest 3 m"));
    // A shelf cabled to both feeds of its rack (found by fuzz_netbox: the message once read a freed page).
    broken = cables;
    json second = broken["results"][0];
    second["id"] = 500;
    second["b_terminations"][0]["object_id"] = broken["results"][1]["b_terminations"][0]["object_id"];
    broken["results"].push_back(second);
    broken["count"] = broken["results"].size();
    std::ofstream(dump + "/cables.json") << broken.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/e.yaml").out,
               Contains("cables.json: results[5].b_terminations") && Contains("cabled to both feeds"));
    std::ofstream(dump + "/cables.json") << cables.dump();
    json dc = feeds;
    dc["results"][1]["supply"] = {{"value", "dc"}};
    std::ofstream(dump + "/power-feeds.json") << dc.dump();
    CHECK_THAT(test::runRdt("import netbox " + dump + " -o " + t.path + "/d.yaml").out,
               Contains("power-feeds.json: results[1].supply") && Contains("is DC"));
    CHECK_FALSE(std::filesystem::exists(t.path + "/d.yaml"));
}

TEST_CASE("NetBox import: a custom field or position that is not a number is refused at its field",
          "[cli][netbox][bad-input]")
{
    // "rdt_gpu_power_cap": "600 W" (text) and "rdt_failed_fans": 1.5 were skipped without a word:
    // the slot was written without its cap, and rdt check ran its GPUs uncapped (21.9 kW, not 21.1).
    test::TempDir t;
    const std::string dump = t.path + "/dump";
    REQUIRE(test::runRdt("export netbox data/designs/single-rack.yaml -o " + dump).code == 0);
    const json dev = json::parse(std::ifstream(dump + "/devices.json"));
    std::size_t gt1 = 0;
    for (std::size_t i = 0; i < dev["results"].size(); ++i)
        if (dev["results"][i]["name"] == "gt1")
            gt1 = i;
    REQUIRE(dev["results"][gt1]["custom_fields"]["rdt_gpu_power_cap"] == 600);
    const std::string at = "devices.json: results[" + std::to_string(gt1) + "]";
    struct Case {
        const char* field;
        json value;
        const char* says; // empty: imported
    };
    const Case cases[] = {
        {"rdt_gpu_power_cap", "600 W", "it takes a number of watts per GPU"},
        {"rdt_gpu_power_cap", true, "it takes a number of watts per GPU"},
        {"rdt_gpu_power_cap", "600", ""}, // NetBox's text of a decimal field
        {"rdt_failed_fans", 1.5, "a whole number of failed rotors"},
        {"rdt_failed_fans", "one", "a whole number of failed rotors"},
        {"rdt_utilisation", "85 %", "a number of percent"},
        {"rdt_feed", 1, "it takes A or B"},
        {"position", "15", "it takes a number of OpenU"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.field, c.value.dump());
        json d = dev;
        const bool position = std::string(c.field) == "position";
        if (position)
            d["results"][gt1]["position"] = c.value;
        else
            d["results"][gt1]["custom_fields"][c.field] = c.value;
        std::ofstream(dump + "/devices.json") << d.dump();
        const std::string out = t.path + "/x.yaml";
        std::filesystem::remove(out);
        const test::Run r = test::runRdt("import netbox " + dump + " -o " + out);
        INFO(r.out);
        if (*c.says) {
            CHECK(r.code == 2);
            CHECK_THAT(r.out, Contains(at + (position ? ".position" : std::string(".custom_fields.") + c.field)) &&
                                  Contains("\"gt1\"") && Contains(c.says));
            CHECK_FALSE(std::filesystem::exists(out));
        } else {
            REQUIRE(r.code == 0);
            CHECK_THAT(core::readTextFile(out), Contains("id: \"gt1\", gpu_power_cap: 600 W"));
        }
    }
    // A line break in a device's name became a space in the slot's id, silently (trial, 2026-12-07).
    json broken = dev;
    broken["results"][gt1]["name"] = "gt\n1";
    std::ofstream(dump + "/devices.json") << broken.dump();
    const test::Run named = test::runRdt("import netbox " + dump + " -o " + t.path + "/n.yaml");
    CHECK(named.code == 2);
    CHECK_THAT(named.out, Contains(at + ".name") && Contains("\"gt\\n1\" has a control character"));
}

TEST_CASE("NetBox export: a feed in whole amperes never carries more than the design declared", "[cli][netbox][power]")
{
    // single-rack's feed carries 21.65 kW with the other lost. Declared at 21.64 kW it fails
    // power.feed.capacity. The export rounded the amperage up (38 A: 21.85 kW), and NetBox, which
    // recomputes available_power from the ratings on save, gave the feed back at 21.85 kW: the check
    // passed after a round trip (trust trial, 2026-12-07). Now 37 A (21.28 kW), said at export.
    test::TempDir t;
    const std::string base = t.path + "/base.yaml", dump = t.path + "/dump";
    std::ofstream(base) << singleRackWithFeeds("{A: 21.64 kW, B: 21.64 kW}");
    const auto feedErrors = [](const std::string& path) {
        const json v = verdicts(path);
        int n = 0;
        for (const json& x : v["violations"])
            n += x["rule"] == "power.feed.capacity" ? 1 : 0;
        return n;
    };
    REQUIRE(feedErrors(base) > 0);
    const test::Run ex = test::runRdt("export netbox " + base + " -o " + dump);
    REQUIRE(ex.code == 0);
    CHECK_THAT(ex.out, Contains("rack1-A: 37 A x 80 % at 415 V three-phase is 21277 W, under the declared 21640 W"));
    // As NetBox stores the feed: available_power recomputed from the ratings (here: left out).
    json feeds = json::parse(std::ifstream(dump + "/power-feeds.json"));
    for (json& f : feeds["results"]) {
        CHECK(f["amperage"] == 37);
        CHECK(f["power_panel"]["name"].get<std::string>().rfind("rack1-panel-", 0) == 0); // NetBox requires one
        CHECK(f["available_power"].get<double>() <= 21640.0);
        f.erase("available_power");
    }
    std::ofstream(dump + "/power-feeds.json") << feeds.dump();
    // Pages NetBox takes: slugs of lower-case letters, digits and hyphens; every device with a role.
    const json types = json::parse(std::ifstream(dump + "/device-types.json"));
    const std::string slugChars = "abcdefghijklmnopqrstuvwxyz0123456789-_";
    for (const json& ty : types["results"])
        CHECK(ty["manufacturer"]["slug"].get<std::string>().find_first_not_of(slugChars) == std::string::npos);
    CHECK(types["results"][0]["manufacturer"]["slug"] == "open-compute-project");
    const json devices = json::parse(std::ifstream(dump + "/devices.json"));
    for (const json& dev : devices["results"])
        CHECK_FALSE(dev["role"]["slug"].get<std::string>().empty());
    REQUIRE(test::runRdt("import netbox " + dump + " -o " + t.path + "/back.yaml --base " + base).code == 0);
    CHECK(feedErrors(t.path + "/back.yaml") == feedErrors(base));
    // A page whose available_power says more than its ratings (edited by hand) is read at the ratings.
    for (json& f : feeds["results"])
        f["available_power"] = 30000;
    std::ofstream(dump + "/power-feeds.json") << feeds.dump();
    REQUIRE(test::runRdt("import netbox " + dump + " -o " + t.path + "/edited.yaml --base " + base).code == 0);
    CHECK_THAT(core::readTextFile(t.path + "/edited.yaml"), Contains("under its available_power 30000 W"));
    CHECK(feedErrors(t.path + "/edited.yaml") == feedErrors(base));
}

TEST_CASE("NetBox export: a folder holding an earlier export's other pages is refused, nothing written",
          "[cli][netbox][bad-input]")
{
    // Exporting a design without feeds over one with them left power-feeds.json and cables.json,
    // which the import then read: feeds came back, 4 errors became 6 (trust trial, 2026-12-07).
    test::TempDir t;
    const std::string plain = t.path + "/plain.yaml", fed = t.path + "/fed.yaml", dump = t.path + "/dump";
    std::ofstream(plain) << core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    std::ofstream(fed) << singleRackWithFeeds("{A: 30 kW, B: 30 kW}");
    REQUIRE(test::runRdt("export netbox " + fed + " -o " + dump).code == 0);
    // The same pages: replaced, the folder named with or without its trailing slash.
    REQUIRE(test::runRdt("export netbox " + fed + " -o " + dump + "/").code == 0);
    const std::string devices = core::readTextFile(dump + "/devices.json");
    const test::Run again = test::runRdt("export netbox " + plain + " -o " + dump);
    CHECK(again.code == 2);
    CHECK_THAT(again.out,
               Contains("holds NetBox pages this export would not overwrite (cables.json, power-feeds.json)") &&
                   Contains("nothing was written"));
    CHECK(core::readTextFile(dump + "/devices.json") == devices);
    // More pages of an endpoint than this export writes: refused the same way.
    const std::string paged = t.path + "/paged";
    REQUIRE(test::runRdt("export netbox " + plain + " -o " + paged + " --page-size 2").code == 0);
    const test::Run whole = test::runRdt("export netbox " + plain + " -o " + paged);
    CHECK(whole.code == 2);
    CHECK_THAT(whole.out, Contains("devices-1.json"));
}

TEST_CASE("NetBox import: a rack's starting_unit and descending units place devices where NetBox shows them",
          "[cli][netbox]")
{
    // starting_unit and desc_units were ignored: a rack numbered from 10 put its switch at OU 50, over
    // the 44 usable (a false orv3.slot.range), and a rack numbered from the top came in upside down
    // without a word (trust trial, 2026-12-07).
    test::TempDir t;
    const std::string base = "data/designs/single-rack.yaml", dump = t.path + "/dump";
    REQUIRE(test::runRdt("export netbox " + base + " -o " + dump).code == 0);
    const json racks = json::parse(std::ifstream(dump + "/racks.json"));
    const json devices = json::parse(std::ifstream(dump + "/devices.json"));
    std::map<std::string, int> heightOf;
    const json types = json::parse(std::ifstream(dump + "/device-types.json"));
    for (const json& ty : types["results"])
        heightOf[ty["slug"].get<std::string>()] = ty["u_height"].get<int>();
    const int height = racks["results"][0]["u_height"].get<int>();
    const auto importWith = [&](const std::string& name, const std::function<void(json&, json&)>& edit) {
        json r = racks, d = devices;
        edit(r["results"][0], d);
        const std::string dir = t.path + "/" + name;
        std::filesystem::copy(dump, dir);
        std::ofstream(dir + "/racks.json") << r.dump();
        std::ofstream(dir + "/devices.json") << d.dump();
        return test::runRdt("import netbox " + dir + " -o " + t.path + "/" + name + ".yaml --base " + base);
    };
    const json expected = verdicts(base);
    const test::Run from10 = importWith("from10", [](json& rack, json& d) {
        rack["starting_unit"] = 10;
        for (json& x : d["results"])
            x["position"] = x["position"].get<int>() + 9;
    });
    INFO(from10.out);
    REQUIRE(from10.code == 0);
    CHECK(verdicts(t.path + "/from10.yaml") == expected);
    // Numbered from the top: a device's position is its top unit, counted down from the rack's first.
    const test::Run desc = importWith("desc", [&](json& rack, json& d) {
        rack["desc_units"] = true;
        for (json& x : d["results"])
            x["position"] =
                height - x["position"].get<int>() - heightOf.at(x["device_type"]["slug"].get<std::string>()) + 2;
    });
    INFO(desc.out);
    REQUIRE(desc.code == 0);
    CHECK(verdicts(t.path + "/desc.yaml") == expected);
    // Below the first unit, or past the bottom of a rack numbered from the top: refused at the device.
    const test::Run below = importWith("below", [](json& rack, json&) { rack["starting_unit"] = 2; });
    CHECK(below.code == 2);
    CHECK_THAT(below.out, Contains("devices.json: results[0].position") && Contains("outside rack"));
    const test::Run past = importWith("past", [&](json& rack, json& d) {
        rack["desc_units"] = true;
        for (json& x : d["results"]) // an 8 OU chassis whose top unit is 40 of 44, counted from the top
            if (heightOf.at(x["device_type"]["slug"].get<std::string>()) == 8)
                x["position"] = 40;
    });
    CHECK(past.code == 2);
    CHECK_THAT(past.out, Contains("numbered from the top (desc_units)"));
    const test::Run bad = importWith("bad", [](json& rack, json&) { rack["starting_unit"] = "ten"; });
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("racks.json: results[0].starting_unit"));
    // A position past any rack says so (it read "is not a whole number").
    const test::Run far = importWith("far", [](json&, json& d) { d["results"][0]["position"] = 123456789012345.0; });
    CHECK(far.code == 2);
    CHECK_THAT(far.out, Contains("results[0].position") && Contains("beyond any rack's units"));
    // NetBox's height of a device type that is not the catalog's is noted (it was taken silently).
    json tall = types;
    for (json& ty : tall["results"])
        if (ty["slug"] == "meta-grand-teton-h100")
            ty["u_height"] = 2;
    std::ofstream(dump + "/device-types.json") << tall.dump();
    const test::Run noted = test::runRdt("import netbox " + dump + " -o " + t.path + "/tall.yaml --base " + base);
    CHECK(noted.code == 0);
    CHECK_THAT(noted.out, Contains("device type meta-grand-teton-h100 is 2 U in NetBox and 8 OU in the catalog"));
}

TEST_CASE("NetBox import: the base design's own catalog folders hold the parts its devices name", "[cli][netbox]")
{
    // b200-rack.yaml lists `catalog: [b200-parts]`; its round trip was refused: "1 device types are
    // not in the catalog ... test-hgx-b200" (trust trial, 2026-12-07). The written design, elsewhere,
    // names the folder from where it is.
    test::TempDir t;
    const std::string base = "tests/fixtures/b200-rack.yaml", dump = t.path + "/dump", back = t.path + "/back.yaml";
    REQUIRE(test::runRdt("export netbox " + base + " -o " + dump).code == 0);
    const test::Run in = test::runRdt("import netbox " + dump + " -o " + back + " --base " + base);
    INFO(in.out);
    REQUIRE(in.code == 0);
    CHECK(verdicts(back) == verdicts(base));
    // A catalog folder the base names but that is not there: refused at the base's key.
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/" + base);
    text.replace(text.find("b200-parts"), 10, "no-such-parts");
    std::ofstream(t.path + "/base.yaml") << text;
    const test::Run missing =
        test::runRdt("import netbox " + dump + " -o " + back + " --base " + t.path + "/base.yaml");
    CHECK(missing.code == 2);
    CHECK_THAT(missing.out, Contains("base.yaml:") && Contains("no-such-parts\" not found"));
}

TEST_CASE("NetBox import: two locations that would become one row are refused, not merged", "[cli][netbox]")
{
    // cage1 → pod1 → row1 and cage2 → pod1 → row1 are different places in NetBox; rdt keeps a rack's
    // location (its row) and the parent (its pod), so their racks were merged into one row, silently
    // (trust trial, 2026-12-07).
    test::TempDir t;
    // single-rack without its port-to-port link, which names its chassis by their hall/row path.
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    const std::size_t portLink = text.find("  # One port-to-port link");
    REQUIRE(portLink != std::string::npos);
    text.erase(portLink);
    const std::string base = t.path + "/base.yaml", dump = t.path + "/dump";
    std::ofstream(base) << text;
    REQUIRE(test::runRdt("export netbox " + base + " -o " + dump).code == 0);
    json locations = json::parse(std::ifstream(dump + "/locations.json"));
    json racks = json::parse(std::ifstream(dump + "/racks.json"));
    const json site = locations["results"][0]["site"];
    const auto place = [&](long long id, const std::string& slug, long long parent) {
        locations["results"].push_back({{"id", id},
                                        {"name", slug},
                                        {"slug", slug},
                                        {"site", site},
                                        {"parent", parent > 0 ? json{{"id", parent}} : json(nullptr)}});
    };
    locations["results"] = json::array();
    place(10, "cage1", 0);
    place(11, "pod1", 10);
    place(12, "row1", 11);
    place(20, "cage2", 0);
    place(21, "pod1", 20);
    place(22, "row1", 21);
    locations["count"] = locations["results"].size();
    json second = racks["results"][0];
    second["id"] = 2;
    second["name"] = "rack2";
    second["location"] = {{"id", 22}, {"slug", "row1"}};
    racks["results"][0]["location"] = {{"id", 12}, {"slug", "row1"}};
    racks["results"].push_back(second);
    racks["count"] = 2;
    std::ofstream(dump + "/locations.json") << locations.dump();
    std::ofstream(dump + "/racks.json") << racks.dump();
    const auto importAs = [&](const std::string& name) {
        std::ofstream(dump + "/locations.json") << locations.dump();
        return test::runRdt("import netbox " + dump + " -o " + t.path + "/" + name + ".yaml --base " + base);
    };
    // The two pod1 locations would be one pod.
    const test::Run merged = importAs("m");
    CHECK(merged.code == 2);
    CHECK_THAT(merged.out, Contains("racks.json: results[1].location") && Contains("would both be pod lab/pod1"));
    // Distinct pods: two rows of two pods, and the levels above the pods are said to be dropped.
    locations["results"][4]["slug"] = "pod2";
    const test::Run two = importAs("two");
    INFO(two.out);
    REQUIRE(two.code == 0);
    CHECK_THAT(two.out,
               Contains("row lab/pod1/row1: its location's parent is its pod; the locations above are not kept"));
    CHECK_THAT(core::readTextFile(t.path + "/two.yaml"), Contains("id: \"pod2\""));
    // Two row1 locations under one pod would be one row.
    locations["results"][5]["parent"] = {{"id", 11}};
    const test::Run rows = importAs("rows");
    CHECK(rows.code == 2);
    CHECK_THAT(rows.out, Contains("racks.json: results[1].location") && Contains("would both be row lab/pod1/row1"));
    // A location slugged "racks" beside racks that have none: the same row, refused.
    locations["results"][5]["parent"] = nullptr;
    locations["results"][5]["slug"] = "racks";
    racks["results"][0].erase("location");
    std::ofstream(dump + "/racks.json") << racks.dump();
    const test::Run bare = importAs("bare");
    CHECK(bare.code == 2);
    CHECK_THAT(bare.out, Contains("racks without a location would both be row lab//racks"));
}
