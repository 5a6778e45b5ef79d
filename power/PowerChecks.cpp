#include "power/PowerChecks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "power/Budget.h"

namespace rdt::power {

using core::Dimension;
using core::formatQuantity;
using core::formatQuantityBeside;
using core::PartKind;

namespace {

constexpr const char* kMetaReq = "Meta Network Hardware Switch Requirements v1.0 [R8]";

void checkPowerSource(core::CheckContext& ctx)
{
    const auto result = powerFor(ctx.design(), ctx.results());
    for (const RackPower& r : result->racks) {
        if (!r.fails("orv3.power.source"))
            continue;
        const core::Rack& rack = ctx.design().racks[static_cast<std::size_t>(r.rack)];
        // A rack whose shelves a lost-feed what-if took is not a rack without shelves: say which
        // (it read "has no power shelf" beside two shelves; trust trial, 2026-12-07).
        std::size_t shelves = 0;
        for (const core::Slot& s : rack.slots)
            shelves += s.part->kind == core::PartKind::PowerShelf ? 1 : 0;
        const std::string& lost = ctx.design().scenario.lostFeed;
        const std::string why =
            shelves == 0 || lost.empty() ? " has no power shelf"
                                         : "'s " + std::to_string(shelves) + (shelves == 1 ? " power shelf is" : " power shelves are") +
                               " lost with feed " + lost +
                               " (on it, or on no named feed beside shelves that name theirs)";
        for (const core::Slot& s : rack.slots)
            if (s.part->busbarTap)
                ctx.report(s.id, s.name + " (" + s.part->slug + ") draws from the 48 V busbar but rack " + rack.id + why,
                           0, 1, "shelves", s.loc);
    }
}

const core::Rack& rackOf(const core::CheckContext& ctx, const RackPower& r)
{
    return ctx.design().racks[static_cast<std::size_t>(r.rack)];
}

std::string capAdvice(const RackPower& r, const CapAdvice& limit)
{
    if (r.gpus == 0)
        return "";
    std::string out;
    char buf[128];
    if (limit.needed && !limit.possible)
        out = "; no GPU power cap down to the minimum clears this limit";
    else if (limit.needed) {
        std::snprintf(buf, sizeof buf, "; a per-GPU cap of %.0f W clears this limit", std::floor(limit.capW));
        out = buf;
    }
    if (!r.capCanFit)
        return out + (out.empty() ? "; " : ", ") + "no cap down to the minimum clears every failing power rule";
    if (!std::isnan(r.gpuCapToFitW)) {
        std::snprintf(buf, sizeof buf, "%s%.0f W clears every failing power rule", out.empty() ? "; " : ", ",
                      std::floor(r.gpuCapToFitW));
        out += buf;
    }
    return out;
}

/// The rack's cap advice for one failing rule (not needed when it does not fail).
CapAdvice adviceFor(const RackPower& r, const std::string& rule)
{
    for (const auto& [id, a] : r.capByRule)
        if (id == rule)
            return a;
    return {};
}

/// Iterate over powered racks with the shared power result.
template <typename Fn>
void eachRack(core::CheckContext& ctx, Fn fn)
{
    const auto result = powerFor(ctx.design(), ctx.results());
    for (const RackPower& r : result->racks)
        fn(r, rackOf(ctx, r));
}

void checkCapacity(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.shelf.capacity"))
            return;
        char share[64];
        std::snprintf(share, sizeof share, " (%.0f %% of it, every rectifier up)", 100.0 * r.itLoadW / r.capacityNW);
        ctx.report(rack.id,
                   "load " + formatQuantityBeside(r.itLoadW, r.capacityNW, Dimension::Power) +
                       " exceeds the shelves' full capacity " +
                       formatQuantityBeside(r.capacityNW, r.itLoadW, Dimension::Power) + share +
                       capAdvice(r, adviceFor(r, "orv3.shelf.capacity")),
                   r.itLoadW / 1e3, r.capacityNW / 1e3, "kW", rack.loc);
    });
}

