#pragma once
// Shared by analysis/Hil.cpp (residuals, rules) and analysis/HilCalibrate.cpp (fits).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/Catalog.h"
#include "core/Design.h"

namespace rdt::analysis::hildetail {

constexpr double kCfm = 0.00047194745; // m³/s per CFM

struct SlotRef {
    int rack = -1, slot = -1;
};

inline std::map<std::string, SlotRef> slotIndex(const core::Design& d)
{
    std::map<std::string, SlotRef> m;
    for (int r = 0; r < static_cast<int>(d.racks.size()); ++r)
        for (int s = 0; s < static_cast<int>(d.racks[r].slots.size()); ++s)
            m[d.racks[r].slots[s].id] = {r, s};
    return m;
}

/// Mean of the finite values, and how many there were.
struct Mean {
    double sum = 0;
    int n = 0;
    void add(double v)
    {
        if (std::isfinite(v)) {
            sum += v;
            ++n;
        }
    }
    double value() const { return n > 0 ? sum / n : NAN; }
};

template <typename T>
const T* byId(const std::vector<T>& v, const std::string& id)
{
    for (const T& x : v)
        if (x.id == id)
            return &x;
    return nullptr;
}

inline double sum(const std::vector<double>& v)
{
    double s = 0;
    bool any = false;
    for (double x : v)
        if (std::isfinite(x)) {
            s += x;
            any = true;
        }
    return any ? s : NAN;
}

} // namespace rdt::analysis::hildetail
