#pragma once
/// \file Telemetry.h
/// GPU telemetry as `nvidia-smi --query-gpu=… --format=csv` writes it (with or without
/// `nounits`): a header of field names with units in brackets (`power.draw [W]`), then one row
/// per GPU per sample (`699.12 W`, `1980 MHz`, `[N/A]`). The fields rdt uses: power.draw,
/// clocks.sm (required), utilization.gpu, temperature.gpu, index, name (optional).

#include <cmath>
#include <string>
#include <vector>

namespace rdt::hil {

struct TelemetrySample {
    int gpu = 0;               ///< `index`
    double powerW = NAN;       ///< power.draw
    double clockHz = NAN;      ///< clocks.sm
    double utilization = NAN;  ///< utilization.gpu, 0 … 1
    double temperatureK = NAN; ///< temperature.gpu
    double throttleReasons = NAN; ///< DCGM clock-throttle (clock-event) reason bits, NaN when not given
    int line = 0;
};

struct Telemetry {
    std::string file;
    std::string gpuName; ///< `name` of the first row
    std::vector<TelemetrySample> samples;
    std::size_t skipped = 0; ///< rows with [N/A] in a required field
};

/// InputError (file:line and the column) on a missing required column, a row with the wrong
/// number of fields, a value that is not a number, or a unit that does not match the column.
Telemetry parseNvidiaSmiCsv(const std::string& text, const std::string& fileName);
Telemetry readNvidiaSmiCsv(const std::string& path);

/// `dcgmi dmon -e 155,203,100,150` text: a `#Entity TAG…` header (POWER, GPUTL, SMCLK, TMPTR
/// are used; POWER and SMCLK required), an optional `ID`/`Id` units line, then `GPU n v…` rows
/// (other entities skipped; `N/A` is missing). InputError file:line on anything else.
Telemetry parseDcgmDmon(const std::string& text, const std::string& fileName);
/// DCGM exporter metrics (Prometheus text exposition): DCGM_FI_DEV_POWER_USAGE, _SM_CLOCK,
/// _GPU_UTIL, _GPU_TEMP, _CLOCK_THROTTLE_REASONS / _CLOCKS_EVENT_REASONS, by `gpu` label (and
/// `Hostname`). One sample per GPU per scrape; scrapes may be concatenated (a `# HELP` of a
/// metric already seen, or a repeated series, starts the next).
Telemetry parsePrometheusDcgm(const std::string& text, const std::string& fileName);
/// Any of the three formats, told apart by their first lines.
Telemetry readGpuTelemetry(const std::string& path);
/// Names of the set throttle reasons (`sw_power_cap`, `hw_slowdown`, `sw_thermal`, `hw_thermal`, …).
std::string throttleReasonNames(double bits);

} // namespace rdt::hil