void checkN1(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.shelf.n1"))
            return;
        const double limit = r.n1LimitW();
        const bool rackBinds = limit < r.capacityN1W; // the rack type's rating, below its shelves' N+1
        ctx.report(rack.id,
                   "load " + formatQuantityBeside(r.itLoadW, limit, Dimension::Power) +
                       (rackBinds ? " exceeds the rack type's rated N+1 load " +
                                        formatQuantityBeside(limit, r.itLoadW, Dimension::Power) + " (" +
                                        rack.rackType->slug + " power_n1; its shelves give " +
                                        formatQuantity(r.capacityN1W, Dimension::Power) + " with one rectifier lost)"
                                  : " exceeds the N+1 shelf capacity " +
                                        formatQuantityBeside(limit, r.itLoadW, Dimension::Power) +
                                        " (one rectifier lost)") +
                       capAdvice(r, r.capN1),
                   r.itLoadW / 1e3, limit / 1e3, "kW", rack.loc);
    });
}

void checkFeedCapacity(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("power.feed.capacity"))
            return;
        for (const FeedPower& f : r.feeds) {
            if (f.worstW <= f.availableW)
                continue;
            const bool otherLost = f.worstW > f.inputW;
            const core::RackFeed* decl = nullptr;
            for (const core::RackFeed& d : rack.feeds)
                decl = d.name == f.name ? &d : decl;
            ctx.report(rack.id,
                       "feed " + f.name + " carries " + formatQuantityBeside(f.worstW, f.availableW, Dimension::Power) +
                           (otherLost ? " with the other feed lost" : "") + ", more than the " +
                           formatQuantityBeside(f.availableW, f.worstW, Dimension::Power) +
                           " its circuit may carry" +
                           (decl && !decl->source.empty() ? " (" + decl->source + ")" : "") + capAdvice(r, {}),
                       f.worstW / 1e3, f.availableW / 1e3, "kW", decl ? decl->loc : rack.loc);
        }
    });
}

/// Where a part's violation points: its own slot's line (a shelf's clip or whips, a load point on the
/// bar), else the rack's (a clip violation pointed at the rack; trust trial, 2026-12-07).
const core::SourceLoc& locOf(const core::Rack& rack, const std::string& id)
{
    for (const core::Slot& s : rack.slots)
        if (s.id == id)
            return s.loc;
    return rack.loc;
}

void checkBusbarCurrent(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.busbar.current"))
            return;
        if (r.busbarCurrentA > r.busbarRatingA)
            ctx.report(rack.id,
                       "busbar current " + formatQuantityBeside(r.busbarCurrentA, r.busbarRatingA, Dimension::Current) +
                           " at " + formatQuantity(r.busbarVminV, Dimension::Voltage) + " exceeds the " +
                           formatQuantityBeside(r.busbarRatingA, r.busbarCurrentA, Dimension::Current) + " rating of " +
                           rack.rackType->slug +
                           capAdvice(r, r.capBusbar),
                       r.busbarCurrentA, r.busbarRatingA, "A", rack.loc);
        // Each clip at its own current (a shelf's output or a part's input at the bar's minimum voltage).
        if (!std::isnan(r.clipRatingA))
            for (const ClipCurrent& c : r.clips)
                if (c.currentA > r.clipRatingA)
                    ctx.report(c.id,
                               "busbar clip of " + c.id + " carries " +
                                   formatQuantityBeside(c.currentA, r.clipRatingA, Dimension::Current) +
                                   " (" + formatQuantity(c.powerW, Dimension::Power) + " at " +
                                   formatQuantity(r.busbarVminV, Dimension::Voltage) +
                                   (c.lostFeed.empty()    ? ""
                                    : c.lostFeed == "all" ? " on battery, the AC lost"
                                                          : " with feed " + c.lostFeed + " lost") +
                                   "), more than its " +
                                   formatQuantity(r.clipRatingA, Dimension::Current) + " rating" +
                                   capAdvice(r, r.capBusbar),
                               c.currentA, r.clipRatingA, "A", locOf(rack, c.id));
    });
}

void checkVoltage(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.busbar.voltage"))
            return;
        if (!r.busbarConverged) {
            ctx.report(rack.id, "the busbar cannot deliver the load: the voltage collapses", 0, r.busbarVminV, "V",
                       rack.loc);
            return;
        }
        for (const LoadPoint& l : r.loads) {
            if (l.voltageV < r.busbarVminV)
                ctx.report(l.id,
                           "busbar voltage at " + l.id + " is " + formatQuantity(l.voltageV, Dimension::Voltage, 4) +
                               ", below the " + formatQuantity(r.busbarVminV, Dimension::Voltage) + " steady minimum",
                           l.voltageV, r.busbarVminV, "V", locOf(rack, l.id));
            else if (l.voltageV > r.busbarVmaxV)
                ctx.report(l.id,
                           "busbar voltage at " + l.id + " is " + formatQuantity(l.voltageV, Dimension::Voltage, 4) +
                               ", above the " + formatQuantity(r.busbarVmaxV, Dimension::Voltage) + " steady maximum",
                           l.voltageV, r.busbarVmaxV, "V", locOf(rack, l.id));
        }
    });
}

