// rdt-studio under Xvfb: issue 34 (plots). The statistical eye draws its BER contours from the
// COM eye (1e-9 and 1e-12 included), every LinePlot's axes carry a unit and no text is cut, the
// legend stays off the curves, and the Sweep plot keeps most of its panel at 1280 × 720.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QFontMetrics>
#include <QImage>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "gui/LinePlot.h"
#include "gui/MainWindow.h"
#include "gui/SignalPanel.h"
#include "gui/Studio.h"
#include "gui/SweepPanel.h"

using namespace rdt;

static const QString kData = RDT_SOURCE_DIR "/data";

namespace {

/// A window of the given size on a private recovery folder, without modal dialogs.
struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<gui::MainWindow> window;
    explicit Fixture(QSize size)
    {
        qputenv("RDT_STUDIO_RECOVERY_DIR", (dir.path() + "/recovery").toUtf8());
        window = std::make_unique<gui::MainWindow>(kData + "/catalog", false);
        window->resize(size);
        window->show();
        settle();
    }
    static void settle()
    {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
    }
};

/// Pixels within `tol` (per channel) of `c` in rectangle `r` of `img`.
int pixelsNear(const QImage& img, const QRect& r, const QColor& c, int tol)
{
    int n = 0;
    const QRect box = r.intersected(img.rect());
    for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) <= tol && std::abs(p.green() - c.green()) <= tol &&
                 std::abs(p.blue() - c.blue()) <= tol;
        }
    return n;
}

const gui::LinePlot::Series* seriesNamed(const gui::LinePlot& plot, const QString& label)
{
    for (const gui::LinePlot::Series& s : plot.series())
        if (s.label == label)
            return &s;
    return nullptr;
}

/// Every axis titled with a unit in parentheses; no tick label, title or legend text cut or
/// outside the widget; the legend outside the data area and off the curves.
void checkPlotText(const gui::LinePlot& plot, const std::string& what)
{
    INFO(what << ": " << plot.width() << " x " << plot.height() << " px");
    const QRegularExpression unit(R"(\S.*\(.+\)$)");
    CHECK(unit.match(plot.xLabel()).hasMatch());
    CHECK(unit.match(plot.yLabel()).hasMatch());
    const QFontMetrics fm(plot.font());
    const gui::LinePlot::Layout L = plot.layout();
    const QRectF widget = plot.rect();
    INFO("x title \"" << plot.xLabel().toStdString() << "\", y title \"" << plot.yLabel().toStdString() << "\"");
    CHECK(L.xTitle.text == plot.xLabel()); // not elided
    CHECK(fm.horizontalAdvance(L.xTitle.text) <= L.xTitle.rect.width());
    CHECK(widget.contains(L.xTitle.rect));
    REQUIRE(!L.yTitle.empty());
    QString joined;
    for (const gui::LinePlot::Text& t : L.yTitle) {
        joined += (joined.isEmpty() ? "" : " ") + t.text;
        CHECK(fm.horizontalAdvance(t.text) <= t.rect.height()); // along the rotated axis
        CHECK(t.rect.height() <= L.area.height() + 1);
        CHECK(widget.contains(t.rect));
    }
    CHECK(joined == plot.yLabel()); // wrapped, not elided
    if (L.hasData) {
        CHECK(L.xTicks.size() >= 2);
        CHECK(L.yTicks.size() >= 2);
    }
    for (const std::vector<gui::LinePlot::Text>* ticks : {&L.xTicks, &L.yTicks})
        for (const gui::LinePlot::Text& t : *ticks) {
            INFO("tick \"" << t.text.toStdString() << "\"");
            CHECK(fm.horizontalAdvance(t.text) <= t.rect.width());
            CHECK(widget.contains(t.rect));
            CHECK_FALSE(t.rect.intersects(L.yTitleBox));
            CHECK_FALSE(t.rect.intersects(L.area.adjusted(1, 1, -1, -1)));
        }
    for (std::size_t i = 1; i < L.xTicks.size(); ++i)
        CHECK(L.xTicks[i - 1].rect.right() < L.xTicks[i].rect.left()); // labels do not touch
    for (const gui::LinePlot::Text& t : L.title)
        CHECK(QFontMetrics([&] {
                  QFont f = plot.font();
                  f.setBold(true);
                  return f;
              }())
                  .horizontalAdvance(t.text) <= t.rect.width());
    if (!L.legend.isEmpty()) {
        CHECK(widget.contains(L.legend));
        CHECK_FALSE(L.legend.intersects(L.area));
        CHECK_FALSE(L.legend.intersects(plot.curvesRect()));
        CHECK_FALSE(L.legend.intersects(L.xTitle.rect));
        for (const gui::LinePlot::Text& t : L.legendEntries)
            CHECK(fm.horizontalAdvance(t.text) <= t.rect.width());
    }
}

} // namespace

