#pragma once
/// \file Dynamics.h
/// Power dynamics (docs/dynamics.md): the design's GPUs in one synchronous training job swing each
/// iteration between their compute power (the board power their clocks run at under caps, rack
/// budgets and heat) and their communication power (catalog `power.communication`), in lockstep;
/// summed up the layout (each part's other draw steady, each rack through its shelves' AC/DC
/// ratio) to the site, with the job's start from idle. What it reports: every level's peak, trough
/// and swing; the site's ramps over 1 s, 1 min, 5 min and the grid's window; its spectrum and the
/// share of its AC energy per band; the voltage change at the connection; and what a GPU power floor
/// or ramp limit (NVML power smoothing) leaves and costs. Judged by the `dynamics.*` rules against
/// the design's `grid:` limits.

#include <string>
#include <vector>

#include "analysis/Checkpoint.h"
#include "core/Design.h"
#include "core/Rules.h"
#include "models/Parallelism.h"
#include "power/Budget.h"
#include "thermal/Thermal.h"

namespace rdt::analysis {

struct Workload;
struct ThroughputResult;

/// One level of the layout (site, hall, row): its draw in the compute and communication phases (W,
/// AC), and its GPUs.
struct DynamicsLevel {
    std::string id, kind; ///< kind: site, hall, row
    int gpus = 0;
    double highW = 0, lowW = 0, idleW = 0;
    double lowUnmitigatedW = 0;  ///< the communication phase without the mitigations
    double highUnmitigatedW = 0; ///< the compute phase without them (BBU smoothing changes it)
    /// With independent jobs, each job's share of the level's swing (with the mitigations, and
    /// without); empty with one job.
    std::vector<double> jobShare, jobShareRaw;
    /// Its running trace's peak to peak (the job's second half, before any site storage): the
    /// swing with independent jobs at their phases; with one job, swingW() less any smoothing's cut.
    double runningSwingW = 0;
    double swingW() const { return highW - lowW; }
};

/// The share of the site's AC energy (its variance) in a frequency band.
struct DynamicsBand {
    double loHz = 0, hiHz = 0;
    double share = 0;   ///< of the AC energy (Hann spectrum, docs/dynamics.md)
    double rmsW = 0;    ///< the band's RMS power swing, sqrt(share × variance)
    bool grid = false;  ///< the grid: section's band
};

/// A rack's battery shelves flattening its swing (`smoothing: bbu`): the energy one iteration takes
/// from them and gives back (its DC swing·D(1 − D)·T), and what that does to them a day.
struct DynamicsBbu {
    std::string rack;
    double swingW = 0;       ///< the rack's swing on its busbar (DC)
    double cycleJ = 0;       ///< per iteration
    double storeJ = 0;       ///< the rack's BBU energy (catalog)
    double cyclesPerDay = NAN; ///< equivalent full cycles a day; NaN without BBU
    bool dischargeOk = true; ///< the shelves can give the swing's compute-phase part (1 − D)·swing
    double dischargeW = 0;
    /// Recharging in the communication phase: the shelves take D·swing (the rack draws its mean), against
    /// their catalog `charge_power` (summed; NaN when a shelf lacks it: not checked, said so).
    double chargeNeedW = 0, chargeW = NAN;
    std::string chargeMissing; ///< the first shelf part without charge_power
    /// What cycling them costs: the lowest catalog `round_trip_efficiency` of its shelves (NaN when a
    /// shelf lacks it: the loss is not counted, said so) and the mean power the round trip loses on
    /// the busbar, cycleJ (1/η − 1) per iteration.
    double efficiency = NAN, lossW = NAN;
    std::string efficiencyMissing; ///< the first shelf part without round_trip_efficiency
    /// Their state of charge: starting full, an iteration's compute phase takes them down to
    /// 1 − cycleJ/storeJ; the hold-up they leave the rack there, (storeJ − cycleJ)/itLoadW (the
    /// budget's basis), against the ride-through the racks are judged by.
    double socLow = NAN, holdupLeftS = NAN, rideThroughS = NAN, itLoadW = 0;
};

/// A site battery or supercapacitor at the connection (`dynamics.site_storage`): what it took of the
/// swing, and what that cost it.
struct DynamicsSiteStorage {
    double powerW = 0, energyJ = 0, cutoffHz = 0, efficiency = 1;
    double peakW = 0;     ///< the largest power it gave or took (within its rating)
    double demandW = 0;   ///< the largest power the split asked of it (without its limits)
    double neededJ = 0;   ///< the energy the split needs: twice its largest excursion from half full
    double spanJ = 0;     ///< its stored energy's range over the trace
    double driftJ = 0;    ///< its stored energy at the end less at the job's start
    double lossJ = 0;     ///< lost in its round trips over the running job (the grid makes them up)
    /// The split asks more than its rating (demandW > powerW), more than its energy (neededJ >
    /// energyJ): the connection keeps the rest of the swing.
    bool powerLimited = false, energyLimited = false;
    double loadSwingW = 0; ///< the site's own swing behind it (peak to peak, running job)
};

/// A harmonic of the iteration inside one of the grid's oscillation modes' half-power band.
struct DynamicsResonance {
    double modeHz = 0, damping = 0;
    int harmonic = 0;
    double harmonicHz = 0, amplitudeW = 0; ///< its peak amplitude at the connection
};

struct DynamicsResult {
    bool declared = false;  ///< the design has `dynamics:`
    /// Why the waveform was not built (a figure the catalog lacks, no GPUs): the rules say "not
    /// checked"; empty when it was.
    std::string notChecked;
    core::SourceLoc notCheckedLoc;
    int gpus = 0;
    double iterationS = 0, computeShare = 0, edgeS = 0, startS = 0, durationS = 0, stepS = 0;
    /// With `iteration: auto`, how the period was found (the workload's FLOPs over the GPUs'
    /// sustained throughput); empty when the design gives it.
    std::string iterationFrom;
    /// With `compute_share: auto`, the split it comes from (the workload's parallel layout on the
    /// collective model) and how, in words; `split.dataParallel` 0 when the design gives the share.
    models::IterationSplit split;
    std::string computeShareFrom;
    double computeW = 0; ///< per GPU, mean over the GPUs (board power at its clock)
    double commW = 0;    ///< per GPU in the communication phase, after any power floor
    double commCatalogW = 0; ///< the catalog's communication power (before the floor)
    double floorW = NAN;  ///< the power floor per GPU (NaN: none)
    bool mitigated = false;   ///< a power floor, a ramp limit or battery smoothing is set
    bool rampLimited = false; ///< a per-GPU ramp limit is set
    std::vector<DynamicsLevel> levels; ///< the site first, then halls, then rows
    std::vector<DynamicsBbu> bbu;      ///< with `smoothing: bbu`, per rack with GPUs
    /// PSU energy storage (`psu_storage`, J per GPU; NaN: none): the supplies' edge it gives (2E/ΔP
    /// for the GPU's swing ΔP), its share of the energy that would flatten the swing (ΔP·D(1 − D)·T)
    /// and how long it carries a GPU at its compute power.
    double psuStorageJ = NAN, psuEdgeS = 0, psuShare = NAN, psuRideS = NAN;
    bool siteStorage = false; ///< `site_storage` is used: `store` holds its figures, `loadW` the site's draw
    DynamicsSiteStorage store;
    std::vector<double> loadW;  ///< with site storage, the site's draw behind it (W, as siteW)
    double poiSwingW = 0;       ///< the connection's running trace, peak to peak
    /// The checkpoint stall in the trace (the design's workload's checkpoint model): its length, the
    /// compute time between checkpoints, where it starts in the trace and the site's drop (its mean
    /// to its communication level); NaN without one. `checkpointNote`: why there is none.
    double checkpointStallS = NAN, checkpointIntervalS = NAN, checkpointAtS = NAN, checkpointDropW = NAN;
    std::string checkpointNote;
    std::vector<DynamicsResonance> resonances; ///< the design's iteration against `grid.modes`
    /// Iteration periods (s, from 0.2 s to 60 s) whose harmonics fall in a grid mode, as ranges.
    std::vector<std::pair<double, double>> riskyPeriods;
    double meanW = 0;     ///< the site's mean over the running job
    double fundamentalHz = 0, fundamentalW = 0; ///< the iteration's line: its peak amplitude
    std::vector<DynamicsBand> bands;
    double ramp1sWps = NAN, ramp1minWps = NAN, ramp5minWps = NAN; ///< the largest, over the whole trace
    double rampGridWps = NAN;   ///< over the grid: section's window
    double voltageChange = NAN; ///< ΔV/V at the connection for the site's swing (needs grid.short_circuit)
    /// Mitigation: the swing without the floor and ramp limits (W), and the energy they add as a share
    /// of the job's energy.
    double unmitigatedSwingW = 0, extraEnergyShare = 0;
    double unmitigatedMeanW = 0; ///< the site's mean over the running job without the mitigations
    /// The mitigations' energy a year at the facility (energy model: PUE × hours × load factor × the
    /// job's extra mean draw; NaN without `facility:`), and the PUE it used.
    double extraMWhPerYear = NAN, pue = NAN;
    /// The compute the ramp-up limit withholds, as a share of the compute phase's work (the work
    /// taken as linear in the power between the communication and compute levels, the iteration
    /// lengthening by what is lost); 0 without a ramp-up limit. Floors, PSU, battery and site
    /// storage do not slow the GPUs.
    double throughputLost = 0;
    /// The share of the GPUs' sustained throughput the ramp-up limit leaves: the running job's time
    /// over that time plus the withheld work's (1 without a ramp-up limit). withRampLimit() carries it
    /// into the throughput model's figures and targets.
    double rampThroughputFactor = 1;
    /// The job's energy for the same training work over the unmitigated job's, less one: its power
    /// over the throughput it keeps ((1 + extraEnergyShare) / rampThroughputFactor − 1).
    double energyPerWorkShare() const { return (1 + extraEnergyShare) / rampThroughputFactor - 1; }
    /// The site's trace at the connection (W, AC; after any site storage) every `stepS` from t = 0
    /// (idle until the job starts at `startAtS`).
    double startAtS = 0;
    std::vector<double> siteW;
    /// The GPUs' normalised wave over the job (0: communication, 1: compute), with the ramp limits
    /// (`wave`) and without (`rawWave`); the start ramp's fraction per job sample is min(1, i/startSamples).
    std::vector<double> wave, rawWave;
    std::size_t startSamples = 0;
    /// Independent jobs (`dynamics.jobs`): each one's phase (s into the iteration) and its shift in
    /// samples; the first job's wave is `wave` (with the checkpoint stall), every other job's is the
    /// stall-free `baseWave` (`baseRawWave`) from its shift on. One job: jobShift holds one 0.
    int jobs = 1;
    std::vector<double> jobPhaseS;
    std::vector<std::size_t> jobShift;
    std::vector<double> baseWave, baseRawWave;
    /// A level's normalised wave at job sample `i`: its jobs' waves weighted by their shares of its swing.
    double mixedWave(const DynamicsLevel& level, std::size_t i, bool withMitigation = true) const;
    /// A level's trace from `fromS` to `toS` (W), with the mitigations or without them.
    std::vector<double> levelTrace(const DynamicsLevel& level, double fromS, double toS, bool withMitigation = true) const;
    /// The running job's amplitude spectrum up to 25 Hz (W, peak), every `spectrumStepHz`.
    double spectrumStepHz = 0;
    std::vector<double> spectrumW;
    /// With site storage, the site's own draw's spectrum behind it (as spectrumW; empty without).
    std::vector<double> loadSpectrumW;
};

/// A power (or with `per`, a rate; or with `unit` "VA", a strength) in GW from 1 GW, MW from 1 MW,
/// else kW, to `digits` significant digits: "14.1 MW", "8.03 kW/min", "5 GVA". The dynamics line and
/// the dynamics.* messages both use it.
std::string powerText(double w, int digits, const std::string& unit = "W", const std::string& per = "");

/// Harmonics of a swing of `swingW`, duty `duty` and edges `edgeS` at iteration `periodS` inside a
/// mode's half-power band f(1 ± ζ), of at least 5 % of the swing (the screen the
/// `dynamics.grid.resonance` rule applies, docs/dynamics.md).
std::vector<DynamicsResonance> resonancesAt(const std::vector<core::Grid::Mode>& modes, double swingW,
                                            double duty, double edgeS, double periodS);

/// The ranges of iteration periods from 0.2 s to 60 s (2,001 samples, logarithmic) at which
/// resonancesAt flags a harmonic (edges held to at most half the period), each edge bisected between
/// its samples to 1e-9 of the period and given on the safe side (just outside the flagged range).
std::vector<std::pair<double, double>> riskyPeriods(const std::vector<core::Grid::Mode>& modes, double swingW,
                                                   double duty, double edgeS);

/// Build the waveform and its figures. An empty result (declared false) without `dynamics:`.
/// `power` is the check's budget (its caps set the GPUs' clocks); `modelled` the same design on the
/// modelled basis, whose shelves' AC over their load takes each rack to the AC side as the energy
/// line does (the same object when the check's basis is modelled).
/// `checkpoint`: the design's workload's checkpoint model (null: none), whose stall the trace holds;
/// `workload` and `mfu` give the period with `iteration: auto` (null: it is not checked);
/// `throughput` (its cluster hierarchy and NCCL parameters) the share with `compute_share: auto`.
/// The throughput model's figures with the GPUs' ramp-up limit's cost (`rampThroughputFactor`):
/// every class's and failure case's sustained TFLOPS and the sustained targets (`sustained_tflops`,
/// `cluster_sustained`) scaled and judged again, with a note; unchanged without a ramp-up limit or
/// when the waveform was not built. Clocks and collectives are the GPUs' own and stay.
ThroughputResult withRampLimit(ThroughputResult t, const DynamicsResult& dynamics, double rampUpWps);

DynamicsResult analyseDynamics(const core::Design& design, const power::PowerResult& power,
                               const power::PowerResult& modelled, const thermal::ThermalResult& thermal,
                               const CheckpointResult* checkpoint = nullptr, const Workload* workload = nullptr,
                               double mfu = 0.4, const ThroughputResult* throughput = nullptr);

/// The `dynamics.*` rules; they judge the result put in the store under "dynamics".
void registerDynamicsChecks(core::CheckRegistry& registry);

} // namespace rdt::analysis
