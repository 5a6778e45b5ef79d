// rdt-studio under Xvfb: the Power swings panel (issue 38) gives rdt check's dynamics line and
// verdicts, plots the chosen level's waveform and spectrum from the same result, marks exactly the
// figures beyond their grid limits, and says why it is empty without `dynamics:`.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QTableWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

#include "analysis/Pipeline.h"
#include "gui/DynamicsPanel.h"
#include "gui/LinePlot.h"
#include "gui/MainWindow.h"
#include "gui/Studio.h"
#include "gui/WhatIfBar.h"
#include "report/DynamicsOutput.h"

using namespace rdt;

static const QString kSource = RDT_SOURCE_DIR;

namespace {

/// A window of `w` × `h` on a private recovery folder, without modal dialogs.
struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<gui::MainWindow> window;
    explicit Fixture(int w = 1600, int h = 1000)
    {
        qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
        window = std::make_unique<gui::MainWindow>(kSource + "/data/catalog", false);
        window->resize(w, h);
        window->show();
        QApplication::processEvents();
    }
};

} // namespace

TEST_CASE("the Power swings panel gives rdt check's dynamics line, plots its levels and marks its limits",
          "[gui][dynamics]")
{
    Fixture f;
    // Without dynamics: the panel says why it is empty.
    REQUIRE(f.window->openFile(kSource + "/data/designs/single-rack.yaml"));
    f.window->waitForChecks();
    gui::DynamicsPanel* panel = f.window->dynamics();
    REQUIRE(panel);
    CHECK(panel->headline().contains("No dynamics: section"));
    CHECK(panel->waveform()->seriesCount() == 0);
    // Without mitigations, one trace.
    REQUIRE(f.window->openFile(kSource + "/data/designs/meta-24k-roce.yaml"));
    f.window->waitForChecks();
    CHECK(panel->waveform()->seriesCount() == 1);
    CHECK(panel->waveform()->yLabel().contains("MW"));

    // One rack in one job with a power floor, ramp limits and grid limits (the fuzz seed).
    const QString design = kSource + "/fuzz/corpus/design/dynamics-grid.yaml";
    REQUIRE(f.window->openFile(design));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("power-swings"));
    analysis::RunOptions o;
    o.designPath = design.toStdString();
    core::Progress quiet;
    const analysis::RunResult cli = analysis::run(o, quiet);
    REQUIRE(cli.dynamics);
    // The same line as rdt check prints.
    CHECK(panel->headline() == QString::fromStdString(report::dynamicsSummaryText(*cli.dynamics)).trimmed());
    // Levels: the site and the row and hall, as the result lists them.
    REQUIRE(panel->levels()->count() == static_cast<int>(cli.dynamics->levels.size()));
    CHECK(panel->levels()->itemText(0) == "site");
    // With a floor and ramp limits the waveform shows the unmitigated trace beside the mitigated one,
    // between the site's levels.
    const gui::LinePlot* wave = panel->waveform();
    REQUIRE(wave->seriesCount() == 2);
    const auto& mitigated = wave->series()[1].y;
    const analysis::DynamicsLevel& site = cli.dynamics->levels.front();
    CHECK(*std::max_element(mitigated.begin(), mitigated.end()) == Approx(site.highW / 1e3).epsilon(1e-6));
    CHECK(*std::min_element(wave->series()[0].y.begin(), wave->series()[0].y.end()) ==
          Approx(site.idleW / 1e3).epsilon(1e-6));
    CHECK(wave->yLabel().contains("kW"));
    // The spectrum's fundamental is the result's, at its frequency.
    const gui::LinePlot* spectrum = panel->spectrum();
    REQUIRE(spectrum->seriesCount() == 1);
    const auto& sx = spectrum->series()[0].x;
    const auto& sy = spectrum->series()[0].y;
    const auto peak = std::max_element(sy.begin(), sy.end()) - sy.begin();
    CHECK(sx[static_cast<std::size_t>(peak)] == Approx(cli.dynamics->fundamentalHz).epsilon(1e-6));
    CHECK(sy[static_cast<std::size_t>(peak)] == Approx(cli.dynamics->fundamentalW / 1e3).epsilon(1e-6));
    // A row's level: the same wave scaled to the row (here the whole site: one row).
    panel->levels()->setCurrentIndex(panel->levels()->count() - 1);
    QApplication::processEvents();
    CHECK(panel->waveform()->title().startsWith(panel->levels()->currentText()));
    // The limits table: red exactly where rdt check reports a dynamics violation.
    std::set<std::string> cliRules;
    for (const core::Violation& v : cli.violations)
        if (v.rule.rfind("dynamics.grid.", 0) == 0)
            cliRules.insert(v.rule);
    REQUIRE(cliRules.count("dynamics.grid.band"));
    std::set<std::string> red;
    const QTableWidget* t = panel->limits();
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 1)->foreground().color() == QColor(180, 20, 20))
            red.insert(t->item(r, 3)->text().toStdString());
    CHECK(red == cliRules);
    // The ramp-up limit's cost, with the energy for the same work as rdt check's line gives it.
    REQUIRE(cli.dynamics->throughputLost > 0);
    bool perWork = false;
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == "mitigation throughput")
            perWork = t->item(r, 1)->text().contains(
                QString::asprintf("%+.2f %% energy for the same work", cli.dynamics->energyPerWorkShare() * 100));
    CHECK(perWork);
    // The status bar's warning count includes the band's warning, as rdt check's.
    f.window->grab().save(f.dir.path() + "/dynamics.png");
}

