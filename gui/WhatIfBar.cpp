#include "gui/WhatIfBar.h"

#include <algorithm>
#include <QFontMetrics>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include <cmath>

#include "core/Units.h"
#include "core/WhatIf.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {

/// A quantity field: empty means "as designed"; bad text turns red and is not applied.
QLineEdit* quantityEdit(const QString& placeholder, int width)
{
    auto* e = new QLineEdit;
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    // Wide enough for its placeholder and a value with its unit beside the clear button ("36 degC"
    // showed as "5degC", its first digit scrolled out; trust trial, 2026-12-07).
    const QFontMetrics fm(e->font());
    const int need = std::max(fm.horizontalAdvance(placeholder), fm.horizontalAdvance("-88.88 degC")) + 44;
    e->setMinimumWidth(std::max(width, need));
    e->setMaximumWidth(std::max(width, need));
    return e;
}

std::optional<double> parse(QLineEdit* e, core::Dimension dim, core::Range range)
{
    const QString t = e->text().trimmed();
    if (t.isEmpty()) {
        e->setStyleSheet({});
        e->setToolTip({});
        return NAN;
    }
    const core::ParsedQuantity p = core::parseQuantity(t.toStdString(), dim, range);
    e->setStyleSheet(p.value ? QString() : "QLineEdit { background: #fde2e0; border: 1px solid #d0453a; }");
    e->setToolTip(p.value ? QString() : QString::fromStdString(p.error));
    if (!p.value)
        return std::nullopt;
    return *p.value;
}

/// Marks `w` red with `why` as its tooltip, or clears the mark; true when `why` is empty.
bool accept(QWidget* w, const std::string& why, const QString& selector)
{
    w->setStyleSheet(why.empty() ? QString() : selector + " { background: #fde2e0; border: 1px solid #d0453a; }");
    w->setToolTip(QString::fromStdString(why));
    return why.empty();
}

} // namespace

