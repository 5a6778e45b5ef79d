// rdt-studio under Xvfb (issue 34): colours anchored to the limits they judge, read back from the
// rendered pixels; hall scale; legends and scales whole at 1280 × 720 and 1600 × 1000.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QDir>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QTemporaryDir>
#include <QTextDocument>

#include <cmath>
#include <map>
#include <set>

#include "editor/Colouring.h"
#include "gui/ElevationView.h"
#include "gui/HallLayer.h"
#include "gui/MainWindow.h"
#include "gui/SceneView.h"
#include "gui/Studio.h"
#include "gui/VtkWidget.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

using namespace rdt;

namespace {

const QString kData = RDT_SOURCE_DIR "/data";
const QString kFixtures = RDT_SOURCE_DIR "/tests/fixtures/studio";

struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<gui::MainWindow> window;
    explicit Fixture(QSize size = {1600, 1000})
    {
        qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
        window = std::make_unique<gui::MainWindow>(kData + "/catalog", false);
        window->resize(size);
        window->show();
        QApplication::processEvents();
    }
};

/// Keep a picture of what a test judged: build/test-shots/NAME.png (the tests' output a reviewer
/// looks at; issue 34's closing note names them).
void keep(const QImage& img, const QString& name)
{
    const QString dir = RDT_BIN_DIR "/../test-shots";
    QDir().mkpath(dir);
    img.save(dir + "/" + name + ".png");
}

/// The band a rendered pixel shows, by hue: fail red, near amber, pass blue, grey (no figure).
using Band = core::PartField::Band;
Band bandOfPixel(const QColor& c)
{
    const int hue = c.hsvHue(), sat = c.hsvSaturation();
    if (sat < 50)
        return Band::None;
    if (hue >= 340 || hue <= 12)
        return Band::Fail;
    if (hue >= 18 && hue <= 55)
        return Band::Near;
    if (hue >= 190 && hue <= 240)
        return Band::Pass;
    return Band::None; // something else: never expected on a part
}

const char* name(Band b)
{
    switch (b) {
    case Band::Fail: return "fail";
    case Band::Near: return "near";
    case Band::Pass: return "pass";
    default: return "none";
    }
}

/// Every anchored colouring of the open design, front view: each part with a figure shows its own
/// band's colour. Returns how many parts were seen in each band.
std::map<Band, int> checkEveryPart(gui::MainWindow& w, std::map<std::string, std::map<Band, int>>* byField = nullptr,
                                   const QString& shots = QString())
{
    std::map<Band, int> seen;
    gui::SceneView* scene = w.scene();
    const core::Design& d = w.studio().design();
    for (const core::PartField& field : *w.studio().fields()) {
        if (!field.anchored())
            continue;
        w.studio().setColouring(QString::fromStdString(field.name));
        scene->setCamera(gui::SceneView::Preset::Front);
        QApplication::processEvents();
        REQUIRE_FALSE(scene->racksAsBoxes());
        const QImage img = scene->vtk()->grabFramebuffer();
        if (!shots.isEmpty())
            keep(w.grab().toImage(), shots + "-" + QString::fromStdString(field.name).replace(' ', '-').toLower());
        const double dpr = img.devicePixelRatio();
        for (int r = 0; r < static_cast<int>(d.racks.size()); ++r)
            for (int s = 0; s < static_cast<int>(d.racks[static_cast<std::size_t>(r)].slots.size()); ++s) {
                const double v = field.at(r, s);
                if (std::isnan(v))
                    continue; // no figure; an unbounded one (no air through a chassis) is judged
                Band want = field.band(r, s);
                if (!field.limits.empty() && !std::isfinite(field.limitAt(r, s)) && !std::isfinite(field.nearAt(r, s)))
                    want = Band::None;
                const QPoint p = scene->partOnScreen(r, s);
                const QPoint px(static_cast<int>(p.x() * dpr), static_cast<int>((p.y() - 2) * dpr));
                if (!img.rect().contains(px))
                    continue;
                const QColor c = img.pixelColor(px);
                INFO(field.name << " " << d.racks[static_cast<std::size_t>(r)].slots[static_cast<std::size_t>(s)].id
                                << " = " << v << " " << field.unit << " (limit " << field.limitAt(r, s) << ", near "
                                << field.nearAt(r, s) << "): pixel " << c.name().toStdString() << " reads "
                                << name(bandOfPixel(c)) << ", want " << name(want));
                CHECK(bandOfPixel(c) == want);
                ++seen[want];
                if (byField)
                    ++(*byField)[field.name][want];
            }
    }
    return seen;
}

} // namespace

