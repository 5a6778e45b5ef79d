#pragma once
/// \file PowerTrace.h
/// A measured GPU power trace for power dynamics (docs/dynamics.md, "Measured traces"): the mean
/// board power of the GPUs in the file, on a uniform time grid.
///
/// Read from `nvidia-smi --query-gpu=timestamp,index,power.draw --format=csv -lms 100` (also
/// `power.draw.instant`, which it prefers, and `nounits`), each GPU's samples placed at their own
/// timestamps (`2024/05/01 12:00:00.123`) and resampled linearly onto the first GPU's median
/// interval; or from `dcgmi dmon -e 155,100 -d 100` text (no timestamps: each GPU's k-th sample at
/// k × `interval`, which must then be given).

#include <cmath>
#include <string>
#include <vector>

namespace rdt::hil {

struct PowerTrace {
    std::string file;
    int gpus = 0;
    double stepS = 0;            ///< the grid's interval
    std::vector<double> meanW;   ///< the GPUs' mean board power at each grid time
    std::size_t rows = 0;        ///< samples read (every GPU's)
};

/// `intervalS`: the sampling interval for formats without timestamps (NaN: from the timestamps,
/// an InputError where there are none). InputError with file and line on a malformed row, a
/// timestamp going back, a trace of fewer than 16 grid points, or samples coarser than 1 s.
PowerTrace parsePowerTrace(const std::string& text, const std::string& fileName, double intervalS = NAN);
PowerTrace readPowerTrace(const std::string& path, double intervalS = NAN);

} // namespace rdt::hil
