#pragma once
/// \file Studio.h
/// The application state behind every window and panel: the open document, its undo
/// stack, the selection and the latest check results. Panels talk to the Studio, never to
/// each other, so a solver panel plugs in by listening to the same signals.

#include <QObject>
#include <QTimer>
#include <QUndoStack>

#include <map>
#include <set>
#include <memory>
#include <optional>

#include "analysis/Pipeline.h"
#include "analysis/Throughput.h"
#include "core/Rules.h"
#include "editor/Colouring.h"
#include "editor/Document.h"
#include "editor/Selection.h"
#include "gui/CheckRunner.h"
#include "hil/Series.h"

namespace rdt::gui {

class Studio : public QObject {
    Q_OBJECT
public:
    explicit Studio(QString catalogDir, QObject* parent = nullptr);
    ~Studio() override;

    const editor::Document& document() const { return *m_document; }
    const core::Design& design() const { return m_document->design(); }
    const editor::SubjectIndex& subjects() const { return *m_subjects; }
    QUndoStack* undoStack() { return &m_undo; }
    const std::vector<core::Violation>& violations() const { return m_violations; }
    /// Throughput of the last finished check (null before the first, or when the solvers failed).
    std::shared_ptr<const analysis::ThroughputResult> throughput() const
    {
        return m_results ? m_results->throughput : nullptr;
    }
    /// Power budget and airflow of the last finished check (null before the first, or on failure).
    std::shared_ptr<const power::PowerResult> power() const { return m_results ? m_results->power : nullptr; }
    std::shared_ptr<const thermal::ThermalResult> thermal() const { return m_results ? m_results->thermal : nullptr; }
    std::shared_ptr<const signal::SignalResult> signal() const { return m_results ? m_results->signal : nullptr; }
    /// The coolant loops of the last finished check (empty loops without `liquid:`).
    std::shared_ptr<const liquid::LiquidResult> liquid() const { return m_results ? m_results->liquid : nullptr; }
    /// Facility energy of the last finished check (null without `facility:`).
    std::shared_ptr<const analysis::EnergyResult> energy() const { return m_results ? m_results->energy : nullptr; }
    std::shared_ptr<const analysis::DynamicsResult> dynamics() const
    {
        return m_results ? m_results->dynamics : nullptr;
    }
    /// Per-part fields of the last finished check (empty before the first), and the measured − model
    /// residuals of the telemetry file when one is open.
    const std::vector<core::PartField>* fields() const { return m_results ? &m_fields : nullptr; }
    /// Why the last check's results (throughput, fields) are missing, or empty.
    std::string resultsError() const { return m_results ? m_results->error : std::string(); }
    /// The design's waivers that matched no violation in the last check (empty before one).
    std::vector<core::Waiver> unusedWaivers() const
    {
        return m_results ? m_results->unusedWaivers : std::vector<core::Waiver>{};
    }
    /// Follow a telemetry snapshot or series (`rdt hil snapshot|watch -o`): its residuals against
    /// the last check become colourings, and a growing series is re-read as it grows (a live view
    /// fed by `rdt hil watch`). False with `error` set when the file cannot be read.
    bool setTelemetry(const QString& path, QString* error = nullptr);
    const QString& telemetryPath() const { return m_telemetryPath; }
    /// "series.h5: 12 sweeps, last 03:14:05 UTC, 2 residuals over tolerance", empty without one.
    const QString& telemetryStatus() const { return m_telemetryStatus; }
    /// Re-read the telemetry file now if it changed (the timer does this every second).
    void pollTelemetry();
    /// What-if overrides applied to every check run (inlet, altitude, failed rotors, lost feed, GPU
    /// cap); the document is not changed. Setting them re-runs the checks.
    const analysis::RunOptions& whatIf() const { return m_whatIf; }
    void setWhatIf(const analysis::RunOptions& w);
    /// Colour-scale ranges fixed by the user (by colouring name); absent: automatic.
    const std::map<std::string, std::pair<double, double>>& fixedRanges() const { return m_fixedRanges; }
    void setFixedRange(const QString& colouring, double lo, double hi);
    void clearFixedRange(const QString& colouring);
    /// Colourings shown on their data's range instead of their limits' scale (by name).
    const std::set<std::string>& dataRanged() const { return m_dataRanged; }
    void setDataRange(const QString& colouring, bool onData);
    /// The context every view colours with: design, violations, fields and the scale settings.
    editor::ColourContext colourContext() const;
    /// The colouring the views use ("Part kind", "Problems" or a field name).
    const QString& colouring() const { return m_colouring; }
    void setColouring(const QString& name);
    const QString& selection() const { return m_selection; }
    /// Rack body (template or inline path) being edited in the elevation.
    const std::string& currentRackBody() const { return m_rackBody; }
    /// Index of the rack shown in the elevation.
    int currentRack() const { return m_rack; }
    bool checksRunning() const;
    /// Stop the check in flight (checksCancelled follows); the last complete results stay.
    void cancelChecks();
    const QString& catalogDir() const { return m_catalogDir; }

    /// Replace the document (after New/Open/Recover). Clears undo history.
    void setDocument(editor::Document doc);
    /// Push an accepted proposal on the undo stack, or Q_EMIT refused() with its reason.
    bool tryEdit(const editor::Proposal& p);
    /// Select a subject by its full id (empty: none) and show its rack. False when the id is no
    /// rack or part of the design, nor `site` (a row or link class a problem names still selects).
    bool select(const QString& id);
    /// Save to `path` (atomic); emits saved(). Throws core::InputError.
    void saveAs(const QString& path);

Q_SIGNALS:
    void documentReplaced(); ///< a new or reopened document
    void designChanged();    ///< the expansion changed (edit, undo, redo)
    void selectionChanged(const QString& id);
    void checksStarted();
    void checksProgress(double fraction);
    void checksMessage(const QString& message); ///< what the check is doing (a room solve's residuals)
    void checksCancelled();
    void checksFinished(); ///< violations(), throughput(), power(), thermal() and fields() updated
    void colouringChanged(const QString& name);
    void fieldsChanged(); ///< fields() changed without a new check (telemetry read or grown)
    void refused(const QString& reason);
    void saved(const QString& path);

private:
    friend class EditCommand;
    void applyEdit(const editor::Edit& e, bool forward);
    void afterChange();
    void startChecks();

    QString m_catalogDir;
    std::unique_ptr<editor::Document> m_document;
    std::unique_ptr<editor::SubjectIndex> m_subjects;
    QUndoStack m_undo;
    QString m_selection;
    std::string m_rackBody;
    int m_rack = 0;
    std::vector<core::Violation> m_violations;
    std::shared_ptr<const SolverResults> m_results;
    QString m_colouring = "Part kind";
    analysis::RunOptions m_whatIf;
    std::map<std::string, std::pair<double, double>> m_fixedRanges;
    std::set<std::string> m_dataRanged;
    CheckRunner* m_runner = nullptr;
    std::vector<core::PartField> m_fields; ///< the check's, then the telemetry residuals
    QString m_telemetryPath, m_telemetryStatus;
    std::shared_ptr<const hil::Series> m_series;
    qint64 m_telemetryStamp = -1;
    QTimer* m_telemetryTimer = nullptr;
    void rebuildFields();
};

} // namespace rdt::gui
