#pragma once
/// \file ThermalOutput.h
/// The thermal results in `rdt check --json` (`thermal`) and in the HDF5 report (`/thermal`).

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "thermal/Thermal.h"

namespace rdt::report {

/// `thermal.chassis[]` (id, heat_W, airflow_m3s, airflow_cfm, inlet_C, exhaust_C,
/// gpu_junction_max_C, throttled, fan_speed, …), `thermal.racks[]`, `thermal.rows[]` (id, rci_hi,
/// rci_lo, rti, shi, …) and `thermal.scenario`.
nlohmann::json thermalJson(const thermal::ThermalResult& result);

/// `/thermal/chassis`, `/thermal/gpus` (one row per GPU), `/thermal/racks`, `/thermal/rows` tables;
/// temperatures in degC, differences in K.
void writeThermalGroup(hid_t file, const thermal::ThermalResult& result, const core::Design& design);

} // namespace rdt::report
