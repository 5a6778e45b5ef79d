#include "analysis/Energy.h"

#include <cmath>
#include <cstdio>

#include "core/Error.h"
#include "core/Units.h"
#include "core/Yaml.h"
#include "core/YamlDoc.h"

namespace rdt::analysis {

PueModel modelPue(const core::Facility& f, const std::string& tablePath)
{
    const core::Cursor doc = core::Cursor::parse(core::readTextFile(tablePath), tablePath);
    doc.allowKeys({"source", "zones", "cases"});
    std::vector<std::string> zones;
    for (const core::Cursor& z : doc["zones"].elements())
        zones.push_back(z.str());
    std::size_t zi = zones.size();
    for (std::size_t i = 0; i < zones.size(); ++i)
        if (zones[i] == f.climateZone)
            zi = i;
    auto known = [](const std::vector<std::string>& v) {
        std::string s;
        for (const std::string& x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (zi == zones.size())
        throw core::InputError(f.coolingLoc,
                               "climate zone \"" + f.climateZone +
                                   "\" is not in the PUE model's table (ASHRAE 169 zones: " + known(zones) + ")");
    std::vector<std::string> systems, sizes;
    const core::Cursor* match = nullptr;
    std::vector<core::Cursor> cases = doc["cases"].elements();
    for (const core::Cursor& c : cases) {
        c.allowKeys({"id", "size", "system", "case", "p05", "p95"});
        const std::string id = c["id"].str(), size = c["size"].str();
        if (std::find(systems.begin(), systems.end(), id) == systems.end())
            systems.push_back(id);
        if (id != f.cooling)
            continue;
        sizes.push_back(size);
        if (f.size.empty() || f.size == size) {
            if (match && f.size.empty())
                throw core::InputError(f.coolingLoc, "cooling \"" + f.cooling +
                                                         "\" is modelled for several data-centre sizes: give "
                                                         "size: (" +
                                                         known(sizes) + ", ...)");
            match = &c;
        }
    }
    if (!match) {
        if (sizes.empty())
            throw core::InputError(f.coolingLoc, "unknown cooling system \"" + f.cooling + "\" (the PUE model has " +
                                                     known(systems) + ")" + core::didYouMean(f.cooling, systems));
        throw core::InputError(f.coolingLoc, "cooling \"" + f.cooling + "\" is not modelled for size \"" + f.size +
                                                 "\" (sizes: " + known(sizes) + ")");
    }
    PueModel m;
    m.cooling = f.cooling;
    m.size = (*match)["size"].str();
    m.system = (*match)["system"].str();
    m.zone = f.climateZone;
    m.caseNo = static_cast<int>((*match)["case"].integer(1, 100));
    m.percentile = f.puePercentile;
    const auto band = [&](const char* key) {
        const std::vector<core::Cursor> v = (*match)[key].elements();
        if (v.size() != zones.size())
            (*match)[key].fail("needs one value per zone (" + std::to_string(zones.size()) + ")");
        return v[zi].number(1.0, 5.0);
    };
    m.p05 = band("p05");
    m.p95 = band("p95");
    m.pue = m.percentile == 5 ? m.p05 : m.p95;
    m.source = doc["source"].str();
    return m;
}

namespace {

EnergyGroup group(const std::string& id, const power::GroupPower& basis, const power::GroupPower& modelled,
                  const std::vector<double>& levelAcW, const EnergyResult& e)
{
    EnergyGroup g;
    g.id = id;
    g.itModelledW = modelled.acInputW;
    g.itBasisW = basis.acInputW;
    g.cduModelledW = modelled.cduModelledW;
    g.cduBasisW = basis.cduW;
    g.facilityW = (g.itModelledW + g.cduModelledW) * e.pue;
    g.facilityPeakW = (g.itBasisW + g.cduBasisW) * e.pue;
    if (e.profile.empty()) {
        g.annualMWh = g.facilityW * e.loadFactor * e.hoursPerYear / 1e6;
    } else {
        for (std::size_t i = 0; i < e.profile.size(); ++i)
            g.annualMWh += e.profile[i].share * levelAcW[i] * e.pue * e.hoursPerYear / 1e6;
    }
    g.co2Tonnes = g.annualMWh * e.gridKgPerKWh; // MWh × kg/kWh = t
    return g;
}

} // namespace

EnergyResult analyseEnergy(const core::Design& d, const power::PowerResult& basis, const power::PowerResult& modelled,
                           const std::vector<LevelPower>& levels, std::shared_ptr<const PueModel> model)
{
    EnergyResult e;
    e.model = std::move(model);
    if (e.model) {
        e.pue = e.model->pue;
        char src[256];
        std::snprintf(src, sizeof src, "modelled: %s, %s, zone %s, %dth percentile of %.3f-%.3f; Lei and Masanet 2022",
                      e.model->system.c_str(), e.model->size.c_str(), e.model->zone.c_str(), e.model->percentile,
                      e.model->p05, e.model->p95);
        e.pueSource = src;
    } else {
        e.pue = d.facility.pue;
        e.pueSource = d.facility.pueSource;
    }
    e.loadFactor = d.facility.loadFactor;
    e.hoursPerYear = d.facility.hoursPerYear;
    e.gridKgPerKWh = d.facility.gridKgPerKWh;
    e.gridSource = d.facility.gridSource;
    e.basis = basis.basis;
    for (const LevelPower& l : levels) {
        EnergyLevel x;
        x.share = l.level.share;
        x.load = l.level.load;
        x.itW = l.power->cluster.acInputW;
        x.cduW = l.power->cluster.cduModelledW;
        x.facilityW = (x.itW + x.cduW) * e.pue;
        e.profile.push_back(x);
    }
    if (!e.profile.empty()) { // the year's mean draw over the full-load draw
        double mean = 0;
        for (const EnergyLevel& x : e.profile)
            mean += x.share * x.itW;
        e.loadFactor = modelled.cluster.acInputW > 0 ? mean / modelled.cluster.acInputW : NAN;
    }
    auto levelAc = [&](auto pick) {
        std::vector<double> w;
        for (const LevelPower& l : levels)
            w.push_back(pick(*l.power));
        return w;
    };
    for (std::size_t h = 0; h < basis.halls.size() && h < modelled.halls.size(); ++h)
        e.halls.push_back(group(
            basis.halls[h].id, basis.halls[h], modelled.halls[h],
            levelAc([h](const power::PowerResult& p) { return h < p.halls.size() ? p.halls[h].acInputW + p.halls[h].cduModelledW : 0.0; }), e));
    e.total = group("all", basis.cluster, modelled.cluster,
                    levelAc([](const power::PowerResult& p) { return p.cluster.acInputW + p.cluster.cduModelledW; }), e);
    return e;
}

} // namespace rdt::analysis
