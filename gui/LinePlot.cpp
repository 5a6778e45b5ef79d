#include "gui/LinePlot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace rdt::gui {

namespace {

/// About `n` round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, int n)
{
    std::vector<double> out;
    if (!(hi > lo))
        return out;
    const double raw = (hi - lo) / n, mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step)
        out.push_back(std::fabs(v) < 1e-12 * step ? 0.0 : v);
    return out;
}

} // namespace

QColor seriesColour(int i)
{
    static const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40),  QColor(44, 160, 44),
                                     QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75),
                                     QColor(227, 119, 194), QColor(23, 190, 207)};
    return colours[static_cast<std::size_t>(i) % 8];
}

LinePlot::LinePlot(QWidget* parent) : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void LinePlot::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    update();
}

void LinePlot::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const int left = fm.horizontalAdvance("-000.00") + fm.height() + 14, right = 12, top = m_title.isEmpty() ? 10 : fm.height() + 12;
    const int bottom = 2 * fm.height() + 12;
    const QRectF area(left, top, std::max(40, width() - left - right), std::max(40, height() - top - bottom));
    p.setPen(palette().text().color());
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(left, 2, area.width(), fm.height() + 6), Qt::AlignLeft | Qt::AlignVCenter, m_title);
        p.setFont(font());
    }
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Series& s : m_series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
                x0 = std::min(x0, s.x[i]);
                x1 = std::max(x1, s.x[i]);
                y0 = std::min(y0, s.y[i]);
                y1 = std::max(y1, s.y[i]);
            }
    p.setPen(QColor(150, 154, 160));
    p.drawRect(area);
    if (!(x1 > x0)) {
        p.drawText(area, Qt::AlignCenter, tr("no data"));
        return;
    }
    if (!(y1 > y0)) {
        y0 -= 1;
        y1 += 1;
    }
    const double pad = 0.05 * (y1 - y0);
    y0 -= pad;
    y1 += pad;
    auto X = [&](double x) { return area.left() + (x - x0) / (x1 - x0) * area.width(); };
    auto Y = [&](double y) { return area.bottom() - (y - y0) / (y1 - y0) * area.height(); };
    // Grid and tick labels.
    const QColor grid(225, 228, 232);
    for (double t : ticks(x0, x1, 6)) {
        p.setPen(grid);
        p.drawLine(QPointF(X(t), area.top()), QPointF(X(t), area.bottom()));
        p.setPen(palette().text().color());
        p.drawText(QRectF(X(t) - 40, area.bottom() + 2, 80, fm.height()), Qt::AlignCenter, QString::number(t, 'g', 4));
    }
    for (double t : ticks(y0, y1, 5)) {
        p.setPen(grid);
        p.drawLine(QPointF(area.left(), Y(t)), QPointF(area.right(), Y(t)));
        p.setPen(palette().text().color());
        p.drawText(QRectF(0, Y(t) - fm.height() / 2.0, left - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(t, 'g', 4));
    }
    p.drawText(QRectF(area.left(), area.bottom() + fm.height() + 4, area.width(), fm.height()), Qt::AlignCenter,
               m_xLabel);
    p.save();
    p.translate(fm.height() + 2, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-area.height() / 2, -fm.height(), area.height(), fm.height() + 2), Qt::AlignCenter, m_yLabel);
    p.restore();
    // Lines, clipped to the plot area.
    p.setClipRect(area);
    for (const Series& s : m_series) {
        QPainterPath path;
        bool pen = false;
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
                pen = false;
                continue;
            }
            const QPointF pt(X(s.x[i]), Y(s.y[i]));
            if (pen)
                path.lineTo(pt);
            else
                path.moveTo(pt);
            pen = true;
        }
        QPen line(s.colour, 1.8);
        if (s.dashed)
            line.setStyle(Qt::DashLine);
        p.setPen(line);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    p.setClipping(false);
    // Legend, top right inside the plot; one entry per distinct label.
    std::vector<const Series*> shown;
    for (const Series& s : m_series)
        if (!s.label.isEmpty() &&
            std::none_of(shown.begin(), shown.end(), [&](const Series* o) { return o->label == s.label; }))
            shown.push_back(&s);
    int y = static_cast<int>(area.top()) + 6;
    for (const Series* s : shown) {
        const int w = fm.horizontalAdvance(s->label);
        const QRectF box(area.right() - w - 34, y, w + 28, fm.height() + 2);
        p.fillRect(box, QColor(255, 255, 255, 220));
        p.setPen(QPen(s->colour, 2.5));
        p.drawLine(QPointF(box.left() + 4, box.center().y()), QPointF(box.left() + 18, box.center().y()));
        p.setPen(palette().text().color());
        p.drawText(box.adjusted(22, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, s->label);
        y += fm.height() + 3;
    }
}

} // namespace rdt::gui
