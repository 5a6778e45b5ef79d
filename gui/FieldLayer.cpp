#include "gui/FieldLayer.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellDataToPointData.h>
#include <vtkContourFilter.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRectilinearGrid.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkStreamTracer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "room/RoomThermal.h"

namespace rdt::gui {
namespace {

vtkSmartPointer<vtkActor> actorFor(vtkPolyData* data, vtkLookupTable* lut, const char* array, bool cellData)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(data);
    mapper->SetLookupTable(lut);
    mapper->SetUseLookupTableScalarRange(true);
    mapper->ScalarVisibilityOn();
    if (cellData)
        mapper->SetScalarModeToUseCellFieldData();
    else
        mapper->SetScalarModeToUsePointFieldData();
    mapper->SelectColorArray(array);
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->PickableOff();
    actor->VisibilityOff();
    return actor;
}

/// The room's field as a rectilinear grid in layout coordinates with point data (temperature,
/// velocity) averaged from the cells, solids at zero velocity.
vtkSmartPointer<vtkDataSet> pointField(const room::RoomField& room)
{
    const room::FieldSolver& s = *room.solver;
    const room::FieldGrid& g = s.grid();
    auto grid = vtkSmartPointer<vtkRectilinearGrid>::New();
    grid->SetDimensions(g.cells(0) + 1, g.cells(1) + 1, g.cells(2) + 1);
    for (int a = 0; a < 3; ++a) {
        auto c = vtkSmartPointer<vtkDoubleArray>::New();
        for (int i = 0; i <= g.cells(a); ++i)
            c->InsertNextValue(room.geometry.origin[static_cast<std::size_t>(a)] + g.face(a, i));
        if (a == 0)
            grid->SetXCoordinates(c);
        else if (a == 1)
            grid->SetYCoordinates(c);
        else
            grid->SetZCoordinates(c);
    }
    auto t = vtkSmartPointer<vtkDoubleArray>::New();
    t->SetName("temperature");
    auto v = vtkSmartPointer<vtkDoubleArray>::New();
    v->SetName("velocity");
    v->SetNumberOfComponents(3);
    for (int k = 0; k < g.cells(2); ++k)
        for (int j = 0; j < g.cells(1); ++j)
            for (int i = 0; i < g.cells(0); ++i) {
                const auto u = s.velocity(i, j, k);
                t->InsertNextValue(s.temperature(i, j, k));
                v->InsertNextTuple3(u[0], u[1], u[2]);
            }
    grid->GetCellData()->AddArray(t);
    grid->GetCellData()->AddArray(v);
    auto toPoints = vtkSmartPointer<vtkCellDataToPointData>::New();
    toPoints->SetInputData(grid);
    toPoints->Update();
    vtkSmartPointer<vtkDataSet> out = toPoints->GetOutput();
    out->GetPointData()->SetActiveVectors("velocity");
    out->GetPointData()->SetActiveScalars("temperature");
    return out;
}

} // namespace

