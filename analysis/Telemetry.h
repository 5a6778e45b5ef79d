#pragma once
/// \file Telemetry.h
/// GPU telemetry as `nvidia-smi --query-gpu=… --format=csv` writes it (with or without
/// `nounits`): a header of field names with units in brackets (`power.draw [W]`), then one row
/// per GPU per sample (`699.12 W`, `1980 MHz`, `[N/A]`). The fields rdt uses: power.draw,
/// clocks.sm (required), utilization.gpu, temperature.gpu, index, name (optional).

#include <cmath>
#include <string>
#include <vector>

namespace rdt::analysis {

struct TelemetrySample {
    int gpu = 0;               ///< `index`
    double powerW = NAN;       ///< power.draw
    double clockHz = NAN;      ///< clocks.sm
    double utilization = NAN;  ///< utilization.gpu, 0 … 1
    double temperatureK = NAN; ///< temperature.gpu
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

} // namespace rdt::analysis
