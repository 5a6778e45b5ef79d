#include "power/PowerChecks.h"

#include <algorithm>

namespace rdt::power {

using core::PartKind;

namespace {

void checkPowerSource(core::CheckContext& ctx)
{
    for (const core::Rack& rack : ctx.design().racks) {
        const bool hasShelf = std::any_of(rack.slots.begin(), rack.slots.end(),
                                          [](const core::Slot& s) { return s.part->kind == PartKind::PowerShelf; });
        if (hasShelf)
            continue;
        for (const core::Slot& s : rack.slots)
            if (s.part->busbarTap)
                ctx.report(s.id,
                           s.name + " (" + s.part->slug + ") draws from the 48 V busbar but rack " + rack.id +
                               " has no power shelf",
                           0, 1, "shelves", s.loc);
    }
}

} // namespace

void registerChecks(core::CheckRegistry& registry)
{
    registry.add({"orv3.power.source",
                  "Busbar-fed parts need a power shelf in their rack",
                  core::Severity::Error,
                  "Open Rack V3 power system: 48 V busbar fed by PSU shelves [P1][R8]",
                  "A part with busbar_tap sits in a rack that holds no power-shelf part.",
                  {}},
                 checkPowerSource);
}

} // namespace rdt::power
