#include "gui/PowerPanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "gui/NumberItem.h"
#include "gui/Studio.h"
#include "power/PowerChecks.h"

namespace rdt::gui {

/// Horizontal bars of one rack's load against each of its limits, green under 90 %, amber to
/// 100 %, red beyond, with the limit's value and the percentage printed on the bar.
class LoadBars : public QWidget {
public:
    struct Bar {
        QString label;
        double load = 0, limit = 0;
        QString unit;
        bool higherIsWorse = true; ///< false: the value must reach the limit (hold-up)
    };
    explicit LoadBars(QWidget* parent = nullptr) : QWidget(parent) { setMinimumHeight(100); }
    void setBars(QString title, std::vector<Bar> bars)
    {
        m_title = std::move(title);
        m_bars = std::move(bars);
        setMinimumHeight(26 + 20 * static_cast<int>(m_bars.size()));
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.fillRect(rect(), palette().base());
        p.setPen(palette().text().color());
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRect(8, 4, width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter, m_title);
        p.setFont(font());
        const int labelW = 150, x0 = 8 + labelW, w = std::max(60, width() - x0 - 16);
        int y = 28;
        for (const Bar& b : m_bars) {
            p.setPen(palette().text().color());
            p.drawText(QRect(8, y, labelW - 6, 18), Qt::AlignLeft | Qt::AlignVCenter, b.label);
            const double frac = b.limit > 0 && std::isfinite(b.load) ? b.load / b.limit : NAN;
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(226, 229, 234));
            p.drawRoundedRect(QRectF(x0, y + 2, w, 14), 3, 3);
            if (std::isfinite(frac)) {
                const bool bad = b.higherIsWorse ? frac > 1.0 : frac < 1.0;
                const bool close = b.higherIsWorse ? frac > 0.9 : frac < 1.1;
                p.setBrush(bad ? QColor(200, 45, 40) : close ? QColor(236, 150, 30) : QColor(72, 160, 90));
                p.drawRoundedRect(QRectF(x0, y + 2, w * std::clamp(frac, 0.0, 1.0), 14), 3, 3);
                p.setPen(bad ? QColor(255, 255, 255) : QColor(30, 32, 38));
                if (!b.higherIsWorse && frac < 0.3)
                    p.setPen(QColor(190, 40, 35));
                const QString text =
                    b.higherIsWorse
                        ? QString("%1 of %2 %3  (%4 %)")
                              .arg(b.load, 0, 'f', 1)
                              .arg(b.limit, 0, 'f', 1)
                              .arg(b.unit)
                              .arg(frac * 100.0, 0, 'f', 0)
                        : QString("%1 %3, %2 %3 required").arg(b.load, 0, 'f', 0).arg(b.limit, 0, 'f', 0).arg(b.unit);
                p.drawText(QRect(x0 + 6, y, w - 12, 18), Qt::AlignLeft | Qt::AlignVCenter, text);
            } else {
                p.setPen(QColor(90, 94, 100));
                p.drawText(QRect(x0 + 6, y, w - 12, 18), Qt::AlignLeft | Qt::AlignVCenter, tr("not applicable"));
            }
            y += 20;
        }
    }

private:
    static QString tr(const char* s) { return QString::fromUtf8(s); }
    QString m_title;
    std::vector<Bar> m_bars;
};

