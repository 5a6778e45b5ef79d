#pragma once
/// \file Compare.h
/// Designs side by side — the GPU generations table: GPUs, megawatts, 16-bit tensor EFLOPS (BF16,
/// or FP16 on GPUs without BF16) at peak and sustained, and sustained EFLOPS per MW of IT power at
/// the modelled draw. Every figure comes from the same run `rdt check` makes of the design.

#include <string>
#include <vector>

#include "analysis/Pipeline.h"

namespace rdt::analysis {

struct CompareRow {
    std::string design, file, description;
    std::string gpu;     ///< the GPU part's model (several joined by " + ")
    std::string dtype16; ///< "bf16", "fp16", "bf16/fp16"; "" when no GPU has either
    int gpus = 0;
    double itNameplateW = 0; ///< IT load on the checks' basis (nameplate unless the design says otherwise)
    double itModelledW = 0;  ///< the same parts at their modelled draw
    double acInputW = 0;     ///< facility AC into shelves and AC-fed parts, on the basis
    double gridW = NAN;      ///< from the grid at the modelled draw (× PUE); NaN without `facility:`
    double peakEflops16 = NAN, sustainedEflops16 = NAN;
    double mfu = 0.4;
    double eflopsPerMw = NAN; ///< sustained 16-bit EFLOPS per MW of modelled IT load
    int errors = 0;           ///< error-severity rule violations of the run
    std::string basis;        ///< the budget's basis
};

CompareRow compareRow(const RunResult& run);

/// The rows as an aligned text table, a Markdown table (README) or JSON.
std::string compareText(const std::vector<CompareRow>& rows);
std::string compareMarkdown(const std::vector<CompareRow>& rows);
std::string compareJson(const std::vector<CompareRow>& rows);

} // namespace rdt::analysis
