#pragma once
/// \file SceneView.h
/// The 3D view of the hall: every rack frame as an outline and every part as a box, all in
/// a few merged actors (not one per part), coloured by the chosen colouring. Click to
/// select; camera presets front, top and iso; the selection is outlined and can be framed.

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

#include <vtkSmartPointer.h>

#include "core/LayoutGeometry.h"
#include "editor/Colouring.h"

class QComboBox;
class QCheckBox;
class QSlider;
class QToolButton;
class QLabel;
class vtkActor;
class vtkPolyData;
class vtkScalarBarActor;
class vtkLookupTable;

namespace rdt::gui {

class Studio;
class VtkWidget;
class FieldLayer;
class HallLayer;

class SceneView : public QWidget {
    Q_OBJECT
public:
    explicit SceneView(Studio& studio, QWidget* parent = nullptr);
    ~SceneView() override;

    enum class Preset { Front, Top, Iso };
    void setCamera(Preset p);
    /// Point the camera at the subject (rack or part) at a distance that shows it whole.
    void frame(const QString& id);
    /// Point the camera, along its current direction, at the room whose field is shown (the first
    /// solved: a pod) — with `onlyInLargerLayout`, only when the layout is more than twice the
    /// room's floor area (a hall of pods); false when it did not.
    bool frameField(bool onlyInLargerLayout = false);
    /// Actors in the renderer (tests: merged geometry keeps this small whatever the design size).
    int actorCount() const;
    /// Boxes drawn for parts.
    std::size_t partBoxes() const { return m_geometry.parts.size(); }
    /// Register another colouring (solvers add theirs).
    void addColouring(std::unique_ptr<editor::Colouring> c);
    VtkWidget* vtk() const { return m_vtk; }
    /// The colouring shown, and every colouring offered.
    QString colouringName() const;
    QStringList colouringNames() const;
    /// Where the centre of a part's front face appears in the 3D view, in widget pixels (tests).
    QPoint partOnScreen(int rack, int slot) const;
    /// Where a point (layout coordinates, m) appears in the 3D view, in widget pixels.
    QPoint worldOnScreen(const std::array<double, 3>& p) const;
    /// Fix (or free) the colour scale at the current range, as the "Fix scale" button does.
    void fixScale(bool on);
    /// Whether the scalar bar is shown (continuous colourings), and its range (tests).
    bool scalarBarShown() const;
    /// The room field's layer (slice, streamlines, iso-surface); shown when the thermal model is
    /// the field. `setFieldView` sets what the Air toolbar sets: slice normal axis (0 x, 1 y,
    /// 2 z) and position (0…1 of the room).
    FieldLayer* field() const { return m_field.get(); }
    void setFieldView(bool slice, bool streamlines, bool iso, int axis, double fraction);
    /// Show the current colouring on its data's range (true) or its limits' scale (false), as the
    /// "Data range" button does.
    void setDataRange(bool on);
    /// The hall-scale layer: racks as solid boxes when small on screen, rack and row labels.
    HallLayer* hall() const { return m_hall.get(); }
    /// Render now and say whether racks are drawn as boxes (tests).
    bool racksAsBoxes();
    /// What hovering over a rack or part shows: its id and the colouring's value (tests).
    QString describe(int rack, int slot) const;
    /// The scalar bar's title lines and marks (tests: nothing cut, limits named).
    QString scalarBarTitle() const;
    std::vector<std::pair<double, std::string>> scaleMarks() const;
    /// The legend line under the toolbar (tests: every entry whole).
    QLabel* legendLabel() const { return m_legend; }
    /// Where the scalar bar's centre and top sit in the 3D view, in widget pixels (tests).
    QPoint scalarBarTitleAnchor() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static constexpr int kFacesPerBox = 6; ///< quads of a part's box (cell id / 6 = the box)
    void rebuildGeometry();
    void recolour();
    void updateHighlight();
    void pick(int x, int y);
    void updateLegend();
    void updateScalarBar(const editor::Colouring& c);
    void syncFieldColourings();

    Studio& m_studio;
    VtkWidget* m_vtk;
    QComboBox* m_colouringBox;
    QToolButton* m_fixScale = nullptr;
    QToolButton* m_dataRange = nullptr;
    std::unique_ptr<HallLayer> m_hall;
    QPoint m_hoverAt;
    class QTimer* m_hoverTimer = nullptr;
    unsigned long m_detailObserver = 0;
    void hover();
    void chooseDetail();
    QLabel* m_legend;
    core::LayoutGeometry m_geometry;
    std::vector<std::unique_ptr<editor::Colouring>> m_colourings;
    vtkSmartPointer<vtkPolyData> m_parts;
    vtkSmartPointer<vtkPolyData> m_frames;
    vtkSmartPointer<vtkPolyData> m_highlight;
    vtkSmartPointer<vtkActor> m_partsActor;
    vtkSmartPointer<vtkActor> m_framesActor;
    vtkSmartPointer<vtkActor> m_highlightActor;
    vtkSmartPointer<vtkActor> m_floorActor;
    vtkSmartPointer<vtkScalarBarActor> m_scalarBar;
    vtkSmartPointer<vtkLookupTable> m_lut;
    bool m_firstLayout = true;
    std::unique_ptr<FieldLayer> m_field;
    QWidget* m_fieldBar = nullptr;
    QCheckBox *m_sliceBox = nullptr, *m_linesBox = nullptr, *m_isoBox = nullptr;
    QSlider* m_sliceSlider = nullptr;
    QComboBox* m_sliceAxis = nullptr;
    void syncField();
};

} // namespace rdt::gui