TEST_CASE("every result colouring is anchored to its limits: each part is painted in its own band",
          "[gui][colours]")
{
    // broken-rack: chassis inlets over the A2 allowable (38.7 °C > 35 °C: thermal.inlet.chassis),
    // GPU junctions between the 79 °C setpoint and the 87 °C maximum (near), the busbar at 130 % of
    // its rating, no battery (hold-up 0 s < 90 s).
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/broken-rack.yaml"));
    f.window->waitForChecks();
    std::map<std::string, std::map<Band, int>> byField;
    checkEveryPart(*f.window, &byField, "broken-rack");
    CHECK(byField["Inlet temperature"][Band::Fail] >= 5);
    CHECK(byField["GPU junction"][Band::Near] >= 4);
    CHECK(byField["Busbar current"][Band::Fail] >= 1);
    CHECK(byField["Battery hold-up"][Band::Fail] >= 1);
    CHECK(byField["Rack load vs N+1"][Band::Fail] >= 1);
    // The elevation paints with the same scale: the shown rack's slots in their own bands.
    gui::ElevationView* elevation = f.window->elevation();
    for (const char* colouring : {"Inlet temperature", "Busbar current", "GPU junction"}) {
        f.window->studio().setColouring(colouring);
        QApplication::processEvents();
        const core::PartField* field = nullptr;
        for (const core::PartField& fl : *f.window->studio().fields())
            if (fl.name == colouring)
                field = &fl;
        REQUIRE(field);
        const int rack = f.window->studio().currentRack();
        const core::Rack& shown = f.window->studio().design().racks[static_cast<std::size_t>(rack)];
        for (int s = 0; s < static_cast<int>(shown.slots.size()); ++s)
            if (std::isfinite(field->at(rack, s))) {
                INFO(colouring << " elevation " << shown.slots[static_cast<std::size_t>(s)].id << " fill "
                               << elevation->slotFill(s).name().toStdString());
                CHECK(bandOfPixel(elevation->slotFill(s)) == field->band(rack, s));
            }
    }
    // Under "Problems" the elevation fills each slot as the 3D view does: red for a part with an
    // error (it stayed in part-kind colours, a failing chassis in the chassis' blue).
    f.window->studio().setColouring("Problems");
    QApplication::processEvents();
    {
        auto problems = editor::builtinColourings();
        REQUIRE(problems[1]->name() == "Problems");
        const editor::ColourContext ctx = f.window->studio().colourContext();
        problems[1]->prepare(ctx);
        const int rack = f.window->studio().currentRack();
        const core::Rack& shown = f.window->studio().design().racks[static_cast<std::size_t>(rack)];
        int red = 0;
        for (int s = 0; s < static_cast<int>(shown.slots.size()); ++s) {
            const editor::Rgb c = problems[1]->partColour(ctx, rack, s);
            const QColor want = QColor::fromRgbF(c.r, c.g, c.b);
            CAPTURE(shown.slots[static_cast<std::size_t>(s)].id);
            CHECK(elevation->slotFill(s).name() == want.name());
            red += c.r > 0.8f && c.g < 0.3f ? 1 : 0;
        }
        CHECK(red >= 1); // the shown rack of broken-rack has a part with an error
    }
    // Every part the check reports over a limit is in the fail band of that limit's field.
    for (const core::Violation& v : f.window->studio().violations())
        if (v.rule == "thermal.inlet.chassis" || v.rule == "thermal.inlet.switch") { // rack-a's rtsw at 38.7 degC
            const editor::SubjectRef ref = f.window->studio().subjects().resolve(v.subject);
            REQUIRE(ref.rack >= 0);
            for (const core::PartField& field : *f.window->studio().fields())
                if (field.name == "Inlet temperature")
                    CHECK(field.band(ref.rack, ref.slot) == Band::Fail);
        }
}

