#include "gui/SceneView.h"
#include "gui/FieldLayer.h"
#include "gui/HallLayer.h"

#include <algorithm>
#include <cmath>

#include <vtkLookupTable.h>
#include <vtkScalarBarActor.h>
#include <vtkTextProperty.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCallbackCommand.h>
#include <vtkCellPicker.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkLightKit.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include "gui/Studio.h"
#include "gui/VtkWidget.h"
#include "thermal/ThermalChecks.h"

namespace rdt::gui {

namespace {

/// Append the 8 corners and 6 quads (or 12 edges) of a box.
void addBox(vtkPoints* pts, vtkCellArray* cells, const core::Box& b, bool edges, double inflate = 0.0)
{
    const vtkIdType base = pts->GetNumberOfPoints();
    for (int i = 0; i < 8; ++i)
        pts->InsertNextPoint((i & 1) ? b.max[0] + inflate : b.min[0] - inflate,
                             (i & 2) ? b.max[1] + inflate : b.min[1] - inflate,
                             (i & 4) ? b.max[2] + inflate : b.min[2] - inflate);
    if (edges) {
        static const int e[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                     {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
        for (const auto& l : e) {
            const vtkIdType ids[2] = {base + l[0], base + l[1]};
            cells->InsertNextCell(2, ids);
        }
        return;
    }
    static const int f[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : f) {
        const vtkIdType ids[4] = {base + q[0], base + q[1], base + q[2], base + q[3]};
        cells->InsertNextCell(4, ids);
    }
}

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* data)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(data);
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    return actor;
}

} // namespace

SceneView::SceneView(Studio& studio, QWidget* parent)
    : QWidget(parent), m_studio(studio), m_vtk(new VtkWidget), m_colouringBox(new QComboBox), m_legend(new QLabel),
      m_colourings(editor::builtinColourings()), m_parts(vtkSmartPointer<vtkPolyData>::New()),
      m_frames(vtkSmartPointer<vtkPolyData>::New()), m_highlight(vtkSmartPointer<vtkPolyData>::New())
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    for (const auto& [name, preset] : {std::pair{tr("Front"), Preset::Front}, std::pair{tr("Top"), Preset::Top},
                                       std::pair{tr("Iso"), Preset::Iso}}) {
        auto* b = new QToolButton;
        b->setText(name);
        b->setToolTip(tr("Camera: %1 view").arg(name.toLower()));
        connect(b, &QToolButton::clicked, this, [this, p = preset] { setCamera(p); });
        bar->addWidget(b);
    }
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Colour by")));
    bar->addWidget(m_colouringBox);
    m_colouringBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_colouringBox->setMinimumContentsLength(14);
    m_fixScale = new QToolButton;
    m_fixScale->setText(tr("Fix scale"));
    m_fixScale->setCheckable(true);
    m_fixScale->setToolTip(tr("Keep the colour scale's range while what-ifs and edits change the results"));
    bar->addWidget(m_fixScale);
    m_dataRange = new QToolButton;
    m_dataRange->setText(tr("Data range"));
    m_dataRange->setCheckable(true);
    m_dataRange->setToolTip(tr("Colour by the values' own range instead of the rule's limits (values beyond "
                               "their limit stay red)"));
    bar->addWidget(m_dataRange);
    bar->addStretch(1);
    // The legend on a line of its own under the toolbar: every entry whole at 1280 × 720.
    auto* legendRow = new QHBoxLayout;
    legendRow->setContentsMargins(8, 0, 4, 2);
    m_legend->setTextFormat(Qt::RichText);
    legendRow->addWidget(m_legend, 1);
    for (const auto& c : m_colourings)
        m_colouringBox->addItem(QString::fromStdString(c->name()));
    // The Air toolbar: the room field's views (shown when the thermal model is the field).
    m_fieldBar = new QWidget;
    auto* air = new QHBoxLayout(m_fieldBar);
    air->setContentsMargins(4, 0, 4, 2);
    air->addWidget(new QLabel(tr("Air")));
    m_sliceBox = new QCheckBox(tr("Slice"));
    m_sliceBox->setChecked(true);
    m_sliceAxis = new QComboBox;
    m_sliceAxis->addItems({tr("across rows (x)"), tr("along a row (y)"), tr("horizontal (z)")});
    m_sliceAxis->setCurrentIndex(2);
    m_sliceSlider = new QSlider(Qt::Horizontal);
    m_sliceSlider->setRange(0, 100);
    m_sliceSlider->setValue(35);
    m_sliceSlider->setMaximumWidth(180);
    m_sliceSlider->setToolTip(tr("Where the slice cuts the room"));
    m_linesBox = new QCheckBox(tr("Streamlines from exhausts"));
    m_linesBox->setChecked(true);
    m_isoBox = new QCheckBox(tr("Iso-surface 27 degC"));
    m_isoBox->setToolTip(tr("Where the air reaches ASHRAE's recommended inlet limit"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_sliceBox, m_sliceAxis, m_sliceSlider, m_linesBox, m_isoBox})
        air->addWidget(w);
    air->addStretch(1);
    m_fieldBar->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addLayout(legendRow);
    layout->addWidget(m_fieldBar);
    layout->addWidget(m_vtk, 1);

