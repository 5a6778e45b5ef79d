#include "models/Coolant.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rdt::models {
namespace {

/// PG25 at 20, 30, 40, 50 °C: ρ, c_p, μ, k (liquid-cooling.md §2.1, [M5]).
constexpr std::array<double, 4> kPgT{20, 30, 40, 50};
constexpr std::array<double, 4> kPgRho{1020.1, 1015.6, 1010.5, 1004.9};
constexpr std::array<double, 4> kPgCp{3910, 3934, 3959, 3983};
constexpr std::array<double, 4> kPgMu{2.53e-3, 1.83e-3, 1.39e-3, 1.10e-3};
constexpr std::array<double, 4> kPgK{0.464, 0.472, 0.481, 0.490};

[[noreturn]] void outside(Coolant c, double t)
{
    const CoolantRange r = coolantRange(c);
    char b[200];
    std::snprintf(b, sizeof b, "%s properties are known from %.0f to %.0f degC, not at %.2f degC",
                  std::string(coolantName(c)).c_str(), r.minC, r.maxC, t);
    throw std::out_of_range(b);
}

} // namespace

std::string_view coolantName(Coolant coolant)
{
    return coolant == Coolant::PG25 ? "PG25" : "water";
}

CoolantRange coolantRange(Coolant coolant)
{
    return coolant == Coolant::PG25 ? CoolantRange{20.0, 50.0} : CoolantRange{0.0, 90.0};
}

CoolantProperties coolantProperties(Coolant coolant, double t)
{
    const CoolantRange range = coolantRange(coolant);
    if (!(t >= range.minC && t <= range.maxC))
        outside(coolant, t);
    CoolantProperties p;
    if (coolant == Coolant::PG25) {
        std::size_t i = 0;
        while (i + 2 < kPgT.size() && t > kPgT[i + 1])
            ++i;
        const double f = (t - kPgT[i]) / (kPgT[i + 1] - kPgT[i]);
        const auto lin = [&](const std::array<double, 4>& v) { return v[i] + f * (v[i + 1] - v[i]); };
        p.density = lin(kPgRho);
        p.specificHeat = lin(kPgCp);
        p.conductivity = lin(kPgK);
        p.viscosity = std::exp(std::log(kPgMu[i]) + f * (std::log(kPgMu[i + 1]) - std::log(kPgMu[i])));
        return p;
    }
    // Tanaka, Girard, Davis, Peuto & Bignell (2001), Metrologia 38, 301: air-free water, 0–40 °C
    // within 1 ppm, to 100 °C within 0.1 %.
    p.density = 999.974950 * (1.0 - (t - 3.983035) * (t - 3.983035) * (t + 301.797) / (522528.9 * (t + 69.34881)));
    // Vogel: μ = A·10^(B / (T − C)), T in K.
    p.viscosity = 2.414e-5 * std::pow(10.0, 247.8 / (t + 273.15 - 140.0));
    // IAPWS-95 (specific heat) and IAPWS 2011 (conductivity) at 0.1 MPa, every 10 °C to 90 °C.
    static constexpr std::array<double, 10> kCp{4219.9, 4195.5, 4184.1, 4180.1, 4179.6,
                                                4181.5, 4185.1, 4190.1, 4196.5, 4204.4};
    static constexpr std::array<double, 10> kK{0.5610, 0.5800, 0.5984, 0.6154, 0.6305,
                                               0.6435, 0.6543, 0.6631, 0.6700, 0.6753};
    const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(t / 10.0), 8);
    const double f = (t - 10.0 * static_cast<double>(i)) / 10.0;
    p.specificHeat = kCp[i] + f * (kCp[i + 1] - kCp[i]);
    p.conductivity = kK[i] + f * (kK[i + 1] - kK[i]);
    return p;
}

double coolantRiseK(Coolant coolant, double temperatureC, double heatW, double flowM3s)
{
    const CoolantProperties p = coolantProperties(coolant, temperatureC);
    return heatW / (p.density * flowM3s * p.specificHeat);
}

} // namespace rdt::models
