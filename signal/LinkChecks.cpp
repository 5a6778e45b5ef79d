#include "signal/LinkChecks.h"

#include <cmath>
#include <limits>

namespace rdt::signal {

using core::Dimension;

namespace {

constexpr double kOpenUM = 0.048;

/// Calls `fn(rack, fromSlot, nearestToSlot or nullptr)` for each from-end instance of a rack-scope class.
template <typename Fn>
void forEachRackLink(const core::Design& d, const core::LinkClass& l, Fn fn)
{
    if (l.scope != "rack")
        return;
    for (const core::Rack& rack : d.racks) {
        for (const core::Slot& from : rack.slots) {
            if (from.part->slug != l.from.partSlug)
                continue;
            const core::Slot* best = nullptr;
            double bestDist = std::numeric_limits<double>::max();
            for (const core::Slot& to : rack.slots) {
                if (&to == &from || to.part->slug != l.to.partSlug)
                    continue;
                const double dist = std::fabs((to.ou + to.top()) - (from.ou + from.top()));
                if (dist < bestDist) {
                    bestDist = dist;
                    best = &to;
                }
            }
            fn(rack, from, best);
        }
    }
}

void checkEndpoints(core::CheckContext& ctx)
{
    for (const core::LinkClass& l : ctx.design().links)
        forEachRackLink(ctx.design(), l, [&](const core::Rack& rack, const core::Slot& from, const core::Slot* to) {
            if (!to)
                ctx.report(from.id,
                           "link class " + l.id + ": " + from.name + " (" + from.part->slug + ") has no " +
                               l.to.partSlug + " in rack " + rack.id + " to connect to",
                           0, 1, "parts", from.loc);
        });
}

void checkReach(core::CheckContext& ctx)
{
    const double slack = ctx.constraint("routing_slack");
    for (const core::LinkClass& l : ctx.design().links) {
        if (!l.cable)
            continue;
        const double length = l.lengthM.value_or(l.cable->value("length", 0.0));
        const auto reach = l.cable->find("max_reach");
        if (reach && length > *reach)
            ctx.report("links/" + l.id,
                       "link class " + l.id + ": " + formatQuantity(length, Dimension::Length) + " of " +
                           l.cable->slug + " exceeds its " + formatQuantity(*reach, Dimension::Length) + " reach",
                       length, *reach, "m", l.loc);
        if (length <= 0.0)
            continue;
        forEachRackLink(ctx.design(), l, [&](const core::Rack&, const core::Slot& from, const core::Slot* to) {
            if (!to)
                return;
            const double need = requiredCableLengthM(from, *to, kOpenUM, slack);
            if (need > length)
                ctx.report(from.id,
                           "link class " + l.id + ": " + from.name + " to " + to->name + " needs about " +
                               formatQuantity(need, Dimension::Length) + " of cable, " + l.cable->slug + " is " +
                               formatQuantity(length, Dimension::Length),
                           need, length, "m", from.loc);
        });
    }
}

} // namespace

double requiredCableLengthM(const core::Slot& a, const core::Slot& b, double ouPitchM, double slackM)
{
    const double midA = 0.5 * (a.ou - 1 + a.top());
    const double midB = 0.5 * (b.ou - 1 + b.top());
    return std::fabs(midA - midB) * ouPitchM + slackM;
}

void registerChecks(core::CheckRegistry& registry)
{
    registry.add({"link.endpoint.missing",
                  "Rack-scope links need their far end in the rack",
                  core::Severity::Error,
                  "design link classes (docs/design-format.md)",
                  "A link class of scope rack names a far-end part that the rack does not hold.",
                  {}},
                 checkEndpoints);
    registry.add({"signal.cable.reach",
                  "Cables long enough for the placement and within reach",
                  core::Severity::Error,
                  "IEEE P802.3ck objectives: passive copper at 100 Gb/s per lane reaches at least 2 m [E1]; NVIDIA "
                  "MCP4Y10 DAC 0.5–2 m [N3]",
                  "A cable's length exceeds its max_reach, or the distance between the two parts (vertical OU "
                  "distance plus routing slack) exceeds the cable's length.",
                  {{"routing_slack", {0.5, Dimension::Length}}}},
                 checkReach);
}

} // namespace rdt::signal
