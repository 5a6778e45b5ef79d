#include "models/AirProperties.h"

#include <algorithm>
#include <cmath>

namespace rdt::models {

namespace {
constexpr double kSeaLevelPa = 101325.0;
constexpr double kSeaLevelK = 288.15;
constexpr double kLapseKPerM = 0.0065;
constexpr double kGasConstantAir = 287.05; // J/(kg·K)
constexpr double kGravity = 9.80665;
} // namespace

double pressureAtAltitudePa(double altitudeM)
{
    // Barometric formula for a constant lapse rate; exponent g·M/(R*·L) = g/(R_air·L).
    return kSeaLevelPa *
           std::pow(1.0 - kLapseKPerM * altitudeM / kSeaLevelK, kGravity / (kGasConstantAir * kLapseKPerM));
}

double airDensity(double temperatureK, double pressurePa)
{
    return pressurePa / (kGasConstantAir * temperatureK);
}

double airSpecificHeat(double temperatureK)
{
    // Table [T6]: 1.005 kJ/(kg·K) up to 40 °C, 1.009 at 60–80 °C.
    const double c = temperatureK - 273.15;
    return c <= 40.0 ? 1005.0 : 1005.0 + std::fmin(4.0, (c - 40.0) * 0.2);
}

double airflowForHeat(double heatW, double deltaTK, double temperatureK, double pressurePa)
{
    return heatW / (airDensity(temperatureK, pressurePa) * airSpecificHeat(temperatureK) * deltaTK);
}

double dewPointC(double airC, double rh)
{
    constexpr double a = 17.62, b = 243.12;
    const double g = std::log(std::max(rh, 1e-6)) + a * airC / (b + airC);
    return b * g / (a - g);
}

} // namespace rdt::models
