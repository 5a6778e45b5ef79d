#pragma once
/// \file ElevationView.h
/// The rack elevation: front and rear faces of the current rack drawn to scale in 48 mm
/// OpenU, with an OU ruler. Drop a catalog part on a face to place it, drag a part to move
/// it, Delete to remove it. Invalid drops are refused with the reason in the status bar and
/// drawn red while dragging.

#include <QGraphicsView>
#include <QStringList>

#include <utility>
#include <vector>

class QGraphicsSimpleTextItem;

namespace rdt::gui {

class Studio;

class ElevationView : public QGraphicsView {
    Q_OBJECT
public:
    explicit ElevationView(Studio& studio, QWidget* parent = nullptr);

    /// Place `slug` with its lowest OU at `ou` in the current rack: exactly what a drop does.
    bool dropPart(const QString& slug, int ou);
    /// Move slot `slot` of the current rack to `ou`: what a drag does.
    bool moveSlot(int slot, int ou);
    /// The OU under a scene y coordinate (clamped to the rack).
    int ouAtSceneY(double y) const;

    /// The mark drawn on slot `slot` of the shown rack: 2 an unwaived error names the part (or
    /// something inside it), 1 a warning, 0 none; read from the violation list the Problems panel and
    /// `rdt check` show.
    int slotMark(int slot) const;
    /// Rules whose unwaived errors or warnings name the shown rack itself (the badge under its title).
    const QStringList& rackFailures() const { return m_rackFailures; }

    /// The fill of slot `slot`'s front face: the colouring's colour (tests: the same scale as the 3D view).
    QColor slotFill(int slot) const;

    /// The OU ruler between the faces (scene coordinates).
    QRectF rulerRect() const;
    /// Every part label as drawn (text after eliding, scene rectangle), front face then rear by slot.
    std::vector<std::pair<QString, QRectF>> labels() const;

    /// Scene units per millimetre.
    static constexpr double kScale = 0.4;

Q_SIGNALS:
    void statusMessage(const QString& text);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dragMoveEvent(QDragMoveEvent* e) override;
    void dragLeaveEvent(QDragLeaveEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void rebuild();
    void highlight();
    void showGhost(const QString& slug, int ou);
    /// The dashed outline of a drop or move: green where it would be accepted, red where refused.
    void drawGhost(int ou, int height, bool ok);
    void clearGhost();
    int slotAt(const QPoint& viewPos) const;
    double yOfOuTop(int ou) const;

    Studio& m_studio;
    QGraphicsScene m_scene;
    int m_usableOu = 44;
    QGraphicsRectItem* m_ghost = nullptr;
    QList<QGraphicsRectItem*> m_slotItems; ///< front-face rectangles by slot index
    std::vector<int> m_marks;
    std::vector<QGraphicsSimpleTextItem*> m_labels; ///< part labels, owned by the scene              ///< slotMark() by slot index
    QStringList m_rackFailures;
    int m_dragSlot = -1;
    double m_dragGrabDy = 0.0;
};

} // namespace rdt::gui
