#pragma once
/// \file ValueLabel.h
/// A label that always fits the width a panel gives it (the inspector's values, at 1280 × 720).

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>

namespace rdt::gui {

/// A text that always fits the width it is given: plain text wrapped at spaces, a
/// word too long for a line (an id, a slug) and any line past the last allowed (setMaxLines) elided, with the whole text
/// in the tooltip whenever something is elided. Optionally led by a pass, warning or fail mark and followed by a
/// link line (a rule id) that emits linkActivated() when clicked. Right-click copies the text.
class ValueLabel : public QWidget {
    Q_OBJECT
public:
    enum class Mark { None, Pass, Warn, Fail };
    explicit ValueLabel(QString text, QWidget* parent = nullptr);
    void setMark(Mark m);
    void setLink(const QString& link);
    /// The tooltip besides the elided text (a rule's title and spec).
    void setNote(const QString& note);
    void setTextColour(const QColor& c);
    /// Lines drawn before the rest is elided (5 by default).
    void setMaxLines(int n);
    const QString& fullText() const { return m_text; }
    Mark mark() const { return m_mark; }
    /// The lines drawn at the current width, the link's last, and whether any was elided.
    QStringList shownLines() const;
    bool elided() const;
    /// The width the lines are drawn in (the mark's indent taken off), pixels.
    int textWidth() const;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void linkActivated(const QString& link);

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    int indent() const;
    QStringList lines(int width, bool* elided) const;
    void updateTip();
    QString m_text, m_link, m_note;
    Mark m_mark = Mark::None;
    QColor m_colour;
    int m_maxLines = 5;
};

} // namespace rdt::gui
