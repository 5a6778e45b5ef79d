#include "gui/DynamicsPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "analysis/Dynamics.h"
#include "gui/LinePlot.h"
#include "gui/Studio.h"
#include "models/PowerDynamics.h"
#include "report/DynamicsOutput.h"

namespace rdt::gui {

namespace {

/// The unit a level's power reads in: MW from 1 MW, else kW.
std::pair<double, QString> powerUnit(double w)
{
    return std::abs(w) >= 1e6 ? std::make_pair(1e6, QStringLiteral("MW")) : std::make_pair(1e3, QStringLiteral("kW"));
}

/// A power (or, with `per`, a rate) as rdt check writes it (analysis::powerText).
QString power(double w, const QString& per = QString())
{
    return QString::fromStdString(analysis::powerText(w, 3, "W", per.toStdString()));
}

QTableWidgetItem* cell(const QString& text, bool over = false)
{
    auto* item = new QTableWidgetItem(text);
    if (over) {
        item->setForeground(QColor(180, 20, 20));
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
    }
    return item;
}

} // namespace

DynamicsPanel::DynamicsPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_header(new QLabel), m_level(new QComboBox), m_wave(new LinePlot),
      m_spectrum(new LinePlot), m_limits(new QTableWidget(0, 4))
{
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_limits->setHorizontalHeaderLabels({tr("figure"), tr("value (energy: share of the swing's)"), tr("limit"), tr("rule")});
    m_limits->verticalHeader()->hide();
    m_limits->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_limits->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_limits->horizontalHeader()->setStretchLastSection(true);
    auto* top = new QVBoxLayout(this);
    top->addWidget(new QLabel(tr("<b>Power swings of the training job</b>")));
    top->addWidget(m_header);
    auto* chooser = new QHBoxLayout;
    chooser->addWidget(new QLabel(tr("Level:")));
    chooser->addWidget(m_level);
    chooser->addStretch(1);
    top->addLayout(chooser);
    auto* plots = new QHBoxLayout;
    plots->addWidget(m_wave, 3);
    plots->addWidget(m_spectrum, 2);
    plots->addWidget(m_limits, 3);
    top->addLayout(plots, 1);
    connect(m_level, qOverload<int>(&QComboBox::currentIndexChanged), this, &DynamicsPanel::showLevel);
    connect(&m_studio, &Studio::checksFinished, this, &DynamicsPanel::rebuild);
    rebuild();
}

QString DynamicsPanel::headline() const
{
    return m_header->text();
}

void DynamicsPanel::rebuild()
{
    const auto d = m_studio.dynamics();
    const QString keep = m_level->currentText();
    m_level->blockSignals(true);
    m_level->clear();
    m_limits->setRowCount(0);
    if (!d) {
        m_header->setText(tr("No dynamics: section in the design: the training job's power waveform is not built. "
                             "Give the iteration and its compute share (docs/dynamics.md)."));
        m_wave->setSeries({});
        m_spectrum->setSeries({});
        m_level->blockSignals(false);
        return;
    }
    m_header->setText(QString::fromStdString(report::dynamicsSummaryText(*d)).trimmed());
    for (const analysis::DynamicsLevel& l : d->levels)
        m_level->addItem(QString::fromStdString(l.kind == "site" ? std::string("site") : l.kind + " " + l.id));
    const int at = m_level->findText(keep);
    m_level->setCurrentIndex(at >= 0 ? at : 0);
    m_level->blockSignals(false);
    if (d->notChecked.empty()) {
        // The figures with limits, each against its own (red when beyond it).
        const core::Grid& g = m_studio.design().grid;
        auto row = [&](const QString& figure, const QString& value, const QString& limit, const QString& rule,
                       bool over) {
            const int r = m_limits->rowCount();
            m_limits->insertRow(r);
            m_limits->setItem(r, 0, cell(figure));
            m_limits->setItem(r, 1, cell(value, over));
            m_limits->setItem(r, 2, cell(limit));
            m_limits->setItem(r, 3, cell(rule));
        };
        const QString noLimit = tr("none (grid:)");
        if (std::isfinite(d->rampGridWps))
            row(tr("ramp (%1 s windows)").arg(g.rampWindowS, 0, 'g', 3), power(d->rampGridWps * 60, "/min"),
                std::isnan(g.rampWps) ? noLimit : power(g.rampWps * 60, "/min"), "dynamics.grid.ramp",
                !std::isnan(g.rampWps) && d->rampGridWps > g.rampWps);
        else
            row(tr("ramp (1 min windows)"), power(d->ramp1minWps * 60, "/min"), noLimit, "", false);
        for (const analysis::DynamicsBand& b : d->bands) {
            const bool limited = b.grid && !std::isnan(g.bandShare);
            row(tr("%1–%2 Hz%3").arg(b.loHz, 0, 'g', 3).arg(b.hiHz, 0, 'g', 3).arg(b.grid ? tr(" (grid band)") : QString()),
                tr("%1 % (RMS %2)").arg(b.share * 100, 0, 'f', 1).arg(power(b.rmsW)),
                limited ? tr("%1 %").arg(g.bandShare * 100, 0, 'g', 3) : tr("—"), limited ? "dynamics.grid.band" : "",
                limited && b.share > g.bandShare);
        }
        if (!std::isnan(d->voltageChange))
            row(tr("voltage change"), tr("%1 %").arg(d->voltageChange * 100, 0, 'f', 3),
                std::isnan(g.voltageChange) ? noLimit : tr("%1 %").arg(g.voltageChange * 100, 0, 'g', 3),
                "dynamics.grid.voltage", !std::isnan(g.voltageChange) && d->voltageChange > g.voltageChange);
        for (const analysis::DynamicsResonance& x : d->resonances)
            row(tr("harmonic %1 (%2 Hz)").arg(x.harmonic).arg(x.harmonicHz, 0, 'g', 4), power(x.amplitudeW),
                tr("mode %1 Hz ± %2 %").arg(x.modeHz, 0, 'g', 4).arg(x.damping * 100, 0, 'g', 3),
                "dynamics.grid.resonance", true);
        if (!g.modes.empty() && d->resonances.empty())
            row(tr("grid modes"), tr("no harmonic in a mode"), tr("%1 mode(s)").arg(g.modes.size()),
                "dynamics.grid.resonance", false);
        if (!std::isnan(d->psuStorageJ))
            row(tr("PSU storage"), tr("%1 J/GPU: edges %2 ms, %3")
                                       .arg(d->psuStorageJ, 0, 'g', 3)
                                       .arg(d->psuEdgeS * 1e3, 0, 'g', 3)
                                       .arg(std::isnan(d->psuShare)
                                                ? tr("no swing to flatten")
                                                : tr("%1 % of flattening").arg(d->psuShare * 100, 0, 'g', 3)),
                tr("—"), "", false);
        // Battery smoothing: the most cycled rack, the least hold-up left, the hardest recharge.
        const core::Dynamics& dyn = m_studio.design().dynamics;
        const analysis::DynamicsBbu *cycled = nullptr, *held = nullptr, *charged = nullptr;
        bool chargeUnknown = false;
        for (const analysis::DynamicsBbu& b : d->bbu) {
            if (std::isfinite(b.cyclesPerDay) && (!cycled || b.cyclesPerDay > cycled->cyclesPerDay))
                cycled = &b;
            if (std::isfinite(b.holdupLeftS) && (!held || b.holdupLeftS < held->holdupLeftS))
                held = &b;
            chargeUnknown = chargeUnknown || !b.chargeMissing.empty();
            if (std::isfinite(b.chargeW) && (!charged || b.chargeNeedW / b.chargeW > charged->chargeNeedW / charged->chargeW))
                charged = &b;
        }
        if (cycled)
            row(tr("battery cycles a day (%1)").arg(QString::fromStdString(cycled->rack)),
                QString::number(cycled->cyclesPerDay, 'g', 4), QString::number(dyn.bbuCyclesPerDay, 'g', 4),
                "dynamics.bbu.cycles", cycled->cyclesPerDay > dyn.bbuCyclesPerDay);
        if (held)
            row(tr("battery hold-up at lowest charge (%1)").arg(QString::fromStdString(held->rack)),
                tr("%1 s at %2 %").arg(held->holdupLeftS, 0, 'g', 3).arg(held->socLow * 100, 0, 'g', 3),
                tr("%1 s").arg(held->rideThroughS, 0, 'g', 3), "dynamics.bbu.holdup",
                held->holdupLeftS < held->rideThroughS);
        if (charged)
            row(tr("battery recharge (%1)").arg(QString::fromStdString(charged->rack)), power(charged->chargeNeedW),
                power(charged->chargeW), "dynamics.bbu.charge", charged->chargeNeedW > charged->chargeW);
        else if (chargeUnknown)
            row(tr("battery recharge"), tr("not checked"), tr("no charge_power in the catalog"), "dynamics.not_checked",
                false);
        // Their round trip's loss (in the mitigation's energy cost), or why it is not counted.
        double loss = 0;
        bool lossUnknown = false, smoothing = false;
        for (const analysis::DynamicsBbu& b : d->bbu)
            if (b.storeJ > 0 && b.dischargeOk) {
                smoothing = true;
                lossUnknown = lossUnknown || std::isnan(b.lossW);
                loss += std::isnan(b.lossW) ? 0.0 : b.lossW;
            }
        if (smoothing)
            row(tr("battery round-trip loss"), lossUnknown ? tr("not counted") : power(loss),
                lossUnknown ? tr("no round_trip_efficiency in the catalog") : tr("in the energy cost"),
                lossUnknown ? "dynamics.not_checked" : "", false);
        if (d->siteStorage) {
            const analysis::DynamicsSiteStorage& st = d->store;
            row(tr("site storage power asked"), power(st.demandW), power(st.powerW), "dynamics.storage.site",
                st.powerLimited);
            row(tr("site storage energy needed"), tr("%1 MJ").arg(st.neededJ / 1e6, 0, 'g', 3),
                tr("%1 MJ").arg(st.energyJ / 1e6, 0, 'g', 3), "dynamics.storage.site", st.energyLimited);
            row(tr("connection swing"), power(d->poiSwingW), tr("site %1").arg(power(st.loadSwingW)), "", false);
        }
        if (d->mitigated) {
            row(tr("mitigation energy"), tr("%1 % (swing %2 → %3)")
                                               .arg(QString::asprintf("%+.2f", d->extraEnergyShare * 100))
                                               .arg(power(d->unmitigatedSwingW),
                                                    power(d->jobs > 1 ? d->levels.front().swingW()
                                                                      : d->levels.front().runningSwingW)),
                tr("—"), "", false);
            row(tr("mitigation energy a year"),
                std::isfinite(d->extraMWhPerYear)
                    ? tr("%1 MWh at PUE %2").arg(QString::asprintf("%+.4g", d->extraMWhPerYear)).arg(d->pue, 0, 'g', 3)
                    : tr("no facility: section"),
                tr("—"), "", false);
            row(tr("mitigation throughput"),
                d->throughputLost > 0
                    ? tr("%1 % of each compute phase's work withheld: sustained %2 %, %3 % energy for the same work")
                          .arg(d->throughputLost * 100, 0, 'g', 3)
                          .arg(QString::asprintf("-%.3g", (1 - d->rampThroughputFactor) * 100))
                          .arg(QString::asprintf("%+.2f", d->energyPerWorkShare() * 100))
                    : tr("none lost"),
                tr("—"), "", false);
        }
    }
    showLevel();
}

void DynamicsPanel::showLevel()
{
    const auto d = m_studio.dynamics();
    const int i = m_level->currentIndex();
    if (!d || !d->notChecked.empty() || i < 0 || i >= static_cast<int>(d->levels.size())) {
        m_wave->setSeries({});
        m_spectrum->setSeries({});
        return;
    }
    const analysis::DynamicsLevel& l = d->levels[static_cast<std::size_t>(i)];
    const std::pair<double, QString> su = powerUnit(l.highW);
    const double scale = su.first; // plain variables: clang 14 captures no structured bindings
    const QString unit = su.second;
    // Around the job's start: 5 s of idle, then four iterations (at least 10 s).
    const double from = d->startAtS - 5, to = d->startAtS + d->startS + std::max(10.0, 4 * d->iterationS);
    const std::vector<double> on = d->levelTrace(l, from, to, true);
    const bool mitigated = d->mitigated;
    std::vector<LinePlot::Series> series;
    auto add = [&](const std::vector<double>& w, const QString& label, QColor colour, bool dashed) {
        LinePlot::Series s{label, {}, {}, colour, dashed};
        for (std::size_t k = 0; k < w.size(); ++k) {
            s.x.push_back(from - d->startAtS + static_cast<double>(k) * d->stepS);
            s.y.push_back(w[k] / scale);
        }
        series.push_back(std::move(s));
    };
    if (mitigated)
        add(d->levelTrace(l, from, to, false), tr("unmitigated"), QColor(150, 150, 150), true);
    add(on, mitigated ? tr("mitigated") : tr("power"), seriesColour(0), false);
    if (d->siteStorage && i == 0) {
        // The connection: the site after its storage.
        const auto a = static_cast<std::ptrdiff_t>(std::max(0.0, std::round(from / d->stepS)));
        const auto b = std::min(static_cast<std::ptrdiff_t>(d->siteW.size()), static_cast<std::ptrdiff_t>(std::round(to / d->stepS)));
        std::vector<double> poi;
        for (std::ptrdiff_t k = a; k < b; ++k)
            poi.push_back(d->siteW[static_cast<std::size_t>(k)]);
        add(poi, tr("at the connection"), seriesColour(2), false);
    }
    m_wave->setTitle(tr("%1: %2 GPUs, swing %3 %4").arg(m_level->currentText()).arg(l.gpus).arg(l.runningSwingW / scale, 0, 'g', 3).arg(unit));
    m_wave->setAxes(tr("time from the job's start (s)"), tr("AC power (%1)").arg(unit));
    m_wave->setSeries(std::move(series));
    // The level's spectrum: the site's own draw's, scaled by the level's swing (one job: every GPU in phase);
    // with site storage, the connection's beside it at the site.
    double k = d->levels.front().swingW() > 0 ? l.swingW() / d->levels.front().swingW() : 0.0;
    const std::vector<double>* ownSpectrum = d->siteStorage ? &d->loadSpectrumW : &d->spectrumW;
    // Independent jobs: a hall or row holds its own mix of them, its spectrum its own trace's (the
    // running job's whole iterations up to any checkpoint stall, as the site's).
    std::vector<double> levelSpectrum;
    if (d->jobs > 1 && i != 0 && d->iterationS > 0) {
        const double runFrom = d->startAtS + d->startS;
        const double runTo = std::isfinite(d->checkpointAtS) ? d->checkpointAtS : static_cast<double>(d->siteW.size()) * d->stepS;
        const double whole = std::floor((runTo - runFrom) / d->iterationS + 1e-9) * d->iterationS;
        levelSpectrum = models::amplitudeSpectrum(d->levelTrace(l, runFrom, runFrom + whole), d->stepS).amplitude;
        levelSpectrum.resize(std::min(levelSpectrum.size(), d->spectrumW.size()));
        ownSpectrum = &levelSpectrum;
        k = 1.0;
    }
    const std::vector<double>& own = *ownSpectrum;
    auto spectrum = [&](const std::vector<double>& a, double factor, const QString& label, QColor colour) {
        LinePlot::Series sp{label, {}, {}, colour, false};
        for (std::size_t b = 1; b < a.size(); ++b) {
            const double f = static_cast<double>(b) * d->spectrumStepHz;
            if (f > 20)
                break;
            sp.x.push_back(f);
            sp.y.push_back(a[b] * factor / scale);
        }
        return sp;
    };
    std::vector<LinePlot::Series> spectra{spectrum(own, k, tr("amplitude"), seriesColour(1))};
    if (d->siteStorage && i == 0)
        spectra.push_back(spectrum(d->spectrumW, 1.0, tr("connection"), seriesColour(2)));
    const std::size_t f0 = d->spectrumStepHz > 0 ? static_cast<std::size_t>(std::llround(d->fundamentalHz / d->spectrumStepHz)) : 0;
    const double fundamental = f0 < own.size() ? own[f0] * k : d->fundamentalW * k;
    // With site storage, the site's own line and the connection's (rdt check's "at the connection").
    if (d->siteStorage && i == 0)
        m_spectrum->setTitle(tr("Spectrum at %1 Hz: fundamental %2 %3 behind the storage, %4 %3 at the connection")
                                 .arg(d->fundamentalHz, 0, 'g', 3)
                                 .arg(fundamental / scale, 0, 'g', 3)
                                 .arg(unit)
                                 .arg(d->fundamentalW / scale, 0, 'g', 3));
    else
        m_spectrum->setTitle(tr("Spectrum: fundamental %1 %2 at %3 Hz")
                                 .arg(fundamental / scale, 0, 'g', 3)
                                 .arg(unit)
                                 .arg(d->fundamentalHz, 0, 'g', 3));
    m_spectrum->setAxes(tr("frequency (Hz)"), tr("amplitude (%1, peak)").arg(unit));
    m_spectrum->setSeries(std::move(spectra));
}

} // namespace rdt::gui
