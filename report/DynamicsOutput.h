#pragma once
/// \file DynamicsOutput.h
/// The training job's power waveform (docs/dynamics.md) in `rdt check --json` (`dynamics`), the
/// HDF5 report (`/dynamics`) and the text summary.

#include <hdf5.h>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/Dynamics.h"

namespace rdt::report {

/// `dynamics`: the job (iteration, compute share, per-GPU levels), each level's high, low and
/// swing, the site's ramps, fundamental, bands, voltage change and the mitigation's cost, every key
/// with its unit; `not_checked` with the reason when the waveform was not built.
nlohmann::json dynamicsJson(const analysis::DynamicsResult& result);

/// `/dynamics`: `levels` and `bands` tables, the site's trace (`site_power`, W, with `time_step`)
/// and its spectrum (`spectrum`, W, with `frequency_step`), figures as attributes-with-units scalars.
void writeDynamicsGroup(hid_t file, const analysis::DynamicsResult& result);

/// One line for `rdt check`'s summary ("dynamics …"), or the reason it was not built.
std::string dynamicsSummaryText(const analysis::DynamicsResult& result);

} // namespace rdt::report
