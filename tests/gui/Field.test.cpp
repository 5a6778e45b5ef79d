// The room field in rdt-studio: a design with `thermal: {model: field}` shows the Air toolbar, a
// temperature slice without the racks' cells, streamlines from the exhausts and the scalar bar
// over the field's own range; the slice's colours follow the temperatures (cold aisle blue, hot
// aisle red in the rendered pixels).
#include <catch2/catch.hpp>

#include <QApplication>
#include <QImage>
#include <QTemporaryDir>

#include <fstream>

#include "gui/FieldLayer.h"
#include "gui/MainWindow.h"
#include "gui/SceneView.h"
#include "gui/Studio.h"
#include "gui/VtkWidget.h"
#include "thermal/RoomThermal.h"

using namespace rdt;

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
    REQUIRE(thermal->field);
    const thermal::RoomField& room = thermal->field->rooms.front();

    // Horizontal slice through the chassis: every air cell of that layer, none of the racks'.
    window.scene()->setFieldView(true, true, false, 2, 0.25);
    const thermal::FieldGrid& g = room.solver->grid();
    const int layer = static_cast<int>(0.25 * g.cells(2));
    long air = 0;
    for (int j = 0; j < g.cells(1); ++j)
        for (int i = 0; i < g.cells(0); ++i)
            air += room.solver->solid(i, j, layer) ? 0 : 1;
    CHECK(field->sliceCells() == air);
    CHECK(air < static_cast<long>(g.cells(0)) * g.cells(1)); // the racks cut holes in it
    CHECK(field->streamlinePoints() > 100);
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
        if (b.intake == thermal::Side::YMax) { // row a: its front faces +y, the cold aisle beyond
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
    CHECK(cold.blue() > cold.red());
    CHECK(hot.red() > hot.blue());
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
    REQUIRE(window.openFile(path));
    REQUIRE(window.studio().checksRunning()); // the solve runs in the background
    window.studio().cancelChecks();
    window.waitForChecks(20000);
    CHECK_FALSE(window.studio().checksRunning());
    CHECK(cancelled == 1);
    CHECK(finished == 0);
    CHECK_FALSE(window.scene()->field()->hasField());
}
