#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "editor/Colouring.h"
#include "editor/Document.h"
#include "core/LayoutGeometry.h"
#include "editor/Recovery.h"
#include "editor/Selection.h"

using namespace rdt;
namespace fs = std::filesystem;

static const std::string kData = RDT_SOURCE_DIR "/data";

TEST_CASE("layout geometry places racks, rows and pods without overlap", "[editor][geometry]")
{
    const auto doc = editor::Document::open(kData + "/designs/meta-24k-roce.yaml", kData + "/catalog");
    const core::LayoutGeometry g = core::computeLayout(doc.design());
    REQUIRE(g.frames.size() == 1536);
    CHECK(g.parts.size() == 1536 * 7);
    // Neighbours in a row are one rack pitch apart; rows one frame depth plus an aisle.
    CHECK(g.frames[1].min[0] - g.frames[0].min[0] == Approx(0.6));
    CHECK(g.frames[16].min[1] - g.frames[0].min[1] == Approx(1.219 + 1.2)); // the HPR frame is 1,219 mm deep
    // No two rack frames overlap.
    for (std::size_t i = 0; i < g.frames.size(); i += 37)
        for (std::size_t j = i + 1; j < g.frames.size(); ++j) {
            const auto& a = g.frames[i];
            const auto& b = g.frames[j];
            const bool overlap = a.min[0] < b.max[0] - 1e-9 && b.min[0] < a.max[0] - 1e-9 &&
                                 a.min[1] < b.max[1] - 1e-9 && b.min[1] < a.max[1] - 1e-9;
            CHECK_FALSE(overlap);
        }
    // A Grand Teton at OU 6 spans 8 × 48 mm from 0.1 + 5 × 48 mm.
    const core::Box& gt0 = g.parts[4];
    CHECK(gt0.min[2] == Approx(0.1 + 5 * 0.048 + 0.001));
    CHECK(gt0.max[2] - gt0.min[2] == Approx(8 * 0.048 - 0.002));
    CHECK(core::ouAtHeight(core::ouBottomZ(17) + 0.01, 44) == 17);
    CHECK(core::ouAtHeight(100.0, 44) == 44);
    CHECK(g.boundsMax[0] > g.boundsMin[0]);
}

TEST_CASE("subject ids resolve to racks and slots", "[editor][selection]")
{
    const auto doc = editor::Document::open(kData + "/designs/single-rack.yaml", kData + "/catalog");
    const editor::SubjectIndex index(doc.design());
    const editor::SubjectRef gt1 = index.resolve("lab/row1/rack1/gt1");
    CHECK(gt1.rack == 0);
    CHECK(gt1.slot == 5);
    CHECK(index.resolve("lab/row1/rack1").slot == -1);
    CHECK(index.resolve("site").site);
    CHECK_FALSE(index.resolve("links/x").valid());
    CHECK(index.idOf(0, 5) == "lab/row1/rack1/gt1");
    editor::Selection sel;
    CHECK(sel.select("site"));
    CHECK_FALSE(sel.select("site"));
}

TEST_CASE("colourings: kind and problems", "[editor][colouring]")
{
    const auto doc = editor::Document::open(kData + "/designs/single-rack.yaml", kData + "/catalog");
    std::vector<core::Violation> v(1);
    v[0].subject = "lab/row1/rack1/gt0";
    v[0].severity = core::Severity::Error;
    auto colourings = editor::builtinColourings();
    REQUIRE(colourings.size() == 2);
    const editor::ColourContext ctx{doc.design(), v};
    colourings[1]->prepare(ctx);
    const editor::Rgb bad = colourings[1]->partColour(ctx, 0, 4);
    const editor::Rgb fine = colourings[1]->partColour(ctx, 0, 5);
    CHECK(bad.r > 0.8f);
    CHECK(bad.g < 0.3f);
    CHECK(fine.r < 0.8f);
    CHECK(colourings[0]->partColour(ctx, 0, 4).b == editor::kindColour(core::PartKind::Chassis).b);
    // An info is not a problem (Catalina's 78 infos painted its trays a warning's amber); a warning is.
    for (const core::Severity s : {core::Severity::Info, core::Severity::Warning}) {
        std::vector<core::Violation> one(1);
        one[0].subject = "lab/row1/rack1/gt0";
        one[0].severity = s;
        const editor::ColourContext c{doc.design(), one};
        colourings[1]->prepare(c);
        const editor::Rgb got = colourings[1]->partColour(c, 0, 4);
        if (s == core::Severity::Info)
            CHECK((got.r == fine.r && got.g == fine.g && got.b == fine.b));
        else
            CHECK((got.r > 0.9f && got.g > 0.5f && got.b < 0.3f)); // amber
    }
}

