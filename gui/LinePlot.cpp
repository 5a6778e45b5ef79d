#include "gui/LinePlot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <climits>
#include <cmath>

namespace rdt::gui {

namespace {

/// About `n` round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, int n)
{
    std::vector<double> out;
    if (!(hi > lo) || n < 1)
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

/// Tick labels with one number of decimals for the whole axis (the fewest that shows every tick
/// exactly), or four significant figures for very large or very small values.
QStringList tickTexts(const std::vector<double>& t)
{
    QStringList out;
    double big = 0;
    for (double v : t)
        big = std::max(big, std::fabs(v));
    const double step = t.size() > 1 ? t[1] - t[0] : 1.0;
    if (big >= 1e6 || step < 1e-4) {
        for (double v : t)
            out << QString::number(v, 'g', 4);
        return out;
    }
    int decimals = 0;
    for (; decimals < 6; ++decimals) {
        const double scale = std::pow(10.0, decimals);
        if (std::all_of(t.begin(), t.end(), [&](double v) {
                return std::fabs(v * scale - std::round(v * scale)) < 1e-6 * std::max(1.0, std::fabs(v * scale));
            }))
            break;
    }
    for (double v : t)
        out << QString::number(v, 'f', decimals);
    return out;
}

/// `text` word-wrapped to `width`, at most `maxLines` lines; the last one elided if words remain.
QStringList wrap(const QFontMetrics& fm, const QString& text, int width, int maxLines)
{
    QStringList lines;
    QString line;
    const QStringList words = text.split(' ', Qt::SkipEmptyParts);
    for (int i = 0; i < words.size(); ++i) {
        const QString next = line.isEmpty() ? words[i] : line + ' ' + words[i];
        if (fm.horizontalAdvance(next) <= width || line.isEmpty()) {
            line = next;
            continue;
        }
        if (static_cast<int>(lines.size()) + 1 == maxLines) {
            line = fm.elidedText(line + ' ' + words.mid(i).join(' '), Qt::ElideRight, width);
            lines << line;
            return lines;
        }
        lines << line;
        line = words[i];
    }
    if (!line.isEmpty())
        lines << fm.elidedText(line, Qt::ElideRight, width);
    return lines;
}

/// The y title on one line when it fits `length`, else split at the space that balances the two
/// lines best; a line still too long is elided in its middle (the unit at the end stays).
QStringList yTitleLines(const QFontMetrics& fm, const QString& text, int length)
{
    if (text.isEmpty())
        return {};
    if (fm.horizontalAdvance(text) <= length)
        return {text};
    QStringList best{text};
    int bestW = INT_MAX;
    for (int i = 0; i < text.size(); ++i)
        if (text[i] == ' ') {
            const QString a = text.left(i), b = text.mid(i + 1);
            const int w = std::max(fm.horizontalAdvance(a), fm.horizontalAdvance(b));
            if (w < bestW) {
                bestW = w;
                best = {a, b};
            }
        }
    for (QString& s : best)
        if (fm.horizontalAdvance(s) > length)
            s = fm.elidedText(s, Qt::ElideMiddle, length);
    return best;
}

/// Legend flowed in rows across [x0, x1): the rows it needs and each entry's box.
int flow(const std::vector<int>& widths, double x0, double x1, double y0, int rowH, std::vector<QRectF>* boxes)
{
    int rows = widths.empty() ? 0 : 1;
    double x = x0, y = y0;
    for (int w : widths) {
        if (x > x0 && x + w > x1) {
            x = x0;
            y += rowH;
            ++rows;
        }
        if (boxes)
            boxes->emplace_back(x, y, w, rowH);
        x += w;
    }
    return rows;
}

bool finitePoint(const LinePlot::Series& s, std::size_t i)
{
    return std::isfinite(s.x[i]) && std::isfinite(s.y[i]);
}

bool hasPoints(const LinePlot::Series& s)
{
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
        if (finitePoint(s, i))
            return true;
    return false;
}

constexpr int kSwatch = 28; ///< legend: line sample and gap before the label

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
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LinePlot::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    update();
}

LinePlot::Layout LinePlot::layout() const
{
    Layout L;
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fmBold(bold);
    const int lh = fm.height(), W = width(), H = height(), rowH = lh + 4;

    // Data range.
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Series& s : m_series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (finitePoint(s, i)) {
                x0 = std::min(x0, s.x[i]);
                x1 = std::max(x1, s.x[i]);
                y0 = std::min(y0, s.y[i]);
                y1 = std::max(y1, s.y[i]);
            }
    if (m_xRange && std::isfinite(y0)) {
        x0 = m_xRange->first;
        x1 = m_xRange->second;
    }
    L.hasData = x1 > x0;
    if (L.hasData) {
        if (!(y1 > y0)) {
            y0 -= 1;
            y1 += 1;
        }
        const double pad = 0.05 * (y1 - y0);
        L.x0 = x0;
        L.x1 = x1;
        L.y0 = y0 - pad;
        L.y1 = y1 + pad;
    }

    // Title, word-wrapped onto two lines at most.
    double top = 8;
    if (!m_title.isEmpty()) {
        top = 4;
        for (const QString& line : wrap(fmBold, m_title, W - 16, 2)) {
            L.title.push_back({line, QRectF(8, top, W - 16, fmBold.height())});
            top += fmBold.height();
        }
        top += 6;
    }

    // Legend entries: one per distinct label.
    // A legend title (when set) comes first, as an entry of no series (-1) and no line sample.
    std::vector<QString> labels;
    if (!m_legendTitle.isEmpty() && !m_series.empty()) {
        labels.push_back(m_legendTitle);
        L.legendSeries.push_back(-1);
    }
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        const QString& label = m_series[i].label;
        if (!label.isEmpty() && std::find(labels.begin(), labels.end(), label) == labels.end()) {
            labels.push_back(label);
            L.legendSeries.push_back(static_cast<int>(i));
        }
    }
    double bottom = lh + 4 + lh + 8; // tick labels, x title
    const double areaH0 = H - top - bottom;
    const int maxText = std::max(40, static_cast<int>(0.3 * W) - kSwatch - 8);
    std::vector<QString> shown;
    int widest = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const bool header = L.legendSeries[i] < 0;
        shown.push_back(fm.elidedText(labels[i], Qt::ElideMiddle, maxText + (header ? kSwatch : 0)));
        widest = std::max(widest, fm.horizontalAdvance(shown.back()) - (header ? kSwatch : 0));
    }
    const int colW = kSwatch + widest + 10;
    const int rowsPerCol = std::max(1, static_cast<int>((areaH0 - 4) / rowH));
    const int cols = shown.empty() ? 0 : (static_cast<int>(shown.size()) + rowsPerCol - 1) / rowsPerCol;
    const int legendW = cols * colW;
    // To the right of the data area when it leaves the data most of the width, else below.
    const bool right = !shown.empty() && legendW <= 0.36 * W && W - legendW - 16 >= 0.55 * W;
    std::vector<int> widths;
    if (!shown.empty() && !right) {
        for (const QString& s : shown)
            widths.push_back(kSwatch + fm.horizontalAdvance(s) + 14);
        if (L.legendSeries.front() < 0)
            widths.front() -= kSwatch;
        bottom += flow(widths, 8, W - 8, 0, rowH, nullptr) * rowH + 6;
    }
    const double areaH = std::max(30.0, H - top - bottom);

