// The room field in rdt-studio: a design with `thermal: {model: field}` shows the Air toolbar, a
// temperature slice without the racks' cells, streamlines from the exhausts and the scalar bar
// over the field's own range; the slice's colours follow the temperatures (cold aisle dark, hot
// aisle light in the rendered pixels).
#include <catch2/catch.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gui/FieldLayer.h"
#include "gui/MainWindow.h"
#include "gui/SceneView.h"
#include "gui/Studio.h"
#include "gui/VtkWidget.h"
#include "gui/WhatIfBar.h"
#include "room/OpenFoamExport.h"
#include "room/RoomThermal.h"

using namespace rdt;

namespace {

/// `source` (a path under the repository) with `from` replaced by `to`, written as `dir`/`name`;
/// the path. `from` must occur in it.
QString editedCopy(const QTemporaryDir& dir, const char* source, const std::string& from, const std::string& to,
                   const QString& name)
{
    std::ifstream in(source);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    const QString path = dir.path() + "/" + name;
    std::ofstream(path.toStdString()) << text;
    return path;
}

} // namespace

TEST_CASE("studio: the room field as a slice, streamlines and a scalar bar", "[gui][field]")
{
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const QString path = RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml";
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.openFile(path));
    window.waitForChecks();
    gui::FieldLayer* field = window.scene()->field();
    REQUIRE(field->hasField());
    const auto thermal = window.studio().thermal();
    REQUIRE(room::fieldOf(*thermal));
    const room::RoomField& room = room::fieldOf(*thermal)->rooms.front();

    // Horizontal slice through the chassis: every air cell of that layer, none of the racks'.
    window.scene()->setFieldView(true, true, false, 2, 0.25);
    const room::FieldGrid& g = room.solver->grid();
    const int layer = static_cast<int>(0.25 * g.cells(2));
    long air = 0;
    for (int j = 0; j < g.cells(1); ++j)
        for (int i = 0; i < g.cells(0); ++i)
            air += room.solver->solid(i, j, layer) ? 0 : 1;
    CHECK(field->sliceCells() == air);
    CHECK(air < static_cast<long>(g.cells(0)) * g.cells(1)); // the racks cut holes in it
    CHECK(field->streamlinePoints() > 100);
    // The iso-surface at the design's recommended inlet limit (ASHRAE A2: 27 degC): the exhaust
    // plumes pass it, so it is not empty.
    CHECK(field->isoValueC() == Approx(27.0));
    CHECK(field->isoSurfacePoints() > 100);
    // The scale spans the supply air to the hottest air in the room.
    CHECK(field->range()[0] <= 25.0);
    CHECK(field->range()[1] > 35.0);

    // Rendered from above: the cold aisle (between the rows) shows bluer than the hot aisle
    // behind a row, where the exhaust leaves.
    window.scene()->setFieldView(true, false, false, 2, 0.25);
    window.scene()->setCamera(gui::SceneView::Preset::Top);
    for (int i = 0; i < 10; ++i)
        QApplication::processEvents(QEventLoop::AllEvents, 30);
    const QImage img = window.scene()->vtk()->grabFramebuffer();
    REQUIRE(!img.isNull());
    // Project a cold-aisle point and a hot-aisle point (layout coordinates) to the image.
    const auto& boxes = room.geometry.boxes;
    const auto& o = room.geometry.origin;
    const double midX = o[0] + 0.5 * (boxes.front().min[0] + boxes.front().max[0]);
    double coldY = 0, hotY = 0;
    for (const auto& b : boxes)
        if (b.intake == room::Side::YMax) { // row a: its front faces +y, the cold aisle beyond
            coldY = o[1] + b.max[1] + 0.6;
            hotY = o[1] + b.min[1] - 0.45;
        }
    const double z = o[2] + g.centre(2, layer);
    auto pixel = [&](double x, double y) {
        const QPoint p = window.scene()->worldOnScreen({x, y, z});
        REQUIRE(img.rect().contains(p));
        return img.pixelColor(p);
    };
    const QColor cold = pixel(midX, coldY), hot = pixel(midX, hotY);
    INFO("cold aisle pixel " << cold.name().toStdString() << ", hot aisle pixel " << hot.name().toStdString());
    // The air's map is sequential (viridis, issue 34: not the parts' blue-to-red bands): warmer
    // air is brighter.
    const auto luma = [](const QColor& c) { return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue(); };
    CHECK(luma(hot) > luma(cold) + 40);
}