    m_partsActor = makeActor(m_parts);
    m_partsActor->GetProperty()->SetInterpolationToFlat();
    m_partsActor->GetProperty()->SetAmbient(0.25);
    m_partsActor->GetProperty()->SetDiffuse(0.8);
    m_framesActor = makeActor(m_frames);
    m_framesActor->GetProperty()->SetColor(0.38, 0.41, 0.46);
    m_framesActor->GetProperty()->SetLineWidth(1.0);
    m_framesActor->GetProperty()->SetOpacity(0.6);
    m_highlightActor = makeActor(m_highlight);
    m_highlightActor->GetProperty()->SetColor(1.0, 0.78, 0.0);
    m_highlightActor->GetProperty()->SetLineWidth(3.0);
    m_highlightActor->PickableOff();
    m_framesActor->PickableOff();
    vtkRenderer* ren = m_vtk->renderer();
    ren->AddActor(m_partsActor);
    ren->AddActor(m_framesActor);
    ren->AddActor(m_highlightActor);
    m_field = std::make_unique<FieldLayer>(ren);
    m_hall = std::make_unique<HallLayer>(ren);
    // Before every render: parts or rack boxes, by how large a rack is on screen.
    auto detail = vtkSmartPointer<vtkCallbackCommand>::New();
    detail->SetClientData(this);
    detail->SetCallback([](vtkObject*, unsigned long, void* self, void*) { static_cast<SceneView*>(self)->chooseDetail(); });
    m_detailObserver = ren->AddObserver(vtkCommand::StartEvent, detail);
    const auto fieldChanged = [this] {
        m_field->setSlice(m_sliceAxis->currentIndex(), m_sliceSlider->value() / 100.0);
        m_field->setVisible(m_sliceBox->isChecked(), m_linesBox->isChecked(), m_isoBox->isChecked());
        m_vtk->update();
    };
    connect(m_sliceBox, &QCheckBox::toggled, this, fieldChanged);
    connect(m_linesBox, &QCheckBox::toggled, this, fieldChanged);
    connect(m_isoBox, &QCheckBox::toggled, this, fieldChanged);
    connect(m_sliceSlider, &QSlider::valueChanged, this, fieldChanged);
    connect(m_sliceAxis, qOverload<int>(&QComboBox::currentIndexChanged), this, fieldChanged);
    auto lights = vtkSmartPointer<vtkLightKit>::New();
    lights->AddLightsToRenderer(ren);
    ren->GradientBackgroundOn();
    ren->SetBackground(0.93, 0.94, 0.96);
    ren->SetBackground2(0.72, 0.76, 0.82);