TEST_CASE("a chassis with no air through it is red in the junction colourings, not grey", "[gui][colours]")
{
    // gt0 with all 32 rotors failed: its junction is unbounded (+inf, margin -inf). Before, both
    // colourings painted it as "no figure" and ranked it least bad.
    Fixture f;
    REQUIRE(f.window->openFile(kFixtures + "/dead-fans.yaml"));
    f.window->waitForChecks();
    std::map<std::string, std::map<Band, int>> byField;
    checkEveryPart(*f.window, &byField, "dead-fans");
    CHECK(byField["GPU junction"][Band::Fail] == 1);
    bool airflow = false;
    for (const core::Violation& v : f.window->studio().violations())
        airflow = airflow || (v.rule == "thermal.chassis.airflow" && v.subject == "lab/row1/rack1/gt0");
    CHECK(airflow);
}

TEST_CASE("six racks over their N+1 capacity are all red, whatever the other racks do", "[gui][colours]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kFixtures + "/six-over-n1.yaml"));
    f.window->waitForChecks();
    std::map<std::string, std::map<Band, int>> byField;
    checkEveryPart(*f.window, &byField, "six-over-n1");
    // 5 parts a rack, six racks, every one over N+1 (orv3.shelf.n1 fails in each).
    CHECK(byField["Rack load vs N+1"][Band::Fail] == 30);
    CHECK(byField["Rack load vs N+1"][Band::Pass] == 0);
    int n1 = 0;
    for (const core::Violation& v : f.window->studio().violations())
        n1 += v.rule == "orv3.shelf.n1";
    CHECK(n1 == 6);
    // The hot-cold pair: nothing over a limit, so no part is red in any colouring.
    REQUIRE(f.window->openFile(kFixtures + "/hot-cold.yaml"));
    f.window->waitForChecks();
    const auto seen = checkEveryPart(*f.window);
    CHECK(seen.count(Band::Fail) == 0);
    CHECK(seen.at(Band::Pass) > 20);
}

