#include "analysis/Pipeline.h"

#include "analysis/Hil.h"
#include "core/DataDir.h"
#include "analysis/SignalVerdicts.h"
#include "liquid/LiquidChecks.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "core/MechanicalChecks.h"
#include "core/WhatIf.h"
#include "power/PowerChecks.h"
#include "room/RoomReference.h"
#include "room/RoomThermal.h"
#include "signal/LinkChecks.h"
#include "thermal/ThermalChecks.h"

namespace rdt::analysis {

std::string dataDir()
{
    return core::dataDir();
}

std::string profilePath(const std::string& nameOrPath)
{
    namespace fs = std::filesystem;
    if (nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".yaml"))
        return nameOrPath;
    return (fs::path(dataDir()) / "rules" / (nameOrPath + ".yaml")).string();
}

void requireDesignRules(const core::Profile& profile, const core::CheckRegistry& registry)
{
    // A profile that runs only part or hil.* rules would check a design with nothing (0 rules, exit 0).
    for (const auto& e : registry.entries())
        if (e.info.target == core::RuleTarget::Design && e.info.id.rfind("hil.", 0) != 0 &&
            profile.configFor(e.info).enabled)
            return;
    throw core::InputError(core::SourceLoc{profile.file, 0, 0, "rules"},
                           "profile " + profile.name +
                               " runs no design rule: a design checked under it would be checked by nothing");
}

core::CheckRegistry makeRegistry()
{
    core::CheckRegistry r;
    core::registerChecks(r);
    power::registerChecks(r);
    thermal::registerChecks(r);
    liquid::registerChecks(r);
    signal::registerChecks(r);
    registerHilChecks(r);
    registerDynamicsChecks(r);
    return r;
}

/// Scenario overrides change the expanded design; their description goes into every output.
namespace {

/// The power-dynamics what-ifs (RunOptions): applied as asked, or refused where the design has no
/// `dynamics:` or where `smoothing=bbu` lacks its cycle budget.
template <class Add>
void applyDynamicsWhatIfs(core::Design& d, const RunOptions& o, Add&& add)
{
    const bool any = !std::isnan(o.powerFloorShare) || !std::isnan(o.gpuRampWps) || !std::isnan(o.psuStorageJ) ||
                     !o.smoothing.empty();
    if (!any)
        return;
    if (!d.dynamics.declared)
        throw core::InputError(o.scenarioFrom, "the design has no dynamics: section (the training job's power "
                                               "waveform): nothing for a power-dynamics what-if to change");
    core::Dynamics& dy = d.dynamics;
    if (!std::isnan(o.powerFloorShare)) {
        dy.floorShare = o.powerFloorShare;
        add("power-floor=" + core::formatQuantity(o.powerFloorShare, core::Dimension::Ratio));
    }
    if (!std::isnan(o.gpuRampWps)) {
        dy.rampUpWps = dy.rampDownWps = o.gpuRampWps;
        add("gpu-ramp=" + core::formatQuantity(o.gpuRampWps, core::Dimension::PowerRate));
    }
    if (!std::isnan(o.psuStorageJ)) {
        dy.psuStorageJ = o.psuStorageJ;
        add("psu-storage=" + core::formatQuantity(o.psuStorageJ, core::Dimension::Energy));
    }
    if (o.smoothing == "none") {
        dy.bbuSmoothing = false;
        dy.psuStorageJ = NAN;
        dy.siteStorage.declared = false;
        add("smoothing=none");
    } else if (o.smoothing == "bbu") {
        if (std::isnan(dy.bbuCyclesPerDay))
            throw core::InputError(o.scenarioFrom,
                                   "smoothing=bbu: the design's dynamics: section has no "
                                   "bbu_cycle_budget (the battery shelves' equivalent full cycles a day)");
        dy.bbuSmoothing = true;
        add("smoothing=bbu");
    } else if (!o.smoothing.empty()) {
        throw core::InputError(o.scenarioFrom, "smoothing=" + core::clipped(o.smoothing) +
                                                   ": use smoothing=none (no battery, PSU or site storage) or "
                                                   "smoothing=bbu (the racks' battery shelves)");
    }
}

} // namespace

