#include <catch2/catch.hpp>

#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QImage>
#include <QMimeData>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QUrl>

#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/NcclCompare.h"
#include "analysis/Pipeline.h"
#include "gui/ElevationView.h"
#include "gui/EnergyPanel.h"
#include "gui/LinePlot.h"
#include "gui/MainWindow.h"
#include "gui/PowerPanel.h"
#include "gui/ProblemsPanel.h"
#include "gui/SceneView.h"
#include "gui/SignalPanel.h"
#include "gui/Studio.h"
#include "gui/ThermalPanel.h"
#include "gui/ThroughputPanel.h"
#include "gui/VtkWidget.h"
#include "gui/WhatIfBar.h"
#include "report/CheckFormats.h"

using namespace rdt;
using Catch::Matchers::Contains;

static const QString kData = RDT_SOURCE_DIR "/data";

namespace {

/// A window on a private recovery folder, without modal dialogs.
struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<gui::MainWindow> window;
    Fixture()
    {
        qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
        window = std::make_unique<gui::MainWindow>(kData + "/catalog", false);
        window->resize(1400, 900);
        window->show();
        QApplication::processEvents();
    }
};

std::vector<std::string> slotList(const core::Design& d)
{
    std::vector<std::string> out;
    for (const core::Rack& r : d.racks)
        for (const core::Slot& s : r.slots)
            out.push_back(s.id + "@" + std::to_string(s.ou) + ":" + s.part->slug);
    return out;
}

/// Mean and standard deviation of the luminance in a rectangle of an image.
std::pair<double, double> lumaStats(const QImage& img, const QRect& r)
{
    double sum = 0, sum2 = 0;
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); y += 2)
        for (int x = r.left(); x <= r.right(); x += 2) {
            const QColor c = img.pixelColor(x, y);
            const double l = 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
            sum += l;
            sum2 += l * l;
            ++n;
        }
    const double mean = sum / n;
    return {mean, std::sqrt(std::max(0.0, sum2 / n - mean * mean))};
}

} // namespace

TEST_CASE("open the example, place a chassis through the drop's command, undo, redo", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    gui::Studio& studio = f.window->studio();
    CHECK(studio.design().summary().gpus == 16);
    const auto before = slotList(studio.design());

    REQUIRE(f.window->elevation()->dropPart("meta-grand-teton-h100", 30));
    CHECK(studio.design().summary().gpus == 24);
    CHECK(f.window->isWindowModified());
    const auto after = slotList(studio.design());
    studio.undoStack()->undo();
    CHECK(slotList(studio.design()) == before);
    CHECK_FALSE(f.window->isWindowModified());
    studio.undoStack()->redo();
    CHECK(slotList(studio.design()) == after);
    // Moving a part is the drag's command.
    REQUIRE(f.window->elevation()->moveSlot(7, 34));
    CHECK(studio.design().racks[0].slots[7].ou == 34);
    CHECK(studio.undoStack()->count() == 2);
}

TEST_CASE("a drop that overlaps is refused with the reason", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    gui::Studio& studio = f.window->studio();
    QString reason;
    QObject::connect(&studio, &gui::Studio::refused, [&](const QString& r) { reason = r; });
    CHECK_FALSE(f.window->elevation()->dropPart("meta-grand-teton-h100", 10)); // onto gt0 (OU 6–13)
    CHECK(reason.contains("overlaps gt0"));
    CHECK(studio.undoStack()->count() == 0);
    CHECK_FALSE(f.window->elevation()->dropPart("meta-minipack2", 42)); // 42–45 is beyond 44 OU
    CHECK(reason.contains("44 usable OU"));
    CHECK(studio.design().summary().gpus == 16);
}

TEST_CASE("save and reload round-trip equal", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/meta-24k-roce.yaml"));
    REQUIRE(f.window->elevation()->dropPart("meta-wedge400", 30));
    const auto edited = slotList(f.window->studio().design());
    const QString path = f.dir.path() + "/roce-edited.yaml";
    REQUIRE(f.window->saveAs(path));
    CHECK_FALSE(f.window->isWindowModified());
    Fixture g;
    REQUIRE(g.window->openFile(path));
    CHECK(slotList(g.window->studio().design()) == edited);
    CHECK(g.window->studio().design().summary().switches == 1536 * 2);
}

