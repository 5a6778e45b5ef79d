#pragma once
/// \file HallLayer.h
/// The 3D view at hall scale: every rack as one solid box coloured by its worst part (level of
/// detail: shown instead of the parts when a rack is too small on screen for its parts to be
/// seen), and rack and row labels placed without overlap (VTK's label placement: the labels
/// that fit are drawn, the rest wait for a closer view).

#include <array>
#include <string>
#include <vector>

#include <vtkSmartPointer.h>

#include "core/LayoutGeometry.h"
#include "editor/Colouring.h"

class vtkActor;
class vtkActor2D;
class vtkPolyData;
class vtkRenderer;

namespace rdt::core {
struct Design;
}

namespace rdt::gui {

class HallLayer {
public:
    explicit HallLayer(vtkRenderer* renderer);
    ~HallLayer();
    /// Racks below this height on screen (pixels) are drawn as one box: at 60 px an OpenU is about
    /// 1.3 px, below what a part's colour can be told by.
    static constexpr double kPartsMinRackPx = 60.0;

    /// Build the rack boxes and labels for a layout.
    void setLayout(const core::Design& design, const core::LayoutGeometry& geometry);
    /// Each rack's colour (index = rack).
    void setRackColours(const std::vector<editor::Rgb>& colours);
    /// Choose the level of detail for the renderer's camera: true when racks are drawn as boxes.
    /// `viewportPx`: the view's height in device pixels.
    bool chooseDetail(int viewportPx);
    bool racksAsBoxes() const { return m_boxes; }
    /// Keep labels out of the view's right `px` device pixels (the scalar bar and its marks).
    void setRightKeepOut(double px) { m_rightKeepOut = px; }
    /// A rack's height on screen now (device pixels), for the level of detail and tests.
    double rackHeightPx(int viewportPx) const;
    vtkActor* rackActor() const { return m_rackActor; }
    /// The rack a picked cell of rackActor() belongs to.
    static int rackOfCell(long long cell) { return static_cast<int>(cell / 6); }
    /// The labels drawn after the last chooseDetail(): those of the level shown (pods and rows over
    /// rack boxes; rows and racks over parts) that fit on screen without overlapping, pods first.
    const std::vector<std::string>& labels() const { return m_labels; }

private:
    vtkRenderer* m_renderer;
    vtkSmartPointer<vtkPolyData> m_racks;
    vtkSmartPointer<vtkActor> m_rackActor;
    vtkSmartPointer<vtkPolyData> m_labelPoints;
    vtkSmartPointer<vtkActor2D> m_labelActor;
    struct Label {
        std::array<double, 3> at{};
        std::string text;
        int level = 0; ///< 0 rack, 1 row, 2 pod
    };
    std::vector<Label> m_candidates;
    std::vector<std::string> m_labels;
    void placeLabels();
    double m_rackHeightM = 2.3;
    double m_rightKeepOut = 0;
    bool m_boxes = false;
};

} // namespace rdt::gui