void applyScenario(core::Design& d, const RunOptions& o)
{
    if (o.thermalModel)
        d.thermalModel = *o.thermalModel; // a model choice, not a what-if: no scenario name
    if (d.thermalModel != core::ThermalModel::Field || o.ownIntakes)
        d.intakesFrom.clear(); // `--thermal network` over a design's reference: the network's own air
    if (!o.intakesFrom.empty()) {
        if (o.thermalModel && *o.thermalModel != core::ThermalModel::Field)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--intakes-from"},
                                   "--intakes-from replaces the room field's intakes: it needs --thermal field");
        d.thermalModel = core::ThermalModel::Field;
        d.intakesFrom = o.intakesFrom;
        d.intakesFromLoc = core::SourceLoc{"command line", 0, 0, "--intakes-from"};
    }
    std::string name;
    auto add = [&name](const std::string& part) { name += (name.empty() ? "" : ", ") + part; };
    auto refuse = [](const core::SourceLoc& at, const std::string& what, const std::string& why) {
        if (!why.empty())
            throw core::InputError(at, what + why);
    };
    if (o.failedRotors != 0)
        refuse(o.scenarioFrom, "fan-fail=" + std::to_string(o.failedRotors) + ": ",
               core::fanFailWhatIfError(d, o.failedRotors));
    if (!o.lostFeed.empty())
        refuse(o.scenarioFrom, "feed-loss=" + o.lostFeed + ": ", core::feedLossWhatIfError(d, o.lostFeed));
    if (std::isfinite(o.gpuCapW))
        refuse(o.gpuCapFrom, "", core::gpuCapWhatIfError(d, o.gpuCapW));
    if (o.failedCdus != 0)
        refuse(o.scenarioFrom, "cdu-fail=" + std::to_string(o.failedCdus) + ": ",
               core::cduFailWhatIfError(d, o.failedCdus));
    if (o.failedPumps != 0)
        refuse(o.scenarioFrom, "pump-fail=" + std::to_string(o.failedPumps) + ": ",
               core::pumpFailWhatIfError(d, o.failedPumps, o.failedCdus));
    if (o.facilityWaterDeltaK != 0)
        refuse(o.scenarioFrom,
               "facility-water=" + core::formatQuantity(o.facilityWaterDeltaK, core::Dimension::TemperatureDelta) +
                   ": ",
               d.liquid.loops.empty() ? "the design has no liquid loop: nothing to change" : "");
    applyDynamicsWhatIfs(d, o, add);
    if (o.failedPumps > 0) {
        d.scenario.failedPumps = o.failedPumps;
        add("pump-fail=" + std::to_string(o.failedPumps));
    }
    if (o.failedCdus > 0) {
        d.scenario.failedCdus = o.failedCdus;
        add("cdu-fail=" + std::to_string(o.failedCdus));
    }
    if (o.facilityWaterDeltaK != 0) {
        d.scenario.facilityWaterDeltaK = o.facilityWaterDeltaK;
        add("facility-water=" + std::string(o.facilityWaterDeltaK > 0 ? "+" : "") +
            core::formatQuantity(o.facilityWaterDeltaK, core::Dimension::TemperatureDelta));
    }
    if (o.failedRotors > 0) {
        d.scenario.failedRotors = o.failedRotors;
        add("fan-fail=" + std::to_string(o.failedRotors));
    }
    if (!o.lostFeed.empty()) {
        d.scenario.lostFeed = o.lostFeed;
        add("feed-loss=" + o.lostFeed);
    }
    if (!std::isnan(o.inletK)) {
        // The what-if is the supply air: the site's and every cooling unit's that states its own
        // (a room field solve otherwise kept a unit's own 25 °C under "inlet=30 degC").
        d.site.supplyAirK = o.inletK;
        d.scenario.supplyAirK = o.inletK;
        for (core::CoolingUnit& u : d.room.units)
            if (u.supplyK)
                u.supplyK = o.inletK;
        add("inlet=" + core::formatQuantity(o.inletK, core::Dimension::Temperature, 6)); // as given: 34.25, not 34.2
    }
    if (!std::isnan(o.altitudeM)) {
        d.site.altitudeM = o.altitudeM;
        d.scenario.altitudeM = o.altitudeM;
        add("altitude=" + core::formatQuantity(o.altitudeM, core::Dimension::Length, 6));
    }
    if (std::isfinite(o.gpuCapW)) {
        for (core::Rack& r : d.racks)
            for (core::Slot& s : r.slots)
                if (core::Design::gpuCount(*s.part) > 0) // within every GPU's range: checked above
                    // A cap at most: a GPU the design caps lower keeps its own cap (as the cap advice
                    // takes it: "a per-GPU cap of X W clears" is then what --gpu-cap X shows).
                    s.overrides.gpuPowerCapW = std::min(s.overrides.gpuPowerCapW.value_or(o.gpuCapW), o.gpuCapW);
        add("gpu-cap=" + core::formatQuantity(o.gpuCapW, core::Dimension::Power));
    }
    d.scenario.name = name;
}

