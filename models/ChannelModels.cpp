#include "models/ChannelModels.h"

#include <cmath>

namespace rdt::models {

namespace {
constexpr double kMu0 = 4e-7 * M_PI;
constexpr double kC = 299792458.0;
constexpr double kRhoCu = 1.72e-8;
constexpr double kM1 = 4.0, kM2 = 12.0;

std::complex<double> dsLog(double hz)
{
    const double w = 2 * M_PI * hz;
    return std::log(std::complex<double>(std::pow(10.0, kM2), w) / std::complex<double>(std::pow(10.0, kM1), w)) /
           std::log(10.0);
}
} // namespace

DjordjevicSarkar::DjordjevicSarkar(double dk, double df, double refHz)
{
    // ε(ω) = ε∞ + k·log10((ω2 + jω)/(ω1 + jω)), k = Δε/(m2 − m1); fitted so that ε' = Dk and
    // ε''/ε' = Df at the reference frequency.
    const std::complex<double> a = dsLog(refHz);
    m_k = -dk * df / a.imag();
    m_epsInf = dk - m_k * a.real();
}

std::complex<double> DjordjevicSarkar::permittivity(double hz) const
{
    return m_epsInf + m_k * dsLog(hz);
}

double surfaceResistance(double hz)
{
    return std::sqrt(M_PI * hz * kMu0 * kRhoCu);
}

double roughnessFactor(double hz, double rms)
{
    if (rms <= 0 || hz <= 0)
        return 1.0;
    const double delta = std::sqrt(kRhoCu / (M_PI * hz * kMu0)); // skin depth
    return 1.0 + 2.0 / M_PI * std::atan(1.4 * (rms / delta) * (rms / delta));
}

double TraceModel::conductorLoss(double hz) const
{
    return surfaceResistance(hz) * roughnessFactor(hz, roughnessM) * returnFactor / (2.0 * impedanceOhm * widthM);
}

std::complex<double> TraceModel::gamma(double hz) const
{
    const DjordjevicSarkar ds(dk, df, refHz);
    const std::complex<double> eps = ds.permittivity(hz);
    // γ = jω√(μ0 ε0 ε) = j(ω/c)√ε; with ε = ε' − jε'' this has a positive real part (loss).
    const std::complex<double> gd = std::complex<double>(0, 2 * M_PI * hz / kC) * std::sqrt(eps);
    return gd + conductorLoss(hz);
}

double TwinaxModel::diameterM() const
{
    return 0.127e-3 * std::pow(92.0, (36.0 - awg) / 39.0);
}

std::complex<double> TwinaxModel::gamma(double hz) const
{
    // Two conductors of the pair carry the current (R = 2·Rs/(π d)), the shield adds its share.
    const double r = 2.0 * surfaceResistance(hz) / (M_PI * diameterM()) * shieldFactor;
    const DjordjevicSarkar ds(dk, df, refHz);
    return std::complex<double>(0, 2 * M_PI * hz / kC) * std::sqrt(ds.permittivity(hz)) + r / (2.0 * impedanceOhm);
}

double lossDbPerM(std::complex<double> g)
{
    return 20.0 / std::log(10.0) * g.real();
}

} // namespace rdt::models
