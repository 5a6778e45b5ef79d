#pragma once
/// \file PowerDynamics.h
/// The mathematics of a training job's power waveform (docs/dynamics.md): its amplitude spectrum
/// and the share of its AC energy in frequency bands, its ramps over windows, the closed forms a
/// synchronous square wave has (harmonics, the energy a power floor costs, the storage that
/// flattens it) and a single-machine grid's frequency response to it.

#include <cstddef>
#include <vector>

namespace rdt::models {

/// One-sided amplitude spectrum of a sampled signal (its mean removed), Hann-windowed with the
/// window's coherent gain corrected, so that a sinusoid of amplitude a on a bin reads a.
struct AmplitudeSpectrum {
    double stepHz = 0;              ///< bin spacing, 1 / (N·dt)
    std::vector<double> amplitude;  ///< per bin k ≥ 0 (frequency k·stepHz); bin 0 is 0
    double acVariance = 0;          ///< the signal's variance (its AC energy per second, W²)
    double meanW = 0;
};
AmplitudeSpectrum amplitudeSpectrum(const std::vector<double>& x, double dt);

/// Share of the AC energy (variance) in [loHz, hiHz): Σ over its bins of a²/2 over the variance.
/// Hann leakage spreads a line over its neighbour bins: the sum takes each bin's power as the
/// window's (a²/2 · 2/3, the Hann window's power over its coherent gain squared), so that a
/// band holding a whole line holds its whole energy.
double bandShare(const AmplitudeSpectrum& s, double loHz, double hiHz);

/// The largest change of the w-long means of x from one window to the next, over w (W/s): how a
/// utility meters a ramp (the change of the average power between consecutive intervals).
double largestRamp(const std::vector<double>& x, double dt, double windowS);

/// A synchronous job's normalised wave at time t (0: communication, 1: compute): a trapezoid of
/// period T, duty D (the compute share, from t = 0) and linear edges of `edgeS` centred on the
/// switching instants.
double trapezoidWave(double t, double periodS, double duty, double edgeS);

/// Peak amplitude of harmonic n of a square wave of swing `swing` (high − low) and duty D (the
/// high share): (2·swing/(nπ))·|sin(nπD)|, times |sinc(nπ·edge/period)| for linear edges of
/// `edge` seconds (a trapezoid; 0: ideal).
double squareWaveHarmonic(int n, double swing, double duty, double edgeS = 0, double periodS = 1);
/// The square wave's AC variance, swing²·D(1 − D).
double squareWaveVariance(double swing, double duty);

/// The energy a power floor F (share of the high level) adds to an iteration whose low level is
/// pLow (share of the high level) and duty D: (F − pLow)(1 − D) / (D + (1 − D)·pLow), as a share
/// of the iteration's energy without it (0 when F ≤ pLow).
double floorEnergyShare(double floor, double pLow, double duty);

/// The energy storage (J) that flattens a square wave of swing `swing`, duty D and period T to
/// its mean: swing·D(1 − D)·T (charged in the low phase, given back in the high one).
double flatteningEnergy(double swing, double duty, double periodS);

/// Equivalent full cycles a day of a store of `storeJ` that gives and takes back `cycleJ` every
/// `periodS`: cycleJ · (86,400 / periodS) / storeJ.
double cyclesPerDay(double cycleJ, double periodS, double storeJ);

/// A single-machine equivalent of the grid the site hangs on: inertia H (s), load damping D (pu),
/// governor droop R (pu) with its time constant Tg (s), base power (W) and nominal frequency (Hz).
struct GridMachine {
    double inertiaS = 6, damping = 3, droop = 0.05, governorS = 0.3;
    double baseW = 1e9, nominalHz = 60;
};
/// A load step of `stepW`: the initial rate of change of frequency (Hz/s, ΔP/(2H)·f₀) and the
/// steady deviation (Hz, −ΔP/(D + 1/R)·f₀), both for ΔP in per unit of the base.
double stepRocofHzPerS(const GridMachine& g, double stepW);
double stepDeviationHz(const GridMachine& g, double stepW);
/// Frequency deviation amplitude (Hz) for a sinusoidal load of amplitude `amplitudeW` at `hz`:
/// ΔP·f₀ / |2H·s + D + 1/(R(1 + s·Tg))|, s = j2πf.
double sinusoidDeviationHz(const GridMachine& g, double amplitudeW, double hz);

} // namespace rdt::models