core::PowerBasis effectiveBasis(const RunOptions& o, const core::Design& d, const core::Profile& p)
{
    if (o.powerBasis)
        return *o.powerBasis;
    if (d.power.basis)
        return *d.power.basis;
    return p.powerBasis.value_or(core::PowerBasis::Nameplate);
}

power::PowerOptions powerOptions(const core::Design& d, const core::Profile& profile, core::PowerBasis basis,
                                 const thermal::ThermalResult* thermal, const liquid::LiquidResult* liquid)
{
    power::PowerOptions o;
    o.basis = basis;
    const core::CheckRegistry registry = makeRegistry();
    if (const core::RuleInfo* r = registry.find("orv3.bbu.holdup"))
        o.rideThroughS = profile.constraint(*r, "ride_through");
    if (const core::RuleInfo* r = registry.find("orv3.ac.whip"))
        o.breakerDerating = profile.constraint(*r, "breaker_derating");
    if (thermal) {
        o.fanSpeeds.resize(d.racks.size());
        for (std::size_t i = 0; i < d.racks.size(); ++i)
            o.fanSpeeds[i].assign(d.racks[i].slots.size(), NAN);
        for (const thermal::RackThermal& r : thermal->racks)
            for (const thermal::ChassisThermal& c : r.chassis)
                if (c.rack >= 0 && c.slot >= 0 && static_cast<std::size_t>(c.rack) < d.racks.size())
                    o.fanSpeeds[static_cast<std::size_t>(c.rack)][static_cast<std::size_t>(c.slot)] = c.fanSpeed;
    }
    if (liquid && liquid->loops.size() == d.liquid.loops.size())
        for (const liquid::LoopLiquid& l : liquid->loops)
            o.cduModelledW.push_back(l.electricalW);
    return o;
}

