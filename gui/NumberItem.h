#pragma once
/// \file NumberItem.h
/// A table cell that shows a number with fixed decimals ("–" for NaN) and sorts by the number.

#include <QTableWidgetItem>

#include <cmath>

namespace rdt::gui {

class NumberItem : public QTableWidgetItem {
public:
    NumberItem(double value, int decimals)
        : QTableWidgetItem(std::isfinite(value) ? QString::number(value, 'f', decimals) : QString("–")),
          m_value(value)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    double value() const { return m_value; }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const auto* o = dynamic_cast<const NumberItem*>(&other);
        if (!o)
            return QTableWidgetItem::operator<(other);
        // Missing figures sort first.
        const double a = std::isfinite(m_value) ? m_value : -INFINITY;
        const double b = std::isfinite(o->m_value) ? o->m_value : -INFINITY;
        return a < b;
    }

private:
    double m_value;
};

} // namespace rdt::gui
