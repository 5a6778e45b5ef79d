#include "core/MechanicalChecks.h"

#include "core/PartChecks.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace rdt::core {
namespace {

constexpr const char* kFrameSpec = "Meta Open Rack Frame V3 Specification (Charest, Banyard) [R3]; ORv3 Base Spec [R2]";

std::string ouRange(const Slot& s)
{
    return s.part->ouHeight == 1 ? "OU " + std::to_string(s.ou)
                                 : "OU " + std::to_string(s.ou) + "–" + std::to_string(s.top());
}

void checkOverlap(CheckContext& ctx)
{
    for (const Rack& rack : ctx.design().racks) {
        std::vector<const Slot*> slots;
        for (const Slot& s : rack.slots)
            slots.push_back(&s);
        std::sort(slots.begin(), slots.end(), [](const Slot* a, const Slot* b) { return a->ou < b->ou; });
        for (std::size_t i = 0; i < slots.size(); ++i)
            for (std::size_t j = i + 1; j < slots.size() && slots[j]->ou <= slots[i]->top(); ++j) {
                const Slot& a = *slots[i];
                const Slot& b = *slots[j];
                const int overlap = std::min(a.top(), b.top()) - b.ou + 1;
                ctx.report(b.id,
                           b.name + " (" + b.part->slug + ", " + ouRange(b) + ") overlaps " + a.name + " (" +
                               a.part->slug + ", " + ouRange(a) + ") by " + std::to_string(overlap) + " OU",
                           overlap, 0, "OU", b.loc);
            }
    }
}

void checkRange(CheckContext& ctx)
{
    for (const Rack& rack : ctx.design().racks) {
        const int usable = static_cast<int>(rack.rackType->value("usable_ou", 44));
        for (const Slot& s : rack.slots)
            if (s.top() > usable)
                ctx.report(s.id,
                           s.name + " (" + s.part->slug + ", " + ouRange(s) + ") reaches above the " +
                               std::to_string(usable) + " usable OU of " + rack.rackType->slug,
                           s.top(), usable, "OU", s.loc);
    }
}

/// Width and depth rules differ only in the fields they compare.
void checkDimension(CheckContext& ctx, const char* partField, const char* rackField, const char* what)
{
    for (const Rack& rack : ctx.design().racks) {
        const auto limit = rack.rackType->find(rackField);
        if (!limit)
            continue;
        for (const Slot& s : rack.slots) {
            const auto size = s.part->find(partField);
            if (size && *size > *limit + 1e-9)
                ctx.report(s.id,
                           s.part->slug + " is " + formatQuantity(*size, Dimension::Length) + " " + what +
                               ", more than the " + formatQuantity(*limit, Dimension::Length) + " of " +
                               rack.rackType->slug,
                           *size * 1e3, *limit * 1e3, "mm", s.loc);
        }
    }
}

void checkMass(CheckContext& ctx)
{
    for (const Rack& rack : ctx.design().racks) {
        const auto limit = rack.rackType->find("max_payload");
        if (!limit)
            continue;
        double mass = 0.0;
        for (const Slot& s : rack.slots)
            mass += s.part->value("weight", 0.0);
        if (mass > *limit)
            ctx.report(rack.id,
                       "payload " + formatQuantity(mass, Dimension::Mass) + " exceeds the " +
                           formatQuantity(*limit, Dimension::Mass) + " rating of " + rack.rackType->slug,
                       mass, *limit, "kg", rack.loc);
    }
}

/// Figures the mechanical rules need but the catalog lacks: one info per part and figure, naming
/// the rule left unchecked or the value taken (never another part's figure).
void checkMissingFigures(CheckContext& ctx)
{
    std::set<std::string> seen;
    const auto note = [&](const Part& p, const std::string& text) {
        if (seen.insert(p.slug + text).second)
            ctx.report(p.slug, "not checked: " + p.slug + " has no " + text, NAN, NAN, "", p.loc);
    };
    for (const Rack& rack : ctx.design().racks) {
        const Part& type = *rack.rackType;
        if (!type.find("usable_ou"))
            note(type, "usable_ou (taken as 44 OU: orv3.slot.range)");
        if (!type.find("bay_width"))
            note(type, "bay_width (orv3.part.width)");
        if (!type.find("frame_depth"))
            note(type, "frame_depth (orv3.part.depth)");
        if (!type.find("max_payload"))
            note(type, "max_payload (orv3.rack.mass)");
        for (const Slot& s : rack.slots) {
            if (!s.part->find("width"))
                note(*s.part, "width (orv3.part.width)");
            if (!s.part->find("depth"))
                note(*s.part, "depth (orv3.part.depth)");
            if (!s.part->find("weight"))
                note(*s.part, "weight (counted as 0 kg: orv3.rack.mass)");
        }
    }
}

} // namespace

void registerChecks(CheckRegistry& registry)
{
    registry.add({"orv3.slot.overlap",
                  "Parts must not share OU positions",
                  Severity::Error,
                  kFrameSpec,
                  "Two parts in one rack occupy at least one common OpenU position.",
                  {}},
                 checkOverlap);
    registry.add({"orv3.slot.range",
                  "Parts must fit in the rack's usable OU",
                  Severity::Error,
                  std::string(kFrameSpec) + " — 44 usable OU",
                  "A part's top OU lies above the rack type's usable_ou (44 OU for ORv3).",
                  {}},
                 checkRange);
    registry.add({"orv3.part.width",
                  "Parts must fit the 21-inch equipment bay",
                  Severity::Error,
                  "ORv3 Base Spec [R2]: 21 in (537 mm) IT equipment opening; Meta blade max width 529 mm [R8]",
                  "A part's width exceeds the rack type's bay_width.",
                  {}},
                 [](CheckContext& c) { checkDimension(c, "width", "bay_width", "wide"); });
    registry.add({"orv3.part.depth",
                  "Parts must fit the frame depth",
                  Severity::Error,
                  "ORv3 frame depth 1,068 mm (42 in), HPR 1,219 mm (48 in) [R5]",
                  "A part's depth exceeds the rack type's frame_depth.",
                  {}},
                 [](CheckContext& c) { checkDimension(c, "depth", "frame_depth", "deep"); });
    registry.add({"orv3.rack.mass",
                  "Rack payload within its rating",
                  Severity::Error,
                  std::string(kFrameSpec) + " — maximum payload 1,400 kg",
                  "Sum of the catalog weights of the parts in a rack exceeds the rack type's max_payload. Parts "
                  "without a weight count as 0 kg.",
                  {}},
                 checkMass);
    registry.add({"mechanical.figure.missing",
                  "Every figure the mechanical rules need is in the catalog",
                  Severity::Info,
                  "rdt: a figure a check needs but the catalog lacks is reported, never borrowed from another part",
                  "A rack type without usable_ou (taken as 44 OU), bay_width, frame_depth or max_payload, or a part "
                  "in a rack without width, depth or weight (counted as 0 kg): the message names the rule left "
                  "unchecked or the value taken.",
                  {}},
                 checkMissingFigures);
    registerPartChecks(registry);
}

} // namespace rdt::core
