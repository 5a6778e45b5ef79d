// Parts of the training job's waveform (docs/dynamics.md): the site storage's split, independent
// jobs' phases and shares, each level's trace, the grid modes' screen.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "analysis/Dynamics.h"
#include "analysis/DynamicsDetail.h"
#include "models/PowerDynamics.h"

namespace rdt::analysis {

namespace detail {

/// The site storage at the connection (docs/dynamics.md): a first-order low-pass of the site's draw
/// at the cutoff goes to the grid, the storage gives (takes) the rest within its power rating and
/// its energy (starting half full), losing 1 − √η each way; the connection's trace replaces siteW.
void applySiteStorage(DynamicsResult& out, const core::Dynamics::SiteStorage& st, double dt)
{
    out.siteStorage = true;
    DynamicsSiteStorage& r = out.store;
    r.powerW = st.powerW;
    r.energyJ = st.energyJ;
    r.cutoffHz = st.cutoffHz;
    r.efficiency = st.efficiency;
    out.loadW = out.siteW;
    const double tau = 1.0 / (2 * std::numbers::pi * st.cutoffHz), alpha = dt / (tau + dt), leg = std::sqrt(st.efficiency);
    const auto start = static_cast<std::size_t>(std::llround(out.startAtS / dt));
    // The store starts half full. The grid draws the site's low-pass and, as the store's controller
    // would, the last step's round-trip loss on top, so the losses do not drain it over a long job:
    // what it holds then follows the swing and the start, not the trace's length. `free` is the same
    // store without its limits: what the filter asks of it (the verdicts), beside what it gives.
    const double half = 0.5 * st.energyJ;
    double y = out.loadW.empty() ? 0.0 : out.loadW[0], e = half, eMin = e, eMax = e, eStart = e;
    double loss = 0, freeE = half, freeLoss = 0, freeExcursion = 0;
    auto drawn = [leg, dt](double p) { return p > 0 ? p / leg * dt : p * leg * dt; };
    for (std::size_t i = 0; i < out.loadW.size(); ++i) {
        if (i == start)
            eStart = e; // the drift and the losses count from the job's start
        const double x = out.loadW[i];
        y += alpha * (x - y);
        // Unlimited: its power and its excursion from half full.
        const double pf = x - y - freeLoss;
        const double usedF = drawn(pf);
        freeE -= usedF;
        freeLoss = (usedF - pf * dt) / dt;
        r.demandW = std::max(r.demandW, std::abs(pf));
        freeExcursion = std::max(freeExcursion, std::abs(freeE - half));
        // Within its rating and its energy: what it holds (giving), what it has room for (taking).
        double p = x - y - loss; // > 0: the storage gives
        if (std::abs(p) > st.powerW)
            p = std::copysign(st.powerW, p);
        if (e - drawn(p) < 0 || e - drawn(p) > st.energyJ) {
            const double room = p > 0 ? e : st.energyJ - e;
            p = p > 0 ? room * leg / dt : -room / (leg * dt);
        }
        const double used = drawn(p);
        e -= used;
        loss = (used - p * dt) / dt; // what the round trip lost, giving or taking (W)
        if (i >= start)
            r.lossJ += loss * dt;
        eMin = std::min(eMin, e);
        eMax = std::max(eMax, e);
        r.peakW = std::max(r.peakW, std::abs(p));
        out.siteW[i] = x - p;
    }
    r.spanJ = eMax - eMin;
    r.driftJ = e - eStart;
    // Starting half full, it needs twice its largest excursion.
    r.neededJ = 2 * freeExcursion;
    r.powerLimited = r.demandW > st.powerW;
    r.energyLimited = r.neededJ > st.energyJ;
}

std::vector<double> jobPhases(const core::Dynamics& dy, double iterationS)
{
    std::vector<double> out;
    if (!dy.jobPhasesS.empty()) {
        for (const double p : dy.jobPhasesS)
            out.push_back(std::fmod(p, iterationS));
        return out;
    }
    // A fixed generator and seed: the same design gives the same phases on every machine.
    std::mt19937 gen(dy.phaseSeed);
    out.push_back(0.0);
    for (int j = 1; j < dy.jobs; ++j)
        out.push_back(iterationS * (static_cast<double>(gen()) / 4294967296.0));
    return out;
}

std::vector<std::vector<std::pair<int, double>>> rackJobs(const std::vector<int>& gpus, int jobs)
{
    double total = 0;
    for (const int n : gpus)
        total += n;
    std::vector<std::vector<std::pair<int, double>>> out(gpus.size());
    const double per = total / jobs;
    double at = 0;
    for (std::size_t r = 0; r < gpus.size(); ++r) {
        const double from = at, to = at + gpus[r];
        at = to;
        if (gpus[r] <= 0)
            continue;
        for (int j = std::max(0, static_cast<int>(std::floor(from / per))); j < jobs && j * per < to; ++j) {
            const double overlap = std::min(to, (j + 1) * per) - std::max(from, j * per);
            if (overlap > 1e-9)
                out[r].push_back({j, overlap / gpus[r]});
        }
    }
    return out;
}

} // namespace detail

std::vector<DynamicsResonance> resonancesAt(const std::vector<core::Grid::Mode>& modes, double swingW, double duty,
                                            double edgeS, double periodS)
{
    std::vector<DynamicsResonance> out;
    if (!(swingW > 0) || !(periodS > 0))
        return out;
    for (const core::Grid::Mode& m : modes) {
        const double lo = m.hz * (1 - m.damping), hi = m.hz * (1 + m.damping);
        // Beyond the 12th harmonic a trapezoid's lines are below 2/(nπ) < 5 % of the swing: not flagged.
        for (int n = std::max(1, static_cast<int>(std::ceil(lo * periodS))); n <= 12 && n / periodS <= hi; ++n) {
            const double a = models::squareWaveHarmonic(n, swingW, duty, edgeS, periodS);
            if (a >= 0.05 * swingW)
                out.push_back({m.hz, m.damping, n, n / periodS, a});
        }
    }
    return out;
}

std::string powerText(double w, int digits, const std::string& unit, const std::string& per)
{
    const double a = std::abs(w);
    const double scale = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : 1e3;
    const char* prefix = a >= 1e9 ? "G" : a >= 1e6 ? "M" : "k";
    char b[64];
    std::snprintf(b, sizeof b, "%.*g %s%s%s", digits, w / scale, prefix, unit.c_str(), per.c_str());
    return b;
}

std::vector<double> DynamicsResult::levelTrace(const DynamicsLevel& l, double fromS, double toS, bool withMitigation) const
{
    std::vector<double> out;
    if (!(stepS > 0) || siteW.empty())
        return out;
    const auto lead = static_cast<std::ptrdiff_t>(std::llround(startAtS / stepS));
    const auto n = static_cast<std::ptrdiff_t>(siteW.size());
    const auto a = std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(std::llround(fromS / stepS)), 0, n);
    const auto b = std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(std::llround(toS / stepS)), a, n);
    const double low = withMitigation ? l.lowW : l.lowUnmitigatedW;
    const double high = withMitigation ? l.highW : l.highUnmitigatedW;
    for (std::ptrdiff_t i = a; i < b; ++i) {
        if (i < lead) {
            out.push_back(l.idleW);
            continue;
        }
        const auto j = static_cast<std::size_t>(i - lead);
        const double w = mixedWave(l, j, withMitigation);
        const double ramp = startSamples > 0 ? std::min(1.0, static_cast<double>(j) / static_cast<double>(startSamples)) : 1.0;
        out.push_back(l.idleW + ramp * (low + (high - low) * w - l.idleW));
    }
    return out;
}

