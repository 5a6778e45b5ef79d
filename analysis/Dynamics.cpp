// The training job's power waveform from the design (docs/dynamics.md): per part, its GPUs' compute
// and communication levels on top of its steady other draw; per rack, through its shelves; summed
// to halls, rows and the site; then the site's trace, ramps, spectrum and bands.
#include "analysis/Dynamics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "analysis/DynamicsDetail.h"
#include "analysis/Throughput.h"
#include "models/PowerDynamics.h"
#include "models/PowerModels.h"

namespace rdt::analysis {

namespace {

constexpr double kLeadS = 300; ///< idle before the job starts: two 5-minute ramp windows see the start

} // namespace

DynamicsResult analyseDynamics(const core::Design& d, const power::PowerResult& power,
                               const power::PowerResult& modelled, const thermal::ThermalResult& thermal,
                               const CheckpointResult* checkpoint, const Workload* workload, double mfu,
                               const ThroughputResult* throughput)
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
        double swingDc = 0;           ///< the GPUs' swing on the busbar (the BBU's side)
        double acHigh = 0, acLow = 0; ///< of high and low, the parts with their own AC supplies
        int gpus = 0;
    };
    std::vector<Phase> racks(d.racks.size());
    double pSum = 0, qSum = 0, qCatSum = 0, floorSum = 0;
    double slowestFlops = INFINITY;
    const core::Part* noBf16 = nullptr;
    const core::Slot* stopped = nullptr; // a chassis whose GPUs run at no clock
    std::string stoppedWhy;              // what stops them, in words, with the rule that says so
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
            // The slowest GPU's sustained BF16 throughput paces a synchronous job; GPUs that stop
            // (thermal.chassis.airflow) give it no pace at all: said below, not an infinite iteration.
            if (c.ratio == 0.0 && !stopped) {
                stopped = &rack.slots[s];
                bool cooledByLiquid = false;
                if (r < thermal.racks.size())
                    for (const thermal::ChassisThermal& ct : thermal.racks[r].chassis)
                        cooledByLiquid |= ct.slot == static_cast<int>(s) && !std::isnan(ct.liquidJunctionK);
                stoppedWhy = c.limitedBy != "thermal" ? "its cap or its rack's supply leaves it no power above its "
                                                        "static draw (limited by " +
                                                            c.limitedBy + ")"
                             : cooledByLiquid ? "its cold plates' coolant cannot hold its junction: liquid.gpu.junction"
                                              : "no air through the chassis: thermal.chassis.airflow";
            }
            slowestFlops =
                std::min(slowestFlops, gpu->value("bf16_dense", NAN) * (std::isnan(c.ratio) ? 1.0 : c.ratio));
            if (std::isnan(gpu->value("bf16_dense", NAN)))
                noBf16 = gpu;
            // A GPU stopped by heat (no air, or coolant that cannot hold it) computes nothing: it
            // holds at its idle draw in both phases, no swing (until 2026-12-06 it fell back to its
            // full draw and the site swung as if it trained).
            const bool heatStopped = c.ratio == 0.0 && c.limitedBy == "thermal";
            const double p = heatStopped ? std::min(idle, pp.gpuW / n) : c.powerW > 0 ? c.powerW : pp.gpuW / n;
            const double f = floor && !heatStopped ? dy.floorShare * gpu->value("tdp", p) : 0.0;
            const double q = std::min(p, std::max(comm, f));
            // The chassis' draw from its supply in a phase: its other parts' output as modelled, its
            // GPUs' at the phase's power, through its conversion at that load (the bricks' light-load
            // efficiency is worse: until 2026-12-06 the compute phase's conversion loss was kept in
            // both phases, and the swing on the busbar was the GPU boards' alone, 2 % short).
            // (A part without a breakdown has no conversion loss of its own: its line is its input.)
            const double otherOut =
                pp.modelledW - (std::isnan(pp.conversionLossW) ? 0.0 : pp.conversionLossW) - pp.gpuW;
            const core::Curve* conv = part.curve("conversion_efficiency");
            const models::EfficiencyCurve eff =
                conv ? models::EfficiencyCurve(conv->points) : models::EfficiencyCurve::constant(1.0);
            const double rating = part.value("conversion_rating", NAN);
            const auto input = [&](double gpuEach) {
                const double drawn = otherOut + n * gpuEach;
                return drawn / eff.at(std::isnan(rating) ? 1.0 : drawn / rating);
            };
            const double inHigh = input(p), inLow = input(q);
            ph.high += kk * inHigh;
            ph.swingDc += pp.busbar ? inHigh - inLow : 0.0;
            if (!pp.busbar) {
                ph.acHigh += inHigh;
                ph.acLow += inLow;
            }
            ph.low += kk * inLow;
            ph.lowNoFloor += kk * input(std::min(p, comm));
            ph.idle += kk * input(std::min(p, idle));
            ph.gpus += n;
            pSum += n * p;
            qSum += n * q;
            qCatSum += n * comm;
            floorSum += n * f;
        }
    }
    for (Phase& ph : racks)
        ph.highRaw = ph.high;
    // Independent jobs each on an equal share of the GPUs: a count the GPUs cannot hold is refused
    // (32 jobs on 16 GPUs spread the swing over phases no job has, and passed the grid's limits).
    if (dy.jobs > 1) {
        int n = 0;
        for (const Phase& ph : racks)
            n += ph.gpus;
        if (n > 0 && (dy.jobs > n || n % dy.jobs != 0))
            throw core::InputError(dy.jobsLoc.file.empty() ? dy.loc : dy.jobsLoc,
                                   std::to_string(n) + " GPUs do not split into " + std::to_string(dy.jobs) +
                                       " equal jobs" + (dy.jobs > n ? " (more jobs than GPUs)" : ""));
    }
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
        } else if (stopped) {
            out.notChecked = "the GPUs of " + stopped->id + " stop (" + stoppedWhy +
                             "), so a synchronous job has no pace: iteration: auto needs every GPU running";
            out.notCheckedLoc = stopped->loc;
        } else if (n > 0) {
            const double sustained = slowestFlops * mfu;
            n /= dy.jobs; // each independent job trains the workload on its share of the GPUs
            const double t = workload->flopsPerToken * workload->batchTokens / (n * sustained);
            resolved.iterationS = std::max(4.0, std::round(t / dy.stepS)) * dy.stepS;
            char b[320];
            std::snprintf(b, sizeof b,
                          "%.4g FLOPs a token x %.4g tokens / (%d GPUs x %.4g TFLOPS at MFU %.0f %%) = %.4g s (%s)",
                          workload->flopsPerToken, workload->batchTokens, n, slowestFlops * mfu / 1e12, mfu * 100, t,
                          workload->name.c_str());
            out.iterationFrom = b;
        }
    }
    if (dy.computeShareAuto && out.notChecked.empty()) {
        int n = 0;
        for (const Phase& ph : racks)
            n += ph.gpus;
        if (n > 0 && n % dy.jobs != 0)
            throw core::InputError(dy.loc, "compute_share: auto needs the job's GPUs: " + std::to_string(n) +
                                               " GPUs do not split into " + std::to_string(dy.jobs) + " equal jobs");
        if (n > 0)
            detail::resolveComputeShare(resolved, out, n / dy.jobs, workload, throughput);
    }
    if ((dy.iterationAuto || dy.computeShareAuto) && out.notChecked.empty() && !std::isnan(dy.computeShare))
        detail::checkResolved(dy);
    out.iterationS = dy.iterationS;
    out.computeShare = dy.computeShare;
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
            // Recharge in the communication phase, and the charge it leaves for a feed's loss.
            b.chargeNeedW = dy.computeShare * ph.swingDc;
            double charge = 0;
            for (const core::Slot& slot : d.racks[r].slots)
                if (slot.part->kind == core::PartKind::BbuShelf) {
                    const double c = slot.part->value("charge_power", NAN);
                    if (std::isnan(c) && b.chargeMissing.empty())
                        b.chargeMissing = slot.part->slug;
                    charge += c;
                    const double eta = slot.part->value("round_trip_efficiency", NAN);
                    if (std::isnan(eta) && b.efficiencyMissing.empty())
                        b.efficiencyMissing = slot.part->slug;
                    b.efficiency = std::isnan(b.efficiency) ? eta : std::min(b.efficiency, eta);
                }
            b.chargeW = b.storeJ > 0 ? charge : NAN;
            if (!b.efficiencyMissing.empty())
                b.efficiency = NAN;
            b.lossW = b.cycleJ * (1.0 / b.efficiency - 1.0) / dy.iterationS;
            if (std::isfinite(b.lossW))
                b.chargeNeedW += b.lossW; // the rack's extra draw makes up the round trip, through the shelves
            b.itLoadW = r < power.racks.size() ? power.racks[r].itLoadW : 0.0;
            b.rideThroughS = power.rideThroughS;
            if (b.storeJ > 0) {
                b.socLow = std::max(0.0, 1.0 - b.cycleJ / b.storeJ);
                // Each shelf gives the swing in its rating's share, as it carries load, and then the
                // hold-up is orv3.bbu.holdup's on what is left (review, 2026-12-07: the pooled
                // (energy - swing) / load passed shelves of unequal hold-up that orv3.bbu.holdup fails).
                std::vector<power::BbuShelf> left = rp.bbus;
                const double rating = power::bbuChargedRatingW(left);
                for (power::BbuShelf& sh : left)
                    if (rating > 0 && sh.energyJ > 0 && sh.ratingW > 0)
                        sh.energyJ = std::max(0.0, sh.energyJ - b.cycleJ * sh.ratingW / rating);
                b.holdupLeftS = b.itLoadW > 0 ? power::bbuHoldupSeconds(left, b.itLoadW) : INFINITY;
            }
            out.bbu.push_back(b);
            if (b.storeJ > 0 && b.dischargeOk) {
                // The busbar's parts draw their mean; parts with their own AC supplies still swing.
                const double busHigh = ph.high - ph.acHigh, busLow = ph.low - ph.acLow;
                // The round trip's loss, drawn on the busbar: at the rack's AC over DC for the swing.
                const double acPerDc = ph.swingDc > 0 ? (busHigh - busLow) / ph.swingDc : 1.0;
                const double mean =
                    busLow + dy.computeShare * (busHigh - busLow) + (std::isnan(b.lossW) ? 0.0 : acPerDc * b.lossW);
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
    // Independent jobs: which racks' GPUs each one runs on.
    std::vector<int> rackGpus;
    for (const Phase& ph : racks)
        rackGpus.push_back(ph.gpus);
    const auto jobsOf = detail::rackJobs(rackGpus, dy.jobs);
    // Levels: the site, each hall, each row.
    DynamicsLevel site{"site", "site", 0, 0, 0, 0, 0, 0, {}, {}, 0};
    std::map<std::string, DynamicsLevel> halls, rows;
    std::vector<std::string> hallOrder, rowOrder;
    double lowNoFloor = 0;
    for (std::size_t r = 0; r < racks.size(); ++r) {
        const Phase& ph = racks[r];
        const core::Rack& rack = d.racks[r];
        auto add = [&](DynamicsLevel& l) {
            if (dy.jobs > 1) {
                l.jobShare.resize(static_cast<std::size_t>(dy.jobs), 0.0);
                l.jobShareRaw.resize(static_cast<std::size_t>(dy.jobs), 0.0);
                for (const auto& [job, share] : jobsOf[r]) {
                    l.jobShare[static_cast<std::size_t>(job)] += share * (ph.high - ph.low);
                    l.jobShareRaw[static_cast<std::size_t>(job)] += share * (ph.highRaw - ph.lowNoFloor);
                }
            }
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
                halls[id] = DynamicsLevel{id, "hall", 0, 0, 0, 0, 0, 0, {}, {}, 0};
                hallOrder.push_back(id);
            }
            add(halls[id]);
        }
        if (rack.row >= 0) {
            const std::string& id = d.rows[static_cast<std::size_t>(rack.row)].id;
            if (!rows.count(id)) {
                rows[id] = DynamicsLevel{id, "row", 0, 0, 0, 0, 0, 0, {}, {}, 0};
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
    // Each job's share of a level's swing (a level without swing: its GPUs' shares).
    for (DynamicsLevel& l : out.levels)
        for (std::vector<double>* v : {&l.jobShare, &l.jobShareRaw}) {
            double sum = 0;
            for (const double x : *v)
                sum += x;
            for (double& x : *v)
                x = sum > 0 ? x / sum : 1.0 / static_cast<double>(v->size());
        }
    site = out.levels.front();

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
    const std::size_t perIteration =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(dy.iterationS / dt)));
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
        std::string why;
        for (const std::string& m : checkpoint->missing)
            why += (why.empty() ? "" : ", ") + m;
        out.checkpointNote =
            "the workload's checkpoint is not modelled (the model needs " + why + "): no stall in the trace";
    }
    // One job's wave over `len` samples (`raw`: before the ramp limits and PSU storage), the
    // checkpoint stall from stallA to stallB.
    const std::size_t stallFrom = stallA, stallTo = stallB;
    auto jobWave = [&](std::size_t len, bool stall, std::vector<double>& raw) {
        std::vector<double> w(len);
        raw.resize(len);
        double g = out.commW;
        for (std::size_t i = 0; i < len; ++i) {
            // The phase from whole samples (the iteration is a whole number of steps): no drift.
            raw[i] = models::trapezoidWave(static_cast<double>(i % perIteration) * dt, dy.iterationS, dy.computeShare,
                                           dy.edgeS);
            if (stall && i >= stallFrom && i < stallTo)
                raw[i] = 0; // the checkpoint stall: the GPUs wait
            g = detail::rampStep(g, out.commW + swingGpu * raw[i], dy, dt);
            w[i] = swingGpu > 0 ? (g - out.commW) / swingGpu : 1.0;
        }
        if (stall && swingGpu > 0) {
            // What the ramp-up limit withholds from the compute phases (before any PSU storage,
            // which smooths the supplies, not the GPUs).
            double want = 0, lost = 0;
            for (std::size_t i = 0; i < len; ++i) {
                want += raw[i];
                lost += std::max(0.0, raw[i] - w[i]) * (std::isnan(dy.rampUpWps) ? 0.0 : 1.0);
            }
            out.throughputLost = want > 0 ? lost / want : 0.0;
            // The iteration lengthens by the work withheld, done at the compute level after the
            // ramp: the sustained rate over the running job (the checkpoint stall aside, as the
            // throughput model's figures are) falls by running / (running + lost).
            const double running = static_cast<double>(len - (stallTo - stallFrom));
            out.rampThroughputFactor = running > 0 ? running / (running + lost) : 1.0;
        }
        // PSU storage: the supplies draw each edge over 2E/ΔP, the storage giving (taking) the
        // difference, ΔP·τ/2 = E for a step: a rate limit of ΔP/(2E) of the swing a second.
        if (!std::isnan(dy.psuStorageJ) && swingGpu > 0) {
            const double step = dt / (2 * dy.psuStorageJ / swingGpu);
            double u = 0; // from the communication level, so that the first edge is drawn as every other
            for (double& v : w) {
                u = std::clamp(v, u - step, u + step);
                v = u;
            }
        }
        return w;
    };
    std::vector<double> s = jobWave(job, true, out.rawWave);
    if (!std::isnan(dy.psuStorageJ) && swingGpu > 0) {
        out.psuStorageJ = dy.psuStorageJ;
        out.psuEdgeS = 2 * dy.psuStorageJ / swingGpu;
        // A job at full compute (or none) has no swing to flatten: no share (NaN, not infinity).
        const double flatten = models::flatteningEnergy(swingGpu, dy.computeShare, dy.iterationS);
        out.psuShare = flatten > 0 ? dy.psuStorageJ / flatten : NAN;
        out.psuRideS = dy.psuStorageJ / out.computeW;
    }
    // Independent jobs: every other job is the stall-free wave from its phase on.
    out.jobs = dy.jobs;
    out.jobPhaseS = detail::jobPhases(dy, dy.iterationS);
    for (const double ph : out.jobPhaseS)
        out.jobShift.push_back(static_cast<std::size_t>(std::llround(ph / dt)) % perIteration);
    if (dy.jobs > 1)
        out.baseWave = jobWave(job + perIteration, false, out.baseRawWave);
    out.startSamples = start;
    out.siteW.assign(lead + job, site.idleW);
    out.wave = s;
    for (std::size_t i = 0; i < job; ++i) {
        const double w = site.lowW + (site.highW - site.lowW) * out.mixedWave(site, i);
        const double ramp = start > 0 ? std::min(1.0, static_cast<double>(i) / static_cast<double>(start)) : 1.0;
        out.siteW[lead + i] = site.idleW + ramp * (w - site.idleW);
    }
    if (dy.siteStorage.declared)
        detail::applySiteStorage(out, dy.siteStorage, dt);
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
    for (DynamicsLevel& l : out.levels) {
        const std::vector<double> t =
            out.levelTrace(l, static_cast<double>(from + n / 2) * dt, static_cast<double>(from + n) * dt);
        if (!t.empty()) {
            const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
            l.runningSwingW = *hi - *lo;
        }
    }
    out.meanW = spec.meanW;
    if (!std::isnan(out.checkpointStallS)) {
        out.checkpointDropW = (out.meanW - site.lowW) * (site.jobShare.empty() ? 1.0 : site.jobShare[0]);
        if (std::abs(out.checkpointDropW) < 1e-9 * std::max(1.0, out.meanW))
            out.checkpointDropW = 0; // smoothed flat: the sampled mean's rounding, not a drop
    }
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
            out.loadSpectrumW.assign(ls.amplitude.begin(), ls.amplitude.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                                                      top, ls.amplitude.size())));
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
        out.riskyPeriods = riskyPeriods(d.grid.modes, swing, duty, edge);
    }
    // What the mitigations cost: the job's energy with them against an unmitigated job's.
    const double unmitigatedMean = lowNoFloor + (site.highUnmitigatedW - lowNoFloor) * dy.computeShare;
    out.unmitigatedMeanW = unmitigatedMean;
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

