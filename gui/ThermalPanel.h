#pragma once
/// \file ThermalPanel.h
/// The airflow solution: per chassis its heat, airflow, inlet, exhaust and rise, fan speed and
/// power, and the hottest GPU against its own limit; per row the cold and hot aisle and the
/// RCI/RTI/SHI metrics. Sortable tables; double-click selects the chassis or row.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace rdt::gui {

class Studio;

class ThermalPanel : public QWidget {
    Q_OBJECT
public:
    explicit ThermalPanel(Studio& studio, QWidget* parent = nullptr);
    QTableWidget* chassisTable() const { return m_chassis; }
    QTableWidget* rowTable() const { return m_rows; }
    QString headline() const;

private:
    void refresh();

    Studio& m_studio;
    QLabel* m_headline;
    QTableWidget* m_chassis;
    QTableWidget* m_rows;
};

} // namespace rdt::gui
