#include <catch2/catch.hpp>

#include <cmath>

#include "models/ChannelModels.h"
#include "signal/NetworkAlgebra.h"
#include "signal/TimeDomain.h"
#include "signal/Touchstone.h"

using namespace rdt;
using cd = std::complex<double>;

static const std::string kKr4 = RDT_SOURCE_DIR "/data/channels/kr4-example2/";

TEST_CASE("an ideal channel returns the one-UI pulse, a delay only moves it", "[signal][pulse]")
{
    std::vector<double> f;
    std::vector<cd> flat, delayed;
    const double tau = 250e-12;
    for (int k = 0; k <= 4000; ++k) {
        f.push_back(k * 50e6); // to 200 GHz, far above the baud rate
        flat.push_back(1.0);
        delayed.push_back(std::exp(cd(0, -2 * M_PI * f.back() * tau)));
    }
    signal::PulseOptions o;
    o.baudHz = 26.5625e9;
    o.rxBandwidthFraction = 0;
    const signal::PulseResponse a = signal::pulseResponse(f, flat, o);
    // Area under the pulse equals one UI (the DC gain is 1).
    double area = 0;
    for (double v : a.v)
        area += v * a.dtS;
    CHECK(area == Approx(1.0 / o.baudHz).epsilon(1e-6));
    // The rectangle's middle half averages to 1; band-limiting leaves Gibbs ripple (~2 % at the
    // centre for a 190 GHz band edge: (2/π)·Si(π·fc·UI) = 1.025) and ~9 % overshoot at the edges.
    double mid = 0;
    for (int i = o.samplesPerUi / 4; i < 3 * o.samplesPerUi / 4; ++i)
        mid += a.v[static_cast<std::size_t>(i)] / (o.samplesPerUi / 2);
    CHECK(mid == Approx(1.0).epsilon(0.01));
    CHECK(a.cursor(0) < 1.1);
    CHECK(std::fabs(a.cursor(2)) < 0.02);
    const signal::PulseResponse b = signal::pulseResponse(f, delayed, o);
    CHECK((b.peak - a.peak) * b.dtS == Approx(tau).margin(b.dtS));
}

TEST_CASE("the pulse response of the real KR4 channel is causal", "[signal][pulse][causality]")
{
    const signal::Network mm = signal::mixedMode(signal::readTouchstone(kKr4 + "example2_THRU.s4p"));
    std::vector<cd> sdd21;
    for (const auto& s : mm.s)
        sdd21.push_back(s(1, 0));
    signal::PulseOptions o;
    o.baudHz = 25.78125e9; // 100GBASE-KR4 NRZ
    const signal::PulseResponse p = signal::pulseResponse(mm.freqHz, sdd21, o);
    CHECK(p.cursor(0) > 0.05);
    CHECK(p.cursor(0) < 1.0);
    // Nothing of note arrives more than 3 UI before the main cursor.
    CHECK(signal::precursorEnergyFraction(p, 3.0) < 1e-3);
    // The channel delay (a few ns) shows as the peak position.
    CHECK(p.peak * p.dtS > 1e-9);
}

TEST_CASE("a longer cable gives a smaller main cursor", "[signal][pulse]")
{
    models::TwinaxModel cable;
    std::vector<double> f;
    for (int k = 0; k <= 2000; ++k)
        f.push_back(k * 40e6);
    double last = 2.0;
    for (double len : {0.5, 1.0, 2.0, 3.0}) {
        std::vector<cd> h;
        for (double x : f)
            h.push_back(std::exp(-cable.gamma(std::max(x, 1e6)) * len));
        const signal::PulseResponse p = signal::pulseResponse(f, h, {});
        CHECK(p.cursor(0) < last);
        last = p.cursor(0);
    }
}
