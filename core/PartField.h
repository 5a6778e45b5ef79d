#pragma once
/// \file PartField.h
/// A solver result laid over the layout: one number per placed part (inlet temperature, busbar
/// load, …) in the unit people read it in, with the rule that checks it and that rule's limits, so
/// that every view colours it against the same limits the checks judge it by.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rdt::core {

struct PartField {
    /// Where a value sits against the field's limits.
    enum class Band { None, Pass, Near, Fail };

    std::string name;          ///< shown in the "Colour by" list, e.g. "Inlet temperature"
    std::string unit;          ///< display unit of `values`: degC, K, %, kW, s, dB
    std::string rule;          ///< id of the rule that checks this figure, or empty
    bool higherIsWorse = true; ///< colour scale direction: red is the bad end
    /// The rule's limit on the same scale (e.g. 100 % of a rating): a value beyond it fails (at it
    /// too when `failAtLimit`); NaN when the figure has no limit.
    double limit = NAN;
    bool failAtLimit = false;
    /// The edge of the "near" band between pass and the limit (ASHRAE's recommended maximum, the
    /// fan-control setpoint, 90 % of a rating); NaN when the field has none.
    double nearLimit = NAN;
    std::string limitLabel, nearLabel; ///< what the limits are, e.g. "A2 allowable", "recommended"
    /// The anchored scale runs from `goodEnd` (best) through `nearLimit` and `limit` to `badEnd`
    /// (room for values beyond the limit); NaN: not anchored (a field without limits).
    double goodEnd = NAN, badEnd = NAN;
    /// The smallest difference that means something for this quantity (unit of `values`): values
    /// closer than this read as one colour on a data-range scale.
    double minSpan = 0;
    /// values[rack][slot]; NaN where the part has no such figure (a switch has no GPU junction).
    std::vector<std::vector<double>> values;
    /// Per-part limits where parts differ (each GPU its own maximum and setpoint); empty: the
    /// scalar `limit` and `nearLimit` for every part.
    std::vector<std::vector<double>> limits, nearLimits;
    double lo = NAN, hi = NAN; ///< range of the finite values (a flat field is widened by ±1 unit)

    double at(int rack, int slot) const { return cell(values, rack, slot); }
    double limitAt(int rack, int slot) const { return limits.empty() ? limit : cell(limits, rack, slot); }
    /// Parts judged by another rule than `rule` on the same limit (a switch's inlet: thermal.inlet.switch
    /// beside the chassis' thermal.inlet.chassis), by rack and slot; empty: `rule` for every part.
    std::vector<std::vector<std::string>> rules;
    const std::string& ruleAt(int rack, int slot) const
    {
        if (rack >= 0 && slot >= 0 && static_cast<std::size_t>(rack) < rules.size() &&
            static_cast<std::size_t>(slot) < rules[static_cast<std::size_t>(rack)].size() &&
            !rules[static_cast<std::size_t>(rack)][static_cast<std::size_t>(slot)].empty())
            return rules[static_cast<std::size_t>(rack)][static_cast<std::size_t>(slot)];
        return rule;
    }
    double nearAt(int rack, int slot) const { return nearLimits.empty() ? nearLimit : cell(nearLimits, rack, slot); }
    /// True when the field has limits to anchor a scale to.
    bool anchored() const { return std::isfinite(goodEnd) && std::isfinite(badEnd); }

    /// The band of `v` against a limit and near edge (NaN: none) in this field's direction.
    Band bandOf(double v, double lim, double nearEdge) const
    {
        const double s = higherIsWorse ? 1.0 : -1.0; // s·v grows towards the bad end
        // An unbounded value on the bad side (a GPU junction with no air through its chassis) fails.
        if (std::isinf(v) && s * v > 0 && std::isfinite(lim))
            return Band::Fail;
        if (!std::isfinite(v))
            return Band::None;
        if (std::isfinite(lim) && (s * v > s * lim || (failAtLimit && s * v >= s * lim)))
            return Band::Fail;
        if (std::isfinite(nearEdge) && s * v > s * nearEdge)
            return Band::Near;
        return Band::Pass;
    }
    /// The band of a part's value against its own limits.
    Band band(int rack, int slot) const { return bandOf(at(rack, slot), limitAt(rack, slot), nearAt(rack, slot)); }

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

private:
    static double cell(const std::vector<std::vector<double>>& t, int rack, int slot)
    {
        if (rack < 0 || slot < 0 || static_cast<std::size_t>(rack) >= t.size() ||
            static_cast<std::size_t>(slot) >= t[static_cast<std::size_t>(rack)].size())
            return NAN;
        return t[static_cast<std::size_t>(rack)][static_cast<std::size_t>(slot)];
    }
};

} // namespace rdt::core
