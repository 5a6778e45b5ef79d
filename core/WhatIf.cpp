#include "core/WhatIf.h"

#include <algorithm>
#include <limits>

namespace rdt::core {

Range gpuCapRange(const Catalog& catalog, const Part& chassis)
{
    const Part* gpu = catalog.find(chassis.text("gpus.part"));
    if (!gpu)
        return {1.0, 5000.0};
    return {gpu->value("min_power_cap", gpu->value("power.idle", 1.0)), gpu->value("tdp", 5000.0)};
}

long long rotorCount(const Part& part)
{
    return static_cast<long long>(part.value("fans.count", 0) * part.value("fans.rotors_per_fan", 1));
}

std::string gpuCapWhatIfError(const Design& design, double capW)
{
    bool anyGpu = false;
    for (const Rack& r : design.racks)
        for (const Slot& s : r.slots) {
            if (Design::gpuCount(*s.part) == 0)
                continue;
            anyGpu = true;
            // The value to the digits that tell it from the bound it passes: 700.0001 W read "700 W" is
            // outside … 700 W (trust trial, 2026-12-07).
            const Range range = gpuCapRange(*design.catalog, *s.part);
            const std::string text =
                formatQuantityBeside(capW, capW > range.max ? range.max : range.min, Dimension::Power);
            const std::string why = rangeError(text, capW, Dimension::Power, range);
            if (!why.empty())
                return why + " (the power caps " + s.part->text("gpus.part") + " in " + s.part->slug + " accepts, " +
                       "as gpu_power_cap does; first at " + s.id + ")";
        }
    return anyGpu ? std::string() : "the design has no GPU chassis: a GPU cap would change nothing";
}

std::string fanFailWhatIfError(const Design& design, int extra)
{
    // The chassis with the fewest working rotors bounds the what-if: each chassis' failed_fans plus
    // `extra` must stay within its rotors, as failed_fans alone must in the file.
    long long room = std::numeric_limits<long long>::max();
    const Slot* tightest = nullptr;
    for (const Rack& r : design.racks)
        for (const Slot& s : r.slots) {
            if (s.part->kind != PartKind::Chassis || rotorCount(*s.part) == 0)
                continue;
            const long long left = rotorCount(*s.part) - s.overrides.failedFanRotors;
            if (left < room) {
                room = left;
                tightest = &s;
            }
        }
    if (!tightest)
        return extra == 0 ? std::string()
                          : "no chassis of the design has fans in the catalog: failed rotors would change nothing";
    if (extra >= 0 && extra <= room)
        return {};
    std::string why = "value " + std::to_string(extra) + " is outside the allowed range 0 … " + std::to_string(room) +
                      " (" + tightest->part->slug + " has " + std::to_string(rotorCount(*tightest->part)) +
                      " fan rotors";
    if (tightest->overrides.failedFanRotors > 0)
        why += ", " + std::to_string(tightest->overrides.failedFanRotors) + " of them failed in the file at " +
               tightest->id;
    return why + ")";
}

namespace {

bool lostWith(const std::string& lost, const Rack& rack, const Slot& shelf)
{
    if (lost.empty() || shelf.part->kind != PartKind::PowerShelf)
        return false;
    if (!shelf.overrides.feed.empty())
        return shelf.overrides.feed == lost;
    for (const Slot& s : rack.slots)
        if (s.part->kind == PartKind::PowerShelf && !s.overrides.feed.empty())
            return true;
    return false;
}

} // namespace

bool shelfLostWithFeed(const Design& design, const Rack& rack, const Slot& shelf)
{
    return lostWith(design.scenario.lostFeed, rack, shelf);
}

std::string feedLossWhatIfError(const Design& design, const std::string& feed)
{
    if (feed != "A" && feed != "B")
        return "feed must be A or B, not \"" + clipped(feed) + "\"";
    // A shelf on the feed, or one on no named feed beside shelves that name theirs (lost with either).
    for (const Rack& r : design.racks)
        for (const Slot& s : r.slots)
            if (lostWith(feed, r, s))
                return {};
    return "no power shelf of the design is on feed " + feed + " (a shelf's feed: " + feed +
           "): losing it would change nothing";
}

std::string pumpFailWhatIfError(const Design& design, int n, int failedCdus)
{
    if (design.liquid.loops.empty())
        return "the design has no liquid loop: nothing to change";
    if (n < 1)
        return "the number of failed pumps must be at least 1";
    for (const LiquidLoop& l : design.liquid.loops) {
        const int up = l.count - std::max(failedCdus, 0);
        const int pumps = up * static_cast<int>(l.cdu->value("cdu.pumps", 1));
        if (n >= pumps)
            return "liquid loop " + l.id + " has " + std::to_string(pumps) + " pump" + (pumps == 1 ? "" : "s") +
                   " (" + std::to_string(up) + " x " + l.cdu->slug +
                   (up < l.count ? ", " + std::to_string(l.count - up) + " CDU" + (l.count - up == 1 ? "" : "s") +
                                       " failed"
                                 : std::string()) +
                   "): " + std::to_string(n) + " failed would leave none running";
    }
    return {};
}

std::string cduFailWhatIfError(const Design& design, int n)
{
    if (design.liquid.loops.empty())
        return "the design has no liquid loop: nothing to change";
    if (n < 1)
        return "the number of failed CDUs must be at least 1";
    for (const LiquidLoop& l : design.liquid.loops)
        if (n >= l.count)
            return "liquid loop " + l.id + " has " + std::to_string(l.count) + " CDU" + (l.count == 1 ? "" : "s") +
                   " (" + l.cdu->slug + "): " + std::to_string(n) + " failed would leave none running";
    return {};
}

} // namespace rdt::core
