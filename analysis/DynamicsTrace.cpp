// A measured GPU power trace against the predicted waveform (docs/dynamics.md, "Measured traces").
#include "analysis/DynamicsTrace.h"

#include <algorithm>
#include <cstdio>

#include "analysis/DynamicsDetail.h"
#include "core/Error.h"
#include "core/ResultStore.h"
#include "models/PowerDynamics.h"

namespace rdt::analysis {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

double percentile(std::vector<double> v, double p)
{
    const auto at = v.begin() + static_cast<std::ptrdiff_t>(std::clamp(p, 0.0, 1.0) * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), at, v.end());
    return *at;
}

/// The predicted per-GPU series at the trace's sampling, built as the design's waveform is (the
/// trapezoid of the resolved iteration — `iteration: auto` included — and the GPUs' ramp limits), so
/// that both go through the same estimator. PSU storage is left out: it smooths the supplies' input,
/// and nvidia-smi and DCGM read the GPU's board power, upstream of it.
std::vector<double> predictedSeries(const core::Dynamics& dy, const DynamicsResult& r, double dt, std::size_t n)
{
    std::vector<double> out(n);
    const double swing = r.computeW - r.commW;
    double g = r.commW;
    for (std::size_t i = 0; i < n; ++i) {
        g = detail::rampStep(g,
                             r.commW + swing * models::trapezoidWave(static_cast<double>(i) * dt, r.iterationS,
                                                                     r.computeShare, r.edgeS),
                             dy, dt);
        out[i] = g;
    }
    return out;
}

} // namespace

TraceFigures traceFigures(const std::vector<double>& w, double dt, double lowestHz)
{
    TraceFigures f;
    if (w.size() < 16 || !(dt > 0))
        return f;
    const double lo = percentile(w, 0.05), hi = percentile(w, 0.95), mid = 0.5 * (lo + hi);
    std::vector<double> above, below;
    for (const double x : w)
        (x > mid ? above : below).push_back(x);
    f.highW = median(above);
    f.lowW = median(below);
    f.computeShare = static_cast<double>(above.size()) / static_cast<double>(w.size());
    const models::AmplitudeSpectrum s = models::amplitudeSpectrum(w, dt);
    const double nyquist = 0.5 / dt;
    // The strongest line from `lowestHz` (three bins at least) to the Nyquist frequency; then the
    // lowest of its subharmonics that is strong too (a duty far from half weakens the fundamental
    // below a harmonic, never to nothing).
    const std::size_t first = std::max<std::size_t>(3, static_cast<std::size_t>(std::ceil(lowestHz / s.stepHz)));
    std::size_t peak = 0;
    for (std::size_t k = first; k + 1 < s.amplitude.size(); ++k)
        if (peak == 0 || s.amplitude[k] > s.amplitude[peak])
            peak = k;
    if (peak == 0 || !(s.amplitude[peak] > 0))
        return f;
    const double top = s.amplitude[peak];
    for (int m = 6; m >= 2; --m) {
        const auto k = static_cast<std::size_t>(std::llround(static_cast<double>(peak) / m));
        // Outside the strongest line's own main lobe (a Hann window spreads a line over its two
        // neighbours at half height: those are not a subharmonic).
        if (k < first || k + 2 > peak)
            continue;
        // The subharmonic's line may straddle two bins; it must be a line (a local maximum).
        std::size_t best = k;
        for (std::size_t j = k - 1; j <= k + 1 && j + 2 <= peak; ++j)
            if (s.amplitude[j] > s.amplitude[best])
                best = j;
        const bool isLine = s.amplitude[best] >= s.amplitude[best - 1] && s.amplitude[best] >= s.amplitude[best + 1];
        if (isLine && s.amplitude[best] >= 0.3 * top) {
            peak = best;
            break;
        }
    }
    // Between bins: the parabola through the peak and its neighbours.
    double k = static_cast<double>(peak);
    if (peak + 1 < s.amplitude.size()) {
        const double a = s.amplitude[peak - 1], b = s.amplitude[peak], c = s.amplitude[peak + 1];
        const double den = a - 2 * b + c;
        if (den < 0 && b >= a && b >= c)
            k += 0.5 * (a - c) / den;
    }
    f.periodS = 1.0 / (k * s.stepHz);
    f.fundamentalW = s.amplitude[peak];
    for (const auto& [blo, bhi] : std::vector<std::pair<double, double>>{{0.1, 1}, {1, 2.5}, {2.5, 7}, {7, 20}}) {
        DynamicsBand b{blo, bhi, bhi <= nyquist ? models::bandShare(s, blo, bhi) : NAN, 0, false};
        b.rmsW = std::sqrt(b.share * s.acVariance);
        f.bands.push_back(b);
    }
    return f;
}

