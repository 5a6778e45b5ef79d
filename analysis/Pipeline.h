#pragma once
/// \file Pipeline.h
/// Runs a design through every registered analysis and rule, in the coupling order that
/// ARCHITECTURE.md sets out. Today: load → rules; the solvers join here as they land.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Dynamics.h"
#include "analysis/Energy.h"
#include "analysis/Throughput.h"
#include "core/Design.h"
#include "core/Progress.h"
#include "core/Rules.h"
#include "liquid/LiquidDesign.h"
#include "power/Budget.h"
#include "signal/LinkAnalysis.h"
#include "thermal/Thermal.h"

namespace rdt::analysis {

/// Where the shipped data lives: core::dataDir() (`$RDT_DATA_DIR`, else `data/` beside the
/// executable's folder, else the source tree's; throws core::InputError when none holds a catalog).
std::string dataDir();
/// Resolve a profile: a path to a YAML file, or a name under `data/rules/` (`default`).
std::string profilePath(const std::string& nameOrPath);

/// Every rule of every library, in a stable order.
core::CheckRegistry makeRegistry();
/// InputError at the profile's file when it enables no design rule outside hil.* (a design checked
/// under it would be checked by nothing).
void requireDesignRules(const core::Profile& profile, const core::CheckRegistry& registry);

/// Inputs of one run.
struct RunOptions {
    std::string designPath;
    std::string profile;    ///< name or path; empty = the design's `profile:` (default "default")
    std::string catalogDir; ///< empty = dataDir()/catalog
    /// Scenario overrides: extra failed rotors per chassis, supply air (K, NaN = as designed),
    /// altitude (m, NaN = as designed), each within its range below (the command line, the studio's
    /// what-if bar and a sweep's axes refuse a value outside it, located).
    std::string targetsPath{}; ///< targets file (`--targets`); empty = none (MFU 0.4, no verdicts)
    int failedRotors = 0;
    std::string lostFeed{};         ///< what-if: AC feed `A` or `B` lost, empty: none
    int failedPumps = 0;            ///< what-if: pumps failed in every liquid loop (`pump-fail=N`)
    int failedCdus = 0;             ///< what-if: CDUs lost from every liquid loop (`cdu-fail=N`)
    double facilityWaterDeltaK = 0; ///< what-if: facility water (AALC: room air) this much warmer
    double inletK = NAN;
    double altitudeM = NAN;
    static constexpr core::Range kInletRange{-50.0 + 273.15, 100.0 + 273.15}; ///< as "-50 degC" parses
    static constexpr core::Range kAltitudeRange{-500, 6000};                  ///< m
    double gpuCapW = NAN; ///< what-if: every GPU capped at this (within its own range), NaN: as designed
    /// Power-dynamics what-ifs (docs/dynamics.md), on a design with `dynamics:`: a GPU power floor
    /// (share of TDP, `power-floor=90%`), per-GPU ramp limits up and down (`gpu-ramp=2000W/s`), PSU
    /// storage per GPU (`psu-storage=65J`), and which storage smooths (`smoothing=none|bbu`: none
    /// takes away the design's battery, PSU and site storage). NaN / empty: as designed.
    double powerFloorShare = NAN, gpuRampWps = NAN, psuStorageJ = NAN;
    std::string smoothing{};
    /// Where the what-ifs come from, named in their errors (a value the design file would refuse, or
    /// a what-if that changes nothing): the command line's options by default; a sweep names its axis.
    core::SourceLoc gpuCapFrom{"command line", 0, 0, "--gpu-cap"};
    core::SourceLoc scenarioFrom{"command line", 0, 0, "--scenario"};
    /// `--power-basis`; unset: the design's `power: {basis:}`, else the profile's, else nameplate.
    std::optional<core::PowerBasis> powerBasis{};
    /// `--thermal`; unset: the design's `thermal: {model:}` (network by default).
    std::optional<core::ThermalModel> thermalModel{};
    /// `--intakes-from DIR`: the racks' intakes from this run OpenFOAM case (the field model with
    /// them, room/RoomReference.h); empty: the design's `thermal: {intakes_from:}`, if any.
    std::string intakesFrom{};
    /// The field model's own intakes even where the design names a reference (`rdt field`, which
    /// exports and compares rdt's own solve).
    bool ownIntakes = false;
    std::string designText{}; ///< when set, the design itself (designPath only names it in messages)
    /// Whether any what-if or model choice is set (applyScenario would change the design).
    bool anyWhatIf() const
    {
        return failedRotors > 0 || !lostFeed.empty() || !std::isnan(inletK) || !std::isnan(altitudeM) ||
               std::isfinite(gpuCapW) || thermalModel || !intakesFrom.empty() || failedPumps > 0 || failedCdus > 0 ||
               facilityWaterDeltaK != 0 || !std::isnan(powerFloorShare) || !std::isnan(gpuRampWps) ||
               !std::isnan(psuStorageJ) || !smoothing.empty();
    }
};

/// Apply the what-if overrides of `options` (fan failures, lost feed, inlet, altitude, GPU cap) to an
/// expanded design and name the scenario; the studio's what-if toolbar uses the same function.
/// Throws core::InputError, located at `gpuCapFrom` / `scenarioFrom`, for a GPU cap or failed-rotor
/// count the design file would refuse (the same words, core/WhatIf.h) and for a lost feed no shelf
/// is on: a what-if is applied as asked or not at all, never clamped or dropped in silence.
void applyScenario(core::Design& design, const RunOptions& options);

/// The power basis a run budgets at: the command line's, else the design's, else the profile's,
/// else nameplate.
core::PowerBasis effectiveBasis(const RunOptions& options, const core::Design& design, const core::Profile& profile);

/// The coupled thermal and power solutions of a design, stored in `store` under "thermal" and
/// "power" (the rules and every output then read these): airflow first, whose fan control settles
/// fan speed and chassis heat together, then the budget with the fans drawn at those speeds.
/// The design's thermal solution from `store` (key "thermal"), solved on first use with its
/// thermal model: the rack network (thermal::computeThermal) or the room field with the racks as
/// the network's black boxes (room::computeThermalField). The one place that chooses.
std::shared_ptr<const thermal::ThermalResult> thermalFor(const core::Design& design, core::ResultStore& store,
                                                         core::Progress* progress = nullptr);

void solveCoupled(const core::Design& design, const core::Profile& profile, core::PowerBasis basis,
                  core::ResultStore& store, core::Progress* progress = nullptr);

/// Power budget options for a design under a profile, with the fan speeds of a thermal solution
/// (fan power at the solved speeds: the power ↔ thermal coupling) and the CDUs' draw from the
/// coolant solve (`liquid`; without it the CDUs are drawn at nameplate).
power::PowerOptions powerOptions(const core::Design& design, const core::Profile& profile, core::PowerBasis basis,
                                 const thermal::ThermalResult* thermal, const liquid::LiquidResult* liquid = nullptr);

/// Throughput `t` with the "rotor failed" failure case added: every chassis with one more failed
/// rotor, solved by the rack network at normal operation's caps (a room-field design is compared
/// network to network, and the case says so); designs above kRotorCaseMaxRacks get the case marked
/// not solved. rdt check and the studio both call it.
ThroughputResult withRotorCase(const core::Design& design, const power::PowerResult& power,
                               const thermal::ThermalResult& asDesigned, ThroughputResult t);

/// Result of one run: the expanded design, the profile used and the violations.
struct RunResult {
    core::Design design;
    core::Profile profile;
    std::vector<core::Violation> violations;
    std::vector<core::Waiver> unusedWaivers; ///< waivers that matched none of the violations (core::unusedWaivers)
    std::shared_ptr<const power::PowerResult> power;
    std::shared_ptr<const thermal::ThermalResult> thermal;
    std::shared_ptr<const liquid::LiquidResult> liquid; ///< empty loops for a design without `liquid:`
    std::shared_ptr<const signal::SignalResult> signal;
    std::shared_ptr<const ThroughputResult> throughput;
    std::shared_ptr<const EnergyResult> energy;     ///< when the design declares `facility:`
    std::shared_ptr<const DynamicsResult> dynamics; ///< when the design declares `dynamics:`
    double loadSeconds = 0.0;
    double powerSeconds = 0.0;
    double thermalSeconds = 0.0;
    double liquidSeconds = 0.0;
    double signalSeconds = 0.0;
    double throughputSeconds = 0.0;
    double checkSeconds = 0.0;
};

/// The training job's power waveform for a design with `dynamics:` (null without): the check's
/// budget `power` sets the clocks, a modelled-basis budget (computed here when `power` is on another
/// basis) the shelves' conversion. rdt check and the studio both call it before the rules run (the
/// dynamics.* rules read it from the store), so they agree. `targets` (rdt check's `--targets`): their
/// MFU for `iteration: auto` (0.4 without them, as the throughput model) and their checkpoint before
/// the design's workload's, as the throughput model takes them. `throughput`: its collective model
/// gives `compute_share: auto` (null: that share is not checked).
std::shared_ptr<const DynamicsResult> dynamicsFor(const core::Design& design, const core::Profile& profile,
                                                  const std::shared_ptr<const power::PowerResult>& power,
                                                  const thermal::ThermalResult& thermal,
                                                  const liquid::LiquidResult* liquid, const Targets* targets = nullptr,
                                                  const ThroughputResult* throughput = nullptr);

/// The PUE model's answer for the design's facility (null when its PUE is measured, or no facility).
std::shared_ptr<const PueModel> pueModelFor(const core::Design& design);
/// The facility's energy from the budget the checks used (`basis`): the modelled budget and the
/// utilisation profile's levels are computed here; null without `facility:`. rdt check and the
/// studio both call it, so they agree.
std::shared_ptr<const EnergyResult> facilityEnergy(const core::Design& design, const core::Profile& profile,
                                                   const power::PowerResult& basis,
                                                   const thermal::ThermalResult* thermal,
                                                   std::shared_ptr<const PueModel> pueModel = nullptr,
                                                   const liquid::LiquidResult* liquid = nullptr);
/// The design's `workload:` file, read (InputError located at the design when it is missing).
std::optional<Workload> workloadFor(const core::Design& design);

/// Load the design (InputError on bad input) and run all checks.
RunResult run(const RunOptions& options, core::Progress& progress);

} // namespace rdt::analysis