ThroughputResult withRotorCase(const core::Design& design, const power::PowerResult& power,
                               const thermal::ThermalResult& asDesigned, ThroughputResult t)
{
    if (t.classes.empty())
        return t;
    // A second airflow solve of every rack: large designs only when their racks are of few kinds.
    std::unordered_set<std::string> kinds;
    if (design.racks.size() > kRotorCaseMaxRacks)
        for (const core::Rack& r : design.racks)
            if (kinds.insert(thermal::contentKey(r)).second && kinds.size() > kRotorCaseMaxDistinct)
                break;
    if (kinds.size() > kRotorCaseMaxDistinct) {
        FailureCase c;
        c.name = "rotor failed";
        c.solved = false;
        t.failureCases.push_back(c);
        t.notes.push_back("rotor failed case not solved: more than " + std::to_string(kRotorCaseMaxRacks) +
                          " racks of more than " + std::to_string(kRotorCaseMaxDistinct) +
                          " kinds, a second airflow solve of every rack; rdt check --scenario fan-fail=1 solves it");
        return t;
    }
    // A failed fan rotor changes the air, not the coolant: the GPUs under cold plates keep the
    // junctions their loops give them (carried over from the design's own solution, as solved).
    auto carryLiquid = [&asDesigned](thermal::ThermalResult& to) {
        for (std::size_t ri = 0; ri < to.racks.size() && ri < asDesigned.racks.size(); ++ri)
            for (const thermal::ChassisThermal& from : asDesigned.racks[ri].chassis) {
                if (std::isnan(from.liquidJunctionK))
                    continue;
                for (thermal::ChassisThermal& c : to.racks[ri].chassis)
                    if (c.slot == from.slot && std::isnan(c.liquidJunctionK)) {
                        c.liquidJunctionK = from.liquidJunctionK;
                        c.liquidIdleJunctionK = from.liquidIdleJunctionK;
                    }
            }
    };
    // Solved by the rack network with the room's cooling units (in-row units, stated flows) as the
    // network model takes them, whatever model the design runs: under the field model the network
    // solve is only the field's sizing, at the supply air (trust trial, 2026-12-07).
    core::Design asNetwork;
    const core::Design* netDesign = &design;
    if (design.thermalModel != core::ThermalModel::Network) {
        asNetwork = design;
        asNetwork.thermalModel = core::ThermalModel::Network;
        netDesign = &asNetwork;
    }
    thermal::RackAirflowParams params;
    params.extraFailedRotors = 1;
    thermal::ThermalResult failed = thermal::computeThermal(*netDesign, params);
    carryLiquid(failed);
    const thermal::ThermalResult* base = &asDesigned;
    thermal::ThermalResult network;
    if (design.thermalModel != core::ThermalModel::Network) {
        network = thermal::computeThermal(*netDesign);
        carryLiquid(network);
        base = &network;
    }
    FailureCase c = rotorFailureCase(design, power, *base, failed, t.mfu);
    if (design.thermalModel != core::ThermalModel::Network)
        c.name += " (rack network)";
    t.failureCases.push_back(c);
    return t;
}

namespace {

/// The GPUs under cold plates judged by their coolant loop: each liquid-cooled chassis gets its loop
/// junction and coolant inlet (the clock model throttles on them), and is throttled where that
/// junction passes its GPU's maximum operating temperature. Stored back under "thermal", so every
/// rule and output reads the same solution. Unchanged for designs without liquid loops.
std::shared_ptr<const thermal::ThermalResult> withLiquidJunctions(const core::Design& design, core::ResultStore& store,
                                                                  std::shared_ptr<const thermal::ThermalResult> t)
{
    if (design.liquid.loops.empty())
        return t;
    const auto L = liquid::liquidFor(design, store);
    bool changed = false;
    auto copy = std::make_shared<thermal::ThermalResult>(*t);
    for (const liquid::TrayLiquid& tray : L->trays) {
        if (std::isnan(tray.junctionC) || tray.rack < 0 || // +inf: a starved plate, throttled
            static_cast<std::size_t>(tray.rack) >= copy->racks.size())
            continue;
        for (thermal::ChassisThermal& c : copy->racks[static_cast<std::size_t>(tray.rack)].chassis)
            if (c.slot == tray.slot && std::isnan(c.liquidJunctionK)) {
                c.liquidJunctionK = tray.junctionC + 273.15;
                c.liquidIdleJunctionK = tray.idleJunctionC + 273.15;
                if (!c.throttled && std::isfinite(tray.maxJunctionC) && tray.junctionC > tray.maxJunctionC) {
                    c.throttled = true;
                    ++copy->throttledChassis;
                }
                changed = true;
            }
    }
    if (!changed)
        return t;
    std::shared_ptr<const thermal::ThermalResult> out = std::move(copy);
    store.put<thermal::ThermalResult>("thermal", out);
    return out;
}

} // namespace

