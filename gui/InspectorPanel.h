#pragma once
/// \file InspectorPanel.h
/// Properties of the selection (site, rack or slot), editable with units and validated as
/// you type: a value that does not parse turns red and says why; a valid one is committed
/// through the undo stack when editing finishes.

#include <QWidget>

#include <string>
#include <vector>

#include "analysis/Throughput.h"
#include "core/Rules.h"
#include "core/Units.h"
#include "gui/ValueLabel.h"

class QGridLayout;
class QLineEdit;
class QScrollArea;

namespace rdt::gui {

class Studio;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(Studio& studio, QWidget* parent = nullptr);

    /// Result rows shown (tests).
    int rows() const;
    /// The panel's current contents (tests: every ValueLabel in it fits).
    QWidget* body() const { return m_body; }

    /// One pass/fail mark the inspector shows: its rule, the subject it is judged on (the selected
    /// rack or part, or a link class for a link's row) and whether it is failed. A mark is failed
    /// exactly when an unwaived error or warning of that rule names the subject or, for a rack, one
    /// of its parts: the violation list the Problems panel and `rdt check` show, never a comparison
    /// made here.
    /// A link class's row is marked by the class's standing instead (signal::LinkVerdict::standing:
    /// its rules' findings applied, as the Signal panel colours it and rdt check words it): failed
    /// where its verdict is a fail, `warned` where it passes with a warning or at a fallback rate
    /// (until 2026-12-07 the row showed a green mark beside "fail (link.endpoint.missing, …)").
    struct Verdict {
        std::string rule;
        std::string subject;
        bool failed = false;
        bool warned = false;
    };
    /// The marks of the selection, in the order shown.
    const std::vector<Verdict>& verdicts() const { return m_verdicts; }

Q_SIGNALS:
    /// A rule link was clicked.
    void ruleActivated(const QString& ruleId);

private:
    void rebuild();
    void showSite();
    void showRack(int rack);
    void showSlot(int rack, int slot);
    /// A row: its label (wrapped, grey) and its field; a heading spans both columns.
    void addRow(const QString& label, QWidget* field);
    void addHeading(const QString& text);
    void addInfo(const QString& label, const QString& value);
    /// A field with a unit; `commit(text)` runs when a valid value is entered (empty = default).
    QLineEdit* addQuantity(const QString& label, const QString& current, core::Dimension dim, core::Range range,
                           std::function<void(const QString&)> commit, const QString& defaultText = {});
    /// A result with its unit; with a rule id: the rule's verdict on `subject` (failed(): a
    /// violation of the rule names it) as a pass/fail mark, and a link to the rule. Returns the value.
    ValueLabel* addResult(const QString& label, const QString& value, const std::string& rule = {},
                          const std::string& subject = {}, int maxLines = 5);
    /// True when an unwaived warning of `rule` names `subject` or something inside it
    /// (`subject/...`: a rack's parts).
    bool warned(const std::string& rule, const std::string& subject) const;
    /// The same for an unwaived error (the row's ✗; a warning alone is its ⚠).
    bool failed(const std::string& rule, const std::string& subject) const;
    /// Every rule with a violation on `subject` (or inside it) that no result row has shown yet: its
    /// verdict and first message, so that nothing the Problems panel lists is missing here.
    void otherChecks(const std::string& subject);
    void rackResults(int rack);
    void slotResults(int rack, int slot);

    Studio& m_studio;
    core::CheckRegistry m_rules;
    QScrollArea* m_scroll = nullptr;
    QGridLayout* m_grid = nullptr;
    QWidget* m_body = nullptr;
    int m_rows = 0;
    std::vector<Verdict> m_verdicts;
    /// analysis::chassisClocks() of the results (power, thermal) it was computed from.
    std::vector<std::vector<analysis::ChassisClock>> m_clocks;
    std::pair<const void*, const void*> m_clocksOf{nullptr, nullptr};
};

} // namespace rdt::gui
