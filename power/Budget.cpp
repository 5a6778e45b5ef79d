#include "power/Budget.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "models/PowerModels.h"
#include "power/Busbar.h"

namespace rdt::power {

namespace {

constexpr double kOuM = 0.048;

models::ChassisOperating operatingPoint(const core::Slot& s, double capOverrideW, bool peak)
{
    models::ChassisOperating op;
    op.utilisation = s.overrides.utilisation.value_or(1.0);
    op.gpuCapW = capOverrideW > 0 ? capOverrideW : s.overrides.gpuPowerCapW.value_or(0.0);
    op.peak = peak;
    return op;
}

/// Busbar load of the rack with every GPU capped at `capW` (≤ 0: the design's own caps).
double busbarLoad(const core::Design& d, const core::Rack& r, double capW, bool peak)
{
    double w = 0;
    for (const core::Slot& s : r.slots)
        if (s.part->busbarTap)
            w += models::partDrawW(*s.part, *d.catalog, operatingPoint(s, capW, peak));
    return w;
}

double shelfRating(const core::Part& p)
{
    return p.value("modules", 0) * p.value("module_rating", 0);
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
        const core::Curve* c = p.curve("efficiency_curve");
        const models::EfficiencyCurve curve =
            c ? models::EfficiencyCurve(c->points)
              : models::EfficiencyCurve::constant(p.value("efficiency_full_load", 1.0));
        sh.efficiency = curve.at(sh.loadFraction);
        sh.inputW = sh.outputW / sh.efficiency;
        const double vln = p.value("input_voltage_ln", NAN);
        const double phases = p.value("input_phases", 3);
        sh.phaseCurrentA = sh.inputW / (phases * vln);
        sh.whipCurrentA = sh.phaseCurrentA / p.value("whips", 1);
        sh.whipBreakerA = p.value("whip_breaker", NAN);
    }
}

void busbarNetwork(const core::Design& d, const core::Rack& r, const std::vector<const core::Slot*>& shelfSlots,
                   RackPower& out)
{
    std::vector<BusSource> sources;
    for (const core::Slot* s : shelfSlots) {
        const double v = s->part->value("output_voltage", 50.0);
        const double ratedA = shelfRating(*s->part) / v;
        sources.push_back({midHeight(*s), v, s->part->value("droop", 0.0) / ratedA});
    }
    std::vector<BusLoad> loads;
    std::vector<const core::Slot*> loadSlots;
    for (const core::Slot& s : r.slots)
        if (s.part->busbarTap) {
            loads.push_back({midHeight(s), models::partDrawW(*s.part, *d.catalog, operatingPoint(s, 0, false))});
            loadSlots.push_back(&s);
        }
    const BusSolution sol = solveBusbar(sources, loads, r.rackType->value("busbar_resistance", 0.0));
    out.busbarConverged = sol.converged || sources.empty();
    if (!sol.converged)
        return;
    out.lowestVoltageV = INFINITY;
    out.highestVoltageV = -INFINITY;
    for (std::size_t i = 0; i < loads.size(); ++i) {
        out.loads.push_back({loadSlots[i]->id, loads[i].powerW, sol.loadVoltageV[i], sol.loadCurrentA[i]});
        out.lowestVoltageV = std::min(out.lowestVoltageV, sol.loadVoltageV[i]);
        out.highestVoltageV = std::max(out.highestVoltageV, sol.loadVoltageV[i]);
        out.maxClipCurrentA = std::max(out.maxClipCurrentA, sol.loadCurrentA[i]);
    }
    for (double a : sol.sourceCurrentA)
        out.maxClipCurrentA = std::max(out.maxClipCurrentA, a);
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
        out.capacityFeedLossW = INFINITY;
        for (const char* feed : {"A", "B"})
            out.capacityFeedLossW = std::min(out.capacityFeedLossW, out.capacityNW - byFeed[feed]);
    }
}

void battery(const core::Rack& r, RackPower& out)
{
    for (const core::Slot& s : r.slots)
        if (s.part->kind == core::PartKind::BbuShelf) {
            const double rating = shelfRating(*s.part);
            out.bbuDischargeW += rating;
            out.bbuEnergyJ += s.part->value("energy", s.part->value("holdup_at_rating", 0) * rating);
        }
    if (out.itLoadW <= 0)
        out.bbuHoldupS = out.bbuEnergyJ > 0 ? INFINITY : 0.0;
    else
        out.bbuHoldupS = out.itLoadW <= out.bbuDischargeW ? out.bbuEnergyJ / out.itLoadW : 0.0;
}

} // namespace

