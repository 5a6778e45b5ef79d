#include "thermal/ThermalChecks.h"

namespace rdt::thermal {

namespace {
constexpr double kC = 273.15;
}

InletRange ashraeAllowable(const std::string& c)
{
    // ASHRAE TC 9.9 2021 reference card, Table 2.1 [T1]; H1 upper limit from [T2], lower assumed 5 °C.
    if (c == "A1")
        return {15 + kC, 32 + kC};
    if (c == "A2")
        return {10 + kC, 35 + kC};
    if (c == "A3")
        return {5 + kC, 40 + kC};
    if (c == "A4")
        return {5 + kC, 45 + kC};
    if (c == "H1")
        return {5 + kC, 25 + kC};
    return {};
}

double deratedMaxInletK(const std::string& ashraeClass, double altitudeM)
{
    const double derate = altitudeM > 900.0 ? (altitudeM - 900.0) / 300.0 : 0.0;
    return ashraeAllowable(ashraeClass).maxK - derate;
}

void registerChecks(core::CheckRegistry& registry)
{
    registry.add({"thermal.ashrae.inlet",
                  "Supply air within the site's ASHRAE class",
                  core::Severity::Error,
                  "ASHRAE TC 9.9 (2021) Table 2.1 allowable ranges [T1]; altitude derating 1 K/300 m above 900 m "
                  "(estimate)",
                  "The design's supply-air temperature lies outside the allowable dry-bulb range of its ASHRAE "
                  "class, with the upper limit derated for altitude.",
                  {}},
                 [](core::CheckContext& ctx) {
                     const core::Site& s = ctx.design().site;
                     const InletRange r = ashraeAllowable(s.ashraeClass);
                     const double maxK = deratedMaxInletK(s.ashraeClass, s.altitudeM);
                     if (s.supplyAirK > maxK)
                         ctx.report("site",
                                    "supply air " + core::formatQuantity(s.supplyAirK, core::Dimension::Temperature) +
                                        " is above the " + s.ashraeClass + " allowable " +
                                        core::formatQuantity(maxK, core::Dimension::Temperature) + " at " +
                                        core::formatQuantity(s.altitudeM, core::Dimension::Length),
                                    s.supplyAirK - kC, maxK - kC, "degC", s.loc);
                     else if (s.supplyAirK < r.minK)
                         ctx.report("site",
                                    "supply air " + core::formatQuantity(s.supplyAirK, core::Dimension::Temperature) +
                                        " is below the " + s.ashraeClass + " allowable " +
                                        core::formatQuantity(r.minK, core::Dimension::Temperature),
                                    s.supplyAirK - kC, r.minK - kC, "degC", s.loc);
                 });
}

} // namespace rdt::thermal