TEST_CASE("a malformed file shows the located error and leaves the document untouched", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    const auto before = slotList(f.window->studio().design());
    CHECK_FALSE(f.window->openFile(RDT_SOURCE_DIR "/tests/fixtures/bad/unknown-slug.yaml"));
    CHECK(f.window->lastError().contains("unknown-slug.yaml:15:33"));
    CHECK(f.window->lastError().contains("did you mean \"meta-grand-teton-h100\""));
    CHECK(slotList(f.window->studio().design()) == before);
    CHECK_FALSE(f.window->openFile(f.dir.path() + "/does-not-exist.yaml"));
    CHECK(slotList(f.window->studio().design()) == before);
    // A failing save keeps the old file.
    const QString path = f.dir.path() + "/keep.yaml";
    REQUIRE(f.window->saveAs(path));
    std::filesystem::create_directories((f.dir.path() + "/blocked.yaml/x").toStdString());
    CHECK_FALSE(f.window->saveAs(f.dir.path() + "/blocked.yaml"));
    CHECK(std::filesystem::is_directory((f.dir.path() + "/blocked.yaml/x").toStdString()));
}

TEST_CASE("a design without site: that rdt check accepts opens, and its site inspector shows", "[gui]")
{
    Fixture f;
    const bool opened = f.window->openFile(RDT_SOURCE_DIR "/tests/fixtures/editor/no-site.yaml");
    INFO(f.window->lastError().toStdString());
    REQUIRE(opened);
    CHECK(f.window->studio().design().racks.size() == 1);
    f.window->studio().select("site");
    QApplication::processEvents();
    CHECK(f.window->lastError().isEmpty());
}

TEST_CASE("checks run in the background and problems select their subject", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/broken-rack.yaml"));
    f.window->waitForChecks();
    gui::Studio& studio = f.window->studio();
    // tests/fixtures/broken-rack.expected's 30 (inlet per chassis and switch, link.rate.mismatch, shelf
    // capacity and N+1, the uncontained room under the network model).
    CHECK(studio.violations().size() == 30);
    CHECK(f.window->problems()->rowCount() == 30);
    f.window->problems()->activate(0);
    CHECK_FALSE(studio.selection().isEmpty());
    // A new edit cancels the run in flight; the last result wins.
    REQUIRE(f.window->elevation()->dropPart("meta-minipack2", 20));
    studio.undoStack()->undo();
    f.window->waitForChecks();
    CHECK(studio.violations().size() == 30);
}

TEST_CASE("autosave writes a recovery copy of unsaved work", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->autosave(); // clean: nothing to write
    CHECK(f.window->recovery().list().empty());
    REQUIRE(f.window->elevation()->dropPart("meta-wedge400", 30));
    f.window->autosave();
    REQUIRE(f.window->recovery().list().size() == 1);
    const std::string text = editor::Recovery::read(f.window->recovery().list().front());
    CHECK_THAT(text, Contains("meta-wedge400"));
}

TEST_CASE("the 3D view draws the whole cluster with merged geometry", "[gui]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/meta-24k-roce.yaml"));
    CHECK(f.window->scene()->partBoxes() == 1536 * 7);
    // Parts, frames, highlight, floor, and the room field's slice, streamlines and iso-surface: a fixed
    // handful whatever the design's size, not one actor per part.
    CHECK(f.window->scene()->actorCount() <= 8);
}

TEST_CASE("the screenshot of the example is non-blank and the 3D view shows the racks", "[gui][screenshot]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    const QString png = f.dir.path() + "/shot.png";
    REQUIRE(f.window->saveScreenshot(png));
    const QImage img(png);
    REQUIRE(!img.isNull());
    CHECK(img.width() >= 1000);
    const auto whole = lumaStats(img, img.rect());
    CHECK(whole.second > 20.0); // not a flat image
    gui::VtkWidget* vtk = f.window->scene()->vtk();
    REQUIRE(vtk->ready());
    const QRect r(vtk->mapTo(f.window.get(), QPoint(0, 0)), vtk->size());
    const auto view = lumaStats(img, r.adjusted(4, 4, -4, -4));
    INFO("3D view mean " << view.first << " sd " << view.second);
    CHECK(view.first > 40.0);  // not black: the GL blit worked
    CHECK(view.second > 15.0); // structure, not an empty background
    // The chassis colour (blue) appears in the 3D view.
    int blue = 0;
    for (int y = r.top(); y < r.bottom(); y += 3)
        for (int x = r.left(); x < r.right(); x += 3) {
            const QColor c = img.pixelColor(x, y);
            blue += c.blue() > c.red() + 50 && c.blue() > c.green() + 20;
        }
    CHECK(blue > 200);
}

