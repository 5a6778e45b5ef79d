#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "editor/Document.h"
#include "editor/Recovery.h"
#include "editor/YamlPath.h"
#include "support/RuleHarness.h"

using namespace rdt;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

static const std::string kData = RDT_SOURCE_DIR "/data";

static editor::Document open(const std::string& name)
{
    return editor::Document::open(kData + "/designs/" + name, kData + "/catalog");
}

/// Everything an expansion says about the layout, for equality after round trips.
static std::vector<std::string> fingerprint(const core::Design& d)
{
    std::vector<std::string> out;
    for (const core::Rack& r : d.racks) {
        out.push_back(r.id + " " + r.rackType->slug);
        for (const core::Slot& s : r.slots)
            out.push_back(s.id + " " + s.part->slug + " " + std::to_string(s.ou) + " " +
                          std::to_string(s.overrides.gpuPowerCapW.value_or(-1)) + " " + s.overrides.feed);
    }
    for (const core::LinkClass& l : d.links)
        out.push_back(l.id + " " + std::to_string(l.count));
    return out;
}

TEST_CASE("yaml paths address the loader's document paths", "[editor][path]")
{
    const YAML::Node root = YAML::Load("a: {b: [x, {c: 5}]}\n");
    CHECK(editor::nodeAt(root, "a.b[1].c").as<int>() == 5);
    CHECK_FALSE(editor::nodeAt(root, "a.b[7]").IsDefined());
    CHECK(editor::parsePath("templates.gt-rack.slots[4]").size() == 4);
    YAML::Node r = YAML::Clone(root);
    editor::replaceAt(r, "a.b[0]", YAML::Node("y"));
    CHECK(r["a"]["b"][0].as<std::string>() == "y");
    CHECK(root["a"]["b"][0].as<std::string>() == "x"); // the original is untouched
    CHECK_THROWS(editor::replaceAt(r, "nope.x", YAML::Node(1)));
}

TEST_CASE("place a chassis, undo, redo", "[editor][edit]")
{
    editor::Document doc = open("single-rack.yaml");
    const std::string body = doc.design().racks[0].bodyPath;
    const auto before = fingerprint(doc.design());
    const editor::Proposal p = doc.placeSlot(body, "meta-grand-teton-h100", 30);
    INFO(p.refusal);
    REQUIRE(p);
    CHECK_THAT(p.edit->description, Contains("Place meta-grand-teton-h100 at OU 30"));
    doc.apply(*p.edit);
    REQUIRE(doc.design().racks[0].slots.size() == 8);
    CHECK(doc.design().racks[0].slots.back().ou == 30);
    CHECK(doc.design().summary().gpus == 24);
    const auto after = fingerprint(doc.design());
    doc.revert(*p.edit);
    CHECK(fingerprint(doc.design()) == before);
    doc.apply(*p.edit);
    CHECK(fingerprint(doc.design()) == after);
}

TEST_CASE("refused placements say why", "[editor][edit]")
{
    const editor::Document doc = open("single-rack.yaml");
    const std::string body = doc.design().racks[0].bodyPath;
    // gt0 occupies OU 6–13.
    editor::Proposal p = doc.placeSlot(body, "meta-grand-teton-h100", 10);
    CHECK_FALSE(p);
    CHECK_THAT(p.refusal, Contains("overlaps gt0") && Contains("OU 6–13"));
    p = doc.placeSlot(body, "meta-grand-teton-h100", 40);
    CHECK_THAT(p.refusal, Contains("would reach OU 47") && Contains("44 usable OU"));
    p = doc.placeSlot(body, "nvidia-h100-sxm5", 30);
    CHECK_THAT(p.refusal, Contains("does not go in a rack slot"));
    p = doc.moveSlot(body, 4, 14); // gt0 onto gt1 (15–22)
    CHECK_THAT(p.refusal, Contains("overlaps gt1"));
    CHECK(doc.moveSlot(body, 4, 30));
    // Field edits go through the loader: a missing unit is refused with its message.
    p = doc.setSlotField(body, 4, "gpu_power_cap", "650");
    CHECK_THAT(p.refusal, Contains("missing unit"));
    p = doc.setSlotField(body, 4, "gpu_power_cap", "900 W");
    CHECK_THAT(p.refusal, Contains("outside the allowed range"));
    CHECK(doc.setSlotField(body, 4, "gpu_power_cap", "650 W"));
    CHECK_THAT(doc.setSiteField("supply_air", "hot").refusal, Contains("not a number"));
}

