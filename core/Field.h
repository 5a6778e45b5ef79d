#pragma once
/// \file Field.h
/// A solver result laid over the layout: one number per placed part (inlet temperature, busbar
/// load, …) in the unit people read it in, with the rule that checks it. The studio colours parts
/// by these; analysis builds them from the solver results, so the display code knows no physics.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rdt::core {

struct PartField {
    std::string name;          ///< shown in the "Colour by" list, e.g. "Inlet temperature"
    std::string unit;          ///< display unit of `values`: degC, K, %, kW, s
    std::string rule;          ///< id of the rule that checks this figure, or empty
    bool higherIsWorse = true; ///< colour scale direction: red is the bad end
    double limit = NAN;        ///< a limit on the same scale (e.g. 100 % of a rating), NaN when none
    /// values[rack][slot]; NaN where the part has no such figure (a switch has no GPU junction).
    std::vector<std::vector<double>> values;
    double lo = NAN, hi = NAN; ///< range of the finite values (a flat field is widened by ±1 unit)

    double at(int rack, int slot) const
    {
        if (rack < 0 || slot < 0 || static_cast<std::size_t>(rack) >= values.size() ||
            static_cast<std::size_t>(slot) >= values[static_cast<std::size_t>(rack)].size())
            return NAN;
        return values[static_cast<std::size_t>(rack)][static_cast<std::size_t>(slot)];
    }
    /// Set lo/hi from the finite values.
    void autoRange()
    {
        lo = INFINITY;
        hi = -INFINITY;
        for (const auto& rack : values)
            for (double v : rack)
                if (std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
        if (!(lo <= hi)) {
            lo = hi = NAN;
            return;
        }
        if (hi - lo < 1e-9) {
            lo -= 1.0;
            hi += 1.0;
        }
    }
};

} // namespace rdt::core
