#pragma once
/// \file ThroughputPanel.h
/// What the design gives: sustained TFLOPS per GPU class with what limits its clock, and busbw
/// versus message size for AllReduce, AllGather, ReduceScatter and AlltoAll at the chosen scope
/// (node, rack, pod, cluster) — the curves nccl-tests users compare against.

#include <QWidget>

#include <memory>

namespace rdt::analysis {
struct ThroughputResult;
}

class QComboBox;
class QLabel;
class QTreeWidget;

namespace rdt::gui {

class Studio;

/// busbw (GB/s) against message size on a log₂ axis, one line per collective.
class BusbwPlot : public QWidget {
    Q_OBJECT
public:
    explicit BusbwPlot(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const analysis::ThroughputResult> t, const QString& scope);
    /// Lines drawn (tests).
    int seriesCount() const { return m_series; }
    QSize minimumSizeHint() const override { return {300, 160}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    std::shared_ptr<const analysis::ThroughputResult> m_t;
    QString m_scope;
    int m_series = 0;
};

class ThroughputPanel : public QWidget {
    Q_OBJECT
public:
    explicit ThroughputPanel(Studio& studio, QWidget* parent = nullptr);
    /// GPU class rows shown (tests).
    int classRows() const;
    const BusbwPlot* plot() const { return m_plot; }
    QString headline() const;

private:
    void rebuild();

    Studio& m_studio;
    QLabel* m_header;
    QTreeWidget* m_classes;
    QTreeWidget* m_table; ///< busbw at 1 GiB, op × scope
    QComboBox* m_scope;
    BusbwPlot* m_plot;
    bool m_scopeChosen = false;
};

} // namespace rdt::gui
