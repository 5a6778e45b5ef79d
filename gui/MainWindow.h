#pragma once
/// \file MainWindow.h
/// rdt-studio's main window: docks for layout, catalog, rack elevation, inspector and
/// problems around the 3D view; File/Edit/View menus with shortcuts; atomic saves, a dirty
/// marker, recent files, autosave to a recovery file every minute and recovery after a crash.

#include <QMainWindow>

#include <memory>

#include "editor/Recovery.h"

class QLabel;
class QProgressBar;
class QToolButton;
class QTimer;
class QMenu;
class QDockWidget;

namespace rdt::gui {

class Studio;
class ElevationView;
class SceneView;
class DynamicsPanel;
class EnergyPanel;
class LiquidPanel;
class ProblemsPanel;
class ThroughputPanel;
class PowerPanel;
class ThermalPanel;
class WhatIfBar;
class SignalPanel;
class CatalogPanel;
class InspectorPanel;
class LayoutTree;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `interactive` false: no modal dialogs (tests, screenshots); errors go to lastError().
    explicit MainWindow(const QString& catalogDir, bool interactive = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    Studio& studio() { return *m_studio; }
    ElevationView* elevation() const { return m_elevation; }
    SceneView* scene() const { return m_scene; }
    ProblemsPanel* problems() const { return m_problems; }
    ThroughputPanel* throughput() const { return m_throughput; }
    EnergyPanel* energy() const { return m_energy; }
    DynamicsPanel* dynamics() const { return m_dynamics; }
    LiquidPanel* liquid() const { return m_liquid; }
    PowerPanel* power() const { return m_power; }
    ThermalPanel* thermal() const { return m_thermal; }
    WhatIfBar* whatIf() const { return m_whatIf; }
    SignalPanel* signalPanel() const { return m_signal; }
    class SweepPanel* sweepPanel() const { return m_sweep; }
    /// Open a design study's results in the Sweep panel (File › Open sweep…, --sweep).
    bool openSweep(const QString& path);
    /// Open a Touchstone file in the Signal panel (what dropping one on the window does).
    bool openTouchstone(const QString& path);
    /// Show the Throughput panel with an nccl-tests log over the model's curve; false when it
    /// cannot be read or compared (the panel says why).
    bool openNcclLog(const QString& path);
    /// Show and raise the dock whose object name is `name` (`problems`, `throughput`, …).
    bool showPanel(const QString& name);
    const QString& lastError() const { return m_lastError; }

    /// Open a design; on bad input show the located error and keep the current document.
    bool openFile(const QString& path);
    /// Follow a telemetry snapshot or series (File > Open telemetry…, --telemetry): measured − model
    /// colourings, re-read as `rdt hil watch` appends. False (lastError()) when it cannot be read.
    bool openTelemetry(const QString& path);
    bool save();
    bool saveAs(const QString& path);
    /// Write the recovery copy now (the autosave timer calls this every minute).
    void autosave();
    /// Render the whole window (3D view included) to a PNG after checks have finished.
    bool saveScreenshot(const QString& path);
    /// Process events until the checks in flight have finished (or `timeoutMs` passed).
    void waitForChecks(int timeoutMs = 600000); // a room field solve can take minutes
    editor::Recovery& recovery() { return *m_recovery; }
    /// Offer the recovery copy of an unsaved new design left by a crash (start-up without a file).
    void offerStartupRecovery();
    /// Add a result panel (a solver's) as a tab beside Problems; it listens to studio() itself.
    QDockWidget* addResultPanel(const QString& title, QWidget* panel);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void buildMenus();
    void buildDocks();
    void fitDocks();
    void updateTitle();
    void showError(const QString& title, const QString& message);
    bool maybeSave();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void offerRecovery(const QString& path);
    void newDocument();

    std::unique_ptr<Studio> m_studio;
    std::unique_ptr<editor::Recovery> m_recovery;
    ElevationView* m_elevation = nullptr;
    SceneView* m_scene = nullptr;
    ProblemsPanel* m_problems = nullptr;
    ThroughputPanel* m_throughput = nullptr;
    EnergyPanel* m_energy = nullptr;
    DynamicsPanel* m_dynamics = nullptr;
    LiquidPanel* m_liquid = nullptr;
    PowerPanel* m_power = nullptr;
    ThermalPanel* m_thermal = nullptr;
    WhatIfBar* m_whatIf = nullptr;
    SignalPanel* m_signal = nullptr;
    class SweepPanel* m_sweep = nullptr;
    CatalogPanel* m_catalog = nullptr;
    InspectorPanel* m_inspector = nullptr;
    LayoutTree* m_layout = nullptr;
    QLabel* m_counts = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QTimer* m_autosave = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QDockWidget* m_problemsDock = nullptr;
    QDockWidget* m_layoutDock = nullptr;
    QDockWidget* m_catalogDock = nullptr;
    QDockWidget* m_elevationDock = nullptr;
    QDockWidget* m_inspectorDock = nullptr;
    bool m_docksFitted = false;
    bool m_interactive = true;
    QString m_lastError;
};

} // namespace rdt::gui
