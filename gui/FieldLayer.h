#pragma once
/// \file FieldLayer.h
/// The room field in the 3D view (`--thermal field` / `thermal: {model: field}`): air temperature
/// on a movable slice plane (horizontal, or vertical along a row or across the rows), streamlines
/// from every rack's exhaust coloured by temperature, and the iso-surface of the recommended inlet
/// limit (27 °C for ASHRAE A1–A4, 22 °C for H1), with a scalar bar. Cells inside racks and panels are left out of the
/// slice. The air is drawn in a sequential map (viridis: dark blue-violet → green → yellow) with its
/// own titled bar on the left, a different kind of scale from the parts' pass / near / fail bands on
/// the right, so the two never read as one map with two ranges. When no air crosses the iso value
/// the view says so ("all air is above 27 degC") instead of drawing nothing.

#include <vtkSmartPointer.h>

#include <array>
#include <memory>
#include <string>

class vtkActor;
class vtkRenderer;
class vtkScalarBarActor;
class vtkLookupTable;
class vtkPolyData;
class vtkTextActor;

namespace rdt::thermal {
struct ThermalResult;
}

namespace rdt::gui {

class FieldLayer {
public:
    explicit FieldLayer(vtkRenderer* renderer);
    ~FieldLayer();
    /// Show the field of `result` (none: hide everything), its iso-surface at `isoC` (°C: the
    /// design's recommended inlet limit, 27 °C for ASHRAE A1–A4, 22 °C for H1).
    void setResult(std::shared_ptr<const thermal::ThermalResult> result, double isoC = 27.0);
    bool hasField() const { return m_result != nullptr; }
    /// Slice normal to `axis` (0 x: across the rows, 1 y: along a row, 2 z: horizontal) at
    /// `fraction` (0…1) of the room's extent.
    void setSlice(int axis, double fraction);
    void setVisible(bool slice, bool streamlines, bool iso);
    int sliceAxis() const { return m_axis; }
    double sliceFraction() const { return m_fraction; }
    /// Air temperature range shown (°C), and how many streamlines and slice cells are drawn (tests).
    std::array<double, 2> range() const { return m_range; }
    long streamlinePoints() const;
    long sliceCells() const;
    long isoSurfacePoints() const;
    double isoValueC() const { return m_iso; }
    /// What the iso-surface shows, drawn in the view while it is on: where the air crosses the value,
    /// or why there is nothing ("Iso-surface 27 degC: none, all air is above 27 degC (30.0 to 46.1
    /// degC)"); empty without a field.
    const std::string& isoNote() const { return m_isoNote; }
    bool isoNoteShown() const;
    /// The air's colour map and its scalar bar (tests: a sequential map, titled, apart from the parts').
    vtkLookupTable* lookupTable() const;
    vtkScalarBarActor* scalarBar() const;
    /// The shown room's extent in layout coordinates, {x0, x1, y0, y1, z0, z1} (m); false without a field.
    bool roomBounds(std::array<double, 6>& bounds) const;

private:
    void rebuildSlice();
    void rebuildVolume();

    vtkRenderer* m_renderer;
    std::shared_ptr<const thermal::ThermalResult> m_result;
    int m_axis = 2;
    double m_fraction = 0.35;
    double m_iso = 27.0;
    std::array<double, 2> m_range{20, 40};
    vtkSmartPointer<vtkLookupTable> m_lut;
    vtkSmartPointer<vtkPolyData> m_slice, m_lines, m_surface;
    vtkSmartPointer<vtkActor> m_sliceActor, m_linesActor, m_isoActor;
    vtkSmartPointer<vtkScalarBarActor> m_bar;
    vtkSmartPointer<vtkTextActor> m_isoText;
    std::string m_isoNote;
    bool m_showSlice = true, m_showLines = true, m_showIso = false;
};

} // namespace rdt::gui
