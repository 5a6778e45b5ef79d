#include "gui/ValueLabel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace rdt::gui {

ValueLabel::ValueLabel(QString text, QWidget* parent) : QWidget(parent), m_text(std::move(text))
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    auto* copy = new QAction(tr("Copy"), this);
    connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(m_text); });
    addAction(copy);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    updateTip();
}

void ValueLabel::setMark(Mark m)
{
    m_mark = m;
    updateGeometry();
    update();
}

void ValueLabel::setLink(const QString& link)
{
    m_link = link;
    setCursor(link.isEmpty() ? Qt::ArrowCursor : Qt::PointingHandCursor);
    updateGeometry();
    update();
}

void ValueLabel::setNote(const QString& note)
{
    m_note = note;
    updateTip();
}

void ValueLabel::setMaxLines(int n)
{
    m_maxLines = std::max(1, n);
    updateGeometry();
}

void ValueLabel::setTextColour(const QColor& c)
{
    m_colour = c;
    update();
}

int ValueLabel::indent() const
{
    return m_mark == Mark::None ? 0
                                : std::max(fontMetrics().horizontalAdvance(QStringLiteral("✗ ")),
                                           fontMetrics().horizontalAdvance(QStringLiteral("⚠ ")));
}

int ValueLabel::textWidth() const
{
    return std::max(1, contentsRect().width() - indent());
}

QStringList ValueLabel::lines(int width, bool* elided) const
{
    const QFontMetrics fm = fontMetrics();
    QStringList out;
    bool cut = false;
    for (const QString& para : m_text.split('\n')) {
        QString line;
        for (const QString& word : para.split(' ', Qt::SkipEmptyParts)) {
            const QString joined = line.isEmpty() ? word : line + ' ' + word;
            if (fm.horizontalAdvance(joined) <= width) {
                line = joined;
                continue;
            }
            if (!line.isEmpty())
                out << line;
            line = word;
            if (fm.horizontalAdvance(word) > width) { // an id or a slug wider than the column
                out << fm.elidedText(word, Qt::ElideMiddle, width);
                line.clear();
                cut = true;
            }
        }
        if (!line.isEmpty() || para.isEmpty())
            out << line;
    }
    if (out.size() > m_maxLines) {
        QStringList kept = out.mid(0, m_maxLines);
        kept.back() = fm.elidedText(kept.back() + " " + out[m_maxLines] + "…", Qt::ElideRight, width);
        out = kept;
        cut = true;
    }
    if (!m_link.isEmpty()) {
        const QString link = fm.elidedText(m_link, Qt::ElideMiddle, width);
        cut = cut || link != m_link;
        out << link;
    }
    if (elided)
        *elided = cut;
    return out;
}

QStringList ValueLabel::shownLines() const
{
    return lines(textWidth(), nullptr);
}

bool ValueLabel::elided() const
{
    bool cut = false;
    lines(textWidth(), &cut);
    return cut;
}

int ValueLabel::heightForWidth(int w) const
{
    const QMargins m = contentsMargins();
    const int n = static_cast<int>(lines(std::max(1, w - m.left() - m.right() - indent()), nullptr).size());
    return std::max(1, n) * fontMetrics().lineSpacing() + m.top() + m.bottom();
}

QSize ValueLabel::sizeHint() const
{
    // Wide enough for one line up to a column's share, so that the grid shares out the width by its
    // stretch factors rather than by the longest text.
    const int w = std::min(fontMetrics().horizontalAdvance(m_text) + indent() + 2, 160);
    return {w, heightForWidth(w)};
}

QSize ValueLabel::minimumSizeHint() const
{
    const int w = fontMetrics().horizontalAdvance(QStringLiteral("MMMM")) + indent();
    return {w, fontMetrics().lineSpacing()};
}

void ValueLabel::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    updateTip();
}

void ValueLabel::updateTip()
{
    // The whole text whenever the width cuts any of it; the rule's note always.
    QString tip = elided() ? m_text : QString();
    if (!m_note.isEmpty())
        tip += (tip.isEmpty() ? "" : "\n\n") + m_note;
    setToolTip(tip);
}

void ValueLabel::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect r = contentsRect();
    const QFontMetrics fm = fontMetrics();
    if (m_mark != Mark::None) {
        const bool fail = m_mark == Mark::Fail, warn = m_mark == Mark::Warn;
        p.setPen(fail ? QColor(192, 57, 43) : warn ? QColor(200, 120, 0) : QColor(46, 139, 87));
        p.drawText(r.left(), r.top() + fm.ascent(),
                   fail ? QStringLiteral("✗") : warn ? QStringLiteral("⚠") : QStringLiteral("✓"));
    }
    const QStringList shown = shownLines();
    int y = r.top() + fm.ascent();
    for (int i = 0; i < shown.size(); ++i, y += fm.lineSpacing()) {
        const bool link = !m_link.isEmpty() && i == shown.size() - 1;
        p.setPen(link ? QColor(85, 85, 119) : m_colour.isValid() ? m_colour : palette().color(QPalette::WindowText));
        p.drawText(r.left() + indent(), y, shown[i]);
    }
}

void ValueLabel::mousePressEvent(QMouseEvent* e)
{
    // The link is the last line.
    if (!m_link.isEmpty() && e->button() == Qt::LeftButton &&
        e->position().y() >= height() - fontMetrics().lineSpacing() - contentsMargins().bottom()) {
        Q_EMIT linkActivated(m_link);
        return;
    }
    QWidget::mousePressEvent(e);
}

} // namespace rdt::gui
