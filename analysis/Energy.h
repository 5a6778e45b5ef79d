#pragma once
/// \file Energy.h
/// What the design draws from the grid: IT power (the AC into the shelves and AC-fed parts, from
/// the power budget) times the facility's PUE, per hall and in all; the year's energy at its load
/// factor; CO2 at the grid's intensity. The peak uses the budget's basis (nameplate by default),
/// the year the modelled draw.
///
/// PUE is fixed per design (`facility: {pue, pue_source}`): Meta reports 1.08 across its data
/// centres in 2023 [E-M23]; the Uptime Institute's 2023 survey average is 1.58. A model of PUE from
/// cooling type, supply air and climate is not built yet.

#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "power/Budget.h"

namespace rdt::analysis {

struct EnergyGroup {
    std::string id;
    double itModelledW = 0;   ///< AC in at the modelled draw
    double itBasisW = 0;      ///< AC in on the budget's basis
    double facilityW = 0;     ///< itModelledW × PUE
    double facilityPeakW = 0; ///< itBasisW × PUE
    double annualMWh = 0;     ///< facilityW × load factor × hours
    double co2Tonnes = NAN;   ///< annualMWh × grid intensity; NaN without one
};

struct EnergyResult {
    double pue = NAN;
    std::string pueSource;
    double loadFactor = 1, hoursPerYear = 8760;
    double gridKgPerKWh = NAN;
    std::string gridSource;
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    std::vector<EnergyGroup> halls;
    EnergyGroup total;
};

/// The energy figures of `design` (which must declare `facility:`): `basis` is the budget the
/// checks used, `modelled` the same design budgeted at its modelled draw (may be `basis` itself).
EnergyResult analyseEnergy(const core::Design& design, const power::PowerResult& basis,
                           const power::PowerResult& modelled);

} // namespace rdt::analysis
