// rdt-studio under Xvfb: the signal panel shows a link's verdict with its rules' findings, as rdt
// check's text, JSON and HDF5 do (the studio built its own signal result and never applied them:
// a port-to-port DAC too short for its run read "pass" there and "fail (signal.cable.reach)" in
// every other output).
#include <catch2/catch.hpp>

#include <QApplication>
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
        CHECK(s->table()->item(0, 8)->text().toStdString() == check.signal->links.front().verdict);
    }
}
