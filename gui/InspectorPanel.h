#pragma once
/// \file InspectorPanel.h
/// Properties of the selection (site, rack or slot), editable with units and validated as
/// you type: a value that does not parse turns red and says why; a valid one is committed
/// through the undo stack when editing finishes.

#include <QWidget>

#include "core/Rules.h"
#include "core/Units.h"

class QFormLayout;
class QLineEdit;

namespace rdt::gui {

class Studio;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(Studio& studio, QWidget* parent = nullptr);

    /// Result rows shown (tests).
    int rows() const;

Q_SIGNALS:
    /// A rule link was clicked.
    void ruleActivated(const QString& ruleId);

private:
    void rebuild();
    void showSite();
    void showRack(int rack);
    void showSlot(int rack, int slot);
    void addInfo(const QString& label, const QString& value);
    /// A field with a unit; `commit(text)` runs when a valid value is entered (empty = default).
    QLineEdit* addQuantity(const QString& label, const QString& current, core::Dimension dim, core::Range range,
                           std::function<void(const QString&)> commit, const QString& defaultText = {});
    /// A result with its unit; with a rule id: a pass/fail mark and a link to the rule.
    void addResult(const QString& label, const QString& value, const std::string& rule, bool bad = false);
    void rackResults(int rack);
    void slotResults(int rack, int slot);

    Studio& m_studio;
    core::CheckRegistry m_rules;
    QFormLayout* m_form = nullptr;
    QWidget* m_body = nullptr;
};

} // namespace rdt::gui