WhatIfBar::WhatIfBar(Studio& studio, QWidget* parent)
    : QToolBar(tr("What-if"), parent), m_studio(studio), m_inlet(quantityEdit(tr("as designed"), 100)),
      m_altitude(quantityEdit(tr("as designed"), 100)), m_rotors(new QSpinBox), m_feed(new QComboBox),
      m_cap(quantityEdit(tr("as designed"), 100)), m_pumps(new QSpinBox), m_cdus(new QSpinBox),
      m_water(quantityEdit(tr("+0 K"), 60)), m_floor(quantityEdit(tr("as designed"), 90)),
      m_ramp(quantityEdit(tr("as designed"), 90)), m_psu(quantityEdit(tr("as designed"), 90)),
      m_smoothing(new QComboBox), m_thermal(new QComboBox)
{
    setObjectName("what-if");
    auto* title = new QLabel(tr("<b>What if</b> "));
    addWidget(title);
    addWidget(new QLabel(tr(" supply ")));
    addWidget(m_inlet);
    addWidget(new QLabel(tr("  altitude ")));
    addWidget(m_altitude);
    addWidget(new QLabel(tr("  failed rotors ")));
    m_rotors->setRange(0, 1024); // the design's chassis bound it: apply() refuses more than they have
    m_rotors->setToolTip(tr("Failed fan rotors in every chassis"));
    m_rotors->setKeyboardTracking(false);
    addWidget(m_rotors);
    addWidget(new QLabel(tr("  lost feed ")));
    m_feed->addItems({tr("none"), "A", "B"});
    addWidget(m_feed);
    addWidget(new QLabel(tr("  GPU cap ")));
    addWidget(m_cap);
    m_liquidActions.append(addWidget(new QLabel(tr("  pumps failed "))));
    m_pumps->setRange(0, 1024); // the loops bound it: apply() refuses what would leave one without a pump
    m_pumps->setToolTip(tr("Pumps stopped in every liquid loop (pump-fail=N)"));
    m_pumps->setKeyboardTracking(false);
    m_liquidActions.append(addWidget(m_pumps));
    m_liquidActions.append(addWidget(new QLabel(tr("  CDUs failed "))));
    m_cdus->setRange(0, 64);
    m_cdus->setToolTip(tr("CDUs lost from every liquid loop (cdu-fail=N)"));
    m_cdus->setKeyboardTracking(false);
    m_liquidActions.append(addWidget(m_cdus));
    m_liquidActions.append(addWidget(new QLabel(tr("  facility water "))));
    m_water->setToolTip(tr("Facility water (a liquid-to-air unit: the air its own coil draws; the racks' air is the "
                           "inlet what-if) warmer by this, e.g. +5 K"));
    m_liquidActions.append(addWidget(m_water));
    m_dynamicsActions.append(addWidget(new QLabel(tr("  GPU floor "))));
    m_floor->setToolTip(tr("GPU power floor as a share of TDP (NVML PERCENT_TMP_FLOOR), e.g. 90%"));
    m_dynamicsActions.append(addWidget(m_floor));
    m_dynamicsActions.append(addWidget(new QLabel(tr("  GPU ramp "))));
    m_ramp->setToolTip(
        tr("Every GPU's power ramp limit, up and down (NVML RAMP_UP_RATE, RAMP_DOWN_RATE), e.g. 2000 W/s"));
    m_dynamicsActions.append(addWidget(m_ramp));
    m_dynamicsActions.append(addWidget(new QLabel(tr("  PSU storage "))));
    m_psu->setToolTip(tr("Energy storage in the GPUs' power supplies, per GPU (GB300 NVL72: 65 J), e.g. 65 J"));
    m_dynamicsActions.append(addWidget(m_psu));
    m_dynamicsActions.append(addWidget(new QLabel(tr("  smoothing "))));
    m_smoothing->addItems({tr("as designed"), "none", "bbu"});
    m_smoothing->setToolTip(tr("Storage smoothing the swing: none (no battery, PSU or site storage) or bbu (each "
                               "rack's battery shelves, within the design's bbu_cycle_budget)"));
    m_dynamicsActions.append(addWidget(m_smoothing));
    addWidget(new QLabel(tr("  thermal ")));
    m_thermal->addItems({tr("as designed"), "network", "field", tr("field, OpenFOAM intakes…")});
    m_thermal->setToolTip(tr("Thermal model: the rack network (fast; rows as well-mixed rooms), the room "
                             "field (each pod's air solved in 3D, racks as the network's black boxes), or the "
                             "field with every rack's intakes from an OpenFOAM case rdt exported and ran "
                             "(rdt field --openfoam DIR, then its Allrun): the rules judge OpenFOAM's air"));
    addWidget(m_thermal);
    auto* reset = new QToolButton;
    reset->setText(tr("Reset"));
    reset->setToolTip(tr("Back to the design as written"));
    addWidget(reset);
    for (QLineEdit* e : {m_inlet, m_altitude, m_cap, m_water, m_floor, m_ramp, m_psu})
        connect(e, &QLineEdit::editingFinished, this, &WhatIfBar::apply);
    connect(m_rotors, &QSpinBox::valueChanged, this, &WhatIfBar::apply);
    connect(m_pumps, &QSpinBox::valueChanged, this, &WhatIfBar::apply);
    connect(m_cdus, &QSpinBox::valueChanged, this, &WhatIfBar::apply);
    connect(&m_studio, &Studio::documentReplaced, this, &WhatIfBar::showLiquid);
    connect(&m_studio, &Studio::designChanged, this, &WhatIfBar::showLiquid);
    showLiquid();
    connect(m_feed, &QComboBox::currentIndexChanged, this, &WhatIfBar::apply);
    connect(m_smoothing, &QComboBox::currentIndexChanged, this, &WhatIfBar::apply);
    connect(m_thermal, &QComboBox::currentIndexChanged, this, &WhatIfBar::thermalChosen);
    connect(reset, &QToolButton::clicked, this, &WhatIfBar::reset);
}

