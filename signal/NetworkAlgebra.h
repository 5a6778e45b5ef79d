#pragma once
/// \file NetworkAlgebra.h
/// Conversions between S, Z, Y, ABCD and T parameters, renormalisation, cascading, port
/// reordering and single-ended → mixed-mode for 4-port differential pairs. Reference
/// impedances are real, per port.

#include <array>
#include <vector>

#include "signal/Network.h"

namespace rdt::signal {

/// S → Z and back for per-port real references z0 (ohm).
CMatrix s2z(const CMatrix& s, const Eigen::VectorXd& z0);
CMatrix z2s(const CMatrix& z, const Eigen::VectorXd& z0);
/// S → Y and back.
CMatrix s2y(const CMatrix& s, const Eigen::VectorXd& z0);
CMatrix y2s(const CMatrix& y, const Eigen::VectorXd& z0);
/// Two-port S ↔ ABCD (chain) parameters.
CMatrix s2abcd(const CMatrix& s, const Eigen::VectorXd& z0);
CMatrix abcd2s(const CMatrix& abcd, const Eigen::VectorXd& z0);
/// Two-port S ↔ T (scattering transfer) parameters: [b1; a1] = T [a2; b2].
CMatrix s2t(const CMatrix& s);
CMatrix t2s(const CMatrix& t);

/// The same network seen from new reference impedances.
Network renormalize(const Network& net, const Eigen::VectorXd& newZ0);
/// Two two-ports in cascade (port 2 of `a` to port 1 of `b`), on a's frequency grid (must match).
Network cascade(const Network& a, const Network& b);
/// Ports reordered: port i of the result is port `order[i]` of the input (0-based).
Network reorder(const Network& net, const std::vector<int>& order);
/// Single-ended 4-port → mixed-mode [SDD SDC; SCD SCC] with pairs (p1,n1) at the input and
/// (p2,n2) at the output (0-based; default ports 1,3 in and 2,4 out, the through on 1→2 and 3→4).
Network mixedMode(const Network& net, std::array<int, 4> pins = {0, 2, 1, 3});

/// Ideal lossless line of impedance `zLine`, electrical length `betaL` rad at each frequency — a
/// reference case for tests and channel synthesis (ABCD: cos βl, jZ sin βl; j sin βl / Z, cos βl).
CMatrix lineAbcd(double zLine, double betaL);

/// Interpolate (linear in real and imaginary parts) to `freqHz`; below the first point the data is
/// extrapolated towards DC with the first point held (magnitude) and phase scaled linearly.
Network interpolate(const Network& net, const std::vector<double>& freqHz);

/// Largest deviation from reciprocity max|S − Sᵀ| and from passivity (largest singular value − 1, ≤ 0 when passive).
struct Quality {
    double reciprocityError = 0;
    double passivityExcess = 0;
    /// Share of the S-parameter impulse responses' energy (all entries together) at negative time
    /// (the second half of the circular inverse-FFT record): ~0 for a causal network, large for an
    /// acausal one.
    double acausalEnergy = 0;
};
Quality quality(const Network& net);

} // namespace rdt::signal