std::shared_ptr<const thermal::ThermalResult> thermalFor(const core::Design& design, core::ResultStore& store,
                                                         core::Progress* progress)
{
    if (auto cached = store.get<thermal::ThermalResult>("thermal"))
        return cached;
    // A solve that failed once fails again the same way: its error, kept, is every later caller's
    // (the rules then name the real reason, and nothing is solved twice).
    if (auto failed = store.get<std::exception_ptr>(thermal::kThermalFailureKey))
        std::rethrow_exception(*failed);
    if (design.thermalModel != core::ThermalModel::Field)
        return withLiquidJunctions(design, store, thermal::thermalFor(design, store, progress));
    std::shared_ptr<const thermal::ThermalResult> result;
    try {
        result = std::make_shared<const thermal::ThermalResult>(
            design.intakesFrom.empty()
                ? room::computeThermalField(design, {}, progress)
                : room::computeThermalFromOpenFoam(design, room::readOpenFoamResult(design.intakesFrom), {}, progress));
    } catch (const core::Cancelled&) {
        throw;
    } catch (...) {
        store.put<std::exception_ptr>(thermal::kThermalFailureKey,
                                      std::make_shared<const std::exception_ptr>(std::current_exception()));
        throw;
    }
    store.put<thermal::ThermalResult>("thermal", result);
    return withLiquidJunctions(design, store, result);
}

void solveCoupled(const core::Design& design, const core::Profile& profile, core::PowerBasis basis,
                  core::ResultStore& store, core::Progress* progress)
{
    // The liquid loops take their heat on the budget's basis (liquid::liquidFor).
    store.put<core::PowerBasis>("power-basis", std::make_shared<const core::PowerBasis>(basis));
    const auto thermal = thermalFor(design, store, progress);
    // The CDUs' solved draw (the loops solved before the air; a loop that fails leaves its CDUs at
    // nameplate here and reports its own error).
    std::shared_ptr<const liquid::LiquidResult> coolant;
    if (!design.liquid.loops.empty()) {
        try {
            coolant = liquid::liquidFor(design, store);
        } catch (const core::Cancelled&) {
            throw;
        } catch (const std::exception&) {
        }
    }
    const power::PowerOptions po = powerOptions(design, profile, basis, thermal.get(), coolant.get());
    store.put<power::PowerResult>("power", std::make_shared<const power::PowerResult>(power::computePower(design, po)));
}

std::shared_ptr<const PueModel> pueModelFor(const core::Design& d)
{
    if (!d.facility.declared || d.facility.cooling.empty())
        return nullptr;
    return std::make_shared<const PueModel>(modelPue(d.facility, dataDir() + "/facility/pue-by-climate.yaml"));
}

std::shared_ptr<const DynamicsResult> dynamicsFor(const core::Design& d, const core::Profile& profile,
                                                  const std::shared_ptr<const power::PowerResult>& power,
                                                  const thermal::ThermalResult& thermal,
                                                  const liquid::LiquidResult* liquid, const Targets* targets,
                                                  const ThroughputResult* throughput)
{
    if (!d.dynamics.declared || !power)
        return nullptr;
    std::shared_ptr<const power::PowerResult> modelled = power;
    if (power->basis != core::PowerBasis::Modelled)
        modelled = std::make_shared<const power::PowerResult>(
            power::computePower(d, powerOptions(d, profile, core::PowerBasis::Modelled, &thermal, liquid)));
    // The checkpoint the throughput model takes (the targets', else the design's workload's): its
    // stall is in the trace. The workload's training batch sets `iteration: auto`.
    std::optional<CheckpointResult> checkpoint;
    const std::optional<Workload> w = workloadFor(d);
    if (targets && targets->checkpoint)
        checkpoint = analyseCheckpoint(d, *targets->checkpoint);
    else if (w)
        checkpoint = analyseCheckpoint(d, w->checkpoint);
    DynamicsResult r = analyseDynamics(d, *power, *modelled, thermal, checkpoint ? &*checkpoint : nullptr,
                                       w ? &*w : nullptr, targets ? targets->mfu : 0.4, throughput);
    // The mitigations' energy a year with the energy model's PUE, hours and load factor.
    if (d.facility.declared && r.notChecked.empty()) {
        const std::shared_ptr<const PueModel> model = std::isnan(d.facility.pue) ? pueModelFor(d) : nullptr;
        r.pue = model ? model->pue : d.facility.pue;
        // The year's mean load: its profile's, else its load factor.
        double load = d.facility.profile.empty() ? d.facility.loadFactor : 0.0;
        for (const core::Facility::LoadLevel& l : d.facility.profile)
            load += l.share * l.load;
        r.extraMWhPerYear = r.extraEnergyShare * r.unmitigatedMeanW * r.pue * d.facility.hoursPerYear * load / 1e6;
    }
    return std::make_shared<const DynamicsResult>(std::move(r));
}