TEST_CASE("an eye contour closes where the opening crosses zero and is empty when the eye is shut",
          "[gui][plots]")
{
    const std::vector<double> phase{-0.5, -0.25, 0, 0.25, 0.5};
    std::vector<double> x, y;
    // Open at the centre only: a closed diamond through the interpolated zero crossings.
    gui::eyeContour(phase, {-0.003, -0.001, 0.002, -0.002, -0.004}, 1e3, x, y);
    REQUIRE(x.size() == 5);
    CHECK(x.front() == Approx(-0.25 + 0.001 / 0.003 * 0.25)); // left crossing
    CHECK(y.front() == 0);
    CHECK(x[1] == 0);
    CHECK(y[1] == Approx(2.0)); // mV: the eye spans ± the opening
    CHECK(x[2] == Approx(0.125));
    CHECK(y[2] == 0);
    CHECK(y[3] == Approx(-2.0));
    CHECK(x.back() == x.front());
    CHECK(y.back() == 0);
    // Shut at every phase: no curve at all.
    gui::eyeContour(phase, {-1, -1, -1, -1, -1}, 1e3, x, y);
    CHECK(x.empty());
    // Open at the window's edge: not closed there (no crossing invented), closed at the other end.
    gui::eyeContour(phase, {0.001, 0.002, -0.001, -1, -1}, 1, x, y);
    REQUIRE(x.size() == 5);
    CHECK(x.front() == -0.5);
    CHECK(y.front() == Approx(0.001));
    CHECK(x.back() == -0.5);
    CHECK(y.back() == Approx(-0.001));
}

TEST_CASE("the statistical eye draws every BER contour, 1e-9 and 1e-12 included, with a legend off the curves",
          "[gui][plots]")
{
    for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
        Fixture f(size);
        REQUIRE(f.window->openFile(kData + "/designs/meta-24k-roce.yaml"));
        f.window->waitForChecks();
        REQUIRE(f.window->showPanel("signal"));
        gui::SignalPanel* panel = f.window->signalPanel();
        panel->showTab("eye"); // the first class (PCIe) has no eye: the copper class is shown
        Fixture::settle();
        const auto sig = f.window->studio().signal();
        REQUIRE(sig);
        const int row = panel->table()->currentRow();
        REQUIRE(row >= 0);
        const signal::LinkVerdict& v = sig->links[static_cast<std::size_t>(row)];
        REQUIRE(v.kind == "copper");
        gui::LinePlot* plot = panel->eyePlot();
        REQUIRE(plot->isVisible());
        INFO("window " << size.width() << " x " << size.height());
        checkPlotText(*plot, "eye");
        CHECK(plot->yLabel().contains("(mV)"));
        const QImage img = plot->grab().toImage();
        const QRect area = plot->plotArea().toAlignedRect();
        for (std::size_t b = 0; b < v.eyeBer.size(); ++b) {
            const long exponent = std::lround(std::log10(v.eyeBer[b]));
            const gui::LinePlot::Series* s = seriesNamed(*plot, QString("BER 1e%1").arg(exponent));
            INFO("BER 1e" << exponent);
            REQUIRE(s);
            // The model: open around the centre at every BER down to 1e-12 for this channel.
            double widest = 0;
            for (double o : v.eyeOpeningV[b])
                widest = std::max(widest, o);
            REQUIRE(widest > 0);
            REQUIRE(s->x.size() >= 5);
            // A closed contour, as tall as the eye is open, ending where the opening reaches 0 V.
            CHECK(s->x.front() == s->x.back());
            CHECK(s->y.front() == 0);
            CHECK(*std::max_element(s->y.begin(), s->y.end()) == Approx(widest * 1e3));
            CHECK(*std::min_element(s->y.begin(), s->y.end()) == Approx(-widest * 1e3));
            // Drawn: its colour in the data area, and at its closing point on the threshold line.
            CHECK(pixelsNear(img, area.adjusted(2, 2, -2, -2), s->colour, 24) >= 20);
            const QPoint tip = plot->toPixel(s->x.front(), 0).toPoint();
            CHECK(area.contains(tip));
            CHECK(pixelsNear(img, QRect(tip - QPoint(3, 3), QSize(7, 7)), s->colour, 40) >= 1);
        }
        // The rarer the errors, the smaller the eye: contours nest.
        const auto* e9 = seriesNamed(*plot, "BER 1e-9");
        const auto* e12 = seriesNamed(*plot, "BER 1e-12");
        REQUIRE(e9);
        REQUIRE(e12);
        CHECK(*std::max_element(e12->y.begin(), e12->y.end()) < *std::max_element(e9->y.begin(), e9->y.end()));
        // The legend's entries are the contours', outside the data and beside no curve.
        const QRectF legend = plot->legendRect();
        REQUIRE(!legend.isEmpty());
        CHECK_FALSE(legend.intersects(plot->curvesRect()));
        CHECK_FALSE(legend.intersects(plot->plotArea()));
        CHECK(plot->layout().legendEntries.size() == v.eyeBer.size());
    }
}

