#include "editor/Colouring.h"

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

std::vector<std::unique_ptr<Colouring>> builtinColourings()
{
    std::vector<std::unique_ptr<Colouring>> out;
    out.push_back(std::make_unique<KindColouring>());
    out.push_back(std::make_unique<ProblemColouring>());
    return out;
}

} // namespace rdt::editor
