#pragma once
/// \file DynamicsTrace.h
/// A measured GPU power trace against the design's predicted waveform (docs/dynamics.md, "Measured
/// traces"; `rdt hil power-trace`): its compute and communication levels, swing, iteration period,
/// compute share, fundamental and band shares, each beside the prediction; the communication
/// power calibrated from it as a catalog line; judged by the `hil.power.*` rules.

#include <string>
#include <vector>

#include "analysis/Dynamics.h"
#include "hil/PowerTrace.h"

namespace rdt::analysis {

/// A two-level waveform's figures, per GPU.
struct TraceFigures {
    double highW = NAN, lowW = NAN;  ///< the medians of the samples above and below the midpoint
    double periodS = NAN;            ///< the iteration: the spectrum's fundamental (its lowest strong line)
    double computeShare = NAN;       ///< the share of samples above the midpoint
    double fundamentalW = NAN;       ///< the fundamental's peak amplitude
    std::vector<DynamicsBand> bands; ///< 0.1–1, 1–2.5, 2.5–7, 7–20 Hz; NaN share above the trace's Nyquist
    double swingW() const { return highW - lowW; }
};

/// The figures of a per-GPU power series every `dt` (mean removed for the spectrum, Hann window), its
/// period searched from `lowestHz` up.
TraceFigures traceFigures(const std::vector<double>& w, double dt, double lowestHz = 0.02);

/// One figure, measured beside predicted.
struct TraceRow {
    std::string figure, unit, rule; ///< rule: the hil.power.* rule that judges it, empty for none
    double measured = NAN, predicted = NAN;
};

struct TraceComparison {
    std::string file;
    int gpus = 0;
    double stepS = 0, durationS = 0;
    TraceFigures measured, predicted;
    std::vector<TraceRow> rows;
    /// The GPU part whose communication power the trace calibrates, and its catalog line.
    std::string gpuPart;
    std::string catalogLine;
};

/// Compare a trace with the design's dynamics (its per-GPU compute and communication levels, its
/// iteration and compute share; its site's band shares). InputError when the design has no
/// waveform (no `dynamics:`, or not checked).
TraceComparison compareTrace(const core::Design& design, const DynamicsResult& dynamics, const hil::PowerTrace& trace);

/// The `hil.power.*` rules (registered by registerHilChecks), judging a comparison put in the result
/// store under "power_trace".
void registerPowerTraceChecks(core::CheckRegistry& registry);
/// Judge a comparison with the run's profile and waivers.
std::vector<core::Violation> judgePowerTrace(const core::Design& design, const core::Profile& profile,
                                             const TraceComparison& comparison);

} // namespace rdt::analysis
