#include "models/GpuModel.h"

#include <algorithm>

namespace rdt::models {

std::string_view dataTypeName(DataType t)
{
    switch (t) {
    case DataType::Fp64: return "fp64";
    case DataType::Fp64Tensor: return "fp64_tensor";
    case DataType::Tf32: return "tf32";
    case DataType::Bf16: return "bf16";
    case DataType::Fp8: return "fp8";
    case DataType::Fp16: return "fp16";
    }
    return "?";
}

GpuSpec GpuSpec::fromPart(const core::Part& p)
{
    GpuSpec g;
    g.slug = p.slug;
    g.tdpW = p.value("tdp", 0.0);
    g.minCapW = p.value("min_power_cap", 0.0);
    g.staticW = p.value("dvfs.static_power", 0.15 * g.tdpW);
    g.exponent = p.value("dvfs.exponent", 2.5);
    const auto dvfs = p.values.find("dvfs.static_power");
    g.dvfsEstimate = dvfs == p.values.end() || dvfs->second.provenance.kind == core::Provenance::Kind::Estimate;
    for (const char* f : {"dvfs.static_power", "dvfs.exponent"})
        if (!p.find(f))
            g.dvfsMissing += (g.dvfsMissing.empty() ? "" : " and ") + std::string(f);
    const char* fields[] = {"fp64", "fp64_tensor", "tf32_dense", "bf16_dense", "fp8_dense", "fp16_dense"};
    for (int i = 0; i < 6; ++i)
        g.peak[i] = p.value(fields[i], NAN);
    g.sparsity = p.value("sparsity_speedup", 2.0);
    g.memoryBytesPerS = p.value("memory_bandwidth", NAN) / 8.0;
    g.nvlinkBytesPerS = p.value("nvlink_bandwidth", NAN) / 8.0;
    g.nvlinkSharp = p.text("nvlink_sharp") == "true";
    g.nvlsTreeChannel2Bps = p.value("nvls_tree_channel_2_nodes", NAN) / 8.0;
    g.nvlsTreeChannelBps = p.value("nvls_tree_channel", NAN) / 8.0;
    g.slowdownK = p.value("slowdown_temp", NAN);
    g.maxOperatingK = p.value("max_operating_temp", NAN);
    return g;
}

double GpuSpec::peakFlops(DataType t, bool sparse) const
{
    const double dense = peak[static_cast<int>(t)];
    const bool tensor = t != DataType::Fp64;
    return sparse && tensor ? dense * sparsity : dense;
}

double GpuSpec::clockRatioAtPower(double capW) const
{
    if (!(tdpW > staticW) || capW >= tdpW)
        return 1.0;
    const double x = std::max(0.0, (capW - staticW) / (tdpW - staticW));
    return std::pow(x, 1.0 / exponent);
}

ClockLimit gpuClock(const GpuSpec& gpu, double capW, double rackFitW, double junctionK, double inletK, double atPowerW)
{
    ClockLimit c;
    double power = std::min(capW, gpu.tdpW);
    c.limitedBy = capW < gpu.tdpW ? "power cap" : "none";
    if (!std::isnan(rackFitW) && rackFitW < power) {
        power = rackFitW;
        c.limitedBy = "rack power";
    }
    const double throttleK = gpu.throttleK();
    if (!std::isnan(junctionK) && !std::isnan(throttleK) && junctionK > throttleK && atPowerW > 0 &&
        junctionK > inletK) {
        const double thermalW = atPowerW * std::max(0.0, throttleK - inletK) / (junctionK - inletK);
        if (thermalW < power) {
            power = thermalW;
            c.limitedBy = "thermal";
        }
    }
    c.powerW = power;
    c.ratio = gpu.clockRatioAtPower(power);
    return c;
}

double dvfsRmsError(const std::vector<PowerClockSample>& samples, double tdpW, double fullClockHz, double staticW,
                    double exponent)
{
    double sum = 0;
    std::size_t n = 0;
    for (const PowerClockSample& s : samples) {
        const double predicted =
            s.powerW >= tdpW ? 1.0 : std::pow(std::max(0.0, (s.powerW - staticW) / (tdpW - staticW)), 1.0 / exponent);
        const double e = predicted - s.clockHz / fullClockHz;
        sum += e * e;
        ++n;
    }
    return n ? std::sqrt(sum / static_cast<double>(n)) : NAN;
}

DvfsFit fitDvfs(const std::vector<PowerClockSample>& samples, double tdpW, double fullClockHz)
{
    DvfsFit best;
    best.fullClockHz = fullClockHz;
    if (!(tdpW > 0) || !(fullClockHz > 0))
        return best;
    double bestRms = INFINITY;
    for (double ps = 0; ps < 0.9 * tdpW; ps += 1.0) {
        // ln r = (1/γ)·ln x through the origin, x = (P − P_static)/(TDP − P_static).
        double sxx = 0, sxy = 0;
        std::size_t n = 0;
        for (const PowerClockSample& s : samples) {
            if (s.powerW >= tdpW || s.powerW <= ps || s.clockHz <= 0)
                continue;
            const double x = std::log((s.powerW - ps) / (tdpW - ps));
            const double y = std::log(std::min(1.0, s.clockHz / fullClockHz));
            sxx += x * x;
            sxy += x * y;
            ++n;
        }
        if (n < 3 || sxx <= 0)
            continue;
        const double inv = sxy / sxx;
        if (!(inv > 0))
            continue;
        const double gamma = std::clamp(1.0 / inv, 1.0, 4.0);
        const double rms = dvfsRmsError(samples, tdpW, fullClockHz, ps, gamma);
        if (rms < bestRms) {
            bestRms = rms;
            best.staticW = ps;
            best.exponent = gamma;
            best.rmsError = rms;
            best.samples = n;
        }
    }
    return best;
}

} // namespace rdt::models
