#pragma once
/// \file PowerOutput.h
/// The power budget in `rdt check --json` (`power`) and in the HDF5 report (`/power`).

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "power/Budget.h"

namespace rdt::report {

/// `power.racks[]` (id, it_load_W, peak_load_W, busbar_current_A, busbar_min_voltage_V,
/// capacity_n_W, capacity_n1_W, bbu_holdup_s, ac_phase_current_A, gpu_cap_to_fit_W, …),
/// `power.rows|pods|halls[]` and `power.totals`. Numbers that do not apply are null.
nlohmann::json powerJson(const power::PowerResult& result);

/// `/power/racks`, `/power/shelves`, `/power/rollups` tables and `/power/totals` scalars.
void writePowerGroup(hid_t file, const power::PowerResult& result);

} // namespace rdt::report
