#include "gui/ThermalPanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/Units.h"
#include "gui/NumberItem.h"
#include "gui/Studio.h"
#include "thermal/ThermalChecks.h"

namespace rdt::gui {

namespace {

constexpr double kC = 273.15;
constexpr double kCfmPerM3s = 2118.88;

QTableWidget* makeTable(const QStringList& headers)
{
    auto* t = new QTableWidget;
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setSortingEnabled(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    // Columns as wide as their contents, never squeezed: a stretched last column shrank below its
    // contents when the table was narrow ("0.05" read "0.0"); the table scrolls instead.
    t->horizontalHeader()->setStretchLastSection(false);
    t->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    t->setTextElideMode(Qt::ElideNone);
    return t;
}

/// Decimals that show `value` to `figures` significant figures (SHI 0.0562, not 0.056 or 0.1).
int decimalsFor(double value, int figures)
{
    if (!std::isfinite(value) || value == 0.0)
        return figures - 1;
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    return std::max(0, figures - 1 - magnitude);
}

} // namespace

ThermalPanel::ThermalPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_headline(new QLabel),
      // Units on their own header line keep the numeric columns narrow (the long names on two lines:
      // the single-rack example's every column in view at 1600 px).
      m_chassis(makeTable({tr("Chassis"), tr("Heat\n(kW)"), tr("Airflow\n(CFM)"), tr("Inlet\n(°C)"),
                           tr("Exhaust\n(°C)"), tr("Rise\n(K)"), tr("Fans\n(%)"), tr("Fan\npower\n(W)"),
                           tr("GPU\njunction\n(°C)"), tr("Limit\n(°C)"), tr("Margin\n(K)"), tr("State")})),
      m_rows(makeTable({tr("Row"), tr("Cold aisle\n(°C)"), tr("Hot aisle\n(°C)"), tr("RCI HI\n(%)"), tr("RCI LO\n(%)"),
                        tr("RTI\n(%)"), tr("SHI\n(ratio)")}))
{
    m_headline->setWordWrap(true);
    auto* left = new QVBoxLayout;
    left->addWidget(m_headline);
    left->addWidget(m_rows, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // The row metrics keep their natural width (a handful of columns); the chassis table takes the rest.
    layout->addLayout(left, 0);
    layout->addWidget(m_chassis, 1);
    connect(&m_studio, &Studio::checksFinished, this, &ThermalPanel::refresh);
    connect(m_chassis, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { m_studio.select(m_chassis->item(row, 0)->text()); });
    refresh();
}

QString ThermalPanel::headline() const
{
    return m_headline->text();
}

void ThermalPanel::refresh()
{
    const auto t = m_studio.thermal();
    m_chassis->setSortingEnabled(false);
    m_rows->setSortingEnabled(false);
    m_chassis->setRowCount(0);
    m_rows->setRowCount(0);
    if (!t) {
        m_headline->setText(tr("No airflow solution yet (the checks run in the background)."));
        return;
    }
    std::size_t chassis = 0;
    for (const auto& r : t->racks)
        chassis += r.chassis.size();
    // Very large designs: the hottest 5,000 chassis.
    std::vector<const thermal::ChassisThermal*> all;
    all.reserve(chassis);
    for (const auto& r : t->racks)
        for (const auto& c : r.chassis)
            all.push_back(&c);
    // A GPU under a cold plate is judged by its loop's junction (the one its clock follows; +inf on a
    // starved plate), an air-cooled one by the air's.
    const auto junction = [](const thermal::ChassisThermal* c) { return c->judgedJunctionK(); };
    std::stable_sort(all.begin(), all.end(), [&junction](const auto* a, const auto* b) {
        // Not checked (NaN) last; no airflow or a starved plate (an unbounded junction, margin -inf) first.
        const double ma = !std::isnan(a->maxOperatingK - junction(a)) ? a->maxOperatingK - junction(a) : 1e9;
        const double mb = !std::isnan(b->maxOperatingK - junction(b)) ? b->maxOperatingK - junction(b) : 1e9;
        return ma < mb || (ma == mb && a->fanSpeed > b->fanSpeed);
    });
    if (all.size() > 5000)
        all.resize(5000);
    // The thermal and liquid rules each chassis fails (unwaived): the State column names them, so that a
    // chassis over its allowable inlet never reads "ok" beside its own error.
    struct Failing {
        core::Severity worst = core::Severity::Info;
        std::set<std::string> rules;
        std::map<std::string, core::Severity> severity; ///< each rule's
    };
    std::map<std::string, Failing> failing;
    for (const core::Violation& v : m_studio.violations()) {
        const bool heat = v.rule.rfind("thermal.", 0) == 0 || v.rule.rfind("liquid.", 0) == 0;
        if (v.waived || v.severity == core::Severity::Info || !heat) // the other rules: Problems
            continue;
        Failing& f = failing[v.subject];
        f.worst = std::max(f.worst, v.severity);
        f.rules.insert(v.rule);
        f.severity[v.rule] = v.severity;
    }
    m_chassis->setRowCount(static_cast<int>(all.size()));
    const double inletLimitK = thermal::deratedMaxInletK(m_studio.design().site.ashraeClass, t->altitudeM);
    int row = 0;
    for (const thermal::ChassisThermal* c : all) {
        m_chassis->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(c->id)));
        m_chassis->setItem(row, 1, new NumberItem(c->heatW / 1e3, 2));
        m_chassis->setItem(row, 2, new NumberItem(c->airflowM3s * kCfmPerM3s, 0));
        // Within 0.05 K of the allowable the inlet takes the figures that show its side (35.01, not
        // 35.0 in red beside a limit of 35; trust trial, 2026-12-07).
        const double fromLimit = std::abs(c->inletK - inletLimitK);
        m_chassis->setItem(row, 3, new NumberItem(c->inletK - kC, fromLimit < 0.005 ? 3 : fromLimit < 0.05 ? 2 : 1));
        m_chassis->setItem(row, 4, new NumberItem(c->exhaustK - kC, 1));
        m_chassis->setItem(row, 5, new NumberItem(c->exhaustK - c->inletK, 1));
        m_chassis->setItem(row, 6, new NumberItem(c->fanSpeed * 100.0, 0));
        m_chassis->setItem(row, 7, new NumberItem(c->fanPowerW, 0));
        const double tj = junction(c);
        const bool cold = !std::isnan(c->liquidJunctionK);
        // Within 0.05 K of its limit the junction and its margin take the figures that show its side
        // (87.03 and -0.03, not 87.0 and -0.0 beside a limit of 87).
        const int near = std::abs(c->maxOperatingK - tj) < 0.05 ? 2 : 1;
        m_chassis->setItem(row, 8, new NumberItem(tj - kC, near));
        m_chassis->setItem(row, 9, new NumberItem(c->maxOperatingK - kC, 0));
        m_chassis->setItem(row, 10, new NumberItem(c->maxOperatingK - tj, near));
        QString state = c->throttled ? tr("throttled") : tr("ok");
        if (std::isnan(tj) || std::isnan(c->maxOperatingK))
            state = tr("not checked");
        if (cold && std::isinf(tj))
            state = tr("starved cold plate: GPUs stop");
        else if (cold && state != tr("not checked"))
            state += tr(" (cold plate)");
        if (c->noAirflow) // thermal.chassis.airflow fails it, cold plates or not
            state = cold             ? tr("no airflow (GPUs on cold plates)")
                    : std::isinf(tj) ? tr("no airflow: GPUs stop")
                                     : tr("no airflow");
        bool bad = c->throttled || c->noAirflow || (cold && std::isinf(tj));
        bool warn = false;
        if (const auto f = failing.find(c->id); f != failing.end()) {
            QStringList ids;
            for (const std::string& rule : f->second.rules)
                ids << QString::fromStdString(rule);
            const bool error = f->second.worst == core::Severity::Error;
            const QString verdict = (error ? tr("fails") : tr("warning")) + " (" + ids.join(", ") + ")";
            if (state == tr("ok"))
                state = verdict;
            else if (state == tr("not checked")) // its junction; the rules it fails are judged
                state = verdict + "; " + (c->gpuW > 0 ? tr("GPU junction not checked") : tr("no GPUs"));
            else
                state += " (" + ids.join(", ") + ")";
            bad = bad || error;
            warn = !error;
            // The figure a rule judges, in that rule's colour (an error's red wins over a warning's amber).
            const auto paint = [&](int col, std::initializer_list<const char*> rules) {
                int worst = -1;
                for (const char* rule : rules)
                    if (const auto it = f->second.severity.find(rule); it != f->second.severity.end())
                        worst = std::max(worst, it->second == core::Severity::Error ? 1 : 0);
                if (worst >= 0)
                    m_chassis->item(row, col)->setForeground(worst ? QColor(190, 40, 35) : QColor(176, 110, 0));
            };
            paint(3, {"thermal.inlet.chassis"});
            paint(5, {"thermal.exhaust.dt"});
            // The junction (over its maximum, or over the fans' setpoint with fans at full) and the
            // margin to the maximum: the air's, or the cold plate's on a liquid tray.
            paint(8, {"thermal.gpu.junction", "liquid.gpu.junction", "thermal.gpu.setpoint"});
            paint(10, {"thermal.gpu.junction", "liquid.gpu.junction"});
        }
        auto* s = new QTableWidgetItem(state);
        s->setForeground(bad ? QColor(190, 40, 35) : warn ? QColor(176, 110, 0) : QColor(60, 64, 72));
        m_chassis->setItem(row, 11, s);
        ++row;
    }
    m_rows->setRowCount(static_cast<int>(t->rows.size()));
    row = 0;
    for (const thermal::RowThermal& r : t->rows) {
        m_rows->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(r.id)));
        m_rows->setItem(row, 1, new NumberItem(r.coldAisleK - kC, 2));
        m_rows->setItem(row, 2, new NumberItem(r.hotAisleK - kC, 2));
        m_rows->setItem(row, 3, new NumberItem(r.rciHi, 1));
        m_rows->setItem(row, 4, new NumberItem(r.rciLo, 1));
        m_rows->setItem(row, 5, new NumberItem(r.rti, 0));
        m_rows->setItem(row, 6, new NumberItem(r.shi, decimalsFor(r.shi, 3)));
        // RCI_HI below the profile's minimum (thermal.row.rci, a warning), in its colour.
        if (const auto f = failing.find(r.id); f != failing.end() && f->second.rules.count("thermal.row.rci"))
            m_rows->item(row, 3)->setForeground(QColor(176, 110, 0));
        ++row;
    }
    double hottest = NAN, margin = NAN;
    if (!all.empty() && std::isfinite(junction(all.front()))) {
        hottest = junction(all.front()) - kC;
        margin = all.front()->maxOperatingK - junction(all.front());
    }
    QString head = tr("<b>%1 chassis</b>, %2 throttled").arg(chassis).arg(t->throttledChassis);
    if (std::isfinite(hottest))
        // A margin under 0.05 K either side reads with the figures that show its side ("-0.03 K"),
        // never "-0.0" beside a failing junction.
        head += tr("; least margin: %1 at %2 GPU junction (%3 K to its limit)")
                    .arg(QString::fromStdString(all.front()->id))
                    .arg(QString::fromStdString(core::formatQuantityBeside(hottest + kC, all.front()->maxOperatingK,
                                                                           core::Dimension::Temperature, 3)))
                    .arg(std::abs(margin) < 0.05 && margin != 0 ? QString::number(margin, 'g', 2)
                                                                : QString::number(margin, 'f', 1));
    else if (!all.empty() && !std::isnan(all.front()->liquidJunctionK) && std::isinf(all.front()->liquidJunctionK))
        head += tr("; <span style='color:#be2823'>%1's cold plates are starved: its GPUs stop</span> "
                   "(liquid.plate.starved, liquid.gpu.junction)")
                    .arg(QString::fromStdString(all.front()->id));
    else if (!all.empty() && all.front()->noAirflow && std::isinf(all.front()->gpuJunctionK))
        head += tr("; <span style='color:#be2823'>no air through %1: its GPUs stop</span> (thermal.chassis.airflow)")
                    .arg(QString::fromStdString(all.front()->id));
    if (!t->scenario.empty())
        head += tr("<br>what-if: %1").arg(QString::fromStdString(t->scenario));
    if (!t->intakesFrom.empty())
        head += tr("<br>rack intakes from %1").arg(QString::fromStdString(t->intakesFrom).toHtmlEscaped());
    m_headline->setText(head);
    m_chassis->setSortingEnabled(true);
    m_rows->setSortingEnabled(true);
    m_chassis->resizeColumnsToContents();
    m_rows->resizeColumnsToContents();
    int rowsWidth = 2 * m_rows->frameWidth() + m_rows->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < m_rows->columnCount(); ++c)
        rowsWidth += m_rows->columnWidth(c);
    m_rows->setMinimumWidth(std::min(rowsWidth, 640));
}

} // namespace rdt::gui
