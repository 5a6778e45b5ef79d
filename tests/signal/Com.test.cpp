#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "models/ChannelModels.h"
#include "signal/Com.h"
#include "signal/ChannelSpec.h"
#include "signal/NetworkAlgebra.h"
#include "signal/Touchstone.h"

using namespace rdt;
using cd = std::complex<double>;

static const std::string kKr4 = RDT_SOURCE_DIR "/data/channels/kr4-example2/";
static const std::string kProfile = RDT_SOURCE_DIR "/data/si-profiles/ieee8023by-kr4.yaml";

TEST_CASE("COM profile loads with units and rejects bad values", "[signal][com]")
{
    const signal::ComParams p = signal::ComParams::load(kProfile);
    CHECK(p.baudHz == Approx(25.78125e9));
    CHECK(p.noiseDensity == Approx(5.2e-17));
    CHECK(p.ctleGainDb.values().size() == 13);
    CHECK(p.txPost.values().size() == 20);
    CHECK(p.passDb == 3.0);
    CHECK_THROWS_AS(signal::ComParams::load(RDT_SOURCE_DIR "/data/si-profiles/none.yaml"), core::InputError);
}

TEST_CASE("COM falls monotonically with cable length", "[signal][com]")
{
    const signal::ComParams p = signal::ComParams::load(kProfile);
    models::TwinaxModel cable;
    signal::ComChannel ch;
    for (int k = 0; k <= 4000; ++k)
        ch.freqHz.push_back(k * 10e6); // 10 MHz steps, as measured files have
    double last = 1e9;
    for (double len : {1.0, 2.0, 3.0, 4.0, 5.0}) {
        ch.thru.clear();
        for (double f : ch.freqHz)
            ch.thru.push_back(std::exp(-cable.gamma(std::max(f, 1e6)) * len));
        const signal::ComResult r = signal::computeCom(ch, p);
        INFO(len << " m: COM " << r.comDb << " dB, IL " << r.ilNyquistDb << " dB");
        CHECK(r.comDb < last);
        last = r.comDb;
    }
}

TEST_CASE("COM of the real KR4 channel falls as crosstalk is added", "[signal][com][kr4]")
{
    const signal::ComParams p = signal::ComParams::load(kProfile);
    const signal::Network thru = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    signal::ComChannel ch;
    ch.freqHz = thru.freqHz;
    ch.thru = signal::sdd21(thru);
    const signal::ComResult clean = signal::computeCom(ch, p);
    CHECK(clean.ilNyquistDb == Approx(23.5).margin(0.5)); // SDD21 at 12.89 GHz
    CHECK(clean.comDb > 3.0);
    double last = clean.comDb;
    for (const char* f : {"FEXT1", "FEXT2", "NEXT1", "NEXT2", "NEXT3"}) {
        const signal::Network n = signal::readTouchstone(kKr4 + "example2_" + f + ".s4p");
        (std::string(f).rfind("FEXT", 0) == 0 ? ch.fext : ch.next).push_back(signal::sdd21(n));
        const signal::ComResult r = signal::computeCom(ch, p);
        INFO(f << ": COM " << r.comDb);
        CHECK(r.comDb <= last + 1e-9);
        CHECK(r.sigmaXtV > 0);
        last = r.comDb;
    }
}

