#include "gui/InspectorPanel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/Pipeline.h"
#include "editor/YamlPath.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {

QString scalarText(const YAML::Node& n)
{
    return n && n.IsScalar() ? QString::fromStdString(n.Scalar()) : QString();
}

} // namespace

InspectorPanel::InspectorPanel(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_rules(analysis::makeRegistry())
{
    // The rows scroll when the window is short (1280 × 720); they never scroll sideways: every text
    // wraps or elides to the column it has.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea;
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_scroll);
    connect(&m_studio, &Studio::selectionChanged, this, &InspectorPanel::rebuild);
    connect(&m_studio, &Studio::designChanged, this, &InspectorPanel::rebuild);
    connect(&m_studio, &Studio::documentReplaced, this, &InspectorPanel::rebuild);
    connect(&m_studio, &Studio::checksFinished, this, &InspectorPanel::rebuild);
    rebuild();
}

void InspectorPanel::rebuild()
{
    delete m_scroll->takeWidget();
    m_verdicts.clear();
    m_rows = 0;
    m_body = new QWidget;
    m_grid = new QGridLayout(m_body);
    m_grid->setContentsMargins(6, 6, 6, 6);
    m_grid->setHorizontalSpacing(8);
    // Labels take two fifths of the width, values three; both wrap within their column.
    m_grid->setColumnStretch(0, 2);
    m_grid->setColumnStretch(1, 3);
    const editor::SubjectRef ref = m_studio.subjects().resolve(m_studio.selection().toStdString());
    if (ref.slot >= 0)
        showSlot(ref.rack, ref.slot);
    else if (ref.rack >= 0)
        showRack(ref.rack);
    else
        showSite();
    m_grid->setRowStretch(m_rows, 1);
    m_scroll->setWidget(m_body);
}

void InspectorPanel::addRow(const QString& label, QWidget* field)
{
    auto* l = new ValueLabel(label);
    l->setTextColour(QColor(85, 85, 85));
    m_grid->addWidget(l, m_rows, 0, Qt::AlignTop);
    // Editors shrink with the column (a combo box of slugs would otherwise set the panel's width).
    if (auto* combo = qobject_cast<QComboBox*>(field)) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(6);
    }
    if (qobject_cast<QLineEdit*>(field))
        field->setMinimumWidth(60);
    m_grid->addWidget(field, m_rows++, 1);
}

void InspectorPanel::addHeading(const QString& text)
{
    auto* h = new ValueLabel(text);
    QFont f = h->font();
    f.setBold(true);
    h->setFont(f);
    m_grid->addWidget(h, m_rows++, 0, 1, 2);
}

void InspectorPanel::addInfo(const QString& label, const QString& value)
{
    addRow(label, new ValueLabel(value));
}

QLineEdit* InspectorPanel::addQuantity(const QString& label, const QString& current, core::Dimension dim,
                                       core::Range range, std::function<void(const QString&)> commit,
                                       const QString& defaultText)
{
    auto* edit = new QLineEdit(current);
    // The value that applies when the field is left empty, in the field's own unit.
    edit->setPlaceholderText(
        defaultText.isEmpty() ? tr("unit e.g. %1").arg(QString::fromStdString(core::exampleQuantity(dim)).remove('"'))
                              : tr("default %1").arg(defaultText));
    auto validate = [edit, dim, range] {
        const QString t = edit->text().trimmed();
        const core::ParsedQuantity p =
            t.isEmpty() ? core::ParsedQuantity{0.0, {}} : core::parseQuantity(t.toStdString(), dim, range);
        edit->setStyleSheet(p.value ? QString() : "QLineEdit { background: #fde2e0; border: 1px solid #d0453a; }");
        edit->setToolTip(p.value ? QString() : QString::fromStdString(p.error));
        return p.value.has_value();
    };
    connect(edit, &QLineEdit::textChanged, edit, validate);
    connect(edit, &QLineEdit::editingFinished, this, [edit, validate, commit, current] {
        if (edit->text().trimmed() != current && validate())
            commit(edit->text().trimmed());
    });
    addRow(label, edit);
    return edit;
}