    // y ticks and title decide the left margin.
    std::vector<double> yt;
    for (int n = std::clamp(static_cast<int>(areaH / (2.4 * lh)), 2, 6); L.hasData && yt.size() < 2 && n <= 12; ++n)
        yt = ticks(L.y0, L.y1, n);
    const QStringList ytText = tickTexts(yt);
    int yLabelW = 0;
    for (const QString& s : ytText)
        yLabelW = std::max(yLabelW, fm.horizontalAdvance(s));
    const QStringList yLines = yTitleLines(fm, m_yLabel, static_cast<int>(areaH));
    const double left = 6 + static_cast<double>(yLines.size()) * lh + 6 + yLabelW + 8;
    double rightM = right ? legendW + 20 : 14;
    if (!right && L.hasData) // room for half of the last x label
        rightM = std::max(rightM, fm.horizontalAdvance(tickTexts(ticks(L.x0, L.x1, 6)).value(0) + "00") / 2.0 + 4);
    L.area = QRectF(left, top, std::max(40.0, W - left - rightM), areaH);
    const QRectF& a = L.area;

    // y tick labels, right-aligned against the frame.
    for (std::size_t i = 0; i < yt.size(); ++i) {
        const double y = a.bottom() - (yt[i] - L.y0) / (L.y1 - L.y0) * a.height();
        const int w = fm.horizontalAdvance(ytText[static_cast<int>(i)]) + 2;
        L.yTicks.push_back({ytText[static_cast<int>(i)], QRectF(a.left() - 6 - w, y - lh / 2.0, w, lh)});
    }
    // x ticks: as many as fit without touching.
    if (L.hasData)
        for (int n = 8; n >= 2; --n) {
            const std::vector<double> xt = ticks(L.x0, L.x1, n);
            const QStringList text = tickTexts(xt);
            int w = 0;
            for (const QString& s : text)
                w = std::max(w, fm.horizontalAdvance(s));
            if (static_cast<double>(xt.size()) * (w + 14) > a.width() && n > 2)
                continue;
            L.xTicks.clear();
            L.xTickValues = xt;
            for (std::size_t i = 0; i < xt.size(); ++i) {
                const double x = a.left() + (xt[i] - L.x0) / (L.x1 - L.x0) * a.width();
                const double tw = fm.horizontalAdvance(text[static_cast<int>(i)]) + 2;
                const double lx = std::clamp(x - tw / 2, 0.0, std::max(0.0, W - tw));
                L.xTicks.push_back({text[static_cast<int>(i)], QRectF(lx, a.bottom() + 3, tw, lh)});
            }
            break;
        }
    L.xTitle = {fm.elidedText(m_xLabel, Qt::ElideMiddle, static_cast<int>(a.width())),
                QRectF(a.left(), a.bottom() + lh + 5, a.width(), lh)};
    // y title, rotated: each line's footprint runs along the axis.
    double tall = 0;
    for (const QString& s : yLines)
        tall = std::max(tall, static_cast<double>(fm.horizontalAdvance(s)) + 2);
    for (int i = 0; i < yLines.size(); ++i)
        L.yTitle.push_back({yLines[i], QRectF(6 + i * lh, a.center().y() - tall / 2, lh, tall)});
    if (!yLines.isEmpty())
        L.yTitleBox = QRectF(6, a.center().y() - tall / 2, static_cast<double>(yLines.size()) * lh, tall);