FieldLayer::FieldLayer(vtkRenderer* renderer)
    : m_renderer(renderer), m_lut(vtkSmartPointer<vtkLookupTable>::New()), m_slice(vtkSmartPointer<vtkPolyData>::New()),
      m_lines(vtkSmartPointer<vtkPolyData>::New()), m_surface(vtkSmartPointer<vtkPolyData>::New()),
      m_bar(vtkSmartPointer<vtkScalarBarActor>::New())
{
    // Viridis, sequential: supply air dark blue-violet, exhaust yellow. Not the parts' blue / amber /
    // red bands (those judge a value against its limit; this only orders temperatures), and
    // perceptually uniform, lightness rising with temperature.
    static constexpr double kViridis[9][3] = {{0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530},
                                              {0.207, 0.372, 0.553}, {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551},
                                              {0.135, 0.659, 0.518}, {0.478, 0.821, 0.318}, {0.993, 0.906, 0.144}};
    m_lut->SetNumberOfTableValues(256);
    for (int i = 0; i < 256; ++i) {
        const double x = i / 255.0 * 8.0;
        const int k = std::min(static_cast<int>(x), 7);
        const double f = x - k;
        m_lut->SetTableValue(i, kViridis[k][0] + f * (kViridis[k + 1][0] - kViridis[k][0]),
                             kViridis[k][1] + f * (kViridis[k + 1][1] - kViridis[k][1]),
                             kViridis[k][2] + f * (kViridis[k + 1][2] - kViridis[k][2]), 1.0);
    }
    m_lut->SetRange(m_range[0], m_range[1]);
    m_sliceActor = actorFor(m_slice, m_lut, "temperature", true);
    m_sliceActor->GetProperty()->SetOpacity(0.92);
    m_sliceActor->GetProperty()->SetAmbient(0.6);
    m_linesActor = actorFor(m_lines, m_lut, "temperature", false);
    m_linesActor->GetProperty()->SetLineWidth(1.5);
    m_linesActor->GetProperty()->SetOpacity(0.85);
    m_isoActor = actorFor(m_surface, m_lut, "temperature", false);
    m_isoActor->GetMapper()->ScalarVisibilityOff();
    m_isoActor->GetProperty()->SetColor(0.95, 0.55, 0.15);
    m_isoActor->GetProperty()->SetOpacity(0.3);
    m_bar->SetLookupTable(m_lut);
    m_bar->SetTitle("Room air (degC)");
    m_bar->SetNumberOfLabels(5);
    m_bar->SetLabelFormat("%.0f");
    // Horizontal along the bottom left: apart from the parts' vertical bar on the right, and clear of
    // the rack and row labels over the scene.
    m_bar->SetOrientationToHorizontal();
    m_bar->SetPosition(0.02, 0.07);
    m_bar->SetWidth(0.42);
    m_bar->SetHeight(0.13);
    m_bar->SetTextPositionToPrecedeScalarBar(); // tick labels under the bar (horizontal), the title above
    m_bar->SetBarRatio(0.3);
    m_bar->GetTitleTextProperty()->SetColor(0.15, 0.15, 0.2);
    m_bar->GetLabelTextProperty()->SetColor(0.15, 0.15, 0.2);
    for (vtkTextProperty* t : {m_bar->GetTitleTextProperty(), m_bar->GetLabelTextProperty()}) {
        t->ItalicOff();
        t->ShadowOff();
        t->BoldOff();
    }
    m_bar->GetTitleTextProperty()->SetFontSize(14);
    m_bar->GetLabelTextProperty()->SetFontSize(12);
    m_bar->UnconstrainedFontSizeOn();
    m_bar->SetVerticalTitleSeparation(6);
    m_bar->VisibilityOff();
    // The iso-surface's note, bottom left under the air's bar.
    m_isoText = vtkSmartPointer<vtkTextActor>::New();
    m_isoText->GetTextProperty()->SetFontSize(13);
    m_isoText->GetTextProperty()->SetColor(0.15, 0.15, 0.2);
    m_isoText->GetTextProperty()->SetBackgroundColor(1.0, 1.0, 1.0);
    m_isoText->GetTextProperty()->SetBackgroundOpacity(0.75);
    m_isoText->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_isoText->SetPosition(0.02, 0.015);
    m_isoText->VisibilityOff();
    m_renderer->AddActor2D(m_isoText);
    for (vtkActor* a : {m_sliceActor.Get(), m_linesActor.Get(), m_isoActor.Get()})
        m_renderer->AddActor(a);
    m_renderer->AddActor2D(m_bar);
}

FieldLayer::~FieldLayer() = default;

