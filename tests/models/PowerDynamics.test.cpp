// The mathematics of the power waveform against the power-dynamics reference note's validation cases
// (../shared/reference/power-dynamics.md §8, V1, V3, V5): a sampled square wave's spectrum against
// its closed-form harmonics and energy shares, the power floor's energy cost, and a single-machine
// grid's frequency response.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "models/PowerDynamics.h"

using namespace rdt::models;

namespace {

/// A square wave of 1 MW swing, period 1 s, duty D, sampled at 100 Hz for 600 s (V1), with linear
/// edges of `edge` seconds centred on the ideal switching instants.
std::vector<double> squareWave(double duty, double edge = 0)
{
    const double dt = 0.01, period = 1.0;
    std::vector<double> x(60000);
    for (std::size_t i = 0; i < x.size(); ++i) {
        // Integrate each sample's interval exactly (0.01 s steps): the mean of the wave over it.
        const double t0 = static_cast<double>(i) * dt;
        double sum = 0;
        const int sub = 100;
        for (int k = 0; k < sub; ++k) {
            const double t = std::fmod(t0 + (k + 0.5) * dt / sub, period);
            // A trapezoid: edges of `edge` seconds centred on the switching instants 0 and D·T.
            const double h = edge / 2, down = duty * period;
            double v = t < down ? 1.0 : 0.0;
            if (edge > 0) {
                if (t < h)
                    v = 0.5 + t / edge;
                else if (t > period - h)
                    v = 0.5 + (t - period) / edge;
                else if (std::abs(t - down) <= h)
                    v = 0.5 - (t - down) / edge;
            }
            sum += v;
        }
        x[i] = 1e6 * sum / sub;
    }
    return x;
}

} // namespace

TEST_CASE("A square wave's spectrum has its closed-form harmonics and energy shares (V1)", "[models][dynamics]")
{
    // 50 % duty: odd harmonics 2/(nπ), the fundamental 81.06 % of the AC energy, 90.06 % to the 3rd.
    {
        const AmplitudeSpectrum s = amplitudeSpectrum(squareWave(0.5), 0.01);
        REQUIRE(s.stepHz == Approx(1.0 / 600));
        const auto at = [&](double hz) { return s.amplitude[static_cast<std::size_t>(std::llround(hz / s.stepHz))]; };
        const double expected[] = {0.6366, 0, 0.2122, 0, 0.1273, 0, 0.0909};
        for (int n = 1; n <= 7; ++n) {
            INFO("harmonic " << n);
            // The note's figures to its 4 digits; sampling at 100 Hz shifts high harmonics by sinc(nπ/100).
            CHECK(at(n) / 1e6 == Approx(expected[n - 1]).margin(1e-3));
            CHECK(at(n) == Approx(squareWaveHarmonic(n, 1e6, 0.5)).margin(1e-3 * 1e6));
        }
        CHECK(s.acVariance == Approx(squareWaveVariance(1e6, 0.5)).epsilon(1e-9));
        CHECK(bandShare(s, 0.5, 1.5) == Approx(0.8106).margin(2e-3));
        CHECK(bandShare(s, 0.5, 3.5) == Approx(0.9006).margin(2e-3));
        CHECK(bandShare(s, 0.5, 5.5) == Approx(0.9331).margin(2e-3));
        CHECK(bandShare(s, 0.5, 19.5) == Approx(0.9798).margin(3e-3));
    }
    // 70 % duty: a₁ 0.5150, a₂ 0.3027, a₃ 0.0656, a₄ 0.0935, a₅ 0.1273; the fundamental 63.2 %.
    {
        const AmplitudeSpectrum s = amplitudeSpectrum(squareWave(0.7), 0.01);
        const auto at = [&](double hz) { return s.amplitude[static_cast<std::size_t>(std::llround(hz / s.stepHz))]; };
        const double expected[] = {0.5150, 0.3027, 0.0656, 0.0935, 0.1273};
        for (int n = 1; n <= 5; ++n) {
            INFO("harmonic " << n);
            CHECK(at(n) / 1e6 == Approx(expected[n - 1]).margin(1e-3));
        }
        CHECK(bandShare(s, 0.5, 1.5) == Approx(0.632).margin(2e-3));
        CHECK(bandShare(s, 0.5, 3.5) == Approx(0.860).margin(3e-3));
    }
    // Edges of a tenth of the period: the fundamental × 0.9836, the 3rd × 0.8584.
    {
        CHECK(squareWaveHarmonic(1, 1, 0.5, 0.1, 1) / squareWaveHarmonic(1, 1, 0.5) == Approx(0.9836).margin(1e-4));
        CHECK(squareWaveHarmonic(3, 1, 0.5, 0.1, 1) / squareWaveHarmonic(3, 1, 0.5) == Approx(0.8584).margin(1e-4));
        const AmplitudeSpectrum s = amplitudeSpectrum(squareWave(0.5, 0.1), 0.01);
        const auto at = [&](double hz) { return s.amplitude[static_cast<std::size_t>(std::llround(hz / s.stepHz))]; };
        CHECK(at(1) / 1e6 == Approx(0.6366 * 0.9836).margin(1e-3));
        CHECK(at(3) / 1e6 == Approx(0.2122 * 0.8584).margin(1e-3));
    }
}