TEST_CASE("solver result panels plug in beside Problems", "[gui]")
{
    Fixture f;
    auto* panel = new QWidget;
    QDockWidget* dock = f.window->addResultPanel("Power budget", panel);
    REQUIRE(dock);
    CHECK(dock->widget() == panel);
    QApplication::processEvents();
    CHECK_FALSE(f.window->tabifiedDockWidgets(dock).isEmpty());
}

TEST_CASE("the throughput panel shows GPU classes and busbw curves after the checks", "[gui][throughput]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    const auto t = f.window->studio().throughput();
    REQUIRE(t);
    // single-rack: one chassis at 700 W, one capped at 600 W.
    CHECK(f.window->throughput()->classRows() == 2);
    CHECK_THAT(f.window->throughput()->headline().toStdString(), Contains("limited by power cap"));
    // The per-GPU figure is the slowest class's: which share of the GPUs it speaks for, as in `rdt check`.
    CHECK_THAT(f.window->throughput()->headline().toStdString(),
               Contains("the slowest of 2 GPU classes, 8 of the 16 GPUs"));
    REQUIRE(f.window->showPanel("throughput"));
    QApplication::processEvents();
    f.window->throughput()->repaint();
    QApplication::processEvents();
    CHECK(f.window->throughput()->plot()->seriesCount() == 4);
}

TEST_CASE("throughput panel: an nccl-tests log's measured points over the model's curve, the CLI's verdict",
          "[gui][throughput][nccl]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    const QString log = RDT_SOURCE_DIR "/tests/fixtures/nccl/run-0042.log";
    REQUIRE(f.window->openNcclLog(log));
    QApplication::processEvents();
    auto* panel = f.window->throughput();
    panel->repaint();
    QApplication::processEvents();
    const auto cmp = panel->comparison();
    REQUIRE(cmp);
    // Every row of the log is a point; the model's curve is one line.
    CHECK(panel->plot()->measuredPoints() == static_cast<int>(cmp->log.rows.size()));
    CHECK(cmp->log.rows.size() == 24);
    CHECK(panel->plot()->seriesCount() == 1);
    // The same comparison `rdt nccl compare` makes, from the design's own pipeline.
    const analysis::NcclComparison cli =
        analysis::compareNccl(hil::readNcclLog(log.toStdString()),
                              analysis::ncclModelFor(RDT_SOURCE_DIR "/data/designs/single-rack.yaml"), {});
    REQUIRE(std::isfinite(cli.medianLarge));
    CHECK(cmp->medianLarge == Approx(cli.medianLarge).epsilon(1e-12));
    CHECK(cmp->gpus == 16);
    // A broken log is refused with its file and line; the plot goes back to the design's curves.
    CHECK_FALSE(f.window->openNcclLog(RDT_SOURCE_DIR "/tests/fixtures/nccl/bad/truncated_row.log"));
    CHECK_THAT(panel->ncclStatus().toStdString(), Contains("truncated_row.log:"));
    CHECK_FALSE(panel->comparison());
    panel->clearNcclLog();
    panel->repaint();
    QApplication::processEvents();
    CHECK(panel->plot()->measuredPoints() == 0);
    CHECK(panel->plot()->seriesCount() == 4);
}

namespace {

/// Red minus blue of a pixel: monotone along the cool-to-warm scale, and unchanged in order by
/// the shading two parts with the same face normal share.
int warmth(const QImage& img, QPoint p)
{
    const QColor c = img.pixelColor(p);
    return c.red() - c.blue();
}

} // namespace