    // Legend.
    if (right) {
        L.legend = QRectF(a.right() + 12, a.top(), legendW + 4,
                          std::min(static_cast<int>(shown.size()), rowsPerCol) * rowH + 6);
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const int c = static_cast<int>(i) / rowsPerCol, r = static_cast<int>(i) % rowsPerCol;
            const QRectF box(L.legend.left() + 2 + c * colW, L.legend.top() + 3 + r * rowH, colW, rowH);
            L.legendEntries.push_back({shown[i], box.adjusted(L.legendSeries[i] < 0 ? 0 : kSwatch, 0, -4, 0)});
        }
    } else if (!shown.empty()) {
        std::vector<QRectF> boxes;
        const double y = L.xTitle.rect.bottom() + 6;
        const int rows = flow(widths, 8, W - 8, y, rowH, &boxes);
        double w = 0;
        for (const QRectF& b : boxes)
            w = std::max(w, b.right() - 8);
        L.legend = QRectF(6, y - 2, w + 4, rows * rowH + 4);
        for (std::size_t i = 0; i < shown.size(); ++i)
            L.legendEntries.push_back({shown[i], boxes[i].adjusted(L.legendSeries[i] < 0 ? 0 : kSwatch, 0, -10, 0)});
    }
    return L;
}

QPointF LinePlot::toPixel(double x, double y) const
{
    const Layout L = layout();
    if (!L.hasData)
        return {NAN, NAN};
    return {L.area.left() + (x - L.x0) / (L.x1 - L.x0) * L.area.width(),
            L.area.bottom() - (y - L.y0) / (L.y1 - L.y0) * L.area.height()};
}

