#pragma once
/// \file ProblemsPanel.h
/// Rule violations grouped by rule, with counts. Clicking one selects its subject, and the
/// elevation and 3D view frame it.

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rdt::gui {

class Studio;

class ProblemsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(Studio& studio, QWidget* parent = nullptr);
    /// Number of violation rows shown (tests).
    int rowCount() const;
    /// Act as if row `index` (in display order) was clicked.
    void activate(int index);
    /// Expand and scroll to the violations of `rule`; false when it has none.
    bool showRule(const QString& rule);
    /// The counts line over the list (tests).
    QString header() const;
    /// A rule's group item holds its severity's name ("error", "warning", "info") in this role, its
    /// icon the same severity's (tests).
    static constexpr int kSeverityRole = 0x0101; // Qt::UserRole + 1
    /// The group items, in display order (tests).
    QTreeWidget* tree() const { return m_tree; }

Q_SIGNALS:
    void frameRequested(const QString& id);

private:
    void rebuild();
    void onItem(QTreeWidgetItem* item);

    Studio& m_studio;
    QLabel* m_header;
    QTreeWidget* m_tree;
};

} // namespace rdt::gui
