#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/Catalog.h"
#include "core/Design.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static const std::string kData = RDT_SOURCE_DIR "/data";

static Catalog shipped()
{
    Catalog c;
    c.loadDirectory(kData + "/catalog");
    c.resolve();
    return c;
}

TEST_CASE("the shipped catalog holds the parts the foundation promises", "[catalog]")
{
    const Catalog c = shipped();
    for (const char* slug :
         {"orv3-standard", "orv3-600a", "orv3-hpr", "orv3-power-shelf-6x3kw", "orv3-hpr-power-shelf-6x5p5kw",
          "orv3-bbu-shelf-6x3kw", "meta-grand-teton-h100", "nvidia-h100-sxm5", "nvidia-h200-sxm", "nvidia-b200-sxm",
          "nvidia-connectx7-400g", "meta-minipack2", "meta-wedge400", "arista-7816r3", "dac-400g-osfp-2m",
          "optic-400g-dr4-osfp"})
        CHECK(c.find(slug) != nullptr);

    const Part& gt = *c.find("meta-grand-teton-h100");
    CHECK(gt.kind == PartKind::Chassis);
    CHECK(gt.value("gpus.count", 0) == 8);
    CHECK(gt.text("gpus.part") == "nvidia-h100-sxm5");
    CHECK(gt.value("fans.count", 0) == 16);
    CHECK(gt.busbarTap);
    CHECK(gt.interfaces.size() >= 8);
    const Part& h100 = *c.find("nvidia-h100-sxm5");
    CHECK(h100.value("tdp", 0) == 700.0);
    CHECK(h100.value("slowdown_temp", 0) == Approx(89 + 273.15));
    const Part& std3 = *c.find("orv3-standard");
    CHECK(std3.value("busbar_rating", 0) == 375.0);
    CHECK(std3.value("usable_ou", 0) == 44);
    CHECK(std3.value("max_payload", 0) == 1400.0);
    const Part& shelf = *c.find("orv3-power-shelf-6x3kw");
    CHECK(shelf.value("modules", 0) * shelf.value("module_rating", 0) == 18000.0);
    CHECK(shelf.value("efficiency_peak", 0) == Approx(0.975));
}

TEST_CASE("every number in the shipped catalog has a source or an estimate, and sources resolve", "[catalog]")
{
    const Catalog c = shipped();
    REQUIRE(c.sourceKeys().size() > 50);
    std::size_t numbers = 0;
    for (const std::string& slug : c.slugs()) {
        const Part& p = *c.find(slug);
        for (const auto& [field, v] : p.values) {
            ++numbers;
            INFO(slug << " " << field);
            CHECK(v.provenance.kind != Provenance::Kind::None);
            CHECK_FALSE(v.provenance.text.empty());
            if (v.provenance.kind == Provenance::Kind::Source) {
                const auto keys = Catalog::citedKeys(v.provenance.text);
                CHECK_FALSE(keys.empty());
                for (const auto& k : keys)
                    CHECK(c.sourceKeys().count(k) == 1);
            }
        }
    }
    CHECK(numbers > 150);
}

TEST_CASE("a NetBox devicetype file loads as-is", "[catalog][netbox]")
{
    Catalog c;
    const Part& p = c.loadFile(RDT_SOURCE_DIR "/tests/fixtures/netbox/edgecore-as7726-32x.yaml");
    CHECK(p.slug == "edgecore-as7726-32x");
    CHECK(p.kind == PartKind::Device);
    CHECK(p.ouHeight == 1); // 1 RU (44.45 mm) fits one 48 mm OpenU
    CHECK(p.value("weight", 0) == Approx(9.6));
    CHECK(p.value("power.max", 0) == 550.0); // redundant PSUs: the largest port, not the sum
    CHECK(p.interfaces.size() == 3);
    CHECK(p.airflow == "front-to-rear");
    // NetBox fields rdt does not interpret are kept verbatim.
    CHECK(p.netbox["console-ports"].IsSequence());
    CHECK(p.netbox["module-bays"].size() == 2);
    CHECK(p.netbox["part_number"].as<std::string>() == "AS7726-32X");
}

TEST_CASE("a 2 RU NetBox device needs 2 OpenU", "[catalog][netbox]")
{
    Catalog c;
    CHECK(c.loadText("manufacturer: X\nmodel: Y\nslug: x-y\nu_height: 2\n", "n.yaml").ouHeight == 2);
    CHECK(c.loadText("manufacturer: X\nmodel: Z\nslug: x-z\nu_height: 3\n", "n.yaml").ouHeight == 3);
    // 4 RU = 177.8 mm fits in 4 OU = 192 mm; 16 RU = 711 mm fits in 15 OU = 720 mm.
    CHECK(c.loadText("manufacturer: X\nmodel: W\nslug: x-w\nu_height: 16\n", "n.yaml").ouHeight == 15);
}