double DynamicsResult::mixedWave(const DynamicsLevel& l, std::size_t i, bool withMitigation) const
{
    const std::vector<double>& first = withMitigation ? wave : rawWave;
    const std::vector<double>& share = withMitigation ? l.jobShare : l.jobShareRaw;
    if (jobShift.size() <= 1 || share.size() != jobShift.size())
        return first[i];
    // The first job holds the checkpoint stall; every other is the stall-free wave, shifted.
    const std::vector<double>& base = withMitigation ? baseWave : baseRawWave;
    double w = share[0] * first[i];
    for (std::size_t k = 1; k < jobShift.size(); ++k)
        if (share[k] != 0)
            w += share[k] * base[i + jobShift[k]];
    return w;
}

std::vector<std::pair<double, double>> riskyPeriods(const std::vector<core::Grid::Mode>& modes, double swingW,
                                                   double duty, double edgeS)
{
    std::vector<std::pair<double, double>> out;
    const auto riskyAt = [&](double T) {
        return !resonancesAt(modes, swingW, duty, std::min(edgeS, 0.5 * T), T).empty();
    };
    // A range's edge lies between two samples of the sweep (0.29 % apart): bisected to 1e-9 of
    // the period, and reported on its risky side's outer bound, so that a period just outside a
    // listed range is safe (until 2026-12-06 the edges were the last risky samples: a design's
    // own flagged 2 s fell outside the listed 2.0035-2.2075 s).
    const auto edgeBetween = [&](double safe, double risky) {
        for (int k = 0; k < 60 && std::abs(risky - safe) > 1e-9 * risky; ++k) {
            const double mid = 0.5 * (safe + risky);
            (riskyAt(mid) ? risky : safe) = mid;
        }
        return safe;
    };
    bool inRange = false;
    double previous = 0;
    constexpr int kSweep = 2000;
    for (int i = 0; i <= kSweep; ++i) {
        const double T = 0.2 * std::pow(300.0, static_cast<double>(i) / kSweep); // 0.2 s to 60 s
        const bool risky = riskyAt(T);
        if (risky && !inRange)
            out.push_back({i == 0 ? T : edgeBetween(previous, T), T});
        if (risky)
            out.back().second = T;
        if (!risky && inRange)
            out.back().second = edgeBetween(T, previous);
        inRange = risky;
        previous = T;
    }
    return out;
}

} // namespace rdt::analysis
