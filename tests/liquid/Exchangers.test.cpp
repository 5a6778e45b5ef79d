// Cold plates and CDUs against the reference note's cases (../shared/reference/liquid-cooling.md
// §2.2 #4, #15, #16; §4.2) and the log-mean temperature difference, an independent method.
#include <catch2/catch.hpp>

#include <cmath>

#include "liquid/Exchangers.h"

using namespace rdt;

namespace {

constexpr double kLpm = 1.0e-3 / 60.0;

/// The OCP 1 kW OAM cold plate on PG25 (OCP Fig. 7 [M2]): L/min → K/W.
liquid::ColdPlate ocpPlate()
{
    const double v[] = {0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4};
    const double r[] = {0.0389, 0.0325, 0.0300, 0.0280, 0.0265, 0.0255, 0.0245,
                        0.0230, 0.0220, 0.0214, 0.0209, 0.0204, 0.0200, 0.0197};
    liquid::ColdPlate p;
    for (std::size_t i = 0; i < 14; ++i)
        p.resistance.emplace_back(v[i] * kLpm, r[i]);
    return p;
}

/// Counterflow UA from the log-mean temperature difference: Q / ΔT_lm.
double lmtdUa(double q, double approach, double itRate, double facilityRate)
{
    const double itRise = q / itRate, fwRise = q / facilityRate;
    const double hotEnd = approach + itRise - fwRise, coldEnd = approach;
    const double lm = std::abs(hotEnd - coldEnd) < 1e-12 ? coldEnd : (hotEnd - coldEnd) / std::log(hotEnd / coldEnd);
    return q / lm;
}

} // namespace

TEST_CASE("liquid: the OCP 1 kW cold plate — case rise at 1.0, 1.5 and 2.0 L/min, and a starved plate", "[liquid]")
{
    const liquid::ColdPlate p = ocpPlate();
    // §4.2: T_case − T_in = 21.7 K at 1.5 L/min PG25, 24.5 K at 1.0, 20.4 K at 2.0 (1 kW).
    CHECK(liquid::plateRise(p, 1.5 * kLpm, 1000).riseK == Approx(21.7).margin(0.05));
    CHECK(liquid::plateRise(p, 1.0 * kLpm, 1000).riseK == Approx(24.5).margin(0.05));
    CHECK(liquid::plateRise(p, 2.0 * kLpm, 1000).riseK == Approx(20.4).margin(0.05));
    CHECK(liquid::plateRise(p, 1.5 * kLpm, 500).riseK == Approx(10.85).margin(0.03)); // linear in heat
    // Below the lowest measured flow: not characterised, said so; above the highest: its R.
    const liquid::PlateRise starved = liquid::plateRise(p, 0.3 * kLpm, 1000);
    CHECK_FALSE(starved.measured);
    CHECK(std::isnan(starved.riseK));
    CHECK(liquid::plateRise(p, 3.0 * kLpm, 1000).riseK == Approx(19.7).margin(1e-9));
    liquid::ColdPlate bad = p;
    std::swap(bad.resistance[2], bad.resistance[3]);
    CHECK_THROWS_AS(liquid::plateRise(bad, 1.5 * kLpm, 1000), std::invalid_argument);
}

TEST_CASE("liquid: counterflow effectiveness — limits and the inverse", "[liquid]")
{
    CHECK(liquid::counterflowEffectiveness(2.0, 0.0) == Approx(1.0 - std::exp(-2.0)).epsilon(1e-12));
    CHECK(liquid::counterflowEffectiveness(3.0, 1.0) == Approx(0.75).epsilon(1e-12));
    CHECK(liquid::counterflowEffectiveness(2.0, 0.5) ==
          Approx(0.7746).margin(5e-4)); // Incropera Table 11.3: (1 − e^−1) / (1 − e^−1 / 2)
    CHECK(liquid::counterflowEffectiveness(50.0, 0.5) == Approx(1.0).margin(1e-9));
    for (double cr : {0.0, 0.3, 0.999999, 1.0})
        for (double ntu : {0.1, 1.0, 4.0}) {
            INFO("NTU " << ntu << ", Cr " << cr);
            CHECK(liquid::counterflowNtu(liquid::counterflowEffectiveness(ntu, cr), cr) == Approx(ntu).epsilon(1e-6));
        }
    CHECK_THROWS_AS(liquid::counterflowNtu(1.0, 0.5), std::invalid_argument);
}

TEST_CASE("liquid: CDUs from their rating points — Vertiv XDU1350 and Google Deschutes, checked by LMTD", "[liquid]")
{
    const double cp = 4180.0; // water
    // Vertiv Liebert XDU1350: 1,368 kW at 4 K approach, 20.6 kg/s each side (§2.2 #16, [M3]).
    const liquid::CduRating xdu{1368e3, 4.0, 20.6 * cp, 20.6 * cp};
    const double uaX = liquid::cduUa(xdu);
    CHECK(uaX == Approx(lmtdUa(1368e3, 4.0, xdu.itRate, xdu.facilityRate)).epsilon(1e-9));
    CHECK(uaX == Approx(1368e3 / 4.0).epsilon(1e-9)); // balanced counterflow: ΔT_lm = the approach
    // Google Project Deschutes: 2 MW at 3 K, IT 31.48 kg/s, facility 32.30 kg/s (§2.2 #15, [M4]).
    const liquid::CduRating g{2.0e6, 3.0, 31.48 * cp, 32.30 * cp};
    const double uaG = liquid::cduUa(g);
    CHECK(uaG == Approx(lmtdUa(2.0e6, 3.0, g.itRate, g.facilityRate)).epsilon(1e-9));
    CHECK(uaG / 1e3 == Approx(627.1).margin(0.2));
    // At its rating the model gives the rating back, as capacity and as the heat at its return.
    const double fws = 26.8, itSupply = fws + 3.0, itReturn = itSupply + 2.0e6 / g.itRate;
    CHECK(liquid::cduCapacity(uaG, itSupply, fws, g.itRate, g.facilityRate) == Approx(2.0e6).epsilon(1e-9));
    CHECK(liquid::cduHeat(uaG, itReturn, fws, g.itRate, g.facilityRate) == Approx(2.0e6).epsilon(1e-9));
    // Facility water 1 K warmer, the IT supply held: the capacity scales with the approach (3 → 2 K).
    CHECK(liquid::cduCapacity(uaG, itSupply, fws + 1.0, g.itRate, g.facilityRate) ==
          Approx(2.0e6 * 2.0 / 3.0).epsilon(1e-9));
    CHECK(liquid::cduCapacity(uaG, itSupply, itSupply + 0.5, g.itRate, g.facilityRate) == 0.0);
}
