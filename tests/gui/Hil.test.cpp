// Telemetry in rdt-studio: a series written as `rdt hil watch -o` writes it becomes the "Power
// residual" colouring (measured − model, % of the model, symmetric about 0), and the studio follows
// the file as it grows — a live view fed by watch.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QTemporaryDir>
#include <QThread>

#include "analysis/Hil.h"
#include "gui/MainWindow.h"
#include "gui/SceneView.h"
#include "gui/Studio.h"
#include "hil/Series.h"

using namespace rdt;

namespace {

const core::PartField* fieldNamed(const gui::Studio& s, const std::string& name)
{
    if (!s.fields())
        return nullptr;
    for (const core::PartField& f : *s.fields())
        if (f.name == name)
            return &f;
    return nullptr;
}

} // namespace

TEST_CASE("studio: measured − model colouring from a growing telemetry series", "[gui][hil]")
{
    QTemporaryDir dir;
    qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
    gui::MainWindow window(RDT_SOURCE_DIR "/data/catalog", false);
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.openFile(RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml"));
    window.waitForChecks();
    const core::Design& d = window.studio().design();
    const auto power = window.studio().power();
    REQUIRE(power);
    // The series holds the four Grand Tetons; gt2 reads 10 % over its modelled draw.
    hil::TelemetryMap map;
    std::vector<double> model;
    for (const core::Slot& s : d.racks[0].slots)
        if (s.part->kind == core::PartKind::Chassis) {
            map.parts.push_back({s.id, "chassis", 0, 0, "http://bmc", s.name, hil::RedfishApi::Current, {}, {}});
            for (const power::PartPower& p : power->racks[0].parts)
                if (p.id == s.id)
                    model.push_back(p.modelledW);
        }
    REQUIRE(model.size() == 4);
    const std::string file = (dir.path() + "/series.h5").toStdString();
    hil::SeriesWriter writer(file, map, {"hil-rack.yaml", "map.yaml", "test"});
    auto sweep = [&](double gt2Factor) {
        hil::Sample s;
        s.unixTime = 1.8e9;
        for (std::size_t i = 0; i < 4; ++i) {
            hil::PartReading r;
            r.powerW = model[i] * (i == 2 ? gt2Factor : 1.0);
            s.parts.push_back(r);
        }
        writer.append(s);
    };
    sweep(1.10);
    REQUIRE(window.openTelemetry(QString::fromStdString(file)));
    const core::PartField* f = fieldNamed(window.studio(), "Power residual");
    REQUIRE(f);
    int gt2 = -1, shelf = -1;
    for (int i = 0; i < static_cast<int>(d.racks[0].slots.size()); ++i) {
        gt2 = d.racks[0].slots[static_cast<std::size_t>(i)].name == "gt2" ? i : gt2;
        shelf = d.racks[0].slots[static_cast<std::size_t>(i)].name == "psu-a" ? i : shelf;
    }
    REQUIRE(d.racks[0].slots[static_cast<std::size_t>(gt2 - 1)].name == "gt1");
    CHECK(f->at(0, gt2) == Approx(10.0).margin(1e-6));
    CHECK(f->at(0, gt2 - 1) == Approx(0.0).margin(1e-6));
    CHECK(std::isnan(f->at(0, shelf))); // the shelves have no power reading in this series
    CHECK(f->lo == Approx(-10.0));
    CHECK(f->hi == Approx(10.0));
    CHECK(f->rule == "hil.power.deviation");
    CHECK(window.scene()->colouringNames().contains("Power residual"));
    window.studio().setColouring("Power residual");
    CHECK(window.scene()->colouringName() == "Power residual");
    CHECK(window.studio().telemetryStatus().contains("1 sweeps"));
    // The watcher appends a sweep with gt2 at 20 % over: the studio follows the file.
    QThread::msleep(20); // a new modification time
    sweep(1.20);
    bool updated = false;
    for (int i = 0; i < 100 && !updated; ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 30);
        window.studio().pollTelemetry();
        const core::PartField* g = fieldNamed(window.studio(), "Power residual");
        updated = g && std::abs(g->at(0, gt2) - 15.0) < 1e-6; // the mean of 10 % and 20 %
    }
    CHECK(updated);
    CHECK(window.studio().telemetryStatus().contains("2 sweeps"));
    // Something that is not telemetry is refused with its name.
    CHECK_FALSE(window.openTelemetry(RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml"));
    CHECK(window.lastError().contains("hil-rack.yaml"));
}