void InspectorPanel::showSite()
{
    const core::Site& s = m_studio.design().site;
    addHeading(tr("Site — select a rack or part to inspect it"));
    addInfo(tr("Design"), QString::fromStdString(m_studio.design().name));
    const editor::Document& doc = m_studio.document();
    auto written = [&doc](const char* key) { return QString::fromStdString(doc.siteField(key)); };
    auto commit = [this](const char* key) {
        return
            [this, key](const QString& v) { m_studio.tryEdit(m_studio.document().setSiteField(key, v.toStdString())); };
    };
    const core::Site defaults;
    addQuantity(tr("Supply air"), written("supply_air"), core::Dimension::Temperature, {223.15, 373.15},
                commit("supply_air"),
                QString::fromStdString(core::formatQuantity(defaults.supplyAirK, core::Dimension::Temperature)));
    addQuantity(tr("Altitude"), written("altitude"), core::Dimension::Length, {-500, 6000}, commit("altitude"),
                QString::fromStdString(core::formatQuantity(defaults.altitudeM, core::Dimension::Length)));
    addQuantity(tr("Humidity"), written("humidity"), core::Dimension::Ratio, {0, 1}, commit("humidity"),
                QString::fromStdString(core::formatQuantity(defaults.relativeHumidity, core::Dimension::Ratio)));
    auto* cls = new QComboBox;
    cls->addItems({"A1", "A2", "A3", "A4", "H1"});
    cls->setCurrentText(QString::fromStdString(s.ashraeClass));
    connect(cls, &QComboBox::currentTextChanged, this, [this](const QString& c) {
        m_studio.tryEdit(m_studio.document().setSiteField("ashrae_class", c.toStdString()));
    });
    addRow(tr("ASHRAE class"), cls);
    const core::Summary sum = m_studio.design().summary();
    addInfo(tr("Racks"), QString::number(sum.racks));
    addInfo(tr("GPUs"), QString::number(sum.gpus));
    otherChecks("site");
}

void InspectorPanel::showRack(int rackIndex)
{
    const core::Rack& r = m_studio.design().racks[static_cast<std::size_t>(rackIndex)];
    addHeading(tr("Rack %1").arg(QString::fromStdString(r.id)));
    addInfo(tr("Defined by"), QString::fromStdString(m_studio.document().describeBody(r.bodyPath)));
    auto* type = new QComboBox;
    for (const std::string& slug : m_studio.design().catalog->slugs())
        if (m_studio.design().catalog->find(slug)->kind == core::PartKind::Rack)
            type->addItem(QString::fromStdString(slug));
    type->setCurrentText(QString::fromStdString(r.rackType->slug));
    const std::string body = r.bodyPath;
    connect(type, &QComboBox::currentTextChanged, this, [this, body](const QString& t) {
        m_studio.tryEdit(m_studio.document().setRackType(body, t.toStdString()));
    });
    addRow(tr("Rack type"), type);
    double mass = 0, power = 0;
    int used = 0, gpus = 0;
    for (const core::Slot& s : r.slots) {
        mass += s.part->value("weight", 0);
        power += s.part->value("power.max", 0);
        used += s.part->ouHeight;
        gpus += core::Design::gpuCount(*s.part);
    }
    const int usable = static_cast<int>(r.rackType->value("usable_ou", 44));
    addInfo(tr("OU used"), tr("%1 of %2 OU").arg(used).arg(usable));
    addInfo(tr("Payload"),
            QString::fromStdString(core::formatQuantity(mass, core::Dimension::Mass) + " of " +
                                   core::formatQuantity(r.rackType->value("max_payload", 0), core::Dimension::Mass)));
    // The parts' power.max summed before any GPU cap: the budget's nameplate load, with the caps, is the
    // "Load (nameplate)" row below (the two once read as two nameplates, 21.9 and 21.1 kW).
    addInfo(tr("Rated power (uncapped)"), QString::fromStdString(core::formatQuantity(power, core::Dimension::Power)));
    addInfo(tr("GPUs"), QString::number(gpus));
    addInfo(tr("Busbar rating"), QString::fromStdString(core::formatQuantity(r.rackType->value("busbar_rating", 0),
                                                                             core::Dimension::Current)));
    rackResults(rackIndex);
    otherChecks(r.id);
}

