// The studio's panels against the verdicts: the Power table's figures coloured by the rules that judge
// them, as JSON gives them; Link margin in the fail band where a link rule fails (trust trials,
// 2026-12-07).
#include <catch2/catch.hpp>

#include <QApplication>
#include <QTableWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/Pipeline.h"
#include "gui/MainWindow.h"
#include "gui/PowerPanel.h"
#include "gui/Studio.h"
#include "report/CheckFormats.h"
#include "tests/gui/StudioWindow.h"

using namespace rdt;
using Catch::Matchers::Contains;

TEST_CASE("the power panel's numbers are the JSON's", "[gui][power]")
{
    test::StudioWindow f;
    REQUIRE(f.window->openFile(QString(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml")));
    f.window->waitForChecks();
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = (QString(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml")).toStdString();
    const nlohmann::json j = report::checkJson(analysis::run(o, progress));
    QTableWidget* t = f.window->power()->table();
    REQUIRE(t->rowCount() == 3);
    int matched = 0;
    for (const auto& rack : j["power"]["racks"])
        for (int row = 0; row < t->rowCount(); ++row)
            if (t->item(row, 0)->text().toStdString() == rack["id"].get<std::string>()) {
                CHECK(t->item(row, 1)->text() == QString::number(rack["it_load_W"].get<double>() / 1e3, 'f', 2));
                CHECK(t->item(row, 2)->text() == QString::number(rack["modelled_load_W"].get<double>() / 1e3, 'f', 2));
                CHECK(t->item(row, 5)->text() == QString::number(rack["busbar_current_A"].get<double>(), 'f', 1));
                const bool fits = rack["fits"].get<bool>();
                CHECK((t->item(row, 10)->text() == "fits") == fits);
                // Each figure is red exactly where the JSON's failures name the rule that judges it
                // (the table was uncoloured: rack-a's 21.9 kW against 15.0 kW N+1 read like a pass).
                const std::vector<std::string> failures = rack["failures"].get<std::vector<std::string>>();
                auto failsRule = [&](const char* r) {
                    return std::find(failures.begin(), failures.end(), r) != failures.end();
                };
                const std::pair<int, const char*> judged[] = {{0, "orv3.power.source"},   {1, "orv3.shelf.capacity"},
                                                              {3, "orv3.shelf.n1"},       {4, "orv3.feed.loss"},
                                                              {5, "orv3.busbar.current"}, {7, "orv3.busbar.current"},
                                                              {8, "orv3.bbu.holdup"}};
                for (const auto& cell : judged) {
                    INFO(rack["id"].get<std::string>() << " column " << cell.first);
                    CHECK((t->item(row, cell.first)->foreground().color() == QColor(190, 40, 35)) ==
                          failsRule(cell.second));
                }
                // A rack without a power shelf has no N+1 or hold-up figure: "–", not a passing 0.
                if (failsRule("orv3.power.source")) {
                    CHECK(t->item(row, 3)->text() == "–");
                    CHECK(t->item(row, 8)->text() == "–");
                }
                ++matched;
            }
    CHECK(matched == 3);
    CHECK_THAT(f.window->power()->headline().toStdString(), Contains("3 racks over budget"));
    // Per rule, as `rdt check` lists them (waived ones said so: tests/cli/ProfileWaiver.test.cpp).
    CHECK_THAT(f.window->power()->headline().toStdString(),
               Contains("over budget (orv3.bbu.holdup 2, orv3.busbar.current 1, orv3.power.source 1, "
                        "orv3.shelf.capacity 1, orv3.shelf.n1 1)"));
    // The facility's AC is for the fed load only, said as `rdt check` says it.
    CHECK_THAT(f.window->power()->headline().toStdString(),
               Contains("facility AC 36.3 kW for the fed load (10.2 kW in racks without a power shelf is not fed)"));
}

TEST_CASE("Link margin colours a chassis whose cable cannot reach as failing", "[gui][signal]")
{
    // broken-rack: rack-a's gt0 needs 2.47 m of cable where the class's DAC is 1 m (signal.cable.reach):
    // it was coloured "pass ≥ 1 dB" by the class's 6.8 dB COM margin.
    test::StudioWindow f;
    REQUIRE(f.window->openFile(QString(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml")));
    f.window->waitForChecks();
    const core::PartField* margin = nullptr;
    for (const core::PartField& fl : *f.window->studio().fields())
        if (fl.name == "Link margin")
            margin = &fl;
    REQUIRE(margin);
    const core::Design& d = f.window->studio().design();
    int seen = 0;
    for (std::size_t r = 0; r < d.racks.size(); ++r)
        for (std::size_t s = 0; s < d.racks[r].slots.size(); ++s)
            if (d.racks[r].slots[s].id == "lab/row1/rack-a/gt0" || d.racks[r].slots[s].id == "lab/row1/rack-a/gt1") {
                CHECK(margin->band(static_cast<int>(r), static_cast<int>(s)) == core::PartField::Band::Fail);
                ++seen;
            }
    CHECK(seen == 2);
}

TEST_CASE("the Power panel's headline counts the CDUs' draw as rdt check does", "[gui][power][liquid]")
{
    // Catalina's eight AALC units draw 20 kW at nameplate (11.9 kW modelled) beside the IT load: the
    // panel left them out, so a liquid design's CDU power appeared nowhere in the app (studio trial).
    test::StudioWindow f;
    REQUIRE(f.window->openFile(QString(RDT_SOURCE_DIR "/data/designs/meta-catalina-gb200.yaml")));
    f.window->waitForChecks();
    CHECK_THAT(f.window->power()->headline().toStdString(), Contains("+ 8 CDUs 20.0 kW (modelled 11.9 kW)"));
    // An air-cooled design has none to count.
    REQUIRE(f.window->openFile(QString(RDT_SOURCE_DIR "/data/designs/broken-rack.yaml")));
    f.window->waitForChecks();
    CHECK_THAT(f.window->power()->headline().toStdString(), !Contains("CDU"));
}