TEST_CASE("each result colouring orders colours as its values: the worse part is nearer red", "[gui][colouring]")
{
    Fixture f;
    REQUIRE(f.window->openFile(RDT_SOURCE_DIR "/tests/fixtures/studio/hot-cold.yaml"));
    f.window->waitForChecks();
    const auto* fields = f.window->studio().fields();
    REQUIRE(fields);
    REQUIRE(fields->size() >= 10);
    gui::SceneView* scene = f.window->scene();
    const QStringList names = scene->colouringNames();
    int compared = 0;
    for (const core::PartField& field : *fields) {
        CAPTURE(field.name);
        REQUIRE(names.contains(QString::fromStdString(field.name)));
        // gt0 of rack "hot" (rack 0, slot 2) against gt0 of rack "cold" (rack 1, slot 2).
        const double hot = field.at(0, 2), cold = field.at(1, 2);
        if (!std::isfinite(hot) || !std::isfinite(cold) || std::fabs(hot - cold) < 0.05 * (field.hi - field.lo))
            continue;
        f.window->studio().setColouring(QString::fromStdString(field.name));
        // On the data's range (issue 34: the default scale is the limits', where both parts may
        // sit in one band; tests/gui/Colours.test.cpp checks that scale part by part).
        scene->setDataRange(true);
        scene->setCamera(gui::SceneView::Preset::Front);
        QApplication::processEvents();
        CHECK(scene->colouringName() == QString::fromStdString(field.name));
        CHECK(scene->scalarBarShown());
        const QImage img = scene->vtk()->grabFramebuffer();
        const QPoint ph = scene->partOnScreen(0, 2), pc = scene->partOnScreen(1, 2);
        REQUIRE(img.rect().contains(ph));
        REQUIRE(img.rect().contains(pc));
        const bool hotWorse = field.higherIsWorse ? hot > cold : hot < cold;
        INFO("hot " << hot << " cold " << cold << " warmth " << warmth(img, ph) << " vs " << warmth(img, pc));
        if (hotWorse)
            CHECK(warmth(img, ph) > warmth(img, pc) + 20);
        else
            CHECK(warmth(img, pc) > warmth(img, ph) + 20);
        ++compared;
    }
    CHECK(compared >= 6); // part power, fan speed, busbar, rack load, GPU margin, GPU clock, …
    // Part kind has no scalar bar.
    f.window->studio().setColouring("Part kind");
    QApplication::processEvents();
    CHECK_FALSE(scene->scalarBarShown());
}

TEST_CASE("the what-if toolbar changes the inlet and the thermal colouring follows", "[gui][whatif]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    gui::SceneView* scene = f.window->scene();
    f.window->studio().setColouring("Inlet temperature");
    scene->setCamera(gui::SceneView::Preset::Front);
    QApplication::processEvents();
    const core::PartField* before = nullptr;
    for (const core::PartField& fl : *f.window->studio().fields())
        if (fl.name == "Inlet temperature")
            before = &fl;
    REQUIRE(before);
    const double inlet27 = before->at(0, 5); // gt0
    REQUIRE(std::isfinite(inlet27));
    // On the data's range, fixed at the design's range widened so a warmer inlet stays on it.
    scene->setDataRange(true);
    f.window->studio().setFixedRange("Inlet temperature", inlet27 - 5.0, inlet27 + 15.0);
    QApplication::processEvents();
    const QPoint gt0 = scene->partOnScreen(0, 5);
    const int warmBefore = warmth(scene->vtk()->grabFramebuffer(), gt0);
    const std::string textBefore = f.window->studio().document().text();

    REQUIRE(f.window->whatIf()->set("inlet", "35 degC"));
    f.window->waitForChecks();
    QApplication::processEvents();
    double inlet35 = NAN;
    for (const core::PartField& fl : *f.window->studio().fields())
        if (fl.name == "Inlet temperature")
            inlet35 = fl.at(0, 5);
    // The supply rises 8 K (27 → 35 °C); the chassis inlet follows it within a kelvin.
    CHECK(inlet35 - inlet27 == Approx(8.0).margin(1.0));
    CHECK(f.window->studio().thermal()->scenario == "inlet=35 degC");
    CHECK_THAT(f.window->thermal()->headline().toStdString(), Contains("what-if: inlet=35 degC"));
    const int warmAfter = warmth(scene->vtk()->grabFramebuffer(), gt0);
    INFO("warmth before " << warmBefore << " after " << warmAfter);
    CHECK(warmAfter > warmBefore + 30);
    // The document is untouched; Reset brings the design's own results back.
    CHECK(f.window->studio().document().text() == textBefore);
    f.window->whatIf()->reset();
    f.window->waitForChecks();
    for (const core::PartField& fl : *f.window->studio().fields())
        if (fl.name == "Inlet temperature")
            CHECK(fl.at(0, 5) == Approx(inlet27));
    // A bad value turns the field red and changes nothing.
    CHECK_FALSE(f.window->whatIf()->set("inlet", "35"));
}