TEST_CASE("the data's range on request: values within the meaningful span are one colour, beyond a limit "
          "still red",
          "[gui][colours]")
{
    Fixture f;
    // The row pair on the rack network: every GPU held at its 79 °C setpoint, the margins to the
    // 87 °C maximum 7.9989–7.9993 K apart by fractions of a mK (they were painted full blue
    // against full red). On the data's range: one colour, and the legend says why.
    REQUIRE(f.window->openFile(kData + "/designs/row-pair.yaml"));
    analysis::RunOptions network = f.window->studio().whatIf();
    network.thermalModel = core::ThermalModel::Network;
    f.window->studio().setWhatIf(network);
    f.window->waitForChecks();
    gui::SceneView* scene = f.window->scene();
    f.window->studio().setColouring("GPU margin to limit");
    scene->setDataRange(true);
    scene->setCamera(gui::SceneView::Preset::Front);
    QApplication::processEvents();
    const core::PartField* margin = nullptr;
    for (const core::PartField& fl : *f.window->studio().fields())
        if (fl.name == "GPU margin to limit")
            margin = &fl;
    REQUIRE(margin);
    double lo = INFINITY, hi = -INFINITY;
    std::vector<std::pair<int, int>> gpus;
    for (int r = 0; r < static_cast<int>(margin->values.size()); ++r)
        for (int s = 0; s < static_cast<int>(margin->values[static_cast<std::size_t>(r)].size()); ++s)
            if (std::isfinite(margin->at(r, s))) {
                lo = std::min(lo, margin->at(r, s));
                hi = std::max(hi, margin->at(r, s));
                gpus.emplace_back(r, s);
            }
    INFO("GPU margins " << lo << " … " << hi << " K");
    REQUIRE(hi > lo);
    REQUIRE(hi - lo < 0.01);
    CHECK(scene->legendLabel()->text().contains("all within 0.1 K"));
    keep(f.window->grab().toImage(), "row-pair-margin-data-range");
    {
        const QImage img = scene->vtk()->grabFramebuffer();
        const double dpr = img.devicePixelRatio();
        std::set<QRgb> colours;
        for (const auto& [r, s] : gpus) {
            const QPoint p = scene->partOnScreen(r, s);
            const QPoint px(static_cast<int>(p.x() * dpr), static_cast<int>((p.y() - 2) * dpr));
            if (img.rect().contains(px))
                colours.insert(img.pixelColor(px).rgb());
        }
        CHECK(colours.size() == 1);
    }
    // On the limits' scale: every one of them passes (7.999 K ≥ 7.95 K, the setpoint's band edge).
    scene->setDataRange(false);
    QApplication::processEvents();
    for (const auto& [r, s] : gpus)
        CHECK(margin->band(r, s) == Band::Pass);
    const auto marks = scene->scaleMarks();
    REQUIRE(marks.size() == 2);
    CHECK(marks[0].second.find("max operating") != std::string::npos);
    CHECK(marks[1].second.find("fan setpoint") != std::string::npos);

    // Part power differs by kilowatts: the data's range orders it (cold bluer than hot).
    REQUIRE(f.window->openFile(kFixtures + "/hot-cold.yaml"));
    f.window->waitForChecks();
    f.window->studio().setColouring("Part power");
    scene->setCamera(gui::SceneView::Preset::Front);
    QApplication::processEvents();
    CHECK(scene->legendLabel()->text().contains("kW"));
    const QImage img2 = scene->vtk()->grabFramebuffer();
    const double dpr = img2.devicePixelRatio();
    const auto warmth = [&](int r, int s) {
        const QPoint p = scene->partOnScreen(r, s);
        const QColor c = img2.pixelColor(static_cast<int>(p.x() * dpr), static_cast<int>((p.y() - 2) * dpr));
        return c.red() - c.blue();
    };
    CHECK(warmth(0, 2) > warmth(1, 2) + 40);
}

TEST_CASE("hall scale: 1,536 racks as solid boxes in their band's colour, labelled, hover names them",
          "[gui][colours][hall]")
{
    Fixture f;
    REQUIRE(f.window->openFile(kData + "/designs/meta-24k-roce.yaml"));
    f.window->waitForChecks();
    gui::SceneView* scene = f.window->scene();
    f.window->studio().setColouring("Inlet temperature");
    scene->setCamera(gui::SceneView::Preset::Iso);
    QApplication::processEvents();
    CHECK(scene->racksAsBoxes());
    // Every chassis inlet is 25.7 °C, within the recommended 27 °C: the hall reads pass blue.
    const auto count = [&](Band b) { // left of the scalar bar (its own bands are not racks)
        const QImage img = scene->vtk()->grabFramebuffer();
        int n = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width() * 3 / 4; x += 2)
                n += bandOfPixel(img.pixelColor(x, y)) == b;
        return n;
    };
    keep(f.window->grab().toImage(), "hall-24k-inlet");
    const int blue = count(Band::Pass);
    INFO("pass-blue pixels (every 2nd) " << blue);
    CHECK(blue > 3000);
    // Labels: the pods over rack boxes.
    const auto& labels = scene->hall()->labels();
    CHECK(std::find(labels.begin(), labels.end(), "pod1") != labels.end());
    // Hover: the rack's id and its worst part's value.
    const QString tip = scene->describe(777, -1);
    CHECK(tip.startsWith(QString::fromStdString(f.window->studio().design().racks[777].id)));
    CHECK(tip.contains("°C"));
    // Front and Top are orthographic, Iso perspective.
    vtkCamera* cam = scene->vtk()->renderer()->GetActiveCamera();
    scene->setCamera(gui::SceneView::Preset::Top);
    CHECK(cam->GetParallelProjection());
    scene->setCamera(gui::SceneView::Preset::Front);
    CHECK(cam->GetParallelProjection());
    scene->setCamera(gui::SceneView::Preset::Iso);
    CHECK_FALSE(cam->GetParallelProjection());
    // A supply at 36 °C puts every chassis over the A2 allowable: the whole hall turns red.
    analysis::RunOptions hot = f.window->studio().whatIf();
    hot.inletK = 36.0 + 273.15;
    f.window->studio().setWhatIf(hot);
    f.window->waitForChecks();
    QApplication::processEvents();
    keep(f.window->grab().toImage(), "hall-24k-inlet-36C");
    const int red = count(Band::Fail);
    INFO("fail-red pixels (every 2nd) " << red);
    CHECK(red > 3000);
    CHECK(count(Band::Pass) < red / 20);
}

