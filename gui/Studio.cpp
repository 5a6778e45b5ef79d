#include "gui/Studio.h"

#include <cmath>

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
                Q_EMIT checksFinished();
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
    if (w.failedRotors > 0 || !w.lostFeed.empty() || w.inletK > 0 || !std::isnan(w.altitudeM) ||
        std::isfinite(w.gpuCapW)) {
        // The same what-if code as `rdt check --scenario/--inlet/…`, on a copy of the design.
        auto copy = std::make_shared<core::Design>(*design);
        analysis::applyScenario(*copy, w);
        design = std::move(copy);
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

void Studio::select(const QString& id)
{
    const editor::SubjectRef ref = m_subjects->resolve(id.toStdString());
    if (ref.rack >= 0 && ref.rack != m_rack) {
        m_rack = ref.rack;
        m_rackBody = m_document->design().racks[static_cast<std::size_t>(m_rack)].bodyPath;
    }
    if (id == m_selection)
        return;
    m_selection = id;
    Q_EMIT selectionChanged(id);
}

void Studio::saveAs(const QString& path)
{
    m_document->saveAs(path.toStdString());
    m_undo.setClean();
    Q_EMIT saved(path);
}

} // namespace rdt::gui