TEST_CASE("statistical eye: open at the sampling point, closing with lower BER and away from it", "[signal][com][eye]")
{
    const signal::ComParams p = signal::ComParams::load(kProfile);
    const signal::Network thru = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    signal::ComChannel ch;
    ch.freqHz = thru.freqHz;
    ch.thru = signal::sdd21(thru);
    const signal::ComResult r = signal::computeCom(ch, p, true);
    REQUIRE(r.eyeBer.size() >= 4);
    REQUIRE(!r.eyePhaseUi.empty());
    const auto centre =
        static_cast<std::size_t>(std::min_element(r.eyePhaseUi.begin(), r.eyePhaseUi.end(),
                                                  [](double a, double b) { return std::fabs(a) < std::fabs(b); }) -
                                 r.eyePhaseUi.begin());
    for (std::size_t b = 1; b < r.eyeBer.size(); ++b)
        CHECK(r.eyeOpeningV[b][centre] <= r.eyeOpeningV[b - 1][centre] + 1e-12); // rarer errors, smaller eye
    CHECK(r.eyeOpeningV[2][centre] > 0);                                         // open at 1e-5
    CHECK(r.eyeOpeningV[2].front() < r.eyeOpeningV[2][centre]);                  // closes towards ±UI/2
    CHECK(r.eyeWidthUi > 0.1);
    CHECK(r.eyeWidthUi <= 1.0);
    CHECK(r.eyeHeightV == Approx(2 * (r.signalV - r.noiseV)));
}

TEST_CASE("COM of the KR4 channel set correlates with the reference MATLAB COM (Annex 93A)", "[signal][com][kr4]")
{
    // Reference: the MATLAB COM code (config_com_ieee8023_93a=100GBASE-KR4) run on this very
    // channel set with all five aggressors, as published with PyChOpMarg [E9]: package case 1
    // (12 mm) COM 4.30 dB, A_s 30.3 mV, A_ni 18.5 mV, Tx FFE c(−1) −0.16, c(+1) 0, σ_TX 1.4 mV,
    // σ_XT 3.3 mV, σ_N 0.71 mV; case 2 (30 mm) COM 3.65 dB, A_s 25 mV, A_ni 16.46 mV.
    // Tolerance 0.25 dB on COM: the reference's jitter term is 0.40 mV where 93A-32 as written
    // gives about 2 mV (the open PyChOpMarg sees the same gap), worth about 0.15 dB of A_ni;
    // the reference rounds to 0.05 dB. Amplitudes and noise terms within 5 %.
    signal::ComParams p = signal::ComParams::load(kProfile);
    REQUIRE(p.package.enabled);
    const signal::Network thru = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    std::vector<signal::Network> fext, next;
    for (const char* f : {"FEXT1", "FEXT2"})
        fext.push_back(signal::readTouchstone(kKr4 + "example2_" + f + ".s4p"));
    for (const char* f : {"NEXT1", "NEXT2", "NEXT3"})
        next.push_back(signal::readTouchstone(kKr4 + "example2_" + f + ".s4p"));
    const signal::ComChannel ch = signal::channelFromNetworks(thru, fext, next);

    p.package.caseIndex = 0;
    const signal::ComResult c1 = signal::computeCom(ch, p);
    CHECK(c1.comDb == Approx(4.30).margin(0.25));
    CHECK(c1.signalV * 1e3 == Approx(30.3).epsilon(0.05));
    CHECK(c1.noiseV * 1e3 == Approx(18.5).epsilon(0.05));
    CHECK(c1.txPre == Approx(-0.16).margin(1e-9));
    CHECK(c1.txPost == Approx(0.0).margin(1e-9));
    CHECK(c1.sigmaTxV * 1e3 == Approx(1.4).epsilon(0.05));
    CHECK(c1.sigmaXtV * 1e3 == Approx(3.3).epsilon(0.05));
    CHECK(c1.sigmaRxNoiseV * 1e3 == Approx(0.71).epsilon(0.05));

    p.package.caseIndex = 1;
    const signal::ComResult c2 = signal::computeCom(ch, p);
    CHECK(c2.comDb == Approx(3.65).margin(0.25));
    CHECK(c2.signalV * 1e3 == Approx(25.0).epsilon(0.05));
    CHECK(c2.noiseV * 1e3 == Approx(16.46).epsilon(0.05));
    CHECK(c2.comDb < c1.comDb); // the longer package costs margin
}