TEST_CASE("editing a template changes every rack stamped from it", "[editor][edit][template]")
{
    editor::Document doc = open("meta-24k-roce.yaml");
    const std::string body = doc.design().racks[0].bodyPath;
    CHECK(body == "templates.gt-rack");
    CHECK(doc.instancesOf(body) == 1536);
    CHECK(doc.describeBody(body) == "template gt-rack — 1536 racks");
    const editor::Proposal p = doc.removeSlot(body, 5); // gt1
    REQUIRE(p);
    doc.apply(*p.edit);
    CHECK(doc.design().summary().gpus == 12288);
    doc.revert(*p.edit);
    CHECK(doc.design().summary().gpus == 24576);
}

TEST_CASE("save and reload round-trip equal, and a failing save keeps the old file", "[editor][save]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-editor-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* name : {"meta-24k-roce.yaml", "single-rack.yaml", "broken-rack.yaml"}) {
        INFO(name);
        editor::Document doc = open(name);
        if (std::string(name) == "broken-rack.yaml")
            fs::copy(kData + "/designs/broken-parts", dir / "broken-parts",
                     fs::copy_options::recursive | fs::copy_options::skip_existing);
        const std::string target = (dir / name).string();
        doc.saveAs(target);
        const editor::Document again = editor::Document::open(target, kData + "/catalog");
        CHECK(fingerprint(again.design()) == fingerprint(doc.design()));
        CHECK(again.design().site.supplyAirK == doc.design().site.supplyAirK);
        CHECK(again.text() == doc.text());      // saving is stable
        CHECK(again.text().rfind("#", 0) == 0); // the leading comment block is kept
    }
    // Saving into a missing folder fails and writes nothing.
    editor::Document doc = open("single-rack.yaml");
    CHECK_THROWS_AS(doc.saveAs((dir / "missing" / "x.yaml").string()), core::InputError);
    // Saving over a folder fails; the folder and its content survive.
    fs::create_directories(dir / "blocked.yaml" / "inner");
    CHECK_THROWS_AS(doc.saveAs((dir / "blocked.yaml").string()), core::InputError);
    CHECK(fs::is_directory(dir / "blocked.yaml" / "inner"));
    for (const auto& e : fs::directory_iterator(dir))
        CHECK(e.path().string().find(".tmp-") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a blank document is a valid design", "[editor]")
{
    const editor::Document doc = editor::Document::blank(kData + "/catalog");
    CHECK(doc.path().empty());
    CHECK(doc.design().racks.size() == 1);
    CHECK(doc.placeSlot(doc.design().racks[0].bodyPath, "meta-grand-teton-h100", 2));
}

TEST_CASE("a design without site: opens and its site can be edited and undone exactly", "[editor][site]")
{
    // rdt-studio opens a file with Document::open, then the inspector shows the site fields of the
    // document as written. rdt check accepts a design without site: (the loader's defaults apply);
    // the studio refused it: reading the site fields threw on the missing section.
    const std::string path = RDT_SOURCE_DIR "/tests/fixtures/editor/no-site.yaml";
    const core::Design checked = core::loadDesign(path, kData + "/catalog");
    editor::Document doc = editor::Document::open(path, kData + "/catalog");
    CHECK(doc.design().site.supplyAirK == checked.site.supplyAirK);
    for (const char* key : {"supply_air", "altitude", "humidity", "ashrae_class"})
        CHECK(doc.siteField(key).empty());
    const editor::Document written = editor::Document::fromText(
        "site: {supply_air: 25 degC}\n" + rdt::test::oneRack("orv3-600a", "{ou: 1, part: orv3-power-shelf-6x3kw}"),
        "w.yaml", kData + "/catalog");
    CHECK(written.siteField("supply_air") == "25 degC");
    CHECK(written.siteField("altitude").empty());

    // Setting a field adds the section; undo removes it again instead of leaving `site: ~`.
    const std::string before = doc.text();
    const editor::Proposal p = doc.setSiteField("supply_air", "30 degC");
    INFO(p.refusal);
    REQUIRE(p);
    doc.apply(*p.edit);
    CHECK(doc.siteField("supply_air") == "30 degC");
    CHECK(doc.design().site.supplyAirK == Approx(303.15));
    doc.revert(*p.edit);
    CHECK(doc.text() == before);
    CHECK_FALSE(editor::nodeAt(doc.root(), "site").IsDefined());
    CHECK(doc.design().site.supplyAirK == checked.site.supplyAirK);
}

TEST_CASE("every design rdt check accepts opens in the studio's document", "[editor][site]")
{
    // The studio's path: Document::open, then the site inspector and an edit proposal on the first rack.
    std::vector<fs::path> designs;
    for (const auto& dir :
         {fs::path(kData) / "designs", fs::path(RDT_SOURCE_DIR "/tests/fixtures"),
          fs::path(RDT_SOURCE_DIR "/tests/fixtures/editor"), fs::path(RDT_SOURCE_DIR "/tests/fixtures/contrib")})
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".yaml")
                designs.push_back(e.path());
    std::size_t accepted = 0;
    for (const fs::path& d : designs) {
        INFO(d.string());
        try {
            core::loadDesign(d.string(), kData + "/catalog");
        } catch (const core::InputError&) {
            continue; // rdt check refuses it too
        }
        ++accepted;
        const editor::Document doc = editor::Document::open(d.string(), kData + "/catalog");
        for (const char* key : {"supply_air", "altitude", "humidity", "ashrae_class"})
            CHECK_NOTHROW(doc.siteField(key));
        CHECK_NOTHROW(doc.setSiteField("supply_air", "24 degC"));
        CHECK_NOTHROW(doc.placeSlot(doc.design().racks.front().bodyPath, "meta-minipack2", 44));
    }
    CHECK(accepted >= 7);
}

