// The Sweep panel: a design study written by `rdt sweep -o` opens, lists its numeric axes and
// results, and plots one line per combination of the other axes.
#include <catch2/catch.hpp>

#include <QTemporaryDir>

#include <fstream>

#include "gui/LinePlot.h"
#include "gui/MainWindow.h"
#include "gui/SweepPanel.h"

using namespace rdt;

TEST_CASE("studio: a sweep's results plotted against an axis", "[gui][sweep]")
{
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const std::string spec = (dir.path() + "/s.yaml").toStdString(), out = (dir.path() + "/s.h5").toStdString();
    std::ofstream(spec) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n"
                           "  - {axis: inlet, values: [20 degC, 30 degC, 40 degC]}\n"
                           "  - {axis: gpu_cap, values: [500 W, 700 W]}\n";
    REQUIRE(std::system(("cd " RDT_SOURCE_DIR " && " RDT_BIN_DIR "/rdt sweep " + spec + " -o " + out + " > /dev/null")
                            .c_str()) == 256); // exit 1: the 40 degC variants violate thermal.inlet.chassis
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    REQUIRE(window.openSweep(QString::fromStdString(out)));
    gui::SweepPanel* p = window.sweepPanel();
    CHECK(p->status().contains("6 variants over 2 axes"));
    CHECK(p->axisChoices() == QStringList{"inlet", "gpu_cap"});
    CHECK(p->resultChoices().contains("max_inlet"));
    CHECK(p->resultChoices().contains("sustained_pflops_bf16"));
    REQUIRE(p->plot("inlet", "max_inlet"));
    CHECK(p->chart()->seriesCount() == 2); // one line per GPU cap
    REQUIRE(p->plot("gpu_cap", "sustained_pflops_bf16"));
    CHECK(p->chart()->seriesCount() == 3); // one line per inlet
    CHECK_FALSE(p->plot("humidity", "max_inlet"));
    // Not a sweep file: refused with its name.
    CHECK_FALSE(window.openSweep(RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml"));
    CHECK(window.lastError().contains("hil-rack.yaml"));
}