TEST_CASE("Ramps are the change of consecutive window means", "[models][dynamics]")
{
    // A step of 10 MW: over 1 s windows it is 10 MW per second; over 60 s windows 10 MW per minute.
    std::vector<double> x(30000, 0.0);
    for (std::size_t i = 15000; i < x.size(); ++i)
        x[i] = 10e6;
    CHECK(largestRamp(x, 0.01, 1) == Approx(10e6));
    CHECK(largestRamp(x, 0.01, 60) * 60 == Approx(10e6));
    // A window that is not a whole number of samples: the means are over 3 samples of 0.3 s, 0.9 s.
    std::vector<double> coarse(100, 0.0);
    for (std::size_t i = 50; i < coarse.size(); ++i)
        coarse[i] = 9e6;
    CHECK(largestRamp(coarse, 0.3, 1.0) == Approx(9e6 / 0.9));
    // A 2 s square wave of 13.52 MW averages out over a minute's windows (30 whole periods).
    std::vector<double> sq(60000);
    for (std::size_t i = 0; i < sq.size(); ++i)
        sq[i] = std::fmod(static_cast<double>(i) * 0.01, 2.0) < 1.0 ? 13.52e6 : 0.0;
    CHECK(largestRamp(sq, 0.01, 1) == Approx(13.52e6).epsilon(1e-9));
    CHECK(largestRamp(sq, 0.01, 60) < 1.0);
}

TEST_CASE("The power floor's energy cost and the storage that flattens a swing, in closed form (V3, V4)",
          "[models][dynamics]")
{
    // p_lo 0.2, F 0.9: D 0.5 → 58.3 %, 0.8 → 16.7 %, 0.87 → 10.2 % (published: 10.5 %), 0.9 → 7.6 %.
    CHECK(floorEnergyShare(0.9, 0.2, 0.5) == Approx(0.583).margin(1e-3));
    CHECK(floorEnergyShare(0.9, 0.2, 0.8) == Approx(0.167).margin(1e-3));
    CHECK(floorEnergyShare(0.9, 0.2, 0.87) == Approx(0.102).margin(1e-3));
    CHECK(floorEnergyShare(0.9, 0.2, 0.9) == Approx(0.076).margin(1e-3));
    CHECK(floorEnergyShare(0.65, 0.2, 0.87) == Approx(0.065).margin(1e-3));
    CHECK(floorEnergyShare(0.1, 0.2, 0.5) == 0);
    // A GB300 rack: 72 × (1,400 − 300) W at 2 s and 50 %: 39.6 kJ a swing against 72 × 65 J.
    CHECK(flatteningEnergy(72 * 1100.0, 0.5, 2.0) == Approx(39.6e3));
    // Its battery shelves used every iteration (V4): 356 / 691 / 475 equivalent full cycles a day for
    // HPR 20 kW x 240 s, HPR 27.5 kW x 90 s and ORv3 15 kW x 240 s.
    CHECK(cyclesPerDay(39.6e3, 2.0, 20e3 * 240) == Approx(356).margin(0.5));
    CHECK(cyclesPerDay(39.6e3, 2.0, 27.5e3 * 90) == Approx(691).margin(0.5));
    CHECK(cyclesPerDay(39.6e3, 2.0, 15e3 * 240) == Approx(475).margin(0.5));
    // The 24k job's swing (V2): 24,576 × (700 − 150) W = 13.52 MW, its fundamental 8.61 MW.
    CHECK(24576 * 550.0 == Approx(13.52e6).epsilon(1e-3));
    CHECK(squareWaveHarmonic(1, 24576 * 550.0, 0.5) == Approx(8.61e6).epsilon(1e-3));
}

TEST_CASE("A single-machine grid's frequency response to a step and to sinusoids (V5)", "[models][dynamics]")
{
    const GridMachine g; // H 6 s, D 3, R 0.05, Tg 0.3 s, 1 GW at 60 Hz
    CHECK(stepRocofHzPerS(g, 50e6) == Approx(0.25));
    CHECK(stepDeviationHz(g, 50e6) == Approx(-0.130).margin(5e-4));
    CHECK(sinusoidDeviationHz(g, 50e6, 0.05) == Approx(0.131).margin(1e-3));
    CHECK(sinusoidDeviationHz(g, 50e6, 0.15) == Approx(0.134).margin(1e-3));
    CHECK(sinusoidDeviationHz(g, 50e6, 0.5) == Approx(0.097).margin(1e-3));
    CHECK(sinusoidDeviationHz(g, 50e6, 1.0) == Approx(0.044).margin(1e-3));
    CHECK(sinusoidDeviationHz(g, 50e6, 2.0) == Approx(0.021).margin(1e-3));
}
