#pragma once
/// \file LayoutTree.h
/// Navigation for large designs: hall → pod → row → rack. Selecting a rack shows it in the
/// elevation and frames it in 3D.

#include <QTreeWidget>

#include <unordered_map>

namespace rdt::gui {

class Studio;

class LayoutTree : public QTreeWidget {
    Q_OBJECT
public:
    explicit LayoutTree(Studio& studio, QWidget* parent = nullptr);

Q_SIGNALS:
    void frameRequested(const QString& id);

private:
    void rebuild();
    void follow(const QString& id);

    Studio& m_studio;
    std::unordered_map<int, QTreeWidgetItem*> m_rackItems;
    bool m_updating = false;
};

} // namespace rdt::gui
