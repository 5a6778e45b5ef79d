#include "gui/SceneView.h"

/// \file SceneScale.cpp
/// The 3D view's reading aids: the scalar bar (the colouring's bands, its limits marked and
/// named), the legend line, the hall-scale level of detail and hover. SceneView.cpp builds the
/// scene and its camera.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>

#include <vtkActor.h>
#include <vtkCellPicker.h>
#include <vtkLookupTable.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>

#include "gui/HallLayer.h"
#include "gui/Studio.h"
#include "gui/VtkWidget.h"

namespace rdt::gui {

void SceneView::chooseDetail()
{
    const int* size = m_vtk->renderer()->GetSize();
    // The scalar bar as far right as its title allows: the widest title line (12 px bold, about
    // 7.6 px a character) centred on the bar, 6 px from the view's edge.
    if (m_scalarBar->GetVisibility() && m_scalarBar->GetTitle() && size[0] > 0) {
        std::size_t widest = 0;
        const std::string title = m_scalarBar->GetTitle();
        for (std::size_t at = 0; at <= title.size();) {
            const std::size_t nl = std::min(title.find('\n', at), title.size());
            widest = std::max(widest, nl - at);
            at = nl + 1;
        }
        const double ratio = m_vtk->devicePixelRatioF();
        const double barPx = std::min(m_scalarBar->GetWidth() * size[0], m_scalarBar->GetMaximumWidthInPixels() * 1.0);
        const double halfTitle = 0.5 * 7.6 * ratio * static_cast<double>(widest);
        const double x = (size[0] - 6.0 * ratio - std::max(halfTitle, barPx / 2) - barPx / 2) / size[0];
        m_scalarBar->SetPosition(std::min(0.87, x), 0.06);
        // Labels stay clear of the bar and of its marks' text to its left (about 150 px).
        m_hall->setRightKeepOut(size[0] * (1.0 - std::min(0.87, x)) + 150.0 * ratio);
    } else
        m_hall->setRightKeepOut(0);
    const bool boxes = m_hall->chooseDetail(size[1]);
    m_partsActor->SetVisibility(!boxes);
    m_framesActor->SetVisibility(!boxes);
}

bool SceneView::racksAsBoxes()
{
    m_vtk->grabFramebuffer(); // a render: the level of detail is chosen at its start
    return m_hall->racksAsBoxes();
}

void SceneView::setDataRange(bool on)
{
    m_dataRange->setChecked(on);
}

QString SceneView::describe(int rack, int slot) const
{
    const core::Design& d = m_studio.design();
    if (rack < 0 || rack >= static_cast<int>(d.racks.size()))
        return {};
    const int idx = std::max(0, m_colouringBox->currentIndex());
    const editor::Colouring& c = *m_colourings[static_cast<std::size_t>(idx)];
    const core::Rack& r = d.racks[static_cast<std::size_t>(rack)];
    const core::PartField* f = c.field();
    const auto valueOf = [&](int s) -> QString {
        const double v = f ? f->at(rack, s) : NAN;
        return std::isfinite(v) ? QString::fromStdString(editor::withUnit(v, f->unit)) : QString();
    };
    if (slot >= 0 && slot < static_cast<int>(r.slots.size())) {
        const QString v = valueOf(slot);
        return QString::fromStdString(r.slots[static_cast<std::size_t>(slot)].id) + (v.isEmpty() ? "" : " · " + v);
    }
    // A rack drawn as one box: its worst part on this colouring.
    const editor::ColourContext ctx = m_studio.colourContext();
    int worst = -1;
    double bad = -1;
    for (int s = 0; s < static_cast<int>(r.slots.size()); ++s)
        if (const double b = c.badness(ctx, rack, s); b > bad) {
            bad = b;
            worst = s;
        }
    QString text = QString::fromStdString(r.id);
    if (worst >= 0 && f && !valueOf(worst).isEmpty())
        text += " · " + QString::fromStdString(c.name()) + " " + valueOf(worst) + " (" +
                QString::fromStdString(r.slots[static_cast<std::size_t>(worst)].id.substr(r.id.size() + 1)) + ")";
    return text;
}

bool SceneView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_vtk && event->type() == QEvent::MouseMove) {
        m_hoverAt = static_cast<QMouseEvent*>(event)->position().toPoint();
        QToolTip::hideText();
        m_hoverTimer->start();
    } else if (watched == m_vtk && event->type() == QEvent::Leave)
        m_hoverTimer->stop();
    return QWidget::eventFilter(watched, event);
}