TEST_CASE("package model: matched lossless parts pass through, capacitance costs loss", "[signal][com][package]")
{
    // A zero-length package line with no capacitance and R_d = R_0 leaves a channel unchanged.
    signal::ComParams p = signal::ComParams::load(kProfile);
    const signal::Network thru = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    const signal::ComChannel ch = signal::channelFromNetworks(thru, {}, {});
    signal::ComParams bare = p;
    bare.package.enabled = false;
    signal::ComParams neutral = p;
    neutral.package.dieCapF = neutral.package.padCapF = 0;
    neutral.package.termOhm = neutral.package.refOhm;
    neutral.package.lengthsMm = {0.0};
    neutral.package.caseIndex = 0;
    CHECK(signal::computeCom(ch, neutral).comDb == Approx(signal::computeCom(ch, bare).comDb).margin(1e-6));
    // The reference package's capacitance and line cost margin.
    CHECK(signal::computeCom(ch, p).signalV < signal::computeCom(ch, bare).signalV);
}

TEST_CASE("COM does not depend on the Touchstone file's frequency step", "[signal][com]")
{
    // dac-2m stretched to 6 m of twinax (about 26.5 ns): at 20 MHz its phase turns 3.3 rad per
    // step, past π, where point-by-point unwrapping picked branches at random; the channel's delay
    // came out short and it was "resampled" onto a 50 MHz grid that could not hold it (COM 2.62 dB,
    // A_s 2.50 mV: a fail). At 5 MHz the resampling's straight re/im lines between points 0.9 rad
    // apart lost 5 % of the pulse (2.90 dB). The same S-parameters at 5, 10 and 20 MHz now give one
    // COM, from 0 Hz or not; tolerance 0.02 dB (the statistical eye's bins). 40 MHz holds only 25 ns, less than the
    // delay: the data itself aliases the response in time, and that file gives 3.27 dB.
    std::ifstream in(RDT_SOURCE_DIR "/data/channels/specs/dac-2m.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string spec = ss.str();
    const signal::ComParams p = signal::ComParams::load(RDT_SOURCE_DIR "/data/si-profiles/ieee8023cd-cr-estimate.yaml");
    std::vector<signal::ComResult> r;
    // Grids from 0 Hz, and from a frequency off a multiple of the step (there the delay's period
    // count matters: 3 MHz and 10 MHz starts gave 5.01 and -12.46 dB before the review's fix).
    for (const auto& [from, step] : {std::pair{"0 Hz", "5 MHz"}, std::pair{"0 Hz", "10 MHz"}, std::pair{"0 Hz", "20 MHz"},
                                     std::pair{"3 MHz", "10 MHz"}, std::pair{"10 MHz", "20 MHz"}}) {
        std::string text = spec;
        const std::string grid = "from: 0 Hz, to: 60 GHz, step: 20 MHz";
        const auto len = text.find("length: 2 m"), st = text.find(grid);
        REQUIRE(len != std::string::npos);
        REQUIRE(st != std::string::npos);
        REQUIRE(st < len);
        text.replace(len, 11, "length: 6 m"); // the later one first: the grid's text changes length
        text.replace(st, grid.size(), std::string("from: ") + from + ", to: 60 GHz, step: " + step);
        const signal::Network net = signal::synthesiseChannelText(text, "dac-6m.yaml");
        r.push_back(signal::computeCom(signal::channelFromNetworks(net, {}, {}), p));
    }
    for (std::size_t i = 1; i < r.size(); ++i) {
        INFO("grid " << i << ": COM " << r[i].comDb << " dB, A_s " << r[i].signalV * 1e3 << " mV");
        CHECK(r[i].comDb == Approx(r[0].comDb).margin(0.02));
        CHECK(r[i].signalV == Approx(r[0].signalV).epsilon(0.005));
        CHECK(r[i].pass == r[0].pass);
    }
    // 3.32 dB at the table's 32 samples per UI; within 1 dB of the threshold COM is evaluated at 256.
    CHECK(r[0].samplesPerUi == 256);
    CHECK(r[0].comDb == Approx(3.17).margin(0.02));
}
