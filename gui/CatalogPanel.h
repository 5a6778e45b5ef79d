#pragma once
/// \file CatalogPanel.h
/// Searchable tree of catalog parts grouped by kind, with the key figures of the selected
/// part. Parts that take rack slots drag into the elevation.

#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeWidget;

namespace rdt::gui {

class Studio;

class CatalogPanel : public QWidget {
    Q_OBJECT
public:
    explicit CatalogPanel(Studio& studio, QWidget* parent = nullptr);
    /// Show only parts whose slug, model or manufacturer contains `text` (case-insensitive).
    void filter(const QString& text);

private:
    void rebuild();
    void showDetails();

    Studio& m_studio;
    QLineEdit* m_search;
    QTreeWidget* m_tree;
    QLabel* m_details;
};

} // namespace rdt::gui