TEST_CASE("the what-if bar refuses what the design file refuses, and --select that matches nothing exits 2",
          "[gui][whatif][cli]")
{
    // Issue 33 (defect 6). In the bar: a 100 W cap is below nvidia-h100-sxm5's 200 W minimum cap,
    // as gpu_power_cap in the file says; before, it was clamped to 200 W and labelled 100 W.
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    CHECK_FALSE(f.window->whatIf()->set("gpu-cap", "100 W"));
    CHECK_THAT(f.window->whatIf()->refusal().toStdString(),
               Contains("\"100 W\" is outside the allowed range 200 W … 700 W"));
    CHECK(std::isnan(f.window->studio().whatIf().gpuCapW)); // not applied
    CHECK(f.window->whatIf()->set("gpu-cap", "200 W"));
    CHECK(f.window->studio().whatIf().gpuCapW == 200.0);
    // Failed rotors up to Grand Teton's 32 (16 dual-rotor fans), not the bar's own limit.
    CHECK(f.window->whatIf()->set("fan-fail", "12"));
    CHECK(f.window->studio().whatIf().failedRotors == 12);
    CHECK_FALSE(f.window->whatIf()->set("fan-fail", "33"));
    CHECK_THAT(f.window->whatIf()->refusal().toStdString(), Contains("value 33 is outside the allowed range 0 … 32"));
    f.window->whatIf()->reset();
    CHECK(f.window->whatIf()->refusal().isEmpty());

    // On the command line: before, --select no/such/rack opened and exited 0.
    auto studio = [](const QStringList& args) {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        // Exit codes are the subject here. Under the sanitizers the child's GL driver, loaded and
        // unloaded by Mesa, leaves leaks LeakSanitizer can only attribute to "<unknown module>"
        // (tests/lsan.supp names the libraries it can see): the child runs without leak checking.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString asan = env.value("ASAN_OPTIONS");
        env.insert("ASAN_OPTIONS", asan.isEmpty() ? "detect_leaks=0" : asan + ":detect_leaks=0");
        p.setProcessEnvironment(env);
        p.start(RDT_BIN_DIR "/rdt-studio", args);
        REQUIRE(p.waitForFinished(60000));
        return std::make_pair(p.exitCode(), QString(p.readAll()).toStdString());
    };
    QTemporaryDir dir;
    const QString shot = dir.path() + "/s.png", design = kData + "/designs/single-rack.yaml";
    const auto none = studio({"--screenshot", shot, "--select", "lab/row1/rack9", design});
    CHECK(none.first == 2);
    CHECK_THAT(none.second,
               Contains("--select: no rack or part \"lab/row1/rack9\"") && Contains("did you mean \"lab/row1/rack1\""));
    const auto cap = studio({"--screenshot", shot, "--scenario", "gpu-cap=100W", design});
    CHECK(cap.first == 2);
    CHECK_THAT(cap.second, Contains("is outside the allowed range 200 W … 700 W"));
    const auto ok = studio({"--screenshot", shot, "--select", "lab/row1/rack1/gt0", design});
    CHECK(ok.first == 0);
}

TEST_CASE("rdt-studio --help works without a display", "[gui][cli]")
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    p.setProcessEnvironment(env);
    p.start(RDT_BIN_DIR "/rdt-studio", {"--help"});
    REQUIRE(p.waitForFinished(30000));
    CHECK(p.exitCode() == 0);
    const QString out = p.readAllStandardOutput();
    CHECK(out.contains("--colour-by"));
    CHECK(out.contains("--scenario"));
}

TEST_CASE("the signal panel shows every link class, its eye, and a dropped Touchstone file", "[gui][signal]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    gui::SignalPanel* s = f.window->signalPanel();
    const auto sig = f.window->studio().signal();
    REQUIRE(sig);
    REQUIRE(s->table()->rowCount() == static_cast<int>(sig->links.size()));
    for (int row = 0; row < s->table()->rowCount(); ++row) {
        const signal::LinkVerdict& v = sig->links[static_cast<std::size_t>(row)];
        CHECK(s->table()->item(row, 0)->text().toStdString() == v.id);
        CHECK(s->table()->item(row, gui::SignalPanel::kComColumn)->text() == QString::number(v.comDb, 'f', 2));
        CHECK(s->table()->item(row, gui::SignalPanel::kVerdictColumn)->text().toStdString() == v.verdict);
    }
    s->showClass(0);
    CHECK(s->lossPlot()->seriesCount() == 1);
    CHECK(s->eyePlot()->seriesCount() >= 2); // ±opening contours for each open BER
    // A real Touchstone file opens in the panel; a malformed one says where it is wrong.
    // Dropped on the window, as a user would: the window accepts it and the panel plots it.
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kData + "/channels/kr4-example2/example2_THRU.s4p")});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(f.window.get(), &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(f.window.get(), &drop);
    CHECK(s->touchstonePlot()->seriesCount() == 4);
    CHECK_THAT(s->touchstoneStatus().toStdString(), Contains("4 ports"));
    QTemporaryDir dir;
    const QString bad = dir.path() + "/bad.s2p";
    {
        std::ofstream out(bad.toStdString());
        out << "# GHz S MA R 50\n1.0 0.5 0 0.5\n";
    }
    CHECK_FALSE(f.window->openTouchstone(bad));
    CHECK_THAT(s->touchstoneStatus().toStdString(), Contains("bad.s2p"));
}

