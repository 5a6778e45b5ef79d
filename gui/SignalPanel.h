#pragma once
/// \file SignalPanel.h
/// Link classes and what closes them: a table of every class (length, insertion loss at Nyquist,
/// COM, eye height, lane rate, verdict) and, for the selected class, its insertion loss against
/// frequency, equalised pulse response, statistical eye (inner-eye contours by BER) and COM
/// budget. A Touchstone file dropped on the window opens here: |Sij| and phase against frequency.

#include <QColor>
#include <QWidget>

#include <vector>

class QLabel;
class QTabWidget;
class QTableWidget;

namespace rdt::signal {
struct LinkVerdict;
}

namespace rdt::gui {

class Studio;
class LinePlot;

/// One statistical-eye contour: the inner eye at one BER spans ±opening(phase) about the decision
/// threshold (opening = A_s − the noise tail at that BER, so its height at the centre is the eye
/// height). Each run of phases where the eye is open becomes a closed curve: the upper edge, the
/// phase where the opening crosses zero (linear between samples), the lower edge back; a run open
/// at the edge of the phase window stays open there. Runs are separated by NaN; no point when the
/// eye is closed at every phase. `scale` converts volts to the plot's unit.
void eyeContour(const std::vector<double>& phaseUi, const std::vector<double>& openingV, double scale,
                std::vector<double>& x, std::vector<double>& y);

class SignalPanel : public QWidget {
    Q_OBJECT
public:
    explicit SignalPanel(Studio& studio, QWidget* parent = nullptr);
    /// The link table's columns: class, verdict, kind, links, length (m), IL at Nyquist (dB), COM (dB),
    /// eye height (mV), lane (Gb/s).
    static constexpr int kVerdictColumn = 1;
    static constexpr int kComColumn = 6;
    /// The verdict's colours: pass, pass with a warning or at a fallback rate, fail.
    static const QColor kPassColour, kWarnColour, kFailColour;
    /// The colour of a class's verdict.
    static QColor verdictColour(const signal::LinkVerdict& v);
    QTableWidget* table() const { return m_table; }
    /// Show one link class's plots (by row of the table).
    void showClass(int row);
    /// Open a Touchstone file in the panel's Touchstone tab; false (with the located error shown)
    /// when it cannot be read.
    bool openTouchstone(const QString& path);
    /// Bring a tab to the front: "loss", "pulse", "eye", "budget", "touchstone". "eye" selects
    /// the first class that has an eye when the selected one has none.
    void showTab(const QString& name);
    LinePlot* eyePlot() const { return m_eye; }
    LinePlot* lossPlot() const { return m_loss; }
    LinePlot* touchstonePlot() const { return m_sMag; }
    QString touchstoneStatus() const;

private:
    void refresh();

    Studio& m_studio;
    QTableWidget* m_table;
    QTabWidget* m_tabs;
    LinePlot* m_loss;
    LinePlot* m_pulse;
    LinePlot* m_eye;
    QLabel* m_budget;
    LinePlot* m_sMag;
    LinePlot* m_sPhase;
    QLabel* m_tsStatus;
};

} // namespace rdt::gui