    // The scalar bar of continuous colourings: a legend with the field's unit and range.
    m_scalarBar = vtkSmartPointer<vtkScalarBarActor>::New();
    m_lut = vtkSmartPointer<vtkLookupTable>::New();
    m_lut->SetNumberOfTableValues(256);
    m_scalarBar->SetLookupTable(m_lut);
    m_scalarBar->SetNumberOfLabels(5);
    m_scalarBar->SetMaximumWidthInPixels(90);
    m_scalarBar->SetMaximumHeightInPixels(360);
    m_scalarBar->SetPosition(0.87, 0.06);
    m_scalarBar->SetWidth(0.11);
    m_scalarBar->SetHeight(0.78);
    m_scalarBar->SetVerticalTitleSeparation(8);
    m_scalarBar->SetBarRatio(0.3);
    m_scalarBar->SetLabelFormat("%.4g");
    m_scalarBar->UnconstrainedFontSizeOn();
    m_scalarBar->GetTitleTextProperty()->SetColor(0.15, 0.17, 0.2);
    m_scalarBar->GetTitleTextProperty()->SetFontSize(12);
    m_scalarBar->GetTitleTextProperty()->BoldOn();
    m_scalarBar->GetTitleTextProperty()->ShadowOff();
    m_scalarBar->GetTitleTextProperty()->ItalicOff();
    m_scalarBar->GetLabelTextProperty()->SetColor(0.15, 0.17, 0.2);
    m_scalarBar->GetLabelTextProperty()->SetFontSize(12);
    m_scalarBar->GetLabelTextProperty()->ShadowOff();
    m_scalarBar->GetLabelTextProperty()->ItalicOff();
    // The limits' marks beside the bar: upright, dark, on a light ground over the scene.
    vtkTextProperty* marks = m_scalarBar->GetAnnotationTextProperty();
    marks->SetColor(0.12, 0.13, 0.16);
    marks->SetFontSize(12);
    marks->ItalicOff();
    marks->BoldOff();
    marks->ShadowOff();
    marks->SetBackgroundColor(1.0, 1.0, 1.0);
    marks->SetBackgroundOpacity(0.75);
    m_scalarBar->SetAnnotationTextScaling(false);
    m_scalarBar->SetAnnotationLeaderPadding(6);
    m_scalarBar->VisibilityOff();
    ren->AddActor2D(m_scalarBar);

    connect(m_colouringBox, &QComboBox::currentIndexChanged, this, [this] {
        m_studio.setColouring(m_colouringBox->currentText());
        recolour();
    });
    connect(&m_studio, &Studio::colouringChanged, this, [this](const QString& name) {
        const int i = m_colouringBox->findText(name);
        if (i >= 0 && i != m_colouringBox->currentIndex())
            m_colouringBox->setCurrentIndex(i);
        else
            recolour(); // same colouring, new range
    });
    connect(&m_studio, &Studio::checksFinished, this, &SceneView::syncFieldColourings);
    connect(m_fixScale, &QToolButton::toggled, this, [this](bool on) {
        const int idx = std::max(0, m_colouringBox->currentIndex());
        const auto [lo, hi] = m_colourings[static_cast<std::size_t>(idx)]->range();
        if (on && std::isfinite(lo) && hi > lo)
            m_studio.setFixedRange(m_colouringBox->currentText(), lo, hi);
        else if (!on)
            m_studio.clearFixedRange(m_colouringBox->currentText());
    });
    connect(m_dataRange, &QToolButton::toggled, this,
            [this](bool on) { m_studio.setDataRange(m_colouringBox->currentText(), on); });
    connect(m_vtk, &VtkWidget::clicked, this, &SceneView::pick);
    // Hover: the rack's or part's id and value, after the pointer rests a moment.
    m_vtk->setMouseTracking(true);
    m_vtk->installEventFilter(this);
    m_hoverTimer = new QTimer(this);
    m_hoverTimer->setSingleShot(true);
    m_hoverTimer->setInterval(150);
    connect(m_hoverTimer, &QTimer::timeout, this, &SceneView::hover);
    connect(&m_studio, &Studio::designChanged, this, &SceneView::rebuildGeometry);
    connect(&m_studio, &Studio::documentReplaced, this, [this] {
        m_firstLayout = true;
        rebuildGeometry();
    });
    connect(&m_studio, &Studio::checksFinished, this, &SceneView::recolour);
    connect(&m_studio, &Studio::fieldsChanged, this, [this] {
        syncFieldColourings();
        recolour();
    });
    connect(&m_studio, &Studio::checksFinished, this, &SceneView::syncField);
    syncFieldColourings();
    connect(&m_studio, &Studio::selectionChanged, this, &SceneView::updateHighlight);
    rebuildGeometry();
}

SceneView::~SceneView()
{
    m_vtk->renderer()->RemoveObserver(m_detailObserver);
}

void SceneView::addColouring(std::unique_ptr<editor::Colouring> c)
{
    m_colouringBox->addItem(QString::fromStdString(c->name()));
    m_colourings.push_back(std::move(c));
}

void SceneView::syncFieldColourings()
{
    if (const auto* fields = m_studio.fields())
        for (const core::PartField& f : *fields)
            if (m_colouringBox->findText(QString::fromStdString(f.name)) < 0)
                addColouring(std::make_unique<editor::FieldColouring>(f.name));
    // A colouring chosen before its results existed (--colour-by at start-up) applies once they do.
    const int want = m_colouringBox->findText(m_studio.colouring());
    if (want >= 0 && want != m_colouringBox->currentIndex())
        m_colouringBox->setCurrentIndex(want);
}

