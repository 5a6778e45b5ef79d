#include "gui/LayoutTree.h"

#include <QHeaderView>

#include "editor/Selection.h"
#include "gui/Studio.h"

namespace rdt::gui {

LayoutTree::LayoutTree(Studio& studio, QWidget* parent) : QTreeWidget(parent), m_studio(studio)
{
    setHeaderLabels({tr("Layout"), tr("GPUs")});
    setUniformRowHeights(true);
    setIndentation(14);
    // The names take the width the GPU counts leave: sized once to the halls, the column cut every
    // deeper node (the 24k example's expanded rows showed "r…" and racks no id at all).
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(&m_studio, &Studio::documentReplaced, this, &LayoutTree::rebuild);
    connect(&m_studio, &Studio::designChanged, this, &LayoutTree::rebuild);
    connect(&m_studio, &Studio::selectionChanged, this, &LayoutTree::follow);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) {
        if (m_updating || !it || it->data(0, Qt::UserRole).toString().isEmpty())
            return;
        const QString id = it->data(0, Qt::UserRole).toString();
        m_studio.select(id);
        Q_EMIT frameRequested(id);
    });
    rebuild();
}

void LayoutTree::rebuild()
{
    m_updating = true;
    clear();
    m_rackItems.clear();
    const core::Design& d = m_studio.design();
    std::vector<QTreeWidgetItem*> halls, pods, rows;
    auto gpus = [&](const std::vector<int>& racks) {
        std::size_t n = 0;
        for (int r : racks)
            for (const core::Slot& s : d.racks[static_cast<std::size_t>(r)].slots)
                n += static_cast<std::size_t>(core::Design::gpuCount(*s.part));
        return QString::number(n);
    };
    auto leaf = [](const std::string& id) { return QString::fromStdString(id.substr(id.rfind('/') + 1)); };
    auto tip = [](QTreeWidgetItem* it, const std::string& id) {
        it->setToolTip(0, QString::fromStdString(id));
        return it;
    };
    for (const core::Group& h : d.halls)
        halls.push_back(tip(new QTreeWidgetItem(this, {QString::fromStdString(h.id), gpus(h.racks)}), h.id));
    for (const core::Group& p : d.pods)
        pods.push_back(
            tip(new QTreeWidgetItem(halls[static_cast<std::size_t>(p.parent)], {leaf(p.id), gpus(p.racks)}), p.id));
    for (const core::Group& r : d.rows) {
        QTreeWidgetItem* parent =
            r.pod >= 0 ? pods[static_cast<std::size_t>(r.pod)] : halls[static_cast<std::size_t>(r.parent)];
        rows.push_back(tip(new QTreeWidgetItem(parent, {leaf(r.id), gpus(r.racks)}), r.id));
    }
    for (std::size_t i = 0; i < d.racks.size(); ++i) {
        const core::Rack& r = d.racks[i];
        auto* it =
            new QTreeWidgetItem(rows[static_cast<std::size_t>(r.row)], {leaf(r.id), gpus({static_cast<int>(i)})});
        it->setData(0, Qt::UserRole, QString::fromStdString(r.id));
        it->setToolTip(0, QString::fromStdString(r.id + " (" + r.rackType->slug + ")"));
        m_rackItems[static_cast<int>(i)] = it;
    }
    for (QTreeWidgetItem* h : halls)
        h->setExpanded(true);
    if (d.racks.size() < 50)
        expandAll();
    m_updating = false;
    follow(m_studio.selection());
}

void LayoutTree::follow(const QString& id)
{
    const editor::SubjectRef ref = m_studio.subjects().resolve(id.toStdString());
    const auto it = m_rackItems.find(ref.rack);
    if (it == m_rackItems.end())
        return;
    m_updating = true;
    setCurrentItem(it->second);
    scrollToItem(it->second);
    m_updating = false;
}

} // namespace rdt::gui