void checkFeedLoss(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.feed.loss"))
            return;
        ctx.report(rack.id,
                   "with one AC feed lost the shelves give " +
                       formatQuantityBeside(r.capacityFeedLossW, r.itLoadW, Dimension::Power) + " for a load of " +
                       formatQuantityBeside(r.itLoadW, r.capacityFeedLossW, Dimension::Power) +
                       (r.unnamedFeedShelves > 0
                            ? " (" + std::to_string(r.unnamedFeedShelves) +
                                  (r.unnamedFeedShelves == 1 ? " shelf names" : " shelves name") +
                                  " no feed: counted lost with either feed; name it A or B)"
                            : "") +
                       capAdvice(r, r.capFeedLoss),
                   r.itLoadW / 1e3, r.capacityFeedLossW / 1e3, "kW", rack.loc);
    });
}

void checkHoldup(core::CheckContext& ctx)
{
    const double required = ctx.constraint("ride_through");
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.bbu.holdup"))
            return;
        const double chargedW = bbuChargedRatingW(r.bbus); // the shelves that can discharge at all
        std::string why =
            r.bbuEnergyJ <= 0 && r.bbuDischargeW > 0
                ? "its BBU shelves' catalog entries give no energy or holdup_at_rating (counted as none)"
            : r.bbuEnergyJ <= 0 ? "the rack has no BBU shelf"
            : r.itLoadW > chargedW
                ? "the load exceeds the discharge limit of the BBU shelves holding energy, " +
                      formatQuantity(chargedW, Dimension::Power)
                : "BBU energy " + formatQuantity(r.bbuEnergyJ, Dimension::Energy) + " at " +
                      formatQuantity(r.itLoadW, Dimension::Power) +
                      (r.bbuHoldupS < r.bbuEnergyJ / r.itLoadW * (1.0 - 1e-9)
                           ? " (the shelves share the load by their ratings, each until its own energy is spent: " +
                                 firstEmptyBbu(r.bbus, r.itLoadW) +
                                 " runs out first, and the rack is dropped with energy left in shelves that cannot "
                                 "carry it)"
                           : std::string());
        ctx.report(rack.id,
                   "battery hold-up " + core::formatQuantityBeside(r.bbuHoldupS, required, Dimension::Time) +
                       " is below the required " + core::formatQuantityBeside(required, r.bbuHoldupS, Dimension::Time) +
                       ": " + why +
                       capAdvice(r, adviceFor(r, "orv3.bbu.holdup")),
                   r.bbuHoldupS, required, "s", rack.loc);
    });
}

void checkWhip(core::CheckContext& ctx)
{
    const double derating = ctx.constraint("breaker_derating");
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.ac.whip"))
            return;
        // Each shelf's whips at their own worst current (every feed up, or the other feed lost).
        for (const ShelfPower& sh : r.shelves) {
            const double limit = sh.whipBreakerA * derating;
            if (std::isnan(sh.whipBreakerA) || !(sh.whipCurrentWorstA > limit))
                continue;
            const bool feedLoss = sh.whipCurrentWorstA > sh.whipCurrentA;
            ctx.report(sh.id,
                       "AC whip current of " + sh.id + " " +
                           formatQuantityBeside(sh.whipCurrentWorstA, limit, Dimension::Current) +
                           (feedLoss ? " (the other AC feed lost)" : "") + " exceeds " +
                           formatQuantityBeside(limit, sh.whipCurrentWorstA, Dimension::Current) + " (" +
                           formatQuantity(sh.whipBreakerA, Dimension::Current) + " breaker derated to " +
                           formatQuantity(derating, Dimension::Ratio) + ")" +
                           capAdvice(r, adviceFor(r, "orv3.ac.whip")), // the rule's own cap, as the others
                       sh.whipCurrentWorstA, limit, "A", locOf(rack, sh.id));
        }
    });
}

