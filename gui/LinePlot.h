#pragma once
/// \file LinePlot.h
/// A small x–y line plot drawn with QPainter: titled axes with units, nice ticks, a legend outside
/// the data area, and lines of any number of series. Used by the signal panel for insertion loss,
/// pulse response, statistical eye contours and S-parameters, and by the sweep panel.
///
/// The layout (data area, tick labels, axis titles, legend) is computed from the widget's font
/// and size so that no text is cut: the left margin holds the widest y tick label, the y title
/// wraps onto a second line (or is elided in its middle, keeping the unit) when the data area is
/// shorter than it, and the legend goes to the right of the data area when it fits there, below
/// the x title otherwise. `layout()` exposes it for tests.

#include <QColor>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

namespace rdt::gui {

class LinePlot : public QWidget {
    Q_OBJECT
public:
    struct Series {
        QString label;
        std::vector<double> x, y; ///< NaN in either breaks the line
        QColor colour;
        bool dashed = false;
    };
    /// A piece of text and the rectangle it is drawn in (widget pixels).
    struct Text {
        QString text;
        QRectF rect;
    };
    /// Where everything goes at the widget's current size.
    struct Layout {
        QRectF area;                 ///< the data area (frame)
        std::vector<Text> title;     ///< one or two lines
        Text xTitle;                 ///< below the x tick labels
        std::vector<Text> yTitle;    ///< one or two lines, drawn rotated; rect is the line's
                                     ///< footprint: one line height wide, its length tall
        QRectF yTitleBox;            ///< the y title's footprint in widget pixels (rotated)
        std::vector<Text> xTicks, yTicks;
        std::vector<double> xTickValues; ///< per x tick label, its value
        QRectF legend;               ///< empty when there is no legend
        std::vector<Text> legendEntries; ///< label text and the rect of its text
        std::vector<int> legendSeries;   ///< per entry: index of its first series, -1 the title
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0; ///< data range mapped onto `area`
        bool hasData = false;
    };

    explicit LinePlot(QWidget* parent = nullptr);
    void setTitle(const QString& title)
    {
        m_title = title;
        update();
    }
    void setAxes(const QString& xLabel, const QString& yLabel)
    {
        m_xLabel = xLabel;
        m_yLabel = yLabel;
        update();
    }
    /// Fix the x range (e.g. the eye's whole UI) instead of fitting it to the data.
    void setXRange(double lo, double hi)
    {
        m_xRange = std::make_pair(lo, hi);
        update();
    }
    void clearXRange() { m_xRange.reset(); }
    void setSeries(std::vector<Series> series);
    /// A heading for the legend's entries (e.g. the names of the values its labels list).
    void setLegendTitle(const QString& title)
    {
        m_legendTitle = title;
        update();
    }

    const QString& title() const { return m_title; }
    const QString& xLabel() const { return m_xLabel; }
    const QString& yLabel() const { return m_yLabel; }
    const std::vector<Series>& series() const { return m_series; }
    /// Series drawn (tests).
    int seriesCount() const { return static_cast<int>(m_series.size()); }
    /// The layout at the current size.
    Layout layout() const;
    /// Data area, legend, and the bounding rectangle of every drawn point (widget pixels).
    QRectF plotArea() const { return layout().area; }
    QRectF legendRect() const { return layout().legend; }
    QRectF curvesRect() const;
    /// Pixel position of a data point at the current layout.
    QPointF toPixel(double x, double y) const;

    QSize minimumSizeHint() const override { return {300, 170}; }
    QSize sizeHint() const override { return {560, 300}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString m_title, m_xLabel, m_yLabel, m_legendTitle;
    std::optional<std::pair<double, double>> m_xRange;
    std::vector<Series> m_series;
};

/// Distinct colours for series in order.
QColor seriesColour(int index);

} // namespace rdt::gui