void SceneView::fixScale(bool on)
{
    m_fixScale->setChecked(on);
}

QStringList SceneView::colouringNames() const
{
    QStringList out;
    for (int i = 0; i < m_colouringBox->count(); ++i)
        out << m_colouringBox->itemText(i);
    return out;
}

QPoint SceneView::worldOnScreen(const std::array<double, 3>& w) const
{
    vtkRenderer* ren = m_vtk->renderer();
    ren->SetWorldPoint(w[0], w[1], w[2], 1.0);
    ren->WorldToDisplay();
    double d[3];
    ren->GetDisplayPoint(d);
    const double ratio = m_vtk->devicePixelRatioF();
    return {static_cast<int>(d[0] / ratio), m_vtk->height() - static_cast<int>(d[1] / ratio)};
}

QPoint SceneView::partOnScreen(int rack, int slot) const
{
    for (const core::Box& b : m_geometry.parts)
        if (b.rack == rack && b.slot == slot) {
            vtkRenderer* ren = m_vtk->renderer();
            ren->SetWorldPoint((b.min[0] + b.max[0]) / 2, b.min[1], (b.min[2] + b.max[2]) / 2, 1.0);
            ren->WorldToDisplay();
            double d[3];
            ren->GetDisplayPoint(d);
            const double ratio = m_vtk->devicePixelRatioF();
            return {static_cast<int>(d[0] / ratio), m_vtk->height() - static_cast<int>(d[1] / ratio)};
        }
    return {-1, -1};
}

void SceneView::syncField()
{
    // The iso-surface at the design's recommended inlet limit (ASHRAE class).
    // No higher than the derated allowable at the site's altitude (as RCI_HI takes it).
    const core::Site& site = m_studio.design().site;
    const thermal::InletRange rec = thermal::ashraeRecommended(site.ashraeClass);
    const double isoC =
        rec.maxK > 0 ? thermal::rciHiBounds(site.ashraeClass, site.altitudeM).recommendedMaxK - 273.15 : 27.0;
    m_field->setResult(m_studio.thermal(), isoC);
    m_isoBox->setText(tr("Iso-surface %1 degC").arg(isoC, 0, 'f', 0));
    m_fieldBar->setVisible(m_field->hasField());
    m_vtk->update();
}

void SceneView::setFieldView(bool slice, bool streamlines, bool iso, int axis, double fraction)
{
    const QSignalBlocker b1(m_sliceBox), b2(m_linesBox), b3(m_isoBox), b4(m_sliceSlider), b5(m_sliceAxis);
    m_sliceBox->setChecked(slice);
    m_linesBox->setChecked(streamlines);
    m_isoBox->setChecked(iso);
    m_sliceAxis->setCurrentIndex(std::clamp(axis, 0, 2));
    m_sliceSlider->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 100)));
    m_field->setSlice(axis, fraction);
    m_field->setVisible(slice, streamlines, iso);
    m_vtk->update();
}

bool SceneView::scalarBarShown() const
{
    return m_scalarBar->GetVisibility() != 0;
}

QString SceneView::colouringName() const
{
    return m_colouringBox->currentText();
}

int SceneView::actorCount() const
{
    return m_vtk->renderer()->GetActors()->GetNumberOfItems();
}

void SceneView::rebuildGeometry()
{
    m_geometry = core::computeLayout(m_studio.design());
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto quads = vtkSmartPointer<vtkCellArray>::New();
    pts->Allocate(static_cast<vtkIdType>(m_geometry.parts.size() * 8));
    for (const core::Box& b : m_geometry.parts)
        addBox(pts, quads, b, false);
    m_parts->SetPoints(pts);
    m_parts->SetPolys(quads);
    auto fpts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (const core::Box& b : m_geometry.frames)
        addBox(fpts, lines, b, true);
    m_frames->SetPoints(fpts);
    m_frames->SetLines(lines);
    m_hall->setLayout(m_studio.design(), m_geometry);
    // A floor under the layout.
    if (!m_floorActor) {
        auto floor = vtkSmartPointer<vtkPolyData>::New();
        m_floorActor = makeActor(floor);
        m_floorActor->GetProperty()->SetColor(0.88, 0.89, 0.91);
        m_floorActor->GetProperty()->SetAmbient(0.6);
        m_floorActor->GetProperty()->SetDiffuse(0.4);
        m_floorActor->PickableOff();
        m_vtk->renderer()->AddActor(m_floorActor);
    }
    {
        auto floor = vtkPolyData::SafeDownCast(m_floorActor->GetMapper()->GetInput());
        auto p = vtkSmartPointer<vtkPoints>::New();
        auto c = vtkSmartPointer<vtkCellArray>::New();
        const double m = 1.5;
        p->InsertNextPoint(m_geometry.boundsMin[0] - m, m_geometry.boundsMin[1] - m, -0.002);
        p->InsertNextPoint(m_geometry.boundsMax[0] + m, m_geometry.boundsMin[1] - m, -0.002);
        p->InsertNextPoint(m_geometry.boundsMax[0] + m, m_geometry.boundsMax[1] + m, -0.002);
        p->InsertNextPoint(m_geometry.boundsMin[0] - m, m_geometry.boundsMax[1] + m, -0.002);
        const vtkIdType ids[4] = {0, 1, 2, 3};
        c->InsertNextCell(4, ids);
        floor->SetPoints(p);
        floor->SetPolys(c);
        floor->Modified();
    }
    recolour();
    updateHighlight();
    if (m_firstLayout) {
        m_firstLayout = false;
        setCamera(Preset::Iso);
    }
    m_vtk->update();
}

