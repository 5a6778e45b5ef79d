#pragma once
/// \file GpuModel.h
/// A GPU's compute from the catalog: peak rates by data type, clock versus power cap (a DVFS
/// model whose parameters live in the catalog, marked as estimates until calibrated) and versus
/// junction temperature, and sustained rates at a workload efficiency (MFU).

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "core/Catalog.h"

namespace rdt::models {

enum class DataType { Fp64, Fp64Tensor, Tf32, Bf16, Fp8, Fp16 };

/// `bf16`, `fp8`, …; and back.
std::string_view dataTypeName(DataType t);

struct GpuSpec {
    std::string slug;
    double tdpW = 0;       ///< board power at which the quoted peak clock is sustained
    double minCapW = 0;    ///< lowest settable power cap (0 when not stated)
    double staticW = 0;    ///< DVFS: power that does not scale with clock (leakage, HBM, I/O)
    double exponent = 2.5; ///< DVFS: dynamic power ∝ clock^exponent (2…3 in the DVFS region)
    bool dvfsEstimate = true;
    /// The DVFS figures the part lacks ("dvfs.static_power", "dvfs.exponent", joined by " and "):
    /// empty when it has both. Without them the clock below full power comes from a generic curve
    /// (15 % of tdp static, exponent 2.5), which no catalog entry vouches for.
    std::string dvfsMissing;
    double peak[6] = {NAN, NAN, NAN, NAN, NAN, NAN};     ///< dense FLOP/s by DataType (NaN: not in the catalog)
    double sparsity = 2.0;                               ///< 2:4 sparse speed-up on tensor types
    double memoryBytesPerS = NAN, nvlinkBytesPerS = NAN; ///< NVLink: both directions together
    bool nvlinkSharp = false;                            ///< NVSwitch with in-switch reduction (NVLS)
    /// NCCL's per-channel cap on NVLS-tree busbw for this GPU generation, bytes/s, on two nodes and
    /// on more (its tuning model's perChMaxNVLSTreeBws); NaN: not in the catalog (no cap).
    double nvlsTreeChannel2Bps = NAN, nvlsTreeChannelBps = NAN;
    double slowdownK = NAN;                              ///< hardware slowdown (NaN: not in the catalog)
    double maxOperatingK = NAN; ///< the temperature the GPU lowers its clocks to hold (NaN: not in the catalog)
    /// Where thermal throttling starts: max operating temperature, else slowdown; NaN when neither is known.
    double throttleK() const { return std::isnan(maxOperatingK) ? slowdownK : maxOperatingK; }

    static GpuSpec fromPart(const core::Part& part);
    /// Peak FLOP/s; sparse applies to tensor types only.
    double peakFlops(DataType t, bool sparse = false) const;
    /// Clock ratio (1 = the clock of the quoted peak) that a compute-bound load holds at board
    /// power `capW`: ((P − P_static)/(TDP − P_static))^(1/exponent), at most 1.
    double clockRatioAtPower(double capW) const;
};

/// What holds a GPU's clock down.
struct ClockLimit {
    double ratio = 1.0;    ///< clock / quoted peak clock
    double powerW = 0;     ///< board power it runs at
    std::string limitedBy; ///< "none", "power cap", "rack power", "thermal"
};

/// The clock of one GPU given its power cap, the highest cap its rack can feed (NaN: no limit),
/// and its thermal state: junction `junctionK` at board power `atPowerW`, and `inletK`, the junction
/// it would have at 0 W (the chassis' other heat included: ChassisThermal::gpuIdleJunctionK, or the
/// loop's reference under a cold plate; NaN junction: not modelled). Above its throttle temperature
/// (throttleK()) the GPU lowers power until the junction is back at it; the junction's rise above
/// `inletK` is taken as proportional to power.
ClockLimit gpuClock(const GpuSpec& gpu, double capW, double rackFitW, double junctionK, double inletK, double atPowerW);

/// One telemetry sample under load: board power and SM clock.
struct PowerClockSample {
    double powerW = 0;
    double clockHz = 0;
};

/// DVFS parameters fitted to telemetry: r = ((P − P_static)/(TDP − P_static))^(1/γ) with
/// r = clock / fullClock, least squares on ln r over P_static (1 W grid) and γ (closed form).
struct DvfsFit {
    double staticW = NAN, exponent = NAN;
    double fullClockHz = NAN; ///< the clock the ratio is taken against
    double rmsError = NAN;    ///< RMS of predicted − measured clock ratio
    std::size_t samples = 0;  ///< samples used (power below TDP, above P_static)
};

/// Fit the DVFS curve of a GPU with board power `tdpW` to samples; `fullClockHz` is the clock at
/// TDP (the ratio's reference). Samples at or above TDP only confirm the full clock.
DvfsFit fitDvfs(const std::vector<PowerClockSample>& samples, double tdpW, double fullClockHz);

/// RMS clock-ratio error of the given DVFS parameters on the samples (for comparing the catalog's
/// placeholder with a fit).
double dvfsRmsError(const std::vector<PowerClockSample>& samples, double tdpW, double fullClockHz, double staticW,
                    double exponent);

} // namespace rdt::models
