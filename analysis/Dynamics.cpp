// The training job's power waveform from the design (docs/dynamics.md): per part, its GPUs' compute
// and communication levels on top of its steady other draw; per rack, through its shelves; summed
// to halls, rows and the site; then the site's trace, ramps, spectrum and bands.
#include "analysis/Dynamics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "analysis/Throughput.h"
#include "models/PowerDynamics.h"

namespace rdt::analysis {

namespace {

constexpr double kLeadS = 300; ///< idle before the job starts: two 5-minute ramp windows see the start

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

} // namespace

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

DynamicsResult analyseDynamics(const core::Design& d, const power::PowerResult& power,
                               const power::PowerResult& modelled, const thermal::ThermalResult& thermal,
                               const CheckpointResult* checkpoint, const Workload* workload, double mfu)
{
    DynamicsResult out;
    core::Dynamics resolved = d.dynamics; // with `iteration: auto`, its period once known
    const core::Dynamics& dy = resolved;
    if (!dy.declared)
        return out;
    out.declared = true;
    out.iterationS = dy.iterationS;
    out.computeShare = dy.computeShare;
    out.edgeS = dy.edgeS;
    out.startS = dy.startS;
    out.durationS = dy.durationS;
    out.stepS = dy.stepS;
    out.rampLimited = !std::isnan(dy.rampUpWps) || !std::isnan(dy.rampDownWps);
    out.mitigated = !std::isnan(dy.floorShare) || out.rampLimited || dy.bbuSmoothing || !std::isnan(dy.psuStorageJ) ||
                    dy.siteStorage.declared;
    const auto clocks = chassisClocks(d, power, thermal);
    // Per rack: its draw in each phase (W on the busbar, and AC-direct parts apart).
    struct Phase {
        double high = 0, low = 0, lowNoFloor = 0, idle = 0, highRaw = 0;
        double swingDc = 0; ///< the GPUs' swing on the busbar (the BBU's side)
        double acHigh = 0, acLow = 0; ///< of high and low, the parts with their own AC supplies
        int gpus = 0;
    };
    std::vector<Phase> racks(d.racks.size());
    double pSum = 0, qSum = 0, qCatSum = 0, floorSum = 0;
    double slowestFlops = INFINITY;
    const core::Part* noBf16 = nullptr;
    bool floor = !std::isnan(dy.floorShare);
    for (std::size_t r = 0; r < d.racks.size() && r < modelled.racks.size(); ++r) {
        const power::RackPower& rp = modelled.racks[r];
        const core::Rack& rack = d.racks[r];
        // The shelves' AC over what they carry at the modelled load (the energy line's conversion).
        const double k = rp.itLoadW > 0 && rp.acInputW > 0 ? rp.acInputW / rp.itLoadW : 1.0;
        Phase& ph = racks[r];
        for (const power::PartPower& pp : rp.parts) {
            std::size_t s = 0;
            while (s < rack.slots.size() && rack.slots[s].id != pp.id)
                ++s;
            const double kk = pp.busbar ? k : 1.0;
            const int n = s < rack.slots.size() ? static_cast<int>(rack.slots[s].part->value("gpus.count", 0)) : 0;
            if (n <= 0) {
                ph.high += kk * pp.modelledW;
                ph.low += kk * pp.modelledW;
                ph.lowNoFloor += kk * pp.modelledW;
                ph.idle += kk * pp.modelledW;
                continue;
            }
            const core::Part& part = *rack.slots[s].part;
            const core::Part* gpu = d.catalog->find(part.text("gpus.part"));
            const double comm = gpu ? gpu->value("power.communication", NAN) : NAN;
            const double idle = gpu ? gpu->value("power.idle", NAN) : NAN;
            if (std::isnan(comm) || std::isnan(idle)) {
                if (out.notChecked.empty()) {
                    out.notChecked = (gpu ? gpu->slug : part.text("gpus.part")) + " has no " +
                                     (std::isnan(comm) ? "power.communication" : "power.idle") +
                                     ": the training job's waveform needs its GPUs' power between compute phases";
                    out.notCheckedLoc = gpu ? gpu->loc : part.loc;
                }
                continue;
            }
            const ChassisClock& c = clocks[r][s];
            // The slowest GPU's sustained BF16 throughput paces a synchronous job.
            slowestFlops = std::min(slowestFlops, gpu->value("bf16_dense", NAN) * (std::isnan(c.ratio) ? 1.0 : c.ratio));
            if (std::isnan(gpu->value("bf16_dense", NAN)))
                noBf16 = gpu;
            const double p = c.powerW > 0 ? c.powerW : pp.gpuW / n;
            const double f = floor ? dy.floorShare * gpu->value("tdp", p) : 0.0;
            const double q = std::min(p, std::max(comm, f));
            const double other = pp.modelledW - pp.gpuW;
            ph.high += kk * (other + n * p);
            ph.swingDc += pp.busbar ? n * (p - q) : 0.0;
            if (!pp.busbar) {
                ph.acHigh += other + n * p;
                ph.acLow += other + n * q;
            }
            ph.low += kk * (other + n * q);
            ph.lowNoFloor += kk * (other + n * std::min(p, comm));
            ph.idle += kk * (other + n * std::min(p, idle));
            ph.gpus += n;
            pSum += n * p;
            qSum += n * q;
            qCatSum += n * comm;
            floorSum += n * f;
        }
    }
    for (Phase& ph : racks)
        ph.highRaw = ph.high;
    if (dy.iterationAuto && out.notChecked.empty()) {
        // The iteration from the workload: its FLOPs over the job's GPUs at the slowest one's
        // sustained pace (peak BF16 × clock × MFU), rounded to the sampling step.
        int n = 0;
        for (const Phase& ph : racks)
            n += ph.gpus;
        if (!workload || std::isnan(workload->batchTokens)) {
            out.notChecked = "iteration: auto needs the design's workload: file with training: {global_batch_tokens}";
            out.notCheckedLoc = dy.loc;
        } else if (noBf16) {
            out.notChecked = noBf16->slug + " has no bf16_dense: iteration: auto needs the GPUs' throughput";
            out.notCheckedLoc = noBf16->loc;
        } else if (n > 0) {
            const double sustained = slowestFlops * mfu;
            const double t = workload->flopsPerToken * workload->batchTokens / (n * sustained);
            resolved.iterationS = std::max(4.0, std::round(t / dy.stepS)) * dy.stepS;
            char b[320];
            std::snprintf(b, sizeof b,
                          "%.4g FLOPs a token x %.4g tokens / (%d GPUs x %.4g TFLOPS at MFU %.0f %%) = %.4g s (%s)",
                          workload->flopsPerToken, workload->batchTokens, n, slowestFlops * mfu / 1e12, mfu * 100, t,
                          workload->name.c_str());
            out.iterationFrom = b;
            const double shorter = 0.5 * dy.iterationS * std::min(dy.computeShare, 1.0 - dy.computeShare);
            auto refuse = [&](const std::string& why) {
                throw core::InputError(dy.loc, "iteration: auto gives " +
                                                   core::formatQuantity(dy.iterationS, core::Dimension::Time) + ": " + why);
            };
            if (dy.computeShare < 1.0 && dy.edgeS > shorter)
                refuse("the edge is longer than half its shorter phase (" +
                       core::formatQuantity(shorter, core::Dimension::Time) + "): shorten dynamics.edge");
            if (dy.durationS < dy.startS + 4 * dy.iterationS)
                refuse("the simulated duration must hold the start ramp and at least four iterations (" +
                       core::formatQuantity(dy.startS + 4 * dy.iterationS, core::Dimension::Time) +
                       "): lengthen dynamics.duration");
            if (dy.durationS / dy.stepS > 2e7)
                refuse("more than 20 million samples: lengthen dynamics.step");
        }
        out.iterationS = dy.iterationS;
    }
    // BBU smoothing: each rack with battery shelves draws its mean; its shelves give and take the swing.
    if (dy.bbuSmoothing)
        for (std::size_t r = 0; r < racks.size() && r < modelled.racks.size(); ++r) {
            Phase& ph = racks[r];
            if (ph.gpus == 0)
                continue;
            const power::RackPower& rp = modelled.racks[r];
            DynamicsBbu b;
            b.rack = d.racks[r].id;
            b.swingW = ph.swingDc;
            b.cycleJ = models::flatteningEnergy(ph.swingDc, dy.computeShare, dy.iterationS);
            b.storeJ = rp.bbuEnergyJ;
            b.cyclesPerDay = models::cyclesPerDay(b.cycleJ, dy.iterationS, b.storeJ);
            b.dischargeW = rp.bbuDischargeW;
            b.dischargeOk = rp.bbuDischargeW >= (1.0 - dy.computeShare) * ph.swingDc;
            out.bbu.push_back(b);
            if (b.storeJ > 0 && b.dischargeOk) {
                // The busbar's parts draw their mean; parts with their own AC supplies still swing.
                const double busHigh = ph.high - ph.acHigh, busLow = ph.low - ph.acLow;
                const double mean = busLow + dy.computeShare * (busHigh - busLow);
                ph.high = mean + ph.acHigh;
                ph.low = mean + ph.acLow;
            }
        }
    int gpus = 0;
    for (const Phase& ph : racks)
        gpus += ph.gpus;
    out.gpus = gpus;
    if (gpus == 0 && out.notChecked.empty()) {
        out.notChecked = "the design has no GPUs: no training job to swing";
        out.notCheckedLoc = dy.loc;
    }
    if (!out.notChecked.empty())
        return out;
    out.computeW = pSum / gpus;
    out.commW = qSum / gpus;
    out.commCatalogW = qCatSum / gpus;
    if (floor)
        out.floorW = floorSum / gpus;
    // Levels: the site, each hall, each row.
    DynamicsLevel site{"site", "site", 0, 0, 0, 0, 0, 0};
    std::map<std::string, DynamicsLevel> halls, rows;
    std::vector<std::string> hallOrder, rowOrder;
    double lowNoFloor = 0;
    for (std::size_t r = 0; r < racks.size(); ++r) {
        const Phase& ph = racks[r];
        const core::Rack& rack = d.racks[r];
        auto add = [&](DynamicsLevel& l) {
            l.gpus += ph.gpus;
            l.highW += ph.high;
            l.lowW += ph.low;
            l.idleW += ph.idle;
            l.lowUnmitigatedW += ph.lowNoFloor;
            l.highUnmitigatedW += ph.highRaw;
        };
        add(site);
        lowNoFloor += ph.lowNoFloor;
        if (rack.hall >= 0) {
            const std::string& id = d.halls[static_cast<std::size_t>(rack.hall)].id;
            if (!halls.count(id)) {
                halls[id] = DynamicsLevel{id, "hall", 0, 0, 0, 0, 0, 0};
                hallOrder.push_back(id);
            }
            add(halls[id]);
        }
        if (rack.row >= 0) {
            const std::string& id = d.rows[static_cast<std::size_t>(rack.row)].id;
            if (!rows.count(id)) {
                rows[id] = DynamicsLevel{id, "row", 0, 0, 0, 0, 0, 0};
                rowOrder.push_back(id);
            }
            add(rows[id]);
        }
    }
    out.levels.push_back(site);
    for (const auto& id : hallOrder)
        out.levels.push_back(halls[id]);
    for (const auto& id : rowOrder)
        out.levels.push_back(rows[id]);
    out.unmitigatedSwingW = site.highUnmitigatedW - lowNoFloor;

    // The site's trace: idle, the start ramp, the job. The GPUs' wave, ramp-limited per GPU.
    const double dt = dy.stepS;
    // Idle long enough, and the job long enough, that two consecutive windows of every ramp reported
    // (5 min and the grid's) see the start.
    const double leadS = std::max(kLeadS, d.grid.declared ? d.grid.rampWindowS : 0.0);
    const double jobS = std::max(dy.durationS, leadS);
    const std::size_t lead = static_cast<std::size_t>(std::llround(leadS / dt));
    const std::size_t start = static_cast<std::size_t>(std::llround(dy.startS / dt));
    const std::size_t job = static_cast<std::size_t>(std::llround(jobS / dt));
    out.startAtS = leadS;
    const double swingGpu = out.computeW - out.commW; // per GPU, mitigated
    const std::size_t perIteration = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(dy.iterationS / dt)));
    // One checkpoint stall: from the first iteration boundary past the job's middle (at least four
    // iterations after its start, so that the spectrum has them), at the communication level.
    std::size_t stallA = job, stallB = job;
    if (checkpoint && checkpoint->checked && checkpoint->stallS > 0 && dy.checkpoint) {
        const std::size_t len = static_cast<std::size_t>(std::llround(checkpoint->stallS / dt));
        std::size_t at = start + (job - start) / 2;
        at = (at + perIteration - 1) / perIteration * perIteration;
        if (len == 0) {
            out.checkpointNote = "the workload's " + core::formatQuantity(checkpoint->stallS, core::Dimension::Time) +
                                 " checkpoint stall is shorter than half the trace's step: not drawn";
        } else if (at >= start + 4 * perIteration && at + len <= job) {
            stallA = at;
            stallB = at + len;
            out.checkpointStallS = checkpoint->stallS;
            out.checkpointIntervalS = checkpoint->intervalS;
            out.checkpointAtS = leadS + static_cast<double>(at) * dt;
        } else {
            out.checkpointNote = "the trace is too short to hold the workload's " +
                                 core::formatQuantity(checkpoint->stallS, core::Dimension::Time) +
                                 " checkpoint stall: lengthen dynamics.duration";
        }
    } else if (checkpoint && !checkpoint->checked && dy.checkpoint) {
        out.checkpointNote = "the workload's checkpoint is not modelled (its figures are missing): no stall in the trace";
    }
    std::vector<double> s(job);
    out.rawWave.resize(job);
    double g = out.commW;
    for (std::size_t i = 0; i < job; ++i) {
        // The phase from whole samples (the iteration is a whole number of steps): no drift.
        out.rawWave[i] = models::trapezoidWave(static_cast<double>(i % perIteration) * dt, dy.iterationS, dy.computeShare,
                                              dy.edgeS);
        if (i >= stallA && i < stallB)
            out.rawWave[i] = 0; // the checkpoint stall: the GPUs wait
        const double want = out.commW + swingGpu * out.rawWave[i];
        if (!std::isnan(dy.rampUpWps) && want > g)
            g = std::min(want, g + dy.rampUpWps * dt);
        else if (!std::isnan(dy.rampDownWps) && want < g)
            g = std::max(want, g - dy.rampDownWps * dt);
        else
            g = want;
        s[i] = swingGpu > 0 ? (g - out.commW) / swingGpu : 1.0;
    }
    // PSU storage: the supplies draw each edge over 2E/ΔP, the storage giving (taking) the
    // difference, ΔP·τ/2 = E for a step: a rate limit of ΔP/(2E) of the swing a second.
    if (!std::isnan(dy.psuStorageJ) && swingGpu > 0) {
        out.psuStorageJ = dy.psuStorageJ;
        out.psuEdgeS = 2 * dy.psuStorageJ / swingGpu;
        // A job at full compute (or none) has no swing to flatten: no share (NaN, not infinity).
        const double flatten = models::flatteningEnergy(swingGpu, dy.computeShare, dy.iterationS);
        out.psuShare = flatten > 0 ? dy.psuStorageJ / flatten : NAN;
        out.psuRideS = dy.psuStorageJ / out.computeW;
        const double step = dt / out.psuEdgeS;
        double u = 0; // from the communication level, so that the first edge is drawn as every other
        for (double& v : s) {
            u = std::clamp(v, u - step, u + step);
            v = u;
        }
    }
    out.startSamples = start;
    out.siteW.assign(lead + job, site.idleW);
    for (std::size_t i = 0; i < job; ++i) {
        const double w = site.lowW + (site.highW - site.lowW) * s[i];
        const double ramp = start > 0 ? std::min(1.0, static_cast<double>(i) / static_cast<double>(start)) : 1.0;
        out.siteW[lead + i] = site.idleW + ramp * (w - site.idleW);
    }
    out.wave = s;
    if (dy.siteStorage.declared)
        applySiteStorage(out, dy.siteStorage, dt);
    // The running job: after the start, whole iterations (lines on bins).
    const std::size_t perIter = static_cast<std::size_t>(std::llround(dy.iterationS / dt));
    const std::size_t from = lead + start;
    if (from + 4 * perIter > out.siteW.size()) {
        out.notChecked = "the job's start ramp leaves fewer than four iterations of the simulated duration: "
                         "lengthen dynamics.duration";
        out.notCheckedLoc = dy.loc;
        return out;
    }
    // Up to the checkpoint stall, whole iterations: the job's periodic swing.
    std::size_t n = std::min(out.siteW.size(), lead + stallA) - from;
    if (perIter > 0 && n >= perIter)
        n -= n % perIter;
    const std::vector<double> running(out.siteW.begin() + static_cast<std::ptrdiff_t>(from),
                                      out.siteW.begin() + static_cast<std::ptrdiff_t>(from + n));
    const models::AmplitudeSpectrum spec = models::amplitudeSpectrum(running, dt);
    // The steady swing at the connection: the running trace's second half (a site storage's filter
    // settles from the job's start in the first).
    const auto half = running.begin() + static_cast<std::ptrdiff_t>((n / perIter / 2) * perIter);
    const auto [runLo, runHi] = std::minmax_element(half, running.end());
    out.poiSwingW = *runHi - *runLo;
    if (out.siteStorage) {
        const auto [llo, lhi] = std::minmax_element(out.loadW.begin() + static_cast<std::ptrdiff_t>(from),
                                                    out.loadW.begin() + static_cast<std::ptrdiff_t>(from + n));
        out.store.loadSwingW = *lhi - *llo;
    }
    out.meanW = spec.meanW;
    if (!std::isnan(out.checkpointStallS))
        out.checkpointDropW = out.meanW - site.lowW;
    out.fundamentalHz = 1.0 / dy.iterationS;
    if (spec.stepHz > 0) {
        const auto k = static_cast<std::size_t>(std::llround(out.fundamentalHz / spec.stepHz));
        out.fundamentalW = k < spec.amplitude.size() ? spec.amplitude[k] : 0.0;
        if (out.fundamentalW < 1e-9 * std::max(1.0, spec.meanW))
            out.fundamentalW = 0; // a flat trace: rounding, not a line
        out.spectrumStepHz = spec.stepHz;
        const std::size_t top = std::min(spec.amplitude.size(), static_cast<std::size_t>(25.0 / spec.stepHz) + 1);
        out.spectrumW.assign(spec.amplitude.begin(), spec.amplitude.begin() + static_cast<std::ptrdiff_t>(top));
        if (out.siteStorage) {
            const models::AmplitudeSpectrum ls = models::amplitudeSpectrum(
                std::vector<double>(out.loadW.begin() + static_cast<std::ptrdiff_t>(from),
                                    out.loadW.begin() + static_cast<std::ptrdiff_t>(from + n)),
                dt);
            out.loadSpectrumW.assign(ls.amplitude.begin(),
                                     ls.amplitude.begin() + static_cast<std::ptrdiff_t>(std::min(top, ls.amplitude.size())));
        }
    }
    auto band = [&](double lo, double hi, bool grid) {
        DynamicsBand b{lo, hi, models::bandShare(spec, lo, hi), 0, grid};
        b.rmsW = std::sqrt(b.share * spec.acVariance);
        out.bands.push_back(b);
    };
    for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{0.1, 1}, {1, 2.5}, {2.5, 7}, {7, 20}})
        band(lo, hi, false);
    if (!std::isnan(d.grid.bandShare))
        band(d.grid.bandLoHz, d.grid.bandHiHz, true);
    out.ramp1sWps = models::largestRamp(out.siteW, dt, 1);
    out.ramp1minWps = models::largestRamp(out.siteW, dt, 60);
    out.ramp5minWps = models::largestRamp(out.siteW, dt, 300);
    if (d.grid.declared)
        out.rampGridWps = models::largestRamp(out.siteW, dt, d.grid.rampWindowS);
    if (!std::isnan(d.grid.shortCircuitVA)) {
        // ΔV/V ≈ (ΔP·R + ΔQ·X)/|Z|·1/S_sc with the GPUs' rectifiers at unity power factor (ΔQ 0):
        // ΔP·cos θ / S_sc, θ = atan(X/R); without X/R, cos θ = 1 (the largest).
        const double cosTheta = std::isnan(d.grid.xOverR) ? 1.0 : 1.0 / std::sqrt(1.0 + d.grid.xOverR * d.grid.xOverR);
        out.voltageChange = out.poiSwingW * cosTheta / d.grid.shortCircuitVA;
    }
    // The grid's modes: the design's iteration, and the periods a sweep finds risky.
    if (!d.grid.modes.empty()) {
        const double swing = out.poiSwingW, duty = dy.computeShare, edge = std::max(dy.edgeS, out.psuEdgeS);
        out.resonances = resonancesAt(d.grid.modes, swing, duty, edge, dy.iterationS);
        bool inRange = false;
        constexpr int kSweep = 2000;
        for (int i = 0; i <= kSweep; ++i) {
            const double T = 0.2 * std::pow(300.0, static_cast<double>(i) / kSweep); // 0.2 s to 60 s
            const bool risky = !resonancesAt(d.grid.modes, swing, duty, std::min(edge, 0.5 * T), T).empty();
            if (risky && !inRange)
                out.riskyPeriods.push_back({T, T});
            if (risky)
                out.riskyPeriods.back().second = T;
            inRange = risky;
        }
    }
    // What the mitigations cost: the job's energy with them against an unmitigated job's.
    const double unmitigatedMean = lowNoFloor + (site.highUnmitigatedW - lowNoFloor) * dy.computeShare;
    // With site storage: the site's own draw behind it, plus the storage's round-trip losses over the
    // running job (what recharging it to where it started costs; its drift is reported apart).
    double mean = out.meanW;
    if (out.siteStorage) {
        double sum = 0;
        for (std::size_t i = from; i < from + n; ++i)
            sum += out.loadW[i];
        mean = sum / static_cast<double>(n) + out.store.lossJ / (static_cast<double>(out.siteW.size() - lead) * dt);
    }
    out.extraEnergyShare = unmitigatedMean > 0 ? mean / unmitigatedMean - 1.0 : 0.0;
    if (std::abs(out.extraEnergyShare) < 1e-9)
        out.extraEnergyShare = 0; // the sampled mean's rounding, not a cost
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
        const double w = withMitigation ? wave[j] : rawWave[j];
        const double ramp = startSamples > 0 ? std::min(1.0, static_cast<double>(j) / static_cast<double>(startSamples)) : 1.0;
        out.push_back(l.idleW + ramp * (low + (high - low) * w - l.idleW));
    }
    return out;
}

} // namespace rdt::analysis
