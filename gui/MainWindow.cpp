#include "gui/MainWindow.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>

#include "gui/SweepPanel.h"
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QShowEvent>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolButton>
#include <QUrl>

#include "gui/CatalogPanel.h"
#include "gui/CheckRunner.h"
#include "gui/ElevationView.h"
#include "gui/DynamicsPanel.h"
#include "gui/EnergyPanel.h"
#include "gui/LiquidPanel.h"
#include "gui/InspectorPanel.h"
#include "gui/LayoutTree.h"
#include "gui/PowerPanel.h"
#include "gui/ProblemsPanel.h"
#include "gui/SceneView.h"
#include "gui/SignalPanel.h"
#include "gui/Studio.h"
#include "gui/ThermalPanel.h"
#include "gui/ThroughputPanel.h"
#include "gui/WhatIfBar.h"

namespace rdt::gui {

namespace {

QString recoveryFolder()
{
    const QByteArray env = qgetenv("RDT_STUDIO_RECOVERY_DIR");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

constexpr int kAutosaveMs = 60 * 1000;
constexpr int kMaxRecent = 8;

} // namespace

MainWindow::MainWindow(const QString& catalogDir, bool interactive, QWidget* parent)
    : QMainWindow(parent), m_studio(std::make_unique<Studio>(catalogDir)),
      m_recovery(std::make_unique<editor::Recovery>(recoveryFolder().toStdString())), m_interactive(interactive)
{
    setWindowTitle("rdt-studio");
    setDockNestingEnabled(true);
    m_scene = new SceneView(*m_studio);
    setCentralWidget(m_scene);
    buildDocks();
    buildMenus();
    m_throughput = new ThroughputPanel(*m_studio);
    addResultPanel(tr("Throughput"), m_throughput);
    m_power = new PowerPanel(*m_studio);
    addResultPanel(tr("Power"), m_power);
    m_thermal = new ThermalPanel(*m_studio);
    addResultPanel(tr("Thermal"), m_thermal);
    m_liquid = new LiquidPanel(*m_studio);
    addResultPanel(tr("Liquid"), m_liquid);
    m_signal = new SignalPanel(*m_studio);
    addResultPanel(tr("Signal"), m_signal);
    m_energy = new EnergyPanel(*m_studio);
    addResultPanel(tr("Energy"), m_energy);
    m_dynamics = new DynamicsPanel(*m_studio);
    addResultPanel(tr("Power swings"), m_dynamics);
    m_sweep = new SweepPanel;
    addResultPanel(tr("Sweep"), m_sweep);
    setAcceptDrops(true);
    m_whatIf = new WhatIfBar(*m_studio, this);
    addToolBar(Qt::TopToolBarArea, m_whatIf);

    m_counts = new QLabel;
    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(160);
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QToolButton;
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the check in flight (a room field solve can take minutes)"));
    m_cancel->hide();
    statusBar()->addPermanentWidget(m_counts);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, m_studio.get(), &Studio::cancelChecks);
    connect(m_studio.get(), &Studio::checksMessage, this, [this](const QString& m) {
        if (m.startsWith("room field"))
            statusBar()->showMessage(m, 3000);
    });
    connect(m_studio.get(), &Studio::checksCancelled, this, [this] {
        m_progress->hide();
        m_cancel->hide();
        statusBar()->showMessage(tr("Check cancelled: the results shown are the last complete run's"), 8000);
    });