TraceComparison compareTrace(const core::Design& d, const DynamicsResult& r, const hil::PowerTrace& trace)
{
    const core::SourceLoc at{d.file, d.dynamics.loc.line, 0, "dynamics"};
    if (!r.declared)
        throw core::InputError(core::SourceLoc{d.file, 0, 0, "dynamics"},
                               "the design has no dynamics: section: no predicted waveform to compare the trace with");
    if (!r.notChecked.empty())
        throw core::InputError(at, "the design's waveform is not checked: " + r.notChecked);
    TraceComparison c;
    c.file = trace.file;
    c.gpus = trace.gpus;
    c.stepS = trace.stepS;
    c.durationS = static_cast<double>(trace.meanW.size()) * trace.stepS;
    if (c.durationS < 4 * r.iterationS)
        throw core::InputError(core::SourceLoc{trace.file, 0, 0, "samples"},
                               "the trace holds fewer than four of the design's iterations (" +
                                   std::to_string(r.iterationS) + " s): record a longer one");
    // Lines from half the design's iteration rate up (0.02 Hz at most): an iteration longer than
    // 50 s keeps its fundamental in the search.
    const double lowestHz = std::min(0.02, 0.5 / r.iterationS);
    c.measured = traceFigures(trace.meanW, trace.stepS, lowestHz);
    c.predicted = traceFigures(predictedSeries(d.dynamics, r, trace.stepS, trace.meanW.size()), trace.stepS, lowestHz);
    // The design's own levels, period and share, rather than their estimates from its sampled wave.
    c.predicted.highW = r.computeW;
    c.predicted.lowW = r.commW;
    c.predicted.periodS = r.iterationS;
    c.predicted.computeShare = r.computeShare;
    auto row = [&](const std::string& figure, const std::string& unit, const std::string& rule, double m, double p) {
        c.rows.push_back({figure, unit, rule, m, p});
    };
    row("compute power", "W", "hil.power.levels", c.measured.highW, c.predicted.highW);
    row("communication power", "W", "hil.power.levels", c.measured.lowW, c.predicted.lowW);
    row("swing", "W", "hil.power.swing", c.measured.swingW(), c.predicted.swingW());
    row("iteration", "s", "hil.power.period", c.measured.periodS, c.predicted.periodS);
    row("compute share", "%", "hil.power.duty", c.measured.computeShare * 100, c.predicted.computeShare * 100);
    row("fundamental", "W", "", c.measured.fundamentalW, c.predicted.fundamentalW);
    for (std::size_t i = 0; i < c.measured.bands.size() && i < c.predicted.bands.size(); ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "%.3g-%.3g Hz share", c.measured.bands[i].loHz, c.measured.bands[i].hiHz);
        row(name, "%", "", c.measured.bands[i].share * 100, c.predicted.bands[i].share * 100);
    }
    // The calibration: the GPU part's communication power as the trace measures it.
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots)
            if (c.gpuPart.empty() && s.part->value("gpus.count", 0) > 0)
                c.gpuPart = s.part->text("gpus.part");
    char line[320];
    std::snprintf(line, sizeof line,
                  "%s:\n  power:\n    communication: {value: %.0f W, source: \"measured: %s, %d GPUs, %.0f s at %.3g s "
                  "(rdt hil power-trace)\"}",
                  c.gpuPart.c_str(), c.measured.lowW, trace.file.c_str(), trace.gpus, c.durationS, trace.stepS);
    c.catalogLine = line;
    return c;
}