void InspectorPanel::showSlot(int rackIndex, int slotIndex)
{
    const core::Rack& r = m_studio.design().racks[static_cast<std::size_t>(rackIndex)];
    const core::Slot& s = r.slots[static_cast<std::size_t>(slotIndex)];
    const std::string body = r.bodyPath;
    const std::size_t index = static_cast<std::size_t>(slotIndex);
    addHeading(tr("%1 in %2").arg(QString::fromStdString(s.name), QString::fromStdString(r.id)));
    addInfo(tr("Part"), QString::fromStdString(s.part->manufacturer + " " + s.part->model + "\n" + s.part->slug));
    addInfo(tr("Defined by"), QString::fromStdString(m_studio.document().describeBody(body)));
    auto* ou = new QSpinBox;
    ou->setRange(1, static_cast<int>(r.rackType->value("usable_ou", 44)));
    ou->setValue(s.ou);
    ou->setSuffix(tr(" OU"));
    ou->setKeyboardTracking(false);
    connect(ou, &QSpinBox::valueChanged, this,
            [this, body, index](int v) { m_studio.tryEdit(m_studio.document().moveSlot(body, index, v)); });
    addRow(tr("Lowest OU"), ou);
    addInfo(tr("Occupies"), tr("OU %1–%2 (%3 mm)").arg(s.ou).arg(s.top()).arg(s.part->ouHeight * 48));
    const YAML::Node item = editor::nodeAt(m_studio.document().root(), body + ".slots[" + std::to_string(index) + "]");
    auto commit = [this, body, index](const char* key) {
        return [this, body, index, key](const QString& v) {
            m_studio.tryEdit(m_studio.document().setSlotField(body, index, key, v.toStdString()));
        };
    };
    if (s.part->kind == core::PartKind::Chassis) {
        const core::Part* gpu = m_studio.design().catalog->find(s.part->text("gpus.part"));
        const double tdp = gpu ? gpu->value("tdp", 5000) : 5000;
        const double lo = gpu ? gpu->value("min_power_cap", gpu->value("power.idle", 1)) : 1;
        addQuantity(tr("GPU power cap"), scalarText(item["gpu_power_cap"]), core::Dimension::Power, {lo, tdp},
                    commit("gpu_power_cap"),
                    tr("TDP %1").arg(QString::fromStdString(core::formatQuantity(tdp, core::Dimension::Power))));
        addQuantity(tr("Utilisation"), scalarText(item["utilisation"]), core::Dimension::Ratio, {0, 1},
                    commit("utilisation"), "100 %");
        addInfo(tr("GPUs"), QString("%1 × %2")
                                .arg(core::Design::gpuCount(*s.part))
                                .arg(QString::fromStdString(s.part->text("gpus.part"))));
    }
    if (s.part->value("fans.count", 0) > 0) {
        auto* fans = new QSpinBox;
        fans->setRange(0, static_cast<int>(s.part->value("fans.count", 0) * s.part->value("fans.rotors_per_fan", 1)));
        fans->setValue(s.overrides.failedFanRotors);
        fans->setKeyboardTracking(false);
        connect(fans, &QSpinBox::valueChanged, this, [this, body, index](int v) {
            m_studio.tryEdit(m_studio.document().setSlotField(body, index, "failed_fans", v ? std::to_string(v) : ""));
        });
        addRow(tr("Failed rotors"), fans);
    }
    if (s.part->kind == core::PartKind::PowerShelf) {
        auto* feed = new QComboBox;
        feed->addItems({tr("(undeclared)"), "A", "B"});
        feed->setCurrentText(s.overrides.feed.empty() ? tr("(undeclared)") : QString::fromStdString(s.overrides.feed));
        connect(feed, &QComboBox::currentIndexChanged, this, [this, body, index](int i) {
            m_studio.tryEdit(m_studio.document().setSlotField(body, index, "feed", i == 0 ? "" : i == 1 ? "A" : "B"));
        });
        addRow(tr("AC feed"), feed);
    }
    if (const auto w = s.part->find("weight"))
        addInfo(tr("Weight"), QString::fromStdString(core::formatQuantity(*w, core::Dimension::Mass)));
    if (const auto p = s.part->find("power.max"))
        addInfo(tr("Max power"), QString::fromStdString(core::formatQuantity(*p, core::Dimension::Power)));
    slotResults(rackIndex, slotIndex);
    otherChecks(s.id);
}