TEST_CASE("every signal plot has titled axes with units and no cut text", "[gui][plots]")
{
    Fixture f(QSize(1280, 720));
    REQUIRE(f.window->openFile(kData + "/designs/single-rack.yaml"));
    f.window->waitForChecks();
    REQUIRE(f.window->showPanel("signal"));
    gui::SignalPanel* panel = f.window->signalPanel();
    REQUIRE(f.window->openTouchstone(kData + "/channels/kr4-example2/example2_THRU.s4p"));
    const auto sig = f.window->studio().signal();
    REQUIRE(sig);
    for (int row = 0; row < panel->table()->rowCount(); ++row) {
        panel->table()->setCurrentCell(row, 0);
        for (const QString tab : {"loss", "pulse", "eye", "touchstone"}) {
            panel->showTab(tab);
            Fixture::settle();
            for (gui::LinePlot* plot : panel->findChildren<gui::LinePlot*>())
                if (plot->isVisible())
                    checkPlotText(*plot, (tab + " of row " + QString::number(panel->table()->currentRow())).toStdString());
        }
    }
}

TEST_CASE("the sweep plot keeps most of its panel and its legend off the data at 1280 x 720 and 1600 x 1000",
          "[gui][plots]")
{
    QTemporaryDir dir;
    const std::string spec = (dir.path() + "/s.yaml").toStdString(), out = (dir.path() + "/s.h5").toStdString();
    std::ofstream(spec) << "sweep: 1\ndesign: " RDT_SOURCE_DIR "/data/designs/single-rack.yaml\naxes:\n"
                           "  - {axis: inlet, values: [20 degC, 30 degC, 40 degC]}\n"
                           "  - {axis: gpu_cap, values: [450 W, 500 W, 600 W, 700 W]}\n"
                           "  - {axis: fan_fail, values: [0, 1]}\n";
    REQUIRE(std::system(("cd " RDT_SOURCE_DIR " && " RDT_BIN_DIR "/rdt sweep " + spec + " -o " + out + " > /dev/null")
                            .c_str()) == 256); // exit 1: the 40 degC variants violate thermal.inlet.chassis
    for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
        Fixture f(size);
        REQUIRE(f.window->openSweep(QString::fromStdString(out)));
        gui::SweepPanel* p = f.window->sweepPanel();
        Fixture::settle();
        INFO("window " << size.width() << " x " << size.height() << ", panel " << p->width() << " x " << p->height());
        for (const QString& axis : p->axisChoices())
            for (const QString& result : p->resultChoices()) {
                REQUIRE(p->plot(axis, result));
                Fixture::settle();
                gui::LinePlot* plot = p->chart();
                INFO(axis.toStdString() << " -> " << result.toStdString());
                CHECK(plot->seriesCount() == (axis == "inlet" ? 8 : axis == "gpu_cap" ? 6 : 12));
                checkPlotText(*plot, "sweep");
                // The data area keeps at least 60 % of the panel's height.
                CHECK(plot->plotArea().height() >= 0.6 * p->height());
                CHECK(plot->plotArea().width() >= 0.5 * p->width());
                const QRectF legend = plot->legendRect();
                REQUIRE(!legend.isEmpty());
                CHECK_FALSE(legend.intersects(plot->plotArea()));
            }
    }
}
