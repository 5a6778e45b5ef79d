#include "analysis/Pipeline.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "core/MechanicalChecks.h"
#include "power/PowerChecks.h"
#include "signal/LinkChecks.h"
#include "thermal/ThermalChecks.h"

#ifndef RDT_DATA_DIR
#define RDT_DATA_DIR "data"
#endif

namespace rdt::analysis {

std::string dataDir()
{
    if (const char* env = std::getenv("RDT_DATA_DIR"); env && *env)
        return env;
    return RDT_DATA_DIR;
}

std::string profilePath(const std::string& nameOrPath)
{
    namespace fs = std::filesystem;
    if (nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".yaml"))
        return nameOrPath;
    return (fs::path(dataDir()) / "rules" / (nameOrPath + ".yaml")).string();
}

core::CheckRegistry makeRegistry()
{
    core::CheckRegistry r;
    core::registerChecks(r);
    power::registerChecks(r);
    thermal::registerChecks(r);
    signal::registerChecks(r);
    return r;
}

namespace {

/// Scenario overrides change the expanded design; their description goes into every output.
void applyScenario(core::Design& d, const RunOptions& o)
{
    std::string name;
    auto add = [&name](const std::string& part) { name += (name.empty() ? "" : ", ") + part; };
    if (o.failedRotors > 0) {
        d.scenario.failedRotors = o.failedRotors;
        add("fan-fail=" + std::to_string(o.failedRotors));
    }
    if (o.inletK > 0) {
        d.site.supplyAirK = o.inletK;
        add("inlet=" + core::formatQuantity(o.inletK, core::Dimension::Temperature));
    }
    if (!std::isnan(o.altitudeM)) {
        d.site.altitudeM = o.altitudeM;
        add("altitude=" + core::formatQuantity(o.altitudeM, core::Dimension::Length));
    }
    d.scenario.name = name;
}

} // namespace

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
    result.design = core::loadDesign(options.designPath, catalogDir);
    applyScenario(result.design, options);
    const auto t1 = Clock::now();
    // Coupling order (ARCHITECTURE.md): power first; thermal and throughput will follow here.
    progress.update(0.15, "power budget");
    core::ResultStore store;
    result.power = power::powerFor(result.design, store);
    const auto tPower = Clock::now();
    progress.update(0.3, "airflow and temperatures");
    result.thermal = thermal::thermalFor(result.design, store);
    const auto tThermal = Clock::now();
    progress.update(0.45, "link channels and COM");
    result.signal = signal::signalFor(result.design, store, dataDir() + "/si-profiles");
    const auto tSignal = Clock::now();
    progress.update(0.48, "clocks, TFLOPS and collectives");
    result.throughput = std::make_shared<const ThroughputResult>(analyseThroughput(
        result.design, *result.power, *result.thermal, *result.signal, nccl, targets ? &*targets : nullptr));
    const auto tThroughput = Clock::now();

    const core::CheckRegistry registry = makeRegistry();
    const std::string profile = options.profile.empty() ? result.design.profile : options.profile;
    const std::string path = profilePath(profile);
    if (!std::filesystem::exists(path))
        throw core::InputError(core::SourceLoc{path, 0, 0, "profile"}, "rule profile \"" + profile + "\" not found");
    result.profile = core::Profile::load(path, registry);

    struct Scaled : core::Progress {
        core::Progress& outer;
        explicit Scaled(core::Progress& o) : outer(o) {}
        void update(double f, std::string_view m) override { outer.update(0.5 + 0.5 * f, m); }
        bool isCancelled() const override { return outer.isCancelled(); }
    } scaled(progress);
    result.violations = core::runChecks(result.design, registry, result.profile, scaled, &store);
    for (core::Violation& v : targetViolations(*result.throughput))
        result.violations.push_back(std::move(v));
    const auto t2 = Clock::now();
    result.loadSeconds = std::chrono::duration<double>(t1 - t0).count();
    result.powerSeconds = std::chrono::duration<double>(tPower - t1).count();
    result.thermalSeconds = std::chrono::duration<double>(tThermal - tPower).count();
    result.signalSeconds = std::chrono::duration<double>(tSignal - tThermal).count();
    result.throughputSeconds = std::chrono::duration<double>(tThroughput - tSignal).count();
    result.checkSeconds = std::chrono::duration<double>(t2 - tThroughput).count();
    return result;
}

} // namespace rdt::analysis