namespace {

QString q(double v, core::Dimension d, int digits = 3)
{
    return std::isfinite(v) ? QString::fromStdString(core::formatQuantity(v, d, digits)) : QString("–");
}

/// `v` beside its limit `other`: as many digits as tell them apart ("✓ 375 A of 375 A" and "✗ 375 A of
/// 375 A" stood for 374.9 and 375.3 A: studio trial).
QString qb(double v, double other, core::Dimension d)
{
    return std::isfinite(v) ? QString::fromStdString(core::formatQuantityBeside(v, other, d)) : QString("–");
}

} // namespace

bool InspectorPanel::warned(const std::string& rule, const std::string& subject) const
{
    for (const core::Violation& v : m_studio.violations())
        if (v.rule == rule && !v.waived && v.severity == core::Severity::Warning &&
            (v.subject == subject || (v.subject.size() > subject.size() && v.subject[subject.size()] == '/' &&
                                      v.subject.compare(0, subject.size(), subject) == 0)))
            return true;
    return false;
}

bool InspectorPanel::failed(const std::string& rule, const std::string& subject) const
{
    for (const core::Violation& v : m_studio.violations())
        if (v.rule == rule && !v.waived && v.severity == core::Severity::Error &&
            (v.subject == subject || (v.subject.size() > subject.size() && v.subject[subject.size()] == '/' &&
                                      v.subject.compare(0, subject.size(), subject) == 0)))
            return true;
    return false;
}

ValueLabel* InspectorPanel::addResult(const QString& label, const QString& value, const std::string& rule,
                                      const std::string& subject, int maxLines)
{
    auto* v = new ValueLabel(value);
    v->setMaxLines(maxLines);
    if (!rule.empty()) {
        // An error's finding fails the row; a warning's marks it ⚠, as rdt check rates it (a red ✗
        // stood beside dynamics.grid.band, a warning; trust trial, 2026-12-07).
        const bool bad = failed(rule, subject);
        const bool warnedOnly = !bad && warned(rule, subject);
        m_verdicts.push_back({rule, subject, bad, warnedOnly});
        v->setMark(bad ? ValueLabel::Mark::Fail : warnedOnly ? ValueLabel::Mark::Warn : ValueLabel::Mark::Pass);
        v->setLink(QString::fromStdString(rule));
        if (const core::RuleInfo* info = m_rules.find(rule))
            v->setNote(QString::fromStdString(info->title + "\n" + info->spec));
        // The rule link shows its problems in the Problems panel (or says it passes).
        connect(v, &ValueLabel::linkActivated, this, [this](const QString& id) { Q_EMIT ruleActivated(id); });
    }
    addRow(label, v);
    return v;
}

void InspectorPanel::otherChecks(const std::string& subject)
{
    // The violations on the subject or inside it, by rule in the order the checks reported them.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const core::Violation*>> byRule;
    for (const core::Violation& v : m_studio.violations()) {
        const bool inside =
            v.subject == subject || (v.subject.size() > subject.size() && v.subject[subject.size()] == '/' &&
                                     v.subject.compare(0, subject.size(), subject) == 0);
        if (!inside)
            continue;
        if (byRule[v.rule].empty())
            order.push_back(v.rule);
        byRule[v.rule].push_back(&v);
    }
    bool header = false;
    for (const std::string& rule : order) {
        const bool shown = std::any_of(m_verdicts.begin(), m_verdicts.end(),
                                       [&](const Verdict& x) { return x.rule == rule && x.subject == subject; });
        if (shown)
            continue;
        if (!header)
            addHeading(tr("Checks"));
        header = true;
        const std::vector<const core::Violation*>& vs = byRule[rule];
        // The first unwaived error or warning speaks for the rule; else the first one (info, waived).
        const core::Violation* first = vs.front();
        for (const core::Violation* v : vs)
            if (!v->waived && v->severity != core::Severity::Info) {
                first = v;
                break;
            }
        QString text = QString::fromStdString(first->message);
        if (first->subject != subject)
            text = QString::fromStdString(first->subject.substr(subject.size() + 1)) + ": " + text;
        if (first->waived)
            text = tr("waived (%1): %2").arg(QString::fromStdString(first->justification), text);
        else if (first->severity == core::Severity::Info)
            text = tr("note: %1").arg(text);
        if (vs.size() > 1)
            text += tr(" (and %1 more)").arg(vs.size() - 1);
        const core::RuleInfo* info = m_rules.find(rule);
        addResult(info ? QString::fromStdString(info->title) : tr("Check"), text, rule, subject, 12);
    }
}

