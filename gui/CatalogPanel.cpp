#include "gui/CatalogPanel.h"

#include <QDrag>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

#include "gui/Studio.h"

namespace rdt::gui {

namespace {

/// A tree whose part items start a drag carrying the slug.
class PartTree : public QTreeWidget {
public:
    using QTreeWidget::QTreeWidget;

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override
    {
        if (items.isEmpty() || items.front()->data(0, Qt::UserRole).toString().isEmpty())
            return nullptr;
        auto* m = new QMimeData;
        m->setData("application/x-rdt-part", items.front()->data(0, Qt::UserRole).toString().toUtf8());
        m->setText(items.front()->data(0, Qt::UserRole).toString());
        return m;
    }
};

QString figure(const core::Part& p, const char* field, core::Dimension dim, const char* label)
{
    const auto it = p.values.find(field);
    if (it == p.values.end())
        return {};
    const core::SourcedValue& v = it->second;
    const QString value = QString::fromStdString(v.written.empty() ? core::formatQuantity(v.si, dim) : v.written);
    const QString tag = v.provenance.kind == core::Provenance::Kind::Estimate ? " <i>(estimate)</i>" : "";
    return QString("<tr><td>%1</td><td><b>%2</b>%3</td></tr>").arg(label, value.toHtmlEscaped(), tag);
}

} // namespace

CatalogPanel::CatalogPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_search(new QLineEdit), m_tree(new PartTree), m_details(new QLabel)
{
    m_search->setPlaceholderText(tr("Search parts…"));
    m_search->setClearButtonEnabled(true);
    m_tree->setHeaderLabels({tr("Part"), tr("OU")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setDragEnabled(true);
    m_tree->setDragDropMode(QAbstractItemView::DragOnly);
    m_tree->setRootIsDecorated(true);
    m_tree->setIndentation(12);
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMinimumHeight(110);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_search);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_details);
    connect(m_search, &QLineEdit::textChanged, this, &CatalogPanel::filter);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &CatalogPanel::showDetails);
    connect(&m_studio, &Studio::documentReplaced, this, &CatalogPanel::rebuild);
    rebuild();
}

void CatalogPanel::rebuild()
{
    m_tree->clear();
    const core::Catalog& cat = *m_studio.design().catalog;
    std::map<std::string, QTreeWidgetItem*> groups;
    static const std::map<std::string, QString> titles = {{"chassis", tr("GPU chassis")},
                                                          {"power-shelf", tr("Power shelves")},
                                                          {"bbu-shelf", tr("Battery shelves")},
                                                          {"switch", tr("Switches")},
                                                          {"device", tr("Other devices")},
                                                          {"rack", tr("Rack types")},
                                                          {"gpu", tr("GPUs")},
                                                          {"nic", tr("NICs")},
                                                          {"cable", tr("Cables")},
                                                          {"cdu", tr("Coolant distribution units")}};
    for (const char* k :
         {"chassis", "power-shelf", "bbu-shelf", "switch", "device", "rack", "gpu", "nic", "cable", "cdu"}) {
        auto* g = new QTreeWidgetItem(m_tree, {titles.at(k)});
        g->setFlags(Qt::ItemIsEnabled);
        QFont f = g->font(0);
        f.setBold(true);
        g->setFont(0, f);
        groups[k] = g;
    }
    for (const std::string& slug : cat.slugs()) {
        const core::Part& p = *cat.find(slug);
        auto* item = new QTreeWidgetItem(groups[std::string(core::partKindName(p.kind))],
                                         {QString::fromStdString(slug), p.ouHeight ? QString::number(p.ouHeight) : ""});
        item->setData(0, Qt::UserRole, QString::fromStdString(slug));
        item->setToolTip(0, QString::fromStdString(p.manufacturer + " " + p.model));
        item->setFlags(p.slottable() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled
                                     : Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    }
    for (auto& [k, g] : groups)
        g->setHidden(g->childCount() == 0);
    m_tree->expandAll();
    filter(m_search->text());
}

void CatalogPanel::filter(const QString& text)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* g = m_tree->topLevelItem(i);
        int visible = 0;
        for (int j = 0; j < g->childCount(); ++j) {
            QTreeWidgetItem* it = g->child(j);
            const bool show = text.isEmpty() || it->text(0).contains(text, Qt::CaseInsensitive) ||
                              it->toolTip(0).contains(text, Qt::CaseInsensitive);
            it->setHidden(!show);
            visible += show;
        }
        g->setHidden(visible == 0);
    }
}

void CatalogPanel::showDetails()
{
    QTreeWidgetItem* it = m_tree->currentItem();
    const core::Part* p =
        it ? m_studio.design().catalog->find(it->data(0, Qt::UserRole).toString().toStdString()) : nullptr;
    if (!p) {
        m_details->setText(tr("<i>Select a part; drag rack parts into the elevation.</i>"));
        return;
    }
    QString html = QString("<b>%1</b> %2<br><span style='color:#666'>%3</span><table cellspacing=2>")
                       .arg(QString::fromStdString(p->manufacturer).toHtmlEscaped(),
                            QString::fromStdString(p->model).toHtmlEscaped(), QString::fromStdString(p->slug));
    using D = core::Dimension;
    if (p->ouHeight)
        html += QString("<tr><td>height</td><td><b>%1 OU</b></td></tr>").arg(p->ouHeight);
    for (const QString& row :
         {figure(*p, "power.max", D::Power, "max power"), figure(*p, "weight", D::Mass, "weight"),
          figure(*p, "tdp", D::Power, "TDP"), figure(*p, "bf16_dense", D::ComputeRate, "BF16 dense"),
          figure(*p, "module_rating", D::Power, "module"), figure(*p, "busbar_rating", D::Current, "busbar"),
          figure(*p, "power_n1", D::Power, "N+1 power"), figure(*p, "capacity", D::DataRate, "capacity"),
          figure(*p, "length", D::Length, "length"), figure(*p, "depth", D::Length, "depth")})
        html += row;
    if (p->kind == core::PartKind::Chassis)
        html += QString("<tr><td>GPUs</td><td><b>%1 × %2</b></td></tr>")
                    .arg(static_cast<int>(p->value("gpus.count", 0)))
                    .arg(QString::fromStdString(p->text("gpus.part")));
    html += "</table>";
    m_details->setText(html);
}

} // namespace rdt::gui
