#include "analysis/Energy.h"

#include <cmath>

namespace rdt::analysis {

namespace {

EnergyGroup group(const std::string& id, const power::GroupPower& basis, const power::GroupPower& modelled,
                  const EnergyResult& e)
{
    EnergyGroup g;
    g.id = id;
    g.itModelledW = modelled.acInputW;
    g.itBasisW = basis.acInputW;
    g.facilityW = g.itModelledW * e.pue;
    g.facilityPeakW = g.itBasisW * e.pue;
    g.annualMWh = g.facilityW * e.loadFactor * e.hoursPerYear / 1e6;
    g.co2Tonnes = g.annualMWh * e.gridKgPerKWh; // MWh × kg/kWh = t
    return g;
}

} // namespace

EnergyResult analyseEnergy(const core::Design& d, const power::PowerResult& basis, const power::PowerResult& modelled)
{
    EnergyResult e;
    e.pue = d.facility.pue;
    e.pueSource = d.facility.pueSource;
    e.loadFactor = d.facility.loadFactor;
    e.hoursPerYear = d.facility.hoursPerYear;
    e.gridKgPerKWh = d.facility.gridKgPerKWh;
    e.gridSource = d.facility.gridSource;
    e.basis = basis.basis;
    for (std::size_t h = 0; h < basis.halls.size() && h < modelled.halls.size(); ++h)
        e.halls.push_back(group(basis.halls[h].id, basis.halls[h], modelled.halls[h], e));
    e.total = group("all", basis.cluster, modelled.cluster, e);
    return e;
}

} // namespace rdt::analysis
