#include "gui/SignalPanel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <complex>

#include "core/Error.h"
#include "gui/LinePlot.h"
#include "gui/NumberItem.h"
#include "gui/Studio.h"
#include "signal/Touchstone.h"

namespace rdt::gui {

void eyeContour(const std::vector<double>& phaseUi, const std::vector<double>& openingV, double scale,
                std::vector<double>& x, std::vector<double>& y)
{
    x.clear();
    y.clear();
    const std::size_t n = std::min(phaseUi.size(), openingV.size());
    // Phase where the opening crosses zero between samples k and k + 1 (linear in between).
    auto crossing = [&](std::size_t k) {
        return phaseUi[k] + (0 - openingV[k]) / (openingV[k + 1] - openingV[k]) * (phaseUi[k + 1] - phaseUi[k]);
    };
    for (std::size_t i = 0; i < n;) {
        if (!(openingV[i] > 0)) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < n && openingV[j + 1] > 0)
            ++j;
        if (!x.empty()) { // a second open run: break the line
            x.push_back(NAN);
            y.push_back(NAN);
        }
        const bool closesLeft = i > 0, closesRight = j + 1 < n;
        if (closesLeft) {
            x.push_back(crossing(i - 1));
            y.push_back(0);
        }
        for (std::size_t k = i; k <= j; ++k) {
            x.push_back(phaseUi[k]);
            y.push_back(openingV[k] * scale);
        }
        if (closesRight) {
            x.push_back(crossing(j));
            y.push_back(0);
        }
        for (std::size_t k = j + 1; k-- > i;) {
            x.push_back(phaseUi[k]);
            y.push_back(-openingV[k] * scale);
        }
        if (closesLeft) {
            x.push_back(crossing(i - 1));
            y.push_back(0);
        }
        i = j + 1;
    }
}

const QColor SignalPanel::kPassColour(40, 130, 60);
const QColor SignalPanel::kWarnColour(200, 120, 0);
const QColor SignalPanel::kFailColour(190, 40, 35);

QColor SignalPanel::verdictColour(const signal::LinkVerdict& v)
{
    // An error rule's finding (signal.link.close, a cable too short for its run, ...): red, whatever
    // rate it would close at. Only warnings' findings, or a class that closes at a fallback rate
    // (signal.link.rate, even where that rule is waived or off): amber, it runs slower. Else its own
    // verdict: green, or red when it closes at no rate.
    switch (v.standing()) {
    case signal::LinkVerdict::Standing::Fail:
        return kFailColour;
    case signal::LinkVerdict::Standing::Warn:
        return kWarnColour;
    case signal::LinkVerdict::Standing::Pass:
        break;
    }
    return kPassColour;
}

SignalPanel::SignalPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_table(new QTableWidget), m_tabs(new QTabWidget), m_loss(new LinePlot),
      m_pulse(new LinePlot), m_eye(new LinePlot), m_budget(new QLabel), m_sMag(new LinePlot), m_sPhase(new LinePlot),
      m_tsStatus(new QLabel(tr("Drop a Touchstone file (.s2p, .s4p, .ts) on the window to plot it here.")))
{
    // The verdict next to the class's name: at the table's end it sat past the panel's right edge
    // at 1600 px, the one column a reviewer must see.
    const QStringList headers = {tr("Link class"), tr("Verdict"),         tr("Kind"),
                                 tr("Links"),      tr("Length (m)"),      tr("IL at Nyquist (dB)"),
                                 tr("COM (dB)"),   tr("Eye height (mV)"), tr("Lane (Gb/s)")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_loss->setAxes(tr("frequency (GHz)"), tr("insertion loss (dB)"));
    m_pulse->setAxes(tr("time (ns)"), tr("pulse response (mV)"));
    m_eye->setAxes(tr("sampling phase (UI)"), tr("voltage (mV)"));
    m_budget->setTextFormat(Qt::RichText);
    m_budget->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_budget->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sMag->setAxes(tr("frequency (GHz)"), tr("|S| (dB)"));
    m_sPhase->setAxes(tr("frequency (GHz)"), tr("unwrapped phase (°)"));
    m_tabs->addTab(m_loss, tr("Insertion loss"));
    m_tabs->addTab(m_pulse, tr("Pulse response"));
    m_tabs->addTab(m_eye, tr("Statistical eye"));
    m_tabs->addTab(m_budget, tr("COM budget"));
    auto* ts = new QWidget;
    auto* tsLayout = new QVBoxLayout(ts);
    tsLayout->setContentsMargins(0, 0, 0, 0);
    tsLayout->addWidget(m_tsStatus);
    auto* tsPlots = new QHBoxLayout;
    tsPlots->addWidget(m_sMag);
    tsPlots->addWidget(m_sPhase);
    tsLayout->addLayout(tsPlots, 1);
    m_tabs->addTab(ts, tr("Touchstone"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 2);
    layout->addWidget(m_tabs, 3);
    connect(&m_studio, &Studio::checksFinished, this, &SignalPanel::refresh);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) { showClass(row); });
    refresh();
}