TEST_CASE("studio saves and autosaves are crash-safe: SIGKILL mid-save leaves the previous file intact",
          "[editor][save][slow]")
{
    // A child process saves the document over and over through the studio's own code (Document::saveAs,
    // Recovery::write); the test SIGKILLs it at random points, 25 times, and reads the file back each time.
    const fs::path dir = fs::temp_directory_path() / ("rdt-save-kill-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string target = (dir / "design.yaml").string();
    editor::Document doc = open("meta-24k-roce.yaml");
    doc.saveAs(target);
    const std::string expected = doc.text();
    const editor::Recovery recovery(dir / "recovery");
    recovery.write(target, expected);
    const fs::path recoveryFile = recovery.fileFor(target);
    const std::string expectedRecovery = [&] {
        std::ifstream in(recoveryFile, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    REQUIRE(expectedRecovery.find(expected) != std::string::npos);

    std::mt19937 rng(20261201);
    std::uniform_int_distribution<int> delayUs(2000, 60000);
    for (int k = 0; k < 25; ++k) {
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            try {
                for (;;) {
                    doc.saveAs(target);
                    recovery.write(target, expected);
                }
            } catch (...) {
            }
            ::_exit(3);
        }
        ::usleep(static_cast<useconds_t>(delayUs(rng)));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        CHECK(WIFSIGNALED(status)); // killed while saving, not ended by an error
        std::ifstream in(target, std::ios::binary);
        const std::string now(std::istreambuf_iterator<char>(in), {});
        CHECK(now == expected); // the previous file or the new one, both complete — never a part
        std::ifstream rin(recoveryFile, std::ios::binary);
        CHECK(std::string(std::istreambuf_iterator<char>(rin), {}) == expectedRecovery);
        // And it loads.
        CHECK_NOTHROW(editor::Document::open(target, kData + "/catalog"));
    }
    // Killed saves leave temporaries; the next save removes them.
    doc.saveAs(target);
    recovery.write(target, expected);
    int left = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        left += e.path().filename().string().find(".tmp-") != std::string::npos;
    CHECK(left == 0);
    std::error_code ec;
    fs::remove_all(dir, ec);
}