void SceneView::recolour()
{
    const int idx = std::max(0, m_colouringBox->currentIndex());
    editor::Colouring& c = *m_colourings[static_cast<std::size_t>(idx)];
    const editor::ColourContext ctx = m_studio.colourContext();
    c.prepare(ctx);
    // Each rack as one box at hall scale: its worst part's colour on this colouring.
    std::vector<editor::Rgb> rackColour(m_geometry.frames.size(), editor::noDataColour());
    std::vector<double> rackBad(m_geometry.frames.size(), -1.0);
    auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colours->SetNumberOfComponents(3);
    colours->SetName("colour");
    colours->SetNumberOfTuples(static_cast<vtkIdType>(m_geometry.parts.size() * kFacesPerBox));
    vtkIdType cell = 0;
    for (const core::Box& b : m_geometry.parts) {
        const editor::Rgb rgb = c.partColour(ctx, b.rack, b.slot);
        if (b.rack >= 0 && static_cast<std::size_t>(b.rack) < rackBad.size())
            if (const double bad = c.badness(ctx, b.rack, b.slot); bad > rackBad[static_cast<std::size_t>(b.rack)]) {
                rackBad[static_cast<std::size_t>(b.rack)] = bad;
                rackColour[static_cast<std::size_t>(b.rack)] = rgb;
            }
        for (int f = 0; f < kFacesPerBox; ++f, ++cell)
            colours->SetTypedTuple(cell, std::array<unsigned char, 3>{static_cast<unsigned char>(rgb.r * 255),
                                                                      static_cast<unsigned char>(rgb.g * 255),
                                                                      static_cast<unsigned char>(rgb.b * 255)}
                                             .data());
    }
    m_parts->GetCellData()->SetScalars(colours);
    m_parts->Modified();
    m_hall->setRackColours(rackColour);
    updateScalarBar(c);
    updateLegend();
    {
        // Limits' scale by default; the data's range on request, and only then a range to fix.
        const auto* field = dynamic_cast<const editor::FieldColouring*>(&c);
        const bool anchorable = c.field() && c.field()->anchored();
        const QSignalBlocker block(m_fixScale), block2(m_dataRange);
        m_dataRange->setEnabled(anchorable);
        m_dataRange->setChecked(anchorable && !field->anchoredScale());
        m_fixScale->setEnabled(c.field() != nullptr && !(field && field->anchoredScale()));
        m_fixScale->setChecked(m_studio.fixedRanges().count(c.name()) > 0);
    }
    m_vtk->update();
}

void SceneView::updateHighlight()
{
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    const editor::SubjectRef ref = m_studio.subjects().resolve(m_studio.selection().toStdString());
    if (ref.rack >= 0) {
        for (const core::Box& b : m_geometry.parts)
            if (b.rack == ref.rack && (ref.slot < 0 || b.slot == ref.slot))
                addBox(pts, lines, b, true, 0.004);
        if (ref.slot < 0 && ref.rack < static_cast<int>(m_geometry.frames.size()))
            addBox(pts, lines, m_geometry.frames[static_cast<std::size_t>(ref.rack)], true, 0.01);
    }
    m_highlight->SetPoints(pts);
    m_highlight->SetLines(lines);
    m_highlight->Modified();
    m_vtk->update();
}