RackPower rackPower(const core::Design& d, std::size_t rackIndex)
{
    const core::Rack& r = d.racks[rackIndex];
    RackPower out;
    out.id = r.id;
    out.rack = static_cast<int>(rackIndex);
    std::vector<const core::Slot*> shelfSlots;
    for (const core::Slot& s : r.slots) {
        out.gpus += core::Design::gpuCount(*s.part);
        if (s.part->kind == core::PartKind::PowerShelf)
            shelfSlots.push_back(&s);
        else if (!s.part->busbarTap)
            out.acDirectW += models::partDrawW(*s.part, *d.catalog, operatingPoint(s, 0, false));
    }
    out.itLoadW = busbarLoad(d, r, 0, false);
    out.peakLoadW = busbarLoad(d, r, 0, true);
    capacities(out, shelfSlots);

    out.busbarVminV = r.rackType->value("busbar_min_voltage", 45.0);
    out.busbarVmaxV = r.rackType->value("busbar_max_voltage", 53.0);
    out.busbarRatingA = r.rackType->value("busbar_rating", 0.0);
    out.clipRatingA = r.rackType->value("clip_rating", NAN);
    out.busbarCurrentA = out.itLoadW / out.busbarVminV;
    busbarNetwork(d, r, shelfSlots, out);
    battery(r, out);

    for (const core::Slot* s : shelfSlots)
        out.shelves.push_back({s->id, s->overrides.feed, static_cast<int>(s->part->value("modules", 0)),
                               shelfRating(*s->part), 0, 0, 1, 0, 0, 0, NAN});
    shareLoad(out.shelves, shelfSlots, out.itLoadW);
    for (const ShelfPower& sh : out.shelves) {
        out.acInputW += sh.inputW;
        out.psuLossW += sh.inputW - sh.outputW;
        out.acPhaseCurrentA = std::max(out.acPhaseCurrentA, sh.phaseCurrentA);
        out.whipCurrentA = std::max(out.whipCurrentA, sh.whipCurrentA);
        out.whipBreakerA = std::isnan(out.whipBreakerA) ? sh.whipBreakerA : std::min(out.whipBreakerA, sh.whipBreakerA);
    }
    if (!std::isnan(out.capacityFeedLossW)) {
        // The worst feed lost: the survivors carry the whole load.
        for (const char* lost : {"A", "B"}) {
            std::vector<ShelfPower> survivors;
            std::vector<const core::Slot*> slots;
            for (std::size_t i = 0; i < shelfSlots.size(); ++i)
                if (shelfSlots[i]->overrides.feed != lost) {
                    survivors.push_back(out.shelves[i]);
                    slots.push_back(shelfSlots[i]);
                }
            shareLoad(survivors, slots, out.itLoadW);
            for (const ShelfPower& sh : survivors) {
                out.acPhaseCurrentFeedLossA = std::isnan(out.acPhaseCurrentFeedLossA)
                                                  ? sh.phaseCurrentA
                                                  : std::max(out.acPhaseCurrentFeedLossA, sh.phaseCurrentA);
                out.whipCurrentA = std::max(out.whipCurrentA, sh.whipCurrentA);
            }
        }
    }

    out.usableW = std::min(out.capacityN1W, out.busbarRatingA * out.busbarVminV);
    out.fits = out.itLoadW <= out.usableW;
    if (!out.fits && out.gpus > 0) {
        // Load grows with the cap, so the highest cap that fits is found by bisection.
        double tdp = 0, lo = 0;
        for (const core::Slot& s : r.slots)
            if (s.part->kind == core::PartKind::Chassis && core::Design::gpuCount(*s.part) > 0) {
                tdp = std::max(tdp, models::gpuTdpW(*s.part, *d.catalog));
                lo = std::max(lo, models::gpuMinCapW(*s.part, *d.catalog));
            }
        out.gpuCapToFitW =
            models::largestWithin(lo, tdp, out.usableW, 0.25, [&](double cap) { return busbarLoad(d, r, cap, false); });
        out.capCanFit = !std::isnan(out.gpuCapToFitW);
    }
    return out;
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
    PowerResult res;
    res.racks.reserve(d.racks.size());
    // Racks stamped from one template are identical but for their ids: budget each body once.
    std::map<std::string, std::size_t> firstOfBody;
    for (std::size_t i = 0; i < d.racks.size(); ++i) {
        const core::Rack& rack = d.racks[i];
        const auto [it, added] = firstOfBody.emplace(rack.bodyPath, i);
        if (added || rack.bodyPath.empty()) {
            res.racks.push_back(rackPower(d, i));
            continue;
        }
        RackPower copy = res.racks[it->second];
        const std::string& from = copy.id;
        auto rename = [&](std::string& id) { id = rack.id + id.substr(from.size()); };
        for (ShelfPower& sh : copy.shelves)
            rename(sh.id);
        for (LoadPoint& l : copy.loads)
            rename(l.id);
        copy.id = rack.id;
        copy.rack = static_cast<int>(i);
        res.racks.push_back(std::move(copy));
    }
    auto groups = [&](const std::vector<core::Group>& gs, std::vector<GroupPower>& out) {
        for (const core::Group& g : gs) {
            GroupPower p{g.id};
            for (int ri : g.racks) {
                const RackPower& r = res.racks[static_cast<std::size_t>(ri)];
                ++p.racks;
                p.itLoadW += r.itLoadW + r.acDirectW;
                p.peakLoadW += r.peakLoadW + r.acDirectW;
                p.acInputW += r.acInputW + r.acDirectW;
                p.psuLossW += r.psuLossW;
            }
            out.push_back(p);
        }
    };
    groups(d.rows, res.rows);
    groups(d.pods, res.pods);
    groups(d.halls, res.halls);
    res.cluster.id = "cluster";
    for (const GroupPower& h : res.halls) {
        res.cluster.racks += h.racks;
        res.cluster.itLoadW += h.itLoadW;
        res.cluster.peakLoadW += h.peakLoadW;
        res.cluster.acInputW += h.acInputW;
        res.cluster.psuLossW += h.psuLossW;
    }
    for (const RackPower& r : res.racks)
        if (!std::isnan(r.gpuCapToFitW))
            res.suggestedGpuCapW =
                std::isnan(res.suggestedGpuCapW) ? r.gpuCapToFitW : std::min(res.suggestedGpuCapW, r.gpuCapToFitW);
    return res;
}

} // namespace rdt::power