TEST_CASE("studio: a room field solve can be cancelled", "[gui][field]")
{
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const QString path = RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml";
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    int cancelled = 0, finished = 0;
    QObject::connect(&window.studio(), &gui::Studio::checksCancelled, [&] { ++cancelled; });
    QObject::connect(&window.studio(), &gui::Studio::checksFinished, [&] { ++finished; });
    QStringList messages;
    QObject::connect(&window.studio(), &gui::Studio::checksMessage, [&](const QString& m) { messages << m; });
    REQUIRE(window.openFile(path));
    REQUIRE(window.studio().checksRunning()); // the solve runs in the background
    // Cancel mid-solve: once the room's iterations are reported (the window stays responsive).
    QElapsedTimer waited;
    waited.start();
    while (messages.filter(QRegularExpression("^room field h/p.*: (about .* left, )?iteration \\d+")).isEmpty() &&
           waited.elapsed() < 20000)
        QApplication::processEvents(QEventLoop::AllEvents, 10);
    INFO("messages: " << messages.join(" | ").toStdString());
    REQUIRE(window.studio().checksRunning());
    REQUIRE_FALSE(messages.filter("iteration").isEmpty());
    window.studio().cancelChecks();
    window.waitForChecks(20000);
    CHECK_FALSE(window.studio().checksRunning());
    CHECK(cancelled == 1);
    CHECK(finished == 0);
    CHECK_FALSE(window.scene()->field()->hasField());
}

