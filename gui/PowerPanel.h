#pragma once
/// \file PowerPanel.h
/// The power budget of every rack: a bar of its load against N+1, feed-loss and busbar limits
/// for the rack in the elevation, and a sortable table for the whole design (load on the budget
/// basis and modelled, N+1 and feed-loss capacity, busbar current against its rating, hold-up,
/// cap advice, the rules it fails). Numbers are the ones `rdt check --json` prints.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace rdt::gui {

class Studio;
class LoadBars;

class PowerPanel : public QWidget {
    Q_OBJECT
public:
    explicit PowerPanel(Studio& studio, QWidget* parent = nullptr);
    /// The table (tests read its cells).
    QTableWidget* table() const { return m_table; }
    /// The headline above the table.
    QString headline() const;

private:
    void refresh();
    void showRack(int rack);

    Studio& m_studio;
    QLabel* m_headline;
    LoadBars* m_bars;
    QTableWidget* m_table;
};

} // namespace rdt::gui
