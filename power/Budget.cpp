#include "power/Budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "core/WhatIf.h"
#include "models/PowerModels.h"
#include "power/BudgetDetail.h"
#include "power/Busbar.h"

namespace rdt::power {

using detail::noteOnce;

namespace {

constexpr double kOuM = 0.048;

models::ChassisOperating operatingPoint(const core::Design& d, const core::Slot& s, double capOverrideW, bool peak,
                                        double fanSpeed, double utilisationScale)
{
    models::ChassisOperating op;
    op.failedRotors = s.overrides.failedFanRotors + d.scenario.failedRotors;
    op.utilisation =
        s.overrides.utilisation.value_or(1.0) * (s.part->kind == core::PartKind::Chassis ? utilisationScale : 1.0);
    // The cap advice's cap applies over the slot's own, as the clocks take it: a GPU capped lower
    // in the design stays there (the advice once raised it, and advised too low a cap).
    const double own = s.overrides.gpuPowerCapW.value_or(0.0);
    op.gpuCapW = capOverrideW > 0 ? (own > 0 ? std::min(own, capOverrideW) : capOverrideW) : own;
    op.peak = peak;
    op.fanSpeed = fanSpeed;
    return op;
}

double fanSpeedOf(const PowerOptions& o, std::size_t rack, std::size_t slot)
{
    if (rack < o.fanSpeeds.size() && slot < o.fanSpeeds[rack].size())
        return o.fanSpeeds[rack][slot];
    return NAN;
}

bool drawsPower(const core::Part& p)
{
    return p.kind != core::PartKind::PowerShelf && p.kind != core::PartKind::BbuShelf;
}

/// The budgeted draw on a basis: nameplate never below the model; peak never below nameplate (the
/// Catalina example's peak basis read 270 kW against 284 kW nameplate until 2026-12-07); or the model.
double budgetOn(core::PowerBasis basis, double modelledW, double nameplateW, double peakW)
{
    switch (basis) {
    case core::PowerBasis::Nameplate: return std::isnan(nameplateW) ? modelledW : std::max(nameplateW, modelledW);
    case core::PowerBasis::Peak: return std::isnan(nameplateW) ? peakW : std::max(nameplateW, peakW);
    case core::PowerBasis::Modelled: break;
    }
    return modelledW;
}

/// One part's draw on every basis with every GPU capped at `capW` (≤ 0: the design's own caps).
PartPower partPower(const core::Design& d, const core::Slot& s, double capW, double fanSpeed, core::PowerBasis basis,
                    double utilisationScale)
{
    const core::Part& part = *s.part;
    const models::ChassisOperating op = operatingPoint(d, s, capW, false, fanSpeed, utilisationScale);
    models::ChassisOperating peak = op;
    peak.peak = true;
    PartPower p;
    p.id = s.id;
    p.part = part.slug;
    p.busbar = part.busbarTap;
    if (part.kind == core::PartKind::Chassis) {
        const models::ChassisDrawModel model(part, *d.catalog, op);
        const models::ChassisDraw draw = model.at(models::fanSpeedFor(part, op));
        p.modelledW = draw.inputW;
        p.gpuW = draw.gpuW;
        p.cpuW = draw.cpuW;
        p.nicW = draw.nicW;
        p.fanW = draw.fanW;
        p.baseW = draw.baseW;
        p.conversionLossW = draw.conversionLossW;
        if (!model.composed()) {
            // Drawn on its own idle…max line: its GPUs draw what their catalog entry says (as the air
            // and liquid models take them), the rest of the split is not known. It read gpu_W 0 beside
            // the thermal section's 700 W a GPU, and the power-swing model added the GPUs on top of
            // the whole line (trust trial).
            p.gpuW = std::min(model.perGpuW() * part.value("gpus.count", 0.0), draw.inputW);
            p.cpuW = p.nicW = p.fanW = p.baseW = p.conversionLossW = NAN;
        }
        if (part.value("fans.count", 0) > 0) {
            p.fanSpeed = models::fanSpeedFor(part, op);
            p.fanSpeedSolved = std::isfinite(fanSpeed);
        }
    } else
        p.modelledW = models::partDrawW(part, *d.catalog, op);
    p.nameplateW = models::nameplateDrawW(part, *d.catalog, op);
    // Never below the nameplate, on every basis (docs/power.md: the pulse check passed below it).
    p.peakW = std::max(
        {p.modelledW, models::partDrawW(part, *d.catalog, peak), std::isfinite(p.nameplateW) ? p.nameplateW : 0.0});
    p.budgetW = budgetOn(basis, p.modelledW, p.nameplateW, p.peakW);
    return p;
}

/// partPower(…).budgetW alone: only the draws its basis needs, no names copied (cap advice asks
/// for it at every cap it tries, in every failing rack of a fleet).
double partBudgetW(const core::Design& d, const core::Slot& s, double capW, double fanSpeed, core::PowerBasis basis,
                   double utilisationScale)
{
    const core::Part& part = *s.part;
    const models::ChassisOperating op = operatingPoint(d, s, capW, false, fanSpeed, utilisationScale);
    const double modelled = part.kind == core::PartKind::Chassis ? models::chassisDraw(part, *d.catalog, op).inputW
                                                                 : models::partDrawW(part, *d.catalog, op);
    switch (basis) {
    case core::PowerBasis::Nameplate:
        return budgetOn(basis, modelled, models::nameplateDrawW(part, *d.catalog, op), NAN);
    case core::PowerBasis::Peak: {
        models::ChassisOperating peak = op;
        peak.peak = true;
        return budgetOn(basis, modelled, models::nameplateDrawW(part, *d.catalog, op),
                        std::max(modelled, models::partDrawW(part, *d.catalog, peak)));
    }
    case core::PowerBasis::Modelled: break;
    }
    return modelled;
}

double shelfRating(const core::Part& p)
{
    return models::shelfRatingW(p);
}

double midHeight(const core::Slot& s)
{
    return (s.ou - 1 + 0.5 * s.part->ouHeight) * kOuM;
}

/// Shelf outputs for a load shared by `shelves` in proportion to rating; AC side per shelf.
void shareLoad(std::vector<ShelfPower>& shelves, const std::vector<const core::Slot*>& slots, double loadW)
{
    double total = 0;
    for (const auto& s : shelves)
        total += s.ratingW;
    for (std::size_t i = 0; i < shelves.size(); ++i) {
        ShelfPower& sh = shelves[i];
        const core::Part& p = *slots[i]->part;
        sh.loadFraction = total > 0 ? loadW / total : 0.0;
        sh.outputW = sh.loadFraction * sh.ratingW;
        sh.efficiency = models::shelfEfficiency(p).at(sh.loadFraction);
        sh.inputW = sh.outputW / sh.efficiency;
        const double vln = p.value("input_voltage_ln", NAN);
        const double phases = p.value("input_phases", 1); // without the figure, one phase carries it all
        sh.phaseCurrentA = sh.inputW / (phases * vln);
        sh.whipCurrentA = sh.phaseCurrentA / p.value("whips", 1);
        sh.whipBreakerA = p.value("whip_breaker", NAN);
    }
}

void busbarNetwork(const core::Rack& r, const std::vector<const core::Slot*>& shelfSlots,
                   const std::vector<std::pair<const core::Slot*, double>>& busLoads, RackPower& out)
{
    std::vector<BusSource> sources;
    for (const core::Slot* s : shelfSlots) {
        const double v = s->part->value("output_voltage", 50.0);
        const double ratedA = shelfRating(*s->part) / v;
        sources.push_back({midHeight(*s), v, s->part->value("droop", 0.0) / ratedA});
    }
    std::vector<BusLoad> loads;
    for (const auto& [slot, w] : busLoads)
        loads.push_back({midHeight(*slot), w});
    const BusSolution sol = solveBusbar(sources, loads, r.rackType->value("busbar_resistance", 0.0));
    out.busbarConverged = sol.converged || sources.empty();
    if (!sol.converged)
        return;
    out.lowestVoltageV = INFINITY;
    out.highestVoltageV = -INFINITY;
    for (std::size_t i = 0; i < loads.size(); ++i) {
        out.loads.push_back({busLoads[i].first->id, loads[i].powerW, sol.loadVoltageV[i], sol.loadCurrentA[i]});
        out.lowestVoltageV = std::min(out.lowestVoltageV, sol.loadVoltageV[i]);
        out.highestVoltageV = std::max(out.highestVoltageV, sol.loadVoltageV[i]);
    }
    if (loads.empty())
        out.lowestVoltageV = out.highestVoltageV = NAN;
}

void capacities(RackPower& out, const std::vector<const core::Slot*>& shelfSlots)
{
    double largestModule = 0, largestShelf = 0;
    std::map<std::string, double> byFeed;
    bool feeds = false;
    out.pulseRatio = NAN;
    for (const core::Slot* s : shelfSlots) {
        const double rating = shelfRating(*s->part);
        out.capacityNW += rating;
        largestModule = std::max(largestModule, s->part->value("module_rating", 0));
        largestShelf = std::max(largestShelf, rating);
        byFeed[s->overrides.feed] += rating;
        feeds = feeds || !s->overrides.feed.empty();
        if (const auto pulse = s->part->find("pulse_rating"))
            out.pulseRatio = std::isnan(out.pulseRatio) ? *pulse : std::min(out.pulseRatio, *pulse);
    }
    out.capacityN1W = std::max(0.0, out.capacityNW - largestModule);
    out.capacityShelfLossW = std::max(0.0, out.capacityNW - largestShelf);
    if (feeds) {
        // A shelf on no named feed beside ones that name theirs could be on either: it is lost with
        // whichever feed is lost (the conservative reading; the check's message says so).
        out.unnamedFeedShelves = static_cast<int>(std::count_if(
            shelfSlots.begin(), shelfSlots.end(), [](const core::Slot* s) { return s->overrides.feed.empty(); }));
        out.capacityFeedLossW = INFINITY;
        for (const char* feed : {"A", "B"})
            out.capacityFeedLossW = std::min(out.capacityFeedLossW, out.capacityNW - byFeed[feed] - byFeed[""]);
    }
}

void battery(const core::Rack& r, RackPower& out)
{
    for (const core::Slot& s : r.slots)
        if (s.part->kind == core::PartKind::BbuShelf) {
            const double rating = shelfRating(*s.part);
            const double energy = s.part->value("energy", s.part->value("holdup_at_rating", 0) * rating);
            out.bbuDischargeW += rating;
            out.bbuEnergyJ += energy;
            out.bbus.push_back({s.id, rating, energy});
        }
    // Each shelf carries its rating's share until it is empty (Battery.cpp), not the pooled energy.
    out.bbuHoldupS = bbuHoldupSeconds(out.bbus, out.itLoadW);
}

void acSide(RackPower& out, const core::Rack& rack, const std::vector<const core::Slot*>& shelfSlots)
{
    // Declared feeds: the shelves on each (healthy), and parts with their own AC supplies in full on
    // each (dual-corded: either cord may carry them).
    for (const core::RackFeed& f : rack.feeds)
        out.feeds.push_back({f.name, f.availableW, out.acDirectW, out.acDirectW});
    for (const core::Slot* s : shelfSlots)
        out.shelves.push_back({s->id, s->overrides.feed, static_cast<int>(s->part->value("modules", 0)),
                               shelfRating(*s->part), 0, 0, 1, 0, 0, 0, 0, NAN, 0, ""});
    shareLoad(out.shelves, shelfSlots, out.itLoadW);
    // A rack's largest current is not known where one shelf's is not (a shelf without
    // input_voltage_ln): NaN, never the others' largest (until 2026-12-06 such a rack read 0 A).
    const auto largest = [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); };
    for (const ShelfPower& sh : out.shelves) {
        out.acInputW += sh.inputW;
        out.psuLossW += sh.inputW - sh.outputW;
        out.acPhaseCurrentA = largest(out.acPhaseCurrentA, sh.phaseCurrentA);
        out.whipCurrentA = largest(out.whipCurrentA, sh.whipCurrentA);
        out.whipBreakerA = std::isnan(out.whipBreakerA) ? sh.whipBreakerA : std::min(out.whipBreakerA, sh.whipBreakerA);
        for (FeedPower& f : out.feeds)
            if (f.name == sh.feed)
                f.inputW += sh.inputW;
    }
    for (FeedPower& f : out.feeds)
        f.worstW = f.inputW;
    for (ShelfPower& sh : out.shelves) {
        sh.whipCurrentWorstA = sh.whipCurrentA;
        sh.outputWorstW = sh.outputW;
    }
    out.whipCurrentNormalA = out.whipCurrentA;
    if (std::isnan(out.capacityFeedLossW))
        return;
    // The worst feed lost: the survivors carry the whole load.
    bool first = true;
    for (const char* lost : {"A", "B"}) {
        std::vector<ShelfPower> survivors;
        std::vector<const core::Slot*> slots;
        for (std::size_t i = 0; i < shelfSlots.size(); ++i)
            if (shelfSlots[i]->overrides.feed != lost && !shelfSlots[i]->overrides.feed.empty()) {
                survivors.push_back(out.shelves[i]);
                slots.push_back(shelfSlots[i]);
            }
        shareLoad(survivors, slots, out.itLoadW);
        for (FeedPower& f : out.feeds) {
            if (f.name == lost)
                continue;
            double w = out.acDirectW;
            for (const ShelfPower& sh : survivors)
                w += sh.feed == f.name ? sh.inputW : 0.0;
            f.worstW = std::max(f.worstW, w);
        }
        for (const ShelfPower& sh : survivors) {
            out.acPhaseCurrentFeedLossA =
                first ? sh.phaseCurrentA : largest(out.acPhaseCurrentFeedLossA, sh.phaseCurrentA);
            first = false;
            out.whipCurrentA = largest(out.whipCurrentA, sh.whipCurrentA);
            for (ShelfPower& own : out.shelves)
                if (own.id == sh.id) {
                    own.whipCurrentWorstA = std::max(own.whipCurrentWorstA, sh.whipCurrentA);
                    if (sh.outputW > own.outputWorstW) { // its busbar clip carries this output
                        own.outputWorstW = sh.outputW;
                        own.outputWorstLostFeed = lost;
                    }
                }
        }
    }
}

/// Every clip's current by the one convention of every current limit: power / the bar's minimum steady
/// voltage (where a constant-power load draws most). Shelves at their worst: every feed up, or one lost.
void clipCurrents(RackPower& out, const core::Rack& r,
                  const std::vector<std::pair<const core::Slot*, double>>& busLoads)
{
    const auto add = [&](const std::string& id, double w, double normalW, const std::string& lostFeed) {
        out.clips.push_back({id, w, w / out.busbarVminV, lostFeed});
        out.maxClipCurrentA = std::max(out.maxClipCurrentA, w / out.busbarVminV);
        out.maxClipCurrentNormalA = std::max(out.maxClipCurrentNormalA, normalW / out.busbarVminV);
        if (lostFeed != "all")
            out.maxClipCurrentFeedLossA = std::max(out.maxClipCurrentFeedLossA, w / out.busbarVminV);
    };
    for (const ShelfPower& sh : out.shelves)
        add(sh.id, std::max(sh.outputW, sh.outputWorstW), sh.outputW,
            sh.outputWorstW > sh.outputW ? sh.outputWorstLostFeed : "");
    for (const auto& [slot, w] : busLoads)
        add(slot->id, w, w, "");
    // With the AC lost the battery shelves carry the rack through their own clips, in proportion
    // to their discharge ratings (unchecked until 2026-12-06: 702 A on a 700 A clip passed).
    if (out.bbuDischargeW > 0 && out.itLoadW > 0)
        for (const core::Slot& s : r.slots)
            if (s.part->kind == core::PartKind::BbuShelf)
                add(s.id, out.itLoadW * shelfRating(*s.part) / out.bbuDischargeW, 0.0, "all");
}

/// The worst shelf's whip current over its own derated breaker, less one (≤ 0: within): every
/// feed up only (`normalOnly`), else the worst of that and the other feed lost.
} // namespace

