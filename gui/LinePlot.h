#pragma once
/// \file LinePlot.h
/// A small x–y line plot drawn with QPainter: titled axes with units, nice ticks, optional log x,
/// a legend, and lines of any number of series. Used by the signal panel for insertion loss,
/// pulse response, statistical eye contours and S-parameters.

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace rdt::gui {

class LinePlot : public QWidget {
    Q_OBJECT
public:
    struct Series {
        QString label;
        std::vector<double> x, y;
        QColor colour;
        bool dashed = false;
    };
    explicit LinePlot(QWidget* parent = nullptr);
    void setTitle(const QString& title) { m_title = title; }
    void setAxes(const QString& xLabel, const QString& yLabel)
    {
        m_xLabel = xLabel;
        m_yLabel = yLabel;
    }
    void setSeries(std::vector<Series> series);
    /// Series drawn (tests).
    int seriesCount() const { return static_cast<int>(m_series.size()); }
    QSize minimumSizeHint() const override { return {260, 150}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString m_title, m_xLabel, m_yLabel;
    std::vector<Series> m_series;
};

/// Distinct colours for series in order.
QColor seriesColour(int index);

} // namespace rdt::gui
