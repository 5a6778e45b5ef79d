#pragma once
/// \file SweepPanel.h
/// A design study's results (`rdt sweep … -o sweep.h5`) plotted: any result against any numeric
/// axis, one line per combination of the other axes, failing variants marked in the table below.

#include <QWidget>

#include <memory>

#include "analysis/Sweep.h"

class QComboBox;
class QLabel;

namespace rdt::gui {

class LinePlot;

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(QWidget* parent = nullptr);
    /// Open a sweep file; false with status() saying why.
    bool open(const QString& path);
    /// Plot `result` against `axis` (column names); false when either is not in the file.
    bool plot(const QString& axis, const QString& result);
    const QString& status() const { return m_status; }
    LinePlot* chart() const { return m_plot; }
    QStringList axisChoices() const;
    QStringList resultChoices() const;

private:
    void replot();
    std::unique_ptr<analysis::SweepTable> m_table;
    QComboBox* m_x = nullptr;
    QComboBox* m_y = nullptr;
    QLabel* m_info = nullptr;
    LinePlot* m_plot = nullptr;
    QString m_status;
};

} // namespace rdt::gui
