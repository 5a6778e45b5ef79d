#pragma once
/// \file GpuCommand.h
/// `rdt gpu calibrate TELEMETRY.csv --part SLUG [--full-clock MHz] [--min-util PCT] [--json]`:
/// fit a GPU's clock-versus-power (DVFS) curve to nvidia-smi telemetry and compare it with the
/// catalog's curve, printing the catalog lines that record the fit.

#include <string>

namespace rdt::cli {

struct GpuCalibrateArgs {
    std::string telemetry;
    std::string part;
    double fullClockMHz = 0; ///< 0 = the median clock of samples at TDP
    double minUtilPct = 90;  ///< samples below this GPU utilisation are ignored
    bool json = false;
};

int runGpuCalibrate(const GpuCalibrateArgs& args);

} // namespace rdt::cli