void InspectorPanel::rackResults(int rackIndex)
{
    const auto power = m_studio.power();
    const auto thermal = m_studio.thermal();
    if (!power && !thermal)
        return;
    addHeading(tr("Results"));
    using D = core::Dimension;
    if (power && static_cast<std::size_t>(rackIndex) < power->racks.size()) {
        const power::RackPower& r = power->racks[static_cast<std::size_t>(rackIndex)];
        const std::string& id = m_studio.design().racks[static_cast<std::size_t>(rackIndex)].id;
        addResult(tr("Load (%1)").arg(QString::fromStdString(std::string(core::powerBasisName(r.basis)))),
                  q(r.itLoadW, D::Power) + tr(" (modelled %1)").arg(q(r.modelledLoadW, D::Power)), "");
        // A rack with no power shelf is not fed: its shelves' figures are not judged, and never a ✓
        // beside "0 W" (trust trial, 2026-12-07).
        if (!r.fed)
            addResult(tr("Power source"),
                      tr("no power shelf: the rack is not fed; its shelves, bus voltage and "
                         "hold-up are not judged"),
                      "orv3.power.source", id, 3);
        if (r.fed) {
            addResult(tr("Shelf capacity (N)"), q(r.capacityNW, D::Power), "orv3.shelf.capacity", id);
            addResult(tr("N+1 capacity"),
                      r.n1LimitW() < r.capacityN1W ? tr("%1 (the rack's rating; shelves %2)")
                                                         .arg(q(r.n1LimitW(), D::Power), q(r.capacityN1W, D::Power))
                                                   : q(r.capacityN1W, D::Power),
                      "orv3.shelf.n1", id);
        }
        if (std::isfinite(r.capacityFeedLossW))
            addResult(tr("One feed lost"), q(r.capacityFeedLossW, D::Power), "orv3.feed.loss", id);
        addResult(tr("Busbar current"),
                  tr("%1 of %2 (%3 %)")
                      .arg(qb(r.busbarCurrentA, r.busbarRatingA, D::Current),
                           qb(r.busbarRatingA, r.busbarCurrentA, D::Current))
                      .arg(r.busbarRatingA > 0 ? 100.0 * r.busbarCurrentA / r.busbarRatingA : NAN, 0, 'f', 0),
                  "orv3.busbar.current", id);
        // The clip carrying the most current, at the bar's minimum voltage as every current limit.
        const power::ClipCurrent* top = nullptr;
        for (const power::ClipCurrent& c : r.clips)
            top = !top || c.currentA > top->currentA ? &c : top;
        if (top) {
            const QString of = std::isnan(r.clipRatingA)
                                   ? tr("not rated per clip")
                                   : tr("of %1").arg(qb(r.clipRatingA, top->currentA, D::Current));
            addResult(tr("Largest clip"),
                      tr("%1 %2 (%3)")
                          .arg(qb(top->currentA, r.clipRatingA, D::Current), of,
                               QString::fromStdString(top->id.substr(top->id.rfind('/') + 1))),
                      std::isnan(r.clipRatingA) ? "" : "orv3.busbar.current", id);
        }
        if (r.fed) {
            addResult(tr("Lowest bus voltage"), q(r.lowestVoltageV, D::Voltage, 4), "orv3.busbar.voltage", id);
            addResult(tr("Battery hold-up"), q(r.bbuHoldupS, D::Time), "orv3.bbu.holdup", id);
        }
        if (r.capNormal.needed)
            addResult(tr("GPUs run at"),
                      r.capNormal.possible ? tr("%1 per GPU: the supply's normal-operation limit")
                                                 .arg(q(std::floor(r.capNormal.capW), D::Power))
                                           : tr("their minimum cap: the supply cannot feed them"),
                      {});
        if (std::isfinite(r.gpuCapToFitW))
            addResult(tr("Cap to fit"),
                      tr("%1 per GPU clears every failing rule").arg(q(std::floor(r.gpuCapToFitW), D::Power)));
    }
    if (thermal && static_cast<std::size_t>(rackIndex) < thermal->racks.size()) {
        const thermal::RackThermal& t = thermal->racks[static_cast<std::size_t>(rackIndex)];
        const std::string& id = m_studio.design().racks[static_cast<std::size_t>(rackIndex)].id;
        addResult(tr("Front / rear air"), q(t.frontK, D::Temperature) + " / " + q(t.rearK, D::Temperature));
        // The rule judges each chassis at its own inlet: the rack fails it when any of its chassis
        // does, so its mark sits beside the warmest chassis' inlet, not the front's mean (32.8 degC
        // marked failing, under the limit, while the 35.09 degC chassis was not shown).
        const thermal::ChassisThermal* warmest = nullptr;
        for (const thermal::ChassisThermal& c : t.chassis)
            if (std::isfinite(c.inletK) && (!warmest || c.inletK > warmest->inletK))
                warmest = &c;
        if (warmest) {
            const std::string& slotId = m_studio.design()
                                            .racks[static_cast<std::size_t>(rackIndex)]
                                            .slots[static_cast<std::size_t>(warmest->slot)]
                                            .id;
            addResult(tr("Warmest chassis inlet"),
                      QString::fromStdString(core::formatQuantity(warmest->inletK, D::Temperature, 4)) + " (" +
                          QString::fromStdString(slotId) + ")",
                      "thermal.inlet.chassis", id);
        }
        addResult(tr("Recirculation"), q(t.recirculationM3s, D::VolumeFlow));
    }
}