void SignalPanel::refresh()
{
    const auto sig = m_studio.signal();
    const int keep = std::max(0, m_table->currentRow());
    m_table->setRowCount(0);
    if (!sig)
        return;
    m_table->setRowCount(static_cast<int>(sig->links.size()));
    int row = 0;
    for (const signal::LinkVerdict& v : sig->links) {
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(v.id)));
        m_table->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(v.kind)));
        m_table->setItem(row, 3, new NumberItem(static_cast<double>(v.count), 0));
        m_table->setItem(row, 4, new NumberItem(v.lengthM, 2));
        m_table->setItem(row, 5, new NumberItem(v.ilNyquistDb, 1));
        m_table->setItem(row, 6, new NumberItem(v.comDb, 2));
        m_table->setItem(row, 7, new NumberItem(v.eyeHeightV * 1e3, 1));
        m_table->setItem(row, 8, new NumberItem(v.laneRateGbps, 0));
        auto* verdict = new QTableWidgetItem(QString::fromStdString(v.verdict));
        verdict->setForeground(verdictColour(v));
        m_table->setItem(row, kVerdictColumn, verdict);
        ++row;
    }
    m_table->resizeColumnsToContents();
    if (row > 0) {
        const int r = std::min(keep, row - 1);
        m_table->setCurrentCell(r, 0);
        showClass(r);
    }
}

void SignalPanel::showClass(int row)
{
    const auto sig = m_studio.signal();
    if (!sig || row < 0 || static_cast<std::size_t>(row) >= sig->links.size())
        return;
    const signal::LinkVerdict& v = sig->links[static_cast<std::size_t>(row)];
    const QString id = QString::fromStdString(v.id);
    LinePlot::Series il{QString(), {}, v.ilDb, seriesColour(0)}; // one line: the title names it
    for (double f : v.ilFreqHz)
        il.x.push_back(f / 1e9);
    m_loss->setTitle(tr("%1: insertion loss, %2 dB at Nyquist").arg(id).arg(v.ilNyquistDb, 0, 'f', 1));
    m_loss->setSeries({il});

    LinePlot::Series pulse{QString(), {}, {}, seriesColour(0)};
    for (std::size_t i = 0; i < v.pulse.v.size(); ++i) {
        pulse.x.push_back(static_cast<double>(i) * v.pulse.dtS * 1e9);
        pulse.y.push_back(v.pulse.v[i] * 1e3);
    }
    m_pulse->setTitle(v.pulse.v.empty() ? tr("%1: no pulse response (COM applies to copper links)").arg(id)
                                        : tr("%1: equalised pulse response").arg(id));
    m_pulse->setSeries(v.pulse.v.empty() ? std::vector<LinePlot::Series>{} : std::vector<LinePlot::Series>{pulse});

    // The statistical eye as contours, one per BER (eyeContours).
    std::vector<LinePlot::Series> eye;
    for (std::size_t b = 0; b < v.eyeBer.size() && b < v.eyeOpeningV.size(); ++b) {
        LinePlot::Series s{
            QString("BER 1e%1").arg(std::lround(std::log10(v.eyeBer[b]))), {}, {}, seriesColour(static_cast<int>(b))};
        eyeContour(v.eyePhaseUi, v.eyeOpeningV[b], 1e3, s.x, s.y);
        if (s.x.empty())
            s.label += tr(": eye closed");
        eye.push_back(std::move(s));
    }
    if (!v.eyePhaseUi.empty())
        m_eye->setXRange(v.eyePhaseUi.front(), v.eyePhaseUi.back());
    else
        m_eye->clearXRange();
    m_eye->setTitle(eye.empty() ? tr("%1: no statistical eye (copper links only)").arg(id)
                                : tr("%1: statistical eye, height %2 mV, width %3 UI at the detector error ratio")
                                      .arg(id)
                                      .arg(v.eyeHeightV * 1e3, 0, 'f', 1)
                                      .arg(v.eyeWidthUi, 0, 'f', 2));
    m_eye->setSeries(std::move(eye));

    auto mv = [](double x) { return std::isfinite(x) ? QString::number(x * 1e3, 'f', 2) + " mV" : QString("–"); };
    if (std::isfinite(v.comDb))
        m_budget->setText(
            tr("<b>%1</b>: COM %2 dB (pass at 3 dB) — %3<br><table cellspacing='6'>"
               "<tr><td>signal A<sub>s</sub></td><td align='right'>%4</td></tr>"
               "<tr><td>noise A<sub>ni</sub> at the detector error ratio</td><td align='right'>%5</td></tr>"
               "<tr><td>σ residual ISI</td><td align='right'>%6</td></tr>"
               "<tr><td>σ crosstalk</td><td align='right'>%7</td></tr>"
               "<tr><td>σ transmitter</td><td align='right'>%8</td></tr>"
               "<tr><td>σ jitter</td><td align='right'>%9</td></tr>"
               "<tr><td>σ receiver noise</td><td align='right'>%10</td></tr>"
               "<tr><td>CTLE gain, Tx FFE c(−1), c(+1)</td><td align='right'>%11 dB, %12, %13</td></tr></table>")
                .arg(id)
                .arg(v.comDb, 0, 'f', 2)
                .arg(QString::fromStdString(v.verdict))
                .arg(mv(v.signalV), mv(v.noiseV), mv(v.sigmaIsiV), mv(v.sigmaXtV), mv(v.sigmaTxV), mv(v.sigmaJitterV),
                     mv(v.sigmaRxNoiseV))
                .arg(v.ctleGainDb, 0, 'f', 1)
                .arg(v.txPre, 0, 'f', 2)
                .arg(v.txPost, 0, 'f', 2));
    else
        m_budget->setText(tr("<b>%1</b> (%2): judged by insertion loss, %3 dB at Nyquist — %4")
                              .arg(id, QString::fromStdString(v.kind))
                              .arg(v.ilNyquistDb, 0, 'f', 1)
                              .arg(QString::fromStdString(v.verdict)));
}