PowerPanel::PowerPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_headline(new QLabel), m_bars(new LoadBars), m_table(new QTableWidget)
{
    const QStringList headers = {tr("Rack"),           tr("Load (kW)"),      tr("Modelled (kW)"), tr("N+1 (kW)"),
                                 tr("Feed loss (kW)"), tr("Busbar (A)"),     tr("Rating (A)"),    tr("Busbar (%)"),
                                 tr("Hold-up (s)"),    tr("Cap to fit (W)"), tr("Failing rules")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setSortingEnabled(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_headline->setWordWrap(true);
    auto* top = new QVBoxLayout;
    top->addWidget(m_headline);
    top->addWidget(m_bars);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top, 2);
    layout->addWidget(m_table, 3);
    connect(&m_studio, &Studio::checksFinished, this, &PowerPanel::refresh);
    connect(&m_studio, &Studio::selectionChanged, this, [this] { showRack(m_studio.currentRack()); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { m_studio.select(m_table->item(row, 0)->text()); });
    refresh();
}

QString PowerPanel::headline() const
{
    return m_headline->text();
}

void PowerPanel::refresh()
{
    const auto power = m_studio.power();
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!power) {
        m_headline->setText(tr("No power budget yet (the checks run in the background)."));
        m_bars->setBars({}, {});
        return;
    }
    const power::GroupPower& c = power->cluster;
    // kW, or MW from 1,000 kW (a 24k cluster's 33,600 kW reads as 33.6 MW, as `rdt check` says).
    auto watts = [](double w) {
        return std::fabs(w) >= 1e6 ? QString("%1 MW").arg(w / 1e6, 0, 'f', 1)
                                   : QString("%1 kW").arg(w / 1e3, 0, 'f', 1);
    };
    // The facility's AC covers the fed load only: said so where racks are not fed, as `rdt check`
    // does (facility AC below the IT load read as a contradiction).
    const QString unfed =
        c.unfedLoadW > 0
            ? tr(" for the fed load (%1 in racks without a power shelf is not fed)").arg(watts(c.unfedLoadW))
            : QString();
    // The CDUs' pumps and fans: facility AC beside the IT load, as `rdt check` gives them (the panel
    // left them out: a liquid design's 20 kW of CDUs appeared nowhere in the app: studio trial).
    QString cdus;
    if (!power->cdus.empty()) {
        int units = 0;
        for (const power::CduPower& cdu : power->cdus)
            units += cdu.units;
        cdus = tr(" + %1 %2").arg(units == 1 ? tr("1 CDU") : tr("%1 CDUs").arg(units)).arg(watts(c.cduW));
        if (power->basis != core::PowerBasis::Modelled)
            cdus += tr(" (modelled %1)").arg(watts(c.cduModelledW));
    }
    QString head = tr("<b>%1 basis</b>: IT %2 (modelled %3), facility AC %4%5%6, %7 over budget")
                       .arg(QString::fromStdString(std::string(core::powerBasisName(power->basis))))
                       .arg(watts(c.itLoadW))
                       .arg(watts(c.modelledLoadW))
                       .arg(watts(c.acInputW))
                       .arg(unfed)
                       .arg(cdus)
                       .arg(c.racksOverBudget == 1 ? tr("1 rack") : tr("%1 racks").arg(c.racksOverBudget));
    // Which rules, and which failures a waiver accepted: as `rdt check` says (trust trial, 2026-12-07).
    QStringList rules;
    for (const auto& [rule, n] : power::failuresByRule(*power, m_studio.violations()))
        rules << QString("%1 %2%3")
                     .arg(QString::fromStdString(rule))
                     .arg(n.racks)
                     .arg(n.waived == n.racks ? tr(" waived")
                          : n.waived > 0      ? tr(" (%1 waived)").arg(n.waived)
                                              : QString());
    if (!rules.isEmpty())
        head += " (" + rules.join(", ") + ")";
    if (std::isfinite(power->suggestedGpuCapW))
        head += tr("; a %1 W per-GPU cap clears every failing power rule").arg(std::floor(power->suggestedGpuCapW));
    m_headline->setText(head);
    // Very large designs: the table lists the racks over budget first and at most 2,000 rows.
    const int rows = static_cast<int>(std::min<std::size_t>(power->racks.size(), 2000));
    m_table->setRowCount(rows);
    int row = 0;
    auto add = [&](const power::RackPower& r) {
        if (row >= rows)
            return;
        std::string failing;
        for (const std::string& f : r.failures)
            failing += (failing.empty() ? "" : ", ") + f;
        // A rack without a power shelf has no N+1, feed-loss or hold-up figure to judge: "–", not 0.
        const double none = NAN;
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(r.id)));
        m_table->setItem(row, 1, new NumberItem(r.itLoadW / 1e3, 2));
        m_table->setItem(row, 2, new NumberItem(r.modelledLoadW / 1e3, 2));
        m_table->setItem(row, 3, new NumberItem(r.fed ? r.n1LimitW() / 1e3 : none, 1)); // what orv3.shelf.n1 judges
        m_table->setItem(row, 4, new NumberItem(r.fed ? r.capacityFeedLossW / 1e3 : none, 1));
        m_table->setItem(row, 5, new NumberItem(r.busbarCurrentA, 1));
        m_table->setItem(row, 6, new NumberItem(r.busbarRatingA, 0));
        m_table->setItem(row, 7,
                         new NumberItem(r.busbarRatingA > 0 ? 100.0 * r.busbarCurrentA / r.busbarRatingA : NAN, 1));
        m_table->setItem(row, 8, new NumberItem(r.fed && std::isfinite(r.bbuHoldupS) ? r.bbuHoldupS : none, 0));
        m_table->setItem(row, 9, new NumberItem(r.gpuCapToFitW, 0));
        // Each figure red where the rule that judges it fails for this rack (the Failing column's rules).
        const std::pair<int, const char*> judged[] = {
            {0, "orv3.power.source"},   {1, "orv3.shelf.capacity"}, {3, "orv3.shelf.n1"},  {4, "orv3.feed.loss"},
            {5, "orv3.busbar.current"}, {7, "orv3.busbar.current"}, {8, "orv3.bbu.holdup"}};
        for (const auto& [col, rule] : judged)
            if (r.fails(rule)) {
                QTableWidgetItem* item = m_table->item(row, col);
                item->setForeground(QColor(190, 40, 35));
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setToolTip(tr("fails %1").arg(rule));
            }
        auto* f = new QTableWidgetItem(failing.empty() ? tr("fits") : QString::fromStdString(failing));
        f->setForeground(failing.empty() ? QColor(40, 130, 60) : QColor(190, 40, 35));
        m_table->setItem(row, 10, f);
        ++row;
    };
    for (const power::RackPower& r : power->racks)
        if (!r.fits)
            add(r);
    for (const power::RackPower& r : power->racks)
        if (r.fits)
            add(r);
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    showRack(m_studio.currentRack());
}

