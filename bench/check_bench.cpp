// Benchmark: `rdt check` work (load + expand + every rule) on the 24,576-GPU example,
// against baselines measured in the same run: reading the file, and parsing its YAML with
// yaml-cpp alone (a floor no loader can beat). Prints figures and ratios; target < 0.5 s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <vector>

#include "BenchUtil.h"

#include "analysis/Pipeline.h"
#include "report/ReportWriter.h"
#include "core/Yaml.h"
#include "power/Budget.h"
#include "thermal/Thermal.h"

int main(int argc, char** argv)
{
    const std::string design = argc > 1 ? argv[1] : rdt::analysis::dataDir() + "/designs/meta-24k-roce.yaml";
    const int runs = argc > 2 ? std::atoi(argv[2]) : 15;
    std::printf("rdt check benchmark: %s, median of %d runs\n\n", design.c_str(), runs);

    const double read = medianSeconds(runs, [&] { (void)rdt::core::readTextFile(design); });
    const std::string text = rdt::core::readTextFile(design);
    const double parse = medianSeconds(runs, [&] { (void)rdt::core::parseYaml(text, design); });

    rdt::core::Progress progress;
    rdt::analysis::RunResult last;
    double load = 0, checks = 0;
    const double total = medianSeconds(runs, [&] {
        last = rdt::analysis::run({design, "", ""}, progress);
        load += last.loadSeconds;
        checks += last.checkSeconds;
    });
    const auto s = last.design.summary();
    const double powerOnly = medianSeconds(runs, [&] { (void)rdt::power::computePower(last.design); });
    // Baseline for the power budget: one pass summing catalog maximum power over every slot, the
    // nameplate sum open DCIM tools stop at.
    const double nameplate = medianSeconds(runs, [&] {
        volatile double w = 0;
        for (const auto& r : last.design.racks)
            for (const auto& sl : r.slots)
                w = w + sl.part->value("power.max", 0.0);
    });
    const double thermalAll =
        medianSeconds(std::max(3, runs / 3), [&] { (void)rdt::thermal::computeThermal(last.design); });
    rdt::thermal::AirState air;
    air.coldAisleK = last.design.site.supplyAirK;
    air.hotAisleK = air.coldAisleK + 15.0;
    const double thermalOne = medianSeconds(runs, [&] { (void)rdt::thermal::solveRack(last.design, 0, air); });
    // Baseline for the airflow: the sizing rule CFM = P / (ρ·cp·ΔT) per chassis at a fixed ΔT, what
    // a spreadsheet does instead of solving the network.
    const double rule = medianSeconds(runs, [&] {
        volatile double v = 0;
        for (const auto& r : last.design.racks)
            for (const auto& sl : r.slots)
                v = v + sl.part->value("power.max", 0.0) / (1.2 * 1005.0 * 12.0);
    });
    const std::string out = (std::filesystem::temp_directory_path() / "rdt-bench-report.h5").string();
    const double report = medianSeconds(std::max(3, runs / 5), [&] { rdt::report::writeReport(last, out, "bench"); });
    std::filesystem::remove(out);

    std::printf("design: %zu racks, %zu chassis, %zu GPUs, %zu links, %zu violations\n\n", s.racks, s.chassis, s.gpus,
                s.links, last.violations.size());
    std::printf("%-44s %10s %12s\n", "step", "median", "vs parse");
    std::printf("%-44s %8.2f ms %11.2fx\n", "baseline: read file", read * 1e3, read / parse);
    std::printf("%-44s %8.2f ms %11.2fx\n", "baseline: yaml-cpp parse only", parse * 1e3, 1.0);
    std::printf("%-44s %8.2f ms %11.2fx\n", "rdt check (catalog + load + expand + rules)", total * 1e3, total / parse);
    std::printf("%-44s %8.2f ms\n", "  of which load (mean)", load / runs * 1e3);
    std::printf("%-44s %8.2f ms\n", "  of which rules (mean)", checks / runs * 1e3);
    std::printf("%-44s %8.2f ms\n", "rdt report: HDF5 write", report * 1e3);
    std::printf("\n%-44s %8.2f ms %11s\n", "power budget (every rack, network + cap)", powerOnly * 1e3, "");
    std::printf("%-44s %8.3f ms %10.0fx\n", "baseline: nameplate watt sum", nameplate * 1e3, powerOnly / nameplate);
    std::printf("\n%-44s %8.2f ms\n", "thermal: all racks and rows (OpenMP)", thermalAll * 1e3);
    std::printf("%-44s %8.3f ms\n", "thermal: one rack (network + fan control)", thermalOne * 1e3);
    std::printf("%-44s %8.3f ms %10.0fx\n", "baseline: CFM-per-kW sizing rule", rule * 1e3, thermalAll / rule);
    std::printf("targets: all racks under 500 ms -> %s; one rack under 1 ms -> %s\n",
                thermalAll < 0.5 ? "met" : "MISSED", thermalOne < 1e-3 ? "met" : "MISSED");
    std::printf("target: power analysis under 50 ms -> %.1f %% of budget (%s)\n", powerOnly / 0.05 * 100.0,
                powerOnly < 0.05 ? "met" : "MISSED");
    std::printf("\ntarget: rdt check under 500 ms on 2 cores -> %.1f %% of budget (%s)\n", total / 0.5 * 100.0,
                total < 0.5 ? "met" : "MISSED");
    return 0;
}