void InspectorPanel::slotResults(int rackIndex, int slotIndex)
{
    const auto power = m_studio.power();
    const auto thermal = m_studio.thermal();
    if (!power && !thermal)
        return;
    const core::Slot& slot =
        m_studio.design().racks[static_cast<std::size_t>(rackIndex)].slots[static_cast<std::size_t>(slotIndex)];
    using D = core::Dimension;
    bool header = false;
    auto title = [&] {
        if (!header)
            addHeading(tr("Results"));
        header = true;
    };
    if (power && static_cast<std::size_t>(rackIndex) < power->racks.size())
        for (const power::PartPower& p : power->racks[static_cast<std::size_t>(rackIndex)].parts)
            if (p.id == slot.id) {
                title();
                addResult(
                    tr("Power (budget)"),
                    q(p.budgetW, D::Power) +
                        tr(" (modelled %1, nameplate %2)").arg(q(p.modelledW, D::Power), q(p.nameplateW, D::Power)));
            }
    if (thermal && static_cast<std::size_t>(rackIndex) < thermal->racks.size())
        for (const thermal::ChassisThermal& c : thermal->racks[static_cast<std::size_t>(rackIndex)].chassis)
            if (c.slot == slotIndex) {
                title();
                addResult(
                    tr("Airflow"),
                    QString("%1 CFM (%2)").arg(c.airflowM3s * 2118.88, 0, 'f', 0).arg(q(c.airflowM3s, D::VolumeFlow)));
                // Four figures on the judged inlet: 34.97 and 35.02 degC both read "35 degC" beside a 35
                // degC allowable, one ✓ and one ✗ (studio trial).
                addResult(tr("Inlet / exhaust"), q(c.inletK, D::Temperature, 4) + " / " + q(c.exhaustK, D::Temperature),
                          "thermal.inlet.chassis", slot.id);
                addResult(tr("Fans"), tr("%1 % (%2)").arg(c.fanSpeed * 100, 0, 'f', 0).arg(q(c.fanPowerW, D::Power)));
                // A GPU under a cold plate: its loop's junction (+inf on a starved plate), judged by
                // liquid.gpu.junction; an air-cooled one: the air's, judged by thermal.gpu.junction.
                const bool cold = !std::isnan(c.liquidJunctionK);
                const double tj = c.judgedJunctionK();
                addResult(cold ? tr("GPU junction (cold plate)") : tr("GPU junction"),
                          cold && std::isinf(tj) ? tr("unbounded: its cold plates are starved")
                          : std::isnan(c.maxOperatingK)
                              ? q(tj, D::Temperature) + tr(" (no limit in the catalog: not checked)")
                              : tr("%1, limit %2, margin %3")
                                    .arg(qb(tj, c.maxOperatingK, D::Temperature),
                                         qb(c.maxOperatingK, tj, D::Temperature),
                                         q(c.maxOperatingK - tj, D::TemperatureDelta)),
                          // Not checked: no mark (a green ✓ stood beside "not checked": studio trial).
                          std::isnan(c.maxOperatingK) && !(cold && std::isinf(tj))
                              ? std::string()
                              : std::string(cold ? "liquid.gpu.junction" : "thermal.gpu.junction"),
                          slot.id);
            }
    if (thermal && static_cast<std::size_t>(rackIndex) < thermal->racks.size())
        for (const thermal::RackThermal::SwitchInlet& sw : thermal->racks[static_cast<std::size_t>(rackIndex)].switches)
            if (sw.slot == slotIndex) {
                title();
                addResult(tr("Inlet"), q(sw.inletK, D::Temperature), "thermal.inlet.switch", slot.id);
            }
    if (power && thermal) {
        // Every chassis' clock, computed once per check (a row of racks has hundreds of parts to click).
        if (m_clocksOf != std::make_pair<const void*, const void*>(power.get(), thermal.get())) {
            m_clocks = analysis::chassisClocks(m_studio.design(), *power, *thermal);
            m_clocksOf = {power.get(), thermal.get()};
        }
        const auto rk = static_cast<std::size_t>(rackIndex), sl = static_cast<std::size_t>(slotIndex);
        const analysis::ChassisClock* clkp =
            rk < m_clocks.size() && sl < m_clocks[rk].size() ? &m_clocks[rk][sl] : nullptr;
        if (clkp && std::isfinite(clkp->ratio)) {
            const analysis::ChassisClock& clk = *clkp;
            title();
            // A throttled clock never prints as 100.0 % (99.974 % did, beside "throttled").
            const int places = clk.ratio < 1 && clk.ratio >= 0.9995 ? 3 : 1;
            addResult(tr("GPU clock"), tr("%1 % at %2, limited by %3")
                                           .arg(clk.ratio * 100, 0, 'f', places)
                                           .arg(q(clk.powerW, D::Power), QString::fromStdString(clk.limitedBy)));
        }
    }
    const auto sig = m_studio.signal();
    if (sig)
        for (std::size_t i = 0; i < m_studio.design().links.size() && i < sig->links.size(); ++i) {
            const core::LinkClass& l = m_studio.design().links[i];
            if (l.from.partSlug != slot.part->slug && l.to.partSlug != slot.part->slug)
                continue;
            const signal::LinkVerdict& v = sig->links[i];
            title();
            const QString margin = std::isfinite(v.comDb) ? tr("COM %1 dB").arg(v.comDb, 0, 'f', 1)
                                                          : tr("IL %1 dB at Nyquist").arg(v.ilNyquistDb, 0, 'f', 1);
            // The row links to the rule whose finding sets its mark: the class's worst unwaived one
            // (a ⚠ for link.rate.mismatch linked to signal.link.close; trust trial, 2026-12-07).
            std::string rule = "signal.link.close";
            int worst = -1;
            for (const core::Violation& x : m_studio.violations())
                if (!x.waived && x.subject == "links/" + l.id && x.severity != core::Severity::Info) {
                    const int sev = x.severity == core::Severity::Error ? 1 : 0;
                    if (sev > worst) {
                        worst = sev;
                        rule = x.rule;
                    }
                }
            ValueLabel* label = addResult(tr("Link %1").arg(QString::fromStdString(l.id)),
                                          margin + ", " + QString::fromStdString(v.verdict), rule, "links/" + l.id);
            // The row's mark is the class's standing, every link rule's findings applied.
            Verdict& mark = m_verdicts.back();
            mark.failed = v.standing() == signal::LinkVerdict::Standing::Fail;
            mark.warned = v.standing() == signal::LinkVerdict::Standing::Warn;
            label->setMark(mark.failed   ? ValueLabel::Mark::Fail
                           : mark.warned ? ValueLabel::Mark::Warn
                                         : ValueLabel::Mark::Pass);
        }
}

} // namespace rdt::gui

namespace rdt::gui {

int InspectorPanel::rows() const
{
    return m_rows;
}

} // namespace rdt::gui
