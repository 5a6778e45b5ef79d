// rdt-studio under Xvfb: GPUs under cold plates, judged in the Thermal panel by their coolant loop's
// junction (as rdt check's clocks and liquid.gpu.junction judge them), a starved plate in red.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "analysis/Pipeline.h"
#include "gui/MainWindow.h"
#include "gui/ThermalPanel.h"
#include "liquid/LiquidDesign.h"
#include "tests/support/TextEdit.h"
#include "tests/gui/StudioWindow.h"

using namespace rdt;
using test::replaceAll;
using test::slurp;

static const QString kData = RDT_SOURCE_DIR "/data";

TEST_CASE("the Thermal panel judges GPUs under cold plates by their loop's junction", "[gui][panels][liquid]")
{
    // Until 2026-12-06 the chassis table showed the air's GPU junction for every chassis: a
    // liquid-cooled tray, whose air model has none, read "not checked" even when its starved plate
    // had stopped its GPUs. Its row now shows the loop's junction, as rdt check's clocks use it. The
    // Catalina example with trays that give r_jc, a GPU with its 95 degC limit, and each rack's ct05
    // on a cold-plate loop of 20,000 kPa at its reference flow (starved: tests/analysis/SignOffRound4).
    QTemporaryDir dir;
    const std::string root = dir.path().toStdString();
    std::filesystem::create_directories(root + "/parts");
    const std::string data = kData.toStdString();
    std::string gpu = slurp(data + "/catalog/nvidia-gb200-blackwell.yaml");
    replaceAll(gpu, "slug: nvidia-gb200-blackwell", "slug: x-gb200");
    replaceAll(gpu, "\n  min_power_cap:", "\n  max_operating_temp: {value: 95 degC, estimate: test}\n  min_power_cap:");
    std::ofstream(root + "/parts/x-gb200.yaml") << gpu;
    for (const auto& [slug, pressure] : {std::pair<std::string, std::string>{"x-tray", "50 kPa"}, {"x-tray-starved", "20000 kPa"}}) {
        std::string tray = slurp(data + "/catalog/meta-catalina-compute-tray.yaml");
        replaceAll(tray, "slug: meta-catalina-compute-tray", "slug: " + slug);
        replaceAll(tray, "part: nvidia-gb200-blackwell", "part: x-gb200");
        replaceAll(tray, "pressure: {value: 50 kPa", "pressure: {value: " + pressure);
        replaceAll(tray, "\n  liquid:", "\n  thermal:\n    r_jc: {value: 0.02 K/W, estimate: test}\n  liquid:");
        std::ofstream(root + "/parts/" + slug + ".yaml") << tray;
    }
    std::string text = slurp(data + "/designs/meta-catalina-gb200.yaml");
    replaceAll(text, "profile: default\n", "profile: default\ncatalog: [parts]\n");
    replaceAll(text, "part: meta-catalina-compute-tray", "part: x-tray");
    replaceAll(text, "{ou: 16, part: x-tray, id: ct05}", "{ou: 16, part: x-tray-starved, id: ct05}");
    const std::string path = root + "/starved.yaml";
    std::ofstream(path) << text;

    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(QString::fromStdString(path)));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("thermal"));
    QApplication::processEvents();
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    const analysis::RunResult r = analysis::run(o, quiet);
    REQUIRE(r.liquid);
    QTableWidget* t = f.window->thermal()->chassisTable();
    int judged = 0, starved = 0;
    for (const liquid::TrayLiquid& tray : r.liquid->trays) {
        if (!(tray.gpuW > 0))
            continue;
        for (int row = 0; row < t->rowCount(); ++row)
            if (t->item(row, 0)->text().toStdString() == tray.id) {
                CAPTURE(tray.id, tray.junctionC, t->item(row, 11)->text().toStdString());
                if (std::isinf(tray.junctionC)) {
                    // Its state names the liquid rules the tray fails (since 2026-12-06).
                    CHECK(t->item(row, 11)->text().startsWith("starved cold plate: GPUs stop ("));
                    CHECK(t->item(row, 11)->text().contains("liquid.plate.starved"));
                    ++starved;
                } else {
                    REQUIRE(std::isfinite(tray.junctionC));
                    CHECK(t->item(row, 8)->text().toDouble() == Approx(tray.junctionC).margin(0.051));
                    CHECK(t->item(row, 11)->text().contains("(cold plate)"));
                    ++judged;
                }
            }
    }
    CHECK(starved == 4);
    CHECK(judged > 0);
    CHECK(f.window->thermal()->headline().contains("cold plates are starved"));
}

TEST_CASE("the Thermal panel's state names the thermal rules each chassis fails, never ok beside one",
          "[gui][panels]")
{
    // broken-rack's chassis draw 38.7-38.9 degC air against A2's 35 degC allowable: each fails
    // thermal.inlet.chassis (rdt check: 5 errors), and their State column read "ok" (only throttling
    // reached it). Now it names every unwaived thermal or liquid rule of its own chassis, in red
    // for an error, the inlet figure in red beside it; rules of other kinds stay in Problems.
    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(kData + "/designs/broken-rack.yaml"));
    f.window->waitForChecks();
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = (kData + "/designs/broken-rack.yaml").toStdString();
    const analysis::RunResult r = analysis::run(o, quiet);
    QTableWidget* t = f.window->thermal()->chassisTable();
    int judged = 0;
    for (int row = 0; row < t->rowCount(); ++row) {
        const std::string id = t->item(row, 0)->text().toStdString();
        const QString state = t->item(row, 11)->text();
        CAPTURE(id, state.toStdString());
        bool inletError = false;
        for (const core::Violation& v : r.violations) {
            if (v.subject != id || v.waived)
                continue;
            const bool heat = v.rule.rfind("thermal.", 0) == 0 || v.rule.rfind("liquid.", 0) == 0;
            if (heat && v.severity != core::Severity::Info)
                CHECK(state.contains(QString::fromStdString(v.rule)));
            else
                CHECK_FALSE(state.contains(QString::fromStdString(v.rule)));
            inletError |= v.rule == "thermal.inlet.chassis" && v.severity == core::Severity::Error;
        }
        if (inletError) {
            CHECK_FALSE(state.startsWith("ok"));
            CHECK(t->item(row, 11)->foreground().color() == QColor(190, 40, 35));
            CHECK(t->item(row, 3)->foreground().color() == QColor(190, 40, 35));
            ++judged;
        }
    }
    CHECK(judged == 5);
}
