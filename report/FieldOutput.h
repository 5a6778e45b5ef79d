#pragma once
/// \file FieldOutput.h
/// The room field model in the outputs: `thermal.field` in JSON (rooms solved, cells,
/// iterations, residuals, time, energy balance, per-chassis inlets from the field) and
/// `/thermal/field` in the HDF5 report (per room: grid faces, temperature, velocity, pressure
/// and solid cells with units).

#include <hdf5.h>

#include <nlohmann/json.hpp>

#include "core/Design.h"
#include "room/RoomThermal.h"

namespace rdt::report {

/// `null` for the network model.
nlohmann::json fieldJson(const thermal::ThermalResult& result);
/// Writes `/thermal/field` under the open thermal group; nothing for the network model.
void writeFieldGroup(hid_t thermalGroup, const thermal::ThermalResult& result);
/// One line for text output: "field: 1 room (12,600 cells), 812 iterations in 3 couplings, …".
std::string fieldSummaryText(const thermal::ThermalResult& result);

} // namespace rdt::report