TEST_CASE("the Power swings panel shows the connection after site storage, the grid modes and the storage "
          "figures, red where rdt check reports them; the what-if bar changes floor and storage",
          "[gui][dynamics]")
{
    Fixture f;
    const QString design = kSource + "/fuzz/corpus/design/dynamics-storage.yaml";
    REQUIRE(f.window->openFile(design));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("power-swings"));
    gui::DynamicsPanel* panel = f.window->dynamics();
    analysis::RunOptions o;
    o.designPath = design.toStdString();
    core::Progress quiet;
    const analysis::RunResult cli = analysis::run(o, quiet);
    REQUIRE(cli.dynamics);
    CHECK(panel->headline() == QString::fromStdString(report::dynamicsSummaryText(*cli.dynamics)).trimmed());
    // The site: its own draw and, after the storage, the connection's; spectra of both.
    const gui::LinePlot* wave = panel->waveform();
    REQUIRE(wave->seriesCount() == 3);
    CHECK(wave->series()[2].label.contains("connection"));
    const auto& poi = wave->series()[2].y;
    const auto& own = wave->series()[1].y;
    CHECK(*std::max_element(poi.begin(), poi.end()) - *std::min_element(poi.begin() + static_cast<long>(poi.size() / 2), poi.end()) <
          *std::max_element(own.begin(), own.end()) - *std::min_element(own.begin() + static_cast<long>(own.size() / 2), own.end()));
    REQUIRE(panel->spectrum()->seriesCount() == 2);
    // Red rows exactly where rdt check reports a dynamics violation (the mode and the band here).
    std::set<std::string> cliRules, red;
    for (const core::Violation& v : cli.violations)
        if (v.rule.rfind("dynamics.", 0) == 0)
            cliRules.insert(v.rule);
    REQUIRE(cliRules.count("dynamics.grid.resonance"));
    const QTableWidget* t = panel->limits();
    bool psuRow = false;
    for (int r = 0; r < t->rowCount(); ++r) {
        if (t->item(r, 1)->foreground().color() == QColor(180, 20, 20))
            red.insert(t->item(r, 3)->text().toStdString());
        psuRow = psuRow || t->item(r, 0)->text() == "PSU storage";
    }
    CHECK(red == cliRules);
    CHECK(psuRow);
    f.window->grab().save(f.dir.path() + "/storage.png");

    // The what-if bar: smoothing none takes the storage away; a floor and PSU storage on the 24k job.
    REQUIRE(f.window->whatIf()->set("smoothing", "none"));
    f.window->waitForChecks();
    REQUIRE(f.window->studio().dynamics());
    CHECK_FALSE(f.window->studio().dynamics()->siteStorage);
    CHECK(std::isnan(f.window->studio().dynamics()->psuStorageJ));
    f.window->whatIf()->reset();
    REQUIRE(f.window->openFile(kSource + "/data/designs/meta-24k-roce.yaml"));
    f.window->waitForChecks();
    REQUIRE(f.window->whatIf()->set("psu-storage", "65J"));
    f.window->waitForChecks();
    CHECK(f.window->studio().dynamics()->psuStorageJ == Approx(65));
    REQUIRE(f.window->whatIf()->set("power-floor", "50%"));
    f.window->waitForChecks();
    CHECK(f.window->studio().dynamics()->floorW == Approx(350));
    // smoothing=bbu without the design's cycle budget is refused, marked, not applied.
    CHECK_FALSE(f.window->whatIf()->set("smoothing", "bbu"));
    CHECK(f.window->whatIf()->refusal().contains("bbu_cycle_budget"));
}

