#pragma once
/// \file ChannelModels.h
/// Transmission-line models for channel synthesis: PCB traces (skin effect with Hammerstad
/// roughness, wideband Djordjevic–Sarkar dielectric) and twinax cable by AWG. Each gives the
/// matched-line propagation constant γ(f) = α + jβ per metre; a segment's S21 = e^(−γ·length).

#include <complex>

namespace rdt::models {

/// Djordjevic–Sarkar wideband dielectric, fitted to Dk and Df at a reference frequency
/// (m1 = 4, m2 = 12 decades in rad/s). Causal: ε' and ε'' follow from one analytic function.
class DjordjevicSarkar {
public:
    DjordjevicSarkar(double dk, double df, double refHz);
    /// ε' − jε'' at `hz`.
    std::complex<double> permittivity(double hz) const;

private:
    double m_epsInf = 1, m_k = 0;
};

/// Surface resistance of copper (ohm per square) at `hz`; resistivity 1.72e-8 Ω·m.
double surfaceResistance(double hz);
/// Hammerstad–Jensen roughness factor 1 + (2/π)·atan(1.4·(Δ/δ)²) for rms roughness Δ (m).
double roughnessFactor(double hz, double rmsRoughnessM);

/// A PCB trace (stripline; microstrip uses an effective Dk).
struct TraceModel {
    double widthM = 0.1e-3;      ///< conductor width
    double impedanceOhm = 50.0;  ///< single-ended characteristic impedance (half of a pair's differential)
    double dk = 3.3, df = 0.002; ///< laminate at refHz (low-loss laminate, estimate)
    double refHz = 10e9;
    double roughnessM = 0.5e-6; ///< rms copper roughness
    double returnFactor = 1.0;  ///< extra conductor loss of the reference planes (1 = trace only)
    /// Conductor loss α_c = R_s·K_H·returnFactor / (2·Z0·w), Np/m.
    double conductorLoss(double hz) const;
    /// Propagation constant per metre: conductor loss plus γ_d = jω√(μ0 ε0 ε(ω)).
    std::complex<double> gamma(double hz) const;
};

/// Twinax (two conductors in a shield) by AWG with foamed-polyolefin dielectric.
struct TwinaxModel {
    int awg = 30;
    double impedanceOhm = 100.0; ///< differential
    double dk = 1.6, df = 2e-4, refHz = 10e9;
    double shieldFactor = 1.3; ///< conductor loss of the shield relative to the pair (estimate)
    /// Conductor diameter (m) of an AWG wire: 0.127 mm × 92^((36 − AWG)/39).
    double diameterM() const;
    std::complex<double> gamma(double hz) const;
};

/// 8.686 × α: dB per metre of a propagation constant.
double lossDbPerM(std::complex<double> gamma);

} // namespace rdt::models