TEST_CASE("legends and scale titles are whole at 1280 x 720 and 1600 x 1000", "[gui][colours][layout]")
{
    for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
        Fixture f(size);
        REQUIRE(f.window->openFile(kData + "/designs/broken-rack.yaml"));
        f.window->waitForChecks();
        gui::SceneView* scene = f.window->scene();
        for (const QString& colouring : scene->colouringNames()) {
            CAPTURE(size.width(), colouring.toStdString());
            f.window->studio().setColouring(colouring);
            QApplication::processEvents();
            if (colouring == "Part kind" || colouring == "Rack load vs feed loss")
                keep(f.window->grab().toImage(), QString("layout-%1x%2-").arg(size.width()).arg(size.height()) +
                                                     colouring.toLower().replace(' ', '-'));
            // The legend line: its plain text fits the label's width.
            QLabel* legend = scene->legendLabel();
            QTextDocument doc;
            doc.setHtml(legend->text());
            const QString plain = doc.toPlainText();
            const int need = QFontMetrics(legend->font()).horizontalAdvance(plain);
            INFO("legend \"" << plain.toStdString() << "\" needs " << need << " px of " << legend->width());
            CHECK(need <= legend->width());
            if (colouring == "Part kind")
                CHECK(plain.contains("switch"));
            // The scalar bar's title: no line wider than the room either side of the bar's centre.
            const QString title = scene->scalarBarTitle();
            if (title.isEmpty())
                continue;
            QFont font;
            font.setPixelSize(12);
            font.setBold(true);
            const QFontMetrics fm(font);
            const QPoint anchor = scene->scalarBarTitleAnchor();
            for (const QString& line : title.split('\n')) {
                const int w = fm.horizontalAdvance(line);
                INFO("title line \"" << line.toStdString() << "\" " << w << " px at x " << anchor.x() << " of "
                                     << scene->vtk()->width());
                CHECK(anchor.x() + w / 2 <= scene->vtk()->width());
                CHECK(anchor.x() - w / 2 >= 0);
            }
        }
    }
}

TEST_CASE("a scale mark that states its own value is not prefixed with it again", "[gui][colours]")
{
    // "90% 90 % of capacity" on the CDU load scale (studio trial): the mark reads "90 % of capacity";
    // a mark whose label does not state its value keeps it ("100% capacity").
    Fixture f;
    REQUIRE(f.window->openFile(QString(RDT_SOURCE_DIR "/data/designs/meta-catalina-gb200.yaml")));
    f.window->waitForChecks();
    f.window->studio().setColouring("CDU load vs capacity");
    QApplication::processEvents();
    gui::SceneView* scene = f.window->scene();
    const auto marks = scene->scaleMarks();
    REQUIRE(marks.size() == 2);
    CHECK(marks[0].second == "90 % of capacity");
    CHECK(marks[1].second.rfind("100", 0) == 0);
    CHECK(marks[1].second.find("capacity") != std::string::npos);
}
