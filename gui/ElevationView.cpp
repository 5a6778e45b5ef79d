#include "gui/ElevationView.h"

#include <memory>
#include <cmath>

#include <QDragEnterEvent>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QMimeData>
#include <QFontMetricsF>

#include "editor/Colouring.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {
constexpr double kOuMm = 48.0;
constexpr double kBayMm = 537.0;
constexpr double kFaceGap = 140.0; // mm between the front and rear drawings
constexpr double kRulerMm = 70.0;
const char* kMime = "application/x-rdt-part";

QColor toQColor(const editor::Rgb& c, int alpha = 255)
{
    return QColor::fromRgbF(c.r, c.g, c.b, alpha / 255.0);
}
} // namespace

ElevationView::ElevationView(Studio& studio, QWidget* parent) : QGraphicsView(parent), m_studio(studio)
{
    setScene(&m_scene);
    setAcceptDrops(true);
    setRenderHint(QPainter::Antialiasing);
    setRenderHint(QPainter::TextAntialiasing);
    setBackgroundBrush(QColor(246, 247, 249));
    setAlignment(Qt::AlignCenter);
    connect(&m_studio, &Studio::designChanged, this, &ElevationView::rebuild);
    connect(&m_studio, &Studio::documentReplaced, this, &ElevationView::rebuild);
    connect(&m_studio, &Studio::selectionChanged, this, [this] {
        rebuild(); // the selected slot may be in another rack
    });
    connect(&m_studio, &Studio::checksFinished, this, &ElevationView::rebuild);
    connect(&m_studio, &Studio::fieldsChanged, this, &ElevationView::rebuild);
    connect(&m_studio, &Studio::colouringChanged, this, &ElevationView::rebuild);
    rebuild();
}

double ElevationView::yOfOuTop(int ou) const
{
    return (m_usableOu - ou) * kOuMm * kScale;
}

int ElevationView::ouAtSceneY(double y) const
{
    const int ou = m_usableOu - static_cast<int>(std::floor(y / (kOuMm * kScale)));
    return std::clamp(ou, 1, m_usableOu);
}