bool SignalPanel::openTouchstone(const QString& path)
{
    m_tabs->setCurrentIndex(4);
    try {
        const signal::Network net = signal::readTouchstone(path.toStdString());
        const int n = net.ports();
        std::vector<LinePlot::Series> mag, phase;
        // Column 1 of S (reflection and the transmissions from port 1), at most four traces.
        for (int i = 0; i < n && i < 4; ++i) {
            LinePlot::Series m{QString("S%1%2").arg(i + 1).arg(1), {}, {}, seriesColour(i)};
            LinePlot::Series p = m;
            double last = 0, offset = 0;
            for (std::size_t k = 0; k < net.points(); ++k) {
                const std::complex<double> s = net.s[k](i, 0);
                m.x.push_back(net.freqHz[k] / 1e9);
                m.y.push_back(20.0 * std::log10(std::max(std::abs(s), 1e-12)));
                // Unwrapped, so delay reads as a slope rather than a sawtooth.
                const double a = std::arg(s) * 180.0 / M_PI;
                if (k > 0 && a + offset - last > 180.0)
                    offset -= 360.0;
                else if (k > 0 && a + offset - last < -180.0)
                    offset += 360.0;
                last = a + offset;
                p.x.push_back(net.freqHz[k] / 1e9);
                p.y.push_back(last);
            }
            mag.push_back(std::move(m));
            phase.push_back(std::move(p));
        }
        const QString name = QFileInfo(path).fileName();
        m_sMag->setTitle(tr("%1: magnitude").arg(name));
        m_sPhase->setTitle(tr("%1: phase").arg(name));
        m_sMag->setSeries(std::move(mag));
        m_sPhase->setSeries(std::move(phase));
        m_tsStatus->setText(tr("%1 — %2 ports, %3 points, %4 … %5 GHz")
                                .arg(name)
                                .arg(n)
                                .arg(net.points())
                                .arg(net.freqHz.front() / 1e9, 0, 'g', 4)
                                .arg(net.freqHz.back() / 1e9, 0, 'g', 4));
        return true;
    } catch (const std::exception& e) {
        m_tsStatus->setText(
            tr("<span style='color:#c0392b'>%1</span>").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return false;
    }
}

void SignalPanel::showTab(const QString& name)
{
    const QStringList names = {"loss", "pulse", "eye", "budget", "touchstone"};
    const int i = static_cast<int>(names.indexOf(name));
    if (i >= 0)
        m_tabs->setCurrentIndex(i);
    // The eye of a class that has none (PCIe, optics) is an empty plot: show the first that has one.
    const auto sig = m_studio.signal();
    const int row = m_table->currentRow();
    if (name == "eye" && sig &&
        (row < 0 || static_cast<std::size_t>(row) >= sig->links.size() ||
         sig->links[static_cast<std::size_t>(row)].eyeBer.empty()))
        for (std::size_t r = 0; r < sig->links.size(); ++r)
            if (!sig->links[r].eyeBer.empty()) {
                m_table->setCurrentCell(static_cast<int>(r), 0);
                break;
            }
}

QString SignalPanel::touchstoneStatus() const
{
    return m_tsStatus->text();
}

} // namespace rdt::gui