TEST_CASE("recovery files: written, found when newer, discarded", "[editor][recovery]")
{
    const fs::path dir = fs::temp_directory_path() / ("rdt-recovery-" + std::to_string(::getpid()));
    const fs::path doc = dir / "design.yaml";
    fs::create_directories(dir);
    std::ofstream(doc) << "rdt: 1\n";
    const editor::Recovery rec(dir / "recovery");
    CHECK_FALSE(rec.find(doc.string()));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    rec.write(doc.string(), "rdt: 1\nname: unsaved\n");
    const auto found = rec.find(doc.string());
    REQUIRE(found);
    CHECK(found->documentPath == fs::absolute(doc).lexically_normal().string());
    CHECK(editor::Recovery::read(*found) == "rdt: 1\nname: unsaved\n");
    CHECK(rec.list().size() == 1);
    // Saving the document afterwards makes the recovery copy stale.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::ofstream(doc) << "rdt: 1\nname: saved\n";
    fs::last_write_time(doc, fs::last_write_time(found->file) + std::chrono::seconds(1));
    CHECK_FALSE(rec.find(doc.string()));
    rec.discard(doc.string());
    CHECK(rec.list().empty());
    rec.write("", "untitled work");
    CHECK(rec.find("").has_value());
    fs::remove_all(dir);
}

TEST_CASE("field colourings: the worse end is red, no figure is grey, a fixed range holds", "[editor][colouring]")
{
    const auto doc = editor::Document::open(kData + "/designs/single-rack.yaml", kData + "/catalog");
    core::PartField hot;
    hot.name = "Test";
    hot.unit = "degC";
    hot.values = {std::vector<double>(doc.design().racks[0].slots.size(), NAN)};
    hot.values[0][5] = 30.0;
    hot.values[0][6] = 40.0;
    hot.autoRange();
    const std::vector<core::PartField> fields = {hot};
    const std::vector<core::Violation> none;
    editor::ColourContext ctx{doc.design(), none, &fields};
    editor::FieldColouring c("Test");
    c.prepare(ctx);
    REQUIRE(c.field());
    auto warmth = [](editor::Rgb x) { return x.r - x.b; };
    const editor::Rgb cool = c.partColour(ctx, 0, 5), warm = c.partColour(ctx, 0, 6), none0 = c.partColour(ctx, 0, 0);
    CHECK(warmth(warm) > warmth(cool) + 0.5f); // 40 °C at the red end, 30 °C at the blue end
    CHECK(none0.r == editor::noDataColour().r);
    // The scale is monotone from blue to red.
    for (int i = 1; i <= 20; ++i)
        CHECK(warmth(editor::scaleColour(i / 20.0)) > warmth(editor::scaleColour((i - 1) / 20.0)));
    // Lower is worse (a margin): the order flips.
    std::vector<core::PartField> margins = {hot};
    margins[0].higherIsWorse = false;
    editor::ColourContext ctx2{doc.design(), none, &margins};
    c.prepare(ctx2);
    CHECK(warmth(c.partColour(ctx2, 0, 5)) > warmth(c.partColour(ctx2, 0, 6)));
    // A fixed range: 30 °C sits mid-scale on 20 … 40 °C.
    const std::map<std::string, std::pair<double, double>> fixed = {{"Test", {20.0, 40.0}}};
    editor::ColourContext ctx3{doc.design(), none, &fields, &fixed};
    c.prepare(ctx3);
    CHECK(c.range().first == 20.0);
    CHECK(c.position(30.0) == Approx(0.5));
    // Results in, but no part with the figure: said so, not "no results yet" (Catalina's GPU junction).
    core::PartField empty = hot;
    empty.rule = "thermal.gpu.junction";
    empty.values = {std::vector<double>(doc.design().racks[0].slots.size(), NAN)};
    empty.autoRange();
    const std::vector<core::PartField> emptyFields = {empty};
    editor::ColourContext ctx4{doc.design(), none, &emptyFields};
    c.prepare(ctx4);
    REQUIRE(c.legend().size() == 1);
    CHECK(c.legend()[0].first == "no part has this figure (thermal.gpu.junction)");
    editor::ColourContext before{doc.design(), none, nullptr};
    c.prepare(before);
    CHECK(c.legend()[0].first == "no results yet");
}

