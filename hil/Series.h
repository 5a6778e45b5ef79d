#pragma once
/// \file Series.h
/// Telemetry in HDF5: a snapshot is a series of one sweep. Layout under `/hil`: `parts`, `kinds`
/// (N strings), `time` (T, s since 1970 UTC) and one T×N dataset per quantity with a `units`
/// attribute (`power` W, `inlet`/`exhaust` degC, `fan`/`fan_max` %, `gpu_power` W, `airflow` m3/s,
/// `pressure` Pa, `power_limit` W, and for liquid cooling `coolant_flow` L/min, `coolant_supply` /
/// `coolant_return` degC, `coolant_dp` kPa, `coolant_heat` kW, `pump_speed` %, `pumps_failed`,
/// `leak_state` (0 OK, 1 Warning, 2 Critical), `gpu_temperature` degC; `errors` count), T×N×8 `psu_input`/`psu_output`/`psu_capacity` W and `psu_state` (0 delivering, 1 Absent,
/// 2 offline or disabled, 3 Health Critical),
/// and `log` (T fixed strings: the sweep's first errors). NaN where nothing was read.
///
/// A series grows one sweep at a time in HDF5's single-writer/multiple-reader mode and is flushed
/// after every sweep, so a killed writer loses at most the sweep it was writing and readers may
/// open the file while it grows. A snapshot is written whole to a temporary file and renamed.

#include <string>
#include <vector>

#include "hil/Redfish.h"

namespace rdt::hil {

/// What a series file says about itself.
struct SeriesInfo {
    std::string design, map, rdtVersion;
};

struct Series {
    SeriesInfo info;
    std::vector<std::string> parts, kinds;
    std::vector<Sample> samples;
    std::vector<std::string> log;    ///< each sweep's first errors (the part readings carry none)
    std::vector<double> errorCounts; ///< T×N, per part and sweep
};

/// Appends sweeps to a new series file.
class SeriesWriter {
public:
    /// Creates `path`; InputError if it exists (a series is never overwritten) or cannot be created.
    SeriesWriter(const std::string& path, const TelemetryMap& map, const SeriesInfo& info);
    ~SeriesWriter();
    SeriesWriter(const SeriesWriter&) = delete;
    SeriesWriter& operator=(const SeriesWriter&) = delete;
    void append(const Sample& s);
    std::size_t samples() const { return m_samples; }
    void close();

private:
    struct Impl;
    Impl* m_impl;
    std::size_t m_samples = 0;
};

/// Write one sweep as a snapshot file, atomically (temporary file, fsync, rename).
void writeSnapshot(const std::string& path, const TelemetryMap& map, const SeriesInfo& info, const Sample& s);

/// Read a snapshot or series (also one whose writer was killed). InputError naming the file on
/// anything that is not an rdt telemetry file.
Series readSeries(const std::string& path);

/// Quantities of the T×N datasets, with their units, in file order.
struct QuantityInfo {
    const char* name;
    const char* unit;
};
const std::vector<QuantityInfo>& seriesQuantities();
/// The value of quantity `q` (index into seriesQuantities()) in a reading.
double quantityValue(const PartReading& r, std::size_t q);
void setQuantity(PartReading& r, std::size_t q, double v);

} // namespace rdt::hil
