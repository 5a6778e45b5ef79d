#pragma once
/// \file ThroughputPanel.h
/// What the design gives: sustained TFLOPS per GPU class with what limits its clock, and busbw
/// versus message size for AllReduce, AllGather, ReduceScatter and AlltoAll at the chosen scope
/// (node, rack, pod, cluster) — the curves nccl-tests users compare against.

#include <QWidget>

#include <memory>

namespace rdt::analysis {
struct ThroughputResult;
struct NcclComparison;
}

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace rdt::gui {

class Studio;

/// busbw (GB/s) against message size on a log₂ axis, one line per collective; with an
/// nccl-tests log opened, its measured points over the model's curve for the same run.
class BusbwPlot : public QWidget {
    Q_OBJECT
public:
    explicit BusbwPlot(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const analysis::ThroughputResult> t, const QString& scope);
    /// A log against the model (nullptr: back to the scope's curves).
    void setComparison(std::shared_ptr<const analysis::NcclComparison> c);
    /// Lines drawn (tests).
    int seriesCount() const { return m_series; }
    /// Measured points drawn (tests).
    int measuredPoints() const { return m_points; }
    QSize minimumSizeHint() const override { return {300, 160}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    void paintComparison(QPainter& p, const QRectF& area);

    std::shared_ptr<const analysis::ThroughputResult> m_t;
    std::shared_ptr<const analysis::NcclComparison> m_cmp;
    QString m_scope;
    int m_series = 0, m_points = 0;
};

class ThroughputPanel : public QWidget {
    Q_OBJECT
public:
    explicit ThroughputPanel(Studio& studio, QWidget* parent = nullptr);
    /// GPU class rows shown (tests).
    int classRows() const;
    /// The class table's cell (row, column) as shown.
    QString classCell(int row, int column) const;
    const BusbwPlot* plot() const { return m_plot; }
    QString headline() const;
    /// Compare an nccl-tests log with the design's model and draw it; false (ncclStatus() says
    /// why, with file and line) when the log cannot be read or compared.
    bool openNcclLog(const QString& path);
    void clearNcclLog();
    QString ncclStatus() const;
    std::shared_ptr<const analysis::NcclComparison> comparison() const { return m_cmp; }

private:
    void rebuild();
    bool compareLog();

    Studio& m_studio;
    QLabel* m_header;
    QTreeWidget* m_classes;
    QTreeWidget* m_table; ///< busbw at 1 GiB, op × scope
    QComboBox* m_scope;
    BusbwPlot* m_plot;
    QPushButton* m_clearLog;
    QLabel* m_ncclStatus;
    QString m_logPath;
    std::shared_ptr<const analysis::NcclComparison> m_cmp;
    bool m_scopeChosen = false;
};

} // namespace rdt::gui
