#include <catch2/catch.hpp>

#include <cmath>
#include <complex>

#include "signal/NetworkAlgebra.h"
#include "signal/Touchstone.h"

using namespace rdt;
using cd = std::complex<double>;

static const std::string kKr4 = RDT_SOURCE_DIR "/data/channels/kr4-example2/";

namespace {

signal::Network line(double zLine, double delayS, const std::vector<double>& f, double z0 = 50.0)
{
    signal::Network n;
    n.freqHz = f;
    n.z0 = Eigen::Vector2d(z0, z0);
    for (double x : f)
        n.s.push_back(signal::abcd2s(signal::lineAbcd(zLine, 2 * M_PI * x * delayS), n.z0));
    return n;
}

} // namespace

TEST_CASE("a matched lossless line: |S11| = 0 and arg S21 = −βl", "[signal][algebra]")
{
    const signal::Network n = line(50.0, 123e-12, {1e9, 2.5e9, 4e9});
    for (std::size_t k = 0; k < n.points(); ++k) {
        CHECK(std::abs(n.s[k](0, 0)) < 1e-14);
        CHECK(std::abs(n.s[k](1, 0)) == Approx(1.0).epsilon(1e-14));
        const double expected = std::remainder(-2 * M_PI * n.freqHz[k] * 123e-12, 2 * M_PI);
        CHECK(std::arg(n.s[k](1, 0)) == Approx(expected).margin(1e-12));
    }
}

TEST_CASE("cascading lines of length a and b equals one of a + b", "[signal][algebra]")
{
    const std::vector<double> f = {0.5e9, 3e9, 7.7e9, 20e9};
    // A mismatched 60 Ω line, so reflections are part of the test.
    const signal::Network ab = signal::cascade(line(60, 40e-12, f), line(60, 70e-12, f));
    const signal::Network whole = line(60, 110e-12, f);
    for (std::size_t k = 0; k < f.size(); ++k)
        CHECK((ab.s[k] - whole.s[k]).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("S → Z → S, S → Y → S, S → ABCD → S and S → T → S round trips", "[signal][algebra]")
{
    const signal::Network kr4 = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    double worst = 0;
    for (std::size_t k = 1; k < kr4.points(); k += 97) {
        const signal::CMatrix& s = kr4.s[k];
        worst = std::max(worst, (signal::z2s(signal::s2z(s, kr4.z0), kr4.z0) - s).cwiseAbs().maxCoeff());
        worst = std::max(worst, (signal::y2s(signal::s2y(s, kr4.z0), kr4.z0) - s).cwiseAbs().maxCoeff());
    }
    CHECK(worst < 1e-10);
    const signal::Network l = line(45, 80e-12, {2e9, 9e9});
    for (const auto& s : l.s) {
        CHECK((signal::abcd2s(signal::s2abcd(s, l.z0), l.z0) - s).cwiseAbs().maxCoeff() < 1e-12);
        CHECK((signal::t2s(signal::s2t(s)) - s).cwiseAbs().maxCoeff() < 1e-12);
    }
    // ABCD straight from S (Frickey 1994) equals ABCD from Z wherever Z exists, also with unequal
    // references; an ideal through, which has no Z, is the identity (it was NaN through Z).
    const Eigen::Vector2d z0s(50, 75);
    for (const auto& s : l.s) {
        const signal::CMatrix z = signal::s2z(s, z0s), a = signal::s2abcd(s, z0s);
        CHECK(std::abs(a(0, 0) - z(0, 0) / z(1, 0)) < 1e-12);
        CHECK(std::abs(a(0, 1) - (z(0, 0) * z(1, 1) - z(0, 1) * z(1, 0)) / z(1, 0)) < 1e-9);
        CHECK(std::abs(a(1, 0) - 1.0 / z(1, 0)) < 1e-12);
        CHECK(std::abs(a(1, 1) - z(1, 1) / z(1, 0)) < 1e-12);
        CHECK((signal::abcd2s(a, z0s) - s).cwiseAbs().maxCoeff() < 1e-12);
    }
    signal::CMatrix thru(2, 2);
    thru << 0.0, 1.0, 1.0, 0.0;
    CHECK((signal::s2abcd(thru, l.z0) - signal::CMatrix::Identity(2, 2)).cwiseAbs().maxCoeff() < 1e-15);
    // Renormalising there and back is the identity.
    const signal::Network r = signal::renormalize(signal::renormalize(l, Eigen::Vector2d(75, 100)), l.z0);
    CHECK((r.s[1] - l.s[1]).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("an ideal symmetric pair: SDD21 is the single-ended through and SCD21 is zero",
          "[signal][algebra][mixed-mode]")
{
    // Two uncoupled identical lines: port 1 → 2 and port 3 → 4.
    signal::Network pair;
    pair.freqHz = {1e9, 5e9};
    pair.z0 = Eigen::Vector4d::Constant(50);
    const signal::Network se = line(50, 60e-12, pair.freqHz);
    for (std::size_t k = 0; k < 2; ++k) {
        signal::CMatrix s = signal::CMatrix::Zero(4, 4);
        s(1, 0) = s(0, 1) = s(3, 2) = s(2, 3) = se.s[k](1, 0);
        pair.s.push_back(s);
    }
    const signal::Network mm = signal::mixedMode(pair);
    for (std::size_t k = 0; k < 2; ++k) {
        CHECK(std::abs(mm.s[k](1, 0) - se.s[k](1, 0)) < 1e-14); // SDD21
        CHECK(std::abs(mm.s[k](3, 0)) < 1e-14);                 // SCD21
        CHECK(std::abs(mm.s[k](3, 2) - se.s[k](1, 0)) < 1e-14); // SCC21
    }
}

TEST_CASE("reciprocity and passivity of the real KR4 through", "[signal][algebra]")
{
    const signal::Quality q = signal::quality(signal::readTouchstone(kKr4 + "example2_THRU.s4p"));
    CHECK(q.reciprocityError < 1e-4);
    CHECK(q.passivityExcess <= 0.0);
}

TEST_CASE("causality: a delay line is causal, a time advance is not", "[signal][algebra][causality]")
{
    auto lineWith = [](double delay) {
        signal::Network n;
        n.z0 = Eigen::Vector2d(50, 50);
        for (int k = 0; k <= 2000; ++k) {
            const double f = k * 20e6;
            n.freqHz.push_back(f);
            signal::CMatrix s = signal::CMatrix::Zero(2, 2);
            s(1, 0) = s(0, 1) = std::polar(0.9, -2 * M_PI * f * delay);
            n.s.push_back(s);
        }
        return n;
    };
    CHECK(signal::quality(lineWith(2e-9)).acausalEnergy < 1e-3);
    CHECK(signal::quality(lineWith(-2e-9)).acausalEnergy > 0.5);
    CHECK(signal::quality(signal::readTouchstone(kKr4 + "example2_THRU.s4p")).acausalEnergy < 0.01);
}