void SceneView::pick(int x, int y)
{
    auto picker = vtkSmartPointer<vtkCellPicker>::New();
    picker->SetTolerance(0.0005);
    if (!picker->Pick(x, y, 0, m_vtk->renderer()))
        return;
    if (picker->GetActor() == m_hall->rackActor()) {
        const int rack = HallLayer::rackOfCell(picker->GetCellId());
        if (rack >= 0 && rack < static_cast<int>(m_studio.design().racks.size()))
            m_studio.select(QString::fromStdString(m_studio.design().racks[static_cast<std::size_t>(rack)].id));
        return;
    }
    if (picker->GetActor() != m_partsActor)
        return;
    const vtkIdType box = picker->GetCellId() / kFacesPerBox;
    if (box < 0 || box >= static_cast<vtkIdType>(m_geometry.parts.size()))
        return;
    const core::Box& b = m_geometry.parts[static_cast<std::size_t>(box)];
    m_studio.select(QString::fromStdString(m_studio.subjects().idOf(b.rack, b.slot)));
}

void SceneView::setCamera(Preset p)
{
    vtkRenderer* ren = m_vtk->renderer();
    vtkCamera* cam = ren->GetActiveCamera();
    const auto& lo = m_geometry.boundsMin;
    const auto& hi = m_geometry.boundsMax;
    const double cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2, cz = (lo[2] + hi[2]) / 2;
    const double span = std::max({hi[0] - lo[0], hi[1] - lo[1], 3.0});
    cam->SetFocalPoint(cx, cy, cz);
    switch (p) {
    case Preset::Front: // looking at the cold-aisle face, along +y
        cam->SetPosition(cx, lo[1] - 1.6 * span, cz);
        cam->SetViewUp(0, 0, 1);
        break;
    case Preset::Top:
        cam->SetPosition(cx, cy, hi[2] + 1.6 * span);
        cam->SetViewUp(0, 1, 0);
        break;
    case Preset::Iso:
        cam->SetPosition(cx - 0.75 * span, lo[1] - 0.95 * span, hi[2] + 0.75 * span);
        cam->SetViewUp(0, 0, 1);
        break;
    }
    cam->SetViewAngle(22.0);
    // Front and Top are drawings: orthographic, rows and racks at their true proportions.
    cam->SetParallelProjection(p != Preset::Iso);
    ren->ResetCamera(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    cam->Zoom(0.82); // a margin around the layout
    // The layout left of the scalar bar: the image shifted by 13 % of the view's width.
    cam->SetWindowCenter(0.26, 0.0);
    ren->ResetCameraClippingRange();
    m_vtk->update();
}

bool SceneView::frameField(bool onlyInLargerLayout)
{
    std::array<double, 6> b{};
    if (!m_field->roomBounds(b))
        return false;
    const auto& lo = m_geometry.boundsMin;
    const auto& hi = m_geometry.boundsMax;
    if (onlyInLargerLayout && (hi[0] - lo[0]) * (hi[1] - lo[1]) <= 2.0 * (b[1] - b[0]) * (b[3] - b[2]))
        return false;
    vtkRenderer* ren = m_vtk->renderer();
    vtkCamera* cam = ren->GetActiveCamera();
    double dir[3];
    cam->GetDirectionOfProjection(dir);
    const double c[3] = {(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2};
    cam->SetFocalPoint(c);
    cam->SetPosition(c[0] - dir[0], c[1] - dir[1], c[2] - dir[2]);
    ren->ResetCamera(b.data());
    cam->Zoom(1.15); // the room fills the view; the rest of the hall around it
    ren->ResetCameraClippingRange();
    m_vtk->update();
    return true;
}

void SceneView::frame(const QString& id)
{
    const editor::SubjectRef ref = m_studio.subjects().resolve(id.toStdString());
    if (ref.rack < 0 || ref.rack >= static_cast<int>(m_geometry.frames.size()))
        return;
    const core::Box& b = m_geometry.frames[static_cast<std::size_t>(ref.rack)];
    vtkCamera* cam = m_vtk->renderer()->GetActiveCamera();
    double dir[3];
    cam->GetDirectionOfProjection(dir);
    const double c[3] = {(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2};
    const double dist = ref.slot >= 0 ? 4.0 : 6.5;
    cam->SetFocalPoint(c);
    cam->SetPosition(c[0] - dir[0] * dist, c[1] - dir[1] * dist, c[2] - dir[2] * dist);
    m_vtk->renderer()->ResetCameraClippingRange();
    m_vtk->update();
}

} // namespace rdt::gui
