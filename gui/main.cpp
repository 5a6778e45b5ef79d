// rdt-studio: the desktop layout editor.
//   rdt-studio [DESIGN]
//   rdt-studio --screenshot OUT.png [--size WxH] DESIGN
#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>
#include <QTextDocumentFragment>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/Pipeline.h"
#include "core/Error.h"
#include "core/Version.h"
#include "gui/FieldLayer.h"
#include "gui/MainWindow.h"
#include "gui/SceneView.h"
#include "gui/SignalPanel.h"
#include "gui/Studio.h"
#include "gui/SweepPanel.h"
#include "gui/ThroughputPanel.h"
#include "gui/WhatIfBar.h"

int main(int argc, char** argv)
{
    // --help and --version print and exit: they need no display.
    bool textOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        textOnly = textOnly || a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v";
    }
    // VTK 9.1 initialises GL through GLEW, which needs GLX.
    if (textOnly)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    else if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "xcb");
    QSurfaceFormat fmt;
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setStencilBufferSize(8);
    fmt.setSamples(0);
    QSurfaceFormat::setDefaultFormat(fmt);

    QApplication app(argc, argv);
    QApplication::setApplicationName("rdt-studio");
    QApplication::setOrganizationName("rdt");
    QApplication::setApplicationVersion(QString::fromStdString(rdt::core::version()));

    QCommandLineParser parser;
    parser.setApplicationDescription("rdt-studio — lay out OCP GPU racks and see every problem as you edit");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("design", "Design file to open (YAML)", "[DESIGN]");
    QCommandLineOption shot("screenshot", "Render the main window with DESIGN loaded to OUT.png and exit.", "OUT.png");
    QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).", "WxH", "1600x1000");
    QCommandLineOption panel("panel",
                             "With --screenshot: bring this bottom panel to the front "
                             "(problems, throughput, power, thermal, liquid, signal, energy, power-swings, sweep).",
                             "NAME");
    QCommandLineOption colourBy(
        "colour-by",
        "Colour the 3D view and the elevation by NAME: Part kind, Problems, or a result such as "
        "\"Inlet temperature\", \"Busbar current\", \"GPU junction\".",
        "NAME");
    QCommandLineOption select("select", "Select this rack or part (its full id) and show its rack.", "ID");
    QCommandLineOption view("view", "3D camera: front, top or iso.", "VIEW");
    QCommandLineOption scenario("scenario",
                                "What-if (repeatable): inlet=35degC, altitude=1800m, fan-fail=N, feed-loss=A|B, "
                                "pump-fail=N, cdu-fail=N, facility-water=+5K, power-floor=90%, gpu-ramp=2000W/s, "
                                "psu-storage=65J, smoothing=none|bbu, gpu-cap=600W, thermal=network|field (the room field solve), intakes-from=DIR (an OpenFOAM "
                                "case's rack intakes).",
                                "KEY=VALUE");
    parser.addOption(shot);
    parser.addOption(size);
    parser.addOption(panel);
    parser.addOption(colourBy);
    parser.addOption(select);
    parser.addOption(view);
    parser.addOption(scenario);
    QCommandLineOption touchstone("touchstone", "Open this Touchstone file in the Signal panel.", "FILE");
    QCommandLineOption tab("tab", "Signal panel tab to show: loss, pulse, eye, budget, touchstone.", "NAME");
    parser.addOption(touchstone);
    QCommandLineOption ncclLog("nccl-log", "Compare this nccl-tests log with the design in the Throughput panel.",
                               "FILE");
    parser.addOption(ncclLog);
    parser.addOption(tab);
    QCommandLineOption fieldViews("field",
                                  "With --screenshot: room field views to show, comma-separated: slice, streamlines, "
                                  "iso (needs thermal: {model: field} in the design).",
                                  "LIST");
    QCommandLineOption slice("slice", "Room field slice: x|y|z=FRACTION of the room (default z=0.35).", "AXIS=F");
    parser.addOption(fieldViews);
    QCommandLineOption telemetry("telemetry",
                                 "Follow this telemetry snapshot or series (rdt hil snapshot|watch -o): measured − "
                                 "model colourings, updated as it grows.",
                                 "FILE.h5");
    parser.addOption(telemetry);
    QCommandLineOption sweepFile("sweep", "Open this design study (rdt sweep -o FILE.h5) in the Sweep panel.",
                                 "FILE.h5");
    QCommandLineOption sweepPlot("plot", "Sweep panel: plot RESULT against AXIS (column names).", "AXIS,RESULT");
    parser.addOption(sweepFile);
    parser.addOption(sweepPlot);
    parser.addOption(slice);
    parser.process(app);

    QString catalog;
    try {
        catalog = QString::fromStdString(rdt::analysis::dataDir() + "/catalog");
    } catch (const rdt::core::InputError& e) {
        std::fprintf(stderr, "rdt-studio: error: %s\n", e.what());
        return 2;
    }
    const bool screenshot = parser.isSet(shot);
    rdt::gui::MainWindow window(catalog, !screenshot);
    const QStringList files = parser.positionalArguments();
    if (screenshot) {
        if (files.isEmpty()) {
            std::fprintf(stderr, "rdt-studio: --screenshot needs a DESIGN\n");
            return 2;
        }
        const QStringList wh = parser.value(size).split('x');
        const int w = wh.value(0).toInt(), h = wh.size() == 2 ? wh[1].toInt() : 0;
        if (w < 400 || h < 300 || w > 8000 || h > 8000) {
            std::fprintf(stderr, "rdt-studio: --size must be WxH between 400x300 and 8000x8000\n");
            return 2;
        }
        window.resize(w, h);
    }
    if (!files.isEmpty() && !window.openFile(files.front())) {
        if (screenshot) {
            std::fprintf(stderr, "rdt-studio: %s\n", window.lastError().toUtf8().constData());
            return 2;
        }
    }
    window.show();
    if (parser.isSet(sweepFile)) {
        if (!window.openSweep(parser.value(sweepFile))) {
            std::fprintf(stderr, "rdt-studio: %s\n", window.lastError().toUtf8().constData());
            return 2;
        }
        if (parser.isSet(sweepPlot)) {
            const QStringList xy = parser.value(sweepPlot).split(',');
            if (xy.size() != 2 || !window.sweepPanel()->plot(xy[0], xy[1])) {
                std::fprintf(stderr, "rdt-studio: --plot AXIS,RESULT: axes %s; results %s\n",
                             window.sweepPanel()->axisChoices().join(" ").toUtf8().constData(),
                             window.sweepPanel()->resultChoices().join(" ").toUtf8().constData());
                return 2;
            }
        }
    }
    if (parser.isSet(telemetry) && !window.openTelemetry(parser.value(telemetry))) {
        std::fprintf(stderr, "rdt-studio: %s\n", window.lastError().toUtf8().constData());
        if (screenshot)
            return 2;
    }
    for (const QString& w : parser.values(scenario)) {
        const QString key = w.section('=', 0, 0), value = w.section('=', 1);
        if (!window.whatIf()->set(key, value)) {
            const QString why = window.whatIf()->refusal();
            std::fprintf(stderr,
                         "rdt-studio: bad --scenario \"%s\"%s%s (inlet=35degC, altitude=1800m, fan-fail=N, "
                         "feed-loss=A|B, pump-fail=N, cdu-fail=N, facility-water=+5K, power-floor=90%%, gpu-ramp=2000W/s, "
                         "psu-storage=65J, smoothing=none|bbu, gpu-cap=600W, thermal=network|field, "
                         "intakes-from=DIR)\n",
                         w.toUtf8().constData(), why.isEmpty() ? "" : ": ", why.toUtf8().constData());
            return 2;
        }
    }
    if (parser.isSet(colourBy))
        window.studio().setColouring(parser.value(colourBy));
    if (parser.isSet(select) && !window.studio().select(parser.value(select))) {
        // A selection that matches nothing is bad input, as a what-if that matches nothing is.
        std::vector<std::string> ids;
        for (const rdt::core::Rack& r : window.studio().document().design().racks) {
            ids.push_back(r.id);
            for (const rdt::core::Slot& s : r.slots)
                ids.push_back(s.id);
        }
        const std::string id = parser.value(select).toStdString();
        std::fprintf(stderr, "rdt-studio: --select: no rack or part \"%s\" in the design (full ids, e.g. %s)%s\n",
                     rdt::core::clipped(id).c_str(), ids.empty() ? "site" : ids.front().c_str(),
                     rdt::core::didYouMean(id, ids).c_str());
        return 2;
    }
    if (parser.isSet(view)) {
        const QString v = parser.value(view).toLower();
        using Preset = rdt::gui::SceneView::Preset;
        if (v != "front" && v != "top" && v != "iso") {
            std::fprintf(stderr, "rdt-studio: --view must be front, top or iso\n");
            return 2;
        }
        window.scene()->setCamera(v == "front" ? Preset::Front : v == "top" ? Preset::Top : Preset::Iso);
    }
    if (files.isEmpty() && !screenshot)
        QTimer::singleShot(0, &window, [&window] { window.offerStartupRecovery(); });
    if (screenshot) {
        if (parser.isSet(panel) && !window.showPanel(parser.value(panel))) {
            std::fprintf(stderr, "rdt-studio: no panel \"%s\" (problems, throughput, power, thermal, liquid, signal, energy, power-swings, sweep)\n",
                         parser.value(panel).toUtf8().constData());
            return 2;
        }
        window.waitForChecks();
        if (parser.isSet(touchstone) && !window.openTouchstone(parser.value(touchstone))) {
            std::fprintf(stderr, "rdt-studio: %s\n", window.signalPanel()->touchstoneStatus().toUtf8().constData());
            return 2;
        }
        if (parser.isSet(tab))
            window.signalPanel()->showTab(parser.value(tab));
        if (parser.isSet(ncclLog) && !window.openNcclLog(parser.value(ncclLog))) {
            std::fprintf(stderr, "rdt-studio: %s\n",
                         QTextDocumentFragment::fromHtml(window.throughput()->ncclStatus()).toPlainText().toUtf8().constData());
            return 2;
        }
        if (parser.isSet(fieldViews) || parser.isSet(slice)) {
            if (!window.scene()->field()->hasField()) {
                std::fprintf(stderr, "rdt-studio: --field/--slice: the design has no room field (set thermal: {model: "
                                     "field})\n");
                return 2;
            }
            const QStringList views =
                parser.isSet(fieldViews) ? parser.value(fieldViews).split(',') : QStringList{"slice"};
            for (const QString& v : views)
                if (v != "slice" && v != "streamlines" && v != "iso") {
                    std::fprintf(stderr, "rdt-studio: --field takes slice, streamlines, iso\n");
                    return 2;
                }
            int axis = 2;
            double fraction = 0.35;
            if (parser.isSet(slice)) {
                const QString sv = parser.value(slice);
                const QString a = sv.section('=', 0, 0).toLower();
                bool ok = false;
                fraction = sv.section('=', 1).toDouble(&ok);
                if ((a != "x" && a != "y" && a != "z") || !ok || fraction < 0 || fraction > 1) {
                    std::fprintf(stderr, "rdt-studio: --slice must be x|y|z=FRACTION with FRACTION in 0..1\n");
                    return 2;
                }
                axis = a == "x" ? 0 : a == "y" ? 1 : 2;
            }
            window.scene()->setFieldView(views.contains("slice"), views.contains("streamlines"), views.contains("iso"),
                                         axis, fraction);
            // A hall of many pods: the camera on the room whose field is shown.
            window.scene()->frameField(true);
        }
        if (parser.isSet(colourBy) && window.scene()->colouringName() != parser.value(colourBy)) {
            std::fprintf(stderr, "rdt-studio: no colouring \"%s\"; known: %s\n",
                         parser.value(colourBy).toUtf8().constData(),
                         window.scene()->colouringNames().join(", ").toUtf8().constData());
            if (const std::string why = window.studio().resultsError(); !why.empty())
                std::fprintf(stderr, "rdt-studio: the results are incomplete: %s\n", why.c_str());
            return 2;
        }
        const QString out = parser.value(shot);
        if (!window.saveScreenshot(out)) {
            std::fprintf(stderr, "rdt-studio: cannot write %s\n", out.toUtf8().constData());
            return 2;
        }
        std::printf("%s\n", out.toUtf8().constData());
        return 0;
    }
    return app.exec();
}
