// rdt-studio under Xvfb: the Problems panel gives each rule its own severity's icon. An info rule
// (thermal.exhaust.dt on broken-rack) wore the warning triangle, as if it were one.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStyle>
#include <QTreeWidget>

#include <fstream>
#include <map>
#include <string>

#include "analysis/Pipeline.h"
#include "gui/InspectorPanel.h"
#include "gui/MainWindow.h"
#include "gui/Studio.h"
#include "gui/ThroughputPanel.h"
#include "gui/ProblemsPanel.h"
#include "core/Yaml.h"
#include "tests/gui/StudioWindow.h"
#include "tests/support/TempDir.h"

using namespace rdt;

TEST_CASE("the Problems panel's icon for each rule is its severity's: error, warning, info", "[gui][panels]")
{
    const std::string path = RDT_SOURCE_DIR "/data/designs/broken-rack.yaml";
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    const analysis::RunResult r = analysis::run(o, quiet);
    std::map<std::string, std::string> severity;
    for (const core::Violation& v : r.violations)
        severity[v.rule] = std::string(core::severityName(v.severity));

    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(QString::fromStdString(path)));
    f.window->waitForChecks();
    QTreeWidget* tree = f.window->problems()->tree();
    const auto image = [tree](QStyle::StandardPixmap p) { return tree->style()->standardIcon(p).pixmap(16).toImage(); };
    const std::map<std::string, QImage> icons = {{"error", image(QStyle::SP_MessageBoxCritical)},
                                                 {"warning", image(QStyle::SP_MessageBoxWarning)},
                                                 {"info", image(QStyle::SP_MessageBoxInformation)}};
    REQUIRE(icons.at("info") != icons.at("warning"));
    std::map<std::string, int> seen;
    // Errors first, then warnings, then infos (the rules' alphabetical order put errors under warnings).
    const std::map<std::string, int> rank = {{"error", 0}, {"warning", 1}, {"info", 2}};
    int last = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* g = tree->topLevelItem(i);
        const std::string rule = g->text(0).section(' ', 0, 0).toStdString();
        CAPTURE(rule);
        REQUIRE(severity.count(rule));
        const std::string shown = g->data(0, gui::ProblemsPanel::kSeverityRole).toString().toStdString();
        CHECK(rank.at(shown) >= last);
        last = rank.at(shown);
        CHECK(shown == severity.at(rule));
        CHECK(g->icon(0).pixmap(16).toImage() == icons.at(severity.at(rule)));
        ++seen[shown];
    }
    CHECK(seen["info"] >= 1); // thermal.exhaust.dt
    CHECK(seen["warning"] >= 1);
    CHECK(seen["error"] >= 1);
}

TEST_CASE("the inspector judges no shelf figure of a rack that is not fed", "[gui][panels]")
{
    // broken-rack's rack-c has no power shelf: the inspector read "Shelf capacity ✓ 0 W", "N+1
    // capacity ✓ 0 W" and "Battery hold-up ✓ 0 s" beside rdt check's orv3.power.source error.
    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml"));
    f.window->waitForChecks();
    REQUIRE(f.window->studio().select("lab/row1/rack-c"));
    auto* inspector = f.window->findChild<gui::InspectorPanel*>();
    REQUIRE(inspector);
    bool source = false;
    for (const gui::InspectorPanel::Verdict& v : inspector->verdicts()) {
        CAPTURE(v.rule);
        if (v.rule == "orv3.power.source") {
            source = true;
            CHECK(v.failed);
        }
        for (const char* notJudged : {"orv3.shelf.capacity", "orv3.shelf.n1", "orv3.bbu.holdup", "orv3.busbar.voltage"})
            CHECK(v.rule != notJudged);
    }
    CHECK(source);
    // A fed rack keeps its rows: rack-a.
    REQUIRE(f.window->studio().select("lab/row1/rack-a"));
    bool capacity = false;
    for (const gui::InspectorPanel::Verdict& v : inspector->verdicts())
        capacity = capacity || v.rule == "orv3.shelf.capacity";
    CHECK(capacity);
}

TEST_CASE("the throughput panel never shows nan: an A100 has no FP8 figure", "[gui][throughput]")
{
    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(RDT_SOURCE_DIR "/data/designs/meta-rsc-a100.yaml"));
    f.window->waitForChecks();
    gui::ThroughputPanel* p = f.window->throughput();
    REQUIRE(p->classRows() >= 1);
    for (int r = 0; r < p->classRows(); ++r)
        for (int c = 0; c < 7; ++c) {
            CAPTURE(r, c, p->classCell(r, c).toStdString());
            CHECK_FALSE(p->classCell(r, c).contains("nan", Qt::CaseInsensitive));
        }
    CHECK(p->classCell(0, 6) == "— (no FP8)");
    CHECK(p->classCell(0, 5).endsWith("TFLOPS"));
}

TEST_CASE("the Problems panel tells a value just over its limit apart from the limit", "[gui][panels]")
{
    // A feed 0.87 W over its circuit read "22.51 kW" measured against "22.51 kW" limit (trust trial,
    // 2026-12-07); rdt check's text printed 22.507 against 22.506. The cells now carry as many
    // figures as tell them apart.
    test::TempDir t;
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    const std::string type = "rack_type: orv3-hpr\n";
    REQUIRE(text.find(type) != std::string::npos);
    text.insert(text.find(type) + type.size(), "              feeds: {A: 21652 W, B: 21652 W}\n");
    const std::string path = t.path + "/tight-feed.yaml";
    std::ofstream(path) << text;
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    const analysis::RunResult r = analysis::run(o, quiet);
    const core::Violation* feed = nullptr;
    for (const core::Violation& v : r.violations)
        if (v.rule == "power.feed.capacity")
            feed = &v;
    REQUIRE(feed);
    // Close enough that four figures cannot tell them apart: the case this test is for.
    REQUIRE(feed->measured > feed->limit);
    REQUIRE(QString::number(feed->measured, 'g', 4) == QString::number(feed->limit, 'g', 4));

    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(QString::fromStdString(path)));
    f.window->waitForChecks();
    QTreeWidget* tree = f.window->problems()->tree();
    int rows = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* g = tree->topLevelItem(i);
        if (!g->text(0).startsWith("power.feed.capacity "))
            continue;
        for (int k = 0; k < g->childCount(); ++k) {
            const QString measured = g->child(k)->text(2), limit = g->child(k)->text(3);
            INFO(measured.toStdString() << " against " << limit.toStdString());
            CHECK(measured != limit);
            CHECK(measured.section(' ', 0, 0).toDouble() > limit.section(' ', 0, 0).toDouble());
            ++rows;
        }
    }
    CHECK(rows >= 1);
}
