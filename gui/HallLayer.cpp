#include "gui/HallLayer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkIntArray.h>
#include <vtkLabelPlacementMapper.h>
#include <vtkPointData.h>
#include <vtkPointSetToLabelHierarchy.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkStringArray.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include "core/Design.h"

namespace rdt::gui {

namespace {

void addSolidBox(vtkPoints* pts, vtkCellArray* quads, const core::Box& b)
{
    const vtkIdType base = pts->GetNumberOfPoints();
    for (int i = 0; i < 8; ++i)
        pts->InsertNextPoint((i & 1) ? b.max[0] : b.min[0], (i & 2) ? b.max[1] : b.min[1], (i & 4) ? b.max[2] : b.min[2]);
    static const int f[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : f) {
        const vtkIdType ids[4] = {base + q[0], base + q[1], base + q[2], base + q[3]};
        quads->InsertNextCell(4, ids);
    }
}

/// "dc1/pod1/row01/rack01" → ("dc1/pod1/row01", "rack01").
std::pair<std::string, std::string> splitId(const std::string& id)
{
    const auto slash = id.rfind('/');
    if (slash == std::string::npos)
        return {"", id};
    return {id.substr(0, slash), id.substr(slash + 1)};
}

} // namespace

HallLayer::HallLayer(vtkRenderer* renderer)
    : m_renderer(renderer), m_racks(vtkSmartPointer<vtkPolyData>::New()),
      m_labelPoints(vtkSmartPointer<vtkPolyData>::New())
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(m_racks);
    m_rackActor = vtkSmartPointer<vtkActor>::New();
    m_rackActor->SetMapper(mapper);
    m_rackActor->GetProperty()->SetInterpolationToFlat();
    m_rackActor->GetProperty()->SetAmbient(0.3);
    m_rackActor->GetProperty()->SetDiffuse(0.75);
    m_rackActor->VisibilityOff();
    m_renderer->AddActor(m_rackActor);

    auto hierarchy = vtkSmartPointer<vtkPointSetToLabelHierarchy>::New();
    hierarchy->SetInputData(m_labelPoints);
    hierarchy->SetLabelArrayName("label");
    hierarchy->SetPriorityArrayName("priority");
    vtkTextProperty* text = hierarchy->GetTextProperty();
    text->SetFontSize(13);
    text->SetColor(0.10, 0.12, 0.16);
    text->SetBold(true);
    text->ShadowOff();
    text->SetJustificationToLeft(); // the placer draws its box for left-justified text: centred text sat off its box
    auto placer = vtkSmartPointer<vtkLabelPlacementMapper>::New();
    placer->SetInputConnection(hierarchy->GetOutputPort());
    placer->SetShapeToRoundedRect();
    placer->SetStyleToFilled();
    placer->SetBackgroundColor(1.0, 1.0, 1.0);
    placer->SetBackgroundOpacity(0.78);
    placer->SetMargin(2);
    placer->UseDepthBufferOff();
    placer->PlaceAllLabelsOn(); // placeLabels() chose them: no two overlap
    m_labelActor = vtkSmartPointer<vtkActor2D>::New();
    m_labelActor->SetMapper(placer);
    m_renderer->AddActor2D(m_labelActor);
}

HallLayer::~HallLayer()
{
    m_renderer->RemoveActor(m_rackActor);
    m_renderer->RemoveActor2D(m_labelActor);
}

void HallLayer::setLayout(const core::Design& design, const core::LayoutGeometry& g)
{
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto quads = vtkSmartPointer<vtkCellArray>::New();
    double height = 0;
    for (const core::Box& b : g.frames) {
        addSolidBox(pts, quads, b);
        height = std::max(height, b.max[2] - b.min[2]);
    }
    m_rackHeightM = height > 0 ? height : 2.3;
    m_racks->SetPoints(pts);
    m_racks->SetPolys(quads);
    m_racks->Modified();

    // Label candidates: each pod's name over its middle, each row's at its low-x end, each
    // rack's over its top; placeLabels() keeps those of the level shown that fit.
    struct Extent {
        std::array<double, 3> lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        void add(const core::Box& b)
        {
            for (std::size_t k = 0; k < 3; ++k) {
                lo[k] = std::min(lo[k], b.min[k]);
                hi[k] = std::max(hi[k], b.max[k]);
            }
        }
    };
    std::map<std::string, Extent> rows, pods;
    m_candidates.clear();
    for (std::size_t i = 0; i < g.frames.size() && i < design.racks.size(); ++i) {
        const core::Box& b = g.frames[i];
        const auto [row, name] = splitId(design.racks[i].id);
        if (!row.empty()) {
            rows[row].add(b);
            const auto [pod, rowName] = splitId(row);
            if (!pod.empty())
                pods[pod].add(b);
        }
        m_candidates.push_back({{(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, b.max[2] + 0.12}, name, 0});
    }
    for (const auto& [row, e] : rows)
        m_candidates.push_back({{e.lo[0] - 0.45, (e.lo[1] + e.hi[1]) / 2, e.hi[2] + 0.2}, splitId(row).second, 1});
    if (pods.size() > 1)
        for (const auto& [pod, e] : pods)
            m_candidates.push_back(
                {{(e.lo[0] + e.hi[0]) / 2, (e.lo[1] + e.hi[1]) / 2, e.hi[2] + 1.2}, splitId(pod).second, 2});
    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Label& a, const Label& b) { return a.level > b.level; });
}