    connect(m_studio.get(), &Studio::refused, this, [this](const QString& why) {
        statusBar()->showMessage(tr("Refused: %1").arg(why), 8000);
        m_lastError = why;
    });
    connect(m_elevation, &ElevationView::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(m_studio.get(), &Studio::checksStarted, this, [this] {
        m_progress->setValue(0);
        m_progress->show();
        m_cancel->show();
    });
    connect(m_studio.get(), &Studio::checksProgress, this,
            [this](double f) { m_progress->setValue(static_cast<int>(f * 100.0)); });
    connect(m_studio.get(), &Studio::fieldsChanged, this, [this] {
        if (!m_studio->telemetryStatus().isEmpty())
            statusBar()->showMessage(m_studio->telemetryStatus(), 5000);
    });
    connect(m_studio.get(), &Studio::checksFinished, this, [this] {
        m_progress->hide();
        m_cancel->hide();
        const core::CheckCounts c = core::countViolations(m_studio->violations());
        const core::Summary s = m_studio->design().summary();
        auto count = [](std::size_t n, const char* one, const char* many) {
            return QString("%1 %2").arg(QLocale().toString(static_cast<qulonglong>(n))).arg(n == 1 ? one : many);
        };
        m_counts->setText(tr("%1 · %2 · <b style='color:%3'>%4</b> · %5")
                              .arg(count(s.racks, "rack", "racks"), count(s.gpus, "GPU", "GPUs"))
                              .arg(c.errors ? "#c0302a" : "#2a8a3a")
                              .arg(count(c.errors, "error", "errors"), count(c.warnings, "warning", "warnings")));
    });
    connect(m_studio->undoStack(), &QUndoStack::cleanChanged, this, [this] { updateTitle(); });
    connect(m_studio.get(), &Studio::documentReplaced, this, [this] { updateTitle(); });
    connect(m_studio.get(), &Studio::saved, this, [this](const QString& p) {
        m_recovery->discard(p.toStdString());
        updateTitle();
    });
    connect(m_problems, &ProblemsPanel::frameRequested, m_scene, &SceneView::frame);
    connect(m_layout, &LayoutTree::frameRequested, m_scene, &SceneView::frame);

    m_autosave = new QTimer(this);
    m_autosave->setInterval(kAutosaveMs);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosave);
    m_autosave->start();
    rebuildRecentMenu();
    updateTitle();
    resize(1600, 1000);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    m_layout = new LayoutTree(*m_studio);
    m_catalog = new CatalogPanel(*m_studio);
    m_elevation = new ElevationView(*m_studio);
    m_inspector = new InspectorPanel(*m_studio);
    m_problems = new ProblemsPanel(*m_studio);
    connect(m_inspector, &InspectorPanel::ruleActivated, this, [this](const QString& rule) {
        m_problemsDock->show();
        m_problemsDock->raise();
        if (!m_problems->showRule(rule))
            statusBar()->showMessage(tr("%1: no problems").arg(rule), 6000);
    });
    QDockWidget* layoutDock = dock(tr("Layout"), "layout", m_layout, Qt::LeftDockWidgetArea);
    QDockWidget* catalogDock = dock(tr("Catalog"), "catalog", m_catalog, Qt::LeftDockWidgetArea);
    QDockWidget* elevationDock = dock(tr("Rack elevation"), "elevation", m_elevation, Qt::LeftDockWidgetArea);
    QDockWidget* inspectorDock = dock(tr("Inspector"), "inspector", m_inspector, Qt::RightDockWidgetArea);
    QDockWidget* problemsDock = dock(tr("Problems"), "problems", m_problems, Qt::BottomDockWidgetArea);
    m_problemsDock = problemsDock;
    splitDockWidget(layoutDock, elevationDock, Qt::Horizontal);
    splitDockWidget(layoutDock, catalogDock, Qt::Vertical);
    m_layoutDock = layoutDock;
    m_catalogDock = catalogDock;
    m_elevationDock = elevationDock;
    m_inspectorDock = inspectorDock;
    m_elevation->setMinimumWidth(220);
    fitDocks();
    m_viewMenu = new QMenu(tr("&View"), this);
    for (QDockWidget* d : {layoutDock, catalogDock, elevationDock, inspectorDock, problemsDock})
        m_viewMenu->addAction(d->toggleViewAction());
}

void MainWindow::fitDocks()
{
    // Shares of the window that keep every view usable from 1280×720 up: the elevation never
    // shrinks to a strip, the bottom panels never take half the height.
    const int w = std::max(width(), 1000), h = std::max(height(), 600);
    resizeDocks({m_layoutDock, m_elevationDock},
                {std::clamp(w * 14 / 100, 170, 320), std::clamp(w * 22 / 100, 250, 420)}, Qt::Horizontal);
    resizeDocks({m_inspectorDock}, {std::clamp(w * 20 / 100, 240, 300)}, Qt::Horizontal);
    resizeDocks({m_problemsDock}, {std::clamp(h * 30 / 100, 170, 280)}, Qt::Vertical);
    resizeDocks({m_layoutDock, m_catalogDock}, {h * 35 / 100, h * 45 / 100}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    if (!m_docksFitted) {
        m_docksFitted = true;
        fitDocks();
        // Once more after the first layout pass has placed the tabified result panels.
        QTimer::singleShot(0, this, [this] { fitDocks(); });
    }
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave())
            newDocument();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open design"), QString(), tr("rdt designs (*.yaml *.yml)"));
        if (!p.isEmpty())
            openFile(p);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] {
        const QString p = QFileDialog::getSaveFileName(
            this, tr("Save design"), QString::fromStdString(m_studio->document().path()), tr("rdt designs (*.yaml)"));
        if (!p.isEmpty())
            saveAs(p);
    });
    file->addSeparator();
    file->addAction(tr("Open &telemetry…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open telemetry"), QString(),
                                                          tr("rdt telemetry (*.h5);;All files (*)"));
        if (!path.isEmpty())
            openTelemetry(path);
    });
    file->addAction(tr("Open s&weep…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open sweep"), QString(), tr("rdt sweeps (*.h5);;All files (*)"));
        if (!path.isEmpty())
            openSweep(path);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_studio->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_studio->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Select &site"), QKeySequence(Qt::CTRL | Qt::Key_Home), this,
                    [this] { m_studio->select("site"); });

    menuBar()->addMenu(m_viewMenu);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("Camera: &front"), QKeySequence(Qt::Key_1), this,
                          [this] { m_scene->setCamera(SceneView::Preset::Front); });
    m_viewMenu->addAction(tr("Camera: &top"), QKeySequence(Qt::Key_2), this,
                          [this] { m_scene->setCamera(SceneView::Preset::Top); });
    m_viewMenu->addAction(tr("Camera: &iso"), QKeySequence(Qt::Key_3), this,
                          [this] { m_scene->setCamera(SceneView::Preset::Iso); });
    m_viewMenu->addAction(tr("&Frame selection"), QKeySequence(Qt::Key_F), this,
                          [this] { m_scene->frame(m_studio->selection()); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"),
                                 tr("Ctrl+N new · Ctrl+O open · Ctrl+S save · Ctrl+Shift+S save as\n"
                                    "Ctrl+Z undo · Ctrl+Shift+Z / Ctrl+Y redo · Delete remove the selected part\n"
                                    "1 / 2 / 3 camera front / top / iso · F frame the selection\n"
                                    "Drag parts from the catalog into the elevation; drag parts to move them."));
    });
}