bool WhatIfBar::set(const QString& what, const QString& value)
{
    if (what == "inlet")
        m_inlet->setText(value);
    else if (what == "altitude")
        m_altitude->setText(value);
    else if (what == "gpu-cap")
        m_cap->setText(value);
    else if (what == "fan-fail") {
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n < m_rotors->minimum() || n > m_rotors->maximum())
            return false;
        const QSignalBlocker block(m_rotors);
        m_rotors->setValue(n);
    } else if (what == "pump-fail" || what == "cdu-fail") {
        QSpinBox* box = what == "pump-fail" ? m_pumps : m_cdus;
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n < box->minimum() || n > box->maximum())
            return false;
        const QSignalBlocker block(box);
        box->setValue(n);
    } else if (what == "facility-water") {
        m_water->setText(value);
    } else if (what == "power-floor" || what == "gpu-ramp" || what == "psu-storage") {
        (what == "power-floor" ? m_floor : what == "gpu-ramp" ? m_ramp : m_psu)->setText(value);
    } else if (what == "smoothing") {
        const int i = m_smoothing->findText(value);
        if (i < 1)
            return false;
        const QSignalBlocker block(m_smoothing);
        m_smoothing->setCurrentIndex(i);
    } else if (what == "feed-loss") {
        const int i = value.isEmpty() ? 0 : m_feed->findText(value);
        if (i < 0)
            return false;
        const QSignalBlocker block(m_feed);
        m_feed->setCurrentIndex(i);
    } else if (what == "thermal") {
        const int i = m_thermal->findText(value);
        if (i < 1 || i > 2)
            return false;
        const QSignalBlocker block(m_thermal);
        m_thermal->setCurrentIndex(i);
        m_thermalShown = i;
    } else if (what == "intakes-from") {
        if (value.isEmpty())
            return false;
        m_intakesFrom = value;
        const QSignalBlocker block(m_thermal);
        m_thermal->setCurrentIndex(3);
        m_thermalShown = 3;
    } else
        return false;
    apply();
    return refusal().isEmpty();
}

void WhatIfBar::reset()
{
    {
        const QSignalBlocker a(m_rotors), b(m_feed), c(m_thermal), d(m_pumps), e(m_cdus), f(m_smoothing);
        m_floor->clear();
        m_ramp->clear();
        m_psu->clear();
        m_smoothing->setCurrentIndex(0);
        m_pumps->setValue(0);
        m_cdus->setValue(0);
        m_water->clear();
        m_inlet->clear();
        m_altitude->clear();
        m_cap->clear();
        m_rotors->setValue(0);
        m_feed->setCurrentIndex(0);
        m_thermal->setCurrentIndex(0);
        m_thermalShown = 0;
    }
    apply();
}

void WhatIfBar::thermalChosen(int index)
{
    if (index == 3) {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("OpenFOAM case rdt exported and ran"),
                                              m_intakesFrom.isEmpty() ? QDir::currentPath() : m_intakesFrom);
        if (dir.isEmpty()) {
            const QSignalBlocker block(m_thermal);
            m_thermal->setCurrentIndex(m_thermalShown);
            return;
        }
        m_intakesFrom = dir;
    }
    m_thermalShown = index;
    apply();
}

