// The `liquid` lines of rdt check's summary: one per loop (cli/TextOutput.h).
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "cli/TextOutput.h"
#include "liquid/LiquidDesign.h"

namespace rdt::cli {

std::string liquidSummaryText(const liquid::LiquidResult& L)
{
    std::ostringstream out;
    char b[512];
    for (const liquid::LoopLiquid& l : L.loops) {
        double minPerKw = INFINITY, hottestCase = NAN;
        std::string minTray, hotTray;
        int starved = 0; // trays whose plates run below their measured flow: case not known
        for (int ri : l.racks)
            for (int ti : L.racks[static_cast<std::size_t>(ri)].trays) {
                const liquid::TrayLiquid& t = L.trays[static_cast<std::size_t>(ti)];
                const double perKw = t.heatW > 0 ? t.flowM3s * 6e4 / (t.heatW / 1e3) : INFINITY;
                if (perKw < minPerKw) {
                    minPerKw = perKw;
                    minTray = t.id;
                }
                starved += t.plateMeasured ? 0 : 1;
                if (std::isfinite(t.caseC) && !(t.caseC <= hottestCase)) {
                    hottestCase = t.caseC;
                    hotTray = t.id;
                }
            }
        char rho[32] = ""; // the air a liquid-to-air unit's fans move (its capacity hangs on it)
        if (!std::isnan(l.airDensity))
            std::snprintf(rho, sizeof rho, " (%.3g kg/m3)", l.airDensity);
        char basis[64] = ""; // the heat the CDUs are sized for, where the budget's basis puts it higher
        if (l.basisHeatW > l.heatW * (1 + 1e-9))
            std::snprintf(basis, sizeof basis, " (%.1f kW at %s)", l.basisHeatW / 1e3,
                          std::string(core::powerBasisName(L.basis)).c_str());
        const bool rated = !(l.capacityAtFlowW < l.capacityW); // the capacity printed is the rating
        std::snprintf(b, sizeof b,
                      "liquid   %s: %d/%d %s (%s), %.1f kW%s at %.0f L/min (pumps %.0f %%), supply %.1f degC%s, return "
                      "%.1f degC, capacity %.1f kW at %.1f degC %s%s; least flow %.2f L/min per kW (%s)",
                      l.id.c_str(), l.running, l.count, l.cdu.c_str(), l.type.c_str(), l.heatW / 1e3, basis,
                      l.flowM3s * 6e4, l.pumpSpeed * 100, l.supplyC,
                      !l.holdsSetpoint ? " (above its setpoint: capacity short)"
                      // held at the loop's own flow, but beyond what liquid.cdu.heat allows (limitW: the
                      // rating, or less at the flow the control sets for the budget's heat)
                      : l.heatW > l.limitW() * (1 + 1e-9)
                          ? (rated ? " (held at this flow, beyond the units' rated capacity)"
                                   : " (held at this flow, beyond the units' capacity at their flow)")
                      : l.basisHeatW > l.limitW() * (1 + 1e-9)
                          ? (rated ? " (held at this flow; its heat on the budget's basis is beyond the units' rated "
                                     "capacity)"
                                   : " (held at this flow; its heat on the budget's basis is beyond the units' "
                                     "capacity at the flow their control sets for it)")
                          : "",
                      l.returnC, l.limitW() / 1e3, l.facilityC, l.type == "liquid-to-air" ? "air" : "facility water",
                      rho, minPerKw, minTray.c_str());
        out << b;
        if (!hotTray.empty()) {
            std::snprintf(b, sizeof b, ", hottest plate case %.1f degC (%s)", hottestCase, hotTray.c_str());
            out << b;
        }
        // The hottest known case leaves out plates below their measured flow: said, not hidden (trust
        // trial: "hottest plate case 69.7 degC" beside 9 starved trays).
        if (starved > 0)
            out << (hotTray.empty() ? ", " : " among measured plates; ") << starved
                << (starved == 1 ? " tray's plates starved, case not known"
                                 : " trays' plates starved, cases not known");
        if (!l.scenario.empty())
            out << " [" << l.scenario << "]";
        out << "\n";
        if (!l.propertiesNote.empty())
            out << "         " << l.propertiesNote << "\n";
    }
    return out.str();
}

} // namespace rdt::cli
