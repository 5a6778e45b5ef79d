#pragma once
/// \file DynamicsPanel.h
/// The training job's power swings (docs/dynamics.md): the same headline as `rdt check`'s dynamics
/// line; the waveform at the chosen level (site, a hall, a row) around the job's start, with the
/// unmitigated waveform beside it when a power floor or ramp limit is set; the level's spectrum to
/// 20 Hz; the bands' shares against the grid's band limit, the ramps against the grid's ramp limit,
/// the voltage change against its limit — each over-limit figure in red, anchored to its rule.

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;

namespace rdt::gui {

class LinePlot;
class Studio;

class DynamicsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DynamicsPanel(Studio& studio, QWidget* parent = nullptr);
    QString headline() const;
    /// Tests: the level chooser, the plots and the limits table.
    QComboBox* levels() const { return m_level; }
    const LinePlot* waveform() const { return m_wave; }
    const LinePlot* spectrum() const { return m_spectrum; }
    const QTableWidget* limits() const { return m_limits; }

private:
    void rebuild();
    void showLevel();

    Studio& m_studio;
    QLabel* m_header;
    QComboBox* m_level;
    LinePlot* m_wave;
    LinePlot* m_spectrum;
    QTableWidget* m_limits;
};

} // namespace rdt::gui