TEST_CASE("bad catalog input is located", "[catalog]")
{
    auto failure = [](const std::string& text) {
        Catalog c;
        try {
            c.loadText(text, "bad.yaml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nu_hieght: 1\n"),
               Contains("bad.yaml:4:1: u_hieght: unknown field \"u_hieght\" (did you mean \"u_height\"?)"));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: Bad Slug\nu_height: 1\n"), Contains("slug \"Bad Slug\""));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nrdt: {kind: chassis, ou_height: 2 OU, tdp: 700 W}\n"),
               Contains("unknown field \"tdp\""));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nrdt: {kind: gpu, tdp: 700}\n"),
               Contains("rdt.tdp: missing unit"));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nrdt: {kind: gpus}\n"),
               Contains("unknown part kind \"gpus\" (did you mean \"gpu\"?)"));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nrdt: {kind: chassis}\n"), Contains("needs rdt.ou_height"));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nrdt: {kind: gpu, ou_height: 1 OU}\n"),
               Contains("does not take rack slots"));
    CHECK_THAT(failure("manufacturer: X\nmodel: Y\nslug: x\nweight: 9\nweight_unit: stone\nu_height: 1\n"),
               Contains("bad.yaml:4:9: weight: unknown unit \"stone\""));
}

TEST_CASE("bad power data in the catalog is located", "[catalog][power]")
{
    auto failure = [](const std::string& rdt) {
        Catalog c;
        try {
            c.loadText("manufacturer: X\nmodel: Y\nslug: x\nrdt:\n" + rdt, "p.yaml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string shelf = "  kind: power-shelf\n  ou_height: 1 OU\n  modules: 6\n  module_rating: 3 kW\n";
    CHECK_THAT(failure(shelf + "  efficiency_peak: 0 %\n"),
               Contains("p.yaml:9:20: rdt.efficiency_peak") && Contains("must be greater than zero"));
    CHECK_THAT(failure(shelf + "  efficiency_peak: 101 %\n"), Contains("outside the allowed range"));
    CHECK_THAT(failure(shelf + "  efficiency_curve: [[10 %, 90 %], [50 %, 120 %]]\n"),
               Contains("outside the allowed range"));
    CHECK_THAT(failure(shelf + "  efficiency_curve: [[10 %, 90 %]]\n"), Contains("at least two points"));
    CHECK_THAT(failure(shelf + "  efficiency_curve: [[50 %, 90 %], [50 %, 95 %]]\n"), Contains("strictly increasing"));
    CHECK_THAT(failure(shelf + "  slots: 4\n"), Contains("a shelf with 4 slots cannot hold 6 modules"));
    CHECK_THAT(failure(shelf + "  module_rating: -3 kW\n"), Contains("duplicate key"));
    CHECK_THAT(failure("  kind: power-shelf\n  ou_height: 1 OU\n  modules: 6\n  module_rating: -3 kW\n"),
               Contains("rdt.module_rating: must be greater than zero"));
    // A shelf whose output is 0 V (it was taken, and the busbar "collapsed" with clocks at the
    // minimum cap), and a rack type whose busbar window starts at 0 V (I = P / 0).
    CHECK_THAT(failure(shelf + "  output_voltage: 0 V\n"),
               Contains("p.yaml:9:19: rdt.output_voltage") && Contains("must be greater than zero"));
    CHECK_THAT(failure("  kind: rack\n  usable_ou: 44\n  busbar_min_voltage: 0 V\n"),
               Contains("rdt.busbar_min_voltage") && Contains("must be greater than zero"));
    CHECK_THAT(failure("  kind: rack\n  usable_ou: 44\n"),
               Contains("a rack type needs busbar_rating") && Contains("busbar: none"));
    // A rack without a busbar (19 in, Open Rack v2 at 12 V) says so, and then has no rating.
    CHECK_THAT(failure("  kind: rack\n  usable_ou: 38\n  busbar: 12 V\n"), Contains("busbar: takes only \"none\""));
    // A text field's error at its own line (a bad cdu.type or busbar was located at line 1).
    CHECK_THAT(failure("  kind: rack\n  usable_ou: 38\n  busbar: 12 V\n"), Contains("p.yaml:7:"));
    CHECK_THAT(failure("  kind: cdu\n  cdu:\n    type: liquid-to-gas\n"),
               Contains("p.yaml:7:") && Contains("rdt.cdu.type") && Contains("liquid-to-liquid"));
    CHECK_THAT(failure("  kind: rack\n  usable_ou: 38\n  busbar: none\n  busbar_rating: 375 A\n"),
               Contains("a rack with busbar: none has no busbar_rating"));
    CHECK_THAT(failure("  kind: chassis\n  ou_height: 2 OU\n  power: {idle: 3 kW, max: 2 kW}\n"),
               Contains("power.idle 3 kW exceeds power.max 2 kW"));
    CHECK_THAT(failure("  kind: chassis\n  ou_height: 2 OU\n  fans: {count: 0, curve: [[0 m3/s, 500 Pa], [0.1 m3/s, 0 Pa]]}\n"),
               Contains("rdt.fans.count") && Contains("fans.count is 0 but the part has a fans.curve"));
    // A typical draw above the maximum (or below idle) passed at load until 2026-12-07; equal is allowed.
    const std::string chassis = "  kind: chassis\n  ou_height: 2 OU\n";
    CHECK(failure(chassis + "  power: {idle: 1 kW, typical: 2 kW, max: 2 kW}\n") == "no error");
    CHECK_THAT(failure(chassis + "  power: {idle: 1 kW, typical: 2.01 kW, max: 2 kW}\n"),
               Contains("rdt.power.typical") && Contains("power.typical 2.01 kW exceeds power.max 2 kW"));
    CHECK_THAT(failure(chassis + "  power: {idle: 1.5 kW, typical: 1.4 kW, max: 2 kW}\n"),
               Contains("rdt.power.idle") && Contains("power.idle 1.5 kW exceeds power.typical 1.4 kW"));
    // A GPU's limits below its shutdown: a max_operating_temp of 97 degC over a 92 degC shutdown
    // passed a junction of 93 degC (a GPU that had shut down) until 2026-12-06.
    const std::string gpu = "  kind: gpu\n  shutdown_temp: 92 degC\n  slowdown_temp: 89 degC\n";
    CHECK(failure(gpu + "  max_operating_temp: 87 degC\n") == "no error");
    CHECK_THAT(failure(gpu + "  max_operating_temp: 97 degC\n"),
               Contains("p.yaml:8:") && Contains("rdt.max_operating_temp") &&
                   Contains("max_operating_temp 97 degC is not below shutdown_temp 92 degC"));
    CHECK_THAT(failure("  kind: gpu\n  shutdown_temp: 92 degC\n  slowdown_temp: 92 degC\n"),
               Contains("slowdown_temp 92 degC is not below shutdown_temp"));
}

TEST_CASE("duplicate slugs and dangling component references are errors", "[catalog]")
{
    Catalog c;
    c.loadText("manufacturer: X\nmodel: Y\nslug: x\nu_height: 1\n", "a.yaml");
    CHECK_THROWS_WITH(c.loadText("manufacturer: X\nmodel: Y\nslug: x\nu_height: 1\n", "b.yaml"),
                      Contains("duplicate slug \"x\" (also defined in a.yaml)"));
    c.loadText(
        "manufacturer: X\nmodel: C\nslug: c\nrdt: {kind: chassis, ou_height: 2 OU, gpus: {part: nope, count: 8}}\n",
        "c.yaml");
    // Located at the field (line 4, column 52), not at the top of the file.
    CHECK_THROWS_WITH(c.resolve(), Contains("c.yaml:4:52: rdt.gpus.part: unknown catalog entry \"nope\""));
}

TEST_CASE("a design's catalog folder resolves its references at the field, with a suggestion", "[catalog]")
{
    const std::string dir = RDT_SOURCE_DIR "/tests/fixtures/contrib/implausible";
    Catalog c;
    c.loadDirectory(kData + "/catalog");
    c.loadDirectory(dir);
    CHECK_THROWS_WITH(c.resolve(), Contains(dir + "/b300.yaml:10:16: rdt.gpus.part: unknown catalog entry "
                                                  "\"nvidia-b300-sxm\" (did you mean \"nvidia-b200-sxm\"?)"));
}

TEST_CASE("a design loads contributed parts with their own sources", "[catalog][sources]")
{
    // own-sources/ holds a sources.yaml and a chassis with an inline sources: map.
    const Design d = loadDesign(RDT_SOURCE_DIR "/tests/fixtures/contrib/own-sources-design.yaml", kData + "/catalog");
    REQUIRE(d.racks.size() == 1);
    CHECK(d.racks[0].slots.back().part->slug == "acme-s8");
    CHECK(d.catalog->sourceKeys().count("ACME-DS1") == 1); // from own-sources/sources.yaml
    CHECK(d.catalog->find("acme-s8")->sources.count("ACME-UG") == 1);
    CHECK(d.catalog->sourceKeys().count("ACME-UG") == 0); // inline keys stay with their part
}

TEST_CASE("a folder's sources.yaml may not give a catalog key another meaning", "[catalog][sources]")
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "rdt-catalog-source-conflict";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "sources.yaml") << "# mine\nR3: {title: \"My own R3\"}\n";
    Catalog c;
    c.loadDirectory(kData + "/catalog");
    CHECK_THROWS_WITH(c.loadDirectory(dir.string()),
                      Contains((dir / "sources.yaml").string() + ":2:5: R3: source key R3 is already defined with "
                                                                 "another title at") &&
                          Contains("data/catalog/sources.yaml:"));
    // The same key with the same title (a copied entry) is fine.
    std::ofstream(dir / "sources.yaml") << "R3: {title: \"" + c.sourceKeys().at("R3").title + "\"}\n";
    Catalog again;
    again.loadDirectory(kData + "/catalog");
    CHECK_NOTHROW(again.loadDirectory(dir.string()));
    fs::remove_all(dir);
}

TEST_CASE("cited source keys are extracted", "[catalog]")
{
    CHECK(Catalog::citedKeys("[R3] [R8] and [M6b]") == std::vector<std::string>{"R3", "R8", "M6b"});
    CHECK(Catalog::citedKeys("no keys").empty());
}
