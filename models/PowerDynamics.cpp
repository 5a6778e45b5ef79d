#include "models/PowerDynamics.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace rdt::models {

AmplitudeSpectrum amplitudeSpectrum(const std::vector<double>& x, double dt)
{
    AmplitudeSpectrum s;
    const std::size_t n = x.size();
    if (n < 4 || !(dt > 0))
        return s;
    double mean = 0;
    for (double v : x)
        mean += v;
    mean /= static_cast<double>(n);
    double var = 0;
    for (double v : x)
        var += (v - mean) * (v - mean);
    s.meanW = mean;
    s.acVariance = var / static_cast<double>(n);
    // Periodic Hann window (a line on a bin reads its amplitude); coherent gain 0.5.
    std::vector<double> w(n);
    for (std::size_t i = 0; i < n; ++i)
        w[i] = (x[i] - mean) * 0.5 * (1.0 - std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n)));
    Eigen::FFT<double> fft;
    std::vector<std::complex<double>> out;
    fft.fwd(out, w);
    s.stepHz = 1.0 / (static_cast<double>(n) * dt);
    s.amplitude.assign(n / 2 + 1, 0.0);
    for (std::size_t k = 1; k <= n / 2; ++k)
        s.amplitude[k] = (2 * k == n ? 1.0 : 2.0) * std::abs(out[k]) / (0.5 * static_cast<double>(n));
    return s;
}

double bandShare(const AmplitudeSpectrum& s, double loHz, double hiHz)
{
    if (!(s.acVariance > 0) || s.amplitude.empty())
        return 0;
    double e = 0;
    for (std::size_t k = 1; k < s.amplitude.size(); ++k) {
        const double f = static_cast<double>(k) * s.stepHz;
        if (f >= loHz && f < hiHz)
            e += 0.5 * s.amplitude[k] * s.amplitude[k];
    }
    return e * (2.0 / 3.0) / s.acVariance;
}

double largestRamp(const std::vector<double>& x, double dt, double windowS)
{
    const auto m = static_cast<std::size_t>(std::llround(windowS / dt));
    if (m == 0 || x.size() < 2 * m)
        return NAN;
    // Prefix sums: the mean of [i, i + m) for every i, and the largest change over m samples.
    std::vector<double> prefix(x.size() + 1, 0.0);
    for (std::size_t i = 0; i < x.size(); ++i)
        prefix[i + 1] = prefix[i] + x[i];
    double worst = 0;
    for (std::size_t i = 0; i + 2 * m <= x.size(); ++i) {
        const double a = (prefix[i + m] - prefix[i]) / static_cast<double>(m);
        const double b = (prefix[i + 2 * m] - prefix[i + m]) / static_cast<double>(m);
        worst = std::max(worst, std::abs(b - a));
    }
    return worst / (static_cast<double>(m) * dt); // the window the means were taken over
}

double squareWaveHarmonic(int n, double swing, double duty, double edgeS, double periodS)
{
    const double pi = std::numbers::pi;
    double a = 2.0 * swing / (n * pi) * std::abs(std::sin(n * pi * duty));
    if (edgeS > 0 && periodS > 0) {
        const double arg = n * pi * edgeS / periodS;
        a *= std::abs(std::sin(arg) / arg);
    }
    return a;
}

double squareWaveVariance(double swing, double duty)
{
    return swing * swing * duty * (1.0 - duty);
}

double floorEnergyShare(double floor, double pLow, double duty)
{
    if (!(floor > pLow))
        return 0;
    return (floor - pLow) * (1.0 - duty) / (duty + (1.0 - duty) * pLow);
}

double flatteningEnergy(double swing, double duty, double periodS)
{
    return swing * duty * (1.0 - duty) * periodS;
}

double cyclesPerDay(double cycleJ, double periodS, double storeJ)
{
    return storeJ > 0 && periodS > 0 ? cycleJ * (86400.0 / periodS) / storeJ : NAN;
}

double stepRocofHzPerS(const GridMachine& g, double stepW)
{
    return stepW / g.baseW / (2.0 * g.inertiaS) * g.nominalHz;
}

double stepDeviationHz(const GridMachine& g, double stepW)
{
    return -stepW / g.baseW / (g.damping + 1.0 / g.droop) * g.nominalHz;
}

double sinusoidDeviationHz(const GridMachine& g, double amplitudeW, double hz)
{
    const std::complex<double> s(0.0, 2.0 * std::numbers::pi * hz);
    const std::complex<double> den = 2.0 * g.inertiaS * s + g.damping + 1.0 / (g.droop * (1.0 + s * g.governorS));
    return amplitudeW / g.baseW * g.nominalHz / std::abs(den);
}

double trapezoidWave(double t, double period, double duty, double edge)
{
    if (duty >= 1.0)
        return 1.0;
    const double ph = std::fmod(t, period), down = duty * period, h = edge / 2;
    double v = ph < down ? 1.0 : 0.0;
    if (edge > 0) {
        if (ph < h)
            v = 0.5 + ph / edge;
        else if (ph > period - h)
            v = 0.5 + (ph - period) / edge;
        else if (std::abs(ph - down) <= h)
            v = 0.5 - (ph - down) / edge;
    }
    return v;
}

} // namespace rdt::models
