// rdt-studio under Xvfb: the Problems panel gives each rule its own severity's icon. An info rule
// (thermal.exhaust.dt on broken-rack) wore the warning triangle, as if it were one.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStyle>
#include <QTreeWidget>

#include <map>
#include <string>

#include "analysis/Pipeline.h"
#include "gui/MainWindow.h"
#include "gui/ProblemsPanel.h"
#include "tests/gui/StudioWindow.h"

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
