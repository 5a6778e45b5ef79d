#pragma once
/// \file Energy.h
/// What the design draws from the grid: IT power (the AC into the shelves and AC-fed parts, from
/// the power budget) times the facility's PUE, per hall and in all; the year's energy at its load
/// factor or over its utilisation profile; CO2 at the grid's intensity. The peak uses the budget's
/// basis (nameplate by default), the year the modelled draw.
///
/// PUE is either measured (`facility: {pue, pue_source}`: Meta reports 1.08 across its data centres
/// in 2023) or modelled from the cooling system and the climate zone: the annual PUE of Lei and
/// Masanet's reduced-order thermodynamic model (Resources, Conservation and Recycling 182, 106323,
/// 2022), whose published band (5th-95th percentile over UPS efficiency, distribution loss,
/// supply-air set-points 27-35 degC upper, air rise, fan pressure, ...) rdt reads from
/// data/facility/pue-by-climate.yaml; the 95th percentile (the conservative end) by default.
///
/// A utilisation profile (`utilisation: [{hours: 70 %, load: 100 %}, ...]`) budgets the design at
/// each load (every chassis' utilisation times it; fans at their full-load speeds, the conservative
/// side) and weights the levels by their hours; the load factor is then derived.

#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "power/Budget.h"

namespace rdt::analysis {

/// The PUE model's answer for a facility: the table's case and zone and the chosen percentile.
struct PueModel {
    std::string cooling, size, system, zone;
    int caseNo = 0;
    int percentile = 95;
    double pue = NAN, p05 = NAN, p95 = NAN;
    std::string source;
};

/// Look the facility's cooling, size and zone up in the table at `tablePath`; InputError at the
/// design's `cooling:` (or the table's line) for an unknown system, size or zone, listing the known.
PueModel modelPue(const core::Facility& facility, const std::string& tablePath);

struct EnergyGroup {
    std::string id;
    double itModelledW = 0;   ///< AC in at the modelled draw
    double itBasisW = 0;      ///< AC in on the budget's basis
    /// The liquid loops' CDUs (pumps, fans, controls) serving these racks, modelled and on the
    /// basis: not IT (PUE's denominator), but heat and draw the facility carries like IT's.
    double cduModelledW = 0, cduBasisW = 0;
    double facilityW = 0;     ///< (itModelledW + cduModelledW) × PUE
    double facilityPeakW = 0; ///< (itBasisW + cduBasisW) × PUE
    double annualMWh = 0;     ///< the year at its load factor, or over the profile
    double co2Tonnes = NAN;   ///< annualMWh × grid intensity; NaN without one
};

/// One level of the utilisation profile.
struct EnergyLevel {
    double share = 0, load = 0; ///< of the year's hours; the load (× each chassis' utilisation)
    double itW = 0;             ///< AC in at that load, all halls
    double cduW = 0;            ///< the CDUs' draw (their full-load solve at every level)
    double facilityW = 0;       ///< (itW + cduW) × PUE
};

struct EnergyResult {
    double pue = NAN;
    std::string pueSource;
    std::shared_ptr<const PueModel> model; ///< when the PUE is modelled
    double loadFactor = 1, hoursPerYear = 8760;
    std::vector<EnergyLevel> profile; ///< empty: the year at loadFactor
    double gridKgPerKWh = NAN;
    std::string gridSource;
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    std::vector<EnergyGroup> halls;
    EnergyGroup total;
};

/// The budget at one level of the profile (`power` at that load).
struct LevelPower {
    core::Facility::LoadLevel level;
    const power::PowerResult* power = nullptr;
};

/// The energy figures of `design` (which must declare `facility:`): `basis` is the budget the
/// checks used, `modelled` the same design budgeted at its modelled draw (may be `basis` itself),
/// `levels` the profile's budgets (empty without a profile), `model` the PUE model's answer when
/// the design has no measured PUE.
EnergyResult analyseEnergy(const core::Design& design, const power::PowerResult& basis,
                           const power::PowerResult& modelled, const std::vector<LevelPower>& levels = {},
                           std::shared_ptr<const PueModel> model = nullptr);

} // namespace rdt::analysis
