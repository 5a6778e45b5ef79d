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
    /// A rack drawn as one box takes its GPU chassis' colour.
    double badness(const ColourContext& ctx, int rack, int slot) const override
    {
        return ctx.design.racks[static_cast<std::size_t>(rack)].slots[static_cast<std::size_t>(slot)].part->kind ==
                       core::PartKind::Chassis
                   ? 1.0
                   : 0.0;
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
        // Errors and warnings only: an info (a figure not checked, a note) is not a problem, as the
        // status bar counts it (Catalina's 78 infos painted every compute tray a warning's amber).
        for (const core::Violation& v : ctx.violations)
            if (!v.waived && v.severity != core::Severity::Info) {
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
    double badness(const ColourContext& ctx, int rack, int slot) const override
    {
        const core::Rack& r = ctx.design.racks[static_cast<std::size_t>(rack)];
        return std::max(lookup(r.slots[static_cast<std::size_t>(slot)].id), lookup(r.id));
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

namespace {

Rgb mix(const Rgb& a, const Rgb& b, double t)
{
    const float u = static_cast<float>(std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0));
    return {a.r + u * (b.r - a.r), a.g + u * (b.g - a.g), a.b + u * (b.b - a.b)};
}

} // namespace

Rgb scaleColour(double t)
{
    t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0);
    // Moreland (2009) cool end and midpoint; the warm end an orange, not red: red is the fail band's.
    const Rgb cool{0.230f, 0.299f, 0.754f}, mid{0.865f, 0.865f, 0.865f}, warm{0.85f, 0.45f, 0.08f};
    return t < 0.5 ? mix(cool, mid, t * 2.0) : mix(mid, warm, (t - 0.5) * 2.0);
}

Rgb passColour(double t)
{
    return mix({0.13f, 0.33f, 0.66f}, {0.55f, 0.73f, 0.90f}, t); // deep blue … light blue at the near edge
}

Rgb nearColour(double t)
{
    return mix({0.99f, 0.80f, 0.30f}, {0.93f, 0.50f, 0.05f}, t); // light amber … deep orange at the limit
}

Rgb failColour()
{
    return {0.85f, 0.07f, 0.10f};
}

Rgb noDataColour()
{
    return {0.80f, 0.81f, 0.83f};
}

std::string withUnit(double v, const std::string& unit)
{
    char b[64];
    const std::string u = unit == "degC" ? "°C" : unit;
    std::snprintf(b, sizeof b, "%.4g%s%s", v, u == "%" ? "" : " ", u.c_str());
    return b;
}

void FieldColouring::prepare(const ColourContext& ctx)
{
    m_field = nullptr;
    m_lo = m_hi = NAN;
    m_anchored = m_flat = false;
    if (ctx.fields)
        for (const core::PartField& f : *ctx.fields)
            if (f.name == m_name)
                m_field = &f;
    if (!m_field)
        return;
    const core::PartField& f = *m_field;
    m_anchored = f.anchored() && !(ctx.dataRanged && ctx.dataRanged->count(m_name));
    if (m_anchored) {
        // The limits' scale, stretched to show values beyond its ends.
        const double a = std::min(f.goodEnd, f.badEnd), b = std::max(f.goodEnd, f.badEnd);
        m_lo = std::isfinite(f.lo) ? std::min(a, f.lo) : a;
        m_hi = std::isfinite(f.hi) ? std::max(b, f.hi) : b;
        return;
    }
    m_lo = f.lo;
    m_hi = f.hi;
    if (ctx.fixedRanges)
        if (const auto it = ctx.fixedRanges->find(m_name); it != ctx.fixedRanges->end() && it->second.second > it->second.first) {
            m_lo = it->second.first;
            m_hi = it->second.second;
            return;
        }
    // autoRange() widens a flat field by ±1 unit; below the meaningful span it is one colour.
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& rack : f.values)
        for (double v : rack)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    m_flat = lo <= hi && hi - lo < std::max(f.minSpan, 1e-9);
}

double FieldColouring::position(double v) const
{
    if (!m_field || !std::isfinite(v) || !(m_hi > m_lo))
        return NAN;
    const double t = std::clamp((v - m_lo) / (m_hi - m_lo), 0.0, 1.0);
    return m_field->higherIsWorse ? t : 1.0 - t;
}

Rgb FieldColouring::colourOf(double v, double limit, double nearEdge) const
{
    if (!m_field || std::isnan(v))
        return noDataColour();
    const core::PartField& f = *m_field;
    const core::PartField::Band band = f.bandOf(v, limit, nearEdge);
    if (!std::isfinite(v) && band != core::PartField::Band::Fail)
        return noDataColour();
    if (band == core::PartField::Band::Fail)
        return failColour(); // in either scale: beyond its limit is red, whatever the others do
    if (!m_anchored)
        return m_flat ? scaleColour(0.5) : scaleColour(position(v));
    const double s = f.higherIsWorse ? 1.0 : -1.0; // s·v grows towards the bad end
    const auto frac = [&](double from, double to) {
        return to * s > from * s ? std::clamp((v - from) / (to - from), 0.0, 1.0) : 1.0;
    };
    if (band == core::PartField::Band::Near)
        return nearColour(frac(nearEdge, std::isfinite(limit) ? limit : f.badEnd));
    return passColour(frac(f.goodEnd, std::isfinite(nearEdge) ? nearEdge : limit));
}

