#include "gui/LiquidPanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

#include "gui/NumberItem.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {

constexpr double kLpm = 1e-3 / 60.0;

QTableWidget* makeTable(const QStringList& headers)
{
    auto* t = new QTableWidget;
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setSortingEnabled(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(false);
    t->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    t->setTextElideMode(Qt::ElideNone);
    return t;
}

/// A state cell: red when a limit is passed, grey when it cannot be judged.
QTableWidgetItem* stateItem(const QString& text, bool bad)
{
    auto* s = new QTableWidgetItem(text);
    s->setForeground(bad ? QColor(190, 40, 35) : QColor(60, 64, 72));
    return s;
}

} // namespace

LiquidPanel::LiquidPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_headline(new QLabel),
      m_loops(makeTable({tr("Loop"), tr("State"), tr("CDUs\nrunning"), tr("Heat\n(kW)"), tr("Capacity\n(kW)"),
                         tr("Flow\n(L/min)"), tr("Pumps\n(%)"), tr("Supply\n(°C)"), tr("Setpoint\n(°C)"),
                         tr("Return\n(°C)"), tr("Facility\n(°C)"), tr("CDU draw\n(kW)")})),
      m_trays(makeTable({tr("Part"), tr("State"), tr("Liquid heat\n(kW)"), tr("Flow\n(L/min)"), tr("Flow\n(L/min/kW)"),
                         tr("In\n(°C)"), tr("Out\n(°C)"), tr("Connector\nmax (°C)"), tr("Plate case\n(°C)"),
                         tr("Port\n(kPa)"), tr("Rating\n(kPa)")}))
{
    m_headline->setWordWrap(true);
    auto* left = new QVBoxLayout;
    left->addWidget(m_headline);
    left->addWidget(m_loops, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 0);
    layout->addWidget(m_trays, 1);
    connect(&m_studio, &Studio::checksFinished, this, &LiquidPanel::refresh);
    connect(m_trays, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { m_studio.select(m_trays->item(row, 0)->text()); });
    refresh();
}

QString LiquidPanel::headline() const
{
    return m_headline->text();
}