double detail::whipExcess(const RackPower& out, const PowerOptions& o, bool normalOnly)
{
    double worst = -1.0;
    for (const ShelfPower& sh : out.shelves)
        if (!std::isnan(sh.whipBreakerA))
            worst = std::max(
                worst,
                (normalOnly ? sh.whipCurrentA : sh.whipCurrentWorstA) / (sh.whipBreakerA * o.breakerDerating) - 1.0);
    return worst;
}

namespace {

/// The power rules the rack fails; PowerChecks reports exactly these.
void judge(RackPower& out, const PowerOptions& o)
{
    auto fail = [&](const char* rule) { out.failures.emplace_back(rule); };
    const bool powered = out.fed && out.itLoadW > 0;
    if (!out.fed)
        fail("orv3.power.source");
    if (out.busbarCurrentA > out.busbarRatingA ||
        (!std::isnan(out.clipRatingA) && out.maxClipCurrentA > out.clipRatingA))
        fail("orv3.busbar.current");
    if (powered) {
        if (out.itLoadW > out.capacityNW)
            fail("orv3.shelf.capacity");
        if (out.itLoadW > out.n1LimitW())
            fail("orv3.shelf.n1");
        const bool outOfWindow =
            !out.busbarConverged || std::any_of(out.loads.begin(), out.loads.end(), [&](const LoadPoint& l) {
                return l.voltageV < out.busbarVminV || l.voltageV > out.busbarVmaxV;
            });
        if (outOfWindow)
            fail("orv3.busbar.voltage");
        if (!std::isnan(out.capacityFeedLossW) && out.itLoadW > out.capacityFeedLossW)
            fail("orv3.feed.loss");
        if (out.bbuHoldupS < o.rideThroughS)
            fail("orv3.bbu.holdup");
        out.whipLimitA = out.whipBreakerA * o.breakerDerating;
        if (detail::whipExcess(out, o, false) > 0)
            fail("orv3.ac.whip");
        if (!std::isnan(out.pulseRatio) && out.peakLoadW > out.capacityN1W * out.pulseRatio)
            fail("orv3.psu.pulse");
        if (std::any_of(out.feeds.begin(), out.feeds.end(), [](const FeedPower& f) { return f.worstW > f.availableW; }))
            fail("power.feed.capacity");
    }
    out.fits = out.failures.empty();
}

} // namespace

