#pragma once
/// \file WhatIfBar.h
/// The what-if toolbar: supply air, altitude, failed rotors per chassis, a lost AC feed and a GPU
/// cap for every GPU. Changing one re-runs the coupled solvers in the background with the same
/// scenario code as `rdt check --inlet/--altitude/--scenario/--gpu-cap`; the document is not
/// changed, and Reset returns to the design as written.

#include <QToolBar>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rdt::gui {

class Studio;

class WhatIfBar : public QToolBar {
    Q_OBJECT
public:
    explicit WhatIfBar(Studio& studio, QWidget* parent = nullptr);
    /// Set a field as a user would (tests, --scenario): `inlet`, `altitude`, `gpu-cap` take text with a
    /// unit, `fan-fail`, `pump-fail` and `cdu-fail` a count, `facility-water` a temperature change
    /// (`+5K`), `feed-loss` A, B or empty; `power-floor` (90%), `gpu-ramp` (2000W/s), `psu-storage`
    /// (65J) text with a unit, `smoothing` none or bbu. False when the text is refused.
    bool set(const QString& what, const QString& value);
    /// Why the bar's current what-if is not applied (the first field marked red), empty when it is.
    QString refusal() const;
    void reset();

private:
    void apply();

    Studio& m_studio;
    QLineEdit* m_inlet;
    QLineEdit* m_altitude;
    QSpinBox* m_rotors;
    QComboBox* m_feed;
    QLineEdit* m_cap;
    QSpinBox* m_pumps;    ///< liquid: pumps failed in every loop
    QSpinBox* m_cdus;     ///< liquid: CDUs lost from every loop
    QLineEdit* m_water;   ///< liquid: facility water (AALC: room air) warmer by this
    QList<QAction*> m_liquidActions; ///< the liquid fields, shown when the design has liquid loops
    /// Show the liquid fields only for designs with liquid loops.
    void showLiquid();
    QLineEdit* m_floor;       ///< dynamics: GPU power floor, share of TDP
    QLineEdit* m_ramp;        ///< dynamics: GPU ramp limit up and down
    QLineEdit* m_psu;         ///< dynamics: PSU storage per GPU
    QComboBox* m_smoothing;   ///< dynamics: as designed, none, battery shelves
    QList<QAction*> m_dynamicsActions; ///< the power-dynamics fields, shown when the design has dynamics:
    QComboBox* m_thermal; ///< as designed, network, field (the room's air in 3D), field with OpenFOAM's intakes
    QString m_intakesFrom; ///< the run OpenFOAM case the last item takes the racks' intakes from
    int m_thermalShown = 0; ///< the item before a choice of case was cancelled
    /// The thermal item changed: the OpenFOAM item asks for its case (a cancel goes back).
    void thermalChosen(int index);
};

} // namespace rdt::gui
