#include "gui/ProblemsPanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include "core/Rules.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {
constexpr int kMaxPerRule = 500; // a list of thousands helps nobody; the count says the rest

/// Four figures; an unbounded value (a GPU junction with no air through its chassis) in words.
/// `v` to 4 significant figures, or as many more (up to 10) as tell it apart from `beside` (its limit
/// or its measured value): 0.87 W over a 22.51 kW feed read "22.51 kW" against "22.51 kW" (trust trial).
QString number(double v, double beside = NAN)
{
    if (std::isinf(v))
        return v > 0 ? QObject::tr("unbounded") : QObject::tr("-unbounded");
    if (!std::isfinite(v))
        return QString();
    int figures = 4;
    if (std::isfinite(beside) && v != beside)
        while (figures < 10 && QString::number(v, 'g', figures) == QString::number(beside, 'g', figures))
            ++figures;
    return QString::number(v, 'g', figures);
}
} // namespace

ProblemsPanel::ProblemsPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_header(new QLabel), m_tree(new QTreeWidget)
{
    m_tree->setHeaderLabels({tr("Problem"), tr("Subject"), tr("Measured"), tr("Limit"), tr("Where")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) { onItem(it); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) { onItem(it); });
    connect(&m_studio, &Studio::checksFinished, this, &ProblemsPanel::rebuild);
    connect(&m_studio, &Studio::checksStarted, this,
            [this] { m_header->setText(m_header->text() + tr("  · checking…")); });
    rebuild();
}

bool ProblemsPanel::showRule(const QString& rule)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (group->text(0).section(' ', 0, 0) == rule) {
            group->setExpanded(true);
            m_tree->setCurrentItem(group);
            m_tree->scrollToItem(group, QAbstractItemView::PositionAtTop);
            return true;
        }
    }
    return false;
}

void ProblemsPanel::rebuild()
{
    m_tree->clear();
    std::map<std::string, std::vector<const core::Violation*>> byRule;
    std::size_t errors = 0, warnings = 0, infos = 0, waived = 0;
    for (const auto& v : m_studio.violations()) {
        byRule[v.rule].push_back(&v);
        if (v.waived)
            ++waived;
        else if (v.severity == core::Severity::Error)
            ++errors;
        else if (v.severity == core::Severity::Warning)
            ++warnings;
        else
            ++infos;
    }
    auto count = [](std::size_t n, const char* one, const char* many) {
        return QString("%1 %2").arg(n).arg(n == 1 ? one : many);
    };
    QString head = errors + warnings == 0
                       ? tr("<b style='color:#2a8a3a'>✔ No problems</b>  (%1 info, %2 waived)").arg(infos).arg(waived)
                       : tr("<b style='color:#c0302a'>%1</b>, <b style='color:#c07a10'>%2</b>, %3 info, %4 waived")
                             .arg(count(errors, "error", "errors"), count(warnings, "warning", "warnings"))
                             .arg(infos)
                             .arg(waived);
    // A waiver that waives nothing (a mistyped subject), as rdt check names it; the list in the tooltip.
    QStringList unused;
    for (const core::Waiver& w : m_studio.unusedWaivers())
        unused << QString::fromStdString(w.rule + " on " + w.subject + " (" + w.loc.position() + ")");
    if (!unused.isEmpty())
        head += tr(" · <span style='color:#c07a10'>%1 waived nothing</span>")
                    .arg(count(static_cast<std::size_t>(unused.size()), "waiver", "waivers"));
    m_header->setText(head);
    m_header->setToolTip(unused.isEmpty() ? QString() : tr("Waivers that match no violation:\n") + unused.join("\n"));
    // Errors first, then warnings, infos and what is all waived; by rule id within each (the map's
    // order put the 24k example's 64 chassis errors under two warnings; trust trial, 2026-12-07).
    const auto rank = [](const std::vector<const core::Violation*>& list) {
        int best = 3;
        for (const core::Violation* v : list)
            best = std::min(best, v->waived                                ? 3
                                  : v->severity == core::Severity::Error   ? 0
                                  : v->severity == core::Severity::Warning ? 1
                                                                           : 2);
        return best;
    };
    std::vector<std::pair<int, const std::string*>> order;
    for (const auto& [rule, list] : byRule)
        order.emplace_back(rank(list), &rule);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [groupRank, rulePtr] : order) {
        const std::string& rule = *rulePtr;
        const std::vector<const core::Violation*>& list = byRule.at(rule);
        const core::Violation& first = *list.front();
        auto* group =
            new QTreeWidgetItem(m_tree, {QString("%1  (%2)").arg(QString::fromStdString(rule)).arg(list.size())});
        // The rule's severity, each its own icon: an info (a figure not checked, a note) is not a warning.
        group->setIcon(0, style()->standardIcon(first.severity == core::Severity::Error ? QStyle::SP_MessageBoxCritical
                                                : first.severity == core::Severity::Warning
                                                    ? QStyle::SP_MessageBoxWarning
                                                    : QStyle::SP_MessageBoxInformation));
        group->setData(0, kSeverityRole, QString::fromStdString(std::string(core::severityName(first.severity))));
        QFont f = group->font(0);
        f.setBold(true);
        group->setFont(0, f);
        for (std::size_t i = 0; i < list.size() && i < kMaxPerRule; ++i) {
            const core::Violation& v = *list[i];
            auto* it = new QTreeWidgetItem(
                group, {QString::fromStdString(v.message), QString::fromStdString(v.subject),
                        std::isinf(v.measured) ? number(v.measured)
                                               : number(v.measured, v.limit) + " " + QString::fromStdString(v.unit),
                        number(v.limit, v.measured) + " " + QString::fromStdString(v.unit),
                        QString("%1:%2").arg(QString::fromStdString(v.loc.file)).arg(v.loc.line)});
            it->setData(0, Qt::UserRole, QString::fromStdString(v.subject));
            it->setToolTip(0, QString::fromStdString(v.message + (v.waived ? "\nwaived: " + v.justification : "")));
            if (v.waived)
                for (int c = 0; c < 5; ++c)
                    it->setForeground(c, QColor(140, 140, 140));
        }
        if (list.size() > kMaxPerRule)
            new QTreeWidgetItem(group, {tr("… and %1 more").arg(list.size() - kMaxPerRule)});
    }
    m_tree->expandAll();
    m_tree->resizeColumnToContents(1);
}

int ProblemsPanel::rowCount() const
{
    int n = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        n += m_tree->topLevelItem(i)->childCount();
    return n;
}

void ProblemsPanel::activate(int index)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* g = m_tree->topLevelItem(i);
        if (index < g->childCount())
            return onItem(g->child(index));
        index -= g->childCount();
    }
}

void ProblemsPanel::onItem(QTreeWidgetItem* item)
{
    const QString id = item->data(0, Qt::UserRole).toString();
    if (id.isEmpty())
        return;
    m_studio.select(id);
    Q_EMIT frameRequested(id);
}

QString ProblemsPanel::header() const
{
    return m_header->text();
}

} // namespace rdt::gui