ThroughputResult withRampLimit(ThroughputResult t, const DynamicsResult& d, double rampUpWps)
{
    const double f = d.rampThroughputFactor;
    if (!d.declared || !d.notChecked.empty() || !(f < 1.0) || !(f > 0.0))
        return t;
    t.rampLimitFactor = f;
    auto scale = [f](double& x) {
        if (!std::isnan(x))
            x *= f;
    };
    for (GpuClass& g : t.classes) {
        scale(g.sustainedTflopsBf16);
        scale(g.sustainedTflopsFp8);
        scale(g.sustainedTflops16);
    }
    scale(t.sustainedPflopsBf16);
    scale(t.sustainedPflops16);
    for (FailureCase& c : t.failureCases) {
        scale(c.sustainedTflops16PerGpu);
        scale(c.sustainedPflops16);
    }
    for (TargetResult& r : t.targets) {
        if (r.metric != "sustained_tflops" && r.metric != "cluster_sustained")
            continue;
        scale(r.value);
        if (r.applicable)
            r.pass = r.meets();
    }
    char note[320];
    std::snprintf(note, sizeof note,
                  "the GPUs' ramp-up limit (dynamics.ramp_up, %s per GPU) withholds %.3g %% of each compute "
                  "phase's work: sustained throughput x %.3f (%.3g %% less) in the compute figures, failure "
                  "cases and sustained targets",
                  powerText(rampUpWps, 3, "W", "/s").c_str(), d.throughputLost * 100, f, (1 - f) * 100);
    t.notes.insert(t.notes.begin(), note);
    return t;
}

} // namespace rdt::analysis
