#include "gui/EnergyPanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "analysis/Energy.h"
#include "analysis/Throughput.h"
#include "gui/NumberItem.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {

QString rateText(double bytesPerS)
{
    const bool tera = bytesPerS >= 1e12;
    const double v = tera ? bytesPerS / 1e12 : bytesPerS / 1e9;
    return QString("%1 %2").arg(v, 0, 'f', v >= 100 ? 0 : v >= 10 ? 1 : 2).arg(tera ? "TB/s" : "GB/s");
}

QTableWidget* table(const QStringList& headers)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setAlternatingRowColors(true);
    return t;
}

} // namespace

StageBars::StageBars(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(60);
}

void StageBars::setStages(QString title, std::vector<analysis::PathStage> stages)
{
    m_title = std::move(title);
    m_stages = std::move(stages);
    setMinimumHeight(28 + 22 * static_cast<int>(std::max<std::size_t>(1, m_stages.size())));
    update();
}

void StageBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    p.drawText(QRect(8, 4, width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    p.setFont(font());
    if (m_stages.empty()) {
        p.drawText(QRect(8, 26, width() - 16, 20), Qt::AlignLeft | Qt::AlignVCenter, tr("not checked"));
        return;
    }
    // Log scale from a decade under the slowest stage to the fastest: every stage visible.
    double lo = INFINITY, hi = 0;
    for (const auto& s : m_stages) {
        lo = std::min(lo, s.bytesPerS);
        hi = std::max(hi, s.bytesPerS);
    }
    const double l0 = std::log10(lo) - 1, l1 = std::log10(hi) + 0.05;
    const int labelW = 130, x0 = 8 + labelW, w = std::max(60, width() - x0 - 16);
    int y = 28;
    for (const auto& s : m_stages) {
        const bool slowest = s.bytesPerS == lo;
        p.setPen(palette().text().color());
        p.drawText(QRect(8, y, labelW - 6, 18), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(s.name));
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(226, 229, 234));
        p.drawRoundedRect(QRectF(x0, y + 2, w, 16), 3, 3);
        const double frac = std::clamp((std::log10(s.bytesPerS) - l0) / (l1 - l0), 0.02, 1.0);
        p.setBrush(slowest ? QColor(214, 39, 40) : QColor(44, 160, 44));
        p.drawRoundedRect(QRectF(x0, y + 2, w * frac, 16), 3, 3);
        // The figure inside its bar when it fits (white on colour), else just after it (text colour).
        const QString text = rateText(s.bytesPerS) + (slowest ? tr("  (bottleneck)") : QString());
        const double textW = p.fontMetrics().horizontalAdvance(text) + 12;
        const bool inside = textW <= w * frac;
        p.setPen(inside ? QColor(Qt::white) : palette().text().color());
        p.drawText(QRectF(inside ? x0 + 6 : x0 + w * frac + 6, y + 2, textW, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   text);
        y += 22;
    }
}

EnergyPanel::EnergyPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_energyHeader(new QLabel),
      m_halls(table({tr("hall"), tr("IT MW (modelled)"), tr("grid MW"), tr("peak MW"), tr("GWh/year"), tr("kt CO2")})),
      m_profile(table({tr("hours %"), tr("load %"), tr("IT MW"), tr("grid MW")})), m_ckptHeader(new QLabel),
      m_ckpt(table({tr("figure"), tr("value")})), m_write(new StageBars), m_read(new StageBars)
{
    for (QLabel* l : {m_energyHeader, m_ckptHeader}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    auto* energy = new QVBoxLayout;
    auto* title = new QLabel(tr("<b>Facility energy</b>"));
    energy->addWidget(title);
    energy->addWidget(m_energyHeader);
    energy->addWidget(m_halls, 2);
    m_profileTitle = new QLabel(tr("Utilisation profile"));
    energy->addWidget(m_profileTitle);
    energy->addWidget(m_profile, 1);
    auto* ckpt = new QVBoxLayout;
    ckpt->addWidget(new QLabel(tr("<b>Checkpoint</b>")));
    ckpt->addWidget(m_ckptHeader);
    auto* row = new QHBoxLayout;
    row->addWidget(m_ckpt, 1);
    auto* bars = new QVBoxLayout;
    bars->addWidget(m_write);
    bars->addWidget(m_read);
    bars->addStretch(1);
    row->addLayout(bars, 2);
    ckpt->addLayout(row, 1);
    auto* top = new QHBoxLayout(this);
    top->addLayout(energy, 1);
    top->addLayout(ckpt, 1);
    connect(&m_studio, &Studio::checksFinished, this, &EnergyPanel::rebuild);
    rebuild();
}

QString EnergyPanel::energyHeadline() const
{
    return m_energyHeader->text();
}

QString EnergyPanel::checkpointHeadline() const
{
    return m_ckptHeader->text();
}

int EnergyPanel::hallRows() const
{
    return m_halls->rowCount();
}

void EnergyPanel::rebuild()
{
    const auto e = m_studio.energy();
    m_halls->setRowCount(0);
    m_profile->setRowCount(0);
    if (!e) {
        m_energyHeader->setText(tr("No facility: section in the design: energy is not computed. Give a measured "
                                   "pue with its source, or cooling and climate_zone (docs/energy.md)."));
    } else {
        const QString load =
            e->profile.empty()
                ? tr("at %1 % load").arg(e->loadFactor * 100, 0, 'f', 0)
                : tr("over the utilisation profile (mean %1 % of full-load draw)").arg(e->loadFactor * 100, 0, 'f', 0);
        // MW from 1 MW, else kW; GWh from 1 GWh, else MWh; kt from 1 kt, else t (a rack's figures).
        const auto power = [](double w) {
            return w >= 1e6 ? QString("%1 MW").arg(w / 1e6, 0, 'f', 1) : QString("%1 kW").arg(w / 1e3, 0, 'g', 3);
        };
        const double mwh = e->total.annualMWh, t = e->total.co2Tonnes;
        const QString year = mwh >= 1e3 ? QString("%1 GWh").arg(mwh / 1e3, 0, 'f', 0) : QString("%1 MWh").arg(mwh, 0, 'g', 3);
        QString text = tr("From the grid <b>%1</b> = IT AC %2 (modelled) × PUE %3 (%4); peak %5 (%6); "
                          "<b>%7 a year</b> %8")
                           .arg(power(e->total.facilityW))
                           .arg(power(e->total.itModelledW))
                           .arg(e->pue, 0, 'g', 4)
                           .arg(QString::fromStdString(e->pueSource).toHtmlEscaped())
                           .arg(power(e->total.facilityPeakW))
                           .arg(QString::fromStdString(std::string(core::powerBasisName(e->basis))))
                           .arg(year)
                           .arg(load);
        if (std::isfinite(t))
            text += tr(", %1 CO2 at %2 kg/kWh (%3)")
                        .arg(t >= 1e3 ? QString("%1 kt").arg(t / 1e3, 0, 'f', 1) : QString("%1 t").arg(t, 0, 'g', 3))
                        .arg(e->gridKgPerKWh, 0, 'g', 3)
                        .arg(QString::fromStdString(e->gridSource).toHtmlEscaped());
        m_energyHeader->setText(text);
        std::vector<const analysis::EnergyGroup*> rows;
        for (const auto& h : e->halls)
            rows.push_back(&h);
        if (e->halls.size() > 1)
            rows.push_back(&e->total);
        // Below a megawatt (a rack, a row) the tables read in kW, MWh and t, so that no figure rounds
        // to 0.0 or gains a third by rounding.
        const bool small = e->total.facilityPeakW < 1e6;
        const double pw = small ? 1e3 : 1e6, ew = small ? 1.0 : 1e3, cw = small ? 1.0 : 1e3;
        const QString p = small ? tr("kW") : tr("MW");
        m_halls->setHorizontalHeaderLabels({tr("hall"), tr("IT %1 (modelled)").arg(p), tr("grid %1").arg(p),
                                            tr("peak %1").arg(p), small ? tr("MWh/year") : tr("GWh/year"),
                                            small ? tr("t CO2") : tr("kt CO2")});
        m_profile->setHorizontalHeaderLabels({tr("hours %"), tr("load %"), tr("IT %1").arg(p), tr("grid %1").arg(p)});
        for (const analysis::EnergyGroup* g : rows) {
            const int r = m_halls->rowCount();
            m_halls->insertRow(r);
            m_halls->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(g->id)));
            m_halls->setItem(r, 1, new NumberItem(g->itModelledW / pw, small ? 1 : 2));
            m_halls->setItem(r, 2, new NumberItem(g->facilityW / pw, small ? 1 : 2));
            m_halls->setItem(r, 3, new NumberItem(g->facilityPeakW / pw, small ? 1 : 2));
            m_halls->setItem(r, 4, new NumberItem(g->annualMWh / ew, 1));
            m_halls->setItem(r, 5, new NumberItem(g->co2Tonnes / cw, 1));
        }
        for (const analysis::EnergyLevel& l : e->profile) {
            const int r = m_profile->rowCount();
            m_profile->insertRow(r);
            m_profile->setItem(r, 0, new NumberItem(l.share * 100, 0));
            m_profile->setItem(r, 1, new NumberItem(l.load * 100, 0));
            m_profile->setItem(r, 2, new NumberItem(l.itW / pw, small ? 1 : 2));
            m_profile->setItem(r, 3, new NumberItem(l.facilityW / pw, small ? 1 : 2));
        }
    }
    m_profile->setVisible(e && !e->profile.empty());
    m_profileTitle->setVisible(m_profile->isVisibleTo(this));

    const auto t = m_studio.throughput();
    m_ckpt->setRowCount(0);
    if (!t || !t->checkpoint) {
        m_ckptHeader->setText(tr("No workload: the design names none (workload: data/workloads/NAME.yaml), so no "
                                 "checkpoint is modelled (docs/checkpoint.md)."));
        m_write->setStages(tr("Write path"), {});
        m_read->setStages(tr("Read path"), {});
        return;
    }
    const analysis::CheckpointResult& c = *t->checkpoint;
    if (!c.checked) {
        QString missing;
        for (const std::string& m : c.missing)
            missing += (missing.isEmpty() ? "" : ", ") + QString::fromStdString(m);
        m_ckptHeader->setText(tr("%1: not checked — the model needs %2")
                                  .arg(QString::fromStdString(c.workload).toHtmlEscaped(), missing.toHtmlEscaped()));
        m_write->setStages(tr("Write path"), {});
        m_read->setStages(tr("Read path"), {});
        return;
    }
    m_ckptHeader->setText(tr("%1: %2 TB, save <b>%3 s</b> (%4-bound), restore %5 s; goodput <b>%6 %</b>")
                              .arg(QString::fromStdString(c.workload).toHtmlEscaped())
                              .arg(c.bytes / 1e12, 0, 'f', 2)
                              .arg(c.saveS, 0, 'f', 1)
                              .arg(QString::fromStdString(c.writeBottleneck))
                              .arg(c.restoreS, 0, 'f', 1)
                              .arg(c.goodput * 100, 0, 'f', 1));
    const std::vector<std::pair<QString, QString>> figures = {
        {tr("GPUs / nodes"), QString("%1 / %2").arg(c.gpus).arg(c.nodes)},
        {tr("checkpoint"), QString("%1 TB").arg(c.bytes / 1e12, 0, 'f', 2)},
        {tr("save / restore"), QString("%1 s / %2 s").arg(c.saveS, 0, 'f', 1).arg(c.restoreS, 0, 'f', 1)},
        {tr("stall per checkpoint"), QString("%1 s").arg(c.stallS, 0, 'f', 1)},
        {tr("MTBF at this size"), QString("%1 h").arg(c.mtbfS / 3600, 0, 'f', 2)},
        {tr("Young / Daly interval"),
         QString("%1 / %2 min").arg(c.youngS / 60, 0, 'f', 1).arg(c.dalyS / 60, 0, 'f', 1)},
        {tr("interval used"), QString("%1 min").arg(c.intervalS / 60, 0, 'f', 1)},
        {tr("goodput (at optimum)"),
         QString("%1 % (%2 %)").arg(c.goodput * 100, 0, 'f', 1).arg(c.goodputAtOptimum * 100, 0, 'f', 1)},
        {tr("GPU-hours lost a day"), QString::number(std::lround(c.lostGpuHoursPerDay))},
    };
    for (const auto& [k, v] : figures) {
        const int r = m_ckpt->rowCount();
        m_ckpt->insertRow(r);
        m_ckpt->setItem(r, 0, new QTableWidgetItem(k));
        m_ckpt->setItem(r, 1, new QTableWidgetItem(v));
    }
    m_write->setStages(tr("Write path (save)"), c.write);
    m_read->setStages(tr("Read path (restore)"), c.read);
}

} // namespace rdt::gui
