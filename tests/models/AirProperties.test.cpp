#include <catch2/catch.hpp>

#include "models/AirProperties.h"

using namespace rdt::models;

TEST_CASE("air density matches the Engineering ToolBox table within 0.3 %", "[air]")
{
    // [T6] at 1 atm: 0 °C 1.293, 20 °C 1.205, 40 °C 1.127 kg/m³. (Its 60 °C entry, 1.067, is 0.7 %
    // above both the ideal gas and the Poling correlation below, which agree with each other.)
    const double p0 = pressureAtAltitudePa(0.0);
    CHECK(p0 == Approx(101325.0));
    CHECK(airDensity(273.15, p0) == Approx(1.293).epsilon(0.003));
    CHECK(airDensity(293.15, p0) == Approx(1.205).epsilon(0.003));
    CHECK(airDensity(313.15, p0) == Approx(1.127).epsilon(0.003));
}

TEST_CASE("air density matches the Poling et al. correlation within 0.1 % from 0 to 100 °C", "[air]")
{
    // [T6b]: ρ = 351.99/T + 344.88/T² kg/m³ at 1 atm, 200–400 K.
    for (double t = 273.15; t <= 373.15; t += 10.0)
        CHECK(airDensity(t, 101325.0) == Approx(351.99 / t + 344.88 / (t * t)).epsilon(0.001));
}

TEST_CASE("pressure at altitude matches the [T5] ratios within 1 %", "[air]")
{
    // 2,000 ft 0.93 atm, 6,000 ft 0.80 atm, 10,000 ft 0.69 atm.
    CHECK(pressureAtAltitudePa(609.6) / 101325.0 == Approx(0.93).epsilon(0.01));
    CHECK(pressureAtAltitudePa(1828.8) / 101325.0 == Approx(0.80).epsilon(0.01));
    CHECK(pressureAtAltitudePa(3048.0) / 101325.0 == Approx(0.69).epsilon(0.01));
    // Density falls with altitude in the same ratio at fixed temperature.
    CHECK(airDensity(300, pressureAtAltitudePa(1828.8)) / airDensity(300, 101325.0) == Approx(0.80).epsilon(0.01));
}

TEST_CASE("airflow for heat reproduces the 154–157 CFM/kW rule at a 20 °F rise", "[air]")
{
    // [T3][T5]: about 154–157 CFM per kW at ΔT = 20 °F (11.1 K) near room temperature.
    const double m3s = airflowForHeat(1000.0, 20.0 * 5.0 / 9.0, 293.15, 101325.0);
    const double cfm = m3s / (0.3048 * 0.3048 * 0.3048 / 60.0);
    CHECK(cfm == Approx(155.5).epsilon(0.015));
    CHECK(airSpecificHeat(293.15) == 1005.0);
    CHECK(airSpecificHeat(353.15) == Approx(1009.0));
}
