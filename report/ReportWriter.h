#pragma once
/// \file ReportWriter.h
/// The HDF5 report of one run (schema: docs/report-schema.md). Written to a temporary
/// name beside the target and renamed, so an interrupted run never leaves a half file.

#include <string>

#include "analysis/Pipeline.h"

namespace rdt::report {

/// Write `/meta`, `/design` and `/checks` for `result` to `outPath`.
/// Throws core::InputError when the output cannot be created (missing folder, no permission).
void writeReport(const analysis::RunResult& result, const std::string& outPath, const std::string& toolVersion);

} // namespace rdt::report
