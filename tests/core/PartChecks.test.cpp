#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/MechanicalChecks.h"
#include "core/PartChecks.h"
#include "core/Rules.h"

using namespace rdt::core;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

static const std::string kRoot = RDT_SOURCE_DIR "/";
static const std::string kContrib = kRoot + "tests/fixtures/contrib/";

namespace {

/// What `rdt validate PART.yaml --profile NAME` does: the part alone in its own catalog, checked
/// against the shipped catalog with the core rules.
struct Validation {
    std::vector<Violation> violations;

    /// Violations of one rule.
    std::vector<Violation> of(const std::string& rule) const
    {
        std::vector<Violation> out;
        for (const Violation& v : violations)
            if (v.rule == rule)
                out.push_back(v);
        return out;
    }
    std::vector<std::string> rules() const
    {
        std::vector<std::string> out;
        for (const Violation& v : violations)
            out.push_back(v.rule);
        return out;
    }
};

const Catalog& reference()
{
    static const Catalog c = [] {
        Catalog k;
        k.loadDirectory(kRoot + "data/catalog");
        return k;
    }();
    return c;
}

Validation validateText(const std::string& text, const std::string& fileName, const std::string& profile = "ocp-strict")
{
    CheckRegistry reg;
    registerChecks(reg);
    Catalog single;
    const Part& part = single.loadText(text, fileName);
    const Profile p = Profile::load(kRoot + "data/rules/" + profile + ".yaml", reg);
    return Validation{runPartChecks(part, reference(), reg, p)};
}

Validation validateFile(const std::string& path, const std::string& profile = "ocp-strict")
{
    return validateText(readTextFile(path), path, profile);
}

/// A scratch folder for parts written by a test, removed afterwards.
struct ScratchDir {
    fs::path path;
    explicit ScratchDir(const std::string& name) : path(fs::temp_directory_path() / name)
    {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

} // namespace

TEST_CASE("every shipped part passes ocp-strict", "[rules][catalog][part]")
{
    std::size_t parts = 0;
    for (const auto& e : fs::directory_iterator(kRoot + "data/catalog")) {
        if (e.path().extension() != ".yaml" || e.path().filename() == "sources.yaml")
            continue;
        ++parts;
        const Validation v = validateFile(e.path().string());
        INFO(e.path().filename().string());
        for (const Violation& x : v.violations)
            INFO(x.rule << ": " << x.message);
        CHECK(v.violations.empty());
    }
    CHECK(parts >= 20);
}

TEST_CASE("a contributed part cites keys from a sources.yaml beside it and from its own sources: map",
          "[rules][catalog][part][sources]")
{
    // acme-x1 cites [ACME-DS1] from own-sources/sources.yaml; acme-s8 cites [ACME-UG] from its inline
    // sources: map and [ACME-DS1] from the folder; neither key is in data/catalog/sources.yaml.
    REQUIRE_FALSE(reference().sourceKeys().count("ACME-DS1"));
    const Validation gpu = validateFile(kContrib + "own-sources/acme-x1.yaml");
    CHECK(gpu.rules().empty());
    const Validation chassis = validateFile(kContrib + "own-sources/acme-s8.yaml");
    CHECK(chassis.rules().empty());

    Catalog c;
    const Part& p = c.loadFile(kContrib + "own-sources/acme-s8.yaml");
    REQUIRE(p.sources.count("ACME-UG"));
    CHECK(p.sources.at("ACME-UG").title == "Acme S8 system user guide, rev 1.1 (2025)");
    CHECK(p.sources.at("ACME-UG").loc.line == 7);
    CHECK(p.sources.count("ACME-DS1"));
}

TEST_CASE("an unknown source key still fails, located, with the nearest key", "[rules][catalog][part][sources]")
{
    ScratchDir dir("rdt-part-sources-unknown");
    dir.write("sources.yaml", "ACME-DS1: {title: \"Acme X1 datasheet\"}\n");
    const std::string path = dir.write("x.yaml", "manufacturer: Acme\nmodel: X\nslug: acme-x\nsource: \"[ACME-DS1]\"\n"
                                                 "rdt:\n  kind: gpu\n  tdp: {value: 800 W, source: \"[ACME-DS2]\"}\n");
    const auto v = validateFile(path).of("catalog.source.unknown");
    REQUIRE(v.size() == 1);
    CHECK_THAT(v[0].message, Contains("[ACME-DS2]") && Contains("did you mean \"ACME-DS1\""));
    CHECK(v[0].loc.file == path);
    CHECK(v[0].loc.line == 7);
    CHECK(v[0].severity == Severity::Error);
    // A file-level source: is located at its own line too.
    const std::string top = dir.write("y.yaml", "manufacturer: Acme\nmodel: Y\nslug: acme-y\nsource: \"[ACME-DS9]\"\n"
                                                "rdt:\n  kind: gpu\n  tdp: 800 W\n");
    const auto w = validateFile(top).of("catalog.source.unknown");
    REQUIRE(w.size() == 1);
    CHECK(w[0].loc.line == 4);
    CHECK(w[0].loc.path == "source");
}

TEST_CASE("a part's own source key may not redefine the catalog's", "[rules][catalog][part][sources]")
{
    const auto v =
        validateText(
            "manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[R3]\"\nsources:\n  R3: {title: \"My datasheet\"}\n"
            "rdt: {kind: gpu, tdp: 800 W}\n",
            "inline.yaml")
            .of("catalog.source.conflict");
    REQUIRE(v.size() == 1);
    CHECK_THAT(v[0].message, Contains("R3") && Contains("My datasheet") && Contains("choose a new key"));
    CHECK(v[0].loc.line == 6);
}

TEST_CASE("inline sources: are checked like sources.yaml", "[catalog][sources]")
{
    auto failure = [](const std::string& sources) {
        Catalog c;
        try {
            c.loadText("manufacturer: A\nmodel: B\nslug: a-b\nrdt: {kind: gpu}\nsources:\n" + sources, "s.yaml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(failure("  D1: {titel: x}\n"), Contains("s.yaml:6:8: sources.D1.titel: unknown field \"titel\""));
    CHECK_THAT(failure("  D1: {url: x}\n"), Contains("s.yaml:6:7: sources.D1: missing required field \"title\""));
    CHECK_THAT(failure("  \"D 1\": {title: x}\n"), Contains("source key \"D 1\" must be letters, digits or '-'"));
    CHECK(failure("  D1: {title: x, url: \"https://example.com\"}\n") == "no error");
}

TEST_CASE("a part naming a part that exists nowhere fails with file, line, field and a suggestion",
          "[rules][catalog][part][reference]")
{
    const std::string path = kContrib + "implausible/b300.yaml";
    const Validation v = validateFile(path, "default");
    CHECK(v.rules() == std::vector<std::string>{"catalog.part.reference"});
    const auto r = v.of("catalog.part.reference");
    REQUIRE(r.size() == 1);
    CHECK(r[0].severity == Severity::Error);
    CHECK(r[0].loc.file == path);
    CHECK(r[0].loc.line == 10);
    CHECK(r[0].loc.path == "rdt.gpus.part");
    CHECK_THAT(r[0].message,
               Contains("gpus.part names \"nvidia-b300-sxm\"") && Contains("(did you mean \"nvidia-b200-sxm\"?)"));
}

TEST_CASE("parts in the same folder resolve references, the wrong kind does not", "[rules][catalog][part][reference]")
{
    // acme-s8 names acme-x1, which only its folder holds.
    CHECK(validateFile(kContrib + "own-sources/acme-s8.yaml").of("catalog.part.reference").empty());

    const auto v = validateText("manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[R3]\"\n"
                                "rdt: {kind: chassis, ou_height: 2 OU, nics: {part: nvidia-h100-sxm5, count: 1}}\n",
                                "kind.yaml", "default")
                       .of("catalog.part.reference");
    REQUIRE(v.size() == 1);
    CHECK_THAT(v[0].message, Contains("a gpu, but needs a nic"));
}

TEST_CASE("a fan set point of 80 degF fails ocp-strict", "[rules][catalog][part][plausibility]")
{
    const Validation strict = validateFile(kContrib + "implausible/setpoint-degf.yaml");
    CHECK(strict.rules() == std::vector<std::string>{"catalog.fan.setpoint"});
    const auto v = strict.of("catalog.fan.setpoint");
    REQUIRE(v.size() == 1);
    CHECK(v[0].severity == Severity::Error);
    // (80 − 32) × 5/9 = 26.67 °C, below the 40 °C floor.
    CHECK(v[0].measured == Approx(26.667).epsilon(1e-4));
    CHECK(v[0].limit == Approx(40.0));
    CHECK(v[0].unit == "degC");
    CHECK(v[0].loc.line == 13);
    CHECK_THAT(v[0].message, Contains("\"80 degF\" (26.7 degC)"));
    // A warning by default: the part still validates, but says so.
    const auto lenient =
        validateFile(kContrib + "implausible/setpoint-degf.yaml", "default").of("catalog.fan.setpoint");
    REQUIRE(lenient.size() == 1);
    CHECK(lenient[0].severity == Severity::Warning);
}

TEST_CASE("a set point above the GPU's operating limit is implausible", "[rules][catalog][part][plausibility]")
{
    const auto v = validateText("manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[R3]\"\n"
                                "rdt: {kind: chassis, ou_height: 8 OU, gpus: {part: nvidia-h100-sxm5, count: 8},"
                                " fans: {count: 16, setpoint: 95 degC}}\n",
                                "hot.yaml")
                       .of("catalog.fan.setpoint");
    REQUIRE(v.size() == 1);
    CHECK(v[0].measured == Approx(95.0));
    CHECK(v[0].limit == Approx(87.0)); // H100 SXM5 max operating temperature [C5]
}

TEST_CASE("power.max 143 kW for an 8-GPU chassis fails", "[rules][catalog][part][plausibility]")
{
    const Validation strict = validateFile(kContrib + "implausible/power-143kw.yaml");
    CHECK(strict.rules() == std::vector<std::string>{"catalog.power.per_ou", "catalog.power.components"});
    // Per OU: 143 kW / 8 OU = 17.875 kW against 5 kW.
    const auto perOu = strict.of("catalog.power.per_ou");
    REQUIRE(perOu.size() == 1);
    CHECK(perOu[0].severity == Severity::Error);
    CHECK(perOu[0].measured == Approx(17.875));
    CHECK(perOu[0].limit == Approx(5.0));
    CHECK(perOu[0].unit == "kW");
    CHECK(perOu[0].loc.line == 14);
    // Named components: 8 × 700 W = 5.6 kW; 4 × 5.6 kW = 22.4 kW < 143 kW.
    const auto named = strict.of("catalog.power.components");
    REQUIRE(named.size() == 1);
    CHECK(named[0].measured == Approx(143.0));
    CHECK(named[0].limit == Approx(22.4));
    CHECK_THAT(named[0].message, Contains("25.5 times") && Contains("8 × 700 W GPUs"));
}

TEST_CASE("power.max below the named components fails, the Grand Teton's adds up",
          "[rules][catalog][part][plausibility]")
{
    // 8 × 700 W GPUs + 2 × 350 W CPUs = 6.3 kW > 5 kW.
    const auto low = validateText("manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[R3]\"\n"
                                  "rdt: {kind: chassis, ou_height: 8 OU, gpus: {part: nvidia-h100-sxm5, count: 8},"
                                  " cpus: {count: 2, tdp: 350 W}, power: {max: 5 kW}}\n",
                                  "low.yaml")
                         .of("catalog.power.components");
    REQUIRE(low.size() == 1);
    CHECK(low[0].measured == Approx(6.3));
    CHECK(low[0].limit == Approx(5.0));
    CHECK_THAT(low[0].message, Contains("below what its named components draw"));
    // Grand Teton: 8 × 700 + 2 × 350 + 8 × 25 (NICs) + 16 × 40 (fans) + 900 (platform) = 8,040 W, below its
    // power.max of about 10 kW and above a quarter of it; about 10 kW / 8 OU = 1.25 kW per OU.
    const Validation gt = validateFile(kRoot + "data/catalog/meta-grand-teton-h100.yaml");
    CHECK(gt.of("catalog.power.components").empty());
    CHECK(gt.of("catalog.power.per_ou").empty());
}

TEST_CASE("power.max is judged against the named components over the part's conversion efficiency",
          "[rules][catalog][part][plausibility]")
{
    // 8 × 700 W GPUs + 2 × 350 W CPUs = 6.3 kW of output; at 90 % conversion (flat curve) the part
    // draws 7.0 kW from its supply. power.max 6.99 kW is below that (it passed before: 6.3 < 6.99);
    // 7.01 kW is not.
    const auto part = [](const std::string& max) {
        return "manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[R3]\"\n"
               "rdt: {kind: chassis, ou_height: 8 OU, gpus: {part: nvidia-h100-sxm5, count: 8},"
               " cpus: {count: 2, tdp: 350 W}, conversion_efficiency: {value: [[10 %, 90 %], [100 %, 90 %]],"
               " estimate: test}, power: {max: " +
               max + "}}\n";
    };
    const auto low = validateText(part("6.99 kW"), "low.yaml").of("catalog.power.components");
    REQUIRE(low.size() == 1);
    CHECK(low[0].measured == Approx(7.0));
    CHECK(low[0].limit == Approx(6.99));
    CHECK_THAT(low[0].message, Contains("over 90 % conversion efficiency"));
    CHECK(validateText(part("7.01 kW"), "ok.yaml").of("catalog.power.components").empty());
    // The 2017 Big Basin v2: 3.44 kW named over 92 % is 3.74 kW; its power.max was 3.6 kW (below
    // its own full-fan draw, so a "nameplate" total that grew with the inlet), now 3.75 kW.
    CHECK(validateFile(kRoot + "data/catalog/meta-big-basin-v2.yaml").of("catalog.power.components").empty());
}

TEST_CASE("a temperature in the wrong unit is outside the physical range", "[rules][catalog][part][plausibility]")
{
    // 87 K is −186 °C: a limit written in K instead of degC.
    const auto v = validateText("manufacturer: A\nmodel: B\nslug: a-b\nsource: \"[C5]\"\n"
                                "rdt:\n  kind: gpu\n  tdp: 700 W\n  max_operating_temp: 87 K\n",
                                "cold.yaml")
                       .of("catalog.temperature.range");
    REQUIRE(v.size() == 1);
    CHECK(v[0].subject == "a-b/max_operating_temp");
    CHECK(v[0].measured == Approx(87 - 273.15));
    CHECK(v[0].limit == Approx(-40.0));
    CHECK(v[0].loc.line == 8);
    CHECK(v[0].severity == Severity::Error);
}

TEST_CASE("an unsourced curve is flagged like an unsourced number", "[rules][catalog][part][provenance]")
{
    const auto v = validateText("manufacturer: A\nmodel: B\nslug: a-b\n"
                                "rdt:\n  kind: chassis\n  ou_height: {value: 2 OU, estimate: \"x\"}\n"
                                "  fans:\n    curve: [[0 CFM, 500 Pa], [100 CFM, 0 Pa]]\n",
                                "curve.yaml")
                       .of("catalog.provenance");
    REQUIRE(v.size() == 1);
    CHECK(v[0].subject == "a-b/fans.curve");
    CHECK(v[0].severity == Severity::Error);
}

TEST_CASE("a part 1 mm over the frame depth says so in digits that differ", "[rules][catalog][part]")
{
    // "depth 1.22 m exceeds 1.22 m [1220 vs limit 1219 mm]" read as a contradiction.
    const std::string part = "manufacturer: Example\nmodel: D\nslug: test-d\nsource: \"[R3]\"\n"
                             "weight: {value: 20 kg, estimate: test}\nrdt:\n  kind: switch\n  ou_height: 1 OU\n"
                             "  width: {value: 500 mm, estimate: test}\n  depth: {value: DEPTH, estimate: test}\n"
                             "  busbar_tap: true\n  power:\n    max: {value: 1 kW, estimate: test}\n";
    auto with = [&](const std::string& depth) {
        std::string t = part;
        t.replace(t.find("DEPTH"), 5, depth);
        return validateText(t, "d.yaml");
    };
    CHECK(with("1219 mm").of("catalog.part.depth").empty());
    const auto over = with("1220 mm").of("catalog.part.depth");
    REQUIRE(over.size() == 1);
    CHECK_THAT(over[0].message, Catch::Matchers::Contains("depth 1.22 m exceeds 1.219 m"));
}
