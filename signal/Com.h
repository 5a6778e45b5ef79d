#pragma once
/// \file Com.h
/// Channel Operating Margin after IEEE 802.3 Annex 93A, simplified where docs/signal.md says:
/// transmitter rise-time filter, Tx FFE (pre/post taps), reference CTLE (one zero, two poles, DC
/// gain), receiver Butterworth, a DFE that cancels the first post-cursors up to its limit; noise
/// from residual ISI, crosstalk (each aggressor at its worst sampling phase), transmitter SNR,
/// jitter and receiver noise, combined as probability distributions; equaliser settings chosen by
/// the figure of merit of 93A.1.6 (signal over total noise variance); COM = 20·log10(A_s / A_ni)
/// with A_ni the noise amplitude exceeded with probability DER0.

#include <string>
#include <vector>

#include "signal/Network.h"
#include "signal/TimeDomain.h"

namespace rdt::signal {

struct Range {
    double from = 0, to = 0, step = 1;
    std::vector<double> values() const;
};

/// One parameter table (`data/si-profiles/*.yaml`). SI units.
/// The device package of Annex 93A.1.2: at each end a die capacitance C_d and a pad capacitance
/// C_p as shunt elements around a package transmission line (impedance Z_c, length z_p, loss
/// γ(f) = γ0 + a1(1+j)√f + [a2(1 − j(2/π)ln f) + j2πτ]·f per mm, f in GHz), the line terminated
/// in R_d against the reference R_0 (93A-8 … 93A-18). NEXT aggressors use the shortest length.
struct PackageModel {
    bool enabled = false;
    double dieCapF = 0, padCapF = 0;
    double termOhm = 55, refOhm = 50, lineOhm = 78.2;
    std::vector<double> lengthsMm; ///< package cases
    int caseIndex = 0;             ///< which length the victim and FEXT aggressors use
    double gamma0 = 0, a1 = 1.734e-3, a2 = 1.455e-4, tauNsPerMm = 6.141e-3;
};

struct ComParams {
    std::string name, title, source;
    double baudHz = 25.78125e9;
    int levels = 2;
    int samplesPerUi = 32;
    double der = 1e-5;
    double txRiseS = 10e-12;
    double levelMismatch = 1.0;
    double victimV = 0.4, fextV = 0.4, nextV = 0.6;
    double dualDiracUi = 0.05, randomJitterUi = 0.01;
    double txSnrDb = 27;
    double noiseDensity = 5.2e-17; ///< V²/Hz
    double ctleZeroHz = 0, ctlePole1Hz = 0, ctlePole2Hz = 0;
    Range ctleGainDb{-12, 0, 1};
    Range txPre{-0.18, 0, 0.02}, txPost{-0.38, 0, 0.02};
    int dfeTaps = 14;
    double dfeLimit = 1.0;
    double rxBandwidth = 0.75; ///< fraction of the baud rate
    double passDb = 3.0;
    PackageModel package;

    /// Load a profile; a name resolves to data/si-profiles/NAME.yaml. Throws core::InputError.
    static ComParams load(const std::string& path);
};

/// A channel as transfer functions on one frequency grid: the victim's through and each aggressor.
struct ComChannel {
    std::vector<double> freqHz;
    std::vector<std::complex<double>> thru;
    std::vector<std::vector<std::complex<double>>> fext, next;
    /// Optional full differential 2-ports (SDD11, SDD12, SDD21, SDD22) on the same grid, for the
    /// package cascade; without them each channel is taken as matched (S11 = S22 = 0).
    std::vector<Eigen::Matrix2cd> thruS;
    std::vector<std::vector<Eigen::Matrix2cd>> fextS, nextS;
};

/// SDD 2-port of a 4-port (through 1→2, 3→4) on its own grid.
std::vector<Eigen::Matrix2cd> sdd(const Network& net);

/// A COM channel from measured 4-ports (through 1→2, 3→4): SDD21 and the full SDD 2-ports, the
/// aggressors interpolated onto the victim's grid.
ComChannel channelFromNetworks(const Network& thru, const std::vector<Network>& fext, const std::vector<Network>& next);

/// SDD21 of a 4-port (through 1→2, 3→4) on its own grid.
std::vector<std::complex<double>> sdd21(const Network& net);

struct ComResult {
    double comDb = 0;
    double signalV = 0;     ///< A_s
    double noiseV = 0;      ///< A_ni at DER0
    double eyeHeightV = 0;  ///< 2 (A_s − A_ni): the inner eye's full opening, V (≥ 0 when open)
    double ilNyquistDb = 0; ///< insertion loss of the through at fb/2, as given (no packages)
    double ctleGainDb = 0, txPre = 0, txPost = 0;
    double sigmaIsiV = 0, sigmaXtV = 0, sigmaGaussV = 0;
    double sigmaTxV = 0, sigmaJitterV = 0, sigmaRxNoiseV = 0; ///< the Gaussian terms, apart
    bool pass = false;
    PulseResponse pulse; ///< equalised victim pulse response
    /// Statistical eye: inner-eye opening (V) by BER (rows, `eyeBer`) and sampling phase (columns,
    /// `eyePhaseUi` relative to the chosen sampling point); width at DER0 in UI.
    std::vector<double> eyePhaseUi, eyeBer;
    std::vector<std::vector<double>> eyeOpeningV;
    double eyeWidthUi = 0;
    /// Samples per UI of the evaluation: the table's, or kComRefinedSamplesPerUi where the table's
    /// result lay within kComRefineBandDb of its threshold.
    int samplesPerUi = 0;
};

/// Near its threshold COM is evaluated again at 256 samples per UI. At the tables' 32 the sampling
/// point moves in 1/32 UI steps, and COM with it by up to 0.5 dB as a channel's delay moves: a
/// uniform 30 AWG DAC gave 3.12 dB at 1.93 m, 2.50 at 1.95 and 3.15 at 1.97 (pass, fail, pass);
/// at 256, 3.17, 3.00 and 2.93 dB. Far from the threshold no verdict turns on it.
constexpr int kComRefinedSamplesPerUi = 256;
constexpr double kComRefineBandDb = 1.0;

/// Compute COM for a channel with a parameter table; `withEye` adds the statistical eye. Within
/// kComRefineBandDb of the table's threshold the result is that of kComRefinedSamplesPerUi.
ComResult computeCom(const ComChannel& channel, const ComParams& p, bool withEye = false);

/// The span of the pulse response COM sums (its precursors, the cursor and the postcursors, at
/// p's baud rate), in seconds: a channel's record (1 / its frequency step) shorter than this wraps
/// the pulse's tail onto its cursors.
double comPulseSpanS(const ComParams& p);

} // namespace rdt::signal