TEST_CASE("the energy panel shows the facility's energy and the workload's checkpoint as rdt check does",
          "[gui][energy]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/meta-24k-roce.yaml"));
    f.window->waitForChecks();
    const auto e = f.window->studio().energy();
    REQUIRE(e);
    const auto t = f.window->studio().throughput();
    REQUIRE(t);
    REQUIRE(t->checkpoint);
    // The same run rdt check makes: the same figures, the same verdicts.
    rdt::core::Progress quiet;
    rdt::analysis::RunOptions o;
    o.designPath = (kData + "/designs/meta-24k-roce.yaml").toStdString();
    const rdt::analysis::RunResult cli = rdt::analysis::run(o, quiet);
    REQUIRE(cli.energy);
    REQUIRE(cli.throughput->checkpoint);
    CHECK(e->total.facilityW == Approx(cli.energy->total.facilityW).epsilon(1e-9));
    CHECK(e->total.annualMWh == Approx(cli.energy->total.annualMWh).epsilon(1e-9));
    CHECK(t->checkpoint->saveS == Approx(cli.throughput->checkpoint->saveS).epsilon(1e-12));
    CHECK(t->checkpoint->goodput == Approx(cli.throughput->checkpoint->goodput).epsilon(1e-12));
    const std::string energy = f.window->energy()->energyHeadline().toStdString();
    CHECK_THAT(energy, Contains("<b>28.8 MW</b>") && Contains("PUE 1.08") && Contains("253 GWh a year"));
    CHECK(f.window->energy()->hallRows() == 1);
    CHECK_THAT(f.window->energy()->checkpointHeadline().toStdString(),
               Contains("Llama 3 405B pretraining: 5.67 TB, save <b>2.8 s</b> (storage-bound)"));
    CHECK(f.window->energy()->writePath()->barCount() == 3); // GPU to host, front-end NICs, storage
    REQUIRE(f.window->showPanel("energy"));

    // A design without facility: or workload: says what is missing instead of showing numbers.
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    CHECK_FALSE(f.window->studio().energy());
    CHECK_THAT(f.window->energy()->energyHeadline().toStdString(), Contains("No facility: section"));
    CHECK_THAT(f.window->energy()->checkpointHeadline().toStdString(), Contains("No workload"));
    CHECK(f.window->energy()->writePath()->barCount() == 0);
}

TEST_CASE("the Problems panel lists the violations rdt check reports, subject for subject (issue 33)", "[gui][audit]")
{
    // The limit audit (tests/cli/LimitAudit.test.cpp) holds JSON, text and HDF5 to the same
    // violations; this holds the studio's Problems model to them too, on designs that fail power,
    // thermal and mechanical rules (broken rack), a clip and the bar (tight rack) and a feed (600 A).
    for (const QString& path : {kData + "/designs/broken-rack.yaml", kData + "/designs/tight-rack.yaml",
                                QString(RDT_SOURCE_DIR "/tests/fixtures/signoff/gt-600a-feeds.yaml")}) {
        CAPTURE(path.toStdString());
        Fixture f;
        REQUIRE(f.window->openFile(path));
        f.window->waitForChecks();
        core::Progress quiet;
        analysis::RunOptions o;
        o.designPath = path.toStdString();
        const nlohmann::json j = report::checkJson(analysis::run(o, quiet));
        std::multiset<std::pair<std::string, std::string>> cli, studio;
        for (const auto& v : j["violations"])
            cli.insert({v["rule"].get<std::string>(), v["subject"].get<std::string>()});
        for (const core::Violation& v : f.window->studio().violations())
            studio.insert({v.rule, v.subject});
        CHECK(studio == cli);
        CHECK(f.window->problems()->rowCount() == static_cast<int>(cli.size()));
    }
}