void checkPulse(core::CheckContext& ctx)
{
    eachRack(ctx, [&](const RackPower& r, const core::Rack& rack) {
        if (!r.fails("orv3.psu.pulse"))
            return;
        const double limit = r.capacityN1W * r.pulseRatio;
        ctx.report(rack.id,
                   "peak load " + formatQuantity(r.peakLoadW, Dimension::Power) +
                       " exceeds the shelves' pulse rating " + formatQuantity(limit, Dimension::Power) + " (" +
                       formatQuantity(r.pulseRatio, Dimension::Ratio) + " of N+1)",
                   r.peakLoadW / 1e3, limit / 1e3, "kW", rack.loc);
    });
}

/// Figures the basis needed but the catalog lacks: said once per part, never borrowed.
void checkMissingFigures(core::CheckContext& ctx)
{
    // Once per note, at the first rack that has it, saying how many more racks share it (a fleet's
    // racks of one kind would repeat it thousands of times; naming one alone read as that rack's).
    const auto result = powerFor(ctx.design(), ctx.results());
    std::map<std::string, std::pair<const RackPower*, std::size_t>> notes;
    std::vector<std::string> order;
    for (const RackPower& r : result->racks)
        for (const std::string& note : r.notes) {
            auto [it, fresh] = notes.try_emplace(note, &r, 0);
            it->second.second += 1;
            if (fresh)
                order.push_back(note);
        }
    for (const std::string& note : order) {
        const auto& [first, racks] = notes.at(note);
        ctx.report(first->id,
                   "not checked: " + note +
                       (racks > 1 ? " (this rack and " + std::to_string(racks - 1) + " other rack" +
                                        (racks > 2 ? "s" : "") + ")"
                                  : std::string()),
                   NAN, NAN, "", rackOf(ctx, *first).loc);
    }
}

} // namespace

std::map<std::string, RuleFailures> failuresByRule(const PowerResult& power, const std::vector<core::Violation>& all)
{
    // The violations of each (rule, rack): a rack's subject is the rack or a part of it.
    std::map<std::pair<std::string, std::string>, std::pair<std::size_t, std::size_t>> seen; // (all, waived)
    std::map<std::string, const RackPower*> byId;
    for (const RackPower& r : power.racks)
        byId[r.id] = &r;
    for (const core::Violation& v : all) {
        std::string rack = v.subject;
        while (!rack.empty() && !byId.count(rack)) {
            const std::size_t cut = rack.rfind('/');
            rack = cut == std::string::npos ? std::string() : rack.substr(0, cut);
        }
        if (rack.empty())
            continue;
        auto& [n, w] = seen[{v.rule, rack}];
        ++n;
        w += v.waived ? 1 : 0;
    }
    std::map<std::string, RuleFailures> out;
    for (const RackPower& r : power.racks)
        for (const std::string& f : r.failures) {
            RuleFailures& x = out[f];
            ++x.racks;
            const auto it = seen.find({f, r.id});
            if (it != seen.end() && it->second.first > 0 && it->second.first == it->second.second)
                ++x.waived;
        }
    return out;
}