void detail::noteOnce(RackPower& out, const std::string& note)
{
    if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
        out.notes.push_back(note);
}

RackPower detail::evaluate(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, double capW)
{
    const core::Rack& r = d.racks[rackIndex];
    RackPower out;
    out.id = r.id;
    out.rack = static_cast<int>(rackIndex);
    out.basis = o.basis;
    std::vector<const core::Slot*> shelfSlots;
    std::vector<std::pair<const core::Slot*, double>> busLoads;
    std::set<std::string> lacking;
    for (std::size_t si = 0; si < r.slots.size(); ++si) {
        const core::Slot& s = r.slots[si];
        out.gpus += core::Design::gpuCount(*s.part);
        // A what-if lost feed: its shelves deliver nothing.
        // (With it, where the rack names feeds, a shelf that names none: it could be on the lost one.)
        const bool lost = core::shelfLostWithFeed(d, r, s);
        if (s.part->kind == core::PartKind::PowerShelf && !lost)
            shelfSlots.push_back(&s);
        if (!drawsPower(*s.part))
            continue;
        PartPower p = partPower(d, s, capW, fanSpeedOf(o, rackIndex, si), o.basis, o.utilisationScale);
        if (o.basis == core::PowerBasis::Nameplate && std::isnan(p.nameplateW) && p.modelledW > 0 &&
            lacking.insert(p.part).second)
            out.notes.push_back(p.part + " has no power.max (budgeted at its modelled draw on the nameplate basis)");
        // No figure at all: its draw is not known, and 0 W is not a budget (until 2026-12-06 such a
        // part was counted at 0 W without a word).
        if (std::isnan(p.nameplateW) && !(p.modelledW > 0) && !s.part->find("power.idle") &&
            lacking.insert(p.part).second)
            out.notes.push_back(p.part + " has no power.max or power.idle: its draw is not known and counted as 0 W "
                                         "(the rack's budget rules do not include it)");
        if (!std::isnan(p.conversionLossW)) // a part without a breakdown: its line is its input
            out.conversionLossW += p.conversionLossW;
        if (p.busbar) {
            out.itLoadW += p.budgetW;
            out.modelledLoadW += p.modelledW;
            out.nameplateLoadW += std::isnan(p.nameplateW) ? p.modelledW : p.nameplateW;
            out.peakLoadW += p.peakW;
            busLoads.emplace_back(&s, p.budgetW);
        } else
            out.acDirectW += p.budgetW;
        out.parts.push_back(std::move(p));
    }
    out.fed = !shelfSlots.empty() || busLoads.empty();
    detail::missingFigures(d, r, shelfSlots, out);
    capacities(out, shelfSlots);
    // With a feed already lost (what-if) the survivors are the whole supply: N and N+1 apply.
    if (!d.scenario.lostFeed.empty())
        out.capacityFeedLossW = NAN;
    out.busbarVminV = r.rackType->value("busbar_min_voltage", 45.0);
    out.busbarVmaxV = r.rackType->value("busbar_max_voltage", 53.0);
    out.busbarRatingA = r.rackType->value("busbar_rating", 0.0);
    out.clipRatingA = r.rackType->value("clip_rating", NAN);
    out.busbarCurrentA = out.itLoadW / out.busbarVminV;
    if (!shelfSlots.empty())
        busbarNetwork(r, shelfSlots, busLoads, out);
    battery(r, out);
    acSide(out, r, shelfSlots);
    clipCurrents(out, r, busLoads);
    out.rackRatingN1W = r.rackType->value("power_n1", NAN);
    out.usableW = std::min(out.n1LimitW(), out.busbarRatingA * out.busbarVminV);
    if (!std::isnan(out.capacityFeedLossW))
        out.usableW = std::min(out.usableW, out.capacityFeedLossW);
    judge(out, o);
    return out;
}

