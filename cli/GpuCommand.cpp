#include "cli/GpuCommand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/Pipeline.h"
#include "hil/Telemetry.h"
#include "cli/Guarded.h"
#include "core/Catalog.h"
#include "models/GpuModel.h"

namespace rdt::cli {

int runGpuCalibrate(const GpuCalibrateArgs& a)
{
    return guarded([&] {
        core::Catalog catalog;
        catalog.loadDirectory(analysis::dataDir() + "/catalog");
        const core::Part& part = catalog.require(a.part, core::SourceLoc{"command line", 0, 0, "--part"});
        if (part.kind != core::PartKind::Gpu)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--part"},
                                   "\"" + a.part + "\" is a " + std::string(core::partKindName(part.kind)) +
                                       ", not a gpu");
        const models::GpuSpec gpu = models::GpuSpec::fromPart(part);
        const hil::Telemetry tel = hil::readGpuTelemetry(a.telemetry);

        // Samples under load only: idle clocks say nothing about DVFS under a power limit.
        std::vector<models::PowerClockSample> samples;
        std::size_t idle = 0;
        for (const hil::TelemetrySample& s : tel.samples) {
            if (!std::isnan(s.utilization) && s.utilization * 100 < a.minUtilPct) {
                ++idle;
                continue;
            }
            samples.push_back({s.powerW, s.clockHz});
        }
        if (samples.size() < 3)
            throw core::InputError(core::SourceLoc{a.telemetry, 0, 0, "samples"},
                                   "fewer than 3 samples under load (utilization.gpu >= " +
                                       std::to_string(static_cast<int>(a.minUtilPct)) + " %)");
        double full = a.fullClockMHz * 1e6;
        if (full <= 0) {
            std::vector<double> atTdp;
            for (const auto& s : samples)
                if (s.powerW >= 0.97 * gpu.tdpW)
                    atTdp.push_back(s.clockHz);
            if (atTdp.empty())
                throw core::InputError(core::SourceLoc{a.telemetry, 0, 0, "clocks.sm"},
                                       "no samples near the " + std::to_string(static_cast<int>(gpu.tdpW)) +
                                           " W TDP to take the full clock from: pass --full-clock MHz");
            std::sort(atTdp.begin(), atTdp.end());
            full = atTdp[atTdp.size() / 2];
        }
        const models::DvfsFit fit = models::fitDvfs(samples, gpu.tdpW, full);
        if (std::isnan(fit.staticW))
            throw core::InputError(core::SourceLoc{a.telemetry, 0, 0, "power.draw"},
                                   "the samples do not span power below TDP: no DVFS curve to fit");
        const double catalogRms = models::dvfsRmsError(samples, gpu.tdpW, full, gpu.staticW, gpu.exponent);

        // Measured and modelled clock ratio by 50 W power bin.
        struct Bin {
            double sum = 0, power = 0;
            int n = 0;
            double meanPower() const { return power / n; }
        };
        std::map<int, Bin> bins;
        for (const auto& s : samples) {
            Bin& b = bins[static_cast<int>(std::floor(s.powerW / 50.0)) * 50];
            b.sum += s.clockHz / full;
            b.power += s.powerW;
            ++b.n;
        }
        auto ratio = [&](double p, double ps, double g) {
            return p >= gpu.tdpW ? 1.0 : std::pow(std::max(0.0, (p - ps) / (gpu.tdpW - ps)), 1.0 / g);
        };
        if (a.json) {
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& [lo, b] : bins)
                rows.push_back({{"power_W", b.meanPower()},
                                {"measured_ratio", b.sum / b.n},
                                {"fitted_ratio", ratio(b.meanPower(), fit.staticW, fit.exponent)},
                                {"catalog_ratio", ratio(b.meanPower(), gpu.staticW, gpu.exponent)},
                                {"samples", b.n}});
            std::cout << nlohmann::json{{"part", part.slug},
                                        {"telemetry", a.telemetry},
                                        {"gpu_name", tel.gpuName},
                                        {"samples_used", samples.size()},
                                        {"samples_idle", idle},
                                        {"samples_incomplete", tel.skipped},
                                        {"full_clock_MHz", full / 1e6},
                                        {"static_power_W", fit.staticW},
                                        {"exponent", fit.exponent},
                                        {"rms_ratio_error", fit.rmsError},
                                        {"catalog_static_power_W", gpu.staticW},
                                        {"catalog_exponent", gpu.exponent},
                                        {"catalog_rms_ratio_error", catalogRms},
                                        {"bins", rows}}
                             .dump(2)
                      << "\n";
            return kExitOk;
        }
        std::printf("telemetry %s: %zu samples under load (%zu idle, %zu incomplete), %s\n", a.telemetry.c_str(),
                    samples.size(), idle, tel.skipped, tel.gpuName.empty() ? "GPU not named" : tel.gpuName.c_str());
        std::printf("part      %s: TDP %.0f W, full clock %.0f MHz (%s)\n\n", part.slug.c_str(), gpu.tdpW, full / 1e6,
                    a.fullClockMHz > 0 ? "given" : "median at TDP");
        std::printf("%-22s %14s %10s %22s\n", "", "static power", "exponent", "RMS clock-ratio error");
        std::printf("%-22s %12.0f W %10.2f %21.2f %%\n", "fitted to telemetry", fit.staticW, fit.exponent,
                    fit.rmsError * 100);
        if (fit.exponent <= 1.0 || fit.exponent >= 4.0)
            std::printf("  (the exponent sits at the search bound: the samples span too little power to pin the "
                        "curve down; sweep the power cap wider)\n");
        std::printf("%-22s %12.0f W %10.2f %21.2f %%%s\n\n", "catalog", gpu.staticW, gpu.exponent, catalogRms * 100,
                    gpu.dvfsEstimate ? "  (placeholder)" : "");
        std::printf("%10s %10s %10s %10s %8s   (clock / full clock, by 50 W bin)\n", "mean power", "measured", "fitted",
                    "catalog", "samples");
        for (const auto& [lo, b] : bins)
            std::printf("%8.0f W %10.3f %10.3f %10.3f %8d\n", b.meanPower(), b.sum / b.n,
                        ratio(b.meanPower(), fit.staticW, fit.exponent),
                        ratio(b.meanPower(), gpu.staticW, gpu.exponent), b.n);
        std::printf("\nTo record the fit in data/catalog/%s.yaml (add the telemetry as a source key in "
                    "sources.yaml):\n  dvfs:\n    static_power: {value: %.0f W, source: \"[KEY]\"}\n"
                    "    exponent: {value: %.2f, source: \"[KEY]\"}\n",
                    part.slug.c_str(), fit.staticW, fit.exponent);
        return kExitOk;
    });
}

} // namespace rdt::cli