TEST_CASE("studio: an iteration: auto the simulated duration cannot hold is reported, as rdt check refuses it",
          "[gui][dynamics]")
{
    Fixture f;
    QFile in(kSource + "/data/designs/meta-24k-roce.yaml");
    REQUIRE(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    REQUIRE(text.contains("  iteration: 2 s\n"));
    text.replace("  iteration: 2 s\n", "  iteration: auto\n  duration: 12 s\n");
    text.replace("../workloads/", kSource + "/data/workloads/");
    const QString path = f.dir.path() + "/auto-short.yaml";
    QFile out(path);
    REQUIRE(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    // rdt check: a located input error.
    analysis::RunOptions o;
    o.designPath = path.toStdString();
    core::Progress quiet;
    CHECK_THROWS_WITH(analysis::run(o, quiet), Catch::Matchers::Contains("iteration: auto gives"));
    // The studio: the same message, not a silently empty panel.
    QStringList refusals;
    QObject::connect(&f.window->studio(), &gui::Studio::refused, [&](const QString& m) { refusals << m; });
    REQUIRE(f.window->openFile(path));
    f.window->waitForChecks();
    CHECK(f.window->studio().resultsError().find("iteration: auto gives") != std::string::npos);
    CHECK_FALSE(refusals.filter("iteration: auto gives").isEmpty());
}

TEST_CASE("the Power swings panel shows independent jobs: each row's own swing and spectrum, the site's running swing",
          "[gui][dynamics]")
{
    Fixture f;
    const QString design = kSource + "/fuzz/corpus/design/dynamics-jobs.yaml";
    REQUIRE(f.window->openFile(design));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("power-swings"));
    gui::DynamicsPanel* panel = f.window->dynamics();
    analysis::RunOptions o;
    o.designPath = design.toStdString();
    core::Progress quiet;
    const analysis::RunResult cli = analysis::run(o, quiet);
    REQUIRE(cli.dynamics);
    CHECK(panel->headline() == QString::fromStdString(report::dynamicsSummaryText(*cli.dynamics)).trimmed());
    CHECK(panel->headline().contains("in 2 independent jobs"));
    REQUIRE(panel->levels()->count() == 4);
    // A row: one job, a quarter iteration behind the other; its wave and its spectrum are its own.
    panel->levels()->setCurrentIndex(3);
    QApplication::processEvents();
    const analysis::DynamicsLevel& row = cli.dynamics->levels[3];
    CHECK(panel->waveform()->title().contains(QString::number(row.runningSwingW / 1e3, 'g', 3)));
    const auto& wy = panel->waveform()->series()[0].y;
    CHECK(*std::max_element(wy.begin(), wy.end()) - *std::min_element(wy.begin() + static_cast<long>(wy.size() / 2), wy.end()) ==
          Approx(row.swingW() / 1e3).epsilon(1e-6));
    // The row's fundamental is its own job's whole line (half the lockstep site's), not the site's
    // quarter-apart phasor sum scaled down (the site's is 0.7071 of lockstep).
    const auto& sy = panel->spectrum()->series()[0].y;
    const double rowLine = *std::max_element(sy.begin(), sy.end());
    CHECK(rowLine == Approx(0.5 * cli.dynamics->fundamentalW / 1e3 / std::sqrt(0.5)).epsilon(2e-3));
    CHECK(rowLine > 0.5 * cli.dynamics->fundamentalW / 1e3 * 1.3);
    f.window->grab().save(f.dir.path() + "/jobs.png");
}

TEST_CASE("the Power swings panel gives compute_share: auto's share and the battery shelves' uncounted loss as "
          "rdt check does",
          "[gui][dynamics]")
{
    Fixture f;
    // The 24k example with the share from its workload's layout and its racks' shelves smoothing.
    QFile in(kSource + "/data/designs/meta-24k-roce.yaml");
    REQUIRE(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    text.replace("  compute_share: 50 %", "  compute_share: auto\n  smoothing: bbu\n  bbu_cycle_budget: 40");
    text.replace("workload: ../workloads/", "workload: " + kSource + "/data/workloads/");
    const QString design = f.dir.path() + "/auto.yaml";
    QFile out(design);
    REQUIRE(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    REQUIRE(f.window->openFile(design));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("power-swings"));
    analysis::RunOptions o;
    o.designPath = design.toStdString();
    core::Progress quiet;
    const analysis::RunResult cli = analysis::run(o, quiet);
    REQUIRE(cli.dynamics);
    REQUIRE(f.window->studio().dynamics());
    CHECK(f.window->studio().dynamics()->computeShare == Approx(cli.dynamics->computeShare));
    CHECK(cli.dynamics->computeShare == Approx(0.646).margin(0.001));
    gui::DynamicsPanel* panel = f.window->dynamics();
    CHECK(panel->headline() == QString::fromStdString(report::dynamicsSummaryText(*cli.dynamics)).trimmed());
    CHECK(panel->headline().contains("compute share from the workload's layout"));
    const QTableWidget* t = panel->limits();
    bool lossRow = false;
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == "battery round-trip loss") {
            lossRow = true;
            CHECK(t->item(r, 1)->text() == "not counted");
            CHECK(t->item(r, 3)->text() == "dynamics.not_checked");
        }
    CHECK(lossRow);
}