QRectF LinePlot::curvesRect() const
{
    const Layout L = layout();
    QRectF out;
    if (!L.hasData)
        return out;
    double px0 = INFINITY, px1 = -INFINITY, py0 = INFINITY, py1 = -INFINITY;
    for (const Series& s : m_series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (finitePoint(s, i)) {
                const double px = L.area.left() + (s.x[i] - L.x0) / (L.x1 - L.x0) * L.area.width();
                const double py = L.area.bottom() - (s.y[i] - L.y0) / (L.y1 - L.y0) * L.area.height();
                px0 = std::min(px0, px);
                px1 = std::max(px1, px);
                py0 = std::min(py0, py);
                py1 = std::max(py1, py);
            }
    if (std::isfinite(px0))
        out = QRectF(QPointF(px0, py0), QPointF(px1, py1));
    return out;
}

void LinePlot::paintEvent(QPaintEvent*)
{
    const Layout L = layout();
    const QRectF& area = L.area;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().text().color();
    p.setPen(text);
    if (!L.title.empty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        for (const Text& t : L.title)
            p.drawText(t.rect, Qt::AlignLeft | Qt::AlignVCenter, t.text);
        p.setFont(font());
    }
    const QColor grid(225, 228, 232);
    if (L.hasData) {
        for (std::size_t i = 0; i < L.xTicks.size(); ++i) {
            const Text& t = L.xTicks[i];
            const double x = area.left() + (L.xTickValues[i] - L.x0) / (L.x1 - L.x0) * area.width();
            p.setPen(grid);
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
            p.setPen(text);
            p.drawText(t.rect, Qt::AlignCenter, t.text);
        }
        for (const Text& t : L.yTicks) {
            const double y = t.rect.center().y();
            p.setPen(grid);
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
            p.setPen(text);
            p.drawText(t.rect, Qt::AlignRight | Qt::AlignVCenter, t.text);
        }
    }
    p.setPen(QColor(150, 154, 160));
    p.drawRect(area);
    p.setPen(text);
    p.drawText(L.xTitle.rect, Qt::AlignCenter, L.xTitle.text);
    for (const Text& t : L.yTitle) {
        p.save();
        p.translate(t.rect.center());
        p.rotate(-90);
        p.drawText(QRectF(-t.rect.height() / 2, -t.rect.width() / 2, t.rect.height(), t.rect.width()), Qt::AlignCenter,
                   t.text);
        p.restore();
    }
    if (!L.hasData) {
        p.drawText(area, Qt::AlignCenter, tr("no data"));
    } else {
        // Lines, clipped to the data area.
        p.setClipRect(area);
        auto X = [&](double x) { return area.left() + (x - L.x0) / (L.x1 - L.x0) * area.width(); };
        auto Y = [&](double y) { return area.bottom() - (y - L.y0) / (L.y1 - L.y0) * area.height(); };
        for (const Series& s : m_series) {
            QPainterPath path;
            bool pen = false;
            for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
                if (!finitePoint(s, i)) {
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
    }
    // Legend, outside the data area; an entry whose series has no point shows no line sample.
    for (std::size_t i = 0; i < L.legendEntries.size(); ++i) {
        const QRectF& r = L.legendEntries[i].rect;
        if (L.legendSeries[i] < 0) { // the legend's title
            p.setPen(palette().placeholderText().color());
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, L.legendEntries[i].text);
            continue;
        }
        const Series& s = m_series[static_cast<std::size_t>(L.legendSeries[i])];
        if (hasPoints(s)) {
            QPen line(s.colour, 2.5);
            if (s.dashed)
                line.setStyle(Qt::DashLine);
            p.setPen(line);
            p.drawLine(QPointF(r.left() - kSwatch + 4, r.center().y()), QPointF(r.left() - 8, r.center().y()));
        }
        p.setPen(text);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, L.legendEntries[i].text);
    }
}

} // namespace rdt::gui
