#pragma once
/// \file Sweep.h
/// Design studies: a base design checked over the cartesian product of parameter axes (supply air,
/// altitude, failed fan rotors, a lost feed, GPU cap, power basis, or any design field by path).
///
///     sweep: 1
///     design: ../data/designs/meta-24k-roce.yaml      # relative to this file
///     targets: ../data/targets/meta-llama3.yaml       # optional
///     axes:
///       - {axis: inlet, from: 20 degC, to: 40 degC, step: 5 K}
///       - {axis: gpu_cap, values: [500 W, 600 W, 700 W]}
///       - {axis: field, path: site.humidity, values: [20 %, 60 %]}
///
/// Every variant runs the whole pipeline; one that fails (bad value at a path, a solver that does not
/// converge) is recorded with its message and the others still run.

#include <string>
#include <vector>

#include "analysis/Pipeline.h"

namespace rdt::analysis {

struct SweepAxis {
    std::string axis;                ///< inlet, altitude, fan_fail, feed_loss, gpu_cap, power_basis, thermal, field
    std::string path;                ///< `field` axes: the design field (`site.humidity`, `templates.x.slots[4].ou`)
    std::vector<std::string> labels; ///< values as written (`25 degC`)
    std::vector<double> values;      ///< SI, NaN for words (feed_loss, power_basis, thermal)
    std::string unit;                ///< display unit of `display` (degC, m, W, …; empty for words)
    std::vector<double> display;     ///< values in `unit`
    core::SourceLoc loc;             ///< the axis in the spec: where a value the design refuses is reported
    std::string name() const { return axis == "field" ? path : axis; }
    /// Written to the sweep file as numbers (quantities and counts); words as text.
    bool numeric() const { return axis != "field" && (!unit.empty() || axis == "fan_fail"); }
};

struct SweepSpec {
    std::string file;
    std::string design, targets, profile; ///< resolved paths (profile: name or path)
    std::string designText;
    std::vector<SweepAxis> axes;
    std::size_t variants() const;
    /// Axis indices of variant `i` (the last axis varies fastest).
    std::vector<std::size_t> at(std::size_t i) const;
};

/// InputError (file:line, field) on unknown axes or keys, empty ranges, a field path the design does
/// not have, more than 100,000 variants.
SweepSpec loadSweepSpec(const std::string& path);

/// The key results of one variant.
struct VariantResult {
    std::size_t index = 0;
    bool ok = false;
    std::string error; ///< why the variant failed (ok false)
    bool notConverged = false; ///< it failed because a solver did not converge (rdt check's exit 4)
    bool badInput = false;     ///< it failed on its input: a value the loader refuses (rdt check's exit 2)
    bool interrupted = false;  ///< not run: the sweep was interrupted (Ctrl-C) before it started
    int errors = 0, warnings = 0;
    int targetsFailed = 0, targets = 0;
    double sustainedPflops = NAN, peakPflops = NAN;
    double maxInletC = NAN;   ///< the warmest inlet the inlet rules judge: chassis and switches
    double maxJunctionC = NAN;
    int throttled = 0;
    double itLoadW = NAN, acInputW = NAN; ///< cluster IT load on the budget's basis, facility AC (W)
    std::string failedRules;              ///< ids of the error-severity rules violated, comma-separated
    double seconds = 0;
    /// Every verdict holds: no unwaived error and every applicable target met.
    bool passes() const { return ok && errors == 0 && targetsFailed == 0; }
};

VariantResult runVariant(const SweepSpec& spec, std::size_t index);

/// Run every variant (OpenMP, dynamic schedule); `progress` is told after each. Once `progress` is
/// cancelled no further variant starts: those left are returned `interrupted`, the running ones finish.
std::vector<VariantResult> runSweep(const SweepSpec& spec, core::Progress& progress);

/// The sweep as HDF5: `/sweep/variants` (one row per variant: axis values, then results, with units),
/// `/sweep/spec` (the spec's text) and `/sweep/design` (the base design's text). Written atomically.
void writeSweep(const std::string& path, const SweepSpec& spec, const std::vector<VariantResult>& results);

/// The frontier along the first numeric axis: for every combination of the other axes, the largest
/// value at which every verdict holds (or "none"), as text lines.
std::vector<std::string> sweepFrontier(const SweepSpec& spec, const std::vector<VariantResult>& results);

/// A sweep file read back: `/sweep/variants` column by column.
struct SweepTable {
    std::vector<std::string> columns, units;
    std::vector<bool> numeric;
    std::vector<std::vector<double>> numbers;    ///< per column (numeric columns; NaN elsewhere)
    std::vector<std::vector<std::string>> texts; ///< per column (text columns)
    std::size_t axes = 0;                        ///< columns 1 … axes are the sweep's axes
    std::size_t rows() const { return numbers.empty() ? 0 : numbers.front().size(); }
    int column(const std::string& name) const;
};
/// InputError naming the file when it is not an rdt sweep file.
SweepTable readSweep(const std::string& path);

/// One variant as a line of JSON and back: `betweenRanks` (MPI ranks to rank 0) keeps an infinite
/// figure as "inf"; otherwise (`rdt sweep --json`) a figure that is not finite is null.
std::string encodeVariant(const VariantResult& r, bool betweenRanks = false);
VariantResult decodeVariant(const std::string& json);

} // namespace rdt::analysis