void WhatIfBar::apply()
{
    const auto inlet = parse(m_inlet, core::Dimension::Temperature, analysis::RunOptions::kInletRange);
    const auto altitude = parse(m_altitude, core::Dimension::Length, analysis::RunOptions::kAltitudeRange);
    const auto cap = parse(m_cap, core::Dimension::Power, {1, 5000});
    const auto water = parse(m_water, core::Dimension::TemperatureDelta, {-30, 30});
    const auto floor = parse(m_floor, core::Dimension::Ratio, {0, 1});
    const auto ramp = parse(m_ramp, core::Dimension::PowerRate, {1e-3, 1e9});
    const auto psu = parse(m_psu, core::Dimension::Energy, {1e-3, 1e6});
    if (!inlet || !altitude || !cap || !water || !floor || !ramp || !psu)
        return; // the red field says why; nothing changes until it is fixed
    analysis::RunOptions w;
    w.powerFloorShare = *floor;
    w.gpuRampWps = *ramp;
    w.psuStorageJ = *psu;
    w.smoothing = m_smoothing->currentIndex() == 0 ? std::string() : m_smoothing->currentText().toStdString();
    w.inletK = *inlet;
    w.altitudeM = *altitude;
    w.gpuCapW = *cap;
    w.failedRotors = m_rotors->value();
    w.lostFeed = m_feed->currentIndex() == 0 ? std::string() : m_feed->currentText().toStdString();
    w.failedPumps = m_pumps->value();
    w.failedCdus = m_cdus->value();
    w.facilityWaterDeltaK = std::isnan(*water) ? 0.0 : *water;
    if (m_thermal->currentIndex() > 0)
        w.thermalModel = m_thermal->currentIndex() >= 2 ? core::ThermalModel::Field : core::ThermalModel::Network;
    if (m_thermal->currentIndex() == 3)
        w.intakesFrom = m_intakesFrom.toStdString();
    m_thermal->setItemText(3, m_intakesFrom.isEmpty() ? tr("field, OpenFOAM intakes…")
                                                      : tr("field, OpenFOAM %1").arg(QDir(m_intakesFrom).dirName()));
    // What the design accepts, in the design file's words (core/WhatIf.h): a what-if it refuses, or
    // one that would change nothing, is marked red and not applied, never clamped.
    const core::Design& d = m_studio.document().design();
    const bool capOk = !std::isfinite(w.gpuCapW) || accept(m_cap, core::gpuCapWhatIfError(d, w.gpuCapW), "QLineEdit");
    const bool rotorsOk = accept(m_rotors, core::fanFailWhatIfError(d, w.failedRotors), "QSpinBox");
    const bool feedOk = accept(m_feed, w.lostFeed.empty() ? "" : core::feedLossWhatIfError(d, w.lostFeed), "QComboBox");
    const bool cdusOk = w.failedCdus == 0 || accept(m_cdus, core::cduFailWhatIfError(d, w.failedCdus), "QSpinBox");
    // The pumps left are those of the CDUs still running (both what-ifs together).
    const bool pumpsOk =
        w.failedPumps == 0 ||
        accept(m_pumps, core::pumpFailWhatIfError(d, w.failedPumps, cdusOk ? w.failedCdus : 0), "QSpinBox");
    if (w.failedPumps == 0)
        accept(m_pumps, "", "QSpinBox");
    if (w.failedCdus == 0)
        accept(m_cdus, "", "QSpinBox");
    const bool smoothingOk =
        accept(m_smoothing,
               w.smoothing == "bbu" && std::isnan(d.dynamics.bbuCyclesPerDay)
                   ? "the design's dynamics: section has no bbu_cycle_budget (the battery shelves' cycles a day)"
                   : "",
               "QComboBox");
    if (!capOk || !rotorsOk || !feedOk || !pumpsOk || !cdusOk || !smoothingOk)
        return;
    const analysis::RunOptions& now = m_studio.whatIf();
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    if (same(now.inletK, w.inletK) && same(now.altitudeM, w.altitudeM) && same(now.gpuCapW, w.gpuCapW) &&
        now.failedRotors == w.failedRotors && now.lostFeed == w.lostFeed && now.thermalModel == w.thermalModel &&
        now.intakesFrom == w.intakesFrom && now.failedPumps == w.failedPumps && now.failedCdus == w.failedCdus &&
        now.facilityWaterDeltaK == w.facilityWaterDeltaK && same(now.powerFloorShare, w.powerFloorShare) &&
        same(now.gpuRampWps, w.gpuRampWps) && same(now.psuStorageJ, w.psuStorageJ) && now.smoothing == w.smoothing)
        return;
    m_studio.setWhatIf(w);
}

QString WhatIfBar::refusal() const
{
    for (const QWidget* w : std::initializer_list<const QWidget*>{m_inlet, m_altitude, m_cap, m_rotors, m_feed, m_pumps,
                                                                  m_cdus, m_water, m_floor, m_ramp, m_psu, m_smoothing})
        if (!w->styleSheet().isEmpty())
            return w->toolTip().isEmpty() ? tr("refused") : w->toolTip();
    return {};
}

void WhatIfBar::showLiquid()
{
    const bool liquid = !m_studio.document().design().liquid.loops.empty();
    for (QAction* a : m_liquidActions)
        a->setVisible(liquid);
    const bool dynamics = m_studio.document().design().dynamics.declared;
    for (QAction* a : m_dynamicsActions)
        a->setVisible(dynamics);
}

} // namespace rdt::gui