std::shared_ptr<const EnergyResult> facilityEnergy(const core::Design& d, const core::Profile& profile,
                                                   const power::PowerResult& basis,
                                                   const thermal::ThermalResult* thermal,
                                                   std::shared_ptr<const PueModel> pueModel,
                                                   const liquid::LiquidResult* liquid)
{
    if (!d.facility.declared)
        return nullptr;
    if (!pueModel)
        pueModel = pueModelFor(d);
    // The year's energy follows the modelled draw, the peak the budget's basis.
    std::shared_ptr<const power::PowerResult> modelled(std::shared_ptr<const power::PowerResult>{}, &basis);
    if (basis.basis != core::PowerBasis::Modelled)
        modelled = std::make_shared<const power::PowerResult>(
            power::computePower(d, powerOptions(d, profile, core::PowerBasis::Modelled, thermal, liquid)));
    // The year's profile: the modelled budget at each load level (full load is `modelled`).
    std::vector<std::shared_ptr<const power::PowerResult>> atLevel;
    std::vector<LevelPower> levels;
    for (const core::Facility::LoadLevel& l : d.facility.profile) {
        if (l.load == 1.0) {
            levels.push_back({l, modelled.get()});
            continue;
        }
        power::PowerOptions po = powerOptions(d, profile, core::PowerBasis::Modelled, thermal, liquid);
        po.utilisationScale = l.load;
        atLevel.push_back(std::make_shared<const power::PowerResult>(power::computePower(d, po)));
        levels.push_back({l, atLevel.back().get()});
    }
    return std::make_shared<const EnergyResult>(analyseEnergy(d, basis, *modelled, levels, pueModel));
}

std::optional<Workload> workloadFor(const core::Design& d)
{
    if (d.workloadPath.empty())
        return std::nullopt;
    return Workload::load(d.workloadPath, d.workloadLoc);
}