void FieldLayer::setResult(std::shared_ptr<const thermal::ThermalResult> result, double isoC)
{
    m_iso = isoC;
    m_result = result && room::fieldOf(*result) && !room::fieldOf(*result)->rooms.empty() ? std::move(result) : nullptr;
    if (m_result) {
        // With a reference's intakes the racks judge OpenFOAM's air, but the air drawn here is
        // still rdt's own field: the title says whose.
        m_bar->SetTitle(m_result->intakesFrom.empty() ? "Room air (degC)"
                                                      : "Room air, rdt (degC)");
        double lo = 1e300, hi = -1e300;
        for (const room::RoomField& r : room::fieldOf(*m_result)->rooms) {
            const room::FieldGrid& g = r.solver->grid();
            for (int k = 0; k < g.cells(2); ++k)
                for (int j = 0; j < g.cells(1); ++j)
                    for (int i = 0; i < g.cells(0); ++i)
                        if (!r.solver->solid(i, j, k)) {
                            lo = std::min(lo, r.solver->temperature(i, j, k));
                            hi = std::max(hi, r.solver->temperature(i, j, k));
                        }
        }
        m_range = {std::floor(lo), std::max(std::ceil(hi), std::floor(lo) + 1.0)};
        m_lut->SetRange(m_range[0], m_range[1]);
        m_lut->Build();
        // Say why the iso-surface is empty when the air never crosses its value.
        char text[200];
        if (lo > m_iso)
            std::snprintf(text, sizeof text, "Iso-surface %.0f degC: none, all air is above %.0f degC (%.1f to %.1f degC)",
                          m_iso, m_iso, lo, hi);
        else if (hi < m_iso)
            std::snprintf(text, sizeof text, "Iso-surface %.0f degC: none, no air reaches %.0f degC (%.1f to %.1f degC)",
                          m_iso, m_iso, lo, hi);
        else
            std::snprintf(text, sizeof text, "Iso-surface %.0f degC (orange): where the air crosses the recommended inlet limit",
                          m_iso);
        m_isoNote = text;
    } else
        m_isoNote.clear();
    m_isoText->SetInput(m_isoNote.c_str());
    rebuildSlice();
    rebuildVolume();
    setVisible(m_showSlice, m_showLines, m_showIso);
}

void FieldLayer::setSlice(int axis, double fraction)
{
    m_axis = std::clamp(axis, 0, 2);
    m_fraction = std::clamp(fraction, 0.0, 1.0);
    rebuildSlice();
}

void FieldLayer::setVisible(bool slice, bool streamlines, bool iso)
{
    m_showSlice = slice;
    m_showLines = streamlines;
    m_showIso = iso;
    const bool any = m_result != nullptr;
    m_sliceActor->SetVisibility(any && slice);
    m_linesActor->SetVisibility(any && streamlines);
    m_isoActor->SetVisibility(any && iso);
    m_bar->SetVisibility(any && (slice || streamlines));
    m_isoText->SetVisibility(any && iso && !m_isoNote.empty());
}

vtkLookupTable* FieldLayer::lookupTable() const
{
    return m_lut;
}

vtkScalarBarActor* FieldLayer::scalarBar() const
{
    return m_bar;
}

bool FieldLayer::isoNoteShown() const
{
    return m_isoText->GetVisibility() != 0;
}

long FieldLayer::streamlinePoints() const
{
    return m_lines->GetNumberOfPoints();
}

bool FieldLayer::roomBounds(std::array<double, 6>& b) const
{
    if (!m_result)
        return false;
    const room::RoomGeometry& g = room::fieldOf(*m_result)->rooms.front().geometry;
    for (std::size_t d = 0; d < 3; ++d) {
        b[2 * d] = g.origin[d];
        b[2 * d + 1] = g.origin[d] + g.size[d];
    }
    return true;
}

long FieldLayer::isoSurfacePoints() const
{
    return m_surface->GetNumberOfPoints();
}

long FieldLayer::sliceCells() const
{
    return m_slice->GetNumberOfCells();
}