TEST_CASE("studio: the iso-surface follows the design's ASHRAE class", "[gui][field]")
{
    // The same room under class H1 (recommended inlets up to 22 degC): the iso-surface and its
    // check box move to 22 degC.
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const QString path =
        editedCopy(dir, RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml", "site: {supply_air: 25 degC,",
                   "site: {ashrae_class: H1, supply_air: 20 degC,", "h1.yaml");
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    REQUIRE(window.openFile(path));
    window.waitForChecks();
    gui::FieldLayer* field = window.scene()->field();
    REQUIRE(field->hasField());
    CHECK(field->isoValueC() == Approx(22.0));
    CHECK(field->isoSurfacePoints() > 100);
    const auto boxes = window.scene()->findChildren<QCheckBox*>();
    bool labelled = false;
    for (const QCheckBox* b : boxes)
        labelled = labelled || b->text() == "Iso-surface 22 degC";
    CHECK(labelled);
}

TEST_CASE("studio: the what-if bar switches the thermal model to the room field and back", "[gui][field]")
{
    // A design that asks for the network model: the what-if "thermal field" solves its room in
    // 3D and shows it; "network" drops the field again; the design itself is not changed.
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const QString path = editedCopy(dir, RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml",
                                    "thermal: {model: field}\n", "", "network.yaml");
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    REQUIRE(window.openFile(path));
    window.waitForChecks();
    CHECK_FALSE(window.scene()->field()->hasField());
    REQUIRE(window.whatIf()->set("thermal", "field"));
    window.waitForChecks();
    REQUIRE(window.scene()->field()->hasField());
    CHECK(window.studio().thermal()->model == core::ThermalModel::Field);
    CHECK(window.studio().design().thermalModel == core::ThermalModel::Network);
    REQUIRE(window.whatIf()->set("thermal", "network"));
    window.waitForChecks();
    CHECK_FALSE(window.scene()->field()->hasField());
    CHECK_FALSE(window.whatIf()->set("thermal", "cfd"));
}

TEST_CASE("studio: the what-if bar takes the racks' intakes from an OpenFOAM case, and the rules judge them",
          "[gui][field][openfoam]")
{
    // The row pair exported, with OpenFOAM's samples written as a run leaves them: every zone as rdt
    // has it but the top one in front of h/p/a/r2, at 40 degC (over A2's allowable 35 degC).
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const std::string design = RDT_SOURCE_DIR "/tests/fixtures/room/row-pair-6.yaml";
    const core::Design d = core::loadDesign(design, RDT_SOURCE_DIR "/data/catalog");
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomField& room = room::fieldOf(t)->rooms.front();
    const std::filesystem::path run = (dir.path() + "/case").toStdString();
    room::OpenFoamOptions o;
    o.boxNames = room::boxNames(room.geometry, d);
    room::exportOpenFoam(room.geometry, *room.solver, run.string(), o);
    std::ifstream compare(run / "rdt-compare.txt");
    std::string line;
    while (std::getline(compare, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream row(line);
        std::string name, patch;
        double rdtK = 0, flow = 0;
        row >> name >> rdtK;
        while (row >> patch >> flow) {
            std::filesystem::create_directories(run / "postProcessing" / patch / "0");
            std::ofstream(run / "postProcessing" / patch / "0" / "surfaceFieldValue.dat")
                << "# Time areaAverage(T)\n100 " << (patch == "rack_2_z4_intake" ? 273.15 + 40.0 : rdtK) << "\n";
        }
    }
    std::ofstream(run / "log.buoyantBoussinesqSimpleFoam") << "Time = 1\n";
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    REQUIRE(window.openFile(QString::fromStdString(design)));
    window.waitForChecks();
    const auto inletErrors = [&] {
        std::vector<std::string> subjects;
        for (const core::Violation& v : window.studio().violations())
            if (v.rule == "thermal.inlet.chassis")
                subjects.push_back(v.subject);
        return subjects;
    };
    CHECK(inletErrors().empty());
    REQUIRE(window.whatIf()->set("intakes-from", QString::fromStdString(run.string())));
    window.waitForChecks();
    REQUIRE(window.studio().thermal());
    CHECK_THAT(window.studio().thermal()->intakesFrom, Catch::Matchers::Contains("OpenFOAM case " + run.string()));
    CHECK(inletErrors() == std::vector<std::string>{"h/p/a/r2/gt1"});
    CHECK(window.scene()->field()->hasField()); // the room's air drawn is still rdt's (its title says so)
    // A what-if the case was not solved for: the checks fail with the real reason (solved once).
    QStringList refusals;
    QObject::connect(&window.studio(), &gui::Studio::refused, [&](const QString& m) { refusals << m; });
    REQUIRE(window.whatIf()->set("inlet", "27degC"));
    window.waitForChecks();
    QApplication::processEvents();
    CHECK(refusals.join("\n").contains("export and run it again"));
    CHECK_FALSE(refusals.join("\n").contains("not in the result store"));
    window.whatIf()->reset();
    window.waitForChecks();
    CHECK(window.studio().thermal()->intakesFrom.empty());
    CHECK(inletErrors().empty());
    CHECK_FALSE(window.whatIf()->set("intakes-from", ""));
}

TEST_CASE("studio: results a check cannot give are reported rather than silently missing", "[gui][field]")
{
    // The single-rack example with a workload file that does not exist: the rules still run, but
    // throughput and the per-part colourings cannot be computed — the studio says why (status
    // bar via refused(), and resultsError()) instead of leaving them out without a word.
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    const QString path = editedCopy(dir, RDT_SOURCE_DIR "/data/designs/single-rack.yaml", "name: single-rack\n",
                                    "name: single-rack\nworkload: no-such-workload.yaml\n", "bad-workload.yaml");
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.show();
    QStringList refusals;
    QObject::connect(&window.studio(), &gui::Studio::refused, [&](const QString& m) { refusals << m; });
    REQUIRE(window.openFile(path));
    window.waitForChecks();
    INFO("refusals: " << refusals.join(" | ").toStdString());
    CHECK(window.studio().resultsError().find("no-such-workload.yaml") != std::string::npos);
    CHECK_FALSE(refusals.filter("results incomplete").isEmpty());
}
