#include "editor/Colouring.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace rdt::editor {

Rgb kindColour(core::PartKind kind)
{
    switch (kind) {
    case core::PartKind::Chassis: return {0.22f, 0.50f, 0.78f};    // blue
    case core::PartKind::PowerShelf: return {0.93f, 0.62f, 0.16f}; // amber
    case core::PartKind::BbuShelf: return {0.40f, 0.70f, 0.33f};   // green
    case core::PartKind::Switch: return {0.58f, 0.40f, 0.74f};     // violet
    default: return {0.60f, 0.60f, 0.62f};                         // grey
    }
}

namespace {

class KindColouring : public Colouring {
public:
    std::string name() const override { return "Part kind"; }
    Rgb partColour(const ColourContext& ctx, int rack, int slot) const override
    {
        return kindColour(
            ctx.design.racks[static_cast<std::size_t>(rack)].slots[static_cast<std::size_t>(slot)].part->kind);
    }
    std::vector<std::pair<std::string, Rgb>> legend() const override
    {
        return {{"GPU chassis", kindColour(core::PartKind::Chassis)},
                {"power shelf", kindColour(core::PartKind::PowerShelf)},
                {"BBU shelf", kindColour(core::PartKind::BbuShelf)},
                {"switch", kindColour(core::PartKind::Switch)},
                {"other", kindColour(core::PartKind::Device)}};
    }
};

/// Red for parts (or racks) with an unwaived error, orange for warnings, grey otherwise.
class ProblemColouring : public Colouring {
public:
    std::string name() const override { return "Problems"; }
    void prepare(const ColourContext& ctx) override
    {
        m_worst.clear();
        for (const core::Violation& v : ctx.violations)
            if (!v.waived) {
                int& w = m_worst[v.subject];
                w = std::max(w, v.severity == core::Severity::Error ? 2 : 1);
            }
    }
    Rgb partColour(const ColourContext& ctx, int rack, int slot) const override
    {
        const core::Rack& r = ctx.design.racks[static_cast<std::size_t>(rack)];
        int worst = lookup(r.slots[static_cast<std::size_t>(slot)].id);
        worst = std::max(worst, lookup(r.id));
        if (worst == 2)
            return {0.86f, 0.20f, 0.18f};
        if (worst == 1)
            return {0.96f, 0.60f, 0.15f};
        return {0.72f, 0.74f, 0.76f};
    }
    std::vector<std::pair<std::string, Rgb>> legend() const override
    {
        return {{"error", {0.86f, 0.20f, 0.18f}},
                {"warning", {0.96f, 0.60f, 0.15f}},
                {"no problem", {0.72f, 0.74f, 0.76f}}};
    }

private:
    int lookup(const std::string& id) const
    {
        const auto it = m_worst.find(id);
        return it == m_worst.end() ? 0 : it->second;
    }
    std::unordered_map<std::string, int> m_worst;
};

} // namespace

Rgb scaleColour(double t)
{
    t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0);
    // Moreland (2009) cool-to-warm end points and midpoint, linear in RGB on either side.
    const Rgb cool{0.230f, 0.299f, 0.754f}, mid{0.865f, 0.865f, 0.865f}, warm{0.706f, 0.016f, 0.150f};
    const Rgb& a = t < 0.5 ? cool : mid;
    const Rgb& b = t < 0.5 ? mid : warm;
    const float u = static_cast<float>(t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0);
    return {a.r + u * (b.r - a.r), a.g + u * (b.g - a.g), a.b + u * (b.b - a.b)};
}

Rgb noDataColour()
{
    return {0.80f, 0.81f, 0.83f};
}

void FieldColouring::prepare(const ColourContext& ctx)
{
    m_field = nullptr;
    m_lo = m_hi = NAN;
    if (ctx.fields)
        for (const core::PartField& f : *ctx.fields)
            if (f.name == m_name)
                m_field = &f;
    if (!m_field)
        return;
    m_lo = m_field->lo;
    m_hi = m_field->hi;
    if (ctx.fixedRanges)
        if (const auto it = ctx.fixedRanges->find(m_name); it != ctx.fixedRanges->end() && it->second.second > it->second.first) {
            m_lo = it->second.first;
            m_hi = it->second.second;
        }
}

double FieldColouring::position(double v) const
{
    if (!m_field || !std::isfinite(v) || !(m_hi > m_lo))
        return NAN;
    const double t = std::clamp((v - m_lo) / (m_hi - m_lo), 0.0, 1.0);
    return m_field->higherIsWorse ? t : 1.0 - t;
}

Rgb FieldColouring::partColour(const ColourContext&, int rack, int slot) const
{
    const double t = m_field ? position(m_field->at(rack, slot)) : NAN;
    return std::isnan(t) ? noDataColour() : scaleColour(t);
}

std::vector<std::pair<std::string, Rgb>> FieldColouring::legend() const
{
    if (!m_field || !std::isfinite(m_lo))
        return {{"no results yet", noDataColour()}};
    char lo[64], hi[64];
    const std::string unit = m_field->unit == "degC" ? "°C" : m_field->unit;
    std::snprintf(lo, sizeof lo, "%.4g %s", m_lo, unit.c_str());
    std::snprintf(hi, sizeof hi, "%.4g %s", m_hi, unit.c_str());
    return {{lo, scaleColour(position(m_lo))},
            {hi, scaleColour(position(m_hi))},
            {"no figure", noDataColour()}};
}

std::vector<std::unique_ptr<Colouring>> builtinColourings()
{
    std::vector<std::unique_ptr<Colouring>> out;
    out.push_back(std::make_unique<KindColouring>());
    out.push_back(std::make_unique<ProblemColouring>());
    return out;
}

} // namespace rdt::editor