void FieldLayer::rebuildSlice()
{
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto quads = vtkSmartPointer<vtkCellArray>::New();
    auto temp = vtkSmartPointer<vtkDoubleArray>::New();
    temp->SetName("temperature");
    if (m_result)
        for (const room::RoomField& r : room::fieldOf(*m_result)->rooms) {
            const room::FieldGrid& g = r.solver->grid();
            const auto& o = r.geometry.origin;
            const int a = m_axis, e1 = (a + 1) % 3, e2 = (a + 2) % 3;
            const int layer = std::clamp(static_cast<int>(m_fraction * g.cells(a)), 0, g.cells(a) - 1);
            const double at = o[static_cast<std::size_t>(a)] + g.centre(a, layer);
            for (int v = 0; v < g.cells(e2); ++v)
                for (int u = 0; u < g.cells(e1); ++u) {
                    std::array<int, 3> c{};
                    c[static_cast<std::size_t>(a)] = layer;
                    c[static_cast<std::size_t>(e1)] = u;
                    c[static_cast<std::size_t>(e2)] = v;
                    if (r.solver->solid(c[0], c[1], c[2]))
                        continue; // racks and panels are drawn by the scene itself
                    vtkIdType ids[4];
                    const double us[4] = {g.face(e1, u), g.face(e1, u + 1), g.face(e1, u + 1), g.face(e1, u)};
                    const double vs[4] = {g.face(e2, v), g.face(e2, v), g.face(e2, v + 1), g.face(e2, v + 1)};
                    for (int q = 0; q < 4; ++q) {
                        double p[3];
                        p[a] = at;
                        p[e1] = o[static_cast<std::size_t>(e1)] + us[q];
                        p[e2] = o[static_cast<std::size_t>(e2)] + vs[q];
                        ids[q] = pts->InsertNextPoint(p);
                    }
                    quads->InsertNextCell(4, ids);
                    temp->InsertNextValue(r.solver->temperature(c[0], c[1], c[2]));
                }
        }
    m_slice->SetPoints(pts);
    m_slice->SetPolys(quads);
    m_slice->GetCellData()->Initialize();
    m_slice->GetCellData()->AddArray(temp);
    m_slice->Modified();
}

void FieldLayer::rebuildVolume()
{
    auto lines = vtkSmartPointer<vtkPolyData>::New();
    auto surface = vtkSmartPointer<vtkPolyData>::New();
    if (m_result) {
        // One room's streamlines and iso-surface (the first solved; others share its layout).
        const room::RoomField& r = room::fieldOf(*m_result)->rooms.front();
        const vtkSmartPointer<vtkDataSet> field = pointField(r);
        // Seeds: 0.15 m behind every rack's exhaust face, across its width at its open bands.
        auto seeds = vtkSmartPointer<vtkPolyData>::New();
        auto seedPts = vtkSmartPointer<vtkPoints>::New();
        for (const room::FieldBlackBox& b : r.geometry.boxes) {
            const int axis = static_cast<int>(b.intake) / 2;
            const bool intakeHigh = static_cast<int>(b.intake) % 2 == 1;
            const double exhaust = intakeHigh ? b.min[static_cast<std::size_t>(axis)] - 0.15
                                              : b.max[static_cast<std::size_t>(axis)] + 0.15;
            for (const auto& band : b.bands)
                for (double fx : {0.5}) {
                    double p[3];
                    p[axis] = exhaust;
                    const int across = axis == 1 ? 0 : 1;
                    p[across] =
                        b.min[static_cast<std::size_t>(across)] +
                        fx * (b.max[static_cast<std::size_t>(across)] - b.min[static_cast<std::size_t>(across)]);
                    p[2] = 0.5 * (band[0] + band[1]);
                    for (int d = 0; d < 3; ++d)
                        p[d] += r.geometry.origin[static_cast<std::size_t>(d)];
                    seedPts->InsertNextPoint(p);
                }
        }
        seeds->SetPoints(seedPts);
        auto tracer = vtkSmartPointer<vtkStreamTracer>::New();
        tracer->SetInputData(field);
        tracer->SetSourceData(seeds);
        tracer->SetIntegratorTypeToRungeKutta45();
        tracer->SetIntegrationDirectionToForward();
        tracer->SetMaximumPropagation(40.0);
        tracer->SetInitialIntegrationStep(0.2);
        tracer->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "velocity");
        tracer->Update();
        lines->DeepCopy(tracer->GetOutput());
        auto contour = vtkSmartPointer<vtkContourFilter>::New();
        contour->SetInputData(field);
        contour->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "temperature");
        contour->SetValue(0, m_iso);
        contour->Update();
        surface->DeepCopy(contour->GetOutput());
    }
    m_lines->DeepCopy(lines);
    m_surface->DeepCopy(surface);
    m_lines->GetPointData()->SetActiveScalars("temperature");
    m_lines->Modified();
    m_surface->Modified();
}

} // namespace rdt::gui
