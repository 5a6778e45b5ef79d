#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "models/PowerModels.h"
#include "power/BudgetDetail.h"

// Cap advice: the per-GPU cap that clears each failing power rule, normal operation's limits and
// the named limits. Every rule's measure grows with the cap, so each cap is the root of that
// rule's excess (measure / limit − 1), found by models::largestWithin.

namespace rdt::power::detail {

namespace {

/// The busbar load a rule allows when the rule judges the load alone (N+1, feed loss, shelf loss,
/// hold-up, the bar's current on racks not rated per clip); nullopt for the others.
std::optional<double> loadLimit(const std::string& rule, const RackPower& r, const PowerOptions& o)
{
    if (rule == "orv3.shelf.capacity")
        return r.capacityNW;
    if (rule == "orv3.shelf.n1")
        return r.n1LimitW();
    if (rule == "orv3.feed.loss" && !std::isnan(r.capacityFeedLossW))
        return r.capacityFeedLossW;
    if (rule == "shelf loss")
        return r.capacityShelfLossW;
    if (rule == "orv3.bbu.holdup" && r.bbuEnergyJ > 0)
        return bbuLoadForHoldup(r.bbus, o.rideThroughS);
    if (rule == "orv3.busbar.current" && std::isnan(r.clipRatingA))
        return r.busbarRatingA * r.busbarVminV;
    return std::nullopt;
}

/// The cap range the rack's GPUs allow: their highest minimum cap and highest TDP.
std::pair<double, double> capRange(const core::Design& d, const core::Rack& r, RackPower& out)
{
    double tdp = 0, lo = 0;
    for (const core::Slot& s : r.slots)
        if (s.part->kind == core::PartKind::Chassis && core::Design::gpuCount(*s.part) > 0) {
            tdp = std::max(tdp, models::gpuTdpW(*s.part, *d.catalog));
            double minCap = models::gpuMinCapW(*s.part, *d.catalog);
            if (std::isnan(minCap)) {
                const core::Part* gpu = d.catalog->find(s.part->text("gpus.part"));
                minCap = gpu ? gpu->value("power.idle", 1.0) : 1.0;
                noteOnce(out, (gpu ? gpu->slug : s.part->slug) +
                                  " has no min_power_cap (cap advice searched down to its idle power)");
            }
            lo = std::max(lo, minCap);
        }
    return {lo, tdp};
}

/// `measure / limit − 1`: above zero when beyond the limit; +∞ for a zero limit with a load.
double over(double measure, double limit)
{
    if (limit > 0)
        return measure / limit - 1.0;
    return measure > 0 ? INFINITY : -1.0;
}

/// How far the rack is beyond a power rule's limit (≤ 0: within), for a rule a lower GPU cap can
/// clear; nullopt where none can (no power shelf, no battery, a voltage above the window).
std::optional<double> excess(const std::string& rule, const RackPower& r, const PowerOptions& o)
{
    if (rule == "orv3.shelf.capacity")
        return over(r.itLoadW, r.capacityNW);
    if (rule == "orv3.shelf.n1")
        return over(r.itLoadW, r.n1LimitW());
    if (rule == "orv3.feed.loss")
        return std::isnan(r.capacityFeedLossW) ? -1.0 : over(r.itLoadW, r.capacityFeedLossW);
    if (rule == "orv3.busbar.current")
        return std::max(over(r.busbarCurrentA, r.busbarRatingA),
                        std::isnan(r.clipRatingA) ? -1.0 : over(r.maxClipCurrentA, r.clipRatingA));
    if (rule == "orv3.busbar.voltage") {
        if (!r.busbarConverged)
            return 1.0;
        double worst = -1.0;
        for (const LoadPoint& l : r.loads) {
            if (l.voltageV > r.busbarVmaxV)
                return std::nullopt; // less load only raises it
            worst = std::max(worst, over(r.busbarVminV, l.voltageV));
        }
        return worst;
    }
    if (rule == "orv3.bbu.holdup") {
        if (r.bbuEnergyJ <= 0)
            return std::nullopt; // no battery: no cap gives the rack one
        return over(r.itLoadW, bbuLoadForHoldup(r.bbus, o.rideThroughS));
    }
    if (rule == "orv3.ac.whip")
        return whipExcess(r, o, false);
    if (rule == "orv3.psu.pulse")
        return std::isnan(r.pulseRatio) ? -1.0 : over(r.peakLoadW, r.capacityN1W * r.pulseRatio);
    if (rule == "power.feed.capacity") {
        double worst = -1.0;
        for (const FeedPower& f : r.feeds)
            worst = std::max(worst, over(f.worstW, f.availableW));
        return worst;
    }
    return std::nullopt; // orv3.power.source
}

/// The largest current a shelf's busbar clip carries with one other shelf lost (A): the survivors
/// share the whole load in proportion to their ratings, at the bar's minimum steady voltage.
double shelfLossClipCurrentA(const RackPower& r)
{
    double total = 0;
    for (const ShelfPower& sh : r.shelves)
        total += sh.ratingW;
    double worst = 0;
    for (std::size_t lost = 0; lost < r.shelves.size(); ++lost) {
        const double remaining = total - r.shelves[lost].ratingW;
        for (std::size_t i = 0; i < r.shelves.size(); ++i)
            if (i != lost && remaining > 0)
                worst = std::max(worst, r.itLoadW * r.shelves[i].ratingW / remaining / r.busbarVminV);
    }
    return worst;
}

/// How far the rack is beyond its normal-operation limits (every feed, shelf and rectifier up):
/// the shelves' N capacity, busbar and clip currents, the voltage floor, whips and feed circuits.
double normalExcess(const RackPower& r, const PowerOptions& o)
{
    double worst = over(r.itLoadW, r.capacityNW);
    worst = std::max(worst, over(r.busbarCurrentA, r.busbarRatingA));
    if (!std::isnan(r.clipRatingA)) // every feed up: a clip's current with a feed lost is the failure case's
        worst = std::max(worst, over(r.maxClipCurrentNormalA, r.clipRatingA));
    if (!r.busbarConverged)
        worst = std::max(worst, 1.0);
    for (const LoadPoint& l : r.loads)
        worst = std::max(worst, over(r.busbarVminV, l.voltageV));
    worst = std::max(worst, whipExcess(r, o, true));
    for (const FeedPower& f : r.feeds)
        worst = std::max(worst, over(f.inputW, f.availableW));
    return worst;
}

} // namespace

void adviseCaps(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, RackPower& out)
{
    if (out.gpus == 0)
        return;
    if (!out.fed) {
        // No power shelf: no cap feeds the rack (orv3.power.source); its GPUs are counted as not
        // running, as every rack that cannot be fed.
        out.capNormal = {true, false, NAN};
        out.capCanFit = false;
        return;
    }
    const std::pair<double, double> range = capRange(d, d.racks[rackIndex], out);
    const double lo = range.first, hi = range.second; // not a structured binding: clang 14 cannot capture one
    if (!(hi > 0))
        return;
    // Every measure grows with the cap: the cap that clears a limit is the root of its excess.
    const auto capWhere = [&](const std::function<std::optional<double>(const RackPower&)>& measure) {
        CapAdvice a;
        a.needed = true;
        if (measure(out))
            a.capW = models::largestWithin(lo, hi, 0.0, 0.25, [&](double cap) {
                const std::optional<double> e = measure(evaluate(d, rackIndex, o, cap));
                return e ? *e : INFINITY;
            });
        a.possible = !std::isnan(a.capW);
        return a;
    };
    // Rules that judge the load alone search the load, one pass over the slots a step, each cap
    // tried once for all of them (the fleet's failing racks: issue 33).
    std::vector<std::pair<double, double>> loads;
    const auto loadAt = [&](double cap) {
        for (const auto& [c, w] : loads)
            if (c == cap)
                return w;
        loads.emplace_back(cap, busbarLoadAt(d, rackIndex, o, cap));
        return loads.back().second;
    };
    const auto capFor = [&](const std::string& rule) {
        if (const std::optional<double> limit = loadLimit(rule, out, o)) {
            CapAdvice a;
            a.needed = true;
            a.capW = models::largestWithin(lo, hi, *limit, 0.25, loadAt);
            a.possible = !std::isnan(a.capW);
            return a;
        }
        return capWhere([&](const RackPower& r) { return excess(rule, r, o); });
    };
    bool canFit = true;
    for (const std::string& rule : out.failures) {
        const CapAdvice a = capFor(rule);
        out.capByRule.emplace_back(rule, a);
        canFit = canFit && a.possible;
        if (a.possible)
            out.gpuCapToFitW = std::isnan(out.gpuCapToFitW) ? a.capW : std::min(out.gpuCapToFitW, a.capW);
    }
    // Every rule's measure grows with the cap, so the cap that clears them all is the lowest of theirs.
    out.capCanFit = canFit;
    if (!canFit)
        out.gpuCapToFitW = NAN;
    const auto byRule = [&](const char* rule) {
        for (const auto& [id, a] : out.capByRule)
            if (id == rule)
                return a;
        return CapAdvice{};
    };
    out.capN1 = byRule("orv3.shelf.n1");
    out.capFeedLoss = byRule("orv3.feed.loss");
    out.capBusbar = byRule("orv3.busbar.current");
    // A whole shelf lost: the survivors' capacity and their clips' current together. Without named
    // feeds no rule judges it, but the case's clocks must not outrun a survivor's clip.
    const auto shelfLost = [](const RackPower& r) {
        double e = over(r.itLoadW, r.capacityShelfLossW);
        if (!std::isnan(r.clipRatingA))
            e = std::max(e, over(shelfLossClipCurrentA(r), r.clipRatingA));
        return e;
    };
    if (out.shelves.size() >= 2 && shelfLost(out) > 0) {
        const bool clipOver = !std::isnan(out.clipRatingA) && shelfLossClipCurrentA(out) > out.clipRatingA;
        out.capShelfLoss = clipOver ? capWhere([&](const RackPower& r) { return std::optional<double>(shelfLost(r)); })
                                    : capFor("shelf loss"); // the load alone: the fast search
    }
    if (normalExcess(out, o) > 0)
        out.capNormal = capWhere([&](const RackPower& r) { return normalExcess(r, o); });
    // One feed lost: the survivors' capacity and their clips' current together (the clips' worst
    // current is the worst of every feed up and either feed lost; a battery shelf's clip carries
    // current only with all AC lost, the outage case below: until 2026-12-07 a battery clip over
    // its rating capped this case and read as a feed loss).
    // And the AC side with a feed lost: each whip and each feed circuit at its worst of every feed up
    // and the other feed lost (trust trial, 2026-12-07: orv3.ac.whip and power.feed.capacity failed
    // only with a feed lost, and advised a cap, while this case said every rack kept its clocks).
    const auto feedLost = [&o](const RackPower& r) {
        double e = std::isnan(r.capacityFeedLossW) ? -1.0 : over(r.itLoadW, r.capacityFeedLossW);
        if (!std::isnan(r.clipRatingA))
            e = std::max(e, over(r.maxClipCurrentFeedLossA, r.clipRatingA));
        if (std::isnan(r.capacityFeedLossW))
            return e; // no named feeds: no feed to lose (the whips' normal excess is normal operation's)
        e = std::max(e, detail::whipExcess(r, o, false));
        for (const FeedPower& f : r.feeds)
            e = std::max(e, over(f.worstW, f.availableW));
        return e;
    };
    if (feedLost(out) > 0)
        out.capFeedLostCase = capWhere([&](const RackPower& r) { return std::optional<double>(feedLost(r)); });
    // All AC lost: the battery shelves carry the rack for the ride-through.
    if (out.bbuDischargeW <= 0) {
        out.capOnBattery = {true, false, NAN};
        return;
    }
    const auto onBattery = [&o](const RackPower& r) {
        double e = over(r.itLoadW, bbuLoadForHoldup(r.bbus, o.rideThroughS));
        if (!std::isnan(r.clipRatingA))
            for (const ClipCurrent& c : r.clips)
                if (c.lostFeed == "all")
                    e = std::max(e, over(c.currentA, r.clipRatingA));
        return e;
    };
    if (onBattery(out) > 0)
        out.capOnBattery = capWhere([&](const RackPower& r) { return std::optional<double>(onBattery(r)); });
}

} // namespace rdt::power::detail