void SceneView::hover()
{
    const double dpr = m_vtk->devicePixelRatioF();
    const int x = static_cast<int>(m_hoverAt.x() * dpr), y = static_cast<int>((m_vtk->height() - m_hoverAt.y()) * dpr);
    auto picker = vtkSmartPointer<vtkCellPicker>::New();
    picker->SetTolerance(0.0005);
    if (!picker->Pick(x, y, 0, m_vtk->renderer()))
        return;
    QString text;
    if (picker->GetActor() == m_hall->rackActor())
        text = describe(HallLayer::rackOfCell(picker->GetCellId()), -1);
    else if (picker->GetActor() == m_partsActor) {
        const vtkIdType box = picker->GetCellId() / kFacesPerBox;
        if (box >= 0 && box < static_cast<vtkIdType>(m_geometry.parts.size()))
            text = describe(m_geometry.parts[static_cast<std::size_t>(box)].rack,
                            m_geometry.parts[static_cast<std::size_t>(box)].slot);
    }
    if (!text.isEmpty())
        QToolTip::showText(m_vtk->mapToGlobal(m_hoverAt), text, m_vtk);
}

namespace {

/// A scalar-bar title in lines of at most `width` characters (the bar is narrow; VTK cuts a long
/// line), the unit on its own line.
std::string wrapTitle(const std::string& name, const std::string& unit, std::size_t width)
{
    std::string out, line;
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t space = name.find(' ', start);
        const std::string word = name.substr(start, space == std::string::npos ? std::string::npos : space - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        if (space == std::string::npos)
            break;
        start = space + 1;
    }
    return out + line + "\n(" + (unit == "degC" ? std::string("°C") : unit) + ")";
}

} // namespace

void SceneView::updateScalarBar(const editor::Colouring& c)
{
    const core::PartField* f = c.field();
    const auto* fc = dynamic_cast<const editor::FieldColouring*>(&c);
    const auto [lo, hi] = c.range();
    if (!f || !fc || !std::isfinite(lo) || !(hi > lo)) {
        m_scalarBar->VisibilityOff();
        return;
    }
    // The bar shows the very colours the parts get: the bands, the limits marked and named.
    m_lut->SetRange(lo, hi);
    for (int i = 0; i < 256; ++i) {
        const editor::Rgb rgb = fc->valueColour(lo + (hi - lo) * (i + 0.5) / 256.0);
        m_lut->SetTableValue(i, rgb.r, rgb.g, rgb.b, 1.0);
    }
    m_lut->ResetAnnotations();
    for (const auto& [value, label] : fc->marks())
        if (value >= lo && value <= hi) {
            // A mark whose label states its own value ("90 % of capacity") is not prefixed with it
            // again ("90% 90 % of capacity": studio trial); one that does not keeps it ("55 °C 5 K below
            // the connector's maximum").
            char number[32];
            std::snprintf(number, sizeof number, "%g ", value);
            const bool statesIt = label.rfind(number, 0) == 0;
            m_lut->SetAnnotation(value, statesIt        ? label
                                        : label.empty() ? editor::withUnit(value, f->unit)
                                                        : editor::withUnit(value, f->unit) + " " + label);
        }
    m_lut->Build();
    m_scalarBar->SetDrawAnnotations(fc->anchoredScale());
    m_scalarBar->SetNumberOfLabels(fc->anchoredScale() ? 2 : 5);
    m_scalarBar->SetTitle(wrapTitle(f->name, f->unit, 14).c_str());
    m_scalarBar->VisibilityOn();
}

QPoint SceneView::scalarBarTitleAnchor() const
{
    const double* pos = m_scalarBar->GetPosition();
    const int w = m_vtk->width(), h = m_vtk->height();
    const double barW =
        std::min(m_scalarBar->GetWidth() * w,
                 static_cast<double>(m_scalarBar->GetMaximumWidthInPixels()) / m_vtk->devicePixelRatioF());
    return {static_cast<int>(pos[0] * w + barW / 2), static_cast<int>(h - (pos[1] + m_scalarBar->GetHeight()) * h)};
}

QString SceneView::scalarBarTitle() const
{
    return m_scalarBar->GetVisibility() && m_scalarBar->GetTitle() ? QString::fromUtf8(m_scalarBar->GetTitle())
                                                                   : QString();
}

std::vector<std::pair<double, std::string>> SceneView::scaleMarks() const
{
    std::vector<std::pair<double, std::string>> out;
    for (vtkIdType i = 0; i < m_lut->GetNumberOfAnnotatedValues(); ++i)
        out.emplace_back(m_lut->GetAnnotatedValue(i).ToDouble(), m_lut->GetAnnotation(i).c_str());
    std::sort(out.begin(), out.end());
    return out;
}

void SceneView::updateLegend()
{
    const int idx = std::max(0, m_colouringBox->currentIndex());
    QString html;
    for (const auto& [label, rgb] : m_colourings[static_cast<std::size_t>(idx)]->legend())
        html += QString("<span style='color:%1'>■</span> %2&nbsp;&nbsp;")
                    .arg(QColor::fromRgbF(rgb.r, rgb.g, rgb.b).name(), QString::fromStdString(label).toHtmlEscaped());
    m_legend->setText(html);
}

} // namespace rdt::gui