void LiquidPanel::refresh()
{
    const auto L = m_studio.liquid();
    m_loops->setSortingEnabled(false);
    m_trays->setSortingEnabled(false);
    m_loops->setRowCount(0);
    m_trays->setRowCount(0);
    if (!L) {
        m_headline->setText(tr("No coolant solution yet (the checks run in the background)."));
        return;
    }
    if (L->loops.empty()) {
        m_headline->setText(tr("No liquid loops: the design's parts are air-cooled (a liquid: section adds "
                               "coolant loops, docs/liquid.md)."));
        return;
    }
    // The verdicts are the checks' own (the liquid rules' violations by subject), so the panel says what
    // the Problems list, the CLI and the reports say.
    std::map<std::string, QStringList> verdicts;
    for (const core::Violation& v : m_studio.violations())
        if (v.rule.rfind("liquid.", 0) == 0 && v.severity != core::Severity::Info && !v.waived)
            verdicts[v.subject] << QString::fromStdString(v.rule.substr(7));
    m_loops->setRowCount(static_cast<int>(L->loops.size()));
    int row = 0;
    int short_ = 0;
    for (const liquid::LoopLiquid& l : L->loops) {
        m_loops->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(l.id)));
        m_loops->setItem(row, 2,
                         new QTableWidgetItem(
                             QString("%1 of %2 %3").arg(l.running).arg(l.count).arg(QString::fromStdString(l.cdu))));
        // The heat liquid.cdu.heat judges (the budget's basis), against the capacity it judges it by
        // (limitW): the cells read as the verdict does (a 441.5 kW running heat under a 478.8 kW
        // capacity beside a failing cdu.heat: trust trial).
        m_loops->setItem(row, 3, new NumberItem(std::max(l.heatW, l.basisHeatW) / 1e3, 1));
        if (l.basisHeatW > l.heatW * (1 + 1e-9)) // what the CDUs are sized for (liquid.cdu.heat)
            m_loops->item(row, 3)->setToolTip(
                QString("%1 kW running; %2 kW at %3, what liquid.cdu.heat judges")
                    .arg(l.heatW / 1e3, 0, 'f', 1)
                    .arg(l.basisHeatW / 1e3, 0, 'f', 1)
                    .arg(QString::fromStdString(std::string(core::powerBasisName(L->basis)))));
        m_loops->setItem(row, 4, new NumberItem(l.limitW() / 1e3, 1));
        if (l.limitW() < l.capacityW)
            m_loops->item(row, 4)->setToolTip(
                QString("%1 kW rated; %2 kW at the %3 L/min the loop's control sets for its heat")
                    .arg(l.capacityW / 1e3, 0, 'f', 1)
                    .arg(l.capacityAtFlowW / 1e3, 0, 'f', 1)
                    .arg(l.basisFlowM3s / kLpm, 0, 'f', 0));
        m_loops->setItem(row, 5, new NumberItem(l.flowM3s / kLpm, 0));
        m_loops->setItem(row, 6, new NumberItem(l.pumpSpeed * 100, 0));
        m_loops->setItem(row, 7, new NumberItem(l.supplyC, 1));
        m_loops->setItem(row, 8, new NumberItem(l.setpointC, 1));
        m_loops->setItem(row, 9, new NumberItem(l.returnC, 1));
        m_loops->setItem(row, 10, new NumberItem(l.facilityC, 1));
        m_loops->setItem(row, 11, new NumberItem(l.electricalW / 1e3, 1));
        // The loop's own verdicts, then its racks' (manifold, rack connector, spread, leak zone).
        QStringList why;
        if (const auto it = verdicts.find(l.id); it != verdicts.end())
            why = it->second;
        for (int ri : l.racks) {
            const liquid::RackLiquid& rk = L->racks[static_cast<std::size_t>(ri)];
            if (const auto it = verdicts.find(rk.id); it != verdicts.end()) {
                const std::string shortId = rk.id.substr(rk.id.rfind('/') + 1);
                for (const QString& rule : it->second)
                    why << QString::fromStdString(shortId) + ": " + rule;
            }
        }
        const bool bad = !why.isEmpty();
        short_ += bad ? 1 : 0;
        m_loops->setItem(row, 1, stateItem(bad ? why.join(", ") : tr("ok"), bad));
        ++row;
    }
    // The parts nearest their flow allocation first.
    std::vector<const liquid::TrayLiquid*> trays;
    for (const liquid::TrayLiquid& t : L->trays)
        trays.push_back(&t);
    std::stable_sort(trays.begin(), trays.end(), [&](const auto* a, const auto* b) {
        return a->flowM3s / std::max(a->heatW, 1.0) < b->flowM3s / std::max(b->heatW, 1.0);
    });
    if (trays.size() > 5000)
        trays.resize(5000);
    m_trays->setRowCount(static_cast<int>(trays.size()));
    row = 0;
    int starved = 0;
    for (const liquid::TrayLiquid* t : trays) {
        m_trays->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(t->id)));
        m_trays->setItem(row, 2, new NumberItem(t->heatW / 1e3, 2));
        m_trays->setItem(row, 3, new NumberItem(t->flowM3s / kLpm, 2));
        m_trays->setItem(row, 4, new NumberItem(t->heatW > 0 ? t->flowM3s / kLpm / (t->heatW / 1e3) : NAN, 2));
        m_trays->setItem(row, 5, new NumberItem(t->inletC, 1));
        m_trays->setItem(row, 6, new NumberItem(t->outletC, 1));
        m_trays->setItem(row, 7, new NumberItem(t->connectorMaxC, 0));
        m_trays->setItem(row, 8, new NumberItem(t->caseC, 1));
        m_trays->setItem(row, 9, new NumberItem(t->supplyPortPa / 1e3, 0));
        m_trays->setItem(row, 10, new NumberItem(t->connectorMaxPa / 1e3, 0));
        const auto it = verdicts.find(t->id);
        const QStringList why = it != verdicts.end() ? it->second : QStringList();
        starved += why.isEmpty() ? 0 : 1;
        m_trays->setItem(row, 1, stateItem(why.isEmpty() ? tr("ok") : why.join(", "), !why.isEmpty()));
        ++row;
    }
    double heat = 0, sized = 0;
    for (const liquid::LoopLiquid& l : L->loops) {
        heat += l.heatW;
        sized += std::max(l.heatW, l.basisHeatW);
    }
    // The CDUs are judged on the budget's basis: say what they are sized for where that is more.
    const QString basis = sized > heat * (1 + 1e-9)
                              ? tr(" (CDUs sized for %1 kW at %2)")
                                    .arg(sized / 1e3, 0, 'f', 1)
                                    .arg(QString::fromStdString(std::string(core::powerBasisName(L->basis))))
                              : QString();
    QString head = tr("<b>%1 liquid loop(s)</b>, %2 kW into %3 coolant%7; %4 loop(s) and %5 of %6 parts with a "
                      "liquid error or warning")
                       .arg(L->loops.size())
                       .arg(heat / 1e3, 0, 'f', 1)
                       .arg(QString::fromStdString(L->coolant).toUpper())
                       .arg(short_)
                       .arg(starved)
                       .arg(L->trays.size())
                       .arg(basis);
    head += tr("<br>room dew point %1 °C; parts listed least flow per kW first").arg(L->dewPointC, 0, 'f', 1);
    if (!L->loops.front().scenario.empty())
        head += tr("<br>what-if: %1").arg(QString::fromStdString(L->loops.front().scenario));
    m_headline->setText(head);
    m_loops->setSortingEnabled(true);
    m_trays->setSortingEnabled(true);
    m_loops->resizeColumnsToContents();
    m_trays->resizeColumnsToContents();
    int width = 2 * m_loops->frameWidth() + m_loops->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < m_loops->columnCount(); ++c)
        width += m_loops->columnWidth(c);
    m_loops->setMinimumWidth(std::min(width, 760));
}

} // namespace rdt::gui