TEST_CASE("anchored colourings: pass, near and fail bands from the field's own limits", "[editor][colouring]")
{
    const auto doc = editor::Document::open(kData + "/designs/single-rack.yaml", kData + "/catalog");
    const std::size_t slots = doc.design().racks[0].slots.size();
    REQUIRE(slots >= 7);
    // An inlet field: pass up to 27 °C (recommended), near to 35 °C (allowable), fail beyond.
    core::PartField inlet;
    inlet.name = "Inlet";
    inlet.unit = "degC";
    inlet.values = {std::vector<double>(slots, NAN)};
    inlet.values[0][2] = 20.0;
    inlet.values[0][3] = 30.0;
    inlet.values[0][4] = 35.0;   // at the limit: passes (the rule fails above it)
    inlet.values[0][5] = 35.001; // 1 mK over: fails
    inlet.goodEnd = 18.0;
    inlet.nearLimit = 27.0;
    inlet.limit = 35.0;
    inlet.badEnd = 39.25;
    inlet.minSpan = 0.1;
    inlet.limitLabel = "A2 allowable";
    inlet.autoRange();
    CHECK(inlet.band(0, 2) == core::PartField::Band::Pass);
    CHECK(inlet.band(0, 3) == core::PartField::Band::Near);
    CHECK(inlet.band(0, 4) == core::PartField::Band::Near);
    CHECK(inlet.band(0, 5) == core::PartField::Band::Fail);
    CHECK(inlet.band(0, 0) == core::PartField::Band::None);
    std::vector<core::PartField> fields = {inlet};
    const std::vector<core::Violation> none;
    editor::ColourContext ctx{doc.design(), none, &fields};
    editor::FieldColouring c("Inlet");
    c.prepare(ctx);
    REQUIRE(c.anchoredScale());
    const auto same = [](editor::Rgb a, editor::Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
    CHECK(same(c.partColour(ctx, 0, 5), editor::failColour()));
    CHECK_FALSE(same(c.partColour(ctx, 0, 4), editor::failColour()));
    CHECK(c.partColour(ctx, 0, 2).b > c.partColour(ctx, 0, 2).r + 0.3f); // pass: blue
    CHECK(c.partColour(ctx, 0, 3).r > c.partColour(ctx, 0, 3).b + 0.4f); // near: amber
    // The scale's range holds the limits' scale and every value: 18 … 39.25 °C.
    CHECK(c.range().first == 18.0);
    CHECK(c.range().second == 39.25);
    // A worse part never ranks below a better one (a rack box takes its worst part's colour).
    CHECK(c.badness(ctx, 0, 5) > c.badness(ctx, 0, 4));
    CHECK(c.badness(ctx, 0, 4) > c.badness(ctx, 0, 2));
    // The legend names the limit.
    bool named = false;
    for (const auto& [label, rgb] : c.legend())
        named = named || (label.find("35 °C A2 allowable") != std::string::npos && same(rgb, editor::failColour()));
    CHECK(named);
    // On the data's range: values 1 mK apart are one colour; the one over its limit stays red.
    fields[0].values[0] = std::vector<double>(slots, NAN);
    fields[0].values[0][2] = 30.000;
    fields[0].values[0][3] = 30.001;
    fields[0].values[0][4] = 36.0;
    fields[0].autoRange();
    const std::set<std::string> data = {"Inlet"};
    editor::ColourContext onData{doc.design(), none, &fields, nullptr, &data};
    c.prepare(onData);
    CHECK_FALSE(c.anchoredScale());
    CHECK(same(c.partColour(onData, 0, 4), editor::failColour()));
    CHECK_FALSE(same(c.partColour(onData, 0, 2), c.partColour(onData, 0, 3))); // 6 K apart from 36: a scale
    fields[0].values[0][4] = NAN;
    fields[0].autoRange();
    c.prepare(onData);
    CHECK(same(c.partColour(onData, 0, 2), c.partColour(onData, 0, 3))); // 1 mK: one colour
    bool flat = false;
    for (const auto& [label, rgb] : c.legend())
        flat = flat || label.find("all within 0.1 K") != std::string::npos;
    CHECK(flat);
}