RunResult run(const RunOptions& options, core::Progress& progress)
{
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    progress.update(0.0, "loading " + options.designPath);
    const std::string catalogDir = options.catalogDir.empty() ? dataDir() + "/catalog" : options.catalogDir;
    // Bad targets are input errors: read them before any solver runs.
    std::optional<Targets> targets;
    if (!options.targetsPath.empty())
        targets = Targets::load(options.targetsPath);
    const models::NcclParams nccl = models::NcclParams::load(dataDir() + "/throughput/nccl.yaml");
    RunResult result;
    result.design = options.designText.empty()
                        ? core::loadDesign(options.designPath, catalogDir)
                        : core::loadDesignText(options.designText, options.designPath, catalogDir);
    applyScenario(result.design, options);
    // The design's workload (its checkpoint) when the targets bring none: an input error before any solver.
    std::optional<Workload> workload;
    if (!(targets && targets->checkpoint))
        workload = workloadFor(result.design);
    if (targets)
        requireCheckpointFor(*targets, workload.has_value());
    // The PUE model's table lookup: a bad cooling system or zone is an input error before any solver.
    const std::shared_ptr<const PueModel> pueModel = pueModelFor(result.design);
    const auto t1 = Clock::now();
    // Bad profiles are input errors too, and the budget needs the profile's limits and basis.
    const core::CheckRegistry registry = makeRegistry();
    const std::string profile = options.profile.empty() ? result.design.profile : options.profile;
    const std::string path = profilePath(profile);
    if (!std::filesystem::exists(path)) {
        // The design's own profile: at its line; --profile's: on the command line.
        const bool designs = options.profile.empty() && !result.design.profileLoc.file.empty();
        throw core::InputError(designs ? result.design.profileLoc : core::SourceLoc{"command line", 0, 0, "--profile"},
                               "rule profile \"" + profile + "\" not found (" + path + ")");
    }
    result.profile = core::Profile::load(path, registry);
    requireDesignRules(result.profile, registry);

    // Coupling order: the airflow solution settles fan speed and chassis heat together (fan power
    // is heat); the budget then draws the fans at those speeds. Both use the same chassis model,
    // so the budget's modelled chassis draw equals the heat the thermal solver put in the air.
    core::ResultStore store;
    // The coolant loops first: what the cold plates carry leaves the air (the rack network takes each
    // liquid-cooled part's remainder from the same catalog figure, liquid.fraction).
    progress.update(0.12, "coolant loops");
    const core::PowerBasis basis = effectiveBasis(options, result.design, result.profile);
    store.put<core::PowerBasis>("power-basis", std::make_shared<const core::PowerBasis>(basis));
    result.liquid = liquid::liquidFor(result.design, store);
    const auto tLiquid = Clock::now();
    progress.update(0.15, "airflow and temperatures");
    struct ThermalProgress : core::Progress { // the room field solve reports in 0.15…0.3
        core::Progress& outer;
        explicit ThermalProgress(core::Progress& o) : outer(o) {}
        void update(double f, std::string_view m) override { outer.update(0.15 + 0.15 * f, m); }
        bool isCancelled() const override { return outer.isCancelled(); }
    } thermalProgress(progress);
    result.thermal = thermalFor(result.design, store, &thermalProgress);
    const auto tThermal = Clock::now();
    progress.update(0.3, "power budget");
    solveCoupled(result.design, result.profile, basis, store);
    result.power = store.get<power::PowerResult>("power");
    if (result.design.facility.declared)
        result.energy = facilityEnergy(result.design, result.profile, *result.power, result.thermal.get(), pueModel,
                                       result.liquid.get());
    const auto tPower = Clock::now();
    progress.update(0.45, "link channels and COM");
    result.signal = signal::signalFor(result.design, store, dataDir() + "/si-profiles");
    const auto tSignal = Clock::now();
    progress.update(0.48, "clocks, TFLOPS and collectives");
    result.throughput = std::make_shared<const ThroughputResult>(
        withRotorCase(result.design, *result.power, *result.thermal,
                      analyseThroughput(result.design, *result.power, *result.thermal, *result.signal, nccl,
                                        targets ? &*targets : nullptr, workload ? &workload->checkpoint : nullptr)));
    if (result.design.dynamics.declared) {
        progress.update(0.49, "power dynamics");
        result.dynamics = dynamicsFor(result.design, result.profile, result.power, *result.thermal, result.liquid.get(),
                                      targets ? &*targets : nullptr, result.throughput.get());
        store.put("dynamics", result.dynamics);
        // A ramp-up limit slows the GPUs: the sustained figures and targets carry its cost.
        if (result.dynamics)
            result.throughput = std::make_shared<const ThroughputResult>(
                withRampLimit(*result.throughput, *result.dynamics, result.design.dynamics.rampUpWps));
    }
    const auto tThroughput = Clock::now();

    struct Scaled : core::Progress {
        core::Progress& outer;
        explicit Scaled(core::Progress& o) : outer(o) {}
        void update(double f, std::string_view m) override { outer.update(0.5 + 0.5 * f, m); }
        bool isCancelled() const override { return outer.isCancelled(); }
    } scaled(progress);
    result.violations = core::runChecks(result.design, registry, result.profile, scaled, &store);
    result.unusedWaivers = core::unusedWaivers(result.design, result.violations, registry, result.profile);
    for (core::Violation& v : targetViolations(*result.throughput))
        result.violations.push_back(std::move(v));
    result.signal = signalWithRuleVerdicts(result.signal, result.violations);
    const auto t2 = Clock::now();
    result.loadSeconds = std::chrono::duration<double>(t1 - t0).count();
    result.liquidSeconds = std::chrono::duration<double>(tLiquid - t1).count();
    result.thermalSeconds = std::chrono::duration<double>(tThermal - tLiquid).count();
    result.powerSeconds = std::chrono::duration<double>(tPower - tThermal).count();
    result.signalSeconds = std::chrono::duration<double>(tSignal - tPower).count();
    result.throughputSeconds = std::chrono::duration<double>(tThroughput - tSignal).count();
    result.checkSeconds = std::chrono::duration<double>(t2 - tThroughput).count();
    return result;
}

} // namespace rdt::analysis
