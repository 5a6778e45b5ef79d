#pragma once
/// \file EnergyPanel.h
/// Beyond the compute racks: the facility's energy (grid power, peak, the year, CO2, PUE and its
/// source or model band, per hall, the utilisation profile) and the design's workload checkpoint
/// (save, restore, stall, MTBF, interval, goodput; the write and read paths stage by stage with
/// the bottleneck marked) — the same figures as `rdt check`'s energy and ckpt lines.

#include <QWidget>

#include <memory>
#include <vector>

#include "analysis/Checkpoint.h"

class QLabel;
class QTableWidget;

namespace rdt::gui {

class Studio;

/// Horizontal bars of a checkpoint path's stage rates (log scale), the slowest in red.
class StageBars : public QWidget {
    Q_OBJECT
public:
    explicit StageBars(QWidget* parent = nullptr);
    void setStages(QString title, std::vector<analysis::PathStage> stages);
    int barCount() const { return static_cast<int>(m_stages.size()); }
    QSize minimumSizeHint() const override { return {320, 60}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString m_title;
    std::vector<analysis::PathStage> m_stages;
};

class EnergyPanel : public QWidget {
    Q_OBJECT
public:
    explicit EnergyPanel(Studio& studio, QWidget* parent = nullptr);
    /// The energy and checkpoint headlines (tests; empty-state messages when absent).
    QString energyHeadline() const;
    QString checkpointHeadline() const;
    int hallRows() const;
    const StageBars* writePath() const { return m_write; }

private:
    void rebuild();

    Studio& m_studio;
    QLabel* m_energyHeader;
    QTableWidget* m_halls;
    QTableWidget* m_profile;
    QLabel* m_profileTitle = nullptr;
    QLabel* m_ckptHeader;
    QTableWidget* m_ckpt;
    StageBars* m_write;
    StageBars* m_read;
};

} // namespace rdt::gui