void ElevationView::rebuild()
{
    m_scene.clear();
    m_ghost = nullptr;
    m_slotItems.clear();
    m_marks.clear();
    m_labels.clear();
    m_rackFailures.clear();
    const core::Design& d = m_studio.design();
    if (d.racks.empty())
        return;
    const core::Rack& rack = d.racks[static_cast<std::size_t>(m_studio.currentRack())];
    m_usableOu = static_cast<int>(rack.rackType->value("usable_ou", 44));
    const double ou = kOuMm * kScale, bay = kBayMm * kScale, h = m_usableOu * ou;
    const double rearX = bay + kFaceGap * kScale;

    QFont small = font();
    small.setPointSizeF(7.5);
    QFont label = font();
    label.setPointSizeF(8.5);
    QFont title = font();
    title.setPointSizeF(10);
    title.setBold(true);

    auto* head = m_scene.addSimpleText(QString::fromStdString(rack.id), title);
    head->setPos(0, -52);
    auto* sub = m_scene.addSimpleText(
        QString::fromStdString(rack.rackType->slug + " · " + m_studio.document().describeBody(rack.bodyPath)), small);
    sub->setBrush(QColor(90, 90, 90));
    sub->setPos(0, -32);
    for (const auto& [x, name] : {std::pair{0.0, "FRONT"}, std::pair{rearX, "REAR"}}) {
        auto* t = m_scene.addSimpleText(name, small);
        t->setBrush(QColor(110, 110, 110));
        t->setPos(x + bay / 2 - t->boundingRect().width() / 2, -16);
        m_scene.addRect(x - 4, -4, bay + 8, h + 8, QPen(QColor(60, 64, 70), 3), QBrush(QColor(226, 229, 234)));
        for (int i = 1; i < m_usableOu; ++i)
            m_scene.addLine(x, i * ou, x + bay, i * ou, QPen(QColor(210, 213, 218), 0.6));
    }
    // OU ruler between the faces, numbered from the bottom as the frame is.
    for (int i = 1; i <= m_usableOu; ++i) {
        auto* t = m_scene.addSimpleText(QString::number(i), small);
        t->setBrush(QColor(120, 120, 120));
        t->setPos(bay + (kFaceGap * kScale - t->boundingRect().width()) / 2,
                  yOfOuTop(i) + (ou - t->boundingRect().height()) / 2);
    }
    auto* unit = m_scene.addSimpleText("OU (48 mm)", small);
    unit->setBrush(QColor(120, 120, 120));
    unit->setPos(bay + (kFaceGap * kScale - unit->boundingRect().width()) / 2, h + 8);
    // The 48 V busbar runs up the rear centre.
    m_scene.addRect(rearX + bay / 2 - 5, 0, 10, h, QPen(Qt::NoPen), QBrush(QColor(196, 120, 60, 170)));
    Q_UNUSED(kRulerMm);

    // The 3D view's colouring when it is a solver field: each part filled by its value, printed too.
    editor::FieldColouring byField(m_studio.colouring().toStdString());
    const editor::ColourContext ctx = m_studio.colourContext(); // the 3D view's scale, limits or data range
    byField.prepare(ctx);
    const core::PartField* field = byField.field();
    // The built-in colourings other than part kind ("Problems") fill the parts as the 3D view does
    // (the elevation stayed in part-kind colours under "Problems"; trust trial, 2026-12-07).
    std::unique_ptr<editor::Colouring> builtin;
    if (!field && m_studio.colouring() != "Part kind")
        for (auto& c : editor::builtinColourings())
            if (c->name() == m_studio.colouring().toStdString())
                builtin = std::move(c);
    if (builtin)
        builtin->prepare(ctx);
    const int rackIndex = m_studio.currentRack();
    // Marks from the violation list (the Problems panel's and rdt check's): a part's when a violation
    // names it or something inside it, the rack's own in a badge under its title.
    m_marks.assign(rack.slots.size(), 0);
    for (const core::Violation& v : m_studio.violations()) {
        if (v.waived || v.severity == core::Severity::Info)
            continue;
        const int level = v.severity == core::Severity::Error ? 2 : 1;
        if (v.subject == rack.id) {
            if (!m_rackFailures.contains(QString::fromStdString(v.rule)))
                m_rackFailures.push_back(QString::fromStdString(v.rule));
            continue;
        }
        for (std::size_t i = 0; i < rack.slots.size(); ++i) {
            const std::string& id = rack.slots[i].id;
            if (v.subject == id || (v.subject.size() > id.size() && v.subject[id.size()] == '/' &&
                                    v.subject.compare(0, id.size(), id) == 0))
                m_marks[i] = std::max(m_marks[i], level);
        }
    }
    if (!m_rackFailures.isEmpty()) {
        auto* badge = m_scene.addSimpleText(
            tr("⚠ rack fails %1").arg(m_rackFailures.join(", ")), small);
        badge->setBrush(QColor(190, 35, 35));
        badge->setPos(head->boundingRect().width() + 10, -50);
        badge->setToolTip(m_rackFailures.join("\n"));
    }
    for (std::size_t i = 0; i < rack.slots.size(); ++i) {
        const core::Slot& s = rack.slots[i];
        const double top = yOfOuTop(s.top()), height = s.part->ouHeight * ou;
        const double value = field ? field->at(rackIndex, static_cast<int>(i)) : NAN;
        const QColor fill = toQColor(field     ? byField.partColour(ctx, rackIndex, static_cast<int>(i))
                                     : builtin ? builtin->partColour(ctx, rackIndex, static_cast<int>(i))
                                               : editor::kindColour(s.part->kind));
        const bool selected = m_studio.selection() == QString::fromStdString(s.id);
        const int problem = m_marks[i];
        QPen pen(selected       ? QColor(255, 196, 0)
                 : problem == 2 ? QColor(210, 40, 40)
                                : QColor(40, 44, 52),
                 selected  ? 3.0
                 : problem ? 2.2
                           : 1.0);
        for (const double x : {0.0, rearX}) {
            const bool front = x == 0.0;
            auto* r =
                m_scene.addRect(x + 1, top + 1, bay - 2, height - 2, pen, QBrush(front ? fill : fill.lighter(135)));
            r->setData(0, static_cast<int>(i));
            r->setToolTip(QString::fromStdString(s.id + "\n" + s.part->manufacturer + " " + s.part->model));
            if (front)
                m_slotItems.push_back(r);
            // Name, value, slug: what matters first, so that eliding to the face's width drops the slug.
            QString text = QString::fromStdString(s.name);
            if (std::isfinite(value))
                text += QString("  ·  %1 %2")
                            .arg(value, 0, 'g', 4)
                            .arg(QString::fromStdString(field->unit == "degC" ? "°C" : field->unit));
            text += QString::fromStdString("  ·  " + s.part->slug);
            if (problem)
                text = (problem == 2 ? "⚠ " : "! ") + text;
            if (front)
                r->setToolTip(text + "\n" + r->toolTip());
            const QString full = front ? text : QString::fromStdString(s.name);
            const QFont& font = height >= 14 ? label : small;
            auto* t = m_scene.addSimpleText(full, font);
            // White on dark fills, dark on light ones (field colours run through a light grey).
            const QColor behind = front ? fill : fill.lighter(135);
            t->setBrush(behind.lightnessF() < 0.55 ? QColor(Qt::white) : QColor(30, 32, 38));
            if (t->boundingRect().height() > height)
                t->setScale(height / t->boundingRect().height());
            // Never past the face (into the OU ruler or the other face): elided to the room it has.
            const double room = (bay - 12) / t->scale();
            if (t->boundingRect().width() > room)
                t->setText(QFontMetricsF(font).elidedText(full, Qt::ElideRight, room));
            m_labels.push_back(t);
            // Parts that overlap (a layout error) keep readable labels: the lower part's label sits at
            // its bottom edge, the upper part's at its top edge, and labels draw above every box.
            const double th = t->boundingRect().height() * t->scale();
            double ty = top + (height - th) / 2;
            for (std::size_t j = 0; j < rack.slots.size(); ++j) {
                const core::Slot& o = rack.slots[j];
                if (j == i || o.top() < s.ou || o.ou > s.top())
                    continue;
                ty = (o.ou < s.ou || (o.ou == s.ou && j < i)) ? top + 2 : top + height - th - 2;
            }
            t->setPos(x + 6, ty);
            t->setZValue(10);
            t->setAcceptedMouseButtons(Qt::NoButton);
        }
    }
    m_scene.setSceneRect(m_scene.itemsBoundingRect().adjusted(-12, -12, 12, 12));
    fitInView(m_scene.sceneRect(), Qt::KeepAspectRatio);
}

