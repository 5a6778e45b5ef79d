#include "gui/Studio.h"

#include <QFileInfo>
#include <QTimer>
#include <cmath>
#include <ctime>

#include "analysis/Hil.h"

#include "gui/CheckRunner.h"

namespace rdt::gui {

/// One editor::Edit on the undo stack.
class EditCommand : public QUndoCommand {
public:
    EditCommand(Studio& studio, editor::Edit edit)
        : QUndoCommand(QString::fromStdString(edit.description)), m_studio(studio), m_edit(std::move(edit))
    {
    }
    void redo() override { m_studio.applyEdit(m_edit, true); }
    void undo() override { m_studio.applyEdit(m_edit, false); }

private:
    Studio& m_studio;
    editor::Edit m_edit;
};

Studio::Studio(QString catalogDir, QObject* parent)
    : QObject(parent), m_catalogDir(std::move(catalogDir)),
      m_document(std::make_unique<editor::Document>(editor::Document::blank(m_catalogDir.toStdString()))),
      m_runner(new CheckRunner(this))
{
    connect(m_runner, &CheckRunner::finished, this,
            [this](const std::vector<core::Violation>& v, std::shared_ptr<const SolverResults> r) {
                m_violations = v;
                m_results = std::move(r);
                rebuildFields();
                if (m_results && !m_results->error.empty())
                    Q_EMIT refused("results incomplete: " + QString::fromStdString(m_results->error));
                Q_EMIT checksFinished();
                if (m_series)
                    Q_EMIT fieldsChanged(); // the residuals against the new results
            });
    connect(m_runner, &CheckRunner::progress, this, [this](double f, const QString& m) {
        Q_EMIT checksProgress(f);
        Q_EMIT checksMessage(m);
    });
    connect(m_runner, &CheckRunner::cancelled, this, [this] { Q_EMIT checksCancelled(); });
    connect(m_runner, &CheckRunner::failed, this,
            [this](const QString& msg) { Q_EMIT refused("checks failed: " + msg); });
    m_subjects = std::make_unique<editor::SubjectIndex>(m_document->design());
    m_rackBody = m_document->design().racks.front().bodyPath;
}

Studio::~Studio() = default;

void Studio::rebuildFields()
{
    m_fields = m_results ? m_results->fields : std::vector<core::PartField>{};
    if (!m_series || !m_results)
        return;
    try {
        const analysis::HilComparison c =
            analysis::compareTelemetry(design(), m_results->power.get(), m_results->thermal.get(), *m_series,
                                        m_results->liquid.get());
        for (core::PartField& f : analysis::residualFields(design(), c))
            m_fields.push_back(std::move(f));
        analysis::RunResult run;
        run.design = design();
        const std::vector<core::Violation> v = analysis::judgeTelemetry(run, c);
        std::size_t over = 0;
        for (const core::Violation& x : v)
            over += x.rule != "hil.telemetry.missing" && !x.waived ? 1 : 0;
        char when[32] = "-";
        if (!m_series->samples.empty()) {
            const std::time_t t = static_cast<std::time_t>(m_series->samples.back().unixTime);
            std::strftime(when, sizeof when, "%H:%M:%S UTC", std::gmtime(&t));
        }
        m_telemetryStatus = QStringLiteral("%1: %2 sweeps, last %3, %4 residuals over tolerance")
                                .arg(QFileInfo(m_telemetryPath).fileName())
                                .arg(m_series->samples.size())
                                .arg(when)
                                .arg(over);
    } catch (const core::InputError& e) {
        m_telemetryStatus = QString::fromStdString(e.what());
    }
}

bool Studio::setTelemetry(const QString& path, QString* error)
{
    try {
        m_series = std::make_shared<const hil::Series>(hil::readSeries(path.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    m_telemetryPath = path;
    const QFileInfo fi(path);
    m_telemetryStamp = fi.lastModified().toMSecsSinceEpoch() ^ fi.size();
    if (!m_telemetryTimer) {
        m_telemetryTimer = new QTimer(this);
        connect(m_telemetryTimer, &QTimer::timeout, this, &Studio::pollTelemetry);
        m_telemetryTimer->start(1000);
    }
    rebuildFields();
    Q_EMIT fieldsChanged();
    return true;
}

void Studio::pollTelemetry()
{
    if (m_telemetryPath.isEmpty())
        return;
    const QFileInfo fi(m_telemetryPath);
    const qint64 stamp = fi.lastModified().toMSecsSinceEpoch() ^ fi.size();
    if (stamp == m_telemetryStamp)
        return;
    try {
        m_series = std::make_shared<const hil::Series>(hil::readSeries(m_telemetryPath.toStdString()));
    } catch (const std::exception&) {
        return; // mid-write: the next tick reads it
    }
    m_telemetryStamp = stamp;
    rebuildFields();
    Q_EMIT fieldsChanged();
}

void Studio::setColouring(const QString& name)
{
    if (name == m_colouring)
        return;
    m_colouring = name;
    Q_EMIT colouringChanged(name);
}

bool Studio::checksRunning() const
{
    return m_runner->running();
}

void Studio::cancelChecks()
{
    m_runner->cancel();
}

void Studio::setDocument(editor::Document doc)
{
    m_undo.clear();
    m_document = std::make_unique<editor::Document>(std::move(doc));
    m_selection.clear();
    m_rack = 0;
    m_rackBody = m_document->design().racks.front().bodyPath;
    m_violations.clear();
    afterChange();
    m_undo.setClean();
    Q_EMIT documentReplaced();
}

bool Studio::tryEdit(const editor::Proposal& p)
{
    if (!p) {
        Q_EMIT refused(QString::fromStdString(p.refusal));
        return false;
    }
    m_undo.push(new EditCommand(*this, *p.edit));
    return true;
}

void Studio::applyEdit(const editor::Edit& e, bool forward)
{
    if (forward)
        m_document->apply(e);
    else
        m_document->revert(e);
    afterChange();
}

void Studio::afterChange()
{
    m_subjects = std::make_unique<editor::SubjectIndex>(m_document->design());
    // Keep the elevation on the same rack when it still exists.
    if (m_rack >= static_cast<int>(m_document->design().racks.size()))
        m_rack = 0;
    m_rackBody = m_document->design().racks[static_cast<std::size_t>(m_rack)].bodyPath;
    if (!m_selection.isEmpty() && !m_subjects->resolve(m_selection.toStdString()).valid()) {
        m_selection.clear();
        Q_EMIT selectionChanged(m_selection);
    }
    Q_EMIT designChanged();
    startChecks();
}

void Studio::startChecks()
{
    Q_EMIT checksStarted();
    std::shared_ptr<const core::Design> design = m_document->designSnapshot();
    const analysis::RunOptions& w = m_whatIf;
    if (w.anyWhatIf()) {
        // The same what-if code as `rdt check --scenario/--inlet/…`, on a copy of the design.
        auto copy = std::make_shared<core::Design>(*design);
        try {
            analysis::applyScenario(*copy, w);
            design = std::move(copy);
        } catch (const core::InputError& e) {
            // An edit left a what-if nothing to apply to (the last shelf on the lost feed removed):
            // say so, and check the design as written rather than a silently changed one.
            Q_EMIT refused("what-if not applied: " + QString::fromStdString(e.message()));
        }
    }
    m_runner->request(std::move(design));
}

void Studio::setWhatIf(const analysis::RunOptions& w)
{
    m_whatIf = w;
    startChecks();
}

void Studio::setFixedRange(const QString& colouring, double lo, double hi)
{
    m_fixedRanges[colouring.toStdString()] = {lo, hi};
    Q_EMIT colouringChanged(m_colouring);
}

void Studio::clearFixedRange(const QString& colouring)
{
    m_fixedRanges.erase(colouring.toStdString());
    Q_EMIT colouringChanged(m_colouring);
}

void Studio::setDataRange(const QString& colouring, bool onData)
{
    if (onData)
        m_dataRanged.insert(colouring.toStdString());
    else
        m_dataRanged.erase(colouring.toStdString());
    Q_EMIT colouringChanged(m_colouring);
}

editor::ColourContext Studio::colourContext() const
{
    return {design(), violations(), fields(), &m_fixedRanges, &m_dataRanged};
}

bool Studio::select(const QString& id)
{
    const editor::SubjectRef ref = m_subjects->resolve(id.toStdString());
    if (ref.rack >= 0 && ref.rack != m_rack) {
        m_rack = ref.rack;
        m_rackBody = m_document->design().racks[static_cast<std::size_t>(m_rack)].bodyPath;
    }
    const bool known = id.isEmpty() || ref.valid();
    if (id == m_selection)
        return known;
    m_selection = id;
    Q_EMIT selectionChanged(id);
    return known;
}

void Studio::saveAs(const QString& path)
{
    m_document->saveAs(path.toStdString());
    m_undo.setClean();
    Q_EMIT saved(path);
}

} // namespace rdt::gui