Rgb FieldColouring::valueColour(double v) const
{
    return m_field ? colourOf(v, m_field->limit, m_field->nearLimit) : noDataColour();
}

Rgb FieldColouring::partColour(const ColourContext&, int rack, int slot) const
{
    if (!m_field)
        return noDataColour();
    const double v = m_field->at(rack, slot);
    // A part whose own limits are unknown (a GPU without max_operating_temp) is not judged.
    if (m_anchored && !m_field->limits.empty() && !std::isfinite(m_field->limitAt(rack, slot)) &&
        !std::isfinite(m_field->nearAt(rack, slot)))
        return noDataColour();
    return colourOf(v, m_field->limitAt(rack, slot), m_field->nearAt(rack, slot));
}

double FieldColouring::badness(const ColourContext&, int rack, int slot) const
{
    if (!m_field)
        return 0.0;
    const double v = m_field->at(rack, slot);
    if (std::isinf(v) && m_field->band(rack, slot) == core::PartField::Band::Fail)
        return 4.0; // unbounded beyond its limit (no air through a chassis): worse than any finite value
    if (!std::isfinite(v))
        return 0.0;
    const double p = position(v);
    switch (m_field->band(rack, slot)) {
    case core::PartField::Band::Fail: return 3.0 + (std::isfinite(p) ? p : 0.0);
    case core::PartField::Band::Near: return 2.0 + (std::isfinite(p) ? p : 0.0);
    default: return 1.0 + (std::isfinite(p) ? p : 0.0);
    }
}

std::vector<std::pair<double, std::string>> FieldColouring::marks() const
{
    std::vector<std::pair<double, std::string>> out;
    if (!m_field)
        return out;
    if (std::isfinite(m_field->nearLimit))
        out.emplace_back(m_field->nearLimit, m_field->nearLabel);
    if (std::isfinite(m_field->limit))
        out.emplace_back(m_field->limit, m_field->limitLabel);
    return out;
}

std::vector<std::pair<std::string, Rgb>> FieldColouring::legend() const
{
    if (!m_field)
        return {{"no results yet", noDataColour()}};
    // Results, but no part with this figure (Catalina's GPU junctions are judged on their cold
    // plates: "GPU junction" read "no results yet" after the results were in; trust trial, 2026-12-07).
    if (!std::isfinite(m_lo))
        return {{"no part has this figure" + (m_field->rule.empty() ? std::string() : " (" + m_field->rule + ")"),
                 noDataColour()}};
    const core::PartField& f = *m_field;
    const std::string worse = f.higherIsWorse ? "> " : "< ", better = f.higherIsWorse ? "≤ " : "≥ ";
    std::vector<std::pair<std::string, Rgb>> out;
    if (m_anchored) {
        // Short enough for a toolbar: the bands with their edges, the limit named.
        const double passEdge = std::isfinite(f.nearLimit) ? f.nearLimit : f.limit;
        out.emplace_back("pass " + better + withUnit(passEdge, f.unit), passColour(0.5));
        if (std::isfinite(f.nearLimit))
            out.emplace_back(std::isfinite(f.limit) ? "near " + withUnit(std::min(f.nearLimit, f.limit), f.unit) + "–" +
                                                          withUnit(std::max(f.nearLimit, f.limit), f.unit)
                                                    : "near " + worse + withUnit(f.nearLimit, f.unit) +
                                                          (f.nearLabel.empty() ? "" : " " + f.nearLabel),
                             nearColour(0.5));
        if (std::isfinite(f.limit)) {
            const std::string atOrBeyond = !f.failAtLimit ? worse : f.higherIsWorse ? "≥ " : "≤ ";
            out.emplace_back("fail " + atOrBeyond + withUnit(f.limit, f.unit) + " " + f.limitLabel, failColour());
        }
        out.emplace_back(f.limits.empty() ? "no figure" : "no figure or limit", noDataColour());
        return out;
    }
    if (m_flat)
        out.emplace_back("all within " + withUnit(f.minSpan, f.unit == "degC" ? "K" : f.unit) + " of " +
                             withUnit(0.5 * (m_lo + m_hi), f.unit),
                         scaleColour(0.5));
    else {
        out.emplace_back(withUnit(f.higherIsWorse ? m_lo : m_hi, f.unit), scaleColour(0.0));
        out.emplace_back(withUnit(f.higherIsWorse ? m_hi : m_lo, f.unit), scaleColour(1.0));
    }
    if (std::isfinite(f.limit))
        out.emplace_back("beyond " + withUnit(f.limit, f.unit) + " (" + f.limitLabel + ")", failColour());
    out.emplace_back("no figure", noDataColour());
    return out;
}

std::vector<std::unique_ptr<Colouring>> builtinColourings()
{
    std::vector<std::unique_ptr<Colouring>> out;
    out.push_back(std::make_unique<KindColouring>());
    out.push_back(std::make_unique<ProblemColouring>());
    return out;
}

} // namespace rdt::editor