void PowerPanel::showRack(int rack)
{
    const auto power = m_studio.power();
    if (!power || rack < 0 || static_cast<std::size_t>(rack) >= power->racks.size()) {
        m_bars->setBars({}, {});
        return;
    }
    const power::RackPower& r = power->racks[static_cast<std::size_t>(rack)];
    std::vector<LoadBars::Bar> bars;
    bars.push_back({tr("Load vs N+1"), r.itLoadW / 1e3, r.n1LimitW() / 1e3, "kW"});
    bars.push_back({tr("Load vs feed loss"), r.itLoadW / 1e3, r.capacityFeedLossW / 1e3, "kW"});
    bars.push_back({tr("Load vs all shelves (N)"), r.itLoadW / 1e3, r.capacityNW / 1e3, "kW"});
    bars.push_back({tr("Busbar current"), r.busbarCurrentA, r.busbarRatingA, "A"});
    bars.push_back(
        {tr("Battery hold-up"), std::isfinite(r.bbuHoldupS) ? r.bbuHoldupS : 1e9, power->rideThroughS, "s", false});
    QString title = QString::fromStdString(r.id) +
                    (r.shelves.size() == 1 ? tr(" — 1 shelf") : tr(" — %1 shelves").arg(r.shelves.size()));
    for (const power::ShelfPower& s : r.shelves)
        if (!s.feed.empty())
            title += QString(", %1 on feed %2")
                         .arg(QString::fromStdString(s.id.substr(s.id.rfind('/') + 1)), QString::fromStdString(s.feed));
    m_bars->setBars(title, std::move(bars));
}

} // namespace rdt::gui
