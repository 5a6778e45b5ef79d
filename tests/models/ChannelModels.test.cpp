#include <catch2/catch.hpp>

#include <cmath>

#include "models/ChannelModels.h"

using namespace rdt;

TEST_CASE("trace loss against the closed-form conductor and dielectric formulas", "[models][channel]")
{
    models::TraceModel t;
    t.roughnessM = 0.0; // smooth copper for the closed form
    const double f = 10e9, c = 299792458.0;
    // Conductor: α_c = Rs / (2·Z0·w), Rs = √(π f μ0 ρ).
    const double rs = std::sqrt(M_PI * f * 4e-7 * M_PI * 1.72e-8);
    CHECK(t.conductorLoss(f) == Approx(rs / (2 * 50.0 * 0.1e-3)).epsilon(1e-12));
    // Dielectric at the fit frequency: α_d = π f √Dk · tanδ / c to first order in tanδ.
    const double alphaD = t.gamma(f).real() - t.conductorLoss(f);
    CHECK(alphaD == Approx(M_PI * f * std::sqrt(3.3) * 0.002 / c).epsilon(1e-4));
    // Phase velocity from Dk: β = ω √Dk / c.
    CHECK(t.gamma(f).imag() == Approx(2 * M_PI * f * std::sqrt(3.3) / c).epsilon(1e-5));
    // Roughness only adds loss, and tends to 2× when Δ ≫ δ.
    CHECK(models::roughnessFactor(f, 0.5e-6) > 1.0);
    CHECK(models::roughnessFactor(1e12, 10e-6) == Approx(2.0).epsilon(1e-3));
}

TEST_CASE("Djordjevic–Sarkar: fitted point, falling Dk and causal loss growth", "[models][channel]")
{
    const models::DjordjevicSarkar ds(3.3, 0.002, 10e9);
    const auto e = ds.permittivity(10e9);
    CHECK(e.real() == Approx(3.3).epsilon(1e-12));
    CHECK(-e.imag() / e.real() == Approx(0.002).epsilon(1e-12));
    CHECK(ds.permittivity(1e9).real() > ds.permittivity(50e9).real()); // Dk falls with frequency
    double last = 0;
    for (double f = 1e9; f <= 60e9; f += 1e9) {
        models::TraceModel t;
        const double loss = models::lossDbPerM(t.gamma(f));
        CHECK(loss > last);
        last = loss;
    }
}

TEST_CASE("twinax loss scales with gauge and √f", "[models][channel]")
{
    models::TwinaxModel thin, thick;
    thin.awg = 30;
    thick.awg = 26;
    CHECK(thick.diameterM() == Approx(0.405e-3).epsilon(0.01)); // 26 AWG is 0.405 mm
    const double f = 26.5625e9;
    CHECK(models::lossDbPerM(thin.gamma(f)) > models::lossDbPerM(thick.gamma(f)));
    // Conductor loss dominates: four times the frequency gives roughly twice the loss.
    const double ratio = models::lossDbPerM(thin.gamma(4 * 5e9)) / models::lossDbPerM(thin.gamma(5e9));
    CHECK(ratio > 1.9);
    CHECK(ratio < 2.4);
    // A 2 m 30 AWG 400G DAC at Nyquist lands in the tens of dB, the range 802.3ck budgets for.
    const double il = 2.0 * models::lossDbPerM(thin.gamma(f));
    CHECK(il > 8.0);
    CHECK(il < 30.0);
}