/// Busbar load on the basis with every GPU capped at `capW`: one pass over the slots, what the
/// rules that judge the load alone need (no bus network, no AC side).
double detail::busbarLoadAt(const core::Design& d, std::size_t rackIndex, const PowerOptions& o, double capW)
{
    const core::Rack& r = d.racks[rackIndex];
    double w = 0;
    for (std::size_t si = 0; si < r.slots.size(); ++si) {
        const core::Slot& s = r.slots[si];
        if (s.part->busbarTap && drawsPower(*s.part))
            w += partBudgetW(d, s, capW, fanSpeedOf(o, rackIndex, si), o.basis, o.utilisationScale);
    }
    return w;
}

bool RackPower::fails(const std::string& rule) const
{
    return std::find(failures.begin(), failures.end(), rule) != failures.end();
}

RackPower rackPower(const core::Design& d, std::size_t rackIndex, const PowerOptions& o)
{
    RackPower out = detail::evaluate(d, rackIndex, o, 0.0);
    detail::adviseCaps(d, rackIndex, o, out);
    return out;
}

RackPower rackPower(const core::Design& d, std::size_t rackIndex)
{
    PowerOptions o;
    o.basis = d.power.basis.value_or(core::PowerBasis::Nameplate);
    return rackPower(d, rackIndex, o);
}

std::shared_ptr<const PowerResult> powerFor(const core::Design& design, core::ResultStore& store)
{
    if (auto cached = store.get<PowerResult>("power"))
        return cached;
    auto result = std::make_shared<const PowerResult>(computePower(design));
    store.put<PowerResult>("power", result);
    return result;
}

PowerResult computePower(const core::Design& d)
{
    PowerOptions o;
    o.basis = d.power.basis.value_or(core::PowerBasis::Nameplate);
    return computePower(d, o);
}

} // namespace rdt::power