QColor ElevationView::slotFill(int slot) const
{
    if (slot < 0 || slot >= m_slotItems.size() || !m_slotItems[slot])
        return {};
    return m_slotItems[slot]->brush().color();
}

QRectF ElevationView::rulerRect() const
{
    const double bay = kBayMm * kScale;
    return {bay, 0.0, kFaceGap * kScale, m_usableOu * kOuMm * kScale};
}

std::vector<std::pair<QString, QRectF>> ElevationView::labels() const
{
    std::vector<std::pair<QString, QRectF>> out;
    for (const QGraphicsSimpleTextItem* t : m_labels)
        out.emplace_back(t->text(), t->sceneBoundingRect());
    return out;
}

int ElevationView::slotMark(int slot) const
{
    return slot >= 0 && static_cast<std::size_t>(slot) < m_marks.size() ? m_marks[static_cast<std::size_t>(slot)] : 0;
}

void ElevationView::resizeEvent(QResizeEvent* e)
{
    QGraphicsView::resizeEvent(e);
    fitInView(m_scene.sceneRect(), Qt::KeepAspectRatio);
}

int ElevationView::slotAt(const QPoint& viewPos) const
{
    for (QGraphicsItem* item : items(viewPos))
        if (item->data(0).isValid())
            return item->data(0).toInt();
    return -1;
}

bool ElevationView::dropPart(const QString& slug, int ou)
{
    const bool ok = m_studio.tryEdit(m_studio.document().placeSlot(m_studio.currentRackBody(), slug.toStdString(), ou));
    if (ok)
        Q_EMIT statusMessage(tr("Placed %1 at OU %2").arg(slug).arg(ou));
    return ok;
}

bool ElevationView::moveSlot(int slot, int ou)
{
    return m_studio.tryEdit(
        m_studio.document().moveSlot(m_studio.currentRackBody(), static_cast<std::size_t>(slot), ou));
}

void ElevationView::showGhost(const QString& slug, int ou)
{
    const core::Part* part = m_studio.design().catalog->find(slug.toStdString());
    if (!part || part->ouHeight == 0)
        return;
    const editor::Proposal p = m_studio.document().placeSlot(m_studio.currentRackBody(), slug.toStdString(), ou);
    drawGhost(ou, part->ouHeight, static_cast<bool>(p));
    Q_EMIT statusMessage(p ? tr("Drop to place %1 at OU %2").arg(slug).arg(ou)
                           : tr("Cannot place here: %1").arg(QString::fromStdString(p.refusal)));
}

void ElevationView::drawGhost(int ou, int height, bool ok)
{
    const QRectF r(0, yOfOuTop(ou + height - 1), kBayMm * kScale, height * kOuMm * kScale);
    if (!m_ghost)
        m_ghost = m_scene.addRect(r);
    m_ghost->setRect(r);
    const QColor c = ok ? QColor(40, 170, 80) : QColor(220, 50, 40);
    m_ghost->setPen(QPen(c, 2, Qt::DashLine));
    m_ghost->setBrush(QColor(c.red(), c.green(), c.blue(), 60));
    m_ghost->setZValue(10);
}

