#pragma once
/// \file LiquidOutput.h
/// The liquid loops in `rdt check --json` (`liquid`) and in the HDF5 report (`/liquid`).

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "liquid/LiquidDesign.h"

namespace rdt::report {

/// `liquid.loops[]` (id, cdu, type, CDUs running, heat, flow, supply and return, capacity, pumps),
/// `liquid.racks[]` and `liquid.trays[]` (flow, coolant in and out, case, ports), every key with its
/// unit; `null` for a design without `liquid:`.
nlohmann::json liquidJson(const liquid::LiquidResult& result);

/// `/liquid/loops`, `/liquid/racks`, `/liquid/trays` tables with units; nothing for a design
/// without `liquid:`.
void writeLiquidGroup(hid_t file, const liquid::LiquidResult& result);

} // namespace rdt::report