void HallLayer::placeLabels()
{
    const int* size = m_renderer->GetSize();
    struct Rect {
        double x0, y0, x1, y1;
    };
    std::vector<Rect> taken;
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto names = vtkSmartPointer<vtkStringArray>::New();
    names->SetName("label");
    auto priority = vtkSmartPointer<vtkIntArray>::New();
    priority->SetName("priority");
    m_labels.clear();
    // Over rack boxes: the pods (the rows where there is one pod); over parts: rows and racks.
    const bool havePods = !m_candidates.empty() && m_candidates.front().level == 2;
    const int minLevel = m_boxes ? (havePods ? 2 : 1) : 0, maxLevel = m_boxes ? 2 : 1;
    constexpr std::size_t kMaxLabels = 160;
    for (const Label& l : m_candidates) {
        if (l.level < minLevel || l.level > maxLevel || m_labels.size() >= kMaxLabels)
            continue;
        m_renderer->SetWorldPoint(l.at[0], l.at[1], l.at[2], 1.0);
        m_renderer->WorldToDisplay();
        double d[3];
        m_renderer->GetDisplayPoint(d);
        // The 13 px bold label's box with its margin, estimated from its length; the text starts at
        // its point (left-justified, so the placer's box sits under it).
        const double w = 8.0 * static_cast<double>(l.text.size()) + 10.0, h = 20.0;
        const Rect r{d[0] - 2, d[1] - h / 2, d[0] + w, d[1] + h / 2};
        if (d[2] < 0 || d[2] > 1 || r.x0 < 0 || r.y0 < 0 || r.x1 > size[0] - m_rightKeepOut || r.y1 > size[1])
            continue;
        const bool overlaps = std::any_of(taken.begin(), taken.end(), [&](const Rect& o) {
            return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1;
        });
        if (overlaps)
            continue;
        taken.push_back(r);
        pts->InsertNextPoint(l.at.data());
        names->InsertNextValue(l.text);
        priority->InsertNextValue(l.level);
        m_labels.push_back(l.text);
    }
    m_labelPoints->Initialize();
    m_labelPoints->SetPoints(pts);
    m_labelPoints->GetPointData()->AddArray(names);
    m_labelPoints->GetPointData()->AddArray(priority);
    m_labelPoints->Modified();
}

void HallLayer::setRackColours(const std::vector<editor::Rgb>& colours)
{
    auto c = vtkSmartPointer<vtkUnsignedCharArray>::New();
    c->SetNumberOfComponents(3);
    c->SetName("colour");
    c->SetNumberOfTuples(static_cast<vtkIdType>(colours.size() * 6));
    vtkIdType cell = 0;
    for (const editor::Rgb& rgb : colours) {
        const std::array<unsigned char, 3> v{static_cast<unsigned char>(rgb.r * 255),
                                             static_cast<unsigned char>(rgb.g * 255),
                                             static_cast<unsigned char>(rgb.b * 255)};
        for (int f = 0; f < 6; ++f, ++cell)
            c->SetTypedTuple(cell, v.data());
    }
    m_racks->GetCellData()->SetScalars(c);
    m_racks->Modified();
}

double HallLayer::rackHeightPx(int viewportPx) const
{
    vtkCamera* cam = m_renderer->GetActiveCamera();
    if (cam->GetParallelProjection())
        return m_rackHeightM / (2.0 * cam->GetParallelScale()) * viewportPx;
    const double dist = std::max(cam->GetDistance(), 1e-6);
    const double halfAngle = cam->GetViewAngle() * M_PI / 360.0;
    return m_rackHeightM / (2.0 * dist * std::tan(halfAngle)) * viewportPx;
}

bool HallLayer::chooseDetail(int viewportPx)
{
    m_boxes = m_racks->GetNumberOfCells() > 0 && rackHeightPx(viewportPx) < kPartsMinRackPx;
    m_rackActor->SetVisibility(m_boxes);
    placeLabels();
    return m_boxes;
}

} // namespace rdt::gui