void registerChecks(core::CheckRegistry& registry)
{
    using core::Severity;
    registry.add({"orv3.power.source",
                  "Busbar-fed parts need a power shelf in their rack",
                  Severity::Error,
                  "Open Rack V3 power system: 48 V busbar fed by PSU shelves [P1][R8]",
                  "A part with busbar_tap sits in a rack that holds no power-shelf part.",
                  {}},
                 checkPowerSource);
    registry.add({"orv3.shelf.capacity",
                  "Rack load within its shelves' full capacity",
                  Severity::Error,
                  "ORv3 power shelves: 6 × 3 kW = 18 kW [P1]; HPR 6 × 5.5 kW = 33 kW [R5][R8]; the shelves' own "
                  "ratings from the catalog",
                  "The rack's busbar load at its utilisation and caps exceeds what its shelves deliver with every "
                  "rectifier up: an overload, not a lost redundancy, so waiving orv3.shelf.n1 does not clear it. "
                  "The message names the per-GPU cap that makes it fit.",
                  {}},
                 checkCapacity);
    registry.add({"orv3.shelf.n1",
                  "Rack load within the shelves' N+1 capacity and the rack's rating",
                  Severity::Error,
                  "ORv3 power shelves with N+1 rectifiers: 6 × 3 kW, 15 kW with N+1 [P1]; HPR 6 × 5.5 kW, 27.5 kW "
                  "with N+1 [R5][R8]; the shelves' own ratings and the rack type's power_n1 from the catalog",
                  "The rack's busbar load at its utilisation and caps exceeds the shelf capacity with the largest "
                  "rectifier lost, or the rack type's rated N+1 load (its catalog power_n1) where that is lower. "
                  "The message names which, and the per-GPU cap that makes it fit.",
                  {}},
                 checkN1);
    registry.add({"orv3.busbar.current",
                  "Busbar current within the rack type's rating",
                  Severity::Error,
                  "Meta ORv3 variants: 375 A standard, 600 A, 700 A per HPR clip [R8]; I = P / V_min (45 V)",
                  "Busbar current, or the current through one clip (a shelf's output or a part's input), at the "
                  "rack type's minimum steady voltage exceeds the busbar rating or the per-clip rating. Every "
                  "current limit takes the one convention I = P / V_min (docs/power.md).",
                  {}},
                 checkBusbarCurrent);
    registry.add({"orv3.busbar.voltage",
                  "Busbar voltage at every part within 45–53 V",
                  Severity::Error,
                  std::string(kMetaReq) + ": DC input 45–53 V steady state",
                  "Voltage at a busbar-fed part, from the shelves' setpoint and droop and the bar's resistance, is "
                  "outside the rack type's steady window.",
                  {}},
                 checkVoltage);
    registry.add({"orv3.feed.loss",
                  "Rack survives the loss of one AC feed",
                  Severity::Error,
                  "Open Rack V3 power system: A/B feeds and N+N shelves [P1]",
                  "With feeds declared on the power shelves, the shelves left after losing the worst feed cannot "
                  "carry the load.",
                  {}},
                 checkFeedLoss);
    registry.add({"power.feed.capacity",
                  "Each AC feed within what its circuit may carry",
                  Severity::Error,
                  "Facility circuit: available power V × I (× √3 three-phase) × max utilisation, as NetBox's power "
                  "feeds state it; NEC 80 % continuous load",
                  "With `feeds:` declared on a rack (e.g. imported from NetBox power feeds), the AC input of the "
                  "shelves on a feed — or of all surviving shelves when the other feed is lost — plus parts with "
                  "their own AC supplies exceeds the feed's available power.",
                  {}},
                 checkFeedCapacity);
    registry.add({"orv3.bbu.holdup",
                  "Battery hold-up covers the required ride-through",
                  Severity::Error,
                  "ORv3 BBU shelf: 18 kW for 90 s [R5]; BBU modelled as stored energy with a discharge limit",
                  "Hold-up time is below the profile's ride_through: the BBU shelves share the load in proportion "
                  "to their ratings, each until its own energy is spent, the others then sharing it while their "
                  "ratings carry it (BBU energy / load where every shelf holds its rating equally long; zero when "
                  "the load exceeds the discharge limit).",
                  {{"ride_through", {90.0, Dimension::Time}}}},
                 checkHoldup);
    registry.add({"orv3.ac.whip",
                  "AC whip current within the derated breaker",
                  Severity::Error,
                  "ORv3 AC whips: 2 × 20 A (North America) per shelf [R5]; 80 % continuous-load derating (NEC)",
                  "Line current per whip conductor, balanced three-phase from L-N voltage, with the worst AC feed "
                  "lost when feeds are declared, exceeds the whip breaker times the derating.",
                  {{"breaker_derating", {0.8, Dimension::Ratio}}}},
                 checkWhip);
    registry.add({"power.figure.missing",
                  "Every figure the power budget needs is in the catalog",
                  Severity::Info,
                  "rdt: a figure a check needs but the catalog lacks is reported, never borrowed from another part",
                  "A part without power.max on the nameplate basis (budgeted at its modelled draw instead), a part "
                  "with neither power.max nor power.idle (its draw not known, counted as 0 W), a GPU "
                  "without min_power_cap or peak_power_ratio, a shelf without pulse_rating, whip_breaker, "
                  "input_voltage_ln, output_voltage (taken as 50 V), droop (none), input_phases or whips (one: the "
                  "whole input on one conductor), a rack type without busbar_resistance or busbar_min_voltage "
                  "(45 V): the message names the rule left unchecked or the assumption made.",
                  {}},
                 checkMissingFigures);
    registry.add({"orv3.psu.pulse",
                  "Peak load within the shelves' pulse rating",
                  Severity::Warning,
                  "ORv3 PSU pulse-load capability up to 155 % (HPR 160 %) [P2]",
                  "The rack load with GPUs at their short-term peak exceeds N+1 capacity times the shelves' pulse "
                  "rating.",
                  {}},
                 checkPulse);
}

} // namespace rdt::power