void registerPowerTraceChecks(core::CheckRegistry& registry)
{
    using core::Dimension;
    // A figure's deviation: relative to the prediction, or (the compute share) in points.
    auto deviation = [](const std::string& rule, bool relative) {
        return [rule, relative](core::CheckContext& ctx) {
            const auto cmp = ctx.results().get<TraceComparison>("power_trace");
            if (!cmp)
                return;
            const double tol = ctx.constraint("tolerance");
            for (const TraceRow& r : cmp->rows) {
                if (r.rule != rule)
                    continue;
                const double dev = relative ? std::abs(r.measured - r.predicted) / std::max(1e-9, std::abs(r.predicted))
                                            : std::abs(r.measured - r.predicted);
                const double limit = tol * 100; // % of the prediction, or points of the share
                const double shown = dev * (relative ? 100 : 1);
                if (!(shown > limit) && std::isfinite(shown))
                    continue;
                char msg[320];
                std::snprintf(msg, sizeof msg, "%s measured %.4g %s, the design predicts %.4g %s (%s%.3g %s)",
                              r.figure.c_str(), r.measured, r.unit.c_str(), r.predicted, r.unit.c_str(),
                              r.measured >= r.predicted ? "+" : "-", shown, relative ? "%" : "points");
                ctx.report(cmp->file, msg, shown, limit, relative ? "%" : "points", ctx.design().dynamics.loc);
            }
        };
    };
    const char* source = "rdt hardware-in-the-loop (docs/dynamics.md, measured traces); nvidia-smi -lms / dcgmi dmon -d";
    registry.add({"hil.power.swing",
                  "Measured GPU power swing agrees with the design's waveform",
                  core::Severity::Error,
                  source,
                  "The measured trace's swing per GPU (the median of the samples above its midpoint less the median "
                  "of those below) against the design's compute less communication power; a relative deviation "
                  "over `tolerance` is a violation: the grid verdicts rest on that swing.",
                  {{"tolerance", {0.10, Dimension::Ratio}}}},
                 deviation("hil.power.swing", true));
    registry.add({"hil.power.levels",
                  "Measured compute and communication power agree with the design",
                  core::Severity::Warning,
                  source,
                  "The measured trace's compute-phase and communication-phase power per GPU against the design's "
                  "(its clocks under caps; the catalog's power.communication, which `rdt hil power-trace` "
                  "calibrates); a relative deviation over `tolerance` is a violation.",
                  {{"tolerance", {0.10, Dimension::Ratio}}}},
                 deviation("hil.power.levels", true));
    registry.add({"hil.power.period",
                  "Measured iteration period agrees with the design",
                  core::Severity::Warning,
                  source,
                  "The measured trace's fundamental period (its spectrum's lowest strong line) against "
                  "dynamics.iteration; a relative deviation over `tolerance` is a violation (the grid-mode screen "
                  "and the bands rest on it).",
                  {{"tolerance", {0.05, Dimension::Ratio}}}},
                 deviation("hil.power.period", true));
    registry.add({"hil.power.duty",
                  "Measured compute share agrees with the design",
                  core::Severity::Warning,
                  source,
                  "The share of the measured trace's samples above its midpoint against dynamics.compute_share; a "
                  "difference over `tolerance` (points) is a violation.",
                  {{"tolerance", {0.05, Dimension::Ratio}}}},
                 deviation("hil.power.duty", false));
}

std::vector<core::Violation> judgePowerTrace(const core::Design& design, const core::Profile& profile,
                                             const TraceComparison& comparison)
{
    core::CheckRegistry registry;
    registerPowerTraceChecks(registry);
    core::ResultStore store;
    store.put("power_trace", std::make_shared<const TraceComparison>(comparison));
    std::vector<core::Violation> out;
    for (const auto& e : registry.entries()) {
        const core::RuleConfig cfg = profile.configFor(e.info);
        if (!cfg.enabled)
            continue;
        core::CheckContext ctx(design, e.info, cfg, out, &store);
        e.check(ctx);
    }
    for (core::Violation& v : out)
        for (const core::Waiver& w : design.waivers)
            if (w.matches(v.rule, v.subject)) {
                v.waived = true;
                v.justification = w.justification;
            }
    return out;
}

} // namespace rdt::analysis