void MainWindow::updateTitle()
{
    const std::string& p = m_studio->document().path();
    const QString name = p.empty() ? tr("untitled") : QFileInfo(QString::fromStdString(p)).fileName();
    setWindowTitle(QString("%1[*] — rdt-studio").arg(name));
    setWindowModified(!m_studio->undoStack()->isClean());
}

void MainWindow::showError(const QString& title, const QString& message)
{
    m_lastError = message;
    statusBar()->showMessage(message, 10000);
    if (m_interactive)
        QMessageBox::critical(this, title, message);
}

bool MainWindow::openFile(const QString& path)
{
    try {
        editor::Document doc = editor::Document::open(path.toStdString(), m_studio->catalogDir().toStdString());
        m_studio->setDocument(std::move(doc));
    } catch (const core::InputError& e) {
        showError(tr("Cannot open design"), QString::fromUtf8(e.what()));
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot open design"), QString::fromUtf8(e.what()));
        return false;
    }
    addRecent(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Opened %1").arg(path), 4000);
    offerRecovery(path);
    return true;
}

void MainWindow::offerRecovery(const QString& path)
{
    const auto entry = m_recovery->find(path.toStdString());
    if (!entry || !m_interactive)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Recover unsaved changes?"),
        tr("rdt-studio has a recovery copy of %1 that is newer than the file (the last session did not end cleanly). "
           "Recover it?")
            .arg(path));
    if (answer != QMessageBox::Yes) {
        m_recovery->discard(path.toStdString());
        return;
    }
    try {
        auto doc = editor::Document::fromText(editor::Recovery::read(*entry), path.toStdString(),
                                              m_studio->catalogDir().toStdString());
        m_studio->setDocument(std::move(doc));
        m_studio->undoStack()->resetClean(); // recovered work is unsaved
        updateTitle();
    } catch (const std::exception& e) {
        showError(tr("Cannot recover"), QString::fromUtf8(e.what()));
    }
}

QDockWidget* MainWindow::addResultPanel(const QString& title, QWidget* panel)
{
    auto* d = new QDockWidget(title, this);
    d->setObjectName(title.toLower().replace(' ', '-'));
    d->setWidget(panel);
    addDockWidget(Qt::BottomDockWidgetArea, d);
    tabifyDockWidget(m_problemsDock, d);
    m_problemsDock->raise();
    m_viewMenu->insertAction(m_viewMenu->actions().value(5), d->toggleViewAction());
    return d;
}

void MainWindow::offerStartupRecovery()
{
    const auto entry = m_recovery->find("");
    if (!entry || !m_interactive)
        return;
    if (QMessageBox::question(this, tr("Recover unsaved design?"),
                              tr("rdt-studio found an unsaved new design from a session that did not end cleanly. "
                                 "Recover it?")) != QMessageBox::Yes) {
        m_recovery->discard("");
        return;
    }
    try {
        m_studio->setDocument(editor::Document::fromText(editor::Recovery::read(*entry), "untitled.yaml",
                                                         m_studio->catalogDir().toStdString()));
        m_studio->undoStack()->resetClean();
        updateTitle();
    } catch (const std::exception& e) {
        showError(tr("Cannot recover"), QString::fromUtf8(e.what()));
    }
}

