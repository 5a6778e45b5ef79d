#include "power/BudgetDetail.h"

#include "core/Design.h"

namespace rdt::power {

using detail::noteOnce;

/// Figures a power rule needs but the catalog lacks: noted (and reported by power.figure.missing),
/// never taken from another part.
void detail::missingFigures(const core::Design& d, const core::Rack& r,
                            const std::vector<const core::Slot*>& shelfSlots, RackPower& out)
{
    for (const core::Slot& s : r.slots)
        if (core::Design::gpuCount(*s.part) > 0)
            if (const core::Part* gpu = d.catalog->find(s.part->text("gpus.part"));
                gpu && !gpu->find("peak_power_ratio"))
                noteOnce(out, gpu->slug + " has no peak_power_ratio (its peak taken at its cap: orv3.psu.pulse and "
                                          "the peak basis)");
    // A cap the design sets on a GPU whose lowest settable cap the catalog lacks: the cap is taken as
    // the GPU would accept it (its range then runs down to its idle power), which nothing checked.
    for (const core::Slot& s : r.slots)
        if (s.overrides.gpuPowerCapW && core::Design::gpuCount(*s.part) > 0)
            if (const core::Part* gpu = d.catalog->find(s.part->text("gpus.part")); gpu && !gpu->find("min_power_cap"))
                noteOnce(out, gpu->slug + " has no min_power_cap: the design's gpu_power_cap on it is not checked "
                                          "against the lowest cap the GPU accepts");
    for (const core::Slot& s : r.slots)
        if (s.part->kind == core::PartKind::BbuShelf && !s.part->find("energy") && !s.part->find("holdup_at_rating"))
            noteOnce(out, s.part->slug + " has no energy or holdup_at_rating (no stored energy counted: "
                                         "orv3.bbu.holdup)");
    for (const core::Slot* s : shelfSlots) {
        if (!s->part->find("pulse_rating"))
            noteOnce(out, s->part->slug + " has no pulse_rating (orv3.psu.pulse)");
        if (!s->part->find("whip_breaker"))
            noteOnce(out, s->part->slug + " has no whip_breaker (orv3.ac.whip)");
        if (!s->part->curve("efficiency_curve") && !s->part->find("efficiency_full_load"))
            noteOnce(out, s->part->slug +
                              " has no efficiency_curve or efficiency_full_load (taken as lossless: AC input and its "
                              "heat understated)");
        if (!s->part->find("output_voltage"))
            noteOnce(out, s->part->slug + " has no output_voltage (taken as 50 V: orv3.busbar.voltage and the "
                                          "shelves' sharing)");
        if (!s->part->find("droop"))
            noteOnce(out, s->part->slug + " has no droop (taken as none: the shelves' sharing of the bar)");
        if (!s->part->find("input_phases"))
            noteOnce(out, s->part->slug + " has no input_phases (taken as one phase carrying the whole input: "
                                          "orv3.ac.whip)");
        if (!s->part->find("whips"))
            noteOnce(out, s->part->slug + " has no whips (taken as one whip carrying the whole input: orv3.ac.whip)");
        if (!s->part->find("input_voltage_ln"))
            noteOnce(out, s->part->slug + " has no input_voltage_ln (AC phase and whip currents: orv3.ac.whip)");
    }
    if (!shelfSlots.empty() && !r.rackType->find("busbar_resistance"))
        noteOnce(out, r.rackType->slug + " has no busbar_resistance (a lossless bar: orv3.busbar.voltage)");
    if (!shelfSlots.empty() && !r.rackType->find("busbar_min_voltage"))
        noteOnce(out, r.rackType->slug + " has no busbar_min_voltage (taken as 45 V: orv3.busbar.voltage)");
}

} // namespace rdt::power
