#pragma once
/// \file LiquidPanel.h
/// The coolant loops (docs/liquid.md): per loop its CDUs, heat, flow, supply and return against the
/// setpoint, capacity at the actual facility water, pumps; per liquid-cooled part its flow against
/// its allocation, coolant in and out against its connector's limit, plate case, port pressure
/// against its rating. Sortable tables, the parts nearest a limit first; double-click selects.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace rdt::gui {

class Studio;

class LiquidPanel : public QWidget {
    Q_OBJECT
public:
    explicit LiquidPanel(Studio& studio, QWidget* parent = nullptr);
    QTableWidget* loopTable() const { return m_loops; }
    QTableWidget* trayTable() const { return m_trays; }
    QString headline() const;

private:
    void refresh();

    Studio& m_studio;
    QLabel* m_headline;
    QTableWidget* m_loops;
    QTableWidget* m_trays;
};

} // namespace rdt::gui