void ElevationView::clearGhost()
{
    delete m_ghost;
    m_ghost = nullptr;
}

void ElevationView::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasFormat(kMime))
        e->acceptProposedAction();
}

void ElevationView::dragMoveEvent(QDragMoveEvent* e)
{
    if (!e->mimeData()->hasFormat(kMime))
        return;
    const QString slug = QString::fromUtf8(e->mimeData()->data(kMime));
    const core::Part* part = m_studio.design().catalog->find(slug.toStdString());
    const int height = part ? part->ouHeight : 1;
    // The pointer holds the middle of the part.
    const int ou = ouAtSceneY(mapToScene(e->position().toPoint()).y()) - (height - 1) / 2;
    showGhost(slug, std::max(1, ou));
    e->acceptProposedAction();
}

void ElevationView::dragLeaveEvent(QDragLeaveEvent* e)
{
    clearGhost();
    QGraphicsView::dragLeaveEvent(e);
}

void ElevationView::dropEvent(QDropEvent* e)
{
    clearGhost();
    const QString slug = QString::fromUtf8(e->mimeData()->data(kMime));
    const core::Part* part = m_studio.design().catalog->find(slug.toStdString());
    const int height = part ? part->ouHeight : 1;
    const int ou = std::max(1, ouAtSceneY(mapToScene(e->position().toPoint()).y()) - (height - 1) / 2);
    if (dropPart(slug, ou))
        e->acceptProposedAction();
}

void ElevationView::keyPressEvent(QKeyEvent* e)
{
    const editor::SubjectRef ref = m_studio.subjects().resolve(m_studio.selection().toStdString());
    if ((e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace) && ref.slot >= 0) {
        m_studio.tryEdit(
            m_studio.document().removeSlot(m_studio.currentRackBody(), static_cast<std::size_t>(ref.slot)));
        return;
    }
    QGraphicsView::keyPressEvent(e);
}

void ElevationView::mousePressEvent(QMouseEvent* e)
{
    const int slot = slotAt(e->position().toPoint());
    if (e->button() == Qt::LeftButton && slot >= 0) {
        const core::Rack& rack = m_studio.design().racks[static_cast<std::size_t>(m_studio.currentRack())];
        m_studio.select(QString::fromStdString(rack.slots[static_cast<std::size_t>(slot)].id));
        m_dragSlot = slot;
        m_dragGrabDy =
            mapToScene(e->position().toPoint()).y() - yOfOuTop(rack.slots[static_cast<std::size_t>(slot)].top());
        setFocus();
        return;
    }
    if (e->button() == Qt::LeftButton)
        m_studio.select(
            QString::fromStdString(m_studio.design().racks[static_cast<std::size_t>(m_studio.currentRack())].id));
    QGraphicsView::mousePressEvent(e);
}

void ElevationView::mouseMoveEvent(QMouseEvent* e)
{
    if (m_dragSlot < 0 || !(e->buttons() & Qt::LeftButton) || m_dragSlot >= m_slotItems.size())
        return QGraphicsView::mouseMoveEvent(e);
    const core::Slot& s = m_studio.design()
                              .racks[static_cast<std::size_t>(m_studio.currentRack())]
                              .slots[static_cast<std::size_t>(m_dragSlot)];
    const double topY = mapToScene(e->position().toPoint()).y() - m_dragGrabDy;
    const int newTop = ouAtSceneY(topY + 1);
    const int newOu = std::max(1, newTop - s.part->ouHeight + 1);
    const editor::Proposal p =
        m_studio.document().moveSlot(m_studio.currentRackBody(), static_cast<std::size_t>(m_dragSlot), newOu);
    drawGhost(newOu, s.part->ouHeight, static_cast<bool>(p));
    Q_EMIT statusMessage(p ? tr("Release to move %1 to OU %2").arg(QString::fromStdString(s.name)).arg(newOu)
                           : tr("Cannot move here: %1").arg(QString::fromStdString(p.refusal)));
}

void ElevationView::mouseReleaseEvent(QMouseEvent* e)
{
    if (m_dragSlot >= 0 && m_ghost) {
        const int slot = m_dragSlot;
        const core::Slot& s = m_studio.design()
                                  .racks[static_cast<std::size_t>(m_studio.currentRack())]
                                  .slots[static_cast<std::size_t>(slot)];
        const int newOu = ouAtSceneY(m_ghost->rect().bottom() - 1);
        clearGhost();
        m_dragSlot = -1;
        if (newOu != s.ou)
            moveSlot(slot, newOu);
        return;
    }
    m_dragSlot = -1;
    clearGhost();
    QGraphicsView::mouseReleaseEvent(e);
}

} // namespace rdt::gui