void MainWindow::newDocument()
{
    m_studio->setDocument(editor::Document::blank(m_studio->catalogDir().toStdString()));
}

bool MainWindow::save()
{
    const std::string& p = m_studio->document().path();
    if (p.empty()) {
        if (!m_interactive)
            return false;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save design"), QString(), tr("rdt designs (*.yaml)"));
        return !path.isEmpty() && saveAs(path);
    }
    return saveAs(QString::fromStdString(p));
}

bool MainWindow::saveAs(const QString& path)
{
    try {
        m_studio->saveAs(path);
    } catch (const std::exception& e) {
        showError(tr("Cannot save"), QString::fromUtf8(e.what()) + tr("\nThe previous file was not changed."));
        return false;
    }
    addRecent(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

void MainWindow::autosave()
{
    if (m_studio->undoStack()->isClean())
        return;
    try {
        m_recovery->write(m_studio->document().path(), m_studio->document().text());
        statusBar()->showMessage(tr("Recovery copy written"), 2000);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())), 8000);
    }
}

bool MainWindow::maybeSave()
{
    if (m_studio->undoStack()->isClean() || !m_interactive)
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"), tr("Save the changes to this design?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return save();
    m_recovery->discard(m_studio->document().path());
    return true;
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    e->accept();
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings("rdt", "rdt-studio");
    QStringList recent = settings.value("recent").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("recent", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings("rdt", "rdt-studio").value("recent").toStringList();
    for (const QString& p : recent)
        m_recentMenu
            ->addAction(QFileInfo(p).fileName(), this,
                        [this, p] {
                            if (maybeSave())
                                openFile(p);
                        })
            ->setToolTip(p);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::waitForChecks(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QApplication::processEvents();
    while (m_studio->checksRunning() && t.elapsed() < timeoutMs)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    QApplication::processEvents();
}

namespace {

bool isTouchstone(const QString& path)
{
    static const QRegularExpression re("\\.(s\\d+p|ts)$", QRegularExpression::CaseInsensitiveOption);
    return re.match(path).hasMatch();
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile() && isTouchstone(u.toLocalFile())) {
            e->acceptProposedAction();
            return;
        }
    QMainWindow::dragEnterEvent(e);
}

void MainWindow::dropEvent(QDropEvent* e)
{
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile() && isTouchstone(u.toLocalFile())) {
            openTouchstone(u.toLocalFile());
            e->acceptProposedAction();
            return;
        }
    QMainWindow::dropEvent(e);
}

bool MainWindow::openTouchstone(const QString& path)
{
    showPanel("signal");
    const bool ok = m_signal->openTouchstone(path);
    statusBar()->showMessage(ok ? tr("Opened %1 in the Signal panel").arg(path) : m_signal->touchstoneStatus(), 8000);
    return ok;
}

bool MainWindow::openNcclLog(const QString& path)
{
    showPanel("throughput");
    const bool ok = m_throughput->openNcclLog(path);
    const QString why = QTextDocumentFragment::fromHtml(m_throughput->ncclStatus()).toPlainText();
    statusBar()->showMessage(ok ? tr("Compared %1 with the design's collectives").arg(path) : why, 8000);
    return ok;
}

bool MainWindow::showPanel(const QString& name)
{
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (d->objectName().compare(name, Qt::CaseInsensitive) == 0) {
            d->show();
            d->raise();
            return true;
        }
    return false;
}

bool MainWindow::saveScreenshot(const QString& path)
{
    waitForChecks();
    // Let layouts settle and the GL view paint at its final size.
    for (int i = 0; i < 10; ++i)
        QApplication::processEvents(QEventLoop::AllEvents, 30);
    const QPixmap shot = grab();
    return shot.save(path, "PNG");
}

} // namespace rdt::gui

namespace rdt::gui {

bool MainWindow::openTelemetry(const QString& path)
{
    QString error;
    if (!m_studio->setTelemetry(path, &error)) {
        m_lastError = error;
        statusBar()->showMessage(tr("Telemetry: %1").arg(error), 10000);
        return false;
    }
    statusBar()->showMessage(m_studio->telemetryStatus().isEmpty() ? tr("Telemetry %1 opened").arg(path)
                                                                   : m_studio->telemetryStatus(),
                             8000);
    return true;
}

} // namespace rdt::gui

namespace rdt::gui {

bool MainWindow::openSweep(const QString& path)
{
    showPanel("sweep");
    const bool ok = m_sweep->open(path);
    if (!ok)
        m_lastError = m_sweep->status();
    statusBar()->showMessage(m_sweep->status(), 8000);
    return ok;
}

} // namespace rdt::gui
