// rdt-studio under Xvfb: the signal panel shows a link's verdict with its rules' findings, as rdt
// check's text, JSON and HDF5 do (the studio built its own signal result and never applied them:
// a port-to-port DAC too short for its run read "pass" there and "fail (signal.cable.reach)" in
// every other output).
#include <catch2/catch.hpp>

#include <QApplication>
#include <QHeaderView>
#include <QSize>
#include <QTableWidget>
#include <QTemporaryDir>

#include <fstream>
#include <string>

#include "analysis/Pipeline.h"
#include "gui/MainWindow.h"
#include "gui/SignalPanel.h"
#include "gui/Studio.h"
#include "tests/gui/StudioWindow.h"

using namespace rdt;

namespace {

/// Two Grand Tetons in one HPR rack, gt1 at `gt1Ou`, one 1 m DAC from gt0:nic0 to gt1:nic0: its run
/// is 11 x 48 mm + 0.5 m = 1.028 m at OU 17 (too short), 0.98 m at OU 16 (tests/analysis/SignOffRound3).
std::string bringUp(int gt1Ou)
{
    return "rdt: 1\nname: verdicts\nsite: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}\n"
           "layout: {halls: [{id: lab, rows: [{id: row1, racks: [{id: rack1, rack_type: orv3-hpr, slots: [\n"
           "  {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A},\n"
           "  {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B},\n"
           "  {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a},\n"
           "  {ou: 6, part: meta-grand-teton-h100, id: gt0},\n"
           "  {ou: " +
           std::to_string(gt1Ou) +
           ", part: meta-grand-teton-h100, id: gt1}]}]}]}]}\n"
           "links:\n"
           "  - {class: bring-up, medium: copper, from: \"lab/row1/rack1/gt0:nic0\", to: \"lab/row1/rack1/gt1:nic0\", "
           "cable: dac-400g-osfp-1m}\n";
}

} // namespace

TEST_CASE("the signal panel's verdicts are rdt check's, the link rules' findings applied", "[gui][signal]")
{
    QTemporaryDir dir;
    for (const int ou : {16, 17}) {
        CAPTURE(ou);
        const std::string path = dir.path().toStdString() + "/bring-up-" + std::to_string(ou) + ".yaml";
        std::ofstream(path) << bringUp(ou);
        analysis::RunOptions o;
        o.designPath = path;
        core::Progress quiet;
        const analysis::RunResult check = analysis::run(o, quiet);
        REQUIRE(check.signal);
        REQUIRE(check.signal->links.size() == 1);
        const std::string expected = ou == 16 ? std::string("pass") : "fail (signal.cable.reach)";
        CHECK(check.signal->links.front().verdict.find(expected) != std::string::npos);

        test::StudioWindow f(1600, 1000);
        REQUIRE(f.window->openFile(QString::fromStdString(path)));
        f.window->waitForChecks();
        const auto sig = f.window->studio().signal();
        REQUIRE(sig);
        REQUIRE(sig->links.size() == 1);
        CHECK(sig->links.front().verdict == check.signal->links.front().verdict);
        CHECK(sig->links.front().pass == check.signal->links.front().pass);
        gui::SignalPanel* s = f.window->signalPanel();
        REQUIRE(s->table()->rowCount() == 1);
        const QTableWidgetItem* cell = s->table()->item(0, gui::SignalPanel::kVerdictColumn);
        CHECK(cell->text().toStdString() == check.signal->links.front().verdict);
        CHECK(cell->foreground().color() == (ou == 16 ? gui::SignalPanel::kPassColour : gui::SignalPanel::kFailColour));
    }
}

TEST_CASE("the signal panel's verdict column is in view at the studio's usual sizes", "[gui][signal]")
{
    // At the table's end it sat past the panel's right edge at 1600 px: verdicts a reviewer never saw.
    for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
        CAPTURE(size.width());
        test::StudioWindow f(size.width(), size.height());
        REQUIRE(f.window->openFile(RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml"));
        f.window->waitForChecks();
        REQUIRE(f.window->showPanel("signal"));
        QApplication::processEvents();
        const QTableWidget* t = f.window->signalPanel()->table();
        REQUIRE(t->isVisible());
        REQUIRE(t->rowCount() > 0);
        const int col = gui::SignalPanel::kVerdictColumn;
        CHECK(t->horizontalHeaderItem(col)->text() == "Verdict");
        const int left = t->columnViewportPosition(col);
        CHECK(left >= 0);
        // The verdict's words fit: its column's right edge, or at least its widest text, is within view.
        const int textWidth = t->fontMetrics().horizontalAdvance(t->item(0, col)->text());
        CHECK(left + textWidth <= t->viewport()->width());
        // A class that passes with a warning rule's finding (the example's negotiated-down rates) is
        // amber, as its warning is in the problems list; one without is green.
        const auto sig = f.window->studio().signal();
        REQUIRE(sig);
        int warned = 0;
        for (int row = 0; row < t->rowCount(); ++row) {
            const signal::LinkVerdict& v = sig->links[static_cast<std::size_t>(row)];
            REQUIRE(v.pass);
            CHECK(v.warned == (v.verdict.find("warning (link.rate.mismatch)") != std::string::npos));
            warned += v.warned ? 1 : 0;
            CHECK(t->item(row, col)->foreground().color() ==
                  (v.warned ? gui::SignalPanel::kWarnColour : gui::SignalPanel::kPassColour));
        }
        CHECK(warned == 2);
    }
}

TEST_CASE("a class's verdict colour: red on an error rule, amber on warnings or a fallback rate", "[gui][signal]")
{
    using gui::SignalPanel;
    signal::LinkVerdict v;
    v.pass = true;
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kPassColour);
    v.warned = true; // a negotiated-down rate (link.rate.mismatch)
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kWarnColour);
    // Closes only at a fallback rate: amber, with signal.link.rate's finding or where that rule is
    // waived, off or info (no finding): it runs, slower; rdt check has no error for it.
    v = {};
    v.laneRateGbps = 50;
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kWarnColour);
    v.warned = true;
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kWarnColour);
    // An error rule fails it (a DAC too short for its run) whatever rate it would close at.
    v.warned = false;
    v.ruleFailed = true;
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kFailColour);
    // Closes at no rate.
    v = {};
    CHECK(SignalPanel::verdictColour(v) == SignalPanel::kFailColour);
}
